/*
 * blimits: the lsb.resources Limit sections and what each holds now
 * (mbatchd counts it with the scheduler's own code).  -c prints the
 * sections as configured; -u, -q, -m, -P keep the limits that cover
 * those users, queues, hosts or projects, -n those of these NAMEs; each
 * may be given more than once or with several names in one quoted word.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BLIMITS_USAGE "blimits [-h] [-V] [-w] [-c] [-n limit_name ...] " \
	"[-m host_name | -m host_group ...] [-P project_name ...] " \
	"[-q queue_name ...] [-u user_name | -u user_group ...]"

static void
add_names(GPtrArray *to, const char *arg)
{
	g_auto(GStrv) w = g_strsplit_set(arg, " \t", -1);

	for (guint i = 0; w[i] != NULL; i++)
		if (w[i][0] != '\0')
			g_ptr_array_add(to, g_strdup(w[i]));
}

int
main(int argc, char **argv)
{
	g_autoptr(GString) out = g_string_new(NULL);
	GPtrArray *lists[5];
	Basalt__LimitQuery q = BASALT__LIMIT_QUERY__INIT;
	Basalt__LimitList *l;
	gboolean wide = FALSE, config = FALSE;
	int code, c;

	if (cmd_main_hv(argc, argv, BLIMITS_USAGE, &code))
		return code;
	for (int i = 0; i < 5; i++)
		lists[i] = g_ptr_array_new_with_free_func(g_free);
	opterr = 0;
	while ((c = getopt(argc, argv, "wcu:q:m:P:n:")) != -1) {
		switch (c) {
		case 'w': wide = TRUE; break;
		case 'c': config = TRUE; break;
		case 'u': add_names(lists[0], optarg); break;
		case 'q': add_names(lists[1], optarg); break;
		case 'm': add_names(lists[2], optarg); break;
		case 'P': add_names(lists[3], optarg); break;
		case 'n': add_names(lists[4], optarg); break;
		default:
			fprintf(stderr, "blimits: illegal option -- %c\nUsage: %s\n",
			    optopt, BLIMITS_USAGE);
			code = CMD_EXIT_FAIL;
			goto done;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "blimits: extra operand %s\nUsage: %s\n",
		    argv[optind], BLIMITS_USAGE);
		code = CMD_EXIT_FAIL;
		goto done;
	}
	q.users = (char **)lists[0]->pdata;
	q.n_users = lists[0]->len;
	q.queues = (char **)lists[1]->pdata;
	q.n_queues = lists[1]->len;
	q.hosts = (char **)lists[2]->pdata;
	q.n_hosts = lists[2]->len;
	q.projects = (char **)lists[3]->pdata;
	q.n_projects = lists[3]->len;
	q.names = (char **)lists[4]->pdata;
	q.n_names = lists[4]->len;
	l = (Basalt__LimitList *)cmd_main_call(LSB_LIMITS, &q.base);
	if (l == NULL) {
		code = CMD_EXIT_FAIL;
		goto done;
	}
	if (cmd_main_refused(NULL, l->error)) {
		code = CMD_EXIT_FAIL;
	} else {
		if (config)
			blimits_format_config(out, l);
		else
			blimits_format_table(out, l, wide);
		cmd_main_out(out);
	}
	basalt__limit_list__free_unpacked(l, NULL);
done:
	for (int i = 0; i < 5; i++)
		g_ptr_array_free(lists[i], TRUE);
	return code;
}
