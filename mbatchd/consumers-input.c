/*
 * lsb.consumers into the snapshot (sched-consumers.h): the consumer tree,
 * each resource group's hosts (a host counts in the first group listing
 * it, so no slot is offered twice) and each group's terms for every
 * consumer, in plan order: the Plan rows as written, then the consumers
 * the plan does not name, in tree order, with the defaults (own nothing,
 * reserve nothing, no limit).  A group without a Plan section shares its
 * slots among all consumers by those defaults.  A group's time-windowed
 * plans (TIME_WINDOW) are carried beside its default plan, each with its
 * terms built the same way; the stage picks the one in force.  And the one rule that
 * says which consumer a job belongs to (sched_input_job_consumer).
 *
 * All of it comes from the configuration alone (a host's index is its
 * place among the cluster's server hosts), so a caller that keeps a
 * SchedConsumersInput for its configuration (mbatchd: one per
 * configuration, dropped on reconfig) has it built by the first snapshot
 * and reused by every later one; a snapshot without one builds its own.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "mbatchd/sched-input.h"

static SchedConsumerPolicy
policy(BsConsumerPolicy p)
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

static SchedPlanTerms
terms_of(const BsConfig *cfg, guint consumer, const BsPlanRow *row)
{
	SchedPlanTerms t = { 0 };

	t.consumer = consumer;
	t.limit = SCHED_UNLIMITED;
	t.share = 1;
	t.lend_limit = SCHED_UNLIMITED;
	t.borrow_limit = SCHED_UNLIMITED;
	t.share_limit = SCHED_UNLIMITED;
	t.rank = bs_config_plan_rank(cfg, row);
	if (row == NULL)
		return t;
	t.owned = row->owned;
	t.reserved = row->reserved;
	t.limit = row->limit;
	t.share = row->share >= 0 ? row->share : 1;
	t.grace_period = row->grace_period;
	t.lend_limit = row->lend_limit;
	t.borrow_limit = row->borrow_limit;
	t.share_limit = row->share_limit;
	return t;
}

/*
 * One plan's terms appended to in->rg_terms: its rows as written, then
 * the consumers it does not name, in tree order, with the defaults.
 * Returns the offset + 1 of the first (sched_input_consumers turns it
 * into a pointer once the storage stops growing); *plan_slots: PLAN_SLOTS,
 * else the plan's root-level owned.
 */
struct SchedConsumersInput {
	const BsConfig *cfg;      /* built from; NULL: not built */
	GArray *consumers;        /* SchedConsumer */
	GArray *rgroups;          /* SchedResourceGroup */
	GArray *rg_hosts;         /* guint storage: SchedResourceGroup.hosts */
	GArray *rg_terms;         /* SchedPlanTerms storage */
	GArray *rg_windowed;      /* SchedWindowedPlan storage */
};

static gpointer
add_terms(SchedConsumersInput *ci, const SchedInput *in,
    const BsResourceGroupConf *g, const BsPlanConf *pl, guint *n_terms,
    int *plan_slots)
{
	const BsConsumersConf *cc = in->cfg->consumers;
	g_autofree gboolean *named = g_new0(gboolean, cc->consumers->len);
	gpointer first = GUINT_TO_POINTER(ci->rg_terms->len + 1);
	int root_owned = 0;

	*n_terms = 0;
	for (guint i = 0; pl != NULL && i < pl->rows->len; i++) {
		const BsPlanRow *row = pl->rows->pdata[i];
		SchedPlanTerms t = terms_of(in->cfg, row->consumer, row);

		t.policy = policy(bs_config_plan_policy(in->cfg, pl, row->consumer));

		named[row->consumer] = TRUE;
		if (((BsConsumerConf *)cc->consumers->pdata[row->consumer])->parent < 0)
			root_owned += row->owned;
		g_array_append_val(ci->rg_terms, t);
		(*n_terms)++;
	}
	for (guint c = 0; c < cc->consumers->len; c++) {
		SchedPlanTerms t;

		if (named[c])
			continue;
		t = terms_of(in->cfg, c, NULL);
		t.policy = policy(bs_config_plan_policy(in->cfg, pl, (int)c));
		g_array_append_val(ci->rg_terms, t);
		(*n_terms)++;
	}
	*plan_slots = g->plan_slots != BS_CONF_UNLIMITED ? g->plan_slots : root_owned;
	return first;
}

static void
add_group(SchedConsumersInput *ci, const SchedInput *in, guint gi,
    GHashTable *taken)
{
	const BsConsumersConf *cc = in->cfg->consumers;
	const BsResourceGroupConf *g = cc->groups->pdata[gi];
	const BsPlanConf *dflt = NULL;
	g_auto(GStrv) hosts = bs_config_resource_group_hosts(in->cfg, g);
	SchedResourceGroup rg = { 0 };

	rg.name = g->name;
	rg.hosts = GUINT_TO_POINTER(ci->rg_hosts->len + 1);
	for (guint i = 0; hosts != NULL && hosts[i] != NULL; i++) {
		guint h;

		if (!sched_input_host(in, hosts[i], &h) ||
		    g_hash_table_contains(taken, GUINT_TO_POINTER(h + 1)))
			continue;
		g_hash_table_add(taken, GUINT_TO_POINTER(h + 1));
		g_array_append_val(ci->rg_hosts, h);
		rg.n_hosts++;
	}
	for (guint i = 0; i < cc->plans->len; i++) {
		const BsPlanConf *pl = cc->plans->pdata[i];

		if ((guint)pl->group == gi && pl->windows == NULL)
			dflt = pl;
	}
	rg.terms = add_terms(ci, in, g, dflt, &rg.n_terms, &rg.plan_slots);
	/* The time-windowed plans, in file order. */
	rg.windowed = GUINT_TO_POINTER(ci->rg_windowed->len + 1);
	for (guint i = 0; i < cc->plans->len; i++) {
		const BsPlanConf *pl = cc->plans->pdata[i];
		SchedWindowedPlan w = { 0 };

		if ((guint)pl->group != gi || pl->windows == NULL)
			continue;
		w.windows = pl->windows;
		w.terms = add_terms(ci, in, g, pl, &w.n_terms, &w.plan_slots);
		g_array_append_val(ci->rg_windowed, w);
		rg.n_windowed++;
	}
	g_array_append_val(ci->rgroups, rg);
}

SchedConsumersInput *
sched_consumers_input_new(void)
{
	return g_new0(SchedConsumersInput, 1);
}

/* Back to "not built": a new configuration, or the end. */
void
sched_consumers_input_reset(SchedConsumersInput *ci)
{
	if (ci == NULL || ci->consumers == NULL)
		return;
	g_array_free(ci->consumers, TRUE);
	g_array_free(ci->rgroups, TRUE);
	g_array_free(ci->rg_hosts, TRUE);
	g_array_free(ci->rg_terms, TRUE);
	g_array_free(ci->rg_windowed, TRUE);
	memset(ci, 0, sizeof *ci);
}

void
sched_consumers_input_free(SchedConsumersInput *ci)
{
	sched_consumers_input_reset(ci);
	g_free(ci);
}

/* The offsets stored while the arrays grew become pointers, once: the
 * arrays do not change again until the next configuration. */
static void
fix_pointers(SchedConsumersInput *ci)
{
	const guint *hosts = (const guint *)(void *)ci->rg_hosts->data;
	const SchedPlanTerms *terms = (const SchedPlanTerms *)(void *)ci->rg_terms->data;

	for (guint i = 0; i < ci->rgroups->len; i++) {
		SchedResourceGroup *rg = &g_array_index(ci->rgroups, SchedResourceGroup, i);

		rg->hosts = hosts + GPOINTER_TO_UINT(rg->hosts) - 1;
		rg->terms = terms + GPOINTER_TO_UINT(rg->terms) - 1;
		rg->windowed = rg->n_windowed == 0 ? NULL :
		    (SchedWindowedPlan *)(void *)ci->rg_windowed->data +
		    GPOINTER_TO_UINT(rg->windowed) - 1;
	}
	for (guint i = 0; i < ci->rg_windowed->len; i++) {
		SchedWindowedPlan *w = &g_array_index(ci->rg_windowed, SchedWindowedPlan, i);

		w->terms = terms + GPOINTER_TO_UINT(w->terms) - 1;
	}
}

static void
build(SchedConsumersInput *ci, const SchedInput *in)
{
	const BsConsumersConf *cc = in->cfg->consumers;
	g_autoptr(GHashTable) taken = g_hash_table_new(NULL, NULL);

	ci->cfg = in->cfg;
	ci->consumers = g_array_new(FALSE, FALSE, sizeof(SchedConsumer));
	ci->rgroups = g_array_new(FALSE, FALSE, sizeof(SchedResourceGroup));
	ci->rg_hosts = g_array_new(FALSE, FALSE, sizeof(guint));
	ci->rg_terms = g_array_new(FALSE, FALSE, sizeof(SchedPlanTerms));
	ci->rg_windowed = g_array_new(FALSE, FALSE, sizeof(SchedWindowedPlan));
	if (cc == NULL)
		return;
	for (guint i = 0; i < cc->consumers->len; i++) {
		const BsConsumerConf *c = cc->consumers->pdata[i];
		SchedConsumer sc = { c->path, c->parent, policy(c->effective) };

		g_array_append_val(ci->consumers, sc);
	}
	for (guint i = 0; i < cc->groups->len; i++)
		add_group(ci, in, i, taken);
	fix_pointers(ci);
}

void
sched_input_consumers_build(SchedInput *in, SchedConsumersInput *kept)
{
	SchedConsumersInput *ci = kept;

	if (ci == NULL)
		ci = in->consumers_own = sched_consumers_input_new();
	else if (ci->cfg != in->cfg)
		sched_consumers_input_reset(ci);
	if (ci->cfg == NULL)
		build(ci, in);
	in->consumers = ci;
}

guint
sched_input_job_consumer(const SchedInput *in, guint queue, const char *requested)
{
	const BsQueueConf *qc = queue < in->cfg->queues->len ?
	    g_ptr_array_index(in->cfg->queues, queue) : NULL;

	return sched_input_consumer_of(in->cfg, qc, requested);
}

guint
sched_input_consumer_of(const BsConfig *cfg, const BsQueueConf *qc,
    const char *requested)
{
	const BsConsumerConf *c = NULL;

	if (cfg->consumers == NULL)
		return 0;
	if (requested != NULL && requested[0] != '\0')
		c = bs_config_consumer(cfg, requested);
	if (c == NULL && qc != NULL)
		c = bs_config_consumer(cfg, qc->consumer);
	/* Only leaves run jobs: a path that names a parent maps to nothing. */
	if (c == NULL || !c->leaf)
		return 0;
	return (guint)bs_config_consumer_index(cfg, c->path) + 1;
}

void
sched_input_consumers(SchedInput *in, SchedSnapshot *snap)
{
	const SchedConsumersInput *ci = in->consumers;

	snap->consumers = (SchedConsumer *)(void *)ci->consumers->data;
	snap->n_consumers = ci->consumers->len;
	snap->rgroups = (SchedResourceGroup *)(void *)ci->rgroups->data;
	snap->n_rgroups = ci->rgroups->len;
	snap->hybrid_evenly = in->cfg->params->hybrid_evenly_distribute_slots;
	snap->reclaim.disable_hybrid_own = in->cfg->params->disable_reclaim_hybrid_own;
	snap->reclaim.keep_shared = !in->cfg->params->reclaim_shared;
	snap->reclaim.owned_before_borrow = in->cfg->params->reclaim_owned_before_borrow;
	snap->reclaim.ancestor_grace =
	    in->cfg->params->use_ancestor_grace_period_for_reclaim;
	snap->reclaim.criteria = in->cfg->params->reclaim_criteria == 1 ?
	    SCHED_RECLAIM_MOST_RECENT_TASK : SCHED_RECLAIM_POLICY_DEFAULT;
}

void
sched_input_consumers_free(SchedInput *in)
{
	g_clear_pointer(&in->consumers_own, sched_consumers_input_free);
	in->consumers = NULL;
}
