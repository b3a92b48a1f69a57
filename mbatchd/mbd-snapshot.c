/*
 * Building the scheduler's snapshot (mbd-snapshot.h): hosts with their slots
 * and state, queues with limits, windows and PREEMPTION lists, users and
 * groups with their limits, running jobs with what they hold, and pending
 * jobs in each queue's order with their dependencies evaluated.  Arrays
 * grow while building, so cross-references are stored as offsets and
 * turned into pointers once at the end (fix_pointers).
 */
#include "config.h"

#include <string.h>

#include "job/depend.h"
#include "mbatchd/effective.h"
#include "mbatchd/mbd-snapshot.h"
#include "resreq/resreq.h"

static guint
host_idx(Build *b, const char *name, gboolean *found)
{
	gpointer v = g_hash_table_lookup(b->host_index, name);

	*found = v != NULL;
	return v != NULL ? GPOINTER_TO_UINT(v) - 1 : 0;
}

static int
host_mxj(const Manager *m, const char *name, const HostLink *l)
{
	const BsHostConf *hc = bs_config_host(m->cfg, name);
	int ncpus = l != NULL && l->ncpus > 0 ? (int)l->ncpus : 1;

	/* Without an lsb.hosts row a host has one slot per CPU. */
	if (hc == NULL || hc->mxj == BS_CONF_MXJ_NCPUS)
		return ncpus;
	return hc->mxj;
}

static SchedHostState
host_state(Build *b, const char *name, const HostLink *l)
{
	const BsHostConf *hc = bs_config_host(b->m->cfg, name);
	HostRt *rt = g_hash_table_lookup(b->m->st->hosts, name);

	if (l == NULL || l->conn == NULL || l->unavail)
		return SCHED_HOST_UNAVAIL;
	if (rt != NULL && rt->closed_adm)
		return SCHED_HOST_CLOSED_ADM;
	if (hc != NULL && !bs_conf_windows_open(hc->dispatch_window, b->now))
		return SCHED_HOST_CLOSED_WIND;
	return SCHED_HOST_OK;
}

static void
add_hosts(Build *b)
{
	GPtrArray *hosts = b->m->cfg->cluster->hosts;

	for (guint i = 0; i < hosts->len; i++) {
		const BsClusterHost *ch = g_ptr_array_index(hosts, i);
		const HostLink *l = manager_link(b->m, ch->name);
		const BsHostConf *hc = bs_config_host(b->m->cfg, ch->name);
		SchedHost h = { 0 };

		if (!ch->server)
			continue;
		h.name = ch->name;
		h.max_slots = host_mxj(b->m, ch->name, l);
		h.ncpus = l != NULL && l->ncpus > 0 ? (int)l->ncpus : 1;
		h.jl_u = hc != NULL ? hc->jl_u : SCHED_UNLIMITED;
		h.state = host_state(b, ch->name, l);
		h.r15s = l != NULL ? l->load.r15s : 0;
		h.r1m = l != NULL ? l->load.r1m : 0;
		g_array_append_val(b->hosts, h);
		g_hash_table_insert(b->host_index, (gpointer)ch->name,
		    GUINT_TO_POINTER(b->hosts->len));
	}
}

/* HOSTS "+N" preferences by host, from names and groups written with one. */
static int
host_pref(const Manager *m, const BsQueueConf *q, const char *host)
{
	int best = 0;

	for (guint i = 0; q->hosts != NULL && i < q->hosts->len; i++) {
		const BsHostRef *r = g_ptr_array_index(q->hosts, i);
		g_auto(GStrv) members = NULL;

		if (!r->has_pref || r->exclude)
			continue;
		if (r->kind == BS_HOSTREF_HOST && strcmp(r->name, host) == 0)
			best = MAX(best, r->pref);
		if (r->kind != BS_HOSTREF_GROUP)
			continue;
		members = bs_config_host_group_expand(m->cfg, r->name);
		if (members != NULL && g_strv_contains((const char *const *)members, host))
			best = MAX(best, r->pref);
	}
	return best;
}

static void
add_queue(Build *b, const BsQueueConf *qc)
{
	QueueRt *rt = state_queue_ensure(b->m->st, qc->name);
	g_auto(GStrv) hosts = bs_config_queue_hosts(b->m->cfg, qc);
	gboolean windows_open = bs_conf_windows_open(qc->dispatch_window, b->now) &&
	    bs_conf_windows_open(qc->run_window, b->now);
	SchedQueue q = { 0 };

	q.name = qc->name;
	q.priority = qc->priority;
	q.dispatch_ok = rt->active && windows_open;
	q.inactive_by_admin = !rt->active;
	q.qjob_limit = qc->qjob_limit;
	q.ujob_limit = qc->ujob_limit;
	q.hjob_limit = qc->hjob_limit;
	q.pjob_limit = qc->pjob_limit;
	q.terminate_on_preempt = (qc->terminate_when & BS_TERMINATE_WHEN_PREEMPT) != 0;
	/* Hosts are stored as offsets now and turned into pointers once all
	 * queues are in, since the storage array may still move. */
	q.n_hosts = 0;
	q.hosts = GUINT_TO_POINTER(b->queue_hosts->len + 1);
	for (guint i = 0; hosts != NULL && hosts[i] != NULL; i++) {
		gboolean found;
		SchedQueueHost qh;

		qh.host = host_idx(b, hosts[i], &found);
		if (!found)
			continue;
		qh.pref = host_pref(b->m, qc, hosts[i]);
		g_array_append_val(b->queue_hosts, qh);
		q.n_hosts++;
	}
	g_array_append_val(b->queues, q);
}

static guint
queue_index(const Manager *m, const char *name, gboolean *found)
{
	for (guint i = 0; i < m->cfg->queues->len; i++)
		if (strcmp(((BsQueueConf *)g_ptr_array_index(m->cfg->queues, i))->name,
		    name) == 0) {
			*found = TRUE;
			return i;
		}
	*found = FALSE;
	return 0;
}

/* PREEMPTION lists as queue indexes; stored as offsets like the hosts. */
static void
add_refs(Build *b, GPtrArray *list, SchedQueueRef **out, guint *n)
{
	*out = GUINT_TO_POINTER(b->queue_refs->len + 1);
	*n = 0;
	for (guint i = 0; list != NULL && i < list->len; i++) {
		const BsQueueRef *r = g_ptr_array_index(list, i);
		SchedQueueRef ref = { 0 };
		gboolean found;

		ref.queue = queue_index(b->m, r->queue, &found);
		if (!found)
			continue;
		ref.pref = r->pref;
		ref.has_pref = r->has_pref;
		g_array_append_val(b->queue_refs, ref);
		(*n)++;
	}
}

/* SLOT_POOL: the pool's index, creating it on first sight.  The pool's
 * MAX_SLOTS_IN_POOL and USE_PRIORITY_IN_POOL come from its first queue in
 * lsb.queues, as LSF reads them. */
static guint
pool_index(Build *b, const BsQueueConf *qc)
{
	SchedPool pl = { 0 };

	for (guint i = 0; i < b->pools->len; i++)
		if (strcmp(g_array_index(b->pools, SchedPool, i).name, qc->slot_pool) == 0)
			return i;
	pl.name = qc->slot_pool;
	pl.max_slots = qc->max_slots_in_pool == BS_CONF_UNLIMITED ? 0 :
	    qc->max_slots_in_pool;
	pl.use_priority = qc->use_priority_in_pool;
	g_array_append_val(b->pools, pl);
	return b->pools->len - 1;
}

static void
add_pools(Build *b)
{
	for (guint i = 0; i < b->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(b->m->cfg->queues, i);
		SchedQueue *q = &g_array_index(b->queues, SchedQueue, i);

		if (qc->slot_pool == NULL)
			continue;
		q->in_pool = TRUE;
		q->pool = pool_index(b, qc);
		q->slot_share = qc->slot_share;
		q->pool_usage = usage_of(b->m, qc->name);
	}
}

static void
add_preemption(Build *b)
{
	for (guint i = 0; i < b->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(b->m->cfg->queues, i);
		SchedQueue *q = &g_array_index(b->queues, SchedQueue, i);

		q->preemptive = qc->preemption.preemptive;
		q->preemptable = qc->preemption.preemptable;
		add_refs(b, qc->preemption.preemptive_queues, &q->preemptive_queues,
		    &q->n_preemptive_queues);
		add_refs(b, qc->preemption.preemptable_queues, &q->preemptable_queues,
		    &q->n_preemptable_queues);
	}
}

static const BsUserConf *
user_row(const Manager *m, const char *user)
{
	const BsUsersConf *uc = m->cfg->users;
	const BsUserConf *member_row = NULL, *def = NULL;

	for (guint i = 0; uc != NULL && i < uc->users->len; i++) {
		const BsUserConf *r = g_ptr_array_index(uc->users, i);
		g_auto(GStrv) members = NULL;

		if (!r->per_member && strcmp(r->name, user) == 0)
			return r;
		if (strcmp(r->name, "default") == 0)
			def = r;
		if (!r->per_member || member_row != NULL)
			continue;
		members = bs_config_user_group_expand(m->cfg, r->name);
		if (members != NULL && g_strv_contains((const char *const *)members, user))
			member_row = r;
	}
	return member_row != NULL ? member_row : def;
}

/* Groups whose whole-group MAX_JOBS applies to this user. */
static void
user_groups(Build *b, const char *user, SchedUser *su)
{
	const BsUsersConf *uc = b->m->cfg->users;
	guint start = b->ints->len;

	for (guint i = 0; uc != NULL && i < uc->users->len; i++) {
		const BsUserConf *r = g_ptr_array_index(uc->users, i);
		g_auto(GStrv) members = NULL;
		SchedGroup g = { 0 };
		guint gi;

		if (r->per_member || (r->max_jobs == BS_CONF_UNLIMITED &&
		    r->jl_p == BS_CONF_UNLIMITED))
			continue;
		members = bs_config_user_group_expand(b->m->cfg, r->name);
		if (members == NULL || !g_strv_contains((const char *const *)members, user))
			continue;
		/* One SchedGroup per configured group, shared by its members. */
		for (gi = 0; gi < b->groups->len; gi++)
			if (strcmp(g_array_index(b->groups, SchedGroup, gi).name, r->name) == 0)
				break;
		if (gi == b->groups->len) {
			g.name = r->name;
			g.max_jobs = r->max_jobs;
			g.jl_p = r->jl_p;
			g_array_append_val(b->groups, g);
		}
		g_array_append_val(b->ints, gi);
	}
	su->groups = GUINT_TO_POINTER(start + 1);
	su->n_groups = b->ints->len - start;
}

static guint
user_idx(Build *b, const char *user)
{
	gpointer v = g_hash_table_lookup(b->user_index, user);
	const BsUserConf *row;
	SchedUser su = { 0 };

	if (v != NULL)
		return GPOINTER_TO_UINT(v) - 1;
	row = user_row(b->m, user);
	su.name = user;
	su.max_jobs = row != NULL ? row->max_jobs : SCHED_UNLIMITED;
	su.jl_p = row != NULL ? row->jl_p : -1;
	user_groups(b, user, &su);
	g_array_append_val(b->users, su);
	g_hash_table_insert(b->user_index, (gpointer)user,
	    GUINT_TO_POINTER(b->users->len));
	return b->users->len - 1;
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
	r.max_preempt = (int)effective_max_preempt(b->m->cfg, j);
	r.preempted = j->state == JS_SSUSP && j->preempted_by != 0;
	r.window_held = j->state == JS_SSUSP && j->preempted_by == 0 &&
	    g_strcmp0(j->suspend_reason, WINDOW_REASON) == 0;
	r.terminating = j->window_kill_sent;
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
	const State *st;
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
	g_array_append_val(b->pending, sj);
	g_ptr_array_add(b->pending_jobs, j);
}

/*
 * What -R select[] and rusage[mem] read of each host, from its link: the
 * scheduler evaluates them itself (sched/resreq-host.c) and asks the
 * daemon nothing.  Kept apart from add_hosts, which builds the hosts from
 * configuration alone.
 */
static void
add_host_resources(Build *b)
{
	for (guint i = 0; i < b->hosts->len; i++) {
		SchedHost *h = &g_array_index(b->hosts, SchedHost, i);
		const HostLink *l = manager_link(b->m, h->name);

		h->type = "LINUX";
		h->model = "LINUX";
		if (l == NULL)
			continue;
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
}

/*
 * The time windows, parsed by lib/conf, for the scheduler's time-driven
 * stage (sched/window.c), which decides from snap.now alone whether they
 * are open.  add_queue and host_state (config side) may have folded the
 * windows already; undo that, so the stage is the one place they act.
 */
static void
add_windows(Build *b)
{
	for (guint i = 0; i < b->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(b->m->cfg->queues, i);
		SchedQueue *q = &g_array_index(b->queues, SchedQueue, i);

		q->dispatch_window = qc->dispatch_window;
		q->run_window = qc->run_window;
		q->terminate_on_window =
		    (qc->terminate_when & BS_TERMINATE_WHEN_WINDOW) != 0;
		q->dispatch_ok = !q->inactive_by_admin;
	}
	for (guint i = 0; i < b->hosts->len; i++) {
		SchedHost *h = &g_array_index(b->hosts, SchedHost, i);
		const BsHostConf *hc = bs_config_host(b->m->cfg, h->name);

		h->dispatch_window = hc != NULL ? hc->dispatch_window : NULL;
		if (h->state == SCHED_HOST_CLOSED_WIND)
			h->state = SCHED_HOST_OK;
	}
}

/* Offsets stored during the build become pointers into the final arrays. */
static void
fix_pointers(Build *b)
{
	SchedQueueHost *qh = (SchedQueueHost *)(void *)b->queue_hosts->data;
	SchedAlloc *al = (SchedAlloc *)(void *)b->allocs->data;
	guint *ints = (guint *)(void *)b->ints->data;

	SchedQueueRef *refs = (SchedQueueRef *)(void *)b->queue_refs->data;

	for (guint i = 0; i < b->queues->len; i++) {
		SchedQueue *q = &g_array_index(b->queues, SchedQueue, i);

		q->hosts = qh + GPOINTER_TO_UINT(q->hosts) - 1;
		q->preemptive_queues = refs +
		    GPOINTER_TO_UINT(q->preemptive_queues) - 1;
		q->preemptable_queues = refs +
		    GPOINTER_TO_UINT(q->preemptable_queues) - 1;
	}
	for (guint i = 0; i < b->running->len; i++) {
		SchedRunning *r = &g_array_index(b->running, SchedRunning, i);

		r->allocs = al + GPOINTER_TO_UINT(r->allocs) - 1;
	}
	for (guint i = 0; i < b->users->len; i++) {
		SchedUser *u = &g_array_index(b->users, SchedUser, i);

		u->groups = ints + GPOINTER_TO_UINT(u->groups) - 1;
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
	GHashTableIter it;
	gpointer v;

	memset(b, 0, sizeof *b);
	b->m = m;
	b->now = g_date_time_new_now_local();
	b->hosts = g_array_new(FALSE, FALSE, sizeof(SchedHost));
	b->queues = g_array_new(FALSE, FALSE, sizeof(SchedQueue));
	b->users = g_array_new(FALSE, FALSE, sizeof(SchedUser));
	b->groups = g_array_new(FALSE, FALSE, sizeof(SchedGroup));
	b->running = g_array_new(FALSE, FALSE, sizeof(SchedRunning));
	b->pending = g_array_new(FALSE, FALSE, sizeof(SchedJob));
	b->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	b->queue_hosts = g_array_new(FALSE, FALSE, sizeof(SchedQueueHost));
	b->ints = g_array_new(FALSE, FALSE, sizeof(guint));
	b->host_index = g_hash_table_new(g_str_hash, g_str_equal);
	b->user_index = g_hash_table_new(g_direct_hash, g_direct_equal);
	b->pending_jobs = g_ptr_array_new();
	b->pools = g_array_new(FALSE, FALSE, sizeof(SchedPool));
	b->running_jobs = g_ptr_array_new();
	b->queue_refs = g_array_new(FALSE, FALSE, sizeof(SchedQueueRef));

	add_hosts(b);
	add_host_resources(b);
	for (guint i = 0; i < queues->len; i++)
		add_queue(b, g_ptr_array_index(queues, i));
	add_preemption(b);
	add_pools(b);
	add_windows(b);
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
	b->snap.hosts = (SchedHost *)(void *)b->hosts->data;
	b->snap.n_hosts = b->hosts->len;
	b->snap.queues = (SchedQueue *)(void *)b->queues->data;
	b->snap.n_queues = b->queues->len;
	b->snap.users = (SchedUser *)(void *)b->users->data;
	b->snap.n_users = b->users->len;
	b->snap.groups = (SchedGroup *)(void *)b->groups->data;
	b->snap.n_groups = b->groups->len;
	b->snap.running = (SchedRunning *)(void *)b->running->data;
	b->snap.n_running = b->running->len;
	b->snap.pending = (SchedJob *)(void *)b->pending->data;
	b->snap.n_pending = b->pending->len;
	b->snap.preempt_for = m->cfg->params->preempt_for;
	b->snap.pools = (SchedPool *)(void *)b->pools->data;
	b->snap.n_pools = b->pools->len;
	b->snap.now = manager_now();
	b->snap.utc_offset = (int)(g_date_time_get_utc_offset(b->now) /
	    G_USEC_PER_SEC);
}

void
snapshot_free(Build *b)
{
	g_array_free(b->hosts, TRUE);
	g_array_free(b->queues, TRUE);
	g_array_free(b->users, TRUE);
	g_array_free(b->groups, TRUE);
	g_array_free(b->running, TRUE);
	g_array_free(b->pending, TRUE);
	g_array_free(b->allocs, TRUE);
	g_array_free(b->queue_hosts, TRUE);
	g_array_free(b->ints, TRUE);
	g_hash_table_destroy(b->host_index);
	g_hash_table_destroy(b->user_index);
	g_ptr_array_free(b->pending_jobs, TRUE);
	g_array_free(b->pools, TRUE);
	g_ptr_array_free(b->running_jobs, TRUE);
	g_array_free(b->queue_refs, TRUE);
	g_date_time_unref(b->now);
}

