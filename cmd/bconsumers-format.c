/*
 * bconsumers layouts (bconsumers-format.h).  LSF has no such command
 * (Symphony shows plans in its console), so the columns follow the
 * lsb.consumers Plan section they come from, in its order, then what
 * the scheduler made of them: OWNED as configured and SCALED to the
 * group's current size, RESERVED, LIMIT, RANK, SHARE, then DEMAND,
 * QUOTA, ALLOC, BORROWED, LENT.  "-" is an unlimited LIMIT or a SHARE
 * outside the share policy.  One field table serves the default
 * columns and -json, so the two cannot disagree.
 */
#include "config.h"

#include <string.h>

#include "bconsumers-format.h"
#include "cmd-fields.h"
#include "cmd-util.h"

#define C(rec) ((const Basalt__ConsumerInfo *)(rec))

/* The default width of the CONSUMER column: paths longer keep their
 * tail (the leaf's name) behind a '*', as LSF cuts job names. */
#define PATH_WIDTH 20
#define GROUP_WIDTH 10

static gboolean
f_path(GString *v, const void *r) { return cmd_field_str(v, C(r)->path); }
static gboolean
f_group(GString *v, const void *r) { return cmd_field_str(v, C(r)->resource_group); }
static gboolean
f_policy(GString *v, const void *r) { return cmd_field_str(v, C(r)->policy); }
static gboolean
f_owned(GString *v, const void *r) { return cmd_field_int(v, C(r)->owned); }
static gboolean
f_scaled(GString *v, const void *r) { return cmd_field_int(v, C(r)->owned_scaled); }
static gboolean
f_reserved(GString *v, const void *r) { return cmd_field_int(v, C(r)->reserved); }
static gboolean
f_limit(GString *v, const void *r)
{
	cmd_limit(v, C(r)->limit);
	return TRUE;
}
static gboolean
f_rank(GString *v, const void *r) { return cmd_field_int(v, C(r)->rank); }
static gboolean
f_share(GString *v, const void *r)
{
	if (C(r)->share <= 0) {
		g_string_append_c(v, '-');
		return TRUE;
	}
	g_string_append_printf(v, "%g", C(r)->share);
	return TRUE;
}
static gboolean
f_demand(GString *v, const void *r) { return cmd_field_int(v, C(r)->demand); }
static gboolean
f_quota(GString *v, const void *r) { return cmd_field_int(v, C(r)->quota); }
static gboolean
f_alloc(GString *v, const void *r) { return cmd_field_int(v, C(r)->alloc); }
static gboolean
f_borrowed(GString *v, const void *r) { return cmd_field_int(v, C(r)->borrowed); }
static gboolean
f_lent(GString *v, const void *r) { return cmd_field_int(v, C(r)->lent); }
static gboolean
f_reason(GString *v, const void *r) { return cmd_field_str(v, C(r)->reason); }
static gboolean
f_users(GString *v, const void *r)
{
	const Basalt__ConsumerInfo *c = C(r);

	if (c->n_users == 0) {
		g_string_append(v, "all");
		return TRUE;
	}
	for (size_t i = 0; i < c->n_users; i++)
		g_string_append_printf(v, "%s%s", i ? " " : "", c->users[i]);
	return TRUE;
}

/* The numeric columns, in the order of the table; the widths are the
 * header's. */
static const CmdFieldDef numbers[] = {
	{ "owned", "OWNED", 6, f_owned },
	{ "scaled", "SCALED", 7, f_scaled },
	{ "reserved", "RESERVED", 9, f_reserved },
	{ "limit", "LIMIT", 6, f_limit },
	{ "rank", "RANK", 5, f_rank },
	{ "share", "SHARE", 6, f_share },
	{ "demand", "DEMAND", 7, f_demand },
	{ "quota", "QUOTA", 6, f_quota },
	{ "alloc", "ALLOC", 6, f_alloc },
	{ "borrowed", "BORROWED", 9, f_borrowed },
	{ "lent", "LENT", 5, f_lent },
};

static const CmdFieldDef names[] = {
	{ "consumer", "CONSUMER", PATH_WIDTH, f_path },
	{ "resource_group", "RESOURCE_GROUP", GROUP_WIDTH, f_group },
	{ "policy", "POLICY", 9, f_policy },
	{ "users", "USERS", 20, f_users },
	{ "reason", "REASON", 40, f_reason },
};

static void
number_cells(GString *out, const Basalt__ConsumerInfo *c, gboolean header)
{
	for (gsize i = 0; i < G_N_ELEMENTS(numbers); i++) {
		g_autoptr(GString) v = g_string_new(NULL);

		if (header)
			g_string_append(v, numbers[i].header);
		else
			numbers[i].get(v, c);
		g_string_append_c(out, ' ');
		cmd_cell(out, v->str, numbers[i].width, CMD_FIT_WIDE, TRUE);
	}
}

void
bconsumers_format_table(GString *out, const Basalt__ConsumerList *l,
    gboolean wide)
{
	guint pw = PATH_WIDTH, gw = GROUP_WIDTH;

	/* -w: the columns grow to the longest value instead of cutting. */
	for (size_t i = 0; wide && i < l->n_consumers; i++) {
		pw = MAX(pw, (guint)strlen(l->consumers[i]->path));
		gw = MAX(gw, (guint)strlen(l->consumers[i]->resource_group));
	}
	cmd_cell(out, "CONSUMER", pw, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, "RGROUP", gw, CMD_FIT_WIDE, FALSE);
	number_cells(out, NULL, TRUE);
	g_string_append_c(out, '\n');
	for (size_t i = 0; i < l->n_consumers; i++) {
		const Basalt__ConsumerInfo *c = l->consumers[i];

		cmd_cell(out, c->path, pw, wide ? CMD_FIT_WIDE : CMD_FIT_TAIL,
		    FALSE);
		g_string_append_c(out, ' ');
		cmd_cell(out, c->resource_group, gw,
		    wide ? CMD_FIT_WIDE : CMD_FIT_HEAD, FALSE);
		number_cells(out, c, FALSE);
		g_string_append_c(out, '\n');
	}
}

static const Basalt__ResourceGroupInfo *
group_of(const Basalt__ConsumerList *l, const char *name)
{
	for (size_t i = 0; i < l->n_groups; i++)
		if (g_strcmp0(l->groups[i]->name, name) == 0)
			return l->groups[i];
	return NULL;
}

void
bconsumers_format_long(GString *out, const Basalt__ConsumerList *l)
{
	if (l->cycle_time > 0) {
		g_string_append(out, "Figures of the scheduling cycle of ");
		cmd_time_long(out, l->cycle_time);
		g_string_append(out, "\n");
	} else {
		g_string_append(out, "No scheduling cycle has run with this plan "
		    "yet: DEMAND, QUOTA, ALLOC, BORROWED and LENT are 0\n");
	}
	for (size_t i = 0; i < l->n_consumers; i++) {
		const Basalt__ConsumerInfo *c = l->consumers[i];
		const Basalt__ResourceGroupInfo *g = group_of(l, c->resource_group);
		g_autoptr(GString) users = g_string_new(NULL);

		f_users(users, c);
		g_string_append_printf(out, "\nCONSUMER: %s\n", c->path);
		g_string_append_printf(out, "RESOURCE GROUP: %s", c->resource_group);
		if (g != NULL) {
			g_string_append_printf(out, " (PLAN_SLOTS %d, %d slots "
			    "now)  HOSTS:", g->plan_slots, g->slots);
			if (g->n_hosts == 0)
				g_string_append(out, " all");
			for (size_t h = 0; h < g->n_hosts; h++)
				g_string_append_printf(out, " %s", g->hosts[h]);
		}
		g_string_append_printf(out, "\nPOLICY: %s  USERS: %s  %s\n",
		    c->policy[0] != '\0' ? c->policy : "-", users->str,
		    c->leaf ? "LEAF" : "PARENT");
		/* The plan in force: its TIME_WINDOW (lsb.consumers). */
		if (c->time_window != NULL && c->time_window[0] != '\0')
			g_string_append_printf(out, "TIME_WINDOW: %s\n", c->time_window);
		g_string_append_c(out, '\n');
		number_cells(out, NULL, TRUE);
		g_string_append_c(out, '\n');
		number_cells(out, c, FALSE);
		g_string_append_c(out, '\n');
		if (c->reason[0] != '\0')
			g_string_append_printf(out, "\nQUOTA: %s\n", c->reason);
		if (c->reclaiming > 0)
			g_string_append_printf(out, "RECLAIMING: %d slot%s (notice "
			    "sent, grace period running)\n", c->reclaiming,
			    c->reclaiming == 1 ? "" : "s");
	}
}

/* Every column, names first, as the table shows them. */
static gboolean
find(const char *name, CmdFieldRef *ref)
{
	return cmd_field_def_ref(names, G_N_ELEMENTS(names), name, ref) ||
	    cmd_field_def_ref(numbers, G_N_ELEMENTS(numbers), name, ref);
}

void
bconsumers_format_json(GString *out, const Basalt__ConsumerList *l)
{
	static const char all[] = "consumer resource_group policy users "
	    "owned scaled reserved limit rank share demand quota alloc "
	    "borrowed lent reason";
	g_autoptr(CmdFields) f = cmd_fields_parse("bconsumers", all, find,
	    NULL, NULL);

	if (f == NULL)
		return;
	cmd_fields_json(out, f, "bconsumers", "CONSUMERS",
	    (const void *const *)l->consumers, l->n_consumers);
}
