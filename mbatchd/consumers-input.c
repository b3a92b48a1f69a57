/*
 * lsb.consumers into the snapshot (sched-consumers.h): the consumer tree,
 * each resource group's hosts (a host counts in the first group listing
 * it, so no slot is offered twice) and each group's terms for every
 * consumer, in plan order: the Plan rows as written, then the consumers
 * the plan does not name, in tree order, with the defaults (own nothing,
 * reserve nothing, no limit).  A group without a Plan section shares its
 * slots among all consumers by those defaults.  And the one rule that
 * says which consumer a job belongs to (sched_input_job_consumer).
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

static const BsPlanConf *
plan_of(const BsConsumersConf *cc, guint group)
{
	for (guint i = 0; i < cc->plans->len; i++) {
		const BsPlanConf *pl = cc->plans->pdata[i];

		if ((guint)pl->group == group)
			return pl;
	}
	return NULL;
}

static void
add_group(SchedInput *in, guint gi, GHashTable *taken)
{
	const BsConsumersConf *cc = in->cfg->consumers;
	const BsResourceGroupConf *g = cc->groups->pdata[gi];
	const BsPlanConf *pl = plan_of(cc, gi);
	g_auto(GStrv) hosts = bs_config_resource_group_hosts(in->cfg, g);
	g_autofree gboolean *named = g_new0(gboolean, cc->consumers->len);
	SchedResourceGroup rg = { 0 };
	int root_owned = 0;

	rg.name = g->name;
	rg.hosts = GUINT_TO_POINTER(in->rg_hosts->len + 1);
	for (guint i = 0; hosts != NULL && hosts[i] != NULL; i++) {
		guint h;

		if (!sched_input_host(in, hosts[i], &h) ||
		    g_hash_table_contains(taken, GUINT_TO_POINTER(h + 1)))
			continue;
		g_hash_table_add(taken, GUINT_TO_POINTER(h + 1));
		g_array_append_val(in->rg_hosts, h);
		rg.n_hosts++;
	}
	rg.terms = GUINT_TO_POINTER(in->rg_terms->len + 1);
	for (guint i = 0; pl != NULL && i < pl->rows->len; i++) {
		const BsPlanRow *row = pl->rows->pdata[i];
		SchedPlanTerms t = terms_of(in->cfg, row->consumer, row);

		named[row->consumer] = TRUE;
		if (((BsConsumerConf *)cc->consumers->pdata[row->consumer])->parent < 0)
			root_owned += row->owned;
		g_array_append_val(in->rg_terms, t);
		rg.n_terms++;
	}
	for (guint c = 0; c < cc->consumers->len; c++) {
		SchedPlanTerms t;

		if (named[c])
			continue;
		t = terms_of(in->cfg, c, NULL);
		g_array_append_val(in->rg_terms, t);
		rg.n_terms++;
	}
	rg.plan_slots = g->plan_slots != BS_CONF_UNLIMITED ? g->plan_slots : root_owned;
	g_array_append_val(in->rgroups, rg);
}

void
sched_input_consumers_build(SchedInput *in)
{
	const BsConsumersConf *cc = in->cfg->consumers;
	g_autoptr(GHashTable) taken = g_hash_table_new(NULL, NULL);

	in->consumers = g_array_new(FALSE, FALSE, sizeof(SchedConsumer));
	in->rgroups = g_array_new(FALSE, FALSE, sizeof(SchedResourceGroup));
	in->rg_hosts = g_array_new(FALSE, FALSE, sizeof(guint));
	in->rg_terms = g_array_new(FALSE, FALSE, sizeof(SchedPlanTerms));
	if (cc == NULL)
		return;
	for (guint i = 0; i < cc->consumers->len; i++) {
		const BsConsumerConf *c = cc->consumers->pdata[i];
		SchedConsumer sc = { c->path, c->parent, policy(c->effective) };

		g_array_append_val(in->consumers, sc);
	}
	for (guint i = 0; i < cc->groups->len; i++)
		add_group(in, i, taken);
}

guint
sched_input_job_consumer(const SchedInput *in, guint queue, const char *requested)
{
	const BsConsumerConf *c = NULL;
	const BsQueueConf *qc;

	if (in->cfg->consumers == NULL)
		return 0;
	if (requested != NULL && requested[0] != '\0')
		c = bs_config_consumer(in->cfg, requested);
	if (c == NULL && queue < in->cfg->queues->len) {
		qc = g_ptr_array_index(in->cfg->queues, queue);
		c = bs_config_consumer(in->cfg, qc->consumer);
	}
	/* Only leaves run jobs: a path that names a parent maps to nothing. */
	if (c == NULL || !c->leaf)
		return 0;
	return (guint)bs_config_consumer_index(in->cfg, c->path) + 1;
}

void
sched_input_consumers(SchedInput *in, SchedSnapshot *snap)
{
	const guint *hosts = (const guint *)(void *)in->rg_hosts->data;
	const SchedPlanTerms *terms = (const SchedPlanTerms *)(void *)in->rg_terms->data;

	for (guint i = 0; i < in->rgroups->len; i++) {
		SchedResourceGroup *rg = &g_array_index(in->rgroups, SchedResourceGroup, i);

		rg->hosts = hosts + GPOINTER_TO_UINT(rg->hosts) - 1;
		rg->terms = terms + GPOINTER_TO_UINT(rg->terms) - 1;
	}
	snap->consumers = (SchedConsumer *)(void *)in->consumers->data;
	snap->n_consumers = in->consumers->len;
	snap->rgroups = (SchedResourceGroup *)(void *)in->rgroups->data;
	snap->n_rgroups = in->rgroups->len;
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
	if (in->consumers == NULL)
		return;
	g_array_free(in->consumers, TRUE);
	g_array_free(in->rgroups, TRUE);
	g_array_free(in->rg_hosts, TRUE);
	g_array_free(in->rg_terms, TRUE);
}
