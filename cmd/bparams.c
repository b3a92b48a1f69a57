/*
 * bparams: the cluster's batch parameters (lsb.params), in the short
 * four-line form, -l with an explanation per parameter, or -a for all.
 */
#include "config.h"

#include <stdio.h>

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BPARAMS_USAGE "bparams [-h] [-V] [-l | -a]"

enum { F_LONG = 1, F_ALL = 2 };
static const char *const flags[] = { "-l", "-a", NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) ops = NULL;
	Basalt__ParamsQuery q = BASALT__PARAMS_QUERY__INIT;
	Basalt__ParamsReply *r;
	guint seen;
	int code;

	if (cmd_main_hv(argc, argv, BPARAMS_USAGE, &code))
		return code;
	ops = cmd_main_flags("bparams", argc, argv, flags, &seen,
	    BPARAMS_USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	if (ops[0] != NULL) {
		fprintf(stderr, "bparams: extra operand: %s\nUsage: %s\n",
		    ops[0], BPARAMS_USAGE);
		return CMD_EXIT_FAIL;
	}
	q.all = seen != 0;
	r = (Basalt__ParamsReply *)cmd_main_call(LSB_PARAMS, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(NULL, r->error)) {
		code = CMD_EXIT_FAIL;
	} else {
		if (seen & F_ALL)
			bparams_format_all(out, r);
		else if (seen & F_LONG)
			bparams_format_long(out, r);
		else
			bparams_format_short(out, r);
		cmd_main_out(out);
	}
	basalt__params_reply__free_unpacked(r, NULL);
	return code;
}
