/*
 * Resource groups' hosts as resource plans count them (sched-consumers.h):
 * a host's slots, the group a host counts in, a group's size.  One
 * definition for the entitlement stage (stage-hybrid.c), the reclaim
 * stage and bconsumers' figures (mbatchd/mbd-consumers.c), so that what
 * bconsumers shows is what the stages counted.
 *
 * Rule: seeds/symphony-hybrid-policy.txt, "How many slots does the
 * consumer own?" (a group's size is the slots of its hosts), as read in
 * decisions.md ("Hybrid policy"): a host offers its MXJ, else one slot per
 * CPU (at least one), and counts in the first group that lists it, so no
 * slot is offered twice.
 */
#include "config.h"

#include "sched.h"

int
sched_rgroup_host_slots(const SchedHost *h)
{
	return h->max_slots >= 0 ? h->max_slots : MAX(h->ncpus, 1);
}

void
sched_rgroup_host_map(const SchedSnapshot *s, guint *host_group)
{
	for (guint g = 0; g < s->n_rgroups; g++) {
		const SchedResourceGroup *rg = &s->rgroups[g];

		for (guint i = 0; i < rg->n_hosts; i++)
			if (host_group[rg->hosts[i]] == 0)
				host_group[rg->hosts[i]] = g + 1;
	}
}

int
sched_rgroup_slots(const SchedSnapshot *s, guint g)
{
	const SchedResourceGroup *rg = &s->rgroups[g];
	int n = 0;

	for (guint i = 0; i < rg->n_hosts; i++) {
		const SchedHost *h = &s->hosts[rg->hosts[i]];

		if (h->state == SCHED_HOST_OK)
			n += sched_rgroup_host_slots(h);
	}
	return n;
}
