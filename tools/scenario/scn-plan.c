/*
 * The one place that reads a SchedPlan for the scenarios: each decision,
 * pending reason, deserved share, pool size and the next wake time
 * becomes a line in the syntax of the scenario file's expectations, so
 * the tool's output can be pasted back as `expect` lines.  When the
 * plan's shape changes, only this file follows.
 */
#include "config.h"

#include "tools/scenario/scn-internal.h"

static ScnLine *
add(GPtrArray *out, ScnKind k, char *text)
{
	ScnLine *l = g_new0(ScnLine, 1);

	l->kind = k;
	l->text = text;
	g_ptr_array_add(out, l);
	return l;
}

static char *
pending_name(const Scenario *s, guint i)
{
	const SchedJob *j = &s->snap.pending[i];

	return scn_job_name(j->id, j->array_id, j->array_index);
}

static char *
running_name(const Scenario *s, guint i)
{
	const SchedRunning *r = &s->snap.running[i];

	return scn_job_name(r->id, r->array_id, g_array_index(s->run_index, guint32, i));
}

static void
line_free(gpointer data)
{
	ScnLine *l = data;

	g_free(l->text);
	g_free(l);
}

/* One decision as a line; dispatches and victims noted for the counts. */
static void
decision(const Scenario *s, const SchedPlan *plan, const SchedDecision *d,
    GPtrArray *out, gboolean *dispatched, gboolean *gone, int *held)
{
	g_autofree char *job = d->kind == SCHED_DO_DISPATCH ||
	    d->kind == SCHED_DO_DEADLINE_EXIT ?
	    pending_name(s, d->job) : running_name(s, d->job);
	g_autofree char *by = NULL;
	g_autofree char *hosts = NULL;

	switch (d->kind) {
	case SCHED_DO_DISPATCH:
		hosts = scn_hosts_text(&s->snap,
		    &g_array_index(plan->allocs, SchedAlloc, d->first_alloc), d->n_allocs);
		add(out, SCN_DISPATCH, g_strdup_printf("dispatch %s on %s", job, hosts))
		    ->queue = s->snap.pending[d->job].queue;
		dispatched[d->job] = TRUE;
		for (guint a = 0; a < d->n_allocs; a++)
			held[s->snap.pending[d->job].queue] +=
			    g_array_index(plan->allocs, SchedAlloc, d->first_alloc + a).slots;
		return;
	case SCHED_DO_PREEMPT_SUSPEND:
	case SCHED_DO_PREEMPT_TERMINATE:
		by = pending_name(s, d->by);
		add(out, d->kind == SCHED_DO_PREEMPT_SUSPEND ? SCN_PREEMPT : SCN_TERMINATE,
		    g_strdup_printf("%s %s for %s", d->kind == SCHED_DO_PREEMPT_SUSPEND ?
		    "preempt" : "terminate", job, by));
		gone[d->job] = TRUE;
		return;
	case SCHED_DO_RESUME:
		add(out, SCN_RESUME, g_strdup_printf("resume %s", job));
		return;
	case SCHED_DO_WINDOW_SUSPEND:
		add(out, SCN_WINDOW_SUSPEND, g_strdup_printf("window-suspend %s", job));
		return;
	case SCHED_DO_WINDOW_RESUME:
		add(out, SCN_WINDOW_RESUME, g_strdup_printf("window-resume %s", job));
		return;
	case SCHED_DO_WINDOW_TERMINATE:
		add(out, SCN_WINDOW_TERMINATE, g_strdup_printf("window-terminate %s", job));
		gone[d->job] = TRUE;
		return;
	case SCHED_DO_DEADLINE_TERMINATE:
		add(out, SCN_DEADLINE_TERMINATE, g_strdup_printf("deadline-terminate %s",
		    job));
		gone[d->job] = TRUE;
		return;
	case SCHED_DO_DEADLINE_EXIT:
		add(out, SCN_DEADLINE_EXIT, g_strdup_printf("deadline-exit %s", job));
		/* It leaves the pending list: no reason to show. */
		dispatched[d->job] = TRUE;
		return;
	case SCHED_DO_RECLAIM_NOTICE:
		add(out, SCN_RECLAIM, scn_reclaim_line(s, plan, d, job));
		return;
	case SCHED_DO_RECLAIM_REQUEUE:
		add(out, SCN_RECLAIM_REQUEUE, scn_reclaim_line(s, plan, d, job));
		gone[d->job] = TRUE;
		return;
	default:
		add(out, SCN_DISPATCH, g_strdup_printf("unknown-decision %s %s",
		    sched_kind_name(d->kind), job));
		return;
	}
}

/* A reservation the daemon keeps for the next pass, or a job that may not
 * reserve for a while. */
static void
reserve(const Scenario *s, const SchedPlan *plan, const SchedReserve *r,
    GPtrArray *out)
{
	g_autofree char *job = pending_name(s, r->job);
	g_autofree char *hosts = NULL;
	g_autofree char *when = NULL;

	if (r->n_allocs == 0) {
		when = scn_start_text(r->banned_until - s->snap.now);
		add(out, SCN_RESERVE_BAN, g_strdup_printf("reserve-ban %s until %s", job,
		    when));
		return;
	}
	hosts = scn_hosts_text(&s->snap,
	    &g_array_index(plan->allocs, SchedAlloc, r->first_alloc), r->n_allocs);
	when = scn_start_text(r->start == 0 ? -1 : r->start - s->snap.now);
	add(out, SCN_RESERVE, g_strdup_printf("reserve %s on %s start %s", job, hosts,
	    when));
}

GPtrArray *
scn_plan_lines(const Scenario *s, const SchedPlan *plan)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(line_free);
	g_autofree gboolean *dispatched = g_new0(gboolean, s->snap.n_pending + 1);
	g_autofree gboolean *gone = g_new0(gboolean, s->snap.n_running + 1);
	g_autofree int *held = g_new0(int, s->snap.n_queues + 1);

	/* In the order the daemon applies them. */
	for (guint i = 0; i < plan->decisions->len; i++)
		decision(s, plan, sched_plan_decision(plan, i), out, dispatched, gone, held);
	for (guint i = 0; i < plan->reserves->len; i++)
		reserve(s, plan, &g_array_index(plan->reserves, SchedReserve, i), out);
	for (guint i = 0; i < plan->n_pending && i < s->snap.n_pending; i++) {
		g_autofree char *n = NULL;
		g_autofree char *text = NULL;

		if (dispatched[i])
			continue;
		n = pending_name(s, i);
		text = sched_pending_format(&plan->pending[i]);
		g_strdelimit(text, "\n", ' ');
		add(out, SCN_PENDING, g_strdup_printf("pending %s \"%s\"", n,
		    g_strstrip(text)));
	}
	for (guint q = 0; plan->queue_deserved != NULL && q < plan->n_queues; q++)
		if (plan->queue_deserved[q] >= 0)
			add(out, SCN_DESERVED, g_strdup_printf("deserved %s %d",
			    s->snap.queues[q].name, plan->queue_deserved[q]));
	for (guint i = 0; plan->pool_slots != NULL && i < plan->n_pools; i++)
		add(out, SCN_POOL, g_strdup_printf("pool %s %d", s->snap.pools[i].name,
		    plan->pool_slots[i]));
	/* Not read from the plan but summed from it: what each queue holds once
	 * the plan is applied (started jobs neither preempted nor killed by
	 * it, plus its dispatches), the figure the pool examples speak of. */
	for (guint i = 0; i < s->snap.n_running; i++)
		for (guint a = 0; !gone[i] && a < s->snap.running[i].n_allocs; a++)
			held[s->snap.running[i].queue] += s->snap.running[i].allocs[a].slots;
	for (guint q = 0; q < s->snap.n_queues; q++)
		add(out, SCN_SLOTS, g_strdup_printf("slots %s %d", s->snap.queues[q].name,
		    held[q]))->queue = q;
	for (guint i = 0; i < plan->n_quotas; i++) {
		const SchedConsumerQuota *q = &plan->quotas[i];
		const char *c = s->snap.consumers[q->consumer].path;
		const char *g = s->snap.rgroups[q->group].name;

		add(out, SCN_QUOTA, g_strdup_printf("quota %s %s %d", c, g, q->quota));
		add(out, SCN_ALLOC, g_strdup_printf("alloc %s %s %d", c, g, q->alloc));
	}
	add(out, SCN_WAKE, scn_wake_text(plan->next_wake == 0 ? -1 :
	    plan->next_wake - s->snap.now));
	return out;
}
