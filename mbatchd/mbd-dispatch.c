/*
 * One scheduling pass in the daemon: build the snapshot (snapshot.c), run
 * the pure policy (mbatchd/sched), then apply the plan's decisions in its
 * order, one small function per kind (apply_decision): run-window
 * suspensions, resumptions and kills, resumes of preempted jobs, and each
 * dispatch right after the suspensions (or kills) of its victims.  Then
 * record why every other job still waits, and ask for a pass at the
 * plan's next wake-up (a window opening or closing, a begin time).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/mbd-snapshot.h"
#include "util/log.h"

static void
dispatch_one(Build *b, const SchedPlan *plan, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->pending_jobs, d->job);
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;
	GPtrArray *hosts = g_ptr_array_new();

	for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++) {
		const SchedAlloc *al = &g_array_index(plan->allocs, SchedAlloc, a);

		for (int s = 0; s < al->slots; s++)
			g_ptr_array_add(hosts, (gpointer)b->snap.hosts[al->host].name);
	}
	e.job_id = j->id;
	e.array_index = j->index;
	e.exec_hosts = (char **)hosts->pdata;
	e.n_exec_hosts = hosts->len;
	e.effective = effective_resolve_job(b->m->cfg, j);
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	if (manager_commit(b->m, &ev, NULL) && !hosts_start_job(b->m, j))
		log_warning("job %" G_GUINT64_FORMAT ": host %s went away before "
		    "the start order", j->id, j->exec_hosts[0]);
	effective_free(e.effective);
	g_ptr_array_free(hosts, TRUE);
}

static void
resume_one(Build *b, const SchedDecision *r)
{
	Job *j = g_ptr_array_index(b->running_jobs, r->job);

	if (hosts_signal_job(b->m, j, BASALT__EXEC_ACTION__EXEC_ACTION_RESUME, 0,
	    "slots are free again"))
		commit_job_status(b->m, j, JS_RUN, NULL, NULL);
}

/*
 * Suspend (or, with TERMINATE_WHEN=PREEMPT, kill) a victim so its slots go
 * to the preemptor.  The suspend is journaled with the preemptor, which
 * counts toward the victim's MAX_JOB_PREEMPT.
 */
static void
preempt_one(Build *b, const SchedDecision *p)
{
	Job *victim = g_ptr_array_index(b->running_jobs, p->job);
	const Job *by = g_ptr_array_index(b->pending_jobs, p->by);
	const Basalt__JobSpec *spec = job_spec(victim);
	g_autofree char *reason = g_strdup_printf(
	    "The job was preempted by job <%" G_GUINT64_FORMAT "> (queue <%s>);",
	    by->id, by->queue);
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus st = BASALT__EV_JOB_STATUS__INIT;

	log_info("job %" G_GUINT64_FORMAT "[%u]: %s", victim->id, victim->index,
	    reason);
	if (p->kind == SCHED_DO_PREEMPT_TERMINATE) {
		hosts_signal_job(b->m, victim, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE,
		    0, reason);
		/* A rerunnable victim goes back to pending at once; another
		 * ends EXIT when its host reports the kill. */
		if (spec != NULL && spec->rerunnable)
			commit_job_requeue(b->m, victim, FALSE, reason);
		return;
	}
	if (!hosts_signal_job(b->m, victim, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND,
	    0, reason))
		return;
	st.job_id = victim->id;
	st.array_index = victim->index;
	st.state = JS_SSUSP;
	st.reason = reason;
	st.preempted_by_job = by->id;
	st.preempted_by_index = by->index;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &st;
	manager_commit(b->m, &ev, NULL);
}

/* The queue's run window closed: suspend, as sbatchd would for load. */
static void
window_suspend_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	if (hosts_signal_job(b->m, j, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND, 0,
	    WINDOW_REASON))
		commit_job_status(b->m, j, JS_SSUSP, NULL, WINDOW_REASON);
}

/* A run window opened again over a job the window suspended. */
static void
window_resume_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	if (hosts_signal_job(b->m, j, BASALT__EXEC_ACTION__EXEC_ACTION_RESUME, 0,
	    NULL))
		commit_job_status(b->m, j, JS_RUN, NULL, NULL);
}

/* TERMINATE_WHEN=WINDOW: kill once; the job ends when its host reports
 * it, and until then later passes do not order the kill again. */
static void
window_terminate_one(Build *b, const SchedDecision *d)
{
	Job *j = g_ptr_array_index(b->running_jobs, d->job);

	if (hosts_signal_job(b->m, j, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE,
	    0, "the run window closed"))
		j->window_kill_sent = TRUE;
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
	for (guint i = 0; i < plan->decisions->len; i++)
		apply_decision(&b, plan, sched_plan_decision(plan, i));
	record_pending_reasons(&b, plan);
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
}
