/*
 * bmgroup: the host groups of lsb.hosts, LSF's layout:
 *
 *   GROUP_NAME    HOSTS
 *   hg1          hostA hostB hg2/
 *
 * -r lists a nested group's hosts in its place, -w does not cut names,
 * -l adds LSF's CONDENSE column (Basalt does not condense groups: No).
 * Read from the configuration files (cmd-conf.h): no BatchService call
 * lists groups.  An unknown group: "<name>: No such host group", exit
 * 255.
 */
#include "config.h"

#include "cmd-conf.h"
#include "cmd-groups.h"
#include "cmd-util.h"

static GPtrArray *
list(const BsConfig *cfg)
{
	return cfg->hosts != NULL ? cfg->hosts->groups : NULL;
}

static gconstpointer
lookup(const BsConfig *cfg, const char *name)
{
	return bs_config_host_group(cfg, name);
}

static void
group(GString *out, const BsConfig *cfg, gconstpointer p, const char **v)
{
	const BsHostGroupConf *g = p;
	g_autofree char *m = cmd_conf_members(cfg, g->members,
	    bs_config_host_group_expand, v[CMD_GROUPS_R] != NULL);

	cmd_cell(out, g->name, 12, v[CMD_GROUPS_W] != NULL ? CMD_FIT_WIDE :
	    CMD_FIT_HEAD, FALSE);
	if (v[CMD_GROUPS_L] != NULL)
		g_string_append(out, " No       ");
	g_string_append_printf(out, " %s\n", m);
}

static const CmdGroups bmgroup = {
	.prog = "bmgroup",
	.usage = "bmgroup [-h] [-V] [-l] [-r] [-w] [host_group ...]",
	.kind = "host",
	.header = "GROUP_NAME    HOSTS\n",
	.header_long = "GROUP_NAME    CONDENSE  HOSTS\n",
	.list = list,
	.lookup = lookup,
	.print = group,
};

int
main(int argc, char **argv)
{
	return cmd_groups_main(&bmgroup, argc, argv);
}
