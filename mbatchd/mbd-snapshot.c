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
#include "mbatchd/mbd-snapshot.h"
#include "resreq/resreq.h"

/* What the host filter needs: the job's -R and the host's live figures. */
typedef struct {
	const BsResReq *rr;
} JobFilter;

typedef struct {
	const SchedHost *host;
	const HostLink *link;
} HostView;

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
	return TRUE;
}

static void
queue_facts(const char *name, SchedInputQueue *out, void *data)
{
	Manager *m = data;

	out->active = state_queue_ensure(m->st, name)->active;
	out->pool_usage = usage_of(m, name);
}

/* MAX_JOB_PREEMPT: the application's, else the queue's, else
 * lsb.params'; 0 = unlimited. */
static int
max_job_preempt(const Manager *m, const Job *j)
{
	int n = bs_config_max_job_preempt(m->cfg, bs_config_queue(m->cfg, j->queue),
	    bs_config_app(m->cfg, job_spec(j)->app_profile));

	return n == BS_CONF_UNLIMITED ? 0 : n;
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
	r.max_preempt = max_job_preempt(b->m, j);
	r.preempted = j->state == JS_SSUSP && j->preempted_by != 0;
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
	Manager *m;
	const Job *job;
} DepCtx;

static BsDependJobState
dep_state(const Job *j)
{
	switch (j->state) {
	case JS_PEND: return BS_DEPEND_JOB_PEND;
	case JS_PSUSP: return BS_DEPEND_JOB_HELD;
	case JS_USUSP:
	case JS_SSUSP: return BS_DEPEND_JOB_SUSP;
	case JS_DONE: return BS_DEPEND_JOB_DONE;
	case JS_EXIT: return BS_DEPEND_JOB_EXIT;
	default: return BS_DEPEND_JOB_RUN;
	}
}

static void
dep_lookup(const BsDependRef *ref, GArray *out, void *data)
{
	DepCtx *c = data;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, c->m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		BsDependJob dj = { 0 };

		if (ref->name != NULL) {
			/* An element answers to its array's name. */
			const char *br = j->index > 0 ? strrchr(j->name, '[') : NULL;
			g_autofree char *base = br != NULL ?
			    g_strndup(j->name, (gsize)(br - j->name)) : g_strdup(j->name);

			if (j->user != c->job->user ||
			    !bs_depend_name_matches(ref->name, base))
				continue;
		} else if (j->id != ref->job_id ||
		    (ref->index != 0 && j->index != ref->index)) {
			continue;
		}
		dj.state = dep_state(j);
		dj.exit_code = j->exit_status;
		dj.post = job_is_finished(j) ? BS_DEPEND_POST_DONE : BS_DEPEND_POST_NONE;
		g_array_append_val(out, dj);
	}
}

static void
parse_spec(JobSpecRef *ref)
{
	const Basalt__JobSpec *spec = ref->spec;

	if (ref->parsed)
		return;
	ref->parsed = TRUE;
	/* Both were checked at submission; a failure here means a journal
	 * from an older version, and the job then runs without the clause. */
	if (spec->resreq != NULL && *spec->resreq)
		ref->resreq = bs_resreq_parse(spec->resreq, NULL);
	if (spec->dependency != NULL && *spec->dependency)
		ref->depend = bs_depend_parse(spec->dependency, NULL);
}

static void
add_pending(Build *b, Job *j, guint queue)
{
	const Basalt__JobSpec *spec = job_spec(j);
	SchedJob sj = { 0 };
	guint start = b->ints->len;

	parse_spec(j->spec);
	sj.id = j->id;
	sj.array_index = j->index;
	sj.queue = queue;
	sj.user = user_idx(b, j->user);
	sj.min_slots = spec->min_slots > 0 ? (int)spec->min_slots : 1;
	sj.max_slots = MAX(sj.min_slots, (int)spec->max_slots);
	sj.held = j->state == JS_PSUSP;
	sj.begin_time = spec->begin_time;
	sj.array_id = j->index > 0 ? j->id : 0;
	sj.array_limit = j->array_limit;
	if (j->spec->resreq != NULL) {
		int ptile = bs_resreq_span_ptile(j->spec->resreq);
		JobFilter *f = g_new(JobFilter, 1);

		sj.one_host = bs_resreq_span_hosts(j->spec->resreq) == 1;
		sj.ptile = ptile > 0 ? ptile : 0;
		f->rr = j->spec->resreq;
		g_ptr_array_add(b->filter_data, f);
		sj.filter_data = f;
	}
	if (j->spec->depend != NULL) {
		DepCtx c = { b->m, j };
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
	g_array_append_val(b->pending, sj);
	g_ptr_array_add(b->pending_jobs, j);
}

static BsResValue
host_value(const char *name, void *data)
{
	const HostView *hv = data;
	BsResValue v = { .kind = BS_RES_NUMBER };
	const Basalt__LoadIndices *l = hv->link != NULL ? &hv->link->load : NULL;

	if (strcmp(name, "hname") == 0) {
		v.kind = BS_RES_STRING;
		v.str = hv->host->name;
	} else if (strcmp(name, "type") == 0 || strcmp(name, "model") == 0 ||
	    strcmp(name, BS_RESREQ_LOCAL_TYPE) == 0 ||
	    strcmp(name, BS_RESREQ_LOCAL_MODEL) == 0) {
		v.kind = BS_RES_STRING;
		v.str = "LINUX";
	} else if (strcmp(name, "ncpus") == 0) {
		v.num = hv->host->ncpus;
	} else if (strcmp(name, "maxmem") == 0) {
		v.num = hv->link != NULL ? (double)hv->link->mem_kb / 1024 : 0;
	} else if (l != NULL && strcmp(name, "mem") == 0) {
		v.num = (double)l->mem_free_kb / 1024;
	} else if (l != NULL && strcmp(name, "swp") == 0) {
		v.num = (double)l->swap_free_kb / 1024;
	} else if (l != NULL && strcmp(name, "tmp") == 0) {
		v.num = (double)l->tmp_free_kb / 1024;
	} else if (l != NULL && strcmp(name, "r15s") == 0) {
		v.num = l->r15s;
	} else if (l != NULL && strcmp(name, "r1m") == 0) {
		v.num = l->r1m;
	} else if (l != NULL && strcmp(name, "r15m") == 0) {
		v.num = l->r15m;
	} else if (l != NULL && strcmp(name, "ut") == 0) {
		v.num = l->ut;
	} else {
		v.kind = BS_RES_UNDEFINED;
	}
	return v;
}

static gboolean
host_filter(const void *job_data, const SchedHost *host, void *data)
{
	const JobFilter *f = job_data;
	Manager *m = data;
	HostView hv = { host, manager_link(m, host->name) };
	double mem_mb;

	if (f == NULL || f->rr == NULL)
		return TRUE;
	if (!bs_resreq_select_eval(f->rr, host_value, &hv, NULL))
		return FALSE;
	mem_mb = bs_resreq_rusage_mem_mb(f->rr);
	return mem_mb <= 0 || hv.link == NULL || hv.link->load.mem_free_kb == 0 ||
	    mem_mb <= (double)hv.link->load.mem_free_kb / 1024;
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
snapshot_build(Build *b, Manager *m)
{
	GPtrArray *queues = m->cfg->queues;
	gboolean started = any_started(m->st);
	SchedInputFacts facts = { host_facts, queue_facts, m, NULL };
	GHashTableIter it;
	gpointer v;

	memset(b, 0, sizeof *b);
	b->m = m;
	b->now = g_date_time_new_now_local();
	b->running = g_array_new(FALSE, FALSE, sizeof(SchedRunning));
	b->pending = g_array_new(FALSE, FALSE, sizeof(SchedJob));
	b->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	b->ints = g_array_new(FALSE, FALSE, sizeof(guint));
	b->pending_jobs = g_ptr_array_new();
	b->running_jobs = g_ptr_array_new();
	b->filter_data = g_ptr_array_new_with_free_func(g_free);

	facts.now = b->now;
	sched_input_build(&b->in, m->cfg, &facts);
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
		const BsQueueConf *qc;

		if (!job_is_started(j) || j->exec_hosts == NULL)
			continue;
		qc = bs_config_queue(m->cfg, j->queue);
		for (guint q = 0; qc != NULL && q < queues->len; q++)
			if (g_ptr_array_index(queues, q) == qc)
				add_running(b, j, q);
	}
	fix_pointers(b);
	sched_input_finish(&b->in, &b->snap);
	b->snap.running = (SchedRunning *)(void *)b->running->data;
	b->snap.n_running = b->running->len;
	b->snap.pending = (SchedJob *)(void *)b->pending->data;
	b->snap.n_pending = b->pending->len;
	b->snap.host_filter = host_filter;
	b->snap.host_filter_data = m;
	b->snap.now = manager_now();
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
	g_ptr_array_free(b->filter_data, TRUE);
	g_date_time_unref(b->now);
}
