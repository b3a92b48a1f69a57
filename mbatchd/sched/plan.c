/*
 * The plan a pass returns (sched.h): typed decisions in the order the
 * daemon applies them, the allocations dispatches point into, why every
 * other job waits, the pools' entitlements, and when to wake next.
 */
#include "config.h"

#include "pass.h"

SchedPlan *
plan_new(const SchedSnapshot *snap)
{
	SchedPlan *plan = g_new0(SchedPlan, 1);

	plan->decisions = g_array_new(FALSE, FALSE, sizeof(SchedDecision));
	plan->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	plan->reserves = g_array_new(FALSE, FALSE, sizeof(SchedReserve));
	plan->reclaims = g_array_new(FALSE, FALSE, sizeof(SchedReclaim));
	plan->pending = g_new0(SchedPending, snap->n_pending);
	plan->n_pending = snap->n_pending;
	return plan;
}

void
plan_add(SchedPlan *plan, SchedDecisionKind kind, guint job, guint by)
{
	SchedDecision d = { .kind = kind, .job = job, .by = by };

	g_array_append_val(plan->decisions, d);
}

void
plan_wake_at(SchedPlan *plan, gint64 t)
{
	if (plan->next_wake == 0 || t < plan->next_wake)
		plan->next_wake = t;
}

guint
sched_plan_count(const SchedPlan *plan, SchedDecisionKind kind)
{
	guint n = 0;

	for (guint i = 0; i < plan->decisions->len; i++)
		n += sched_plan_decision(plan, i)->kind == kind;
	return n;
}

const char *
sched_kind_name(SchedDecisionKind kind)
{
	static const char *const names[_SCHED_DO_MAX] = {
		[SCHED_DO_DISPATCH] = "dispatch",
		[SCHED_DO_PREEMPT_SUSPEND] = "preempt-suspend",
		[SCHED_DO_PREEMPT_TERMINATE] = "preempt-terminate",
		[SCHED_DO_RESUME] = "resume",
		[SCHED_DO_WINDOW_SUSPEND] = "window-suspend",
		[SCHED_DO_WINDOW_RESUME] = "window-resume",
		[SCHED_DO_WINDOW_TERMINATE] = "window-terminate",
		[SCHED_DO_DEADLINE_TERMINATE] = "deadline-terminate",
		[SCHED_DO_DEADLINE_EXIT] = "deadline-exit",
		[SCHED_DO_RECLAIM_NOTICE] = "reclaim-notice",
		[SCHED_DO_RECLAIM_REQUEUE] = "reclaim-requeue",
	};

	return (guint)kind < _SCHED_DO_MAX ? names[kind] : "?";
}

void
sched_plan_free(SchedPlan *plan)
{
	if (plan == NULL)
		return;
	g_array_free(plan->decisions, TRUE);
	g_array_free(plan->allocs, TRUE);
	g_array_free(plan->reserves, TRUE);
	if (plan->reclaims != NULL)
		g_array_free(plan->reclaims, TRUE);
	g_free(plan->group_idle);
	g_free(plan->pending);
	g_free(plan->queue_deserved);
	g_free(plan->pool_slots);
	g_free(plan->quotas);
	g_free(plan);
}
