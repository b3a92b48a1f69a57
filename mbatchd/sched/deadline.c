/*
 * Stage: termination times (bsub -t).  Rule (bsub(1), LSF's -t): when a
 * job's termination time passes, a running or suspended job is killed as
 * its queue's TERMINATE action would, and ends with TERM_DEADLINE; a job
 * still pending then is never started: it ends at once.  Ordered once per
 * run (SchedRunning.deadline_sent, .terminating say it was); the plan
 * wakes the scheduler at the next termination time to come, since nothing
 * else announces it.
 */
#include "config.h"

#include "pass.h"

void
stage_deadlines(Pass *p)
{
	const SchedSnapshot *snap = p->snap;

	for (guint i = 0; i < snap->n_running; i++) {
		const SchedRunning *r = &snap->running[i];

		if (r->term_time <= 0)
			continue;
		if (r->term_time > snap->now)
			plan_wake_at(p->plan, r->term_time);
		else if (!r->deadline_sent && !r->terminating)
			plan_add(p->plan, SCHED_DO_DEADLINE_TERMINATE, i, 0);
	}
	for (guint i = 0; i < snap->n_pending; i++) {
		const SchedJob *j = &snap->pending[i];

		if (j->term_time <= 0)
			continue;
		if (j->term_time > snap->now)
			plan_wake_at(p->plan, j->term_time);
		else
			plan_add(p->plan, SCHED_DO_DEADLINE_EXIT, i, 0);
	}
}
