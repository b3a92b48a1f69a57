/*
 * The consumer's side of the job relay (mc-jobs.h): start and signal
 * orders for a job on "host@provider" leave over the ClusterService link to
 * the provider's mbatchd, and its RemoteStatus reports are applied as a
 * host's own reports are (mbd-hosts.c), from host "host@provider".
 *
 * A provider speaks only for runs on its own hosts: the host a report is
 * applied for is built from the link's cluster, never from the message,
 * so a cluster cannot touch a job that runs anywhere else.
 *
 * A start order whose answer was lost (a timeout, a link cut) is sent
 * again when the link is ok and the run has not been heard of; the
 * provider answers a repeat of a run it has without starting it again.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-refused.h"
#include "mbatchd/mc-jobs.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/mc-links.h"
#include "util/error.h"
#include "util/log.h"

#define START_TIMEOUT_MS 15000
#define SIGNAL_TIMEOUT_MS 10000
#define RESEND_S 15
#define MAX_NAME 255
#define MAX_REASON 200

static guint
method(const char *name)
{
	const ProtobufCMethodDescriptor *d =
	    protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__cluster_service__descriptor, name);

	return (guint)(d - basalt__cluster_service__descriptor.methods);
}

gboolean
mc_jobs_reachable(Manager *m, const char *host)
{
	const char *cluster;
	const McLink *l;

	if (!mc_jobs_remote_host(host, &cluster))
		return FALSE;
	l = mc_link_find(m, cluster);
	return l != NULL && l->status == MC_LINK_OK;
}

typedef struct {
	Manager *m;
	guint64 key;
	guint32 instance;
	char *host;
} StartCall;

static void
start_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	StartCall *c = data;
	const Basalt__RemoteStartReply *reply = (const Basalt__RemoteStartReply *)msg;
	Job *j = state_job(c->m->st, c->key >> 32, (guint32)(c->key & 0xffffffffu));
	g_autofree char *why = NULL;

	(void)conn;
	if (j == NULL || j->instance != c->instance || !job_is_started(j) ||
	    j->pgid != 0) {
		/* Another run by now, or its start already reported. */
	} else if (status != BASALT__RPC_STATUS__RPC_STATUS_OK || reply == NULL) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: start order to %s: %s; "
		    "sent again when the link is ok", j->id, j->index, c->host,
		    error != NULL ? error->message : "no answer");
	} else if (reply->error != NULL) {
		why = g_strdup_printf("The job could not be started on host <%s>: "
		    "%.*s;", c->host, MAX_REASON, reply->error->message != NULL ?
		    reply->error->message : "refused");
		log_warning("job %" G_GUINT64_FORMAT "[%u]: %s pending again",
		    j->id, j->index, why);
		if (commit_job_requeue(c->m, j, FALSE, why))
			refused_note(c->m, j, c->host);
		manager_schedule_soon(c->m);
	} else {
		log_info("job %" G_GUINT64_FORMAT "[%u]: run %u %s on %s "
		    "(job %" G_GUINT64_FORMAT " there)", j->id, j->index,
		    c->instance, reply->duplicate ? "known" : "taken", c->host,
		    reply->provider_job_id);
	}
	g_free(c->host);
	g_free(c);
}

gboolean
mc_jobs_send_start(Manager *m, const Job *j,
    const Basalt__StartJobRequest *start, GError **err)
{
	const char *host = j->exec_hosts[0], *cluster;
	Basalt__RemoteStartRequest r = BASALT__REMOTE_START_REQUEST__INIT;
	StartCall *c;

	if (!mc_jobs_remote_host(host, &cluster)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s is not a leased "
		    "host", host);
		return FALSE;
	}
	/* The provider resolves the rest (its user's ids, its environment
	 * and limits) itself. */
	r.job_id = start->job_id;
	r.array_index = start->array_index;
	r.instance = start->instance;
	r.user = start->user;
	r.spec = start->spec;
	r.n_exec_hosts = start->n_exec_hosts;
	r.exec_hosts = start->exec_hosts;
	r.submit_time = start->submit_time;
	r.effective = start->effective;
	c = g_new0(StartCall, 1);
	c->m = m;
	c->key = j->key;
	c->instance = start->instance;
	c->host = g_strdup(host);
	if (!mc_link_call(m, cluster, method("RemoteStart"), &r.base,
	    START_TIMEOUT_MS, start_done, c, err)) {
		g_free(c->host);
		g_free(c);
		return FALSE;
	}
	return TRUE;
}

static void
signal_done(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	const Basalt__RemoteSignalReply *reply = (const Basalt__RemoteSignalReply *)msg;
	g_autofree char *host = data;

	(void)conn;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK || reply == NULL)
		log_warning("job order to %s: %s", host, error != NULL ?
		    error->message : "no answer");
	else if (reply->error != NULL)
		log_warning("job order to %s refused: %.*s", host, MAX_REASON,
		    reply->error->message != NULL ? reply->error->message : "");
}

gboolean
mc_jobs_send_signal(Manager *m, const char *host,
    const Basalt__SignalJobRequest *req)
{
	const char *cluster;
	Basalt__RemoteSignalRequest r = BASALT__REMOTE_SIGNAL_REQUEST__INIT;
	char *data;

	if (!mc_jobs_remote_host(host, &cluster))
		return FALSE;
	switch (req->action) {
	case BASALT__EXEC_ACTION__EXEC_ACTION_SIGNAL:
	case BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND:
	case BASALT__EXEC_ACTION__EXEC_ACTION_RESUME:
	case BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE:
		/* The same numbers (cluster.proto RemoteAction). */
		r.action = (Basalt__RemoteAction)req->action;
		break;
	default:
		return FALSE;
	}
	r.job_id = req->job_id;
	r.array_index = req->array_index;
	r.instance = req->instance;
	r.signal = req->signal;
	r.reason = req->reason;
	data = g_strdup(host);
	if (!mc_link_call(m, cluster, method("RemoteSignal"), &r.base,
	    SIGNAL_TIMEOUT_MS, signal_done, data, NULL)) {
		g_free(data);
		return FALSE;
	}
	return TRUE;
}

static gboolean
name_ok(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	if (n == 0 || n > MAX_NAME)
		return FALSE;
	for (const char *p = s; *p != '\0'; p++)
		if (!g_ascii_isgraph(*p) || *p == '@')
			return FALSE;
	return TRUE;
}

/* A reason from another cluster goes into the journal and listings:
 * bounded, printable. */
static char *
reason_of(const char *s)
{
	char *r;

	if (s == NULL || *s == '\0')
		return NULL;
	r = g_strndup(s, MAX_REASON);
	for (char *p = r; *p != '\0'; p++)
		if (!g_ascii_isprint(*p))
			*p = ' ';
	return r;
}

static void
remote_status(Manager *m, const char *cluster, const ProtobufCMessage *msg,
    ProtobufCClosure closure, void *call, void *data)
{
	const Basalt__RemoteStatusRequest *req =
	    (const Basalt__RemoteStatusRequest *)msg;
	Basalt__RemoteStatusReply r = BASALT__REMOTE_STATUS_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	Basalt__HostJob hj = BASALT__HOST_JOB__INIT;
	g_autofree char *host = NULL;
	g_autofree char *reason = NULL;
	Job *j;

	(void)data;
	if (!name_ok(req->host_name)) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
		e.message = "a status names a job and a host";
		r.error = &e;
		closure(&r.base, call);
		return;
	}
	host = g_strdup_printf("%s@%s", req->host_name, cluster);
	reason = reason_of(req->reason);
	hj.job_id = req->job_id;
	hj.array_index = req->array_index;
	hj.instance = req->instance;
	hj.state = req->state;
	hj.pgid = req->pgid;
	hj.exit_status = req->exit_status;
	hj.term_signal = req->term_signal;
	hj.usage = req->usage;
	hj.term_reason = req->term_reason;
	hj.preexec_failed = req->preexec_failed;
	log_debug("cluster %s: job %" G_GUINT64_FORMAT "[%u] run %u is %s "
	    "(pgid %d) on %s", cluster, req->job_id, req->array_index,
	    req->instance, job_state_name((JobState)req->state), req->pgid, host);
	j = state_job(m->st, req->job_id, req->array_index);
	if (j != NULL && job_is_started(j) && j->exec_hosts != NULL &&
	    strcmp(j->exec_hosts[0], host) == 0 && req->instance == j->instance &&
	    (req->state == JS_PEND || req->state == JS_PSUSP)) {
		/* The provider lost the run before it ended (its host went
		 * away and it requeued its record). */
		orders_lost(m, j, reason != NULL ? reason :
		    "The run was lost on the provider cluster;");
	} else if (req->instance != 0) {
		hosts_apply_host_job(m, host, &hj, reason);
	}
	closure(&r.base, call);
}

static void
resend_on(Manager *m, const char *host)
{
	g_autoptr(GPtrArray) jobs = state_jobs_on_host(m->st, host);

	for (guint i = 0; i < jobs->len; i++) {
		Job *j = g_ptr_array_index(jobs, i);
		StartOrder so;

		if (!job_is_started(j) || j->pgid != 0 || j->exec_hosts == NULL)
			continue;
		orders_start_request_build(m, j, j->exec_hosts, j->instance,
		    j->effective, &so);
		(void)mc_jobs_send_start(m, j, &so.req, NULL);
		orders_start_request_clear(&so);
	}
}

/* Start orders of runs not heard of since (no pgid yet) go again: the
 * answer may have been lost; a repeat is answered, not run twice.  Only
 * the jobs on leased hosts are looked at (state_jobs_on_host). */
static void
resend_starts(Manager *m, const char *only_cluster)
{
	for (guint i = 0; i < mc_leased_host_count(m); i++) {
		const McLeasedHost *h = mc_leased_host_nth(m, i);

		if ((only_cluster == NULL || strcmp(h->provider, only_cluster) == 0) &&
		    mc_jobs_reachable(m, h->name))
			resend_on(m, h->name);
	}
}

static void
link_changed(Manager *m, const McLink *l, void *data)
{
	(void)data;
	if (l->status == MC_LINK_OK)
		resend_starts(m, l->cluster);
}

/* A leased host that refused a start (its provider could not run it
 * then: its host down, no slot) is kept off the job only until this
 * timer: it never registers here, which is what frees a local host. */
static void
forget_refusals(Manager *m)
{
	guint n = mc_leased_host_count(m);

	for (guint i = 0; i < n; i++)
		refused_forget_host(m, mc_leased_host_nth(m, i)->name);
	if (n > 0)
		manager_schedule_soon(m);
}

static gboolean
resend_timer(gpointer data)
{
	resend_starts(data, NULL);
	forget_refusals(data);
	return G_SOURCE_CONTINUE;
}

guint mc_jobs_consumer_init(Manager *m);

/* The handlers, and the resend timer (returned, for mc_jobs_free). */
guint
mc_jobs_consumer_init(Manager *m)
{
	mc_links_on_method(m, method("RemoteStatus"), remote_status, NULL);
	mc_links_on_change(m, link_changed, NULL);
	return g_timeout_add_seconds(RESEND_S, resend_timer, m);
}
