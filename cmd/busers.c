/*
 * busers: job slot limits and counts per user or user group.  Without a
 * name it shows the caller, as LSF does; "all" asks for every user.
 */
#include "config.h"

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BUSERS_USAGE "busers [-h] [-V] [-w] [user_name ... | user_group ... | all]"

enum { F_WIDE = 1 };
static const char *const flags[] = { "-w", NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	char *me[] = { (char *)cmd_main_user(), NULL };
	Basalt__UserQuery q = BASALT__USER_QUERY__INIT;
	Basalt__UserList *l;
	guint seen;
	int code;

	if (cmd_main_hv(argc, argv, BUSERS_USAGE, &code))
		return code;
	names = cmd_main_flags("busers", argc, argv, flags, &seen,
	    BUSERS_USAGE, &err);
	if (names == NULL)
		return cmd_main_fail(err);
	q.names = names[0] != NULL ? names : me;
	q.n_names = g_strv_length(q.names);
	l = (Basalt__UserList *)cmd_main_call(LSB_USERS, &q.base);
	if (l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(NULL, l->error)) {
		code = CMD_EXIT_FAIL;
	} else {
		busers_format_table(out, l, (seen & F_WIDE) != 0);
		cmd_main_out(out);
	}
	basalt__user_list__free_unpacked(l, NULL);
	return code;
}
