/*
 * The master's side of the execution hosts: HostService (registration,
 * heartbeats, job reports) and the orders mbatchd sends back over the same
 * connection (ExecService: start, signal).
 *
 * A host that registers tells us every job it still holds; we reconcile
 * that list with ours, so jobs survive an sbatchd restart, a master
 * restart, and a network cut.  A host that falls silent for
 * MAX_SBD_FAIL heartbeats is unavailable: its jobs become UNKWN, and the
 * rerunnable ones are requeued.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/mbd.h"
#include "util/log.h"

#define ORDER_TIMEOUT_MS 30000

static Manager *
from_host_service(Basalt__HostService_Service *svc)
{
	return (Manager *)((char *)svc - offsetof(Manager, host_service));
}

void
hosts_link_free(HostLink *l)
{
	if (l->conn != NULL)
		bs_rpc_conn_unref(l->conn);
	g_free(l);
}

HostLink *
manager_link(Manager *m, const char *host)
{
	return g_hash_table_lookup(m->links, host);
}

static HostLink *
link_ensure(Manager *m, const char *host)
{
	HostLink *l = manager_link(m, host);

	if (l == NULL) {
		l = g_new0(HostLink, 1);
		l->name = state_intern(m->st, host);
		g_hash_table_insert(m->links, (gpointer)l->name, l);
	}
	return l;
}

static gboolean
job_on_host(const Job *j, const char *host)
{
	return job_is_started(j) && j->exec_hosts != NULL &&
	    strcmp(j->exec_hosts[0], host) == 0;
}

/*
 * Apply what the host says of one job.  Used for reports and for the job
 * list of a registration, so both reconcile the same way.
 */
static void
apply_host_job(Manager *m, const char *host, const Basalt__HostJob *hj,
    const char *reason)
{
	Job *j = state_job(m->st, hj->job_id, hj->array_index);

	if (j == NULL || !job_on_host(j, host))
		return;
	switch (hj->state) {
	case JS_DONE:
	case JS_EXIT:
		{
			JobOutcome out = { hj->exit_status, hj->term_signal, hj->usage };

			commit_job_status(m, j, hj->state, &out, reason);
		}
		manager_schedule_soon(m);
		return;
	case JS_RUN:
	case JS_USUSP:
	case JS_SSUSP:
		if (hj->pgid != 0 && j->pgid != hj->pgid)
			commit_job_start(m, j, hj->pgid);
		/* The host cannot tell a user's stop from the system's: a job
		 * the master already holds suspended keeps its state and reason. */
		if (hj->state != JS_RUN && (j->state == JS_USUSP || j->state == JS_SSUSP))
			return;
		if (j->state != hj->state)
			commit_job_status(m, j, hj->state, NULL, reason);
		return;
	default:
		return;
	}
}

/* A started job the host no longer has: never started, or lost with it. */
static void
job_lost(Manager *m, Job *j, const char *why)
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

static gboolean
listed(const Basalt__RegisterRequest *req, const Job *j)
{
	for (size_t i = 0; i < req->n_jobs; i++)
		if (req->jobs[i]->job_id == j->id &&
		    req->jobs[i]->array_index == j->index)
			return TRUE;
	return FALSE;
}

static void
reconcile(Manager *m, const Basalt__RegisterRequest *req, GArray *forget)
{
	GPtrArray *lost = g_ptr_array_new();
	GPtrArray *on_host;

	for (size_t i = 0; i < req->n_jobs; i++) {
		const Basalt__HostJob *hj = req->jobs[i];
		Job *j = state_job(m->st, hj->job_id, hj->array_index);

		if (j == NULL || !job_on_host(j, req->host_name)) {
			g_array_append_val(forget, hj->job_id);
			continue;
		}
		apply_host_job(m, req->host_name, hj, NULL);
	}
	/* Collect first: committing changes the table being walked.  Only
	 * the host's own jobs: a walk over every job for each of 10,000
	 * registering hosts was most of mbatchd's time. */
	on_host = state_jobs_on_host(m->st, req->host_name);
	for (guint i = 0; i < on_host->len; i++)
		if (job_on_host(on_host->pdata[i], req->host_name) &&
		    !listed(req, on_host->pdata[i]))
			g_ptr_array_add(lost, on_host->pdata[i]);
	g_ptr_array_free(on_host, TRUE);
	for (guint i = 0; i < lost->len; i++)
		job_lost(m, g_ptr_array_index(lost, i),
		    "the execution host no longer has the job");
	g_ptr_array_free(lost, TRUE);
}

static void
register_host(Basalt__HostService_Service *svc,
    const Basalt__RegisterRequest *req, Basalt__RegisterReply_Closure closure,
    void *call)
{
	Manager *m = from_host_service(svc);
	Basalt__RegisterReply reply = BASALT__REGISTER_REPLY__INIT;
	Basalt__Error error = BASALT__ERROR__INIT;
	BsRpcConn *conn = bs_rpc_call_conn(call);
	GArray *forget = g_array_new(FALSE, FALSE, sizeof(guint64));
	HostLink *l;

	if (bs_config_cluster_host(m->cfg, req->host_name) == NULL) {
		error.code = BASALT__ERROR_CODE__ERROR_CODE_NO_HOST;
		error.message = g_strdup_printf("host %s is not a host of cluster %s",
		    req->host_name, m->cfg->cluster->name);
		log_warning("%s: refused registration: %s",
		    bs_rpc_conn_describe(conn), error.message);
		reply.error = &error;
		closure(&reply, call);
		g_free(error.message);
		g_array_free(forget, TRUE);
		return;
	}
	l = link_ensure(m, req->host_name);
	if (l->conn != NULL && l->conn != conn) {
		bs_rpc_conn_close(l->conn, "replaced by a new registration");
		bs_rpc_conn_unref(l->conn);
	}
	if (l->conn != conn)
		l->conn = bs_rpc_conn_ref(conn);
	l->registered = TRUE;
	l->unavail = FALSE;
	l->last_heard = g_get_monotonic_time();
	l->boot_time = req->boot_time;
	l->ncpus = req->ncpus;
	l->mem_kb = req->mem_kb;
	log_notice("host %s registered (%u CPUs, %" G_GUINT64_FORMAT " KB, %zu jobs)",
	    req->host_name, req->ncpus, req->mem_kb, req->n_jobs);
	reconcile(m, req, forget);

	reply.heartbeat_interval_s = m->heartbeat_s;
	reply.job_terminate_interval_s = (guint32)m->cfg->params->job_terminate_interval;
	reply.cluster_name = m->cfg->cluster->name;
	reply.forget_job_ids = (guint64 *)forget->data;
	reply.n_forget_job_ids = forget->len;
	closure(&reply, call);
	g_array_free(forget, TRUE);
	manager_schedule_soon(m);
}

static HostLink *
link_of_call(Manager *m, void *call)
{
	const BsRpcPeer *peer = bs_rpc_call_peer(call);
	HostLink *l = peer->name != NULL ? manager_link(m, peer->name) : NULL;

	return l != NULL && l->conn == bs_rpc_call_conn(call) ? l : NULL;
}

static void
heartbeat(Basalt__HostService_Service *svc, const Basalt__HeartbeatRequest *req,
    Basalt__HeartbeatReply_Closure closure, void *call)
{
	Manager *m = from_host_service(svc);
	Basalt__HeartbeatReply reply = BASALT__HEARTBEAT_REPLY__INIT;
	HostLink *l = link_of_call(m, call);

	if (l != NULL) {
		l->last_heard = g_get_monotonic_time();
		if (req->load != NULL) {
			/* Keep the figures, not the request's unknown fields. */
			l->load = *req->load;
			l->load.base.n_unknown_fields = 0;
			l->load.base.unknown_fields = NULL;
		}
		for (size_t i = 0; i < req->n_jobs; i++) {
			Job *j = state_job(m->st, req->jobs[i]->job_id,
			    req->jobs[i]->array_index);

			if (j != NULL && req->jobs[i]->usage != NULL)
				job_set_usage(j, req->jobs[i]->usage);
		}
	}
	closure(&reply, call);
}

static void
report(Basalt__HostService_Service *svc, const Basalt__JobReport *req,
    Basalt__JobReportReply_Closure closure, void *call)
{
	Manager *m = from_host_service(svc);
	Basalt__JobReportReply reply = BASALT__JOB_REPORT_REPLY__INIT;
	HostLink *l = link_of_call(m, call);

	/* Not acknowledged while the journal refuses: sbatchd keeps it. */
	if (m->storage_failed) {
		Basalt__Error e = BASALT__ERROR__INIT;

		e.code = BASALT__ERROR_CODE__ERROR_CODE_STORAGE;
		e.message = m->storage_error;
		reply.error = &e;
		closure(&reply, call);
		return;
	}
	/* Reports are retried until acknowledged: apply each seq once. */
	if (l != NULL && req->job != NULL && req->seq > l->last_report_seq) {
		l->last_heard = g_get_monotonic_time();
		apply_host_job(m, l->name, req->job,
		    req->reason != NULL && *req->reason ? req->reason : NULL);
		l->last_report_seq = req->seq;
	}
	reply.acked_seq = req->seq;
	closure(&reply, call);
}

/*
 * After a restart the master knows jobs on hosts that have not registered
 * yet: give each such host the usual MAX_SBD_FAIL heartbeats to come back
 * before its jobs are declared lost.
 */
void
hosts_expect_recovered(Manager *m)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		HostLink *l;

		if (!job_is_started(j) || j->exec_hosts == NULL)
			continue;
		l = link_ensure(m, j->exec_hosts[0]);
		l->last_heard = g_get_monotonic_time();
	}
}

void
hosts_init_services(Manager *m)
{
	Basalt__HostService_Service init = BASALT__HOST_SERVICE__INIT();

	m->host_service = init;
	m->host_service.register_host = register_host;
	m->host_service.heartbeat = heartbeat;
	m->host_service.report = report;
}

static void
host_unavailable(Manager *m, HostLink *l)
{
	GPtrArray *jobs = state_jobs_on_host(m->st, l->name);

	l->unavail = TRUE;
	log_warning("host %s is unavailable: no contact for %d heartbeats",
	    l->name, m->cfg->params->max_sbd_fail);
	for (guint i = 0; i < jobs->len; i++) {
		Job *j = g_ptr_array_index(jobs, i);
		const Basalt__JobSpec *spec = job_spec(j);

		if (!job_on_host(j, l->name))
			continue;
		if (spec != NULL && spec->rerunnable)
			commit_job_requeue(m, j, FALSE, "the execution host is unavailable");
		else if (j->state != JS_UNKWN)
			commit_job_status(m, j, JS_UNKWN, NULL,
			    "the execution host is unavailable");
	}
	g_ptr_array_free(jobs, TRUE);
	manager_schedule_soon(m);
}

void
hosts_check_heartbeats(Manager *m)
{
	gint64 now = g_get_monotonic_time();
	gint64 limit = (gint64)m->heartbeat_s * MAX(m->cfg->params->max_sbd_fail, 1) *
	    G_USEC_PER_SEC;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, m->links);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		HostLink *l = v;

		if (l->unavail || now - l->last_heard <= limit)
			continue;
		if (l->conn != NULL) {
			bs_rpc_conn_close(l->conn, "missed heartbeats");
			bs_rpc_conn_unref(l->conn);
			l->conn = NULL;
		}
		host_unavailable(m, l);
	}
}

static void
link_lost(HostLink *l, const char *reason)
{
	log_warning("host %s disconnected: %s", l->name, reason);
	bs_rpc_conn_unref(l->conn);
	l->conn = NULL;
	/* Heartbeat accounting goes on from the last word we had: the host
	 * has MAX_SBD_FAIL heartbeats to come back. */
}

void
hosts_conn_closed(Manager *m, BsRpcConn *conn, const char *reason)
{
	const BsRpcPeer *peer = bs_rpc_conn_peer(conn);
	HostLink *l;
	GHashTableIter it;
	gpointer v;

	/* Only an execution host's connection can be a link's, and it is the
	 * link of the name its hello gave unless it registered as another:
	 * no walk over 10,000 links for every command that disconnects. */
	if (peer->role != BASALT__ROLE__ROLE_EXEC_HOST)
		return;
	l = peer->name != NULL ? manager_link(m, peer->name) : NULL;
	if (l != NULL && l->conn == conn) {
		link_lost(l, reason);
		return;
	}
	g_hash_table_iter_init(&it, m->links);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (((HostLink *)v)->conn == conn)
			link_lost(v, reason);
}

/* ---- orders to hosts --------------------------------------------------- */

typedef struct {
	Manager *m;
	guint64 id;
	guint32 index;
} Order;

static HostLink *
live_link(Manager *m, const Job *j)
{
	HostLink *l;

	if (j->exec_hosts == NULL)
		return NULL;
	l = manager_link(m, j->exec_hosts[0]);
	return l != NULL && l->conn != NULL && bs_rpc_conn_is_open(l->conn) ? l : NULL;
}

static void
start_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	Order *o = data;
	const Basalt__StartJobReply *reply = (const Basalt__StartJobReply *)msg;
	Job *j = state_job(o->m->st, o->id, o->index);
	g_autofree char *why = NULL;

	if (j == NULL || j->state != JS_RUN || j->pgid != 0) {
		g_free(o);
		return;
	}
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK && reply->error == NULL) {
		commit_job_start(o->m, j, reply->pgid);
	} else if (status == BASALT__RPC_STATUS__RPC_STATUS_OK) {
		why = g_strdup_printf("cannot start on %s: %s", j->exec_hosts[0],
		    reply->error->message);
		log_warning("job %" G_GUINT64_FORMAT ": %s", j->id, why);
		JobOutcome out = { .exit_status = 127 };

		commit_job_status(o->m, j, JS_EXIT, &out, why);
		manager_schedule_soon(o->m);
	} else {
		/* The order may or may not have arrived; the host's next
		 * registration or report settles it. */
		log_warning("job %" G_GUINT64_FORMAT ": start order to %s: %s",
		    j->id, j->exec_hosts[0], error != NULL ? error->message : "failed");
	}
	g_free(o);
}

static char *
lsb_hosts(const Job *j, gboolean mcpu)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; j->exec_hosts[i] != NULL; i++) {
		guint n = 1;

		if (mcpu) {
			while (j->exec_hosts[i + 1] != NULL &&
			    strcmp(j->exec_hosts[i + 1], j->exec_hosts[i]) == 0) {
				n++;
				i++;
			}
			g_string_append_printf(s, "%s%s %u", s->len ? " " : "",
			    j->exec_hosts[i], n);
		} else {
			g_string_append_printf(s, "%s%s", s->len ? " " : "",
			    j->exec_hosts[i]);
		}
	}
	return g_string_free(s, FALSE);
}

static GPtrArray *
job_env(Manager *m, const Job *j)
{
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *hosts = lsb_hosts(j, FALSE);
	g_autofree char *mcpu = lsb_hosts(j, TRUE);

	g_ptr_array_add(env, g_strdup_printf("LSB_JOBID=%" G_GUINT64_FORMAT, j->id));
	g_ptr_array_add(env, g_strdup_printf("LSB_JOBINDEX=%u", j->index));
	g_ptr_array_add(env, g_strdup_printf("LSB_JOBNAME=%s", j->name));
	g_ptr_array_add(env, g_strdup_printf("LSB_QUEUE=%s", j->queue));
	g_ptr_array_add(env, g_strdup_printf("LSB_HOSTS=%s", hosts));
	g_ptr_array_add(env, g_strdup_printf("LSB_MCPU_HOSTS=%s", mcpu));
	g_ptr_array_add(env, g_strdup_printf("LSB_SUB_HOST=%s",
	    j->from_host != NULL ? j->from_host : ""));
	g_ptr_array_add(env, g_strdup_printf("LSF_ENVDIR=%s", m->envdir));
	return env;
}

gboolean
hosts_start_job(Manager *m, Job *j)
{
	HostLink *l = live_link(m, j);
	Basalt__StartJobRequest req = BASALT__START_JOB_REQUEST__INIT;
	g_autoptr(Basalt__JobEffective) unstamped = NULL;
	GPtrArray *env;
	Order *o;
	GError *err = NULL;
	gboolean ok;

	if (l == NULL)
		return FALSE;
	env = job_env(m, j);
	req.job_id = j->id;
	req.array_index = j->index;
	req.user = (char *)j->user;
	req.uid = j->uid;
	req.gid = j->gid;
	req.spec = (Basalt__JobSpec *)job_spec(j);
	req.env = (char **)env->pdata;
	req.n_env = env->len;
	req.exec_hosts = j->exec_hosts;
	req.n_exec_hosts = g_strv_length(j->exec_hosts);
	req.queue = (char *)j->queue;
	req.job_terminate_interval_s = (guint32)m->cfg->params->job_terminate_interval;
	/* What the dispatch event stamped; a job dispatched before stamps
	 * existed is resolved from today's configuration. */
	if (j->effective == NULL)
		unstamped = effective_resolve_job(m->cfg, j);
	effective_fill_start(j->effective != NULL ? j->effective : unstamped,
	    &req, env);
	o = g_new(Order, 1);
	o->m = m;
	o->id = j->id;
	o->index = j->index;
	ok = bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 0,
	    &req.base, ORDER_TIMEOUT_MS, start_done, o, &err);
	if (!ok) {
		log_warning("job %" G_GUINT64_FORMAT ": cannot send start order: %s",
		    j->id, err->message);
		g_error_free(err);
		g_free(o);
	}
	g_ptr_array_free(env, TRUE);
	return ok;
}

static void
signal_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	const Basalt__SignalJobReply *reply = (const Basalt__SignalJobReply *)msg;

	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		log_warning("signal order to %s: %s", bs_rpc_conn_describe(conn),
		    error != NULL ? error->message : "failed");
	else if (reply->error != NULL)
		log_warning("signal order to %s: %s", bs_rpc_conn_describe(conn),
		    reply->error->message);
}

gboolean
hosts_signal_job(Manager *m, Job *j, Basalt__ExecAction action, int signal,
    const char *reason)
{
	HostLink *l = live_link(m, j);
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;

	if (l == NULL)
		return FALSE;
	req.job_id = j->id;
	req.array_index = j->index;
	req.action = action;
	req.signal = signal;
	req.reason = (char *)reason;
	return bs_rpc_conn_call(l->conn, &basalt__exec_service__descriptor, 1,
	    &req.base, ORDER_TIMEOUT_MS, signal_done, NULL, NULL);
}
