/*
 * Building the scheduler's snapshot (mbd-snapshot.h).  The configuration side
 * (hosts, queues, pools, users, groups) is sched-input.c's, fed with the
 * Manager's facts (host links, admin-closed hosts, active queues, pool
 * usage); here are running jobs with what they hold and pending jobs in
 * each queue's order with their dependencies evaluated.  Arrays grow
 * while building, so cross-references are stored as offsets and turned
 * into pointers once at the end (fix_pointers).
 */
#include "config.h"

#include <string.h>

#include "job/depend.h"
#include "mbatchd/effective.h"
#include "mbatchd/mbd-reserve.h"
#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-refused.h"
#include "mbatchd/mbd-snapshot.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/mc-jobs.h"
#include "mbatchd/plan-reload.h"
#include "resreq/resreq.h"

static guint
host_idx(Build *b, const char *name, gboolean *found)
{
	guint idx;

	*found = sched_input_host(&b->in, name, &idx);
	return idx;
}

static guint
user_idx(Build *b, const char *user)
{
	return sched_input_user(&b->in, user, FALSE);
}

/* The runtime facts the configuration side needs, from the Manager. */
static gboolean
host_facts(const char *name, SchedInputHost *out, void *data)
{
	Manager *m = data;
	const HostLink *l = manager_link(m, name);
	HostRt *rt = g_hash_table_lookup(m->st->hosts, name);

	if (l == NULL)
		return FALSE;
	out->up = l->conn != NULL && !l->unavail;
	out->ncpus = l->ncpus > 0 ? (int)l->ncpus : 1;
	out->r15s = l->load.r15s;
	out->r1m = l->load.r1m;
	out->closed_adm = rt != NULL && rt->closed_adm;
	out->reclaim = rt != NULL && rt->reclaim;
	out->leased_out = mc_leased_out(m, name);
	return TRUE;
}

static void
queue_facts(const char *name, SchedInputQueue *out, void *data)
{
	Manager *m = data;

	out->active = state_queue_ensure(m->st, name)->active;
	out->pool_usage = usage_of(m, name);
}

/* -app as limits see it: the job's profile, else DEFAULT_APPLICATION. */
static guint
app_idx(Build *b, const Basalt__JobSpec *spec)
{
	const BsAppConf *def = bs_config_default_app(b->cfg);

	if (spec->app_profile != NULL && spec->app_profile[0] != '\0')
		return sched_input_app(&b->in, spec->app_profile);
	return sched_input_app(&b->in, def != NULL ? def->name : NULL);
}

static void
add_running(Build *b, Job *j, guint queue)
{
	SchedRunning r = { 0 };

	r.id = j->id;
	r.queue = queue;
	r.user = user_idx(b, j->user);
	r.state = j->state == JS_SSUSP ? SCHED_RUN_SSUSP :
	    j->state == JS_USUSP ? SCHED_RUN_USUSP : SCHED_RUN_RUN;
	r.array_id = j->index > 0 ? j->id : 0;
	r.start_time = j->start_time;
	r.preempt_count = (int)j->preempt_count;
	r.max_preempt = (int)effective_max_preempt(b->cfg, j);
	r.preempted = j->state == JS_SSUSP && (j->preempted_by != 0 ||
	    g_strcmp0(j->suspend_reason, RESUME_WAIT_REASON) == 0);
	r.window_held = j->state == JS_SSUSP && j->preempted_by == 0 &&
	    g_strcmp0(j->suspend_reason, WINDOW_REASON) == 0;
	r.terminating = j->window_kill_sent;
	r.project = sched_input_project(&b->in, job_spec(j)->project);
	r.jobgroup = sched_input_jobgroup(&b->in, job_spec(j)->job_group);
	r.app = app_idx(b, job_spec(j));
	r.resreq = j->spec->resreq;
	r.run_limit = reserve_running_limit(j);
	r.exclusive = job_spec(j)->exclusive;
	r.consumer = sched_input_job_consumer(&b->in, queue, job_spec(j)->consumer);
	r.est_runtime = sched_input_est_runtime(effective_app(b->cfg,
	    job_spec(j)), job_spec(j)->est_runtime_s);
	r.term_time = job_spec(j)->term_time;
	r.deadline_sent = j->deadline_kill_sent;
	r.reclaim_deadline = j->reclaim_deadline;
	r.user_priority = sched_input_user_priority(b->cfg->params,
	    job_spec(j)->user_priority);
	r.allocs = GUINT_TO_POINTER(b->allocs->len + 1);
	for (guint i = 0; j->exec_hosts[i] != NULL; i++) {
		gboolean found;
		SchedAlloc a = { .host = host_idx(b, j->exec_hosts[i], &found), .slots = 1 };
		SchedAlloc *last = r.n_allocs > 0 ?
		    &g_array_index(b->allocs, SchedAlloc, b->allocs->len - 1) : NULL;

		if (!found)
			continue;
		if (last != NULL && last->host == a.host) {
			last->slots++;
			continue;
		}
		g_array_append_val(b->allocs, a);
		r.n_allocs++;
	}
	g_array_append_val(b->running, r);
	g_ptr_array_add(b->running_jobs, j);
}

typedef struct {
	State *st;
	const Job *job;
} DepCtx;

/* References resolve through the index state_apply keeps (depindex.c). */
static void
dep_lookup(const BsDependRef *ref, GArray *out, void *data)
{
	const DepCtx *c = data;

	state_dep_lookup(c->st, c->job->user, ref, out);
}

static void
add_pending(Build *b, Job *j, guint queue)
{
	const Basalt__JobSpec *spec = job_spec(j);
	SchedJob sj = { 0 };
	guint start = b->ints->len;
	const GPtrArray *refused;

	sj.id = j->id;
	sj.array_index = j->index;
	sj.queue = queue;
	sj.user = user_idx(b, j->user);
	sj.min_slots = spec->min_slots > 0 ? (int)spec->min_slots : 1;
	sj.max_slots = MAX(sj.min_slots, (int)spec->max_slots);
	sj.held = j->state == JS_PSUSP;
	sj.begin_time = spec->begin_time;
	sj.exclusive = spec->exclusive;
	sj.consumer = sched_input_job_consumer(&b->in, queue, spec->consumer);
	sj.user_priority = sched_input_user_priority(b->cfg->params,
	    spec->user_priority);
	sj.est_runtime = sched_input_est_runtime(effective_app(b->cfg, spec),
	    spec->est_runtime_s);
	sj.term_time = spec->term_time;
	sj.array_id = j->index > 0 ? j->id : 0;
	sj.array_limit = j->array_limit;
	sj.project = sched_input_project(&b->in, spec->project);
	sj.jobgroup = sched_input_jobgroup(&b->in, spec->job_group);
	sj.app = app_idx(b, spec);
	/* Parsed when the submission was applied (state/apply.c). */
	if (j->spec->resreq != NULL) {
		int ptile = bs_resreq_span_ptile(j->spec->resreq);

		sj.one_host = bs_resreq_span_hosts(j->spec->resreq) == 1;
		sj.ptile = ptile > 0 ? ptile : 0;
		sj.resreq = j->spec->resreq;
	}
	if (j->spec->depend != NULL) {
		DepCtx c = { b->m->st, j };
		BsDependResult r = bs_depend_eval(j->spec->depend, dep_lookup, &c);

		sj.dep = r == BS_DEPEND_SATISFIED ? SCHED_DEP_NONE :
		    r == BS_DEPEND_WAIT ? SCHED_DEP_WAIT : SCHED_DEP_NEVER;
	}
	for (size_t i = 0; i < spec->n_hosts; i++) {
		gboolean found;
		guint h = host_idx(b, spec->hosts[i], &found);

		if (found)
			g_array_append_val(b->ints, h);
	}
	if (spec->n_hosts > 0) {
		sj.asked_hosts = GUINT_TO_POINTER(start + 1);
		sj.n_asked_hosts = b->ints->len - start;
	}
	/* After the asked hosts, in the same array (an offset until
	 * fix_pointers). */
	start = b->ints->len;
	for (guint i = 0; j->preexec_hosts != NULL && i < j->preexec_hosts->len; i++) {
		gboolean found;
		guint h = host_idx(b, j->preexec_hosts->pdata[i], &found);

		if (found)
			g_array_append_val(b->ints, h);
	}
	if (b->ints->len > start) {
		sj.avoid_hosts = GUINT_TO_POINTER(start + 1);
		sj.n_avoid_hosts = b->ints->len - start;
	}
	start = b->ints->len;
	refused = refused_hosts(b->m, j);
	for (guint i = 0; refused != NULL && i < refused->len; i++) {
		gboolean found;
		guint h = host_idx(b, refused->pdata[i], &found);

		if (found)
			g_array_append_val(b->ints, h);
	}
	if (b->ints->len > start) {
		sj.refused_hosts = GUINT_TO_POINTER(start + 1);
		sj.n_refused_hosts = b->ints->len - start;
	}
	reserve_to_snapshot(b, j, g_ptr_array_index(b->cfg->queues, queue), &sj);
	g_array_append_val(b->pending, sj);
	g_ptr_array_add(b->pending_jobs, j);
}

/*
 * What -R select[] and rusage[mem] read of each host, from its link: the
 * scheduler evaluates them itself (sched/resreq-host.c) and asks the
 * daemon nothing.  Kept apart from add_hosts, which builds the hosts from
 * configuration alone.
 */
void
snapshot_host_resources(Manager *m, SchedHost *h)
{
	const HostLink *l = manager_link(m, h->name);

	/* A leased host keeps what its provider reported (sched-input.c);
	 * no load from here: a select on a load index fails there. */
	if (h->remote) {
		h->type = h->type != NULL ? h->type : "LINUX";
		h->model = h->model != NULL ? h->model : "LINUX";
		return;
	}
	h->type = "LINUX";
	h->model = "LINUX";
	if (l == NULL)
		return;
	h->maxmem = (double)l->mem_kb / 1024;
	h->load_known = TRUE;
	h->r15s = l->load.r15s;
	h->r1m = l->load.r1m;
	h->r15m = l->load.r15m;
	h->ut = l->load.ut;
	h->mem = (double)l->load.mem_free_kb / 1024;
	h->swp = (double)l->load.swap_free_kb / 1024;
	h->tmp = (double)l->load.tmp_free_kb / 1024;
}

static void
add_host_resources(Build *b)
{
	for (guint i = 0; i < b->in.hosts->len; i++)
		snapshot_host_resources(b->m,
		    &g_array_index(b->in.hosts, SchedHost, i));
}

/* Offsets stored while adding jobs become pointers into the final arrays. */
static void
fix_pointers(Build *b)
{
	SchedAlloc *al = (SchedAlloc *)(void *)b->allocs->data;
	guint *ints = (guint *)(void *)b->ints->data;

	for (guint i = 0; i < b->running->len; i++) {
		SchedRunning *r = &g_array_index(b->running, SchedRunning, i);

		r->allocs = al + GPOINTER_TO_UINT(r->allocs) - 1;
	}
	for (guint i = 0; i < b->pending->len; i++) {
		SchedJob *j = &g_array_index(b->pending, SchedJob, i);

		if (j->asked_hosts != NULL)
			j->asked_hosts = ints + GPOINTER_TO_UINT(j->asked_hosts) - 1;
		if (j->avoid_hosts != NULL)
			j->avoid_hosts = ints + GPOINTER_TO_UINT(j->avoid_hosts) - 1;
		if (j->refused_hosts != NULL)
			j->refused_hosts = ints + GPOINTER_TO_UINT(j->refused_hosts) - 1;
		reserve_fix_pointers(b, j);
	}
}

/* bgadd -L: the groups with a limit, parents first, before any job
 * brings its group in. */
static void
add_jobgroup_limits(Build *b)
{
	g_autoptr(GPtrArray) groups = state_jobgroups_sorted(b->m->st);

	for (guint i = 0; i < groups->len; i++) {
		const JobGroup *g = g_ptr_array_index(groups, i);

		if (g->limit >= 0)
			sched_input_jobgroup_limit(&b->in, g->path, g->limit);
	}
}

/*
 * Whether any job may be started (running or suspended).  Every job is in
 * exactly one of a queue's pending list, the finished list, or neither
 * (started, or a zombie); when the two lists hold every job, the walk over
 * all jobs for running ones can be skipped, which matters when tens of
 * thousands of jobs wait and every submission triggers a pass.
 */
static gboolean
any_started(const State *st)
{
	guint listed = st->finished.length;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, st->queues);
	while (g_hash_table_iter_next(&it, NULL, &v))
		listed += ((const QueueRt *)v)->pending.length;
	return g_hash_table_size(st->jobs) > listed;
}

void
snapshot_build(Build *b, Manager *m, const BsConfig *cfg)
{
	GPtrArray *queues = cfg->queues;
	gboolean started = any_started(m->st);
	SchedInputFacts facts = { host_facts, queue_facts, m, NULL, NULL, 0 };
	GHashTableIter it;
	gpointer v;

	memset(b, 0, sizeof *b);
	b->m = m;
	b->cfg = cfg;
	/* The running configuration's consumer tables are kept between
	 * passes; a previewed configuration's are built for its snapshot. */
	if (cfg == m->cfg) {
		if (m->consumers_in == NULL)
			m->consumers_in = sched_consumers_input_new();
		facts.consumers = m->consumers_in;
	}
	b->now = g_date_time_new_now_local();
	b->running = g_array_new(FALSE, FALSE, sizeof(SchedRunning));
	b->pending = g_array_new(FALSE, FALSE, sizeof(SchedJob));
	b->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	b->ints = g_array_new(FALSE, FALSE, sizeof(guint));
	b->pending_jobs = g_ptr_array_new();
	b->running_jobs = g_ptr_array_new();

	facts.leased = mc_leased_snapshot(m, &facts.n_leased);
	sched_input_build(&b->in, cfg, &facts);
	add_host_resources(b);
	add_jobgroup_limits(b);
	/* Pending jobs queue by queue, each in its own order; the policy
	 * merges queues of equal priority by position, so list them by
	 * submission within a priority level: configured order is close
	 * enough and keeps this linear. */
	for (guint i = 0; i < queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(queues, i);
		QueueRt *rt = state_queue(m->st, qc->name);

		for (GList *l = rt != NULL ? rt->pending.head : NULL; l; l = l->next)
			add_pending(b, l->data, i);
	}
	g_hash_table_iter_init(&it, m->st->jobs);
	while (started && g_hash_table_iter_next(&it, NULL, &v)) {
		Job *j = v;
		guint q;

		/* Another cluster's run on a leased host: not this side's
		 * to schedule (the lease's consumer slots are). */
		if (job_is_started(j) && j->exec_hosts != NULL &&
		    mc_jobs_origin(j) == NULL &&
		    sched_input_queue(&b->in, j->queue, &q))
			add_running(b, j, q);
	}
	fix_pointers(b);
	sched_input_finish(&b->in, &b->snap);
	b->snap.running = (SchedRunning *)(void *)b->running->data;
	b->snap.n_running = b->running->len;
	b->snap.pending = (SchedJob *)(void *)b->pending->data;
	b->snap.n_pending = b->pending->len;
	b->snap.now = manager_now();
	b->snap.prev_pass = m->sched_prev_now;
	b->snap.plan_reloaded = m->plan_reloaded;
	b->prev_policies = g_ptr_array_new_with_free_func(g_free);
	if (m->plan_reloaded)
		plan_reload_mark(m->plan_prev, cfg, b->now, &b->snap, b->prev_policies);
	b->snap.utc_offset = (int)(g_date_time_get_utc_offset(b->now) /
	    G_USEC_PER_SEC);
}

void
snapshot_free(Build *b)
{
	sched_input_free(&b->in);
	g_array_free(b->running, TRUE);
	g_array_free(b->pending, TRUE);
	g_array_free(b->allocs, TRUE);
	g_array_free(b->ints, TRUE);
	g_ptr_array_free(b->pending_jobs, TRUE);
	g_ptr_array_free(b->running_jobs, TRUE);
	g_date_time_unref(b->now);
	g_ptr_array_free(b->prev_policies, TRUE);
}
