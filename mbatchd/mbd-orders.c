/*
 * Orders: commit the decision, then send it to the host (see mbd-orders.h for
 * the rule and for what each undeliverable order becomes).  This is the
 * only file in mbatchd that calls ExecService on a host link.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/effective-prepost.h"
#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-prepost.h"
#include "mbatchd/mbd-refused.h"
#include "mbatchd/mc-jobs.h"
#include "rpc/frame.h"
#include "util/error.h"
#include "util/log.h"

#define ORDER_TIMEOUT_MS 30000
#define PEEK_TIMEOUT_MS 10000
/* An envelope around a request adds its kind, id, method, status and the
 * body's tag and length: well under this. */
#define ENVELOPE_SLACK 64
/* Who asked, in the history, when mbatchd decided a kill by itself. */
#define SYSTEM_USER "mbatchd"

#define X(x) BASALT__EXEC_ACTION__EXEC_ACTION_##x

/* What a reply is about: the run the order was for. */
typedef struct {
	Manager *m;
	guint64 id;
	guint32 index;
	guint32 instance;
	Basalt__ExecAction action;
} Order;

static Order *
order_new(Manager *m, const Job *j, Basalt__ExecAction action)
{
	Order *o = g_new(Order, 1);

	o->m = m;
	o->id = j->id;
	o->index = j->index;
	o->instance = j->instance;
	o->action = action;
	return o;
}

/* The job, if it is still the run the order was for. */
static Job *
order_job(const Order *o)
{
	Job *j = state_job(o->m->st, o->id, o->index);

	return j != NULL && job_is_started(j) && j->instance == o->instance ? j : NULL;
}

static HostLink *
live_link(Manager *m, const char *host)
{
	HostLink *l = host != NULL ? manager_link(m, host) : NULL;

	return l != NULL && l->conn != NULL && bs_rpc_conn_is_open(l->conn) ? l : NULL;
}

static HostLink *
job_link(Manager *m, const Job *j)
{
	return j->exec_hosts != NULL ? live_link(m, j->exec_hosts[0]) : NULL;
}

/* Can an order about j's run leave now: its host's link, or for a
 * leased host the link to its provider's mbatchd (mc-jobs.h). */
static gboolean
job_reachable(Manager *m, const Job *j)
{
	if (j->exec_hosts != NULL && mc_jobs_remote_host(j->exec_hosts[0], NULL))
		return mc_jobs_reachable(m, j->exec_hosts[0]);
	return job_link(m, j) != NULL;
}

static void
set_unreachable(GError **err)
{
	g_set_error_literal(err, BS_ERROR, BS_ERROR_FAILED, ORDERS_ERROR_UNREACHABLE);
}

/* ---- start orders -------------------------------------------------------- */

static char *
lsb_hosts(char *const *hosts, gboolean mcpu)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; hosts[i] != NULL; i++) {
		guint n = 1;

		if (mcpu) {
			while (hosts[i + 1] != NULL && strcmp(hosts[i + 1], hosts[i]) == 0) {
				n++;
				i++;
			}
			g_string_append_printf(s, "%s%s %u", s->len ? " " : "", hosts[i], n);
		} else {
			g_string_append_printf(s, "%s%s", s->len ? " " : "", hosts[i]);
		}
	}
	return g_string_free(s, FALSE);
}

void
orders_start_request_build(Manager *m, const Job *j, char *const *hosts,
    guint32 instance, const Basalt__JobEffective *eff, StartOrder *o)
{
	Basalt__StartJobRequest *req = &o->req;
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);

	basalt__start_job_request__init(req);
	o->env = env;
	o->lsb_hosts = lsb_hosts(hosts, FALSE);
	o->lsb_mcpu = lsb_hosts(hosts, TRUE);
	g_ptr_array_add(env, g_strdup_printf("LSB_JOBID=%" G_GUINT64_FORMAT, j->id));
	g_ptr_array_add(env, g_strdup_printf("LSB_JOBINDEX=%u", j->index));
	g_ptr_array_add(env, g_strdup_printf("LSB_JOBNAME=%s", j->name));
	g_ptr_array_add(env, g_strdup_printf("LSB_QUEUE=%s", j->queue));
	g_ptr_array_add(env, g_strdup_printf("LSB_HOSTS=%s", o->lsb_hosts));
	g_ptr_array_add(env, g_strdup_printf("LSB_MCPU_HOSTS=%s", o->lsb_mcpu));
	g_ptr_array_add(env, g_strdup_printf("LSB_SUB_HOST=%s",
	    j->from_host != NULL ? j->from_host : ""));
	g_ptr_array_add(env, g_strdup_printf("LSF_ENVDIR=%s", m->envdir));
	req->job_id = j->id;
	req->array_index = j->index;
	req->instance = instance;
	req->submit_time = j->submit_time;
	req->user = (char *)j->user;
	req->uid = j->uid;
	req->gid = j->gid;
	req->spec = (Basalt__JobSpec *)job_spec(j);
	req->exec_hosts = (char **)hosts;
	req->n_exec_hosts = g_strv_length((char **)hosts);
	req->queue = (char *)j->queue;
	req->job_terminate_interval_s = (guint32)m->cfg->params->job_terminate_interval;
	/* Run limit, nice, the commands and the profile's environment: what
	 * the dispatch event stamps (mbatchd/effective.h). */
	effective_fill_start(eff, req, env);
	effective_fill_prepost(eff, req->spec, req);
	effective_fill_prepost_timeouts(m->cfg, effective_app(m->cfg, req->spec), req);
}

void
orders_start_request_clear(StartOrder *o)
{
	g_ptr_array_free(o->env, TRUE);
	g_free(o->lsb_hosts);
	g_free(o->lsb_mcpu);
}

gsize
orders_start_limit(void)
{
	return BS_FRAME_MAX_DEFAULT - ENVELOPE_SLACK;
}

/* The host, not the job, is the trouble (mbd-refused.c). */
static gboolean
host_cannot_run(const Basalt__Error *e)
{
	return e->code == BASALT__ERROR_CODE__ERROR_CODE_PERMISSION ||
	    e->code == BASALT__ERROR_CODE__ERROR_CODE_INTERNAL;
}

/* Back to the head of its queue, that host kept off the job. */
static void
start_refused(Manager *m, Job *j, const char *why)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue e = BASALT__EV_JOB_REQUEUE__INIT;
	g_autofree char *host = g_strdup(j->exec_hosts[0]);
	g_autoptr(GError) err = NULL;

	e.job_id = j->id;
	e.array_index = j->index;
	e.to_head = TRUE;
	e.reason = (char *)why;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &e;
	if (!manager_commit(m, &ev, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: %s", j->id, j->index,
		    err->message);
		return;
	}
	refused_note(m, j, host);
	manager_schedule_soon(m);
}

static void
start_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	g_autofree Order *o = data;
	const Basalt__StartJobReply *reply = (const Basalt__StartJobReply *)msg;
	Job *j = order_job(o);
	g_autofree char *why = NULL;

	/* Another run by now, or its start already known from a report. */
	if (j == NULL || j->pgid != 0)
		return;
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK && reply->error == NULL) {
		refused_forget_job(o->m, j);
		commit_job_start(o->m, j, reply->pgid);
	} else if (status == BASALT__RPC_STATUS__RPC_STATUS_OK &&
	    host_cannot_run(reply->error)) {
		why = g_strdup_printf("The job could not be started on host <%s>: "
		    "%s;", j->exec_hosts[0], reply->error->message);
		log_warning("job %" G_GUINT64_FORMAT "[%u]: %s; pending again, "
		    "not on that host until it registers again", j->id, j->index, why);
		start_refused(o->m, j, why);
	} else if (status == BASALT__RPC_STATUS__RPC_STATUS_OK) {
		JobOutcome out = { .exit_status = reply->exit_status != 0 ?
		    reply->exit_status : 127 };

		/* The job's own failure (its cwd, its files): it would fail on
		 * any host.  The reason goes to bjobs -l and bhist -l. */
		why = g_strdup_printf("The job could not be started on host <%s>: "
		    "%s;", j->exec_hosts[0], reply->error->message);
		log_warning("job %" G_GUINT64_FORMAT "[%u]: %s", j->id, j->index, why);
		commit_job_status(o->m, j, JS_EXIT, &out, why);
		manager_schedule_soon(o->m);
	} else {
		/* The order may or may not have arrived; the host's next
		 * registration settles it (a run it does not list is lost). */
		log_warning("job %" G_GUINT64_FORMAT "[%u]: start order to %s: %s",
		    j->id, j->index, j->exec_hosts[0],
		    error != NULL ? error->message : "failed");
	}
}

static gboolean
commit_dispatch(Manager *m, Job *j, char *const *hosts, guint32 instance,
    Basalt__JobEffective *eff, GError **err)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;

	e.job_id = j->id;
	e.array_index = j->index;
	e.exec_hosts = (char **)hosts;
	e.n_exec_hosts = g_strv_length((char **)hosts);
	e.instance = instance;
	e.effective = eff;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	return manager_commit(m, &ev, err);
}

/* Only what limits the run crosses from another cluster: its commands
 * (pre/post-exec, job starter), environment and nice stay this side's. */
static void
take_limits(Basalt__JobEffective *eff, const Basalt__JobEffective *from)
{
	eff->runlimit_s = from->runlimit_s;
	eff->cpulimit_s = from->cpulimit_s;
	eff->memlimit_kb = from->memlimit_kb;
	eff->corelimit_kb = from->corelimit_kb;
	eff->datalimit_kb = from->datalimit_kb;
	eff->filelimit_kb = from->filelimit_kb;
	eff->stacklimit_kb = from->stacklimit_kb;
	eff->swaplimit_kb = from->swaplimit_kb;
	eff->processlimit = from->processlimit;
	eff->threadlimit = from->threadlimit;
	eff->warning_signal = from->warning_signal;
	eff->warning_time = from->warning_time;
}

static gboolean dispatch(Manager *m, Job *j, char *const *hosts,
    const Basalt__JobEffective *limits, GError **err);

gboolean
orders_dispatch(Manager *m, Job *j, char *const *hosts, GError **err)
{
	return dispatch(m, j, hosts, NULL, err);
}

gboolean
orders_dispatch_limits(Manager *m, Job *j, char *const *hosts,
    const Basalt__JobEffective *limits, GError **err)
{
	return dispatch(m, j, hosts, limits, err);
}

static gboolean
dispatch(Manager *m, Job *j, char *const *hosts,
    const Basalt__JobEffective *limits, GError **err)
{
	/* A leased host ("host@cluster"): the order goes to the provider's
	 * mbatchd, which owns that host's link (mc-jobs.h). */
	gboolean remote = hosts != NULL && mc_jobs_remote_host(hosts[0], NULL);
	HostLink *l = hosts != NULL && hosts[0] != NULL && !remote ?
	    live_link(m, hosts[0]) : NULL;
	guint32 instance = j->instance + 1;
	g_autoptr(Basalt__JobEffective) eff = NULL;
	StartOrder so;
	Order *o;
	gsize size;
	GError *local = NULL;
	gboolean ok;

	if (remote ? !mc_jobs_reachable(m, hosts[0]) : l == NULL) {
		/* Not dispatched: it stays pending for the next pass. */
		set_unreachable(err);
		return FALSE;
	}
	/* Resolved once, here: journaled with the dispatch and sent in the
	 * start order, the same values. */
	eff = effective_resolve_job(m->cfg, j);
	if (limits != NULL) {
		Basalt__JobEffective mixed = *eff;

		take_limits(&mixed, limits);
		limits = job_effective_copy(&mixed);    /* deep: eff goes */
		effective_free(eff);
		eff = (Basalt__JobEffective *)limits;
	}
	orders_start_request_build(m, j, hosts, instance, eff, &so);
	size = basalt__start_job_request__get_packed_size(&so.req);
	if (size > orders_start_limit()) {
		/* It could never be sent: end it now, never RUN. */
		g_autofree char *why = g_strdup_printf("The job cannot be started: "
		    "its start order (%" G_GSIZE_FORMAT " bytes, with the job's "
		    "environment and script) exceeds the %u-byte frame limit;",
		    size, BS_FRAME_MAX_DEFAULT);
		JobOutcome out = { .exit_status = 127 };

		log_warning("job %" G_GUINT64_FORMAT "[%u]: %s", j->id, j->index, why);
		orders_start_request_clear(&so);
		commit_job_status(m, j, JS_EXIT, &out, why);
		g_set_error_literal(err, BS_ERROR, BS_ERROR_FAILED, why);
		return FALSE;
	}
	if (!commit_dispatch(m, j, hosts, instance, eff, err)) {
		orders_start_request_clear(&so);
		return FALSE;
	}
	/* The request borrows hosts; the job has its own copy now. */
	so.req.exec_hosts = j->exec_hosts;
	if (remote) {
		o = NULL;
		ok = mc_jobs_send_start(m, j, &so.req, &local);
	} else {
		o = order_new(m, j, X(UNSPECIFIED));
		ok = bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 0,
		    &so.req.base, ORDER_TIMEOUT_MS, start_done, o, &local);
	}
	orders_start_request_clear(&so);
	if (!ok) {
		g_autofree char *why = g_strdup_printf("The start order could not be "
		    "sent to %s: %s;", j->exec_hosts[0], local->message);

		g_free(o);     /* a refused call never calls back */
		log_warning("job %" G_GUINT64_FORMAT "[%u]: %s", j->id, j->index, why);
		commit_job_requeue(m, j, FALSE, why);
		g_propagate_error(err, local);
		return FALSE;
	}
	return TRUE;
}

/* ---- signal orders ------------------------------------------------------- */

static void
signal_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	g_autofree Order *o = data;
	const Basalt__SignalJobReply *reply = (const Basalt__SignalJobReply *)msg;
	Job *j;

	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: order %d to %s: %s", o->id,
		    o->index, o->action, bs_rpc_conn_describe(conn),
		    error != NULL ? error->message : "failed");
		return;
	}
	if (reply->error == NULL)
		return;
	log_warning("job %" G_GUINT64_FORMAT "[%u]: order %d to %s: %s", o->id,
	    o->index, o->action, bs_rpc_conn_describe(conn), reply->error->message);
	/* The host has no such run: it cannot be stopped, resumed or killed
	 * any more, and will never report.  Without this, the job would
	 * stay started forever. */
	j = order_job(o);
	if (j != NULL && reply->error->code == BASALT__ERROR_CODE__ERROR_CODE_NO_JOB) {
		orders_lost(o->m, j, "the execution host no longer has the job");
		manager_schedule_soon(o->m);
	}
}

static void
tasks_signal_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	g_autofree char *host = data;

	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		log_info("blaunch tasks on %s: order not delivered: %s", host,
		    error != NULL ? error->message : "failed");
}

/*
 * The job's other hosts run only what blaunch started there: they get the
 * same action, marked tasks_only, best effort (a host that is away has
 * lost the tasks with blaunch's connection anyway).
 */
static void
send_signal_tasks(Manager *m, const Job *j, Basalt__SignalJobRequest *req)
{
	g_autoptr(GHashTable) done = g_hash_table_new(g_str_hash, g_str_equal);

	req->tasks_only = TRUE;
	g_hash_table_add(done, j->exec_hosts[0]);
	for (guint i = 1; j->exec_hosts[i] != NULL; i++) {
		HostLink *l;
		char *host;

		if (!g_hash_table_add(done, j->exec_hosts[i]) ||
		    (l = live_link(m, j->exec_hosts[i])) == NULL)
			continue;
		host = g_strdup(j->exec_hosts[i]);
		if (!bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 1,
		    &req->base, ORDER_TIMEOUT_MS, tasks_signal_done, host, NULL))
			g_free(host);
	}
}

void
orders_end_tasks(Manager *m, const Job *j)
{
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;

	if (j->exec_hosts == NULL || j->exec_hosts[0] == NULL ||
	    j->exec_hosts[1] == NULL)
		return;
	req.job_id = j->id;
	req.array_index = j->index;
	req.instance = j->instance;
	req.action = X(TERMINATE);
	req.reason = "the job has ended";
	send_signal_tasks(m, j, &req);
}

/* Send an action for the job's current run; FALSE if it cannot leave. */
static gboolean
send_signal(Manager *m, const Job *j, Basalt__ExecAction action, int sig,
    const char *reason)
{
	HostLink *l = job_link(m, j);
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	Order *o;

	req.job_id = j->id;
	req.array_index = j->index;
	req.instance = j->instance;
	req.action = action;
	req.signal = sig;
	req.reason = (char *)reason;
	/* On a leased host: the provider's mbatchd applies its own controls. */
	if (j->exec_hosts != NULL && mc_jobs_remote_host(j->exec_hosts[0], NULL))
		return mc_jobs_send_signal(m, j->exec_hosts[0], &req);
	if (l == NULL)
		return FALSE;
	/* JOB_CONTROLS: a signal of the queue's or profile's, or a command. */
	if (sig == 0)
		req.command = (char *)prepost_job_control(m, j, action, &req.signal);
	o = order_new(m, j, action);
	if (!bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 1,
	    &req.base, ORDER_TIMEOUT_MS, signal_done, o, NULL)) {
		g_free(o);
		return FALSE;
	}
	send_signal_tasks(m, j, &req);
	return TRUE;
}

/* Kill a run that is no longer the job's (requeued, removed): the order
 * names that run's instance, so a new run of the job is never hit. */
static void
kill_old_run_as(Manager *m, const Job *old_view, const char *host,
    const char *reason, const char *command, int sig)
{
	HostLink *l = live_link(m, host);
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	Order *o;

	req.job_id = old_view->id;
	req.array_index = old_view->index;
	req.instance = old_view->instance;
	req.action = X(TERMINATE);
	req.reason = (char *)reason;
	req.signal = sig;
	if (mc_jobs_remote_host(host, NULL)) {
		(void)mc_jobs_send_signal(m, host, &req);
		return;
	}
	if (l == NULL)
		return;     /* it registers again: told to forget that run */
	req.command = (char *)command;
	o = order_new(m, old_view, X(TERMINATE));
	/* Whatever the host answers, the job has moved on: signal_done finds
	 * no current run for this instance and only logs. */
	if (!bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 1,
	    &req.base, ORDER_TIMEOUT_MS, signal_done, o, NULL))
		g_free(o);
}

static void
kill_old_run(Manager *m, const Job *old_view, const char *host,
    const char *reason)
{
	kill_old_run_as(m, old_view, host, reason, NULL, 0);
}

static gboolean
commit_status(Manager *m, const Job *j, JobState state, const char *reason,
    const Job *preemptor, GError **err)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus st = BASALT__EV_JOB_STATUS__INIT;

	st.job_id = j->id;
	st.array_index = j->index;
	st.state = state;
	st.reason = (char *)reason;
	if (preemptor != NULL) {
		st.preempted_by_job = preemptor->id;
		st.preempted_by_index = preemptor->index;
	}
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &st;
	return manager_commit(m, &ev, err);
}

static gboolean
commit_signal_as(Manager *m, const Job *j, int sig, const char *user,
    gboolean record_done, GError **err)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobSignal e = BASALT__EV_JOB_SIGNAL__INIT;

	e.record_done = record_done;
	e.job_id = j->id;
	e.array_index = j->index;
	e.signal = sig;
	e.user = (char *)user;
	ev.body_case = BASALT__EVENT__BODY_JOB_SIGNAL;
	ev.job_signal = &e;
	return manager_commit(m, &ev, err);
}

static gboolean
commit_signal(Manager *m, const Job *j, int sig, const char *user, GError **err)
{
	return commit_signal_as(m, j, sig, user, FALSE, err);
}

gboolean
orders_suspend(Manager *m, Job *j, JobState as, const char *reason,
    const Job *preemptor, GError **err)
{
	if (!job_reachable(m, j)) {
		set_unreachable(err);
		return FALSE;
	}
	if (!commit_status(m, j, as, reason, preemptor, err))
		return FALSE;
	(void)send_signal(m, j, X(SUSPEND), 0, reason);
	return TRUE;
}

gboolean
orders_resume(Manager *m, Job *j, GError **err)
{
	if (!job_reachable(m, j)) {
		set_unreachable(err);
		return FALSE;
	}
	if (!commit_status(m, j, JS_RUN, NULL, NULL, err))
		return FALSE;
	(void)send_signal(m, j, X(RESUME), 0, NULL);
	return TRUE;
}

gboolean
orders_resume_wait(Manager *m, Job *j, GError **err)
{
	if (!commit_status(m, j, JS_SSUSP, RESUME_WAIT_REASON, NULL, err))
		return FALSE;
	manager_schedule_soon(m);
	return TRUE;
}

/* System kills already journaled, per run: job key -> instance. */
static gboolean
already_terminating(Manager *m, const Job *j)
{
	gpointer v;

	if (!g_hash_table_lookup_extended(m->terminating, &j->key, NULL, &v))
		return FALSE;
	return GPOINTER_TO_UINT(v) == j->instance;
}

static void
note_terminating(Manager *m, const Job *j)
{
	GHashTableIter it;
	gpointer k, v;

	/* Forget runs that are over: the table stays as small as the kills
	 * in progress. */
	if (g_hash_table_size(m->terminating) > 64) {
		g_hash_table_iter_init(&it, m->terminating);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			guint64 key = *(guint64 *)k;
			const Job *o = state_job(m->st, key >> 32, (guint32)key);

			if (o == NULL || !job_is_started(o) ||
			    o->instance != GPOINTER_TO_UINT(v))
				g_hash_table_iter_remove(&it);
		}
	}
	g_hash_table_insert(m->terminating, g_memdup2(&j->key, sizeof j->key),
	    GUINT_TO_POINTER(j->instance));
}

gboolean
orders_run_terminating(Manager *m, const Job *j)
{
	return already_terminating(m, j);
}

gboolean
orders_preexec_failed(Manager *m, Job *j, const char *host, int exit_status,
    guint level, PreexecOutcome out, const char *reason)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobPreexec e = BASALT__EV_JOB_PREEXEC__INIT;
	g_autoptr(GError) err = NULL;

	e.job_id = j->id;
	e.array_index = j->index;
	e.host = (char *)host;
	e.exit_status = exit_status;
	e.level = level;
	e.give_up = out != PREEXEC_RETRY;
	e.hold = out == PREEXEC_HOLD;
	e.reason = (char *)reason;
	ev.body_case = BASALT__EVENT__BODY_JOB_PREEXEC;
	ev.job_preexec = &e;
	if (!manager_commit(m, &ev, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: pre-exec failure: %s",
		    j->id, j->index, err->message);
		return FALSE;
	}
	/* A retry waits for the next periodic pass (MBD_SLEEP_TIME), as in
	 * LSF: a pre-exec that keeps failing is not run in a tight loop. */
	if (out != PREEXEC_RETRY)
		manager_schedule_soon(m);
	return TRUE;
}

gboolean
orders_terminate(Manager *m, Job *j, const char *user, const char *reason,
    gboolean requeue_rerunnable, GError **err)
{
	const Basalt__JobSpec *spec = job_spec(j);

	if (requeue_rerunnable && spec != NULL && spec->rerunnable)
		return orders_requeue(m, j, FALSE, reason, err);
	if (!job_reachable(m, j)) {
		set_unreachable(err);
		return FALSE;
	}
	/* Decided again (the next tick, the next pass): the kill of this run
	 * is journaled already; the order goes again, in case the first was
	 * lost with a link (sbatchd takes a repeat as the same kill). */
	if (user == NULL && already_terminating(m, j)) {
		(void)send_signal(m, j, X(TERMINATE), 0, reason);
		return TRUE;
	}
	if (!commit_signal(m, j, 0, user != NULL ? user : SYSTEM_USER, err))
		return FALSE;
	/* A user's kill too: a pre-exec it interrupts is not retried. */
	note_terminating(m, j);
	(void)send_signal(m, j, X(TERMINATE), 0, reason != NULL ? reason : user);
	return TRUE;
}

/*
 * bkill -d: the queue's TERMINATE sequence, with the run marked (in the
 * journaled signal event, so a restart keeps the mark) to end DONE.
 */
gboolean
orders_terminate_done(Manager *m, Job *j, const char *user, GError **err)
{
	if (!job_reachable(m, j)) {
		set_unreachable(err);
		return FALSE;
	}
	if (!commit_signal_as(m, j, 0, user, TRUE, err))
		return FALSE;
	note_terminating(m, j);
	(void)send_signal(m, j, X(TERMINATE), 0, user);
	return TRUE;
}

gboolean
orders_signal(Manager *m, Job *j, int sig, const char *user, GError **err)
{
	if (!job_reachable(m, j)) {
		set_unreachable(err);
		return FALSE;
	}
	if (!commit_signal(m, j, sig, user, err))
		return FALSE;
	(void)send_signal(m, j, X(SIGNAL), sig, user);
	return TRUE;
}

/* ---- bmod of a started job, badmin hrestart/hshutdown ------------------- */

gboolean
orders_modify(Manager *m, Job *j, const Basalt__JobSpec *spec,
    const Basalt__JobEffective *eff, gboolean set_post_exec,
    const char *post_exec, gboolean set_out, GError **err)
{
	HostLink *l = job_link(m, j);
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobModify md = BASALT__EV_JOB_MODIFY__INIT;
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	g_autofree char *post = NULL;
	Order *o;

	if (l == NULL) {
		set_unreachable(err);
		return FALSE;
	}
	/* The event borrows from the old spec and stamp; the order is built
	 * from the job's own copies once the commit has replaced them. */
	post = g_strdup(post_exec != NULL ? post_exec : "");
	md.job_id = j->id;
	md.array_index = j->index;
	md.spec = (Basalt__JobSpec *)spec;
	md.effective = (Basalt__JobEffective *)eff;
	ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
	ev.job_modify = &md;
	if (!manager_commit(m, &ev, err))
		return FALSE;
	req.job_id = j->id;
	req.array_index = j->index;
	req.instance = j->instance;
	req.action = X(MODIFY);
	req.effective = j->effective;
	req.set_post_exec = set_post_exec;
	req.post_exec = post;
	req.set_report_path = set_out;
	req.report_path = (char *)job_spec(j)->stdout_path;
	o = order_new(m, j, X(MODIFY));
	if (!bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 1,
	    &req.base, ORDER_TIMEOUT_MS, signal_done, o, NULL))
		g_free(o);
	return TRUE;
}

static void
host_daemon_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	g_autofree char *host = data;
	const Basalt__SignalJobReply *reply = (const Basalt__SignalJobReply *)msg;

	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		log_info("sbatchd on %s: order not answered: %s", host,
		    error != NULL ? error->message : "failed");
	else if (reply->error != NULL)
		log_warning("sbatchd on %s: %s", host, reply->error->message);
}

gboolean
orders_host_daemon(Manager *m, const char *host, gboolean restart, GError **err)
{
	HostLink *l = live_link(m, host);
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	char *h;

	if (l == NULL) {
		set_unreachable(err);
		return FALSE;
	}
	req.action = restart ? X(HOST_RESTART) : X(HOST_SHUTDOWN);
	req.reason = restart ? "badmin hrestart" : "badmin hshutdown";
	h = g_strdup(host);
	if (!bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 1,
	    &req.base, ORDER_TIMEOUT_MS, host_daemon_done, h, NULL)) {
		g_free(h);
		set_unreachable(err);
		return FALSE;
	}
	return TRUE;
}

/* What a kill of the job's current run needs once the job has moved on. */
typedef struct {
	Job view;
	char *host;
} OldRun;

static gboolean
old_run_take(const Job *j, OldRun *r)
{
	if (!job_is_started(j) || j->exec_hosts == NULL)
		return FALSE;
	memset(r, 0, sizeof *r);
	r->view.id = j->id;
	r->view.index = j->index;
	r->view.instance = j->instance;
	r->host = g_strdup(j->exec_hosts[0]);
	return TRUE;
}

gboolean
orders_requeue(Manager *m, Job *j, gboolean hold, const char *reason,
    GError **err)
{
	OldRun r;
	gboolean started = old_run_take(j, &r);
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue e = BASALT__EV_JOB_REQUEUE__INIT;
	gboolean ok;

	e.job_id = j->id;
	e.array_index = j->index;
	e.hold = hold;
	e.reason = (char *)reason;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &e;
	ok = manager_commit(m, &ev, err);
	/* The old run's report, if any, names an older instance: ignored. */
	if (ok && started)
		kill_old_run(m, &r.view, r.host, reason);
	if (started)
		g_free(r.host);
	return ok;
}

gboolean
orders_reclaim(Manager *m, Job *j, const OrdersReclaim *r, GError **err)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobReclaim e = BASALT__EV_JOB_RECLAIM__INIT;
	int sig = j->effective != NULL ? j->effective->warning_signal : 0;
	g_autofree char *reason = NULL;

	e.job_id = j->id;
	e.array_index = j->index;
	e.instance = j->instance;
	e.deadline = r->deadline;
	e.grace = r->grace;
	e.for_consumer = (char *)r->for_consumer;
	e.from_consumer = (char *)r->from_consumer;
	e.kind = (char *)r->kind;
	e.signal = sig;
	ev.body_case = BASALT__EVENT__BODY_JOB_RECLAIM;
	ev.job_reclaim = &e;
	if (!manager_commit(m, &ev, err))
		return FALSE;
	/* No warning action: no notice; the grace runs all the same. */
	if (sig > 0) {
		reason = *r->for_consumer != '\0' ?
		    g_strdup_printf("reclaimed for consumer %s", r->for_consumer) :
		    strcmp(r->kind, "host") != 0 ? g_strdup("reclaimed at a plan change") :
		    g_strdup("its host is closed with reclaim");
		(void)send_signal(m, j, X(SIGNAL), sig, reason);
	}
	return TRUE;
}

gboolean
orders_reclaim_requeue(Manager *m, Job *j, GError **err)
{
	OldRun r;
	gboolean started = old_run_take(j, &r);
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue e = BASALT__EV_JOB_REQUEUE__INIT;
	g_autofree char *reason = j->reclaim_for != NULL && *j->reclaim_for ?
	    g_strdup_printf("reclaimed for consumer %s", j->reclaim_for) :
	    j->reclaim_kind != NULL && *j->reclaim_kind &&
	    strcmp(j->reclaim_kind, "host") != 0 ?
	    g_strdup("reclaimed at a plan change") :
	    g_strdup("reclaimed: its host is closed");
	int sig = 0;
	/* The queue's (or profile's) TERMINATE action, read while the job
	 * still has its run. */
	g_autofree char *command = g_strdup(prepost_job_control(m, j, X(TERMINATE),
	    &sig));
	gboolean ok;

	e.job_id = j->id;
	e.array_index = j->index;
	e.reason = reason;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &e;
	ok = manager_commit(m, &ev, err);
	if (ok && started)
		kill_old_run_as(m, &r.view, r.host, reason, command, sig);
	if (started)
		g_free(r.host);
	if (ok)
		manager_schedule_soon(m);
	return ok;
}

gboolean
orders_host_reclaim(Manager *m, const char *host, GError **err)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvHostReclaim e = BASALT__EV_HOST_RECLAIM__INIT;

	e.host = (char *)host;
	e.reclaim = TRUE;
	ev.body_case = BASALT__EVENT__BODY_HOST_RECLAIM;
	ev.host_reclaim = &e;
	if (!manager_commit(m, &ev, err))
		return FALSE;
	manager_schedule_soon(m);
	return TRUE;
}

gboolean
orders_remove(Manager *m, Job *j, const char *reason, GError **err)
{
	OldRun r;
	gboolean started = old_run_take(j, &r);
	gboolean ok = commit_status(m, j, JS_EXIT, reason, NULL, err);

	if (ok && started)
		kill_old_run(m, &r.view, r.host, "removed by bkill -r");
	if (started)
		g_free(r.host);
	return ok;
}

void
orders_lost(Manager *m, Job *j, const char *why)
{
	const Basalt__JobSpec *spec = job_spec(j);

	if (j->pgid == 0 || (spec != NULL && spec->rerunnable)) {
		log_notice("job %" G_GUINT64_FORMAT "[%u]: %s, requeued", j->id,
		    j->index, why);
		commit_job_requeue(m, j, FALSE, why);
	} else {
		log_notice("job %" G_GUINT64_FORMAT "[%u]: %s", j->id, j->index, why);
		commit_job_status(m, j, JS_EXIT, NULL, why);
	}
}

void
orders_host_unavailable(Manager *m, Job *j)
{
	const Basalt__JobSpec *spec = job_spec(j);
	const char *why = "the execution host is unavailable";

	/* No link to send anything on: when the host registers again, the
	 * requeued run is not the job's any more and it is told to forget it. */
	if (spec != NULL && spec->rerunnable)
		commit_job_requeue(m, j, FALSE, why);
	else if (j->state != JS_UNKWN)
		commit_job_status(m, j, JS_UNKWN, NULL, why);
}

/* ---- peek ---------------------------------------------------------------- */

typedef struct {
	OrdersPeekFunc cb;
	void *data;
} PeekWait;

static void
peek_done(BsRpcConn *conn, Basalt__RpcStatus status, const ProtobufCMessage *msg,
    const GError *error, void *data)
{
	g_autofree PeekWait *w = data;

	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK)
		w->cb((const Basalt__PeekReply *)msg, NULL, w->data);
	else
		w->cb(NULL, error != NULL ? error->message :
		    "the execution host did not answer", w->data);
}

gboolean
orders_peek(Manager *m, const Job *j, guint64 offset, OrdersPeekFunc cb,
    void *data)
{
	HostLink *l = job_link(m, j);
	Basalt__PeekJobRequest pr = BASALT__PEEK_JOB_REQUEST__INIT;
	PeekWait *w;

	if (l == NULL)
		return FALSE;
	pr.job_id = j->id;
	pr.array_index = j->index;
	pr.instance = j->instance;
	pr.offset = offset;
	w = g_new(PeekWait, 1);
	w->cb = cb;
	w->data = data;
	if (!bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 2,
	    &pr.base, PEEK_TIMEOUT_MS, peek_done, w, NULL)) {
		g_free(w);
		return FALSE;
	}
	return TRUE;
}

void
orders_init(Manager *m)
{
	m->terminating = g_hash_table_new_full(g_int64_hash, g_int64_equal,
	    g_free, NULL);
	refused_init(m);
}

void
orders_free(Manager *m)
{
	g_clear_pointer(&m->terminating, g_hash_table_destroy);
	refused_free(m);
}
