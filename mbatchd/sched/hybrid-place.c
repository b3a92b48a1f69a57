/*
 * Placement under resource plans.  Rule: issue 17 item 7 with
 * seeds/symphony-hybrid-policy.txt "Slot distribution": a consumer's job
 * may start only within what the entitlement stage granted its consumer
 * this pass (stage-hybrid.c: idle slots up to its quota, in rank order),
 * counted on the hosts of the resource group; queue priority orders the
 * jobs within that.  A job outside every consumer is held only on a
 * group's hosts, to the idle slots no consumer was granted (reserved
 * slots are never lent); elsewhere, and with no plans, nothing changes.
 * bsub -x jobs are placed by their own rule first (the quota does not
 * hold them back) and then counted against the quota.
 *
 * Preemption (issue 17 item 7: it keeps its rules for the jobs of its
 * queues) moves slots within one side of a plan, never across it: on a
 * group's hosts a job may preempt only jobs of its own consumer (a job
 * outside every consumer only jobs outside every consumer), and the
 * slots its victims release count back to that side for the pass, so the
 * preemptor takes no more than its consumer held.  A job suspended by
 * preemption holds no slot of its consumer's allocation (its host slot is
 * free, as MXJ counts it; stage-hybrid.c counts it as demand) and resumes
 * only within what its consumer may start, like a dispatch.  Slots another
 * consumer holds beyond its quota come back by reclaim (stage-reclaim.c),
 * with its grace period.  On hosts in no group nothing changes.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "hybrid.h"

#define AT(hy, g, c) ((g) * (hy)->n_c + (c))

static int
left(const Hybrid *hy, guint g, guint c)
{
	return hy->grant[AT(hy, g, c)] - hy->placed[AT(hy, g, c)];
}

int
hybrid_job_room(const Pass *p, const SchedJob *j, guint *group)
{
	const Hybrid *hy = p->hybrid;
	const guint8 *in;
	gboolean any = FALSE;
	int room = 0;

	if (hy == NULL || j->consumer == 0 || j->consumer > hy->n_c || j->exclusive)
		return INT_MAX;
	in = &hy->queue_groups[j->queue * hy->n_g];
	for (guint g = 0; g < hy->n_g; g++) {
		if (!in[g])
			continue;
		if (!any)
			*group = g;
		any = TRUE;
		room += MAX(0, left(hy, g, j->consumer - 1));
	}
	return any ? room : INT_MAX;
}

int
hybrid_host_room(const Pass *p, const SchedJob *j, guint h)
{
	const Hybrid *hy = p->hybrid;
	guint g = hy->host_group[h];

	if (g == 0 || j->exclusive)
		return INT_MAX;
	if (j->consumer == 0 || j->consumer > hy->n_c)
		return MAX(0, hy->outside_left[g - 1] - hy->outside_placed[g - 1]);
	return MAX(0, left(hy, g - 1, j->consumer - 1));
}

void
hybrid_placed(Pass *p, const SchedJob *j, guint h, int slots)
{
	Hybrid *hy = p->hybrid;
	guint g = hy->host_group[h];

	if (g == 0)
		return;
	if (j->consumer == 0 || j->consumer > hy->n_c)
		hy->outside_placed[g - 1] += slots;
	else
		hy->placed[AT(hy, g - 1, j->consumer - 1)] += slots;
}

int
hybrid_outside_room(const Pass *p, const SchedJob *j, guint *n_hosts)
{
	const Hybrid *hy = p->hybrid;
	guint g;

	if (hy == NULL || (j->consumer != 0 && j->consumer <= hy->n_c) || j->exclusive)
		return INT_MAX;
	g = hy->queue_only[j->queue];
	if (g == 0)
		return INT_MAX;
	*n_hosts = hy->queue_n_hosts[j->queue];
	return MAX(0, hy->outside_left[g - 1] - hy->outside_placed[g - 1]);
}

gboolean
hybrid_holds_slots(const SchedRunning *r)
{
	return !(r->state == SCHED_RUN_SSUSP && r->preempted);
}

static gboolean
inside(const Hybrid *hy, guint consumer)
{
	return consumer != 0 && consumer <= hy->n_c;
}

gboolean
hybrid_may_preempt(const Pass *p, const SchedJob *j, const SchedRunning *r)
{
	const Hybrid *hy = p->hybrid;

	if (hy == NULL)
		return TRUE;
	for (guint a = 0; a < r->n_allocs; a++)
		if (hy->host_group[r->allocs[a].host] != 0)
			return inside(hy, j->consumer) == inside(hy, r->consumer) &&
			    (!inside(hy, j->consumer) || j->consumer == r->consumer);
	return TRUE;
}

gboolean
hybrid_in_groups(const Pass *p, const SchedRunning *r)
{
	const Hybrid *hy = p->hybrid;

	for (guint a = 0; hy != NULL && a < r->n_allocs; a++)
		if (hy->host_group[r->allocs[a].host] != 0)
			return TRUE;
	return FALSE;
}

void
hybrid_released(Pass *p, const SchedRunning *r, int sign)
{
	Hybrid *hy = p->hybrid;

	for (guint a = 0; hy != NULL && a < r->n_allocs; a++) {
		guint g = hy->host_group[r->allocs[a].host];
		int slots = sign * r->allocs[a].slots;

		if (g == 0)
			continue;
		if (inside(hy, r->consumer))
			hy->placed[AT(hy, g - 1, r->consumer - 1)] -= slots;
		else
			hy->outside_placed[g - 1] -= slots;
	}
}

int
hybrid_preempt_room(const Pass *p, const SchedJob *j)
{
	guint g = 0, n_hosts = 0;

	if (p->hybrid == NULL)
		return INT_MAX;
	return MIN(hybrid_job_room(p, j, &g), hybrid_outside_room(p, j, &n_hosts));
}

const guint *
hybrid_running_beside(Pass *p, const SchedJob *j, guint *n)
{
	Hybrid *hy = p->hybrid;
	const SchedSnapshot *s = p->snap;
	guint c = inside(hy, j->consumer) ? j->consumer - 1 : hy->n_c;

	if (hy->run_first == NULL) {
		guint *at = g_new0(guint, hy->n_c + 2);

		hy->run_first = g_new0(guint, hy->n_c + 2);
		for (guint i = 0; i < s->n_running; i++)
			if (hybrid_in_groups(p, &s->running[i]))
				hy->run_first[(inside(hy, s->running[i].consumer) ?
				    s->running[i].consumer - 1 : hy->n_c) + 1]++;
		for (guint k = 1; k <= hy->n_c + 1; k++)
			hy->run_first[k] += hy->run_first[k - 1];
		memcpy(at, hy->run_first, (hy->n_c + 2) * sizeof *at);
		hy->run_by = g_new(guint, MAX(1u, hy->run_first[hy->n_c + 1]));
		for (guint i = 0; i < s->n_running; i++)
			if (hybrid_in_groups(p, &s->running[i]))
				hy->run_by[at[inside(hy, s->running[i].consumer) ?
				    s->running[i].consumer - 1 : hy->n_c]++] = i;
		g_free(at);
	}
	*n = hy->run_first[c + 1] - hy->run_first[c];
	return hy->run_by + hy->run_first[c];
}

gboolean
hybrid_queue_in_group(const Pass *p, guint q)
{
	return p->hybrid != NULL && p->hybrid->queue_only[q] != 0;
}

gboolean
hybrid_resume_fits(const Pass *p, const SchedRunning *r)
{
	const Hybrid *hy = p->hybrid;
	gboolean fits = TRUE;
	int *in;

	if (hy == NULL || !hybrid_in_groups(p, r))
		return TRUE;
	in = g_new0(int, hy->n_g);
	for (guint a = 0; a < r->n_allocs; a++) {
		guint g = hy->host_group[r->allocs[a].host];

		if (g != 0)
			in[g - 1] += r->allocs[a].slots;
	}
	for (guint g = 0; g < hy->n_g && fits; g++) {
		int room;

		if (in[g] == 0)
			continue;
		room = inside(hy, r->consumer) ? left(hy, g, r->consumer - 1) :
		    hy->outside_left[g] - hy->outside_placed[g];
		fits = in[g] <= room;
	}
	g_free(in);
	return fits;
}
