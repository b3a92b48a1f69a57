/*
 * Previews (mbd-preview.h): the scheduler's pass run on the live state
 * with another configuration or at another time, nothing applied.
 *
 * The snapshot is built from the live state under the previewed
 * configuration, passed to the builder; the manager's own stays in force.
 * The snapshot keeps pointers into the previewed configuration, which
 * lives as long as the preview.
 */
#include "config.h"

#include "mbatchd/mbd-preview.h"
#include "mbatchd/plan-reload.h"

MbdPreview *
preview_run(Manager *m, BsConfig *cfg, gint64 at)
{
	MbdPreview *p = g_new0(MbdPreview, 1);
	const BsConfig *running = m->cfg;
	GHashTable *prev = m->plan_prev;
	gboolean reloaded = m->plan_reloaded;
	g_autoptr(GHashTable) mine = NULL;

	p->cfg = cfg;
	/* The previewed configuration is a reload: the pass brings the
	 * consumers of each group whose plan it changes to the new plans,
	 * as the first pass after badmin reconfig would (plan-reload.h); a
	 * copy, so the daemon's own record stays as it was. */
	if (cfg != NULL) {
		mine = reloaded ? plan_reload_table_copy(m->plan_prev) :
		    plan_reload_table_new();
		m->plan_prev = mine;
		manager_plan_remember(m, cfg);
		m->plan_reloaded = TRUE;
	}
	snapshot_build(&p->b, m, cfg != NULL ? cfg : m->cfg);
	m->plan_prev = prev;
	m->plan_reloaded = reloaded;
	if (at > 0) {
		/* A coming time: the plan changes between the live clock and
		 * `at` are transitions, as the pass at that boundary sees them. */
		p->b.snap.prev_pass = p->b.snap.now;
		g_autoptr(GDateTime) t = g_date_time_new_from_unix_local(at);

		p->b.snap.now = at;
		/* The wall clock windows are read on is that of `at`: a
		 * daylight saving change in between moves it. */
		if (t != NULL)
			p->b.snap.utc_offset = (int)(g_date_time_get_utc_offset(t) /
			    G_USEC_PER_SEC);
		/* The plans compared are those in force at `at`. */
		if (t != NULL && p->b.snap.plan_reloaded)
			plan_reload_mark(mine != NULL ? mine : m->plan_prev,
			    cfg != NULL ? cfg : running, t, &p->b.snap,
			    p->b.prev_policies);
	}
	p->at = p->b.snap.now;
	p->plan = sched_run(&p->b.snap);
	p->figs = consumers_figures_new(&p->b, p->plan, p->at, NULL);
	return p;
}

void
preview_free(MbdPreview *p)
{
	if (p == NULL)
		return;
	consumers_figures_free(p->figs);
	sched_plan_free(p->plan);
	snapshot_free(&p->b);
	bs_config_free(p->cfg);
	g_free(p);
}

/* Decisions on pending jobs, and resumes, take nothing from anyone. */
static gboolean
takes_from_running(SchedDecisionKind k)
{
	return k != SCHED_DO_DISPATCH && k != SCHED_DO_DEADLINE_EXIT &&
	    k != SCHED_DO_RESUME && k != SCHED_DO_WINDOW_RESUME;
}

static const char *
consumer_path(const SchedSnapshot *s, int c)
{
	return c >= 0 && (guint)c < s->n_consumers ? s->consumers[c].path : "";
}

void
preview_jobs(const MbdPreview *p, GPtrArray *out)
{
	const SchedSnapshot *s = &p->b.snap;

	for (guint i = 0; i < p->plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(p->plan, i);
		const SchedRunning *r;
		const Job *j;
		Basalt__PreviewJob *pj;

		if (!takes_from_running(d->kind) || d->job >= s->n_running)
			continue;
		r = &s->running[d->job];
		j = g_ptr_array_index(p->b.running_jobs, d->job);
		pj = g_new(Basalt__PreviewJob, 1);
		basalt__preview_job__init(pj);
		pj->job_id = j->id;
		pj->array_index = j->index;
		pj->user = (char *)j->user;
		pj->queue = (char *)j->queue;
		pj->action = (char *)sched_kind_name(d->kind);
		pj->consumer = (char *)(r->consumer > 0 ?
		    consumer_path(s, (int)r->consumer - 1) : "");
		pj->for_consumer = pj->resource_group = pj->kind = (char *)"";
		if (d->kind == SCHED_DO_RECLAIM_NOTICE && p->plan->reclaims != NULL &&
		    d->by < p->plan->reclaims->len) {
			const SchedReclaim *rc = &g_array_index(p->plan->reclaims,
			    SchedReclaim, d->by);

			pj->for_consumer = (char *)consumer_path(s, rc->to);
			pj->resource_group = (char *)(rc->group < s->n_rgroups ?
			    s->rgroups[rc->group].name : "");
			pj->slots = rc->slots;
			pj->kind = (char *)sched_reclaim_kind_name(rc->kind);
			pj->grace = rc->grace;
			pj->deadline = rc->deadline;
		}
		g_ptr_array_add(out, pj);
	}
}
