/*
 * The entitlement stage's last table kept for bconsumers, and the
 * journaling of quota-driven pending (mbd-consumers.h).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-consumers.h"
#include "util/log.h"

static void
fig_free(gpointer p)
{
	MbdConsumerFig *f = p;

	g_free(f->reason);
	g_free(f);
}

void
consumers_figures_free(struct MbdConsumerFigures *f)
{
	if (f == NULL)
		return;
	g_hash_table_destroy(f->figs);
	g_hash_table_destroy(f->group_slots);
	g_free(f);
}

const MbdConsumerFig *
consumers_figures_fig(const struct MbdConsumerFigures *f, const char *group,
    const char *path)
{
	g_autofree char *key = NULL;

	if (f == NULL)
		return NULL;
	key = g_strconcat(group, "\n", path, NULL);
	return g_hash_table_lookup(f->figs, key);
}

int
consumers_figures_group_slots(const struct MbdConsumerFigures *f,
    const char *group)
{
	gpointer v;

	if (f == NULL || !g_hash_table_lookup_extended(f->group_slots, group,
	    NULL, &v))
		return -1;
	return GPOINTER_TO_INT(v) - 1;
}

void
consumers_keep(Manager *m, const Build *b, const SchedPlan *plan)
{
	consumers_figures_free(m->consumer_figs);
	m->consumer_figs = consumers_figures_new(b, plan, manager_now());
}

struct MbdConsumerFigures *
consumers_figures_new(const Build *b, const SchedPlan *plan, gint64 time)
{
	const SchedSnapshot *snap = &b->snap;
	struct MbdConsumerFigures *f;

	if (snap->n_rgroups == 0)
		return NULL;
	f = g_new0(struct MbdConsumerFigures, 1);
	f->time = time;
	f->figs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    fig_free);
	f->group_slots = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    NULL);
	for (guint g = 0; g < snap->n_rgroups; g++)
		g_hash_table_insert(f->group_slots,
		    g_strdup(snap->rgroups[g].name),
		    GINT_TO_POINTER(sched_rgroup_slots(snap, g) + 1));
	g_autofree int *reclaiming = sched_reclaim_counts(snap, plan);

	for (guint i = 0; i < plan->n_quotas; i++) {
		const SchedConsumerQuota *q = &plan->quotas[i];
		MbdConsumerFig *fig;

		if (q->group >= snap->n_rgroups || q->consumer >= snap->n_consumers)
			continue;
		fig = g_new0(MbdConsumerFig, 1);
		fig->owned_scaled = q->owned;
		fig->demand = q->demand;
		fig->quota = q->quota;
		fig->alloc = q->alloc;
		fig->borrowed = q->borrowed;
		fig->lent = q->lent;
		fig->reclaiming = reclaiming[q->group * snap->n_consumers + q->consumer];
		fig->reason = g_strndup(q->reason, sizeof q->reason);
		g_hash_table_replace(f->figs, g_strconcat(snap->rgroups[q->group].name,
		    "\n", snap->consumers[q->consumer].path, NULL), fig);
	}
	return f;
}

static void
commit_pend(Manager *m, Job *j, gboolean pending, const char *consumer,
    const char *rgroup)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobConsumerPend e = BASALT__EV_JOB_CONSUMER_PEND__INIT;
	GError *err = NULL;

	e.job_id = j->id;
	e.array_index = j->index;
	e.pending = pending;
	e.consumer = (char *)(consumer != NULL ? consumer : "");
	e.resource_group = (char *)(rgroup != NULL ? rgroup : "");
	e.reason = j->pending_reason != NULL ? j->pending_reason : (char *)"";
	ev.body_case = BASALT__EVENT__BODY_JOB_CONSUMER_PEND;
	ev.job_consumer_pend = &e;
	if (!manager_commit(m, &ev, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: quota pending not "
		    "journaled: %s", j->id, j->index, err != NULL ? err->message :
		    "?");
		g_clear_error(&err);
	}
}

void
consumers_record_pending(Manager *m, const Build *b, const SchedPlan *plan)
{
	const SchedSnapshot *snap = &b->snap;

	for (guint i = 0; i < plan->n_pending && i < b->pending_jobs->len; i++) {
		Job *j = g_ptr_array_index(b->pending_jobs, i);
		const SchedPending *p = &plan->pending[i];
		guint c = snap->pending[i].consumer;
		const char *path = c > 0 && c <= snap->n_consumers ?
		    snap->consumers[c - 1].path : NULL;

		if (!job_is_pending(j))
			continue;
		if (p->reason == SCHED_PEND_CONSUMER_QUOTA) {
			const char *rg = p->rgroup != NULL ? p->rgroup : "";

			/* Interned names compare by pointer, others by text. */
			if (j->quota_pend == NULL || strcmp(j->quota_pend, rg) != 0)
				commit_pend(m, j, TRUE, path, rg);
		} else if (j->quota_pend != NULL) {
			commit_pend(m, j, FALSE, path, j->quota_pend);
		}
	}
}
