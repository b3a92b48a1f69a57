/*
 * One scheduling pass: the stages in order over one closed snapshot.
 * DESIGN.md ("The scheduling pipeline") lists the stages; each is in its
 * own file that opens with the rule it implements:
 *
 *   window.c          time: run and dispatch windows (suspend, resume or
 *                     kill running jobs; which queues and hosts may start
 *                     jobs now); the plan's next wake-up
 *   deadline.c        time: bsub -t termination times that passed
 *   stage-entitle.c   entitlement: slot-pool shares (pool.c) and
 *                     resource-plan quotas (stage-hybrid.c)
 *   stage-order.c     queue order, and each queue's host order
 *   resume.c          preempted jobs take their slots back first
 *   stage-place.c     placement, job by job, under limits.c, the
 *                     lsb.resources limits (stage-limits.c) and -R;
 *                     around each job's turn, slot reservation and
 *                     backfill (stage-reserve.c, whose reservations go
 *                     out in the plan for the next pass)
 *   stage-preempt.c   preemption, for a job placement could not start
 *                     (preempt.c and its helpers choose the victims)
 *   stage-reclaim.c   reclaim: over-allocated consumers give slots back to
 *                     those under quota (notice, grace, requeue), and
 *                     badmin hclose -reclaim
 *
 * The plan is a list of typed decisions in the order the daemon applies
 * them: the window stage's, then resumes, then each dispatch right after
 * the preemptions it needs.  Nothing here reads a clock or calls out:
 * time is snap->now.
 */
#include "config.h"

#include "hybrid.h"
#include "pass.h"
#include "preempt.h"
#include "reserve.h"

SchedPlan *
sched_run(const SchedSnapshot *snap)
{
	Pass p = { .snap = snap };

	p.plan = plan_new(snap);
	sched_count_init(&p.count, snap);
	p.limits = limits_new(snap);
	stage_windows(&p);
	stage_deadlines(&p);
	excl_init(&p);
	/* Reserved slots count as used from here on: for pool entitlements,
	 * resumes and placement alike (stage-reserve.c). */
	p.reserve = reserve_new(&p);
	stage_entitlement(&p);
	stage_order(&p);
	p.preempt = preempt_new(snap);
	if (p.preempt != NULL)
		p.preempt->held = p.run_held;
	sched_resume(&p);
	stage_place(&p);
	hybrid_finish(&p);
	stage_reclaim(&p);

	stage_place_clear(&p);
	hybrid_free(p.hybrid);
	reserve_free(p.reserve);
	g_free(p.order);
	pools_free(p.pools);
	preempt_free(p.preempt);
	limits_free(p.limits);
	for (guint q = 0; q < snap->n_queues; q++)
		g_array_free(p.queue_hosts[q], TRUE);
	g_free(p.queue_hosts);
	g_free(p.queue_open);
	g_free(p.run_open);
	g_free(p.host_state);
	g_free(p.run_held);
	g_free(p.excl);
	g_free(p.excl_held);
	sched_count_clear(&p.count);
	return p.plan;
}
