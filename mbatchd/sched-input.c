/*
 * The configuration-to-snapshot translation (sched-input.h): server hosts
 * with MXJ, JL/U, DISPATCH_WINDOW, state and load; queues with limits,
 * windows, HOSTS and their "+N" preferences, PREEMPTION lists and
 * SLOT_POOLs; users with the lsb.users rows and group limits that apply
 * to them.  Nothing here reads a clock or the daemon: the facts come in
 * through SchedInputFacts, and windows go to the scheduler as configured
 * (its time-driven stage, sched/window.c, is the one place they act).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched-input.h"

static guint
host_idx(const SchedInput *in, const char *name, gboolean *found)
{
	gpointer v = g_hash_table_lookup(in->host_index, name);

	*found = v != NULL;
	return v != NULL ? GPOINTER_TO_UINT(v) - 1 : 0;
}

gboolean
sched_input_host(const SchedInput *in, const char *name, guint *idx)
{
	gboolean found;

	*idx = host_idx(in, name, &found);
	return found;
}

static int
host_mxj(const BsConfig *cfg, const char *name, int ncpus)
{
	const BsHostConf *hc = bs_config_host(cfg, name);

	/* Without an lsb.hosts row a host has one slot per CPU. */
	if (hc == NULL || hc->mxj == BS_CONF_MXJ_NCPUS)
		return ncpus;
	return hc->mxj;
}

static SchedHostState
host_state(gboolean known, const SchedInputHost *f)
{
	if (!known || !f->up)
		return SCHED_HOST_UNAVAIL;
	if (f->closed_adm)
		return SCHED_HOST_CLOSED_ADM;
	return SCHED_HOST_OK;
}

static void
add_hosts(SchedInput *in, const SchedInputFacts *facts)
{
	GPtrArray *hosts = in->cfg->cluster->hosts;

	for (guint i = 0; i < hosts->len; i++) {
		const BsClusterHost *ch = g_ptr_array_index(hosts, i);
		const BsHostConf *hc = bs_config_host(in->cfg, ch->name);
		SchedInputHost f = { 0 };
		gboolean known;
		SchedHost h = { 0 };

		if (!ch->server)
			continue;
		known = facts->host(ch->name, &f, facts->data);
		h.name = ch->name;
		h.ncpus = known && f.ncpus > 0 ? f.ncpus : 1;
		h.max_slots = host_mxj(in->cfg, ch->name, h.ncpus);
		/* Slots lent to another cluster are not this cluster's to fill. */
		if (known && f.leased_out > 0)
			h.max_slots = h.max_slots == SCHED_UNLIMITED ? h.max_slots :
			    MAX(h.max_slots - f.leased_out, 0);
		h.jl_u = hc != NULL ? hc->jl_u : SCHED_UNLIMITED;
		h.state = host_state(known, &f);
		h.reclaim = known && f.reclaim;
		h.dispatch_window = hc != NULL ? hc->dispatch_window : NULL;
		h.r15s = known ? f.r15s : 0;
		h.r1m = known ? f.r1m : 0;
		g_array_append_val(in->hosts, h);
		g_hash_table_insert(in->host_index, (gpointer)ch->name,
		    GUINT_TO_POINTER(in->hosts->len));
	}
}

/* Hosts other clusters lend this one, after the local ones. */
static void
add_leased(SchedInput *in, const SchedInputFacts *facts)
{
	for (guint i = 0; i < facts->n_leased; i++) {
		const SchedInputLeased *l = &facts->leased[i];
		SchedHost h = { 0 };

		if (l->name == NULL || strchr(l->name, '@') == NULL ||
		    g_hash_table_contains(in->host_index, l->name))
			continue;
		/* Copied: the caller's table may change before the pass ends. */
		h.name = g_string_chunk_insert_const(in->names, l->name);
		h.remote = TRUE;
		h.cluster = l->cluster != NULL ?
		    g_string_chunk_insert_const(in->names, l->cluster) : NULL;
		h.ncpus = l->ncpus > 0 ? l->ncpus : MAX(l->slots, 1);
		h.max_slots = MAX(l->slots, 0);
		h.jl_u = SCHED_UNLIMITED;
		h.state = l->usable ? SCHED_HOST_OK : SCHED_HOST_CLOSED_ADM;
		h.type = l->type != NULL ? g_string_chunk_insert_const(in->names, l->type) : NULL;
		h.model = l->model != NULL ? g_string_chunk_insert_const(in->names, l->model) : NULL;
		h.maxmem = l->maxmem;
		g_array_append_val(in->hosts, h);
		g_hash_table_insert(in->host_index, (gpointer)h.name,
		    GUINT_TO_POINTER(in->hosts->len));
	}
}

/* Whether a queue's HOSTS word names leased host h: allremote, all@c or
 * name@c. */
static gboolean
ref_names_remote(const BsHostRef *r, const SchedHost *h)
{
	const char *at;

	if (!h->remote || r->exclude)
		return FALSE;
	if (r->kind == BS_HOSTREF_ALLREMOTE)
		return TRUE;
	if (r->kind != BS_HOSTREF_REMOTE || r->cluster == NULL ||
	    g_strcmp0(r->cluster, h->cluster) != 0)
		return FALSE;
	at = strchr(h->name, '@');
	return strcmp(r->name, "all") == 0 ||
	    (at != NULL && strlen(r->name) == (size_t)(at - h->name) &&
	    strncmp(r->name, h->name, (size_t)(at - h->name)) == 0);
}

static gboolean
group_allremote(const BsConfig *cfg, const char *name, int depth)
{
	const BsHostGroupConf *g = bs_config_host_group(cfg, name);

	if (g == NULL || depth > 16)
		return FALSE;
	if (g->allremote)
		return TRUE;
	for (guint i = 0; g->members[i] != NULL; i++)
		if (g->members[i][0] != '~' && group_allremote(cfg, g->members[i], depth + 1))
			return TRUE;
	return FALSE;
}

static gboolean
queue_names_remote(const BsConfig *cfg, const BsQueueConf *qc, const SchedHost *h)
{
	for (guint i = 0; qc->hosts != NULL && i < qc->hosts->len; i++) {
		const BsHostRef *r = g_ptr_array_index(qc->hosts, i);

		if (ref_names_remote(r, h))
			return TRUE;
		if (r->kind == BS_HOSTREF_GROUP && !r->exclude &&
		    group_allremote(cfg, r->name, 0))
			return TRUE;
	}
	return FALSE;
}

/* HOSTS "+N" preferences by host, from names and groups written with one. */
static int
host_pref(const BsConfig *cfg, const BsQueueConf *q, const char *host)
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
		members = bs_config_host_group_expand(cfg, r->name);
		if (members != NULL && g_strv_contains((const char *const *)members, host))
			best = MAX(best, r->pref);
	}
	return best;
}

static void
add_queue(SchedInput *in, const BsQueueConf *qc, const SchedInputFacts *facts)
{
	SchedInputQueue f = { 0 };
	g_auto(GStrv) hosts = bs_config_queue_hosts(in->cfg, qc);
	SchedQueue q = { 0 };

	facts->queue(qc->name, &f, facts->data);
	q.name = qc->name;
	q.priority = qc->priority;
	q.dispatch_ok = f.active;
	q.inactive_by_admin = !f.active;
	q.dispatch_window = qc->dispatch_window;
	q.run_window = qc->run_window;
	q.terminate_on_window = (qc->terminate_when & BS_TERMINATE_WHEN_WINDOW) != 0;
	q.qjob_limit = qc->qjob_limit;
	q.ujob_limit = qc->ujob_limit;
	q.hjob_limit = qc->hjob_limit;
	q.pjob_limit = qc->pjob_limit;
	q.terminate_on_preempt = (qc->terminate_when & BS_TERMINATE_WHEN_PREEMPT) != 0;
	q.pool_usage = f.pool_usage;
	/* SLOT_RESERVE counts in sessions of MBD_SLEEP_TIME. */
	q.reserve_time = qc->slot_reserve_time == BS_CONF_UNLIMITED ? 0 :
	    (gint64)qc->slot_reserve_time * MAX(in->cfg->params->mbd_sleep_time, 1);
	q.backfill = qc->backfill;
	/* Hosts are stored as offsets now and turned into pointers once all
	 * queues are in, since the storage array may still move. */
	q.n_hosts = 0;
	q.hosts = GUINT_TO_POINTER(in->queue_hosts->len + 1);
	for (guint i = 0; hosts != NULL && hosts[i] != NULL; i++) {
		gboolean found;
		SchedQueueHost qh;

		qh.host = host_idx(in, hosts[i], &found);
		if (!found)
			continue;
		qh.pref = host_pref(in->cfg, qc, hosts[i]);
		g_array_append_val(in->queue_hosts, qh);
		q.n_hosts++;
	}
	for (guint i = 0; i < in->hosts->len; i++) {
		const SchedHost *h = &g_array_index(in->hosts, SchedHost, i);
		SchedQueueHost qh = { i, 0 };

		if (!h->remote || !queue_names_remote(in->cfg, qc, h))
			continue;
		g_array_append_val(in->queue_hosts, qh);
		q.n_hosts++;
	}
	g_array_append_val(in->queues, q);
}

gboolean
sched_input_queue(const SchedInput *in, const char *name, guint *idx)
{
	gpointer v = name != NULL ? g_hash_table_lookup(in->queue_index, name) : NULL;

	*idx = v != NULL ? GPOINTER_TO_UINT(v) - 1 : 0;
	return v != NULL;
}

/* PREEMPTION lists as queue indexes; stored as offsets like the hosts. */
static void
add_refs(SchedInput *in, GPtrArray *list, SchedQueueRef **out, guint *n)
{
	*out = GUINT_TO_POINTER(in->queue_refs->len + 1);
	*n = 0;
	for (guint i = 0; list != NULL && i < list->len; i++) {
		const BsQueueRef *r = g_ptr_array_index(list, i);
		SchedQueueRef ref = { 0 };

		if (!sched_input_queue(in, r->queue, &ref.queue))
			continue;
		ref.pref = r->pref;
		ref.has_pref = r->has_pref;
		g_array_append_val(in->queue_refs, ref);
		(*n)++;
	}
}

/* SLOT_POOL: the pool's index, creating it on first sight.  The pool's
 * MAX_SLOTS_IN_POOL and USE_PRIORITY_IN_POOL come from its first queue in
 * lsb.queues, as LSF reads them. */
static guint
pool_index(SchedInput *in, const BsQueueConf *qc)
{
	SchedPool pl = { 0 };

	for (guint i = 0; i < in->pools->len; i++)
		if (strcmp(g_array_index(in->pools, SchedPool, i).name, qc->slot_pool) == 0)
			return i;
	pl.name = qc->slot_pool;
	pl.max_slots = qc->max_slots_in_pool == BS_CONF_UNLIMITED ? 0 :
	    qc->max_slots_in_pool;
	pl.use_priority = qc->use_priority_in_pool;
	g_array_append_val(in->pools, pl);
	return in->pools->len - 1;
}

static void
add_pools(SchedInput *in)
{
	for (guint i = 0; i < in->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(in->cfg->queues, i);
		SchedQueue *q = &g_array_index(in->queues, SchedQueue, i);

		if (qc->slot_pool == NULL) {
			q->pool_usage = 0;
			continue;
		}
		q->in_pool = TRUE;
		q->pool = pool_index(in, qc);
		q->slot_share = qc->slot_share;
	}
}

static void
add_preemption(SchedInput *in)
{
	for (guint i = 0; i < in->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(in->cfg->queues, i);
		SchedQueue *q = &g_array_index(in->queues, SchedQueue, i);

		q->preemptive = qc->preemption.preemptive;
		q->preemptable = qc->preemption.preemptable;
		add_refs(in, qc->preemption.preemptive_queues, &q->preemptive_queues,
		    &q->n_preemptive_queues);
		add_refs(in, qc->preemption.preemptable_queues, &q->preemptable_queues,
		    &q->n_preemptable_queues);
	}
}

void
sched_input_build(SchedInput *in, const BsConfig *cfg,
    const SchedInputFacts *facts)
{
	memset(in, 0, sizeof *in);
	in->cfg = cfg;
	in->hosts = g_array_new(FALSE, FALSE, sizeof(SchedHost));
	in->queues = g_array_new(FALSE, FALSE, sizeof(SchedQueue));
	in->users = g_array_new(FALSE, FALSE, sizeof(SchedUser));
	in->groups = g_array_new(FALSE, FALSE, sizeof(SchedGroup));
	in->pools = g_array_new(FALSE, FALSE, sizeof(SchedPool));
	in->queue_hosts = g_array_new(FALSE, FALSE, sizeof(SchedQueueHost));
	in->queue_refs = g_array_new(FALSE, FALSE, sizeof(SchedQueueRef));
	in->user_groups = g_array_new(FALSE, FALSE, sizeof(guint));
	in->host_index = g_hash_table_new(g_str_hash, g_str_equal);
	in->queue_index = g_hash_table_new(g_str_hash, g_str_equal);
	/* Every job of a pass asks for its queue's index: by name, once. */
	for (guint i = 0; i < cfg->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(cfg->queues, i);

		if (!g_hash_table_contains(in->queue_index, qc->name))
			g_hash_table_insert(in->queue_index, qc->name,
			    GUINT_TO_POINTER(i + 1));
	}
	in->user_index = g_hash_table_new(g_str_hash, g_str_equal);
	in->names = g_string_chunk_new(256);
	sched_input_limits_init(in);

	add_hosts(in, facts);
	add_leased(in, facts);
	for (guint i = 0; i < cfg->queues->len; i++)
		add_queue(in, g_ptr_array_index(cfg->queues, i), facts);
	add_preemption(in);
	add_pools(in);
	sched_input_consumers_build(in, facts->consumers);
}

static const BsUserConf *
user_row(const BsConfig *cfg, const char *user)
{
	const BsUsersConf *uc = cfg->users;
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
		members = bs_config_user_group_expand(cfg, r->name);
		if (members != NULL && g_strv_contains((const char *const *)members, user))
			member_row = r;
	}
	return member_row != NULL ? member_row : def;
}

/* Groups whose whole-group MAX_JOBS or JL/P applies to this user. */
static void
user_groups(SchedInput *in, const char *user, SchedUser *su)
{
	const BsUsersConf *uc = in->cfg->users;
	guint start = in->user_groups->len;

	for (guint i = 0; uc != NULL && i < uc->users->len; i++) {
		const BsUserConf *r = g_ptr_array_index(uc->users, i);
		g_auto(GStrv) members = NULL;
		SchedGroup g = { 0 };
		guint gi;

		if (r->per_member || (r->max_jobs == BS_CONF_UNLIMITED &&
		    r->jl_p == BS_CONF_UNLIMITED))
			continue;
		members = bs_config_user_group_expand(in->cfg, r->name);
		if (members == NULL || !g_strv_contains((const char *const *)members, user))
			continue;
		/* One SchedGroup per configured group, shared by its members. */
		for (gi = 0; gi < in->groups->len; gi++)
			if (strcmp(g_array_index(in->groups, SchedGroup, gi).name, r->name) == 0)
				break;
		if (gi == in->groups->len) {
			g.name = r->name;
			g.max_jobs = r->max_jobs;
			g.jl_p = r->jl_p;
			g_array_append_val(in->groups, g);
		}
		g_array_append_val(in->user_groups, gi);
	}
	su->groups = GUINT_TO_POINTER(start + 1);
	su->n_groups = in->user_groups->len - start;
}

guint
sched_input_user(SchedInput *in, const char *user, gboolean copy)
{
	gpointer v = g_hash_table_lookup(in->user_index, user);
	const BsUserConf *row;
	SchedUser su = { 0 };

	if (v != NULL)
		return GPOINTER_TO_UINT(v) - 1;
	if (copy)
		user = g_string_chunk_insert_const(in->names, user);
	row = user_row(in->cfg, user);
	su.name = user;
	su.max_jobs = row != NULL ? row->max_jobs : SCHED_UNLIMITED;
	su.jl_p = row != NULL ? row->jl_p : -1;
	user_groups(in, user, &su);
	g_array_append_val(in->users, su);
	g_hash_table_insert(in->user_index, (gpointer)user,
	    GUINT_TO_POINTER(in->users->len));
	return in->users->len - 1;
}

/* Offsets stored during the build become pointers into the final arrays. */
void
sched_input_finish(SchedInput *in, SchedSnapshot *snap)
{
	SchedQueueHost *qh = (SchedQueueHost *)(void *)in->queue_hosts->data;
	SchedQueueRef *refs = (SchedQueueRef *)(void *)in->queue_refs->data;
	guint *ints = (guint *)(void *)in->user_groups->data;

	for (guint i = 0; i < in->queues->len; i++) {
		SchedQueue *q = &g_array_index(in->queues, SchedQueue, i);

		q->hosts = qh + GPOINTER_TO_UINT(q->hosts) - 1;
		q->preemptive_queues = refs +
		    GPOINTER_TO_UINT(q->preemptive_queues) - 1;
		q->preemptable_queues = refs +
		    GPOINTER_TO_UINT(q->preemptable_queues) - 1;
	}
	for (guint i = 0; i < in->users->len; i++) {
		SchedUser *u = &g_array_index(in->users, SchedUser, i);

		u->groups = ints + GPOINTER_TO_UINT(u->groups) - 1;
	}
	snap->hosts = (SchedHost *)(void *)in->hosts->data;
	snap->n_hosts = in->hosts->len;
	snap->queues = (SchedQueue *)(void *)in->queues->data;
	snap->n_queues = in->queues->len;
	snap->users = (SchedUser *)(void *)in->users->data;
	snap->n_users = in->users->len;
	snap->groups = (SchedGroup *)(void *)in->groups->data;
	snap->n_groups = in->groups->len;
	snap->pools = (SchedPool *)(void *)in->pools->data;
	snap->n_pools = in->pools->len;
	snap->preempt_for = in->cfg->params->preempt_for;
	snap->session_time = in->cfg->params->mbd_sleep_time;
	sched_input_jobgroups(in, snap);
	sched_input_consumers(in, snap);
	/* Last: limits resolve against every user the jobs brought in. */
	sched_input_limits(in, snap);
}

/* A configured RUNLIMIT level: its default, else its maximum, in seconds. */
static gint64
runlimit_level(const BsLimit *l)
{
	if (l->def > 0)
		return l->def * 60;
	return l->max > 0 ? l->max * 60 : 0;
}

gint64
sched_input_run_limit(const BsQueueConf *q, const BsAppConf *app)
{
	gint64 v = app != NULL ? runlimit_level(&app->runlimit) : 0;

	return v > 0 ? v : runlimit_level(&q->runlimit);
}

gint64
sched_input_est_runtime(const BsAppConf *app, guint64 we)
{
	if (we > 0)
		return (gint64)MIN(we, (guint64)G_MAXINT64);
	return app != NULL ? runlimit_level(&app->runtime) : 0;
}

int
sched_input_user_priority(const BsParamsConf *params, guint32 sp)
{
	if (params->max_user_priority <= 0)
		return 0;
	if (sp > 0)
		return (int)MIN(sp, (guint32)G_MAXINT);
	return MAX(params->max_user_priority / 2, 1);
}

void
sched_input_free(SchedInput *in)
{
	if (in->hosts == NULL)
		return;
	g_array_free(in->hosts, TRUE);
	g_array_free(in->queues, TRUE);
	g_array_free(in->users, TRUE);
	g_array_free(in->groups, TRUE);
	g_array_free(in->pools, TRUE);
	g_array_free(in->queue_hosts, TRUE);
	g_array_free(in->queue_refs, TRUE);
	g_array_free(in->user_groups, TRUE);
	g_hash_table_destroy(in->host_index);
	g_hash_table_destroy(in->queue_index);
	g_hash_table_destroy(in->user_index);
	sched_input_limits_free(in);
	sched_input_jobgroups_free(in);
	sched_input_consumers_free(in);
	g_string_chunk_free(in->names);
	memset(in, 0, sizeof *in);
}
