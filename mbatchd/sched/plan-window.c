/*
 * Time-windowed resource plans: which of a resource group's plans is in
 * force at the snapshot's time, and when that can next change.  Rule
 * (issue 18 item 4; seeds/symphony-hybrid-policy.txt "Switching policies
 * using time windows", seeds/symphony-resource-reclaim.txt "Time interval
 * transitions"): a Plan section with TIME_WINDOW is in force while one of
 * its windows is open; the plan without TIME_WINDOW holds outside every
 * window; the new plan takes effect at the boundary, so the entitlement
 * stage asks for a pass then (plan_wake_at), never by polling.  Windows
 * are read in local time, snap->now + snap->utc_offset, as window.c reads
 * run and dispatch windows; lib/conf guarantees a group's windows do not
 * overlap, so the first open one is the only one.
 */
#include "config.h"

#include "conf/conf_time.h"
#include "sched.h"

SchedPlanInForce
sched_plan_in_force(const SchedSnapshot *s, guint g, gint64 *next)
{
	return sched_plan_in_force_at(s, g, s->now, next);
}

/* At another time than now (the reclaim stage asks which plan held at the
 * previous pass): read on the wall clock of now, s->utc_offset. */
SchedPlanInForce
sched_plan_in_force_at(const SchedSnapshot *s, guint g, gint64 when, gint64 *next)
{
	const SchedResourceGroup *rg = &s->rgroups[g];
	SchedPlanInForce f = { -1, rg->plan_slots, rg->terms, rg->n_terms };
	g_autoptr(GDateTime) t = NULL;
	gint64 best = -1;

	if (next != NULL)
		*next = -1;
	if (rg->n_windowed == 0)
		return f;
	t = g_date_time_new_from_unix_utc(when + s->utc_offset);
	for (guint i = 0; i < rg->n_windowed; i++) {
		const SchedWindowedPlan *w = &rg->windowed[i];
		gint64 b;

		if (f.window < 0 && bs_conf_windows_open(w->windows, t)) {
			f.window = (int)i;
			f.plan_slots = w->plan_slots;
			f.terms = w->terms;
			f.n_terms = w->n_terms;
		}
		b = sched_windows_next_boundary(w->windows, t);
		if (b > 0 && (best < 0 || b < best))
			best = b;
	}
	if (next != NULL)
		*next = best;
	return f;
}
