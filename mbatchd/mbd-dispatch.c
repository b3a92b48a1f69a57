/*
 * One scheduling pass in the daemon: build the snapshot (mbd-snapshot.c), run
 * the pure policy (mbatchd/sched), then apply the plan's decisions in its
 * order, one small function per kind (apply_decision): run-window
 * suspensions, resumptions and kills, resumes of preempted jobs, and each
 * dispatch right after the suspensions (or kills) of its victims; each is
 * one call into the orders module (mbd-orders.h), which commits, then
 * sends.  Then record why every other job still waits, and ask for a pass
 * at the plan's next wake-up (a window opening or closing, a begin time).
 */
#include "config.h"

#include <malloc.h>
#include <string.h>

#include "mbatchd/mbd-consumers.h"
#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-reserve.h"
#include "mbatchd/mbd-snapshot.h"
#include "util/log.h"

static void
dispatch_one(Build *b, const SchedPlan *plan, const SchedDecision *d)
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
resume_one(Build *b, const SchedDecision *r)
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
preempt_one(Build *b, const SchedDecision *p)
{
	Job *victim = g_ptr_array_index(b->running_jobs, p->job);
	const Job *by = g_ptr_array_index(b->pending_jobs, p->by);
	g_autofree char *reason = g_strdup_printf(
	    "The job was preempted by job <%" G_GUINT64_FORMAT "> (queue <%s>);",
	    by->id, by->queue);

	log_info("job %" G_GUINT64_FORMAT "[%u]: %s", victim->id, victim->index,
	    reason);
	if (p->kind == SCHED_DO_PREEMPT_TERMINATE)
		(void)orders_terminate(b->m, victim, NULL, reason, TRUE, NULL);
	else
		(void)orders_suspend(b->m, victim, JS_SSUSP, reason, by, NULL);
}

/* The queue's run window closed: suspend, as sbatchd would for load.  A
 * host without a link is tried again on the next pass. */
static void
window_suspend_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	(void)orders_suspend(b->m, j, JS_SSUSP, WINDOW_REASON, NULL, NULL);
}

/* A run window opened again over a job the window suspended. */
static void
window_resume_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	(void)orders_resume(b->m, j, NULL);
}

/* TERMINATE_WHEN=WINDOW: kill once; the job ends when its host reports
 * it, and until then later passes do not order the kill again. */
static void
window_terminate_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	if (orders_terminate(b->m, j, NULL, "the run window closed", FALSE, NULL))
		j->window_kill_sent = TRUE;
}

/* bsub -t passed on a started job: its queue's TERMINATE, once per run;
 * it ends TERM_DEADLINE when its host reports it (mbd-hosts.c). */
static void
deadline_terminate_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	log_info("job %" G_GUINT64_FORMAT "[%u]: termination time passed: "
	    "killed", j->id, j->index);
	if (orders_terminate(b->m, j, NULL, DEADLINE_REASON, FALSE, NULL))
		j->deadline_kill_sent = TRUE;
}

/* bsub -t passed before the job started: it never will. */
static void
deadline_exit_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->pending_jobs, d->job);
	JobOutcome out = { 0, 0, NULL, DEADLINE_TERM };

	log_info("job %" G_GUINT64_FORMAT "[%u]: termination time passed while "
	    "pending: exits", j->id, j->index);
	(void)commit_job_status(b->m, j, JS_EXIT, &out, NULL);
}

/* Reclaim: the notice now (warning action, deadline journaled). */
static void
reclaim_notice_one(Build *b, const SchedPlan *plan, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);
	const SchedReclaim *rc = &g_array_index(plan->reclaims, SchedReclaim, d->by);
	OrdersReclaim r = {
		.deadline = rc->deadline,
		.grace = rc->grace,
		.for_consumer = rc->to >= 0 ? b->snap.consumers[rc->to].path : "",
		.from_consumer = rc->from >= 0 ? b->snap.consumers[rc->from].path : "",
		.kind = sched_reclaim_kind_name(rc->kind),
	};
	GError *err = NULL;

	log_info("job %" G_GUINT64_FORMAT "[%u]: reclaimed (%s) for %s, grace %ds",
	    j->id, j->index, r.kind, *r.for_consumer ? r.for_consumer :
	    rc->kind == SCHED_RECLAIM_HOST_CLOSE ? "a host close" : "a plan change",
	    rc->grace);
	if (!orders_reclaim(b->m, j, &r, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: reclaim not journaled: %s",
		    j->id, j->index, err != NULL ? err->message : "?");
		g_clear_error(&err);
	}
}

/* Reclaim: the grace passed; a grace of 0 comes right after the notice. */
static void
reclaim_requeue_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);
	GError *err = NULL;

	if (!job_is_started(j))
		return;
	if (!orders_reclaim_requeue(b->m, j, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: reclaim requeue: %s",
		    j->id, j->index, err != NULL ? err->message : "?");
		g_clear_error(&err);
	}
}

static void
apply_decision(Build *b, const SchedPlan *plan, const SchedDecision *d)
{
	switch (d->kind) {
	case SCHED_DO_DISPATCH:
		dispatch_one(b, plan, d);
		break;
	case SCHED_DO_PREEMPT_SUSPEND:
	case SCHED_DO_PREEMPT_TERMINATE:
		preempt_one(b, d);
		break;
	case SCHED_DO_RESUME:
		resume_one(b, d);
		break;
	case SCHED_DO_WINDOW_SUSPEND:
		window_suspend_one(b, d);
		break;
	case SCHED_DO_WINDOW_RESUME:
		window_resume_one(b, d);
		break;
	case SCHED_DO_WINDOW_TERMINATE:
		window_terminate_one(b, d);
		break;
	case SCHED_DO_DEADLINE_TERMINATE:
		deadline_terminate_one(b, d);
		break;
	case SCHED_DO_DEADLINE_EXIT:
		deadline_exit_one(b, d);
		break;
	case SCHED_DO_RECLAIM_NOTICE:
		reclaim_notice_one(b, plan, d);
		break;
	case SCHED_DO_RECLAIM_REQUEUE:
		reclaim_requeue_one(b, d);
		break;
	default:
		log_warning("scheduler decision of unknown kind %d ignored",
		    (int)d->kind);
		break;
	}
}

/* Consecutive pending jobs mostly wait for the same reason. */
static gboolean
same_pending(const SchedPending *a, const SchedPending *b)
{
	return a->reason == b->reason && g_strcmp0(a->pool, b->pool) == 0 &&
	    g_strcmp0(a->limit, b->limit) == 0 &&
	    g_strcmp0(a->limit_res, b->limit_res) == 0 &&
	    g_strcmp0(a->rgroup, b->rgroup) == 0 &&
	    memcmp(a->host_counts, b->host_counts, sizeof a->host_counts) == 0;
}

/* Why every job still pending waits; each distinct reason is formatted
 * once per pass, not once per job (a pass with 100,000 pending jobs would
 * otherwise print 100,000 times the same few lines).  The same walk
 * journals the jobs whose consumer's quota started or stopped holding
 * them (mbd-consumers.c). */
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
		/* Held by its spent pre-exec retries: that stays the reason. */
		if (!(j->state == JS_PSUSP && j->preexec_held)) {
			if (last == NULL || !same_pending(last, p)) {
				g_free(reason);
				reason = sched_pending_format(p);
				last = p;
			}
			job_set_pending_reason(j, reason);
		}
		consumers_pending_job(b->m, b, plan, i);
	}
	g_free(reason);
}

/*
 * Give the heap's free pages back after a pass.  What a pass and the
 * submissions between passes allocate and free leaves whole free pages
 * between the jobs' records, which malloc keeps resident: with 50,000
 * pending jobs the heap held 18 MB in use and 48 MB resident.  A trim
 * costs a few milliseconds at that size (a pass there takes 20-50 ms), so
 * at most four times a second, whatever the rate of passes: a pass a
 * second (MBD_SLEEP_TIME=1) trims after each one.
 */
static void
trim_heap(Manager *m)
{
	gint64 now = g_get_monotonic_time();

	if (now - m->trimmed_at < G_USEC_PER_SEC / 4)
		return;
	malloc_trim(0);
	m->trimmed_at = now;
}

void
manager_schedule_now(Manager *m)
{
	Build b;
	SchedPlan *plan;

	/* Nothing can be recorded, so nothing may start. */
	if (m->storage_failed)
		return;
	snapshot_build(&b, m, m->cfg);
	plan = sched_run(&b.snap);
	m->sched_prev_now = b.snap.now;
	m->plan_reloaded = FALSE;
	if (m->plan_prev != NULL)
		g_hash_table_remove_all(m->plan_prev);
	for (guint i = 0; i < plan->decisions->len; i++)
		apply_decision(&b, plan, sched_plan_decision(plan, i));
	record_pending_reasons(&b, plan);
	consumers_keep(m, &b, plan);
	reserve_from_plan(m, &b, plan);
	manager_wake_at(m, plan->next_wake);
	/* What each pool queue deserved, for bqueues -l. */
	g_hash_table_remove_all(m->deserved);
	for (guint q = 0; plan->queue_deserved != NULL && q < b.snap.n_queues; q++)
		if (plan->queue_deserved[q] >= 0)
			g_hash_table_insert(m->deserved,
			    (gpointer)state_intern(m->st, b.snap.queues[q].name),
			    GINT_TO_POINTER(plan->queue_deserved[q] + 1));
	sched_plan_free(plan);
	snapshot_free(&b);
	trim_heap(m);
}
