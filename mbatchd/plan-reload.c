/*
 * Which resource groups a badmin reconfig changed (plan-reload.h): a
 * digest of each group's plan as the scheduler reads it, compared between
 * the previous configuration at the previous pass and the new one.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "mbatchd/plan-reload.h"

static int
group_index(const BsConfig *cfg, const char *name)
{
	if (cfg->consumers == NULL)
		return -1;
	for (guint i = 0; i < cfg->consumers->groups->len; i++) {
		const BsResourceGroupConf *g = cfg->consumers->groups->pdata[i];

		if (strcmp(g->name, name) == 0)
			return (int)i;
	}
	return -1;
}

static SchedConsumerPolicy
sched_policy(BsConsumerPolicy p)
{
	switch (p) {
	case BS_CONSUMER_POLICY_OWNERSHIP:
		return SCHED_POLICY_OWNERSHIP;
	case BS_CONSUMER_POLICY_SHARE:
		return SCHED_POLICY_SHARE;
	default:
		return SCHED_POLICY_HYBRID;
	}
}

static const char *
path_of(const BsConsumersConf *cc, int c)
{
	return c >= 0 ? ((const BsConsumerConf *)cc->consumers->pdata[c])->path : "-";
}

char *
plan_reload_digest(const BsConfig *cfg, const char *name, GDateTime *t)
{
	int gi = group_index(cfg, name);
	const BsConsumersConf *cc = cfg->consumers;
	const BsResourceGroupConf *g;
	const BsPlanConf *pl;
	g_autoptr(GString) d = NULL;

	if (gi < 0)
		return NULL;
	g = cc->groups->pdata[gi];
	pl = bs_config_plan_in_force(cfg, gi, t);
	d = g_string_new(NULL);
	/* Each field once, separated so no two layouts read the same. */
	g_string_append_printf(d, "group %s\nslots %d\nhosts", g->name, g->plan_slots);
	if (g->hosts == NULL)
		g_string_append(d, " <all>");
	for (guint i = 0; g->hosts != NULL && g->hosts[i] != NULL; i++)
		g_string_append_printf(d, " %s", g->hosts[i]);
	g_string_append_c(d, '\n');
	/* The tree, and each consumer's POLICY under the plan in force. */
	for (guint c = 0; c < cc->consumers->len; c++) {
		const BsConsumerConf *cs = cc->consumers->pdata[c];

		g_string_append_printf(d, "consumer %s parent %s policy %d\n", cs->path,
		    path_of(cc, cs->parent),
		    (int)sched_policy(bs_config_plan_policy(cfg, pl, (int)c)));
	}
	/* The rows in plan order (the order breaks rank ties). */
	for (guint i = 0; pl != NULL && i < pl->rows->len; i++) {
		const BsPlanRow *r = pl->rows->pdata[i];

		g_string_append_printf(d, "row %s owned %d reserved %d limit %d rank %d "
		    "share %.17g grace %d lend %d borrow %d share_limit %d\n",
		    path_of(cc, r->consumer), r->owned, r->reserved, r->limit,
		    bs_config_plan_rank(cfg, r), r->share, r->grace_period,
		    r->lend_limit, r->borrow_limit, r->share_limit);
	}
	return g_compute_checksum_for_string(G_CHECKSUM_SHA256, d->str, d->len);
}

static void
prev_free(gpointer data)
{
	PlanPrev *p = data;

	g_free(p->digest);
	if (p->policy != NULL)
		g_hash_table_unref(p->policy);
	g_free(p);
}

GHashTable *
plan_reload_table_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, prev_free);
}

static void
keep_one(GHashTable *prev, const BsConfig *old, const char *name, GDateTime *t)
{
	PlanPrev *p;
	int gi;

	if (g_hash_table_contains(prev, name))
		return;
	p = g_new0(PlanPrev, 1);
	p->digest = plan_reload_digest(old, name, t);
	gi = group_index(old, name);
	if (gi >= 0) {
		const BsPlanConf *pl = bs_config_plan_in_force(old, gi, t);
		const BsConsumersConf *cc = old->consumers;

		p->policy = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		for (guint c = 0; c < cc->consumers->len; c++)
			g_hash_table_insert(p->policy, g_strdup(path_of(cc, (int)c)),
			    GINT_TO_POINTER((int)sched_policy(
			    bs_config_plan_policy(old, pl, (int)c)) + 1));
	}
	g_hash_table_insert(prev, g_strdup(name), p);
}

void
plan_reload_keep(GHashTable *prev, const BsConfig *old, const BsConfig *new_cfg,
    GDateTime *t)
{
	const BsConfig *both[] = { old, new_cfg };

	for (guint k = 0; k < G_N_ELEMENTS(both); k++) {
		const BsConsumersConf *cc = both[k]->consumers;

		for (guint i = 0; cc != NULL && i < cc->groups->len; i++)
			keep_one(prev, old,
			    ((const BsResourceGroupConf *)cc->groups->pdata[i])->name, t);
	}
}

void
plan_reload_mark(const GHashTable *prev, const BsConfig *cfg, GDateTime *t,
    SchedSnapshot *snap, GPtrArray *store)
{
	/* The groups may be tables kept between passes (mbatchd keeps the
	 * running configuration's): mark a copy the snapshot owns. */
	if (snap->n_rgroups > 0) {
		SchedResourceGroup *own = g_memdup2(snap->rgroups,
		    sizeof *own * snap->n_rgroups);

		g_ptr_array_add(store, own);
		snap->rgroups = own;
	}
	for (guint g = 0; g < snap->n_rgroups; g++) {
		SchedResourceGroup *rg = &snap->rgroups[g];
		const PlanPrev *p = prev != NULL ?
		    g_hash_table_lookup((GHashTable *)prev, rg->name) : NULL;
		g_autofree char *now = plan_reload_digest(cfg, rg->name, t);
		int *pol;

		/* A group the previous configuration did not have is a
		 * change; one no reconfig recorded (none since the pass) is
		 * not. */
		rg->plan_changed = p != NULL &&
		    (p->digest == NULL || now == NULL || strcmp(p->digest, now) != 0);
		rg->prev_policy = NULL;
		if (!rg->plan_changed || p->policy == NULL)
			continue;
		pol = g_new(int, MAX(1u, snap->n_consumers));
		for (guint c = 0; c < snap->n_consumers; c++) {
			gpointer v = g_hash_table_lookup(p->policy, snap->consumers[c].path);

			pol[c] = v != NULL ? GPOINTER_TO_INT(v) - 1 : -1;
		}
		g_ptr_array_add(store, pol);
		rg->prev_policy = pol;
	}
}

GHashTable *
plan_reload_table_copy(GHashTable *prev)
{
	GHashTable *copy = plan_reload_table_new();
	GHashTableIter it;
	gpointer k, v;

	if (prev == NULL)
		return copy;
	g_hash_table_iter_init(&it, prev);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		const PlanPrev *p = v;
		PlanPrev *q = g_new0(PlanPrev, 1);

		q->digest = g_strdup(p->digest);
		if (p->policy != NULL) {
			GHashTableIter pi;
			gpointer pk, pv;

			q->policy = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
			g_hash_table_iter_init(&pi, p->policy);
			while (g_hash_table_iter_next(&pi, &pk, &pv))
				g_hash_table_insert(q->policy, g_strdup(pk), pv);
		}
		g_hash_table_insert(copy, g_strdup(k), q);
	}
	return copy;
}
