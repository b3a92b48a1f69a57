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

#include <stdio.h>

#include "cmd-conf.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BMGROUP_USAGE "bmgroup [-h] [-V] [-l] [-r] [-w] [host_group ...]"

enum { O_L, O_R, O_W, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_R] = { "-r", FALSE },
	[O_W] = { "-w", FALSE }, [O_N] = { NULL, FALSE },
};

static void
group(GString *out, const BsConfig *cfg, const BsHostGroupConf *g,
      const char **v)
{
	g_autofree char *m = cmd_conf_members(cfg, g->members,
	    bs_config_host_group_expand, v[O_R] != NULL);

	cmd_cell(out, g->name, 12, v[O_W] != NULL ? CMD_FIT_WIDE : CMD_FIT_HEAD,
		 FALSE);
	if (v[O_L] != NULL)
		g_string_append(out, " No       ");
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

	if (cmd_main_hv(argc, argv, BMGROUP_USAGE, &code))
		return code;
	names = cmd_main_opts("bmgroup", argc, argv, opts, v, BMGROUP_USAGE,
	    &err);
	if (names == NULL)
		return cmd_main_fail(err);
	cfg = cmd_conf_load("bmgroup");
	if (cfg == NULL)
		return CMD_EXIT_FAIL;
	groups = cfg->hosts != NULL ? cfg->hosts->groups : NULL;
	g_string_append(out, v[O_L] != NULL ?
	    "GROUP_NAME    CONDENSE  HOSTS\n" : "GROUP_NAME    HOSTS\n");
	for (guint i = 0; names[0] == NULL && groups != NULL &&
	     i < groups->len; i++)
		group(out, cfg, g_ptr_array_index(groups, i), v);
	for (guint i = 0; names[i] != NULL; i++) {
		const BsHostGroupConf *g = bs_config_host_group(cfg, names[i]);

		if (g == NULL) {
			fprintf(stderr, "%s: No such host group\n", names[i]);
			code = CMD_EXIT_FAIL;
			continue;
		}
		group(out, cfg, g, v);
	}
	if (names[0] == NULL && (groups == NULL || groups->len == 0)) {
		fprintf(stderr, "No host group found\n");
		code = CMD_EXIT_FAIL;
	} else if (code == CMD_EXIT_OK || names[1] != NULL) {
		cmd_main_out(out);
	}
	bs_config_free(cfg);
	return code;
}
