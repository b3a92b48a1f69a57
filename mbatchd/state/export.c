/*
 * The live state as a list of events: what a checkpoint stores.  Replaying
 * the list into an empty State through state_apply() rebuilds the same
 * jobs in the same states, the same pending order in every queue, the
 * same queue and host controls and the same job id counter, so a checkpoint
 * is read by the very code that reads the journal.
 *
 * The events borrow strings from the state: pack them before the state
 * changes, then free the list with state_export_free().
 */
#include "config.h"

#include <string.h>

#include "state.h"

typedef struct {
	GPtrArray *events;        /* Basalt__Event*, each with its own body */
	GPtrArray *blocks;        /* everything else to g_free */
	GHashTable *env_ids;      /* SharedEnv * -> its EvEnvironment id */
	GHashTable *spec_ids;     /* JobSpecRef * -> its EvSpec id */
} Export;

static gpointer
keep(Export *x, gpointer p)
{
	g_ptr_array_add(x->blocks, p);
	return p;
}

static Basalt__Event *
event(Export *x, gint64 time)
{
	Basalt__Event *ev = g_new(Basalt__Event, 1);

	basalt__event__init(ev);
	ev->time = time;
	g_ptr_array_add(x->events, ev);
	return ev;
}

/*
 * The id of the job's environment, stored once before the first job that
 * has it: a million jobs from a few login shells carried a million 1.5 KB
 * copies, most of what a checkpoint was to write and then to read.  0: the
 * job has none.
 */
static guint64
export_env(Export *x, SharedEnv *env)
{
	Basalt__EvEnvironment *e;
	Basalt__Event *ev;
	guint64 id;

	if (env == NULL)
		return 0;
	id = GPOINTER_TO_SIZE(g_hash_table_lookup(x->env_ids, env));
	if (id != 0)
		return id;
	id = g_hash_table_size(x->env_ids) + 1;
	g_hash_table_insert(x->env_ids, env, GSIZE_TO_POINTER(id));
	ev = event(x, 0);
	e = keep(x, g_new(Basalt__EvEnvironment, 1));
	basalt__ev_environment__init(e);
	e->id = id;
	e->vars = env->vars;
	e->n_vars = env->n;
	ev->body_case = BASALT__EVENT__BODY_ENVIRONMENT;
	ev->environment = e;
	return id;
}

/*
 * The id of the job's spec, stored once (with its environment's id)
 * before the first job that has it, as for environments: a loop of bsub
 * sends the same request again and again, and each job made from a
 * checkpoint packed and unpacked its copy to find the shared one.  The
 * hold flag is not in it: a PSUSP job is held by a status event.
 */
static guint64
export_spec(Export *x, JobSpecRef *r)
{
	Basalt__EvSpec *e;
	Basalt__JobSpec *spec;
	Basalt__Event *ev;
	guint64 id, env_ref;

	id = GPOINTER_TO_SIZE(g_hash_table_lookup(x->spec_ids, r));
	if (id != 0)
		return id;
	env_ref = export_env(x, r->env);
	id = g_hash_table_size(x->spec_ids) + 1;
	g_hash_table_insert(x->spec_ids, r, GSIZE_TO_POINTER(id));
	spec = keep(x, g_memdup2(r->spec, sizeof *spec));
	spec->hold = FALSE;
	spec->env = NULL;
	spec->n_env = 0;
	ev = event(x, 0);
	e = keep(x, g_new(Basalt__EvSpec, 1));
	basalt__ev_spec__init(e);
	e->id = id;
	e->spec = spec;
	e->env_ref = env_ref;
	ev->body_case = BASALT__EVENT__BODY_SPEC_DEF;
	ev->spec_def = e;
	return id;
}

static void
export_new(Export *x, const Job *j)
{
	guint64 spec_ref = j->spec != NULL ? export_spec(x, j->spec) : 0;
	Basalt__Event *ev = event(x, j->submit_time);
	Basalt__EvJobNew *e = keep(x, g_new(Basalt__EvJobNew, 1));

	basalt__ev_job_new__init(e);
	/* The queue is an event of its own (switch). */
	if (spec_ref != 0) {
		e->spec_ref = spec_ref;
	} else {
		Basalt__JobSpec *spec = keep(x, g_memdup2(job_spec(j),
		    sizeof *spec));

		spec->hold = FALSE;
		e->spec = spec;
	}
	e->job_id = j->id;
	e->user = (char *)j->user;
	e->uid = j->uid;
	e->gid = j->gid;
	e->queue = (char *)j->queue;
	e->from_host = (char *)j->from_host;
	e->array_limit = j->array_limit;
	e->preempt_count = j->preempt_count;
	e->last_instance = j->instance;
	e->submit_token = (char *)state_token_text(j);
	if (j->preexec_hosts != NULL) {
		e->preexec_hosts = (char **)j->preexec_hosts->pdata;
		e->n_preexec_hosts = j->preexec_hosts->len;
	}
	if (j->index > 0) {
		const char *br = strrchr(j->name, '[');

		e->array_indexes = keep(x, g_memdup2(&j->index, sizeof j->index));
		e->n_array_indexes = 1;
		e->job_name = keep(x, g_strndup(j->name, br != NULL ?
		    (gsize)(br - j->name) : strlen(j->name)));
	} else {
		e->job_name = (char *)j->name;
	}
	ev->body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev->job_new = e;
}

static void
export_status(Export *x, const Job *j, JobState s, gint64 t, const char *reason)
{
	Basalt__Event *ev = event(x, t);
	Basalt__EvJobStatus *e = keep(x, g_new(Basalt__EvJobStatus, 1));

	basalt__ev_job_status__init(e);
	e->job_id = j->id;
	e->array_index = j->index;
	e->state = s;
	e->exit_status = j->exit_status;
	e->term_signal = j->term_signal;
	e->usage = (Basalt__ResourceUsage *)job_usage(j);
	e->reason = (char *)reason;
	if (s == JS_DONE || s == JS_EXIT)
		e->term_reason = j->term_reason;
	/* Who preempted it, without counting again: the count came with
	 * the job's EvJobNew. */
	if (s == JS_SSUSP && j->preempted_by != 0) {
		e->preempted_by_job = j->preempted_by >> 32;
		e->preempted_by_index = (guint32)j->preempted_by;
		e->from_checkpoint = TRUE;
	}
	ev->body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev->job_status = e;
}

static void
export_run(Export *x, const Job *j)
{
	Basalt__Event *ev = event(x, j->start_time);
	Basalt__EvJobDispatch *d = keep(x, g_new(Basalt__EvJobDispatch, 1));

	basalt__ev_job_dispatch__init(d);
	d->job_id = j->id;
	d->array_index = j->index;
	d->exec_hosts = j->exec_hosts;
	d->n_exec_hosts = g_strv_length(j->exec_hosts);
	d->instance = j->instance;
	d->effective = j->effective;
	ev->body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev->job_dispatch = d;
	if (j->pgid != 0) {
		Basalt__EvJobStart *s = keep(x, g_new(Basalt__EvJobStart, 1));

		ev = event(x, j->start_time);
		basalt__ev_job_start__init(s);
		s->job_id = j->id;
		s->array_index = j->index;
		s->pgid = j->pgid;
		ev->body_case = BASALT__EVENT__BODY_JOB_START;
		ev->job_start = s;
	}
	if (j->kill_as_done && !job_is_finished(j)) {
		/* bkill -d's mark on this run, kept across a checkpoint. */
		Basalt__EvJobSignal *k = keep(x, g_new(Basalt__EvJobSignal, 1));

		ev = event(x, j->start_time);
		basalt__ev_job_signal__init(k);
		k->job_id = j->id;
		k->array_index = j->index;
		k->record_done = TRUE;
		ev->body_case = BASALT__EVENT__BODY_JOB_SIGNAL;
		ev->job_signal = k;
	}
}

/* bpost's messages, each with its post time, after the job exists. */
static void
export_messages(Export *x, const Job *j)
{
	for (guint i = 0; j->messages != NULL && i < j->messages->len; i++) {
		const JobMsg *msg = g_ptr_array_index(j->messages, i);
		Basalt__Event *ev = event(x, msg->time);
		Basalt__EvJobMessage *e = keep(x, g_new(Basalt__EvJobMessage, 1));

		basalt__ev_job_message__init(e);
		e->job_id = j->id;
		e->array_index = j->index;
		e->index = msg->index;
		e->text = msg->text;
		e->user = msg->user;
		ev->body_case = BASALT__EVENT__BODY_JOB_MESSAGE;
		ev->job_message = e;
	}
}

/* A pending job its consumer's quota holds: so a restart from the
 * checkpoint does not journal the same change again. */
static void
export_consumer_pend(Export *x, const Job *j)
{
	Basalt__Event *ev;
	Basalt__EvJobConsumerPend *e;

	if (j->quota_pend == NULL || !job_is_pending(j))
		return;
	ev = event(x, j->submit_time);
	e = keep(x, g_new(Basalt__EvJobConsumerPend, 1));
	basalt__ev_job_consumer_pend__init(e);
	e->job_id = j->id;
	e->array_index = j->index;
	e->pending = TRUE;
	e->resource_group = (char *)j->quota_pend;
	ev->body_case = BASALT__EVENT__BODY_JOB_CONSUMER_PEND;
	ev->job_consumer_pend = e;
}

/* A reclaim in progress: a restart from the checkpoint keeps its grace
 * deadline. */
static void
export_reclaim(Export *x, const Job *j)
{
	Basalt__Event *ev;
	Basalt__EvJobReclaim *e;

	if (j->reclaim_deadline == 0 || !job_is_started(j))
		return;
	ev = event(x, j->start_time);
	e = keep(x, g_new(Basalt__EvJobReclaim, 1));
	basalt__ev_job_reclaim__init(e);
	e->job_id = j->id;
	e->array_index = j->index;
	e->instance = j->instance;
	e->deadline = j->reclaim_deadline;
	e->for_consumer = (char *)(j->reclaim_for != NULL ? j->reclaim_for : "");
	e->kind = (char *)(j->reclaim_kind != NULL ? j->reclaim_kind : "");
	ev->body_case = BASALT__EVENT__BODY_JOB_RECLAIM;
	ev->job_reclaim = e;
}

static void
export_job(Export *x, const Job *j)
{
	export_new(x, j);
	export_messages(x, j);
	if (j->exec_hosts != NULL)
		export_run(x, j);
	switch (j->state) {
	case JS_PEND:
	case JS_RUN:
		break;
	case JS_PSUSP:
		export_status(x, j, JS_PSUSP, j->submit_time, NULL);
		break;
	case JS_DONE:
	case JS_EXIT:
		export_status(x, j, j->state, j->end_time, j->exit_reason);
		break;
	default:
		export_status(x, j, j->state, j->start_time, j->suspend_reason);
		break;
	}
	export_consumer_pend(x, j);
	export_reclaim(x, j);
}

/*
 * Whether the queue's pending order is the one loading the checkpoint
 * gives without moves: its jobs come by id (and index) and each is placed
 * after those submitted no later (pending_insert), so that order is by
 * submit time, then id, then index.
 */
static gboolean
order_is_natural(const QueueRt *q)
{
	for (const GList *l = q->pending.head; l != NULL && l->next != NULL;
	    l = l->next) {
		const Job *a = l->data, *b = l->next->data;

		if (a->submit_time != b->submit_time) {
			if (a->submit_time > b->submit_time)
				return FALSE;
		} else if (a->id != b->id) {
			if (a->id > b->id)
				return FALSE;
		} else if (a->index >= b->index) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Pending order: move each job to its place, first to last, unless the
 * jobs are in that order already (a million moves were a tenth of a
 * restart with a million pending jobs). */
static void
export_order(Export *x, const QueueRt *q)
{
	guint pos = 1;

	if (order_is_natural(q))
		return;
	for (GList *l = q->pending.head; l != NULL; l = l->next, pos++) {
		const Job *j = l->data;
		Basalt__Event *ev = event(x, 0);
		Basalt__EvJobMove *m = keep(x, g_new(Basalt__EvJobMove, 1));

		basalt__ev_job_move__init(m);
		m->job_id = j->id;
		m->array_index = j->index;
		m->position = pos;
		ev->body_case = BASALT__EVENT__BODY_JOB_MOVE;
		ev->job_move = m;
	}
}

static void
export_queue(Export *x, const QueueRt *q)
{
	Basalt__QueueCtrl ctrl[2] = {
		q->open ? BASALT__QUEUE_CTRL__QUEUE_CTRL_OPEN :
		    BASALT__QUEUE_CTRL__QUEUE_CTRL_CLOSE,
		q->active ? BASALT__QUEUE_CTRL__QUEUE_CTRL_ACTIVATE :
		    BASALT__QUEUE_CTRL__QUEUE_CTRL_INACTIVATE,
	};

	for (int i = 0; i < 2; i++) {
		Basalt__Event *ev = event(x, 0);
		Basalt__EvQueueCtrl *c = keep(x, g_new(Basalt__EvQueueCtrl, 1));

		basalt__ev_queue_ctrl__init(c);
		c->queue = (char *)q->name;
		c->action = ctrl[i];
		ev->body_case = BASALT__EVENT__BODY_QUEUE_CTRL;
		ev->queue_ctrl = c;
	}
}

static void
export_host(Export *x, const HostRt *h)
{
	Basalt__Event *ev = event(x, 0);
	Basalt__EvHostCtrl *c = keep(x, g_new(Basalt__EvHostCtrl, 1));

	basalt__ev_host_ctrl__init(c);
	c->host = (char *)h->name;
	c->close = h->closed_adm;
	c->comment = h->close_comment;
	ev->body_case = BASALT__EVENT__BODY_HOST_CTRL;
	ev->host_ctrl = c;
	if (h->reclaim) {
		Basalt__EvHostReclaim *r = keep(x, g_new(Basalt__EvHostReclaim, 1));

		ev = event(x, 0);
		basalt__ev_host_reclaim__init(r);
		r->host = (char *)h->name;
		r->reclaim = TRUE;
		ev->body_case = BASALT__EVENT__BODY_HOST_RECLAIM;
		ev->host_reclaim = r;
	}
}

/* Groups go first, parents before children, each with its owner, limit
 * and kind: the jobs' own events then find them. */
static void
export_jobgroups(Export *x, const State *st)
{
	GPtrArray *groups = state_jobgroups_sorted(st);

	for (guint i = 0; i < groups->len; i++) {
		const JobGroup *g = g_ptr_array_index(groups, i);
		Basalt__Event *ev = event(x, g->create_time);
		Basalt__EvJobGroup *e = keep(x, g_new(Basalt__EvJobGroup, 1));

		basalt__ev_job_group__init(e);
		e->action = BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_ADD;
		e->path = g->path;
		e->user = g->owner;
		e->limit = g->limit;
		e->set_limit = g->limit >= 0;
		e->implicit = g->implicit;
		ev->body_case = BASALT__EVENT__BODY_JOB_GROUP;
		ev->job_group = e;
	}
	g_ptr_array_free(groups, TRUE);
}

static int
by_id(gconstpointer a, gconstpointer b)
{
	const Job *x = *(Job *const *)a, *y = *(Job *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

GPtrArray *
state_export_events(const State *st, GPtrArray **blocks)
{
	Export x = { g_ptr_array_new_with_free_func(g_free),
		g_ptr_array_new_with_free_func(g_free),
		g_hash_table_new(g_direct_hash, g_direct_equal),
		g_hash_table_new(g_direct_hash, g_direct_equal) };
	GPtrArray *jobs = g_ptr_array_sized_new(g_hash_table_size(st->jobs));
	GHashTableIter it;
	gpointer v;
	Basalt__Event *ev;
	Basalt__EvCounters *c;

	/* Finished jobs first, in completion order, so CLEAN_PERIOD keeps
	 * working from their end times; then the rest by id. */
	g_hash_table_iter_init(&it, st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(jobs, v);
	g_ptr_array_sort(jobs, by_id);
	export_jobgroups(&x, st);
	for (GList *l = st->finished.head; l != NULL; l = l->next)
		export_job(&x, l->data);
	for (guint i = 0; i < jobs->len; i++)
		if (!job_is_finished(g_ptr_array_index(jobs, i)))
			export_job(&x, g_ptr_array_index(jobs, i));
	g_ptr_array_free(jobs, TRUE);
	g_hash_table_iter_init(&it, st->queues);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		export_queue(&x, v);
		export_order(&x, v);
	}
	g_hash_table_iter_init(&it, st->hosts);
	while (g_hash_table_iter_next(&it, NULL, &v))
		export_host(&x, v);
	state_export_leases(st, x.events, x.blocks);
	ev = event(&x, 0);
	c = keep(&x, g_new(Basalt__EvCounters, 1));
	basalt__ev_counters__init(c);
	c->last_job_id = st->last_job_id;
	ev->body_case = BASALT__EVENT__BODY_COUNTERS;
	ev->counters = c;
	g_hash_table_destroy(x.env_ids);
	g_hash_table_destroy(x.spec_ids);
	*blocks = x.blocks;
	return x.events;
}
