/*
 * The one place that reads a SchedPlan for the scenarios: each decision,
 * pending reason, deserved share and pool size becomes a line in the
 * syntax of the scenario file's expectations, so the tool's output can be
 * pasted back as `expect` lines.  When the plan's shape changes (a typed
 * list of decisions, a wake time), only this file follows: a new kind of
 * decision becomes a new ScnKind and line ("window-suspend 12"), the wake
 * time an "wake +90s" line, which scn-load.c now refuses as not there yet.
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

GPtrArray *
scn_plan_lines(const Scenario *s, const SchedPlan *plan)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(line_free);
	g_autofree gboolean *dispatched = g_new0(gboolean, s->snap.n_pending + 1);
	g_autofree gboolean *victim = g_new0(gboolean, s->snap.n_running + 1);
	g_autofree int *held = g_new0(int, s->snap.n_queues + 1);

	/* The daemon resumes first, then suspends each dispatch's victims
	 * and starts it: the lines follow that order. */
	for (guint i = 0; i < plan->resumes->len; i++) {
		const SchedResume *r = &g_array_index(plan->resumes, SchedResume, i);
		g_autofree char *n = running_name(s, r->job);

		add(out, SCN_RESUME, g_strdup_printf("resume %s", n));
	}
	for (guint i = 0; i < plan->dispatches->len; i++) {
		const SchedDispatch *d = &g_array_index(plan->dispatches, SchedDispatch, i);
		g_autofree char *job = pending_name(s, d->job);
		g_autofree char *hosts = scn_hosts_text(&s->snap,
		    &g_array_index(plan->allocs, SchedAlloc, d->first_alloc), d->n_allocs);

		for (guint k = d->first_preemption;
		    k < d->first_preemption + d->n_preemptions; k++) {
			const SchedPreemption *p =
			    &g_array_index(plan->preemptions, SchedPreemption, k);
			g_autofree char *victim_name = running_name(s, p->victim);
			g_autofree char *by = pending_name(s, p->preemptor);

			add(out, p->terminate ? SCN_TERMINATE : SCN_PREEMPT,
			    g_strdup_printf("%s %s for %s",
			    p->terminate ? "terminate" : "preempt", victim_name, by));
			victim[p->victim] = TRUE;
		}
		add(out, SCN_DISPATCH, g_strdup_printf("dispatch %s on %s", job, hosts))
		    ->queue = s->snap.pending[d->job].queue;
		dispatched[d->job] = TRUE;
		for (guint a = 0; a < d->n_allocs; a++)
			held[s->snap.pending[d->job].queue] +=
			    g_array_index(plan->allocs, SchedAlloc, d->first_alloc + a).slots;
	}
	for (guint i = 0; i < s->snap.n_running; i++)
		for (guint a = 0; !victim[i] && a < s->snap.running[i].n_allocs; a++)
			held[s->snap.running[i].queue] += s->snap.running[i].allocs[a].slots;
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
	 * the plan is applied, the figure the pool examples speak of. */
	for (guint q = 0; q < s->snap.n_queues; q++)
		add(out, SCN_SLOTS, g_strdup_printf("slots %s %d", s->snap.queues[q].name,
		    held[q]))->queue = q;
	return out;
}
