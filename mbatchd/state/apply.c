/*
 * state_apply(): the one place where mbatchd's state changes.
 *
 * Each handler first checks that the event fits (the job exists, the move
 * is legal from its state) and only then changes anything, so a rejected
 * event leaves the state exactly as it was.  Replay relies on that too: a
 * journal written by this code only ever holds events that fit.
 */
#include "config.h"

#include <string.h>

#include "resreq/resreq.h"
#include "state.h"
#include "util/error.h"

/*
 * The spec, kept once for every job submitted with the same one (a loop
 * of bsub sends the same request again and again: the spec and its
 * parsed -R and -w were most of a pending job's memory), its environment
 * shared with every other spec of the same environment.  The key is the
 * spec packed without its environment, followed by the interned
 * environment's address: equal keys, equal specs.
 */
static JobSpecRef *
spec_ref_new(State *st, const Basalt__JobSpec *spec, SharedEnv *given,
    gboolean *made)
{
	Basalt__JobSpec empty = BASALT__JOB_SPEC__INIT;
	Basalt__JobSpec rest;
	SharedEnv *env = NULL;
	JobSpecRef *r;
	GBytes *key;
	size_t len;
	guint8 *buf;
	guint8 stack[2048];
	ProtobufCBufferSimple simple;

	if (spec == NULL)
		spec = &empty;
	rest = *spec;
	if (given != NULL) {
		env = given;
		env->ref++;
	} else if (spec->n_env > 0) {
		env = state_env_intern(st, spec->env, spec->n_env);
	}
	rest.env = NULL;
	rest.n_env = 0;
	/* Packed as it goes, into a buffer on the stack while it fits:
	 * sizing the spec before packing it walked it twice, a fifth of
	 * what making a job's spec from a checkpoint cost. */
	simple = (ProtobufCBufferSimple)PROTOBUF_C_BUFFER_SIMPLE_INIT(stack);
	basalt__job_spec__pack_to_buffer(&rest, &simple.base);
	protobuf_c_buffer_simple_append(&simple.base, sizeof env,
	    (const guint8 *)&env);
	len = simple.len - sizeof env;
	buf = g_memdup2(simple.data, simple.len);
	PROTOBUF_C_BUFFER_SIMPLE_CLEAR(&simple);
	key = g_bytes_new_take(buf, len + sizeof env);
	r = g_hash_table_lookup(st->specs, key);
	if (r != NULL) {
		g_bytes_unref(key);
		shared_env_unref(env);
		g_atomic_int_inc(&r->ref);
		*made = FALSE;
		return r;
	}
	/* protobuf-c has no deep copy; unpacking what was packed is exact. */
	r = g_new0(JobSpecRef, 1);
	r->ref = 1;
	r->spec = basalt__job_spec__unpack(NULL, len, buf);
	g_assert(r->spec != NULL);
	r->env = env;
	if (env != NULL) {
		r->spec->env = env->vars;
		r->spec->n_env = env->n;
	}
	r->key = key;
	r->table = st->specs;
	g_hash_table_insert(st->specs, key, r);
	*made = TRUE;
	return r;
}

/*
 * -R and -w are parsed here, once per distinct submission (and per bmod)
 * on the live path, and for the jobs left at the end of a replay
 * (state_replay_end); the scheduler only reads the result.
 * Both were checked at submission, so a failure means a journal from an
 * older version: the job then runs without the clause, as it did there.
 */
static void
spec_ref_parse(JobSpecRef *r, GHashTable *parsed)
{
	if (r->resreq == NULL && r->spec->resreq != NULL && *r->spec->resreq) {
		BsResReq *rr = parsed != NULL ?
		    g_hash_table_lookup(parsed, r->spec->resreq) : NULL;

		if (rr != NULL) {
			r->resreq = bs_resreq_ref(rr);
		} else {
			r->resreq = bs_resreq_parse(r->spec->resreq, NULL);
			if (parsed != NULL && r->resreq != NULL)
				g_hash_table_insert(parsed, r->spec->resreq,
				    r->resreq);
		}
	}
	if (r->depend == NULL && r->spec->dependency != NULL &&
	    *r->spec->dependency)
		r->depend = bs_depend_parse(r->spec->dependency, NULL);
}

static JobSpecRef *
spec_ref_parsed(State *st, const Basalt__JobSpec *spec, SharedEnv *env)
{
	gboolean made;
	JobSpecRef *r = spec_ref_new(st, spec, env, &made);

	if (made && !st->replaying)
		spec_ref_parse(r, NULL);
	return r;
}

/* A checkpoint's environment, for the jobs after it (EvJobNew.env_ref). */
static gboolean
apply_environment(State *st, const Basalt__EvEnvironment *e, GError **err)
{
	guint64 *id;

	if (e->id == 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "environment 0");
		return FALSE;
	}
	if (st->ckpt_envs == NULL)
		st->ckpt_envs = g_hash_table_new_full(g_int64_hash, g_int64_equal,
		    g_free, (GDestroyNotify)shared_env_unref);
	id = g_memdup2(&e->id, sizeof e->id);
	g_hash_table_insert(st->ckpt_envs, id,
	    state_env_intern(st, e->vars, e->n_vars));
	return TRUE;
}

static SharedEnv *
ckpt_env(State *st, guint64 id)
{
	return st->ckpt_envs != NULL ? g_hash_table_lookup(st->ckpt_envs, &id) :
	    NULL;
}

/* A checkpoint's spec, for the jobs after it (EvJobNew.spec_ref): made,
 * shared and parsed as a submission's is. */
static gboolean
apply_spec_def(State *st, const Basalt__EvSpec *e, GError **err)
{
	SharedEnv *env = NULL;

	if (e->id == 0 || e->spec == NULL || (e->env_ref != 0 &&
	    (env = ckpt_env(st, e->env_ref)) == NULL)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "spec %" G_GUINT64_FORMAT
		    ": no spec, or environment %" G_GUINT64_FORMAT " is not in the "
		    "checkpoint", e->id, e->env_ref);
		return FALSE;
	}
	if (st->ckpt_specs == NULL)
		st->ckpt_specs = g_hash_table_new_full(g_int64_hash, g_int64_equal,
		    g_free, (GDestroyNotify)job_spec_ref_drop);
	g_hash_table_insert(st->ckpt_specs, g_memdup2(&e->id, sizeof e->id),
	    spec_ref_parsed(st, e->spec, env));
	return TRUE;
}

void
state_ckpt_refs_drop(State *st)
{
	g_clear_pointer(&st->ckpt_specs, g_hash_table_destroy);
	g_clear_pointer(&st->ckpt_envs, g_hash_table_destroy);
}

void
state_replay_begin(State *st)
{
	st->replaying = TRUE;
}

/* The specs of every job left, finished ones too (brequeue can bring them
 * back): those are few, the many that were cleaned during the replay were
 * the saving.  Walked in the spec table, not job by job: an array's
 * elements and equal submissions share one spec. */
void
state_replay_end(State *st)
{
	GHashTableIter it;
	gpointer v;

	/*
	 * Distinct specs (jobs differing only in command or name) mostly
	 * share a few -R texts: each text is parsed once here and its
	 * result shared.  The table borrows both text and parse from the
	 * specs that own them, which outlive it.
	 */
	g_autoptr(GHashTable) parsed = g_hash_table_new(g_str_hash,
	    g_str_equal);

	st->replaying = FALSE;
	state_ckpt_refs_drop(st);
	/* Every spec is in the table, once however many jobs share it. */
	g_hash_table_iter_init(&it, st->specs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		spec_ref_parse(v, parsed);
}

gboolean
state_queues_in_order(const State *st)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, st->queues);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const QueueRt *q = v;

		for (const GList *l = q->pending.head; l != NULL && l->next != NULL;
		    l = l->next)
			if (((const Job *)l->data)->submit_time >
			    ((const Job *)l->next->data)->submit_time)
				return FALSE;
	}
	return TRUE;
}

void
state_replay_skipped(State *st, guint64 seq, guint64 job_id,
    gboolean is_new, const char *queue)
{
	if (is_new) {
		(void)state_queue_ensure(st, queue != NULL ? queue : "");
		st->last_job_id = MAX(st->last_job_id, job_id);
	}
	st->last_seq = MAX(st->last_seq, seq);
}

static Job *
find_job(State *st, guint64 id, guint32 index, GError **err)
{
	Job *j = state_job(st, id, index);

	if (j == NULL)
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "event for unknown job %" G_GUINT64_FORMAT "[%u]", id, index);
	return j;
}

static gboolean
bad_move(const Job *j, const char *what, GError **err)
{
	g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
	    "job %" G_GUINT64_FORMAT "[%u]: cannot %s from state %s", j->id,
	    j->index, what, job_state_name(j->state));
	return FALSE;
}

static void
pending_unlink(State *st, Job *j)
{
	QueueRt *q;

	if (j->qlink == NULL)
		return;
	q = state_queue(st, j->queue);
	g_queue_delete_link(&q->pending, j->qlink);
	j->qlink = NULL;
	q->moved = NULL;
}

/* Pending order: by (re)submission time, so a switched job keeps its place. */
static void
pending_insert(State *st, Job *j, gboolean at_head)
{
	QueueRt *q = state_queue_ensure(st, j->queue);
	GList *l;

	q->moved = NULL;
	if (at_head) {
		g_queue_push_head(&q->pending, j);
		j->qlink = q->pending.head;
		return;
	}
	for (l = q->pending.tail; l != NULL; l = l->prev) {
		const Job *o = l->data;

		if (o->submit_time <= j->submit_time)
			break;
	}
	if (l == NULL) {
		g_queue_push_head(&q->pending, j);
		j->qlink = q->pending.head;
	} else {
		g_queue_insert_after(&q->pending, l, j);
		j->qlink = l->next;
	}
}

/* One more pre-exec failure of the job, on host. */
static void
note_preexec_host(State *st, Job *j, const char *host)
{
	if (j->preexec_hosts == NULL)
		j->preexec_hosts = g_ptr_array_new();
	g_ptr_array_add(j->preexec_hosts, (gpointer)state_intern(st, host));
}

static void
clear_run(State *st, Job *j)
{
	state_host_index_remove(st, j);
	g_clear_pointer(&j->exec_hosts, g_strfreev);
	j->pgid = 0;
	j->exit_status = 0;
	j->term_signal = 0;
	j->start_time = 0;
	j->end_time = 0;
	g_clear_pointer(&j->suspend_reason, g_free);
	g_clear_pointer(&j->exit_reason, g_free);
	g_clear_pointer(&j->term_reason, g_free);
	j->window_kill_sent = FALSE;
	j->deadline_kill_sent = FALSE;
	j->reclaim_deadline = 0;
	if (j->usage != NULL)
		basalt__resource_usage__init(&j->usage->usage);
	if (j->effective != NULL)
		basalt__job_effective__free_unpacked(j->effective, NULL);
	j->effective = NULL;
}

static void
add_job(State *st, const Basalt__EvJobNew *e, JobSpecRef *spec, guint32 index,
    gint64 now)
{
	Job *j = g_new0(Job, 1);
	const char *base = e->job_name != NULL && *e->job_name ? e->job_name : NULL;
	char *name = NULL;

	j->id = e->job_id;
	j->index = index;
	j->key = job_key(e->job_id, index);
	j->user = state_intern(st, e->user);
	j->uid = e->uid;
	j->gid = e->gid;
	j->queue = state_intern(st, e->queue);
	j->from_host = state_intern(st, e->from_host);
	if (index > 0)
		name = g_strdup_printf("%s[%u]", base != NULL ? base : "", index);
	j->name = state_intern(st, name != NULL ? name :
	    base != NULL ? base : spec->spec->command);
	g_free(name);
	g_atomic_int_inc(&spec->ref);
	j->spec = spec;
	j->array_limit = e->array_limit;
	j->preempt_count = e->preempt_count;
	for (size_t i = 0; i < e->n_preexec_hosts; i++)
		note_preexec_host(st, j, e->preexec_hosts[i]);
	j->instance = e->last_instance;
	j->submit_time = now;
	j->state = spec->spec->hold ? JS_PSUSP : JS_PEND;
	g_hash_table_insert(st->jobs, &j->key, j);
	state_jobgroup_count(st, spec->spec->job_group, 1);
	state_dep_index_add(st, j);
	state_token_add(st, j, e->uid, e->submit_token);
	pending_insert(st, j, FALSE);
}

static gboolean
apply_new(State *st, const Basalt__EvJobNew *e, gint64 now, GError **err)
{
	JobSpecRef *spec, *shared = NULL;
	SharedEnv *env = NULL;
	const Basalt__JobSpec *jspec = e->spec;

	if (state_job(st, e->job_id, 0) != NULL ||
	    (e->n_array_indexes > 0 &&
	    state_job(st, e->job_id, e->array_indexes[0]) != NULL)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "job %" G_GUINT64_FORMAT " already exists", e->job_id);
		return FALSE;
	}
	if (e->spec_ref != 0) {
		shared = st->ckpt_specs != NULL ?
		    g_hash_table_lookup(st->ckpt_specs, &e->spec_ref) : NULL;
		if (shared == NULL) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "job %" G_GUINT64_FORMAT ": spec %" G_GUINT64_FORMAT
			    " is not in the checkpoint", e->job_id, e->spec_ref);
			return FALSE;
		}
		jspec = shared->spec;
	} else if (e->env_ref != 0 && (env = ckpt_env(st, e->env_ref)) == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "job %" G_GUINT64_FORMAT ": environment %" G_GUINT64_FORMAT
		    " is not in the checkpoint", e->job_id, e->env_ref);
		return FALSE;
	}
	/* bsub -g names a group that may not exist yet: it is made here,
	 * so replaying the job's event makes it again. */
	if (jspec != NULL && !state_jobgroup_for_job(st, jspec->job_group,
	    e->user, now)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "job %" G_GUINT64_FORMAT ": bad job group", e->job_id);
		return FALSE;
	}
	if (shared != NULL) {
		spec = shared;
		g_atomic_int_inc(&spec->ref);
	} else {
		spec = spec_ref_parsed(st, e->spec, env);
	}
	if (e->n_array_indexes == 0)
		add_job(st, e, spec, 0, now);
	for (size_t i = 0; i < e->n_array_indexes; i++)
		add_job(st, e, spec, e->array_indexes[i], now);
	job_spec_ref_drop(spec);
	st->last_job_id = MAX(st->last_job_id, e->job_id);
	return TRUE;
}

static gboolean
apply_dispatch(State *st, const Basalt__EvJobDispatch *e, gint64 now,
    GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (j->state != JS_PEND)
		return bad_move(j, "dispatch", err);
	if (e->n_exec_hosts == 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "dispatch of job %" G_GUINT64_FORMAT " names no host", j->id);
		return FALSE;
	}
	pending_unlink(st, j);
	clear_run(st, j);
	j->exec_hosts = g_new0(char *, e->n_exec_hosts + 1);
	for (size_t i = 0; i < e->n_exec_hosts; i++)
		j->exec_hosts[i] = g_strdup(e->exec_hosts[i]);
	state_host_index_add(st, j);
	j->state = JS_RUN;
	j->start_time = now;
	/* A journal from before instances numbers its runs on replay. */
	j->instance = e->instance != 0 ? e->instance : j->instance + 1;
	j->kill_as_done = FALSE;
	if (e->effective != NULL)
		j->effective = job_effective_copy(e->effective);
	g_clear_pointer(&j->pending_reason, g_ref_string_release);
	j->quota_pend = NULL;
	return TRUE;
}

static gboolean
apply_start(State *st, const Basalt__EvJobStart *e, GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (!job_is_started(j))
		return bad_move(j, "start", err);
	j->pgid = e->pgid;
	return TRUE;
}

static gboolean
status_allowed(const Job *j, JobState to)
{
	switch (to) {
	case JS_DONE:
	case JS_EXIT:
		return !job_is_finished(j);
	case JS_USUSP:
	case JS_SSUSP:
	case JS_UNKWN:
		return job_is_started(j);
	case JS_RUN:
		return job_is_started(j);
	case JS_PSUSP:
		return j->state == JS_PEND || j->state == JS_PSUSP;
	case JS_PEND:
		return j->state == JS_PSUSP || j->state == JS_PEND;
	default:
		return FALSE;
	}
}

static gboolean
apply_status(State *st, const Basalt__EvJobStatus *e, gint64 now, GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (!status_allowed(j, e->state))
		return bad_move(j, job_state_name(e->state), err);
	j->preexec_held = FALSE;
	if (e->usage != NULL)
		job_set_usage(j, e->usage);
	switch (e->state) {
	case JS_DONE:
	case JS_EXIT:
		pending_unlink(st, j);
		state_jobgroup_count(st, job_spec(j)->job_group, -1);
		j->exit_status = e->exit_status;
		j->term_signal = e->term_signal;
		j->end_time = now;
		g_free(j->exit_reason);
		j->exit_reason = e->reason != NULL && *e->reason != '\0' ?
		    g_strdup(e->reason) : NULL;
		g_free(j->term_reason);
		j->term_reason = e->term_reason != NULL && *e->term_reason != '\0' ?
		    g_strdup(e->term_reason) : NULL;
		g_queue_push_tail(&st->finished, j);
		j->flink = st->finished.tail;
		break;
	case JS_USUSP:
	case JS_SSUSP:
		g_free(j->suspend_reason);
		j->suspend_reason = g_strdup(e->reason);
		if (e->state == JS_SSUSP && e->preempted_by_job != 0) {
			if (!e->from_checkpoint)
				j->preempt_count++;
			j->preempted_by = job_key(e->preempted_by_job,
			    e->preempted_by_index);
		}
		break;
	case JS_RUN:
		g_clear_pointer(&j->suspend_reason, g_free);
		j->preempted_by = 0;
		break;
	default:
		break;
	}
	j->state = e->state;
	return TRUE;
}

static gboolean
apply_requeue(State *st, const Basalt__EvJobRequeue *e, gint64 now,
    GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (job_is_pending(j))
		return bad_move(j, "requeue", err);
	if (j->flink != NULL) {
		g_queue_delete_link(&st->finished, j->flink);
		j->flink = NULL;
	}
	if (job_is_finished(j))
		state_jobgroup_count(st, job_spec(j)->job_group, 1);
	clear_run(st, j);
	j->preexec_held = FALSE;
	j->state = e->hold ? JS_PSUSP : JS_PEND;
	/* LSF orders a requeued job by its requeue time. */
	if (!e->to_head)
		j->submit_time = now;
	pending_insert(st, j, e->to_head);
	return TRUE;
}

/* A run's pre-exec failed (mbd-prepost.c decided what follows). */
static gboolean
apply_preexec(State *st, const Basalt__EvJobPreexec *e, gint64 now,
    GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (!job_is_started(j))
		return bad_move(j, "pre-exec failure", err);
	note_preexec_host(st, j, e->host != NULL ? e->host : "");
	j->preexec_level = e->level;
	if (e->give_up && !e->hold) {
		Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;

		s.job_id = e->job_id;
		s.array_index = e->array_index;
		s.state = JS_EXIT;
		s.exit_status = e->exit_status;
		s.reason = e->reason;
		return apply_status(st, &s, now, err);
	} else {
		Basalt__EvJobRequeue r = BASALT__EV_JOB_REQUEUE__INIT;

		r.job_id = e->job_id;
		r.array_index = e->array_index;
		r.to_head = TRUE;
		r.hold = e->give_up && e->hold;
		r.reason = e->reason;
		if (!apply_requeue(st, &r, now, err))
			return FALSE;
		j->preexec_held = r.hold;
		job_set_pending_reason(j, e->reason);
		return TRUE;
	}
}

static gboolean
apply_switch(State *st, const Basalt__EvJobSwitch *e, GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);
	gboolean was_pending;

	if (j == NULL)
		return FALSE;
	if (job_is_finished(j))
		return bad_move(j, "switch", err);
	was_pending = j->qlink != NULL;
	pending_unlink(st, j);
	j->queue = state_intern(st, e->queue);
	if (was_pending)
		pending_insert(st, j, FALSE);
	return TRUE;
}

static gboolean
apply_modify(State *st, const Basalt__EvJobModify *e, gint64 now,
    GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);
	JobSpecRef *old;

	if (j == NULL)
		return FALSE;
	/* A started job is modified only with its new stamp (bmod of a
	 * running job, LSB_MOD_ALL_JOBS): its limits change, not its run. */
	if (job_is_finished(j) || (!job_is_pending(j) && e->effective == NULL))
		return bad_move(j, "modify", err);
	if (e->spec != NULL && !state_jobgroup_for_job(st, e->spec->job_group,
	    j->user, now)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "job %" G_GUINT64_FORMAT ": bad job group", j->id);
		return FALSE;
	}
	if (!job_is_pending(j)) {
		Basalt__JobEffective *eff = job_effective_copy(e->effective);

		if (j->effective != NULL)
			basalt__job_effective__free_unpacked(j->effective, NULL);
		j->effective = eff;
	}
	/* Copy first: the event may borrow strings from the old spec. */
	old = j->spec;
	j->spec = spec_ref_parsed(st, e->spec, NULL);
	/* bmod -g: the job leaves its group for the new one. */
	if (g_strcmp0(old != NULL ? old->spec->job_group : NULL,
	    job_spec(j)->job_group) != 0) {
		state_jobgroup_count(st, old != NULL ? old->spec->job_group :
		    NULL, -1);
		state_jobgroup_count(st, job_spec(j)->job_group, 1);
	}
	job_spec_ref_drop(old);
	/* From the job's own copy: the event's strings may be the old spec's. */
	if (j->index == 0 && job_spec(j)->job_name != NULL &&
	    *job_spec(j)->job_name) {
		/* The index files the job under its name: refile it. */
		state_dep_index_remove(st, j);
		j->name = state_intern(st, job_spec(j)->job_name);
		state_dep_index_add(st, j);
	}
	return TRUE;
}

static gboolean
apply_move(State *st, const Basalt__EvJobMove *e, GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);
	QueueRt *q;
	guint pos;

	if (j == NULL)
		return FALSE;
	if (j->qlink == NULL)
		return bad_move(j, "move", err);
	q = state_queue(st, j->queue);
	/* The index it gets once taken out of the list. */
	pos = MAX(e->position, 1) - 1;
	pos = MIN(pos, q->pending.length - 1);
	if (e->to_bottom)
		pos = q->pending.length - 1 - pos;
	/* Already there (a checkpoint restates the order mostly as it is):
	 * a walk to the place would make a restart with a million pending
	 * jobs quadratic. */
	if ((pos == 0 && q->pending.head == j->qlink) ||
	    (pos > 0 && q->moved != NULL && q->moved_pos == pos - 1 &&
	    q->moved->next == j->qlink)) {
		q->moved = j->qlink;
		q->moved_pos = pos;
		return TRUE;
	}
	g_queue_delete_link(&q->pending, j->qlink);
	g_queue_push_nth(&q->pending, j, (gint)pos);
	j->qlink = g_queue_peek_nth_link(&q->pending, pos);
	q->moved = j->qlink;
	q->moved_pos = pos;
	return TRUE;
}

static gboolean
apply_clean(State *st, const Basalt__EvJobClean *e, GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (!job_is_finished(j))
		return bad_move(j, "clean", err);
	if (j->flink != NULL)
		g_queue_delete_link(&st->finished, j->flink);
	state_host_index_remove(st, j);
	state_dep_index_remove(st, j);
	state_token_drop(st, j);
	g_hash_table_remove(st->jobs, &j->key);
	return TRUE;
}

static gboolean
apply_queue_ctrl(State *st, const Basalt__EvQueueCtrl *e, GError **err)
{
	QueueRt *q = state_queue_ensure(st, e->queue);

	switch (e->action) {
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_OPEN:
		q->open = TRUE;
		return TRUE;
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_CLOSE:
		q->open = FALSE;
		return TRUE;
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_ACTIVATE:
		q->active = TRUE;
		return TRUE;
	case BASALT__QUEUE_CTRL__QUEUE_CTRL_INACTIVATE:
		q->active = FALSE;
		return TRUE;
	default:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "unknown queue control %d", (int)e->action);
		return FALSE;
	}
}

static gboolean
apply_host_ctrl(State *st, const Basalt__EvHostCtrl *e)
{
	HostRt *h = state_host_ensure(st, e->host);

	h->closed_adm = e->close;
	if (!e->close)
		h->reclaim = FALSE;
	g_free(h->close_comment);
	h->close_comment = g_strdup(e->comment);
	return TRUE;
}

/* bpost: the service checked the bounds; a journal written by a later
 * version with larger ones is still bounded here, not trusted. */
static gboolean
apply_message(State *st, const Basalt__EvJobMessage *e, gint64 now,
    GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);
	g_autofree char *text = NULL;

	if (j == NULL)
		return FALSE;
	if (e->index >= BS_JOB_MSG_MAX)
		return TRUE;
	text = g_strndup(e->text != NULL ? e->text : "", BS_JOB_MSG_TEXT_MAX);
	job_msg_put(j, e->index, text, e->user, now);
	return TRUE;
}

/* Resource reclaim of a run (mbd-orders.c journals it).  A reclaim of an
 * older run (the job was requeued meanwhile) changes nothing. */
static gboolean
apply_reclaim(State *st, const Basalt__EvJobReclaim *e, GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	if (!job_is_started(j) || (e->instance != 0 && e->instance != j->instance))
		return TRUE;
	j->reclaim_deadline = e->deadline != 0 ? e->deadline : -1;
	j->reclaim_for = state_intern(st, e->for_consumer != NULL ?
	    e->for_consumer : "");
	j->reclaim_kind = state_intern(st, e->kind != NULL ? e->kind : "");
	j->reclaim_count++;
	return TRUE;
}

static gboolean
apply_host_reclaim(State *st, const Basalt__EvHostReclaim *e)
{
	HostRt *h = state_host_ensure(st, e->host);

	h->reclaim = e->reclaim;
	if (e->reclaim)
		h->closed_adm = TRUE;
	return TRUE;
}

/* Quota-driven pending (mbatchd/mbd-consumers.c journals the changes). */
static gboolean
apply_consumer_pend(State *st, const Basalt__EvJobConsumerPend *e,
    GError **err)
{
	Job *j = find_job(st, e->job_id, e->array_index, err);

	if (j == NULL)
		return FALSE;
	j->quota_pend = e->pending && job_is_pending(j) ?
	    state_intern(st, e->resource_group != NULL ? e->resource_group : "") :
	    NULL;
	return TRUE;
}

gboolean
state_apply(State *st, const Basalt__Event *ev, GError **err)
{
	gboolean ok = FALSE;
	gint64 t = ev->time;

	switch (ev->body_case) {
	case BASALT__EVENT__BODY_JOB_NEW:
		ok = apply_new(st, ev->job_new, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_DISPATCH:
		ok = apply_dispatch(st, ev->job_dispatch, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_START:
		ok = apply_start(st, ev->job_start, err);
		break;
	case BASALT__EVENT__BODY_JOB_STATUS:
		ok = apply_status(st, ev->job_status, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_REQUEUE:
		ok = apply_requeue(st, ev->job_requeue, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_MESSAGE:
		ok = apply_message(st, ev->job_message, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_CONSUMER_PEND:
		ok = apply_consumer_pend(st, ev->job_consumer_pend, err);
		break;
	case BASALT__EVENT__BODY_JOB_RECLAIM:
		ok = apply_reclaim(st, ev->job_reclaim, err);
		break;
	case BASALT__EVENT__BODY_HOST_RECLAIM:
		ok = apply_host_reclaim(st, ev->host_reclaim);
		break;
	case BASALT__EVENT__BODY_JOB_PREEXEC:
		ok = apply_preexec(st, ev->job_preexec, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_SWITCH:
		ok = apply_switch(st, ev->job_switch, err);
		break;
	case BASALT__EVENT__BODY_JOB_MODIFY:
		ok = apply_modify(st, ev->job_modify, t, err);
		break;
	case BASALT__EVENT__BODY_JOB_MOVE:
		ok = apply_move(st, ev->job_move, err);
		break;
	case BASALT__EVENT__BODY_JOB_CLEAN:
		ok = apply_clean(st, ev->job_clean, err);
		break;
	case BASALT__EVENT__BODY_QUEUE_CTRL:
		ok = apply_queue_ctrl(st, ev->queue_ctrl, err);
		break;
	case BASALT__EVENT__BODY_HOST_CTRL:
		ok = apply_host_ctrl(st, ev->host_ctrl);
		break;
	case BASALT__EVENT__BODY_JOB_SIGNAL: {
		/* History, and bkill -d's mark on the run it kills. */
		Job *sj = find_job(st, ev->job_signal->job_id,
		    ev->job_signal->array_index, err);

		if (sj != NULL && ev->job_signal->record_done)
			sj->kill_as_done = TRUE;
		ok = sj != NULL;
		break;
	}
	case BASALT__EVENT__BODY_RECONFIG:
	case BASALT__EVENT__BODY_CLUSTER_LINK:
	case BASALT__EVENT__BODY_MBD_START:
		/* History only: badmin mbdhist reads them. */
		ok = TRUE;
		break;
	case BASALT__EVENT__BODY_JOB_GROUP:
		ok = state_apply_jobgroup(st, ev->job_group, t, err);
		break;
	case BASALT__EVENT__BODY_LEASE_NEW:
	case BASALT__EVENT__BODY_LEASE_SPLIT:
	case BASALT__EVENT__BODY_LEASE_STATUS:
		ok = state_apply_lease(st, ev, err);
		break;
	case BASALT__EVENT__BODY_ENVIRONMENT:
		ok = apply_environment(st, ev->environment, err);
		break;
	case BASALT__EVENT__BODY_SPEC_DEF:
		ok = apply_spec_def(st, ev->spec_def, err);
		break;
	case BASALT__EVENT__BODY_COUNTERS:
		st->last_job_id = MAX(st->last_job_id, ev->counters->last_job_id);
		ok = TRUE;
		break;
	default:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "event %" G_GUINT64_FORMAT " has no known body", ev->seq);
		return FALSE;
	}
	if (ok && ev->seq > st->last_seq)
		st->last_seq = ev->seq;
	return ok;
}
