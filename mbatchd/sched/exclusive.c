/*
 * bsub -x, exclusive execution (lsf-reference.md, lsb.queues EXCLUSIVE):
 * an exclusive job goes only to hosts where no other job holds a slot,
 * running or suspended, and while it runs no other job is placed on its
 * hosts (bhosts shows them closed_Excl).  Two host reasons say which side
 * held a job back, in LSF's words: "Job's requirement for exclusive
 * execution not satisfied" for the -x job, "Running an exclusive job" for
 * any job meeting a host an exclusive job holds.
 *
 * The pass keeps one flag per host, set from the running exclusive jobs
 * and from each exclusive dispatch; a pass without any -x job allocates
 * nothing and checks nothing.
 *
 * A pending -x job collecting slots under SLOT_RESERVE (stage-reserve.c)
 * closes its reserved hosts the same way while its reservation is
 * counted: were another job let onto the free slots of such a host, the
 * host would never be empty again for the -x job, which would wait for
 * ever.  A count per host (excl_held), since nothing stops the snapshot
 * from carrying two such reservations on one host; the owner's turn
 * uncounts its own reservation first, so it still finds its hosts.
 */
#include "config.h"

#include "pass.h"

void
excl_init(Pass *p)
{
	const SchedSnapshot *snap = p->snap;
	gboolean any = FALSE;

	for (guint i = 0; i < snap->n_running && !any; i++)
		any = snap->running[i].exclusive;
	for (guint i = 0; i < snap->n_pending && !any; i++)
		any = snap->pending[i].exclusive;
	if (!any)
		return;
	p->excl = g_new0(guint8, MAX(snap->n_hosts, 1u));
	p->excl_held = g_new0(guint, MAX(snap->n_hosts, 1u));
	for (guint i = 0; i < snap->n_running; i++) {
		const SchedRunning *r = &snap->running[i];

		if (!r->exclusive)
			continue;
		for (guint a = 0; a < r->n_allocs; a++)
			p->excl[r->allocs[a].host] = 1;
	}
}

gboolean
excl_host_ok(const Pass *p, const SchedJob *j, guint h, SchedHostReason *why)
{
	if (p->excl == NULL)
		return TRUE;
	if (excl_closed(p, h)) {
		*why = SCHED_HR_EXCL_RUNNING;
		return FALSE;
	}
	/* Suspended jobs hold their slots too: the raw count, not the one
	 * preemption's counting rules may lower. */
	if (j->exclusive && p->count.host[h] > 0) {
		*why = SCHED_HR_NONEXCLUSIVE;
		return FALSE;
	}
	return TRUE;
}

void
excl_placed(Pass *p, const SchedJob *j, guint h)
{
	if (p->excl != NULL && j->exclusive)
		p->excl[h] = 1;
}

void
excl_reserved(Pass *p, const SchedJob *j, guint h, int sign)
{
	if (p->excl == NULL || !j->exclusive)
		return;
	if (sign > 0)
		p->excl_held[h]++;
	else if (p->excl_held[h] > 0)
		p->excl_held[h]--;
}
