/*
 * blimits output, in LSF's layout:
 *
 *   INTERNAL RESOURCE LIMITS:
 *
 *       NAME         USERS        QUEUES       HOSTS        PROJECTS      SLOTS     MEM     TMP     SWP    JOBS
 *       lim1         alice        -            -            -               1/2       -       -       -       -
 *
 * One row per limit and PER_ member in use, each resource as used/limit
 * ("-" for one the limit does not set).  An APPS column and a column per
 * named resource come only when some row has them.  Consumer cells are
 * cut at 12 with a '*' unless -w.  blimits -c prints the Limit sections
 * as configured, KEY = value.
 */
#include "config.h"

#include <string.h>

#include "bqueues-format.h"
#include "cmd-util.h"

static void
used_of(GString *v, double used, double max, gboolean pct)
{
	if (max < 0) {
		g_string_append(v, "-");
		return;
	}
	g_string_append_printf(v, "%g/%g%s", used < 0 ? 0 : used, max,
	    pct ? "%" : "");
}

static void
cell(GString *out, const char *s, guint width, gboolean wide)
{
	cmd_cell(out, s, width, wide ? CMD_FIT_WIDE : CMD_FIT_HEAD, FALSE);
}

static void
num_cell(GString *out, double used, double max, gboolean pct)
{
	g_autoptr(GString) v = g_string_new(NULL);

	used_of(v, used, max, pct);
	cmd_cell(out, v->str, 8, CMD_FIT_WIDE, TRUE);
}

void
blimits_format_table(GString *out, const Basalt__LimitList *l, gboolean wide)
{
	g_autoptr(GPtrArray) res = g_ptr_array_new();
	gboolean apps = FALSE;

	if (l->n_limits == 0) {
		g_string_append(out, "No resource usage found.\n");
		return;
	}
	for (size_t i = 0; i < l->n_limits; i++) {
		const Basalt__LimitUsage *u = l->limits[i];

		apps |= strcmp(u->apps, "-") != 0;
		for (size_t r = 0; r < u->n_res_names; r++) {
			gboolean seen = FALSE;

			for (guint k = 0; k < res->len; k++)
				seen |= strcmp(res->pdata[k], u->res_names[r]) == 0;
			if (!seen)
				g_ptr_array_add(res, u->res_names[r]);
		}
	}
	g_string_append(out, "INTERNAL RESOURCE LIMITS:\n\n    ");
	cell(out, "NAME", 13, TRUE);
	cell(out, "USERS", 13, TRUE);
	cell(out, "QUEUES", 13, TRUE);
	cell(out, "HOSTS", 13, TRUE);
	cell(out, "PROJECTS", 13, TRUE);
	if (apps)
		cell(out, "APPS", 13, TRUE);
	g_string_append(out, "   SLOTS      MEM      TMP      SWP     JOBS");
	for (guint k = 0; k < res->len; k++)
		cmd_cell(out, res->pdata[k], 9, CMD_FIT_WIDE, TRUE);
	g_string_append_c(out, '\n');
	for (size_t i = 0; i < l->n_limits; i++) {
		const Basalt__LimitUsage *u = l->limits[i];

		g_string_append(out, "    ");
		cell(out, u->name, 12, wide);
		g_string_append_c(out, ' ');
		cell(out, u->users, 12, wide);
		g_string_append_c(out, ' ');
		cell(out, u->queues, 12, wide);
		g_string_append_c(out, ' ');
		cell(out, u->hosts, 12, wide);
		g_string_append_c(out, ' ');
		cell(out, u->projects, 12, wide);
		g_string_append_c(out, ' ');
		if (apps) {
			cell(out, u->apps, 12, wide);
			g_string_append_c(out, ' ');
		}
		num_cell(out, u->slots_used, u->slots_max, FALSE);
		g_string_append_c(out, ' ');
		num_cell(out, u->mem_used, u->mem_max, u->mem_pct);
		g_string_append_c(out, ' ');
		num_cell(out, u->tmp_used, u->tmp_max, u->tmp_pct);
		g_string_append_c(out, ' ');
		num_cell(out, u->swp_used, u->swp_max, u->swp_pct);
		g_string_append_c(out, ' ');
		num_cell(out, u->jobs_used, u->jobs_max, FALSE);
		for (guint k = 0; k < res->len; k++) {
			double used = -1, max = -1;

			for (size_t r = 0; r < u->n_res_names; r++)
				if (strcmp(u->res_names[r], res->pdata[k]) == 0 &&
				    r < u->n_res_used && r < u->n_res_max) {
					used = u->res_used[r];
					max = u->res_max[r];
				}
			g_string_append_c(out, ' ');
			num_cell(out, used, max, FALSE);
		}
		g_string_append_c(out, '\n');
	}
}

void
blimits_format_config(GString *out, const Basalt__LimitList *l)
{
	if (l->n_configured == 0) {
		g_string_append(out, "No limits configured.\n");
		return;
	}
	for (size_t i = 0; i < l->n_configured; i++) {
		const Basalt__LimitConfig *c = l->configured[i];

		if (i > 0)
			g_string_append_c(out, '\n');
		g_string_append(out, "Begin Limit\n");
		for (size_t k = 0; k < c->n_keys; k++)
			g_string_append_printf(out, "%-19s = %s\n", c->keys[k]->key,
			    c->keys[k]->value);
		g_string_append(out, "End Limit\n");
	}
}
