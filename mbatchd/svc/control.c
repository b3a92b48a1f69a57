/*
 * bkill, bstop, bresume, brequeue, bswitch, btop/bbot, bmod and bpeek.
 *
 * Each acts job by job on a selection and reports per job, as LSF does:
 * "Job <12> is being terminated", or why not.  A running job is acted on
 * by its execution host through an order (mbatchd/mbd-orders.h): the event is
 * committed first and the order sent after; the state follows from the
 * host's report (a kill) or from the committed event (stop, resume).
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "mbatchd/mbd-orders.h"
#include "mbatchd/svc/svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code
#define A(x) BASALT__JOB_ACTION__JOB_ACTION_##x

/* An order refused before anything was committed: why, for the user. */
static Basalt__Error *
order_error(GError *err, const char *unreachable)
{
	Basalt__Error *e;

	if (err != NULL && strcmp(err->message, ORDERS_ERROR_UNREACHABLE) == 0)
		e = svc_error(E(JOB_STATE), "%s", unreachable);
	else
		e = svc_error(E(JOB_STATE), "%s", err != NULL ? err->message :
		    "the order could not be given");
	g_clear_error(&err);
	return e;
}

/* record_done: bkill -d, a started job's end is recorded DONE (LSF:
 * only RUN, USUSP and SSUSP jobs; for the others -d is ignored). */
static Basalt__Error *
kill_job(Manager *m, Job *j, const Caller *c, gboolean record_done)
{
	GError *err = NULL;
	gboolean ok;

	if (job_is_finished(j))
		return svc_error(E(JOB_STATE), "Job has already finished");
	if (job_is_pending(j)) {
		commit_job_status(m, j, JS_EXIT, NULL, "The job was killed while pending");
		return NULL;
	}
	if (record_done)
		ok = orders_terminate_done(m, j, c->user, &err);
	else
		ok = orders_terminate(m, j, c->user, c->user, FALSE, &err);
	if (!ok)
		return order_error(err, ORDERS_ERROR_UNREACHABLE
		    "; use bkill -r to remove the job");
	return NULL;
}

static Basalt__Error *stop_job(Manager *m, Job *j, const Caller *c);
static Basalt__Error *resume_job(Manager *m, Job *j);

static Basalt__Error *
signal_job(Manager *m, Job *j, int sig, const Caller *c)
{
	GError *err = NULL;

	if (job_is_finished(j))
		return svc_error(E(JOB_STATE), "Job has already finished");
	if (job_is_pending(j)) {
		if (sig == SIGKILL || sig == SIGTERM || sig == SIGINT)
			return kill_job(m, j, c, FALSE);
		if (sig == SIGSTOP || sig == SIGTSTP)
			return commit_job_status(m, j, JS_PSUSP, NULL, NULL) ? NULL :
			    svc_error(E(JOB_STATE), "Job is already suspended");
		if (sig == SIGCONT && j->state == JS_PSUSP) {
			commit_job_status(m, j, JS_PEND, NULL, NULL);
			return NULL;
		}
		return svc_error(E(JOB_STATE), "Job has not started yet");
	}
	/* A stop or continue changes the job's state, which is mbatchd's to
	 * decide: as bstop and bresume (the host's word alone would not
	 * move a job mbatchd holds suspended). */
	if ((sig == SIGSTOP || sig == SIGTSTP) && j->state == JS_RUN)
		return stop_job(m, j, c);
	if (sig == SIGCONT && (j->state == JS_USUSP || j->state == JS_SSUSP))
		return resume_job(m, j);
	if (!orders_signal(m, j, sig, c->user, &err))
		return order_error(err, ORDERS_ERROR_UNREACHABLE);
	return NULL;
}

static Basalt__Error *
stop_job(Manager *m, Job *j, const Caller *c)
{
	char reason[320];
	GError *err = NULL;

	if (job_is_finished(j))
		return svc_error(E(JOB_STATE), "Job has already finished");
	if (j->state == JS_PSUSP || j->state == JS_USUSP)
		return svc_error(E(JOB_STATE), "Job is already suspended");
	if (j->state == JS_PEND) {
		commit_job_status(m, j, JS_PSUSP, NULL, NULL);
		return NULL;
	}
	g_snprintf(reason, sizeof reason, c->admin && strcmp(c->user, j->user) != 0 ?
	    "The job was suspended by LSF admin or root;" :
	    "The job was suspended by user;");
	if (!orders_suspend(m, j, JS_USUSP, reason, NULL, &err))
		return order_error(err, ORDERS_ERROR_UNREACHABLE);
	return NULL;
}

static Basalt__Error *
resume_job(Manager *m, Job *j)
{
	GError *err = NULL;

	if (j->state == JS_PSUSP) {
		commit_job_status(m, j, JS_PEND, NULL, NULL);
		manager_schedule_soon(m);
		return NULL;
	}
	if (j->state != JS_USUSP && j->state != JS_SSUSP)
		return svc_error(E(JOB_STATE), "Job is not suspended");
	/* A USUSP job may have lost its slot (with preemption configured
	 * suspended jobs do not hold MXJ): it waits as SSUSP for the
	 * resume stage, as bresume(1) says.  One the scheduler already
	 * resumes when a slot is free (preempted, or waiting so) is left
	 * to it: resuming it now could overfill its host. */
	if (j->state == JS_USUSP) {
		if (!orders_resume_wait(m, j, &err))
			return order_error(err, ORDERS_ERROR_UNREACHABLE);
		return NULL;
	}
	if (j->preempted_by != 0 ||
	    g_strcmp0(j->suspend_reason, RESUME_WAIT_REASON) == 0)
		return NULL;
	if (!orders_resume(m, j, &err))
		return order_error(err, ORDERS_ERROR_UNREACHABLE);
	return NULL;
}

static Basalt__Error *
requeue_job(Manager *m, Job *j, gboolean hold)
{
	GError *err = NULL;

	if (job_is_pending(j))
		return svc_error(E(JOB_STATE), "Job has not started yet");
	/* The old run is killed by instance; its report is ignored. */
	if (!orders_requeue(m, j, hold, "requeued by brequeue", &err))
		return order_error(err, ORDERS_ERROR_UNREACHABLE);
	manager_schedule_soon(m);
	return NULL;
}

static Basalt__Error *
remove_job(Manager *m, Job *j)
{
	GError *err = NULL;

	if (job_is_finished(j))
		return svc_error(E(JOB_STATE), "Job has already finished");
	if (!orders_remove(m, j, "The job was removed by bkill -r", &err))
		return order_error(err, ORDERS_ERROR_UNREACHABLE);
	manager_schedule_soon(m);
	return NULL;
}

static Basalt__Error *
act(Manager *m, const Caller *c, const Basalt__JobControlRequest *req, Job *j)
{
	if (!svc_may_control(c, j))
		return svc_error(E(PERMISSION), "User permission denied");
	switch (req->action) {
	case A(KILL):
		return kill_job(m, j, c, req->record_done);
	case A(SIGNAL):
		return signal_job(m, j, req->signal, c);
	case A(STOP):
		return stop_job(m, j, c);
	case A(RESUME):
		return resume_job(m, j);
	case A(REQUEUE):
		return requeue_job(m, j, req->requeue_hold);
	case A(REMOVE):
		return remove_job(m, j);
	default:
		return svc_error(E(BAD_REQUEST), "Unknown job action");
	}
}

static void
add_result(GPtrArray *results, const Job *j, guint64 id, guint32 index,
    Basalt__Error *err)
{
	Basalt__JobResult *r = g_new(Basalt__JobResult, 1);

	basalt__job_result__init(r);
	r->job_id = j != NULL ? j->id : id;
	r->array_index = j != NULL ? j->index : index;
	r->error = err;
	g_ptr_array_add(results, r);
}

static void
free_result(gpointer p)
{
	Basalt__JobResult *r = p;

	svc_error_free(r->error);
	g_free(r);
}

/* Ids named but matching nothing get their own "not found" result. */
static void
add_missing(Manager *m, const Basalt__JobQuery *q, GPtrArray *jobs,
    GPtrArray *results)
{
	/* Keys id << 32 | index, and id << 32 | 0 for "any element": one
	 * lookup per id named, not a pass over the jobs. */
	g_autoptr(GHashTable) found = g_hash_table_new_full(g_int64_hash,
	    g_int64_equal, g_free, NULL);

	for (guint k = 0; k < jobs->len; k++) {
		const Job *j = g_ptr_array_index(jobs, k);
		gint64 *whole = g_new(gint64, 1), *elem = g_new(gint64, 1);

		*whole = (gint64)(j->id << 32);
		*elem = (gint64)(j->id << 32 | j->index);
		g_hash_table_add(found, whole);
		g_hash_table_add(found, elem);
	}
	for (size_t i = 0; i < q->n_job_ids; i++) {
		guint32 idx = i < q->n_array_indexes ? q->array_indexes[i] : 0;
		gint64 key = (gint64)(q->job_ids[i] << 32 | idx);
		gboolean seen = g_hash_table_contains(found, &key);

		if (!seen)
			add_result(results, NULL, q->job_ids[i], idx,
			    svc_error(E(NO_JOB), "No matching job found"));
	}
	(void)m;
}

/*
 * The jobs a control request acts on.  Without ids and without "0" LSF
 * acts on the caller's most recent matching job.
 */
static GPtrArray *
targets(Manager *m, const Caller *c, const Basalt__JobQuery *sel,
    gboolean all_matching)
{
	Basalt__JobQuery q = sel != NULL ? *sel : (Basalt__JobQuery)BASALT__JOB_QUERY__INIT;
	GPtrArray *jobs;

	/* Control commands see every state a job can be acted on in. */
	if (!q.pending && !q.running && !q.suspended && !q.finished)
		q.all_states = q.n_job_ids > 0;
	jobs = svc_select_jobs(m, &q, c->user);
	if (q.job_name != NULL && *q.job_name != '\0') {
		/* -J meets a name the caller may not read as "-", as bjobs
		 * shows it: a refusal must not tell what it matched. */
		Sight *s = svc_sight_new(m, c);
		guint k = 0;

		for (guint i = 0; i < jobs->len; i++)
			if (svc_sight_name_matches(s, &q, jobs->pdata[i]))
				jobs->pdata[k++] = jobs->pdata[i];
		g_ptr_array_set_size(jobs, k);
		svc_sight_free(s);
	}
	if (q.n_job_ids == 0 && !all_matching && jobs->len > 1) {
		Job *last = NULL;

		for (guint i = 0; i < jobs->len; i++) {
			Job *j = g_ptr_array_index(jobs, i);

			if (last == NULL || j->submit_time > last->submit_time ||
			    (j->submit_time == last->submit_time && j->id > last->id))
				last = j;
		}
		g_ptr_array_set_size(jobs, 0);
		g_ptr_array_add(jobs, last);
	}
	return jobs;
}

static void
reply_results(Basalt__JobControlReply_Closure closure, void *call,
    GPtrArray *results, Basalt__Error *err)
{
	Basalt__JobControlReply reply = BASALT__JOB_CONTROL_REPLY__INIT;

	reply.error = err;
	reply.results = (Basalt__JobResult **)results->pdata;
	reply.n_results = results->len;
	closure(&reply, call);
	svc_error_free(err);
	g_ptr_array_free(results, TRUE);
}

void
svc_control(Basalt__BatchService_Service *svc, const Basalt__JobControlRequest *req,
    Basalt__JobControlReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	GPtrArray *results = g_ptr_array_new_with_free_func(free_result);
	GPtrArray *jobs;
	Caller c;

	svc_caller(m, call, &c);
	if (!c.known || m->storage_failed) {
		reply_results(closure, call, results, m->storage_failed ?
		    svc_storage_error(m) : svc_error(E(PERMISSION),
		    "User permission denied: unauthenticated client"));
		return;
	}
	jobs = targets(m, &c, req->select, req->all_matching);
	for (guint i = 0; i < jobs->len; i++) {
		Job *j = g_ptr_array_index(jobs, i);

		add_result(results, j, 0, 0, act(m, &c, req, j));
	}
	if (req->select != NULL)
		add_missing(m, req->select, jobs, results);
	g_ptr_array_free(jobs, TRUE);
	reply_results(closure, call, results, NULL);
}

void
svc_switch_queue(Basalt__BatchService_Service *svc, const Basalt__SwitchRequest *req,
    Basalt__JobControlReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	GPtrArray *results = g_ptr_array_new_with_free_func(free_result);
	const BsQueueConf *q = bs_config_queue(m->cfg, req->queue);
	GPtrArray *jobs;
	Caller c;

	svc_caller(m, call, &c);
	if (m->storage_failed) {
		reply_results(closure, call, results, svc_storage_error(m));
		return;
	}
	if (!c.known || q == NULL) {
		reply_results(closure, call, results, !c.known ?
		    svc_error(E(PERMISSION), "User permission denied") :
		    svc_error(E(NO_QUEUE), "%s: No such queue", req->queue));
		return;
	}
	jobs = targets(m, &c, req->select, req->all_matching);
	for (guint i = 0; i < jobs->len; i++) {
		Job *j = g_ptr_array_index(jobs, i);
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobSwitch sw = BASALT__EV_JOB_SWITCH__INIT;
		Basalt__Error *err = NULL;

		if (!svc_may_control(&c, j))
			err = svc_error(E(PERMISSION), "User permission denied");
		else if (job_is_finished(j))
			err = svc_error(E(JOB_STATE), "Job has already finished");
		else if (!state_queue_ensure(m->st, q->name)->open)
			err = svc_error(E(QUEUE_CLOSED), "%s: Queue has been closed", q->name);
		else if (!c.admin && !svc_queue_accepts_user(m, q, j->user))
			err = svc_error(E(QUEUE_USER), "%s: User cannot use the queue", q->name);
		else
			err = svc_check_spec(m, &c, job_spec(j), q->name);
		if (err == NULL) {
			sw.job_id = j->id;
			sw.array_index = j->index;
			sw.queue = q->name;
			ev.body_case = BASALT__EVENT__BODY_JOB_SWITCH;
			ev.job_switch = &sw;
			manager_commit(m, &ev, NULL);
		}
		add_result(results, j, 0, 0, err);
	}
	if (req->select != NULL)
		add_missing(m, req->select, jobs, results);
	g_ptr_array_free(jobs, TRUE);
	manager_schedule_soon(m);
	reply_results(closure, call, results, NULL);
}

void
svc_move(Basalt__BatchService_Service *svc, const Basalt__MoveRequest *req,
    Basalt__MoveReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__MoveReply reply = BASALT__MOVE_REPLY__INIT;
	Job *j = state_job(m->st, req->job_id, req->array_index);
	Caller c;

	svc_caller(m, call, &c);
	if ((reply.error = svc_storage_error(m)) != NULL)
		;
	else if (j == NULL)
		reply.error = svc_error(E(NO_JOB), "No matching job found");
	else if (!svc_may_control(&c, j))
		reply.error = svc_error(E(PERMISSION), "User permission denied");
	else if (!job_is_pending(j))
		reply.error = svc_error(E(JOB_STATE), "Job is not pending");
	if (reply.error == NULL) {
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobMove mv = BASALT__EV_JOB_MOVE__INIT;
		QueueRt *q = state_queue(m->st, j->queue);

		mv.job_id = j->id;
		mv.array_index = j->index;
		mv.position = MAX(req->position, 1);
		mv.to_bottom = req->to_bottom;
		ev.body_case = BASALT__EVENT__BODY_JOB_MOVE;
		ev.job_move = &mv;
		manager_commit(m, &ev, NULL);
		reply.position = MIN(mv.position, q->pending.length);
		manager_schedule_soon(m);
	}
	closure(&reply, call);
	svc_error_free(reply.error);
}

/* bmod: copy the named fields of the request's spec over the job's. */
static gboolean
apply_fields(Basalt__JobSpec *to, const Basalt__JobSpec *from,
    char **fields, size_t n, gboolean reset, GString *bad)
{
	const ProtobufCMessageDescriptor *d = &basalt__job_spec__descriptor;

	for (size_t i = 0; i < n; i++) {
		const ProtobufCFieldDescriptor *f =
		    protobuf_c_message_descriptor_get_field_by_name(d, fields[i]);
		void *dst, *src;

		if (f == NULL || f->label == PROTOBUF_C_LABEL_REPEATED ||
		    strcmp(fields[i], "queues") == 0) {
			g_string_append_printf(bad, "%s%s", bad->len ? ", " : "", fields[i]);
			continue;
		}
		dst = (char *)to + f->offset;
		src = (char *)from + f->offset;
		if (f->type == PROTOBUF_C_TYPE_STRING) {
			/* Both specs are unpacked copies; strings are owned. */
			*(char **)dst = reset ? (char *)"" : *(char **)src;
		} else {
			gsize sz = f->type == PROTOBUF_C_TYPE_BOOL ? sizeof(protobuf_c_boolean) :
			    f->type == PROTOBUF_C_TYPE_UINT32 ? sizeof(guint32) :
			    f->type == PROTOBUF_C_TYPE_INT32 ? sizeof(gint32) : sizeof(guint64);

			if (reset)
				memset(dst, 0, sz);
			else
				memcpy(dst, src, sz);
		}
	}
	return bad->len == 0;
}

void
svc_modify(Basalt__BatchService_Service *svc, const Basalt__ModifyRequest *req,
    Basalt__JobControlReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	GPtrArray *results = g_ptr_array_new_with_free_func(free_result);
	Job *j = state_job(m->st, req->job_id, req->array_index);
	Basalt__JobSpec empty = BASALT__JOB_SPEC__INIT;
	Basalt__Error *err = NULL;
	Caller c;

	svc_caller(m, call, &c);
	if ((err = svc_storage_error(m)) != NULL)
		;
	else if (j == NULL)
		err = svc_error(E(NO_JOB), "No matching job found");
	else if (!svc_may_control(&c, j))
		err = svc_error(E(PERMISSION), "User permission denied");
	else if (job_is_finished(j))
		err = svc_error(E(JOB_STATE), "Job has already finished");
	if (err == NULL) {
		/* Work on a shallow copy: strings keep pointing into the job's
		 * spec or the request, both alive until the commit copies it. */
		Basalt__JobSpec spec = *job_spec(j);
		const Basalt__JobSpec *from = req->spec != NULL ? req->spec : &empty;
		g_autoptr(GString) bad = g_string_new(NULL);

		if (!apply_fields(&spec, from, req->set_fields, req->n_set_fields, FALSE, bad) ||
		    !apply_fields(&spec, from, req->reset_fields, req->n_reset_fields, TRUE, bad))
			err = svc_error(E(BAD_REQUEST), "Cannot modify: %s", bad->str);
		else if (!job_is_pending(j))
			err = svc_modify_started(m, &c, j, &spec, req);
		else
			err = svc_check_spec(m, &c, &spec, j->queue);
		if (err == NULL && job_is_pending(j)) {
			Basalt__Event ev = BASALT__EVENT__INIT;
			Basalt__EvJobModify md = BASALT__EV_JOB_MODIFY__INIT;

			md.job_id = j->id;
			md.array_index = j->index;
			md.spec = &spec;
			ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
			ev.job_modify = &md;
			manager_commit(m, &ev, NULL);
			manager_schedule_soon(m);
		}
	}
	add_result(results, j, req->job_id, req->array_index, err);
	reply_results(closure, call, results, NULL);
}

typedef struct {
	BsRpcCall *call;
	Basalt__PeekReply_Closure closure;
} PeekWait;

static void
peek_done(const Basalt__PeekReply *reply, const char *error, void *data)
{
	PeekWait *w = data;
	Basalt__PeekReply fail = BASALT__PEEK_REPLY__INIT;

	if (reply != NULL) {
		w->closure(reply, w->call);
	} else {
		fail.error = svc_error(E(INTERNAL), "bpeek: %s", error);
		w->closure(&fail, w->call);
		svc_error_free(fail.error);
	}
	bs_rpc_call_unref(w->call);
	g_free(w);
}

void
svc_peek(Basalt__BatchService_Service *svc, const Basalt__PeekRequest *req,
    Basalt__PeekReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__PeekReply reply = BASALT__PEEK_REPLY__INIT;
	Job *j = state_job(m->st, req->job_id, req->array_index);
	PeekWait *w;
	Caller c;

	svc_caller(m, call, &c);
	if (j == NULL)
		reply.error = svc_error(E(NO_JOB), "No matching job found");
	else if (!svc_may_control(&c, j))
		reply.error = svc_error(E(PERMISSION), "User permission denied");
	else if (job_is_pending(j))
		reply.error = svc_error(E(JOB_STATE), "Not yet started.");
	else if (job_is_finished(j))
		reply.error = svc_error(E(JOB_STATE), "Already finished.");
	if (reply.error != NULL) {
		closure(&reply, call);
		svc_error_free(reply.error);
		return;
	}
	w = g_new(PeekWait, 1);
	w->call = bs_rpc_call_defer(call);
	w->closure = closure;
	if (!orders_peek(m, j, req->offset, peek_done, w)) {
		reply.error = svc_error(E(JOB_STATE), ORDERS_ERROR_UNREACHABLE);
		closure(&reply, w->call);
		svc_error_free(reply.error);
		bs_rpc_call_unref(w->call);
		g_free(w);
	}
}
