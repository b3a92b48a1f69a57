/*
 * One scheduling pass in the daemon: build the snapshot (snapshot.c), run
 * the pure policy (mbatchd/sched), then apply the plan in its order:
 * resume preempted jobs whose slots are free, and for each dispatch first
 * suspend (or kill) its victims, then dispatch it; each decision is one
 * call into the orders module (mbd-orders.h), which commits, then sends.
 * Finally record why every other job still waits.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-snapshot.h"
#include "util/log.h"

static void
dispatch_one(Build *b, const SchedPlan *plan, const SchedDispatch *d)
{
	Job *j = g_ptr_array_index(b->pending_jobs, d->job);
	GPtrArray *hosts = g_ptr_array_new();
	GError *err = NULL;

	for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++) {
		const SchedAlloc *al = &g_array_index(plan->allocs, SchedAlloc, a);

		for (int s = 0; s < al->slots; s++)
			g_ptr_array_add(hosts, (gpointer)b->snap.hosts[al->host].name);
	}
	g_ptr_array_add(hosts, NULL);
	if (!orders_dispatch(b->m, j, (char *const *)hosts->pdata, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: not started: %s", j->id,
		    j->index, err != NULL ? err->message : "?");
		g_clear_error(&err);
	}
	g_ptr_array_free(hosts, TRUE);
}

static void
resume_one(Build *b, const SchedResume *r)
{
	Job *j = g_ptr_array_index(b->running_jobs, r->job);

	(void)orders_resume(b->m, j, NULL);
}

/*
 * Suspend (or, with TERMINATE_WHEN=PREEMPT, kill) a victim so its slots go
 * to the preemptor.  The suspend is journaled with the preemptor, which
 * counts toward the victim's MAX_JOB_PREEMPT; a killed rerunnable victim
 * goes back to pending at once, another ends EXIT when its host reports.
 */
static void
preempt_one(Build *b, const SchedPreemption *p)
{
	Job *victim = g_ptr_array_index(b->running_jobs, p->victim);
	const Job *by = g_ptr_array_index(b->pending_jobs, p->preemptor);
	g_autofree char *reason = g_strdup_printf(
	    "The job was preempted by job <%" G_GUINT64_FORMAT "> (queue <%s>);",
	    by->id, by->queue);

	log_info("job %" G_GUINT64_FORMAT "[%u]: %s", victim->id, victim->index,
	    reason);
	if (p->terminate)
		(void)orders_terminate(b->m, victim, NULL, reason, TRUE, NULL);
	else
		(void)orders_suspend(b->m, victim, JS_SSUSP, reason, by, NULL);
}

/* Consecutive pending jobs mostly wait for the same reason. */
static gboolean
same_pending(const SchedPending *a, const SchedPending *b)
{
	return a->reason == b->reason && g_strcmp0(a->pool, b->pool) == 0 &&
	    memcmp(a->host_counts, b->host_counts, sizeof a->host_counts) == 0;
}

/* Why every job still pending waits; each distinct reason is formatted
 * once per pass, not once per job (a pass with 100,000 pending jobs would
 * otherwise print 100,000 times the same few lines). */
static void
record_pending_reasons(Build *b, const SchedPlan *plan)
{
	const SchedPending *last = NULL;
	char *reason = NULL;

	for (guint i = 0; i < plan->n_pending; i++) {
		Job *j = g_ptr_array_index(b->pending_jobs, i);
		const SchedPending *p = &plan->pending[i];

		if (!job_is_pending(j))
			continue;
		if (last == NULL || !same_pending(last, p)) {
			g_free(reason);
			reason = sched_pending_format(p);
			last = p;
		}
		job_set_pending_reason(j, reason);
	}
	g_free(reason);
}

void
manager_schedule_now(Manager *m)
{
	Build b;
	SchedPlan *plan;

	/* Nothing can be recorded, so nothing may start. */
	if (m->storage_failed)
		return;
	snapshot_build(&b, m);
	plan = sched_run(&b.snap);
	/* The plan's order: resumes, then each dispatch after its victims. */
	for (guint i = 0; i < plan->resumes->len; i++)
		resume_one(&b, &g_array_index(plan->resumes, SchedResume, i));
	for (guint i = 0; i < plan->dispatches->len; i++) {
		const SchedDispatch *d = &g_array_index(plan->dispatches, SchedDispatch, i);

		for (guint p = d->first_preemption; p < d->first_preemption + d->n_preemptions; p++)
			preempt_one(&b, &g_array_index(plan->preemptions, SchedPreemption, p));
		dispatch_one(&b, plan, d);
	}
	record_pending_reasons(&b, plan);
	/* What each pool queue deserved, for bqueues -l. */
	g_hash_table_remove_all(m->deserved);
	for (guint q = 0; plan->queue_deserved != NULL && q < b.snap.n_queues; q++)
		if (plan->queue_deserved[q] >= 0)
			g_hash_table_insert(m->deserved,
			    (gpointer)state_intern(m->st, b.snap.queues[q].name),
			    GINT_TO_POINTER(plan->queue_deserved[q] + 1));
	sched_plan_free(plan);
	snapshot_free(&b);
}
