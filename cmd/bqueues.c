/*
 * bqueues: queue status, the default table or -l, for every queue or the
 * named ones.  The server answers an unknown name with NO_QUEUE, printed
 * as LSF does: "<name>: No such queue".
 */
#include "config.h"

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BQUEUES_USAGE "bqueues [-h] [-V] [-w | -l] [queue_name ...]"

enum { F_LONG = 1, F_WIDE = 2 };
static const char *const flags[] = { "-l", "-w", NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	Basalt__QueueQuery q = BASALT__QUEUE_QUERY__INIT;
	Basalt__QueueList *l;
	guint seen;
	int code;

	if (cmd_main_hv(argc, argv, BQUEUES_USAGE, &code))
		return code;
	names = cmd_main_flags("bqueues", argc, argv, flags, &seen,
	    BQUEUES_USAGE, &err);
	if (names == NULL)
		return cmd_main_fail(err);
	q.names = names;
	q.n_names = g_strv_length(names);
	q.detail = (seen & F_LONG) != 0;
	l = (Basalt__QueueList *)cmd_main_call(LSB_QUEUES, &q.base);
	if (l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(q.n_names == 1 ? names[0] : NULL, l->error)) {
		code = CMD_EXIT_FAIL;
	} else {
		if (seen & F_LONG)
			bqueues_format_long(out, l);
		else
			bqueues_format_table(out, l, (seen & F_WIDE) != 0);
		cmd_main_out(out);
	}
	basalt__queue_list__free_unpacked(l, NULL);
	return code;
}
