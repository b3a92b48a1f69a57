/*
 * Shared pieces of the BatchService handlers: the caller's identity, error
 * replies, permission, job selection in bjobs order, and JobInfo filling.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "mbatchd/mbd-reserve.h"
#include "mbatchd/sched-input.h"
#include "mbatchd/svc/svc.h"

void
svc_caller(Manager *m, void *call, Caller *c)
{
	const BsRpcPeer *peer = bs_rpc_call_peer(call);

	memset(c, 0, sizeof *c);
	c->m = m;
	c->known = peer->has_cred;
	if (!c->known)
		return;
	c->uid = peer->uid;
	c->gid = peer->gid;
	c->admin = manager_is_admin(m, peer->uid);
	manager_user_name(m, peer->uid, c->user, sizeof c->user);
}

Basalt__Error *
svc_error(Basalt__ErrorCode code, const char *fmt, ...)
{
	Basalt__Error *e = g_new(Basalt__Error, 1);
	va_list ap;

	basalt__error__init(e);
	e->code = code;
	va_start(ap, fmt);
	e->message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return e;
}

void
svc_error_free(Basalt__Error *e)
{
	if (e == NULL)
		return;
	g_free(e->message);
	g_free(e);
}

Basalt__Error *
svc_storage_error(const Manager *m)
{
	if (!m->storage_failed)
		return NULL;
	return svc_error(BASALT__ERROR_CODE__ERROR_CODE_STORAGE,
	    "The batch system cannot record changes now (%s); running jobs are "
	    "not affected. Try again later", m->storage_error);
}

gboolean
svc_may_control(const Caller *c, const Job *j)
{
	return c->known && (c->admin || strcmp(c->user, j->user) == 0);
}

typedef struct {
	GHashTable *qprio;   /* queue name -> priority */
	GHashTable *qpos;    /* Job* -> position in its queue */
} Order;

static int
rank(const Job *j)
{
	return job_is_pending(j) ? 0 : job_is_finished(j) ? 2 : 1;
}

static int
cmp_jobs(gconstpointer pa, gconstpointer pb, gpointer data)
{
	const Job *a = *(Job *const *)pa, *b = *(Job *const *)pb;
	Order *o = data;
	int ra = rank(a), rb = rank(b);

	if (ra != rb)
		return ra - rb;
	if (ra == 0) {
		int pa_ = GPOINTER_TO_INT(g_hash_table_lookup(o->qprio, a->queue));
		int pb_ = GPOINTER_TO_INT(g_hash_table_lookup(o->qprio, b->queue));
		guint xa = GPOINTER_TO_UINT(g_hash_table_lookup(o->qpos, a));
		guint xb = GPOINTER_TO_UINT(g_hash_table_lookup(o->qpos, b));

		if (pa_ != pb_)
			return pa_ > pb_ ? -1 : 1;
		if (a->queue != b->queue)
			return strcmp(a->queue, b->queue);
		return xa < xb ? -1 : xa > xb;
	}
	if (ra == 2 && a->end_time != b->end_time)
		return a->end_time < b->end_time ? -1 : 1;
	if (ra == 1 && a->start_time != b->start_time)
		return a->start_time < b->start_time ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The general order, for a state whose pending lists do not hold every
 * pending job (which apply.c never lets happen): hash lookups per compare. */
static void
sort_by_lookups(Manager *m, GPtrArray *out)
{
	Order o;
	GHashTableIter it;
	gpointer k, v;

	o.qprio = g_hash_table_new(g_str_hash, g_str_equal);
	o.qpos = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < m->cfg->queues->len; i++) {
		const BsQueueConf *qc = g_ptr_array_index(m->cfg->queues, i);

		g_hash_table_insert(o.qprio, qc->name, GINT_TO_POINTER(qc->priority));
	}
	g_hash_table_iter_init(&it, m->st->queues);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		guint pos = 0;

		for (GList *l = ((QueueRt *)v)->pending.head; l; l = l->next)
			g_hash_table_insert(o.qpos, l->data, GUINT_TO_POINTER(pos++));
	}
	g_ptr_array_sort_with_data(out, cmp_jobs, &o);
	g_hash_table_destroy(o.qprio);
	g_hash_table_destroy(o.qpos);
}

/* A started or finished job with its sort key at hand. */
typedef struct {
	int rank;
	gint64 t;                 /* start time (started), end time (finished) */
	guint64 id;
	guint32 index;
	Job *j;
} Placed;

static int
cmp_placed(const void *pa, const void *pb)
{
	const Placed *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank - b->rank;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

typedef struct {
	int prio;
	const char *name;
	const QueueRt *rt;
} QueueOrder;

static int
cmp_queue_order(const void *pa, const void *pb)
{
	const QueueOrder *a = pa, *b = pb;

	if (a->prio != b->prio)
		return a->prio > b->prio ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
place(Selector *sel, Job *j, GArray *placed)
{
	Placed p;

	if (!svc_selector_match(sel, j))
		return;
	p.rank = rank(j);
	p.t = p.rank == 2 ? j->end_time : j->start_time;
	p.id = j->id;
	p.index = j->index;
	p.j = j;
	g_array_append_val(placed, p);
}

/*
 * The started and finished jobs, each once, without a walk over every job
 * (a million pending ones, each a cache miss): the started ones from the
 * jobs-by-host index, where a job is under its first host, the finished
 * ones from State.finished.  Returns how many there are; a started job
 * missing from the index, or a job in none of the three kinds of state,
 * leaves the pending lists and this count short of the jobs, and the
 * caller then selects the slow way.
 */
static guint
place_others(Manager *m, Selector *sel, GArray *placed)
{
	GHashTableIter hi, ji;
	gpointer host, set, v;
	guint n = 0;

	g_hash_table_iter_init(&hi, m->st->by_host);
	while (g_hash_table_iter_next(&hi, &host, &set)) {
		g_hash_table_iter_init(&ji, set);
		while (g_hash_table_iter_next(&ji, &v, NULL)) {
			Job *j = v;

			/* Only under its own first host, so once. */
			if (!job_is_started(j) || j->exec_hosts == NULL ||
			    g_strcmp0(j->exec_hosts[0], host) != 0)
				continue;
			n++;
			place(sel, j, placed);
		}
	}
	for (GList *l = m->st->finished.head; l != NULL; l = l->next) {
		Job *j = l->data;

		if (!job_is_finished(j) || j->flink != l)
			continue;
		n++;
		place(sel, j, placed);
	}
	return n;
}

/*
 * Pending jobs come out of the queues' pending lists, which are already in
 * dispatch order, taken queue by queue in priority order; only started
 * and finished jobs need sorting, on keys computed once.  (Sorting all of
 * them with hash lookups in the comparison cost a second with 100,000
 * pending jobs.)
 */
GPtrArray *
svc_select_jobs(Manager *m, const Basalt__JobQuery *q, const char *default_user)
{
	GPtrArray *out = g_ptr_array_new();
	GArray *placed = g_array_new(FALSE, FALSE, sizeof(Placed));
	GArray *queues = g_array_new(FALSE, FALSE, sizeof(QueueOrder));
	guint n_pending, n_listed = 0;
	GHashTableIter it;
	gpointer k, v;
	Selector *sel = svc_selector_new(m, q, default_user);

	n_pending = g_hash_table_size(m->st->jobs) - place_others(m, sel, placed);
	g_hash_table_iter_init(&it, m->st->queues);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		const BsQueueConf *qc = bs_config_queue(m->cfg, k);
		QueueOrder o = { qc != NULL ? qc->priority : 0, k, v };

		g_array_append_val(queues, o);
	}
	g_array_sort(queues, cmp_queue_order);
	for (guint i = 0; i < queues->len; i++) {
		const QueueRt *rt = g_array_index(queues, QueueOrder, i).rt;

		for (GList *l = rt->pending.head; l != NULL; l = l->next) {
			n_listed++;
			if (job_is_pending(l->data) && svc_selector_match(sel, l->data))
				g_ptr_array_add(out, l->data);
		}
	}
	g_array_sort(placed, cmp_placed);
	for (guint i = 0; i < placed->len; i++)
		g_ptr_array_add(out, g_array_index(placed, Placed, i).j);
	g_array_free(placed, TRUE);
	g_array_free(queues, TRUE);
	if (n_listed != n_pending) {
		/* Not every pending job is listed: select and sort the slow way. */
		g_ptr_array_set_size(out, 0);
		g_hash_table_iter_init(&it, m->st->jobs);
		while (g_hash_table_iter_next(&it, NULL, &v))
			if (svc_selector_match(sel, v))
				g_ptr_array_add(out, v);
		sort_by_lookups(m, out);
	}
	svc_selector_free(sel);
	return out;
}

static void
job_reasons(const Job *j, Basalt__JobInfo *info)
{
	if (job_is_pending(j))
		info->pending_reason = j->pending_reason != NULL ? j->pending_reason :
		    (char *)(j->state == JS_PSUSP ?
		    "The job was suspended by the user while pending;" :
		    "New job is waiting for scheduling;");
	info->suspend_reason = j->suspend_reason;
}

/* The fields a JobQuery.fields mask asks for (not 0: that is every field,
 * svc_fill_job_info's).  Nothing is allocated, so there is nothing to free.
 * svc_job_row_pack (job-row.c) packs these fields and no others: a field
 * added here is added there. */
static void
fill_job_fields(const Job *j, guint32 fields, Basalt__JobInfo *info)
{
	basalt__job_info__init(info);
	info->job_id = j->id;
	info->array_index = j->index;
	info->user = (char *)j->user;
	info->state = j->state;
	info->queue = (char *)j->queue;
	info->from_host = (char *)(j->from_host != NULL ? j->from_host : "");
	info->exec_hosts = j->exec_hosts;
	info->n_exec_hosts = j->exec_hosts != NULL ? g_strv_length(j->exec_hosts) : 0;
	info->job_name = (char *)j->name;
	info->submit_time = j->submit_time;
	if (fields & BASALT__JOB_FIELDS__JOB_FIELDS_REASONS)
		job_reasons(j, info);
}

void
svc_fill_job_info(Manager *m, const Job *j, gboolean detail,
    Basalt__JobInfo *info)
{
	/* The table's fields and the reasons, then everything else. */
	fill_job_fields(j, BASALT__JOB_FIELDS__JOB_FIELDS_REASONS, info);
	info->uid = j->uid;
	info->start_time = j->start_time;
	info->end_time = j->end_time;
	info->exit_status = j->exit_status;
	info->term_signal = j->term_signal;
	info->preempt_count = j->preempt_count;
	info->user_priority = (guint32)sched_input_user_priority(m->cfg->params,
	    job_spec(j)->user_priority);
	info->exit_reason = j->exit_reason;
	info->interactive = job_spec(j) != NULL ? job_spec(j)->interactive : 0;
	info->job_group = job_spec(j) != NULL ? job_spec(j)->job_group : NULL;
	info->term_reason = j->term_reason;
	info->consumer = (char *)svc_job_consumer(m, j);
	/* Resource reclaim: the run's grace deadline, whom for, how often. */
	info->reclaim_deadline = j->reclaim_deadline;
	info->reclaim_for = (char *)(j->reclaim_for != NULL ? j->reclaim_for : "");
	info->reclaim_kind = (char *)(j->reclaim_kind != NULL ? j->reclaim_kind : "");
	info->reclaim_count = j->reclaim_count;
	if (job_spec(j) != NULL) {
		info->warning_action = job_spec(j)->warning_action;
		info->warning_time = job_spec(j)->warning_time;
	}
	/* Usage is cheap and bjobs -o may ask for cpu_used / max_mem. */
	info->usage = g_new(Basalt__ResourceUsage, 1);
	*info->usage = *job_usage(j);
	info->usage->pids = NULL;
	info->usage->n_pids = 0;
	info->usage->base.n_unknown_fields = 0;
	info->usage->base.unknown_fields = NULL;
	if (detail) {
		const MbdReserve *r = job_is_pending(j) ? reserve_of(m, j) : NULL;

		info->spec = (Basalt__JobSpec *)job_spec(j);
		info->effective = j->effective;
		if (r != NULL && r->hosts != NULL) {
			info->reserved_hosts = r->hosts;
			info->n_reserved_hosts = g_strv_length(r->hosts);
			info->reserve_time = r->since;
			info->reserve_start = r->start;
		}
	}
}

void
svc_fill_job(Manager *m, const Job *j, const Basalt__JobQuery *q,
    Basalt__JobInfo *info)
{
	if (q->fields != 0)
		fill_job_fields(j, q->fields, info);
	else
		svc_fill_job_info(m, j, q->detail, info);
}

void
svc_free_job_info(Basalt__JobInfo *info)
{
	g_free(info->usage);
}

gboolean
svc_queue_accepts_user(Manager *m, const BsQueueConf *q, const char *user)
{
	gboolean ok = FALSE;

	if (q->users == NULL)
		return TRUE;
	/* Words in order: all, names and groups include; ~ excludes. */
	for (guint i = 0; q->users[i] != NULL; i++) {
		const char *w = q->users[i];
		gboolean exclude = w[0] == '~';
		g_auto(GStrv) members = NULL;
		gboolean hit;

		if (exclude)
			w++;
		members = bs_config_user_group_expand(m->cfg, w);
		hit = strcmp(w, "all") == 0 || strcmp(w, user) == 0 ||
		    (members != NULL && g_strv_contains((const char *const *)members, user));
		if (hit)
			ok = !exclude;
	}
	return ok;
}

void
svc_init_batch_service(Manager *m)
{
	Basalt__BatchService_Service init = BASALT__BATCH_SERVICE__INIT(svc_);

	m->batch_service = init;
	svc_bound_requests(m);
}
