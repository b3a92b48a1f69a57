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

#include "cmd-conf.h"
#include "cmd-groups.h"
#include "cmd-util.h"

static GPtrArray *
list(const BsConfig *cfg)
{
	return cfg->users != NULL ? cfg->users->groups : NULL;
}

static gconstpointer
lookup(const BsConfig *cfg, const char *name)
{
	return bs_config_user_group(cfg, name);
}

static void
group(GString *out, const BsConfig *cfg, gconstpointer p, const char **v)
{
	const BsUserGroupConf *g = p;
	g_autofree char *m = cmd_conf_members(cfg, g->members,
	    bs_config_user_group_expand, v[CMD_GROUPS_R] != NULL);

	if (v[CMD_GROUPS_L] != NULL) {
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
	cmd_cell(out, g->name, 12, v[CMD_GROUPS_W] != NULL ? CMD_FIT_WIDE :
	    CMD_FIT_HEAD, FALSE);
	g_string_append_printf(out, " %s\n", m);
}

static const CmdGroups bugroup = {
	.prog = "bugroup",
	.usage = "bugroup [-h] [-V] [-l] [-r] [-w] [user_group ...]",
	.kind = "user",
	.header = "GROUP_NAME    USERS\n",
	.header_long = NULL,
	.list = list,
	.lookup = lookup,
	.print = group,
};

int
main(int argc, char **argv)
{
	return cmd_groups_main(&bugroup, argc, argv);
}
