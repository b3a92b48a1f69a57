/*
 * bqueues: queue status, the default table, -l, -r, -o or -json, for
 * every queue or the named ones, or those that -u user or -m host
 * selects (mbatchd selects).  The server answers an unknown name with
 * NO_QUEUE, printed as LSF does: "<name>: No such queue"; a selection
 * that leaves no queue prints "No such queue" and exits 255.
 */
#include "config.h"

#include <stdio.h>

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BQUEUES_USAGE \
	"bqueues [-h] [-V] [-w | -l | -r | -o \"field[:[-]width] ... " \
	"[delimiter='char']\" [-json]] [-noheader] [-m host_name | -m " \
	"host_group | -m all] [-u user_name | -u user_group | -u all] " \
	"[queue_name ...]"

enum { O_L, O_W, O_R, O_O, O_JSON, O_NOHEADER, O_U, O_M, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_W] = { "-w", FALSE },
	[O_R] = { "-r", FALSE }, [O_O] = { "-o", TRUE },
	[O_JSON] = { "-json", FALSE }, [O_NOHEADER] = { "-noheader", FALSE },
	[O_U] = { "-u", TRUE }, [O_M] = { "-m", TRUE },
	[O_N] = { NULL, FALSE },
};

static gboolean
format(GString *out, const char **v, const Basalt__QueueList *l,
    GError **err)
{
	g_autoptr(CmdFields) f = NULL;

	if (v[O_O] != NULL || v[O_JSON] != NULL) {
		f = bqueues_fields_parse(v[O_O], err);
		if (f == NULL)
			return FALSE;
		if (v[O_JSON] != NULL)
			bqueues_format_json(out, f, l);
		else
			bqueues_format_custom(out, f, l, v[O_NOHEADER] != NULL);
	} else if (v[O_L] != NULL || v[O_R] != NULL) {
		bqueues_format_long(out, l);
	} else {
		bqueues_format_table(out, l, v[O_W] != NULL);
	}
	return TRUE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	Basalt__QueueQuery q = BASALT__QUEUE_QUERY__INIT;
	Basalt__QueueList *l;
	const char *v[O_N];
	int code;

	if (cmd_main_hv(argc, argv, BQUEUES_USAGE, &code))
		return code;
	names = cmd_main_opts("bqueues", argc, argv, opts, v, BQUEUES_USAGE,
	    &err);
	if (names == NULL)
		return cmd_main_fail(err);
	q.names = names;
	q.n_names = g_strv_length(names);
	/* -o fields read the queue's parameters (limits, HOSTS, RES_REQ). */
	q.detail = v[O_L] != NULL || v[O_R] != NULL || v[O_O] != NULL ||
	    v[O_JSON] != NULL;
	q.user = (char *)(v[O_U] != NULL ? v[O_U] : "");
	q.host = (char *)(v[O_M] != NULL ? v[O_M] : "");
	l = (Basalt__QueueList *)cmd_main_call(LSB_QUEUES, &q.base);
	if (l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(q.n_names == 1 && v[O_M] == NULL ? names[0] :
	    NULL, l->error)) {
		code = CMD_EXIT_FAIL;
	} else if (l->n_queues == 0 && v[O_JSON] == NULL) {
		fprintf(stderr, "No such queue\n");
		code = CMD_EXIT_FAIL;
	} else if (!format(out, v, l, &err)) {
		code = cmd_main_fail(err);
	} else {
		cmd_main_out(out);
	}
	basalt__queue_list__free_unpacked(l, NULL);
	return code;
}
