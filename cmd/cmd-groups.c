/*
 * The main that bugroup and bmgroup share (cmd-groups.h): options, the
 * configuration, every group or the named ones, and LSF's answers for an
 * unknown group (exit 255, the others still printed when several were
 * named) and for no group at all.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-conf.h"
#include "cmd-groups.h"
#include "cmd-main.h"
#include "cmd-util.h"

static const CmdOpt opts[] = {
	[CMD_GROUPS_L] = { "-l", FALSE }, [CMD_GROUPS_R] = { "-r", FALSE },
	[CMD_GROUPS_W] = { "-w", FALSE }, [CMD_GROUPS_N] = { NULL, FALSE },
};

int
cmd_groups_main(const CmdGroups *c, int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	const char *v[CMD_GROUPS_N];
	const char *header;
	BsConfig *cfg;
	GPtrArray *groups;
	int code;

	if (cmd_main_hv(argc, argv, c->usage, &code))
		return code;
	names = cmd_main_opts(c->prog, argc, argv, opts, v, c->usage, &err);
	if (names == NULL)
		return cmd_main_fail(err);
	cfg = cmd_conf_load(c->prog);
	if (cfg == NULL)
		return CMD_EXIT_FAIL;
	groups = c->list(cfg);
	header = v[CMD_GROUPS_L] != NULL ? c->header_long : c->header;
	if (header != NULL)
		g_string_append(out, header);
	for (guint i = 0; names[0] == NULL && groups != NULL &&
	     i < groups->len; i++)
		c->print(out, cfg, g_ptr_array_index(groups, i), v);
	for (guint i = 0; names[i] != NULL; i++) {
		gconstpointer g = c->lookup(cfg, names[i]);

		if (g == NULL) {
			fprintf(stderr, "%s: No such %s group\n", names[i],
			    c->kind);
			code = CMD_EXIT_FAIL;
			continue;
		}
		c->print(out, cfg, g, v);
	}
	if (names[0] == NULL && (groups == NULL || groups->len == 0)) {
		fprintf(stderr, "No %s group found\n", c->kind);
		code = CMD_EXIT_FAIL;
	} else if (code == CMD_EXIT_OK || names[1] != NULL) {
		cmd_main_out(out);
	}
	bs_config_free(cfg);
	return code;
}
