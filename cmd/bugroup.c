/*
 * bugroup: the user groups of lsb.users, LSF's layout:
 *
 *   GROUP_NAME    USERS
 *   ug1          alice bob ug2/
 *
 * -r lists a nested group's users in its place, -w does not cut names,
 * -l prints each group on its own lines with its USER_SHARES.  Read from
 * the configuration files (cmd-conf.h): no BatchService call lists
 * groups.  An unknown group: "<name>: No such user group", exit 255.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-conf.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BUGROUP_USAGE "bugroup [-h] [-V] [-l] [-r] [-w] [user_group ...]"

enum { O_L, O_R, O_W, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_R] = { "-r", FALSE },
	[O_W] = { "-w", FALSE }, [O_N] = { NULL, FALSE },
};

static void
group(GString *out, const BsConfig *cfg, const BsUserGroupConf *g,
      const char **v)
{
	g_autofree char *m = cmd_conf_members(cfg, g->members,
	    bs_config_user_group_expand, v[O_R] != NULL);

	if (v[O_L] != NULL) {
		g_string_append_printf(out, "GROUP_NAME: %s\nUSERS: %s\n",
				       g->name, m);
		if (g->shares != NULL) {
			g_string_append(out, "SHARES:");
			for (guint i = 0; i < g->shares->len; i++) {
				const BsShare *s = g_ptr_array_index(g->shares, i);

				g_string_append_printf(out, " [%s, %d]",
						       s->name, s->shares);
			}
			g_string_append_c(out, '\n');
		}
		g_string_append_c(out, '\n');
		return;
	}
	cmd_cell(out, g->name, 12, v[O_W] != NULL ? CMD_FIT_WIDE : CMD_FIT_HEAD,
		 FALSE);
	g_string_append_printf(out, " %s\n", m);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	const char *v[O_N];
	BsConfig *cfg;
	GPtrArray *groups;
	int code;

	if (cmd_main_hv(argc, argv, BUGROUP_USAGE, &code))
		return code;
	names = cmd_main_opts("bugroup", argc, argv, opts, v, BUGROUP_USAGE,
	    &err);
	if (names == NULL)
		return cmd_main_fail(err);
	cfg = cmd_conf_load("bugroup");
	if (cfg == NULL)
		return CMD_EXIT_FAIL;
	groups = cfg->users != NULL ? cfg->users->groups : NULL;
	if (v[O_L] == NULL)
		g_string_append(out, "GROUP_NAME    USERS\n");
	for (guint i = 0; names[0] == NULL && groups != NULL &&
	     i < groups->len; i++)
		group(out, cfg, g_ptr_array_index(groups, i), v);
	for (guint i = 0; names[i] != NULL; i++) {
		const BsUserGroupConf *g = bs_config_user_group(cfg, names[i]);

		if (g == NULL) {
			fprintf(stderr, "%s: No such user group\n", names[i]);
			code = CMD_EXIT_FAIL;
			continue;
		}
		group(out, cfg, g, v);
	}
	if (names[0] == NULL && (groups == NULL || groups->len == 0)) {
		fprintf(stderr, "No user group found\n");
		code = CMD_EXIT_FAIL;
	} else if (code == CMD_EXIT_OK || names[1] != NULL) {
		cmd_main_out(out);
	}
	bs_config_free(cfg);
	return code;
}
