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
 */
#include "config.h"

#include <limits.h>

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
