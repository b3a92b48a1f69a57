/*
 * Loading the configuration for the commands that display it (see
 * cmd-conf.h), and the member lists of bugroup and bmgroup.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "cmd-conf.h"
#include "conf/diag.h"

BsConfig *
cmd_conf_load(const char *prog)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	BsConfig *cfg = bs_config_load(NULL, (gint64)time(NULL), d);

	if (cfg == NULL) {
		g_autofree char *text = bs_diags_to_string(d);

		fprintf(stderr, "%s: cannot read the configuration:\n%s", prog,
		    text);
	}
	return cfg;
}

char *
cmd_conf_members(const BsConfig *cfg, char **members, CmdGroupExpand expand,
		 gboolean recursive)
{
	g_autoptr(GString) s = g_string_new(NULL);

	if (members == NULL)
		return g_strdup("all");
	for (guint i = 0; members[i] != NULL; i++) {
		g_auto(GStrv) sub = expand(cfg, members[i]);

		if (s->len > 0)
			g_string_append_c(s, ' ');
		if (sub == NULL) {
			g_string_append(s, members[i]);
		} else if (recursive) {
			g_autofree char *j = g_strjoinv(" ", sub);

			g_string_append(s, j);
		} else {
			g_string_append_printf(s, "%s/", members[i]);
		}
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}
