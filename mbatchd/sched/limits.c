/*
 * The limit layers placement checks, and the gate before them.  Rule
 * (lsf-reference.md, lsb.queues / lsb.users / lsb.hosts limits):
 *
 * - The gate: a held job (PSUSP), one before its begin time (-b), one
 *   waiting on or never to meet its dependency (-w), one in an inactive
 *   queue (badmin qinact, or outside its dispatch or run window), and an
 *   array element over its "%N", and a job whose job group (or one of its
 *   ancestors) holds its -L of started jobs, is not considered at all.
 * - Job-level headroom: QJOB_LIMIT, UJOB_LIMIT, lsb.users MAX_JOBS of the
 *   user and its groups, which no host choice can change.
 * - Host-level room: MXJ, HJOB_LIMIT, PJOB_LIMIT, JL/U, JL/P of the user
 *   and its groups, lsb.resources limits naming hosts (stage-limits.c),
 *   and span[ptile].
 *
 * A job that fails names the layer that said no, which is what `bjobs -p`
 * shows.
 */
#include "config.h"

#include <limits.h>

#include "pass.h"
#include "reserve.h"

static int
headroom(int limit, int used)
{
	return limit < 0 ? INT_MAX : limit - used;
}

/* ceil() without the libm call: placement asks for every host it looks
 * at.  The truncation rounds toward zero, so one up when it dropped a
 * fraction. */
int
sched_cpu_cap(double per_cpu, int ncpus)
{
	double x;
	int i;

	if (per_cpu < 0)
		return INT_MAX;
	x = per_cpu * (ncpus > 0 ? ncpus : 1);
	i = (int)x;
	return i + (x > i);
}

int
sched_job_headroom(Pass *p, const SchedJob *j, SchedPendReason *why)
{
	const SchedSnapshot *s = p->snap;
	const SchedQueue *q = &s->queues[j->queue];
	const SchedUser *u = &s->users[j->user];
	int room = INT_MAX, r;

	*why = SCHED_PEND_NONE;
	r = headroom(q->qjob_limit, p->count.queue[j->queue]);
	if (r < j->min_slots && *why == SCHED_PEND_NONE)
		*why = SCHED_PEND_QUEUE_LIMIT;
	room = MIN(room, r);
	r = headroom(q->ujob_limit,
	    sched_count_pair(p->count.queue_user, j->queue, j->user));
	if (r < j->min_slots && *why == SCHED_PEND_NONE)
		*why = SCHED_PEND_QUEUE_USER_LIMIT;
	room = MIN(room, r);
	r = headroom(u->max_jobs, sched_count_user(&p->count, j->user));
	if (r < j->min_slots && *why == SCHED_PEND_NONE)
		*why = SCHED_PEND_USER_LIMIT;
	room = MIN(room, r);
	for (guint g = 0; g < u->n_groups; g++) {
		r = headroom(s->groups[u->groups[g]].max_jobs,
		    sched_count_group(&p->count, u->groups[g]));
		if (r < j->min_slots && *why == SCHED_PEND_NONE)
			*why = SCHED_PEND_GROUP_LIMIT;
		room = MIN(room, r);
	}
	return room;
}

/* A user group's JL/P on host h, as the smallest room among the groups. */
static int
group_cpu_room(Pass *p, const SchedJob *j, guint h)
{
	const SchedSnapshot *s = p->snap;
	const SchedUser *u = &s->users[j->user];
	int room = INT_MAX;

	for (guint i = 0; i < u->n_groups; i++) {
		const SchedGroup *g = &s->groups[u->groups[i]];

		if (g->jl_p <= 0)
			continue;
		room = MIN(room, sched_cpu_cap(g->jl_p, s->hosts[h].ncpus) -
		    sched_count_group_host(&p->count, u->groups[i], h));
	}
	return room;
}

/* One host bound: FALSE with its reason when it leaves no room. */
static gboolean
bound(int room, SchedHostReason r, int *free, SchedHostReason *why)
{
	if (room <= 0) {
		*why = r;
		return FALSE;
	}
	*free = MIN(*free, room);
	return TRUE;
}

/*
 * The bounds in a fixed order, the first that leaves no room naming the
 * reason.  A bound whose limit is not set is not looked up: its counters
 * are hash lookups, most of what placing a job costs, and an unset limit
 * never stops a job (it would offer INT_MAX less what is used, more than
 * any job asks).
 */
int
sched_host_room(Pass *p, const SchedJob *j, guint h, SchedHostReason *why)
{
	const SchedSnapshot *s = p->snap;
	const SchedHost *host = &s->hosts[h];
	const SchedQueue *q = &s->queues[j->queue];
	const SchedUser *u = &s->users[j->user];
	int free = INT_MAX, qh = 0;
	int b_all = 0, b_queue = 0, b_user = 0;

	/* Read for every host a job looks at: nothing to call without -x. */
	if (p->excl != NULL && !excl_host_ok(p, j, h, why))
		return 0;
	/* Backfill borrows reserved slots across these limits alone. */
	if (p->reserve != NULL)
		reserve_borrow(p, j, h, &b_all, &b_queue, &b_user);
	if (host->max_slots >= 0 && !bound(host->max_slots -
	    sched_count_host(&p->count, h) + b_all, SCHED_HR_SLOTS, &free, why))
		return 0;
	if (q->hjob_limit >= 0 || q->pjob_limit >= 0)
		qh = sched_count_pair(p->count.queue_host, j->queue, h) - b_queue;
	if (q->hjob_limit >= 0 && !bound(q->hjob_limit - qh,
	    SCHED_HR_QUEUE_HOST, &free, why))
		return 0;
	if (q->pjob_limit >= 0 && !bound(sched_cpu_cap(q->pjob_limit,
	    host->ncpus) - qh,
	    SCHED_HR_QUEUE_CPU, &free, why))
		return 0;
	if (host->jl_u >= 0 && !bound(host->jl_u -
	    sched_count_user_host_jlu(&p->count, j->user, h) + b_user,
	    SCHED_HR_USER_HOST, &free, why))
		return 0;
	if (u->jl_p >= 0 && !bound(sched_cpu_cap(u->jl_p, host->ncpus) -
	    sched_count_user_host_cpu(&p->count, j->user, h) + b_user,
	    SCHED_HR_USER_CPU, &free, why))
		return 0;
	if (u->n_groups > 0 && !bound(group_cpu_room(p, j, h),
	    SCHED_HR_GROUP_CPU, &free, why))
		return 0;
	if (p->limits != NULL && !bound(limits_host_room(p->limits,
	    p->plan->allocs, j, h, why), SCHED_HR_RES_LIMIT, &free, why))
		return 0;
	if (j->ptile > 0)
		free = MIN(free, j->ptile);
	return free;
}

SchedPendReason
sched_job_gate(Pass *p, const SchedJob *j)
{
	const SchedQueue *q = &p->snap->queues[j->queue];

	/* The deadline stage ends it in this pass (deadline.c). */
	if (j->term_time > 0 && j->term_time <= p->snap->now)
		return SCHED_PEND_DEADLINE;
	if (j->held)
		return SCHED_PEND_HELD;
	if (j->begin_time > p->snap->now) {
		/* Nothing announces that moment: wake for it. */
		plan_wake_at(p->plan, j->begin_time);
		return SCHED_PEND_BEGIN_TIME;
	}
	if (j->dep == SCHED_DEP_WAIT)
		return SCHED_PEND_DEP_WAIT;
	if (j->dep == SCHED_DEP_NEVER)
		return SCHED_PEND_DEP_NEVER;
	if (!q->dispatch_ok)
		return q->inactive_by_admin ? SCHED_PEND_QUEUE_INACTIVE_ADM :
		    SCHED_PEND_QUEUE_INACTIVE_WIN;
	if (!p->queue_open[j->queue])
		return SCHED_PEND_QUEUE_INACTIVE_WIN;
	if (j->array_id != 0 && j->array_limit > 0 &&
	    sched_count_array(&p->count, j->array_id) >= j->array_limit)
		return SCHED_PEND_ARRAY_LIMIT;
	if (j->jobgroup != 0 && sched_jobgroup_full(&p->count, p->snap,
	    j->jobgroup))
		return SCHED_PEND_JOBGROUP_LIMIT;
	return SCHED_PEND_NONE;
}

