/*
 * The master's side of the execution hosts: HostService (registration,
 * heartbeats, job reports).  The orders mbatchd sends back over the same
 * connection (ExecService) are mbd-orders.c's.
 *
 * A host that registers tells us every job it still holds; we reconcile
 * that list with ours, so jobs survive an sbatchd restart, a master
 * restart, and a network cut.  A host that falls silent for
 * MAX_SBD_FAIL heartbeats is unavailable: its jobs become UNKWN, and the
 * rerunnable ones are requeued.
 *
 * Everything a host says of a job names the run (instance) it is about;
 * what it says of an older run than the job's current one is ignored, so a
 * run that was requeued away can never speak for the new one.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-prepost.h"
#include "mbatchd/mbd-refused.h"
#include "mbatchd/mc-jobs.h"
#include "util/log.h"

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

/* Is what the host says about the job's current run?  Instance 0 comes
 * from an sbatchd that predates instances: taken as the current run. */
static gboolean
current_run(const Job *j, guint32 instance)
{
	return instance == 0 || instance == j->instance;
}

/* A host's TERM_* name goes into the journal and every listing: only a
 * short upper-case word is taken (a bad host cannot forge text there). */
static const char *
term_reason_of(const Basalt__HostJob *hj)
{
	const char *t = hj->term_reason;

	if (t == NULL || strlen(t) < 6 || strlen(t) > 40 || !g_str_has_prefix(t, "TERM_"))
		return NULL;
	for (const char *p = t; *p != '\0'; p++)
		if (!g_ascii_isupper(*p) && *p != '_')
			return NULL;
	return t;
}

/*
 * Apply what the host says of one job.  Used for reports and for the job
 * list of a registration, so both reconcile the same way.
 */
void
hosts_apply_host_job(Manager *m, const char *host, const Basalt__HostJob *hj,
    const char *reason)
{
	Job *j = state_job(m->st, hj->job_id, hj->array_index);

	if (j == NULL || !job_on_host(j, host))
		return;
	if (!current_run(j, hj->instance)) {
		log_info("job %" G_GUINT64_FORMAT "[%u]: ignoring %s's word on run %u "
		    "(the job's run is %u)", j->id, j->index, host, hj->instance,
		    j->instance);
		return;
	}
	switch (hj->state) {
	case JS_DONE:
	case JS_EXIT:
		if (hj->state == JS_EXIT && hj->preexec_failed != 0) {
			prepost_preexec_failed(m, j, host, hj);
			return;
		}
		{
			Basalt__ResourceUsage with_tasks;
			JobOutcome out = { hj->exit_status, hj->term_signal,
			    tasks_fold_usage(j, hj->usage, &with_tasks),
			    term_reason_of(hj) };
			const Basalt__JobSpec *spec = job_spec(j);

			/* Killed for its -t: LSF's TERM_* word, journaled with
			 * the end (a restarted mbatchd kills it again and says
			 * the same).  A limit the host names comes first. */
			if (reason == NULL && out.term_reason == NULL &&
			    hj->state == JS_EXIT && spec->term_time > 0 &&
			    spec->term_time <= g_get_real_time() / G_USEC_PER_SEC)
				out.term_reason = DEADLINE_TERM;
			/* bkill -d: LSF records the killed job as DONE. */
			commit_job_status(m, j, j->kill_as_done ? JS_DONE :
			    hj->state, &out, reason);
		}
		orders_end_tasks(m, j);
		manager_schedule_soon(m);
		return;
	case JS_RUN:
	case JS_USUSP:
	case JS_SSUSP:
		if (hj->pgid != 0 && j->pgid != hj->pgid)
			commit_job_start(m, j, hj->pgid);
		/* A suspension mbatchd ordered (it has a reason: bstop,
		 * preemption, a run window; orders_suspend commits it before
		 * the order leaves) holds whatever the host reports: a stop
		 * cannot be told from the system's, and a RUN may have left the
		 * host before the suspend order arrived (the preemption race:
		 * taking that RUN, then the stop that follows as USUSP, left
		 * the job suspended for ever).  Only mbatchd's resume ends it.
		 * A stop the host saw by itself (no reason) ends when the host
		 * sees the job continue. */
		if (j->state == JS_USUSP || j->state == JS_SSUSP) {
			if (hj->state != JS_RUN)
				return;
			if (j->suspend_reason != NULL) {
				log_info("job %" G_GUINT64_FORMAT "[%u]: %s reports RUN, "
				    "but mbatchd holds the job %s: ignored", j->id,
				    j->index, host, job_state_name(j->state));
				return;
			}
		}
		if (j->state != hj->state)
			commit_job_status(m, j, hj->state, NULL, reason);
		return;
	default:
		return;
	}
}

static gboolean
listed(const Basalt__RegisterRequest *req, const Job *j)
{
	for (size_t i = 0; i < req->n_jobs; i++)
		if (req->jobs[i]->job_id == j->id &&
		    req->jobs[i]->array_index == j->index &&
		    current_run(j, req->jobs[i]->instance))
			return TRUE;
	return FALSE;
}

static void
forget_run(GArray *forget, const Basalt__HostJob *hj)
{
	Basalt__ForgetJob f = BASALT__FORGET_JOB__INIT;

	f.job_id = hj->job_id;
	f.array_index = hj->array_index;
	f.instance = hj->instance;
	g_array_append_val(forget, f);
}

/*
 * What the host holds against what we know.  A run that is not the job's
 * current one (the job ended, was removed or requeued while the host was
 * away) is forgotten, by instance: the host kills it and drops its
 * reports, and a new run of the same job is never hit.
 */
static void
reconcile(Manager *m, const Basalt__RegisterRequest *req, GArray *forget)
{
	GPtrArray *lost = g_ptr_array_new();
	GPtrArray *on_host;

	for (size_t i = 0; i < req->n_jobs; i++) {
		const Basalt__HostJob *hj = req->jobs[i];
		Job *j = state_job(m->st, hj->job_id, hj->array_index);

		if (j == NULL || !job_on_host(j, req->host_name) ||
		    !current_run(j, hj->instance)) {
			forget_run(forget, hj);
			continue;
		}
		hosts_apply_host_job(m, req->host_name, hj, NULL);
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
		orders_lost(m, g_ptr_array_index(lost, i),
		    "the execution host no longer has the job");
	g_ptr_array_free(lost, TRUE);
}

/*
 * Why this registration is refused, or NULL.  A host registers under the
 * name its hello gave (the name its credential was made for and checked
 * against its address), and never over a live link of another
 * connection: the running sbatchd keeps its host until its link drops.
 */
static char *
registration_refusal(Manager *m, const Basalt__RegisterRequest *req,
    BsRpcConn *conn)
{
	const BsRpcPeer *peer = bs_rpc_conn_peer(conn);
	HostLink *l;

	if (req->host_name == NULL || *req->host_name == '\0' ||
	    bs_config_cluster_host(m->cfg, req->host_name) == NULL) {
		g_autofree char *name = g_strescape(req->host_name != NULL ?
		    req->host_name : "", NULL);

		return g_strdup_printf("host %.64s is not a host of cluster %s",
		    name, m->cfg->cluster->name);
	}
	if (peer->name == NULL || strcmp(peer->name, req->host_name) != 0) {
		/* Both names are the peer's words: escaped for the log. */
		g_autofree char *said = g_strescape(peer->name != NULL ?
		    peer->name : "", NULL);

		return g_strdup_printf("a connection that said hello as \"%.64s\" "
		    "may not register host %s", said, req->host_name);
	}
	l = manager_link(m, req->host_name);
	if (l != NULL && l->conn != NULL && l->conn != conn &&
	    bs_rpc_conn_is_open(l->conn))
		return g_strdup_printf("host %s is already registered on a live "
		    "link (%s); a second registration is refused",
		    req->host_name, bs_rpc_conn_describe(l->conn));
	return NULL;
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
	GArray *forget = g_array_new(FALSE, FALSE, sizeof(Basalt__ForgetJob));
	g_autofree Basalt__ForgetJob **fp = NULL;
	HostLink *l;

	error.message = registration_refusal(m, req, conn);
	if (error.message != NULL) {
		error.code = bs_config_cluster_host(m->cfg, req->host_name) == NULL ?
		    BASALT__ERROR_CODE__ERROR_CODE_NO_HOST :
		    BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
		log_warning("%s: refused registration: %s",
		    bs_rpc_conn_describe(conn), error.message);
		reply.error = &error;
		closure(&reply, call);
		g_free(error.message);
		g_array_free(forget, TRUE);
		return;
	}
	l = link_ensure(m, req->host_name);
	if (l->conn != conn) {
		g_clear_pointer(&l->conn, bs_rpc_conn_unref);
		l->conn = bs_rpc_conn_ref(conn);
	}
	l->registered = TRUE;
	refused_forget_host(m, req->host_name);
	l->unavail = FALSE;
	l->last_heard = g_get_monotonic_time();
	/* Report numbers belong to this registration: whatever an earlier
	 * one said (a wiped spool, a peer with an absurd seq) never makes a
	 * report of this one look applied already. */
	l->last_report_seq = 0;
	l->boot_time = req->boot_time;
	l->ncpus = req->ncpus;
	l->mem_kb = req->mem_kb;
	log_notice("host %s registered (%u CPUs, %" G_GUINT64_FORMAT " KB, %zu jobs)",
	    req->host_name, req->ncpus, req->mem_kb, req->n_jobs);
	reconcile(m, req, forget);

	reply.heartbeat_interval_s = m->heartbeat_s;
	reply.job_terminate_interval_s = (guint32)m->cfg->params->job_terminate_interval;
	reply.cluster_name = m->cfg->cluster->name;
	fp = g_new(Basalt__ForgetJob *, forget->len + 1);
	for (guint i = 0; i < forget->len; i++)
		fp[i] = &g_array_index(forget, Basalt__ForgetJob, i);
	reply.forget_jobs = fp;
	reply.n_forget_jobs = forget->len;
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

			if (j != NULL && req->jobs[i]->usage != NULL &&
			    current_run(j, req->jobs[i]->instance))
			{
				Basalt__ResourceUsage with_tasks;

				job_set_usage(j, tasks_fold_usage(j,
				    req->jobs[i]->usage, &with_tasks));
			}
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
		hosts_apply_host_job(m, l->name, req->job,
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

/* The generated initializer names every method; this one is mbd-tasks.c's. */
static void
task_job(Basalt__HostService_Service *svc, const Basalt__TaskJobRequest *req,
    Basalt__TaskJobReply_Closure closure, void *call)
{
	tasks_task_job(svc, req, closure, call);
}

static void
task_usage(Basalt__HostService_Service *svc, const Basalt__TaskUsageRequest *req,
    Basalt__TaskUsageReply_Closure closure, void *call)
{
	tasks_task_usage(svc, req, closure, call);
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

		if (job_on_host(j, l->name))
			orders_host_unavailable(m, j);
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
