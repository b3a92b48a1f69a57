/*
 * Reclaim timelines in scenario files (basalt-scenario(5) "Reclaim"):
 * `at TIME` steps in a file without leases.  The pass at `now` is checked
 * as in every scenario; then each step applies what the previous pass
 * decided (dispatches start, reclaim notices journal their deadline,
 * reclaim requeues put the job back to pending), ends the jobs its `end
 * ID` lines name (a job that finished within its grace), moves the clock
 * to now + TIME, runs the scheduler again and checks the step's expect
 * lines.  Only the decisions reclaim scenarios need are applied;
 * preemptions and window decisions are not.
 */
#include "config.h"

#include <string.h>

#include "tools/scenario/scn-internal.h"

typedef struct {
	int line;
	gint64 at;
	GPtrArray *ends;          /* char*: job names */
	GPtrArray *expect;        /* ScnLine*, owned */
} RStep;

static void
expect_line_free(gpointer data)
{
	ScnLine *l = data;

	g_free(l->text);
	g_free(l);
}

static void
rstep_free(gpointer data)
{
	RStep *st = data;

	g_ptr_array_free(st->ends, TRUE);
	g_ptr_array_free(st->expect, TRUE);
	g_free(st);
}

void
scn_reclaim_steps_free(GPtrArray *steps)
{
	if (steps != NULL)
		g_ptr_array_free(steps, TRUE);
}

gboolean
scn_reclaim_timeline_load(Scenario *s, GPtrArray *lines, GError **error)
{
	GPtrArray *steps;
	RStep *cur = NULL;

	if (lines->len == 0)
		return TRUE;
	for (guint i = 0; i < lines->len; i++) {
		const ScnDeferred *d = lines->pdata[i];

		/* A lease timeline: scn-lease.c's. */
		if (strcmp(d->argv[0], "at") != 0 && strcmp(d->argv[0], "end") != 0)
			return TRUE;
	}
	steps = g_ptr_array_new_with_free_func(rstep_free);
	s->reclaim_steps = steps;
	for (guint i = 0; i < lines->len; i++) {
		const ScnDeferred *d = lines->pdata[i];
		char **argv = d->argv;

		if (strcmp(argv[0], "at") == 0) {
			gint64 at;

			if (argv[1] == NULL || argv[2] != NULL ||
			    !scn_parse_duration(argv[1][0] == '+' ? argv[1] + 1 : argv[1], &at) ||
			    at <= 0)
				FAIL(d->line, "at: a time after `now`: 30s, 10m, 2h");
			if (cur != NULL && at <= cur->at)
				FAIL(d->line, "at: steps go forward in time");
			cur = g_new0(RStep, 1);
			cur->line = d->line;
			cur->at = at;
			cur->ends = g_ptr_array_new_with_free_func(g_free);
			cur->expect = g_ptr_array_new_with_free_func(expect_line_free);
			g_ptr_array_add(steps, cur);
		} else {
			if (cur == NULL)
				FAIL(d->line, "end: inside an `at` step only");
			if (argv[1] == NULL || argv[2] != NULL)
				FAIL(d->line, "end: one running job (end 12, end 12[3])");
			g_ptr_array_add(cur->ends, g_strdup(argv[1]));
		}
	}
	/* The expect lines after a step's `at` are that step's. */
	for (guint i = 0; i < s->expect->len;) {
		ScnLine *l = s->expect->pdata[i];
		RStep *to = NULL;

		for (guint k = 0; k < steps->len; k++)
			if (l->line > ((RStep *)steps->pdata[k])->line)
				to = steps->pdata[k];
		if (to == NULL) {
			i++;
			continue;
		}
		g_ptr_array_add(to->expect, g_ptr_array_steal_index(s->expect, i));
	}
	g_ptr_array_set_size(lines, 0);
	return TRUE;
}

static void
sync_snapshot(Scenario *s)
{
	s->snap.running = (SchedRunning *)(void *)s->running->data;
	s->snap.n_running = s->running->len;
	s->snap.pending = (SchedJob *)(void *)s->pending->data;
	s->snap.n_pending = s->pending->len;
}

static guint32
run_index(const Scenario *s, guint i)
{
	return g_array_index(s->run_index, guint32, i);
}

/* The pending job a reclaim requeue leaves: the same job, its slots. */
static SchedJob
requeued(const SchedRunning *r, guint32 index)
{
	SchedJob j = { 0 };
	int slots = 0;

	for (guint a = 0; a < r->n_allocs; a++)
		slots += r->allocs[a].slots;
	j.id = r->id;
	j.array_id = r->array_id;
	j.array_index = index;
	j.queue = r->queue;
	j.user = r->user;
	j.min_slots = j.max_slots = MAX(slots, 1);
	j.exclusive = r->exclusive;
	j.user_priority = r->user_priority;
	j.project = r->project;
	j.app = r->app;
	j.run_limit = r->run_limit;
	j.consumer = r->consumer;
	return j;
}

/* What the plan decided, as mbatchd would apply it. */
static void
apply(Scenario *s, const SchedPlan *plan)
{
	const SchedSnapshot *snap = &s->snap;
	g_autofree gboolean *gone_p = g_new0(gboolean, MAX(1u, snap->n_pending));
	g_autofree gboolean *gone_r = g_new0(gboolean, MAX(1u, snap->n_running));
	g_autoptr(GArray) add_r = g_array_new(FALSE, FALSE, sizeof(SchedRunning));
	g_autoptr(GArray) add_i = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autoptr(GArray) add_p = g_array_new(FALSE, FALSE, sizeof(SchedJob));

	for (guint i = 0; i < plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(plan, i);

		if (d->kind == SCHED_DO_DISPATCH) {
			const SchedJob *j = &snap->pending[d->job];
			SchedRunning r = { 0 };
			SchedAlloc *al = g_memdup2(&g_array_index(plan->allocs, SchedAlloc,
			    d->first_alloc), d->n_allocs * sizeof(SchedAlloc));
			guint32 index = j->array_index;

			g_ptr_array_add(s->strings, al);
			r.id = j->id;
			r.array_id = j->array_id;
			r.queue = j->queue;
			r.user = j->user;
			r.exclusive = j->exclusive;
			r.allocs = al;
			r.n_allocs = d->n_allocs;
			r.start_time = snap->now;
			r.project = j->project;
			r.app = j->app;
			r.resreq = j->resreq;
			r.run_limit = j->run_limit;
			r.consumer = j->consumer;
			r.user_priority = j->user_priority;
			g_array_append_val(add_r, r);
			g_array_append_val(add_i, index);
			gone_p[d->job] = TRUE;
		} else if (d->kind == SCHED_DO_RECLAIM_NOTICE) {
			const SchedReclaim *rc = &g_array_index(plan->reclaims,
			    SchedReclaim, d->by);

			g_array_index(s->running, SchedRunning, d->job).reclaim_deadline =
			    rc->deadline != 0 ? rc->deadline : -1;
		} else if (d->kind == SCHED_DO_RECLAIM_REQUEUE && !gone_r[d->job]) {
			SchedJob j = requeued(&snap->running[d->job], run_index(s, d->job));

			g_array_append_val(add_p, j);
			gone_r[d->job] = TRUE;
		} else if (d->kind == SCHED_DO_DEADLINE_EXIT) {
			gone_p[d->job] = TRUE;
		}
	}
	for (guint i = snap->n_pending; i-- > 0;)
		if (gone_p[i])
			g_array_remove_index(s->pending, i);
	for (guint i = snap->n_running; i-- > 0;)
		if (gone_r[i]) {
			g_array_remove_index(s->running, i);
			g_array_remove_index(s->run_index, i);
		}
	g_array_append_vals(s->running, add_r->data, add_r->len);
	g_array_append_vals(s->run_index, add_i->data, add_i->len);
	g_array_append_vals(s->pending, add_p->data, add_p->len);
	sync_snapshot(s);
}

static gboolean
end_job(Scenario *s, const char *name)
{
	for (guint i = 0; i < s->running->len; i++) {
		const SchedRunning *r = &g_array_index(s->running, SchedRunning, i);
		g_autofree char *n = scn_job_name(r->id, r->array_id, run_index(s, i));

		if (strcmp(n, name) == 0) {
			g_array_remove_index(s->running, i);
			g_array_remove_index(s->run_index, i);
			sync_snapshot(s);
			return TRUE;
		}
	}
	return FALSE;
}

gboolean
scn_reclaim_run(Scenario *s, GString *report, GString *trace)
{
	GPtrArray *steps = s->reclaim_steps;
	gint64 start = s->snap.now;
	GPtrArray *main_expect = s->expect;
	gboolean ordered = s->ordered, ok = TRUE;
	int nothing = s->nothing_line;
	SchedPlan *plan;

	if (steps == NULL || steps->len == 0)
		return TRUE;
	plan = sched_run(&s->snap);
	s->ordered = FALSE;
	s->nothing_line = 0;
	for (guint k = 0; k < steps->len; k++) {
		RStep *st = steps->pdata[k];
		g_autoptr(GPtrArray) lines = NULL;
		g_autoptr(GString) step_report = g_string_new(NULL);

		apply(s, plan);
		sched_plan_free(plan);
		for (guint e = 0; e < st->ends->len; e++)
			if (!end_job(s, st->ends->pdata[e])) {
				g_string_append_printf(report, "%s:%d: at +%" G_GINT64_FORMAT
				    "s: end %s: no such running job\n", s->path, st->line,
				    st->at, (char *)st->ends->pdata[e]);
				ok = FALSE;
			}
		/* The pass before this step's is the one just run. */
		s->snap.prev_pass = s->snap.now;
		s->snap.plan_reloaded = FALSE;
		s->snap.now = start + st->at;
		plan = sched_run(&s->snap);
		lines = scn_plan_lines(s, plan);
		if (trace != NULL) {
			g_string_append_printf(trace, "at %" G_GINT64_FORMAT "s\n", st->at);
			for (guint i = 0; i < lines->len; i++)
				g_string_append_printf(trace, "expect %s\n",
				    ((ScnLine *)lines->pdata[i])->text);
		}
		s->expect = st->expect;
		if (!scn_check(s, lines, step_report)) {
			g_string_append_printf(report, "at +%" G_GINT64_FORMAT "s (line %d):\n%s",
			    st->at, st->line, step_report->str);
			ok = FALSE;
		}
		s->expect = main_expect;
	}
	sched_plan_free(plan);
	s->ordered = ordered;
	s->nothing_line = nothing;
	return ok;
}
