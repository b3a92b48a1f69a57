/*
 * Stage: preemption.  Rule: seeds/lsf-preemptive-scheduling.txt as read
 * in decisions.md ("Preemption"): a job of a queue that may preempt,
 * which placement could not start (no host with a free slot, or held by
 * a MAX_JOBS limit that suspending jobs relieves), takes slots from
 * running jobs of queues it may preempt; the victims are chosen and the
 * job placed by preempt.c.  The victims' suspensions (or kills, with
 * TERMINATE_WHEN=PREEMPT) go into the plan right before the preemptor's
 * dispatch.
 *
 * Afterwards the victims' hosts may take jobs again, and shapes that
 * found no room may find some: the pass forgets what it memoised.
 */
#include "config.h"

#include <string.h>

#include "pass.h"
#include "shape-memo.h"

gboolean
stage_preempt(Pass *p, guint idx, gboolean placed_none)
{
	const SchedJob *j = &p->snap->pending[idx];
	GArray *dec = p->plan->decisions;

	if (p->preempt == NULL || !preempt_queue_can(p->preempt, j->queue) ||
	    !preempt_try(p, idx, placed_none))
		return FALSE;
	memset(&p->plan->pending[idx], 0, sizeof p->plan->pending[idx]);
	/* The victims just before the dispatch: their hosts may have free
	 * slots again. */
	for (guint i = dec->len - 1; i-- > 0;) {
		const SchedDecision *d = sched_plan_decision(p->plan, i);
		const SchedRunning *r;

		if (!sched_kind_preempts(d->kind) || d->by != idx)
			break;
		r = &p->snap->running[d->job];
		for (guint a = 0; a < r->n_allocs; a++)
			open_reopen(p, r->allocs[a].host);
	}
	/* Suspending victims lowered counters: blocked shapes may fit now. */
	shape_memo_clear(p->blocked);
	shape_memo_clear(p->no_victims);
	return TRUE;
}
