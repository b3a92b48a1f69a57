/*
 * bhosts: host status, the default table or -l, for every host or the
 * named hosts and host groups.
 */
#include "config.h"

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BHOSTS_USAGE "bhosts [-h] [-V] [-w | -l] [host_name ... | host_group ...]"

enum { F_LONG = 1, F_WIDE = 2 };
static const char *const flags[] = { "-l", "-w", NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	Basalt__HostQuery q = BASALT__HOST_QUERY__INIT;
	Basalt__HostList *l;
	guint seen;
	int code;

	if (cmd_main_hv(argc, argv, BHOSTS_USAGE, &code))
		return code;
	names = cmd_main_flags("bhosts", argc, argv, flags, &seen,
	    BHOSTS_USAGE, &err);
	if (names == NULL)
		return cmd_main_fail(err);
	q.names = names;
	q.n_names = g_strv_length(names);
	q.detail = (seen & F_LONG) != 0;
	l = (Basalt__HostList *)cmd_main_call(LSB_HOSTS, &q.base);
	if (l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(q.n_names == 1 ? names[0] : NULL, l->error)) {
		code = CMD_EXIT_FAIL;
	} else {
		if (seen & F_LONG)
			bhosts_format_long(out, l);
		else
			bhosts_format_table(out, l, (seen & F_WIDE) != 0);
		cmd_main_out(out);
	}
	basalt__host_list__free_unpacked(l, NULL);
	return code;
}
