/*
 * The link to mbatchd: one long-lived connection that sbatchd dials, over
 * TCP with a MUNGE credential (and the master's checked, sbd-auth.c), or
 * without MUNGE to the master's Unix socket (a one-host cluster).
 *
 * sbatchd is the one that dials, so a master can restart, move to another
 * port (LSB_MBD_PORT=0: the port is re-read from $LSB_SHAREDIR/mbatchd.port
 * before every attempt) or be away for hours: we keep trying with a backoff
 * from 0.2 s doubling to 5 s, while the jobs run on and their reports wait
 * in the spool.  On every (re)connection the order is fixed: RegisterHost
 * first (it lists every job in the table, so mbatchd can reconcile and tell
 * us which ones to forget), then the spooled reports in seq order, then
 * heartbeats every heartbeat_interval_s.
 *
 * Replies of calls made on an older connection can arrive after a new one
 * was dialed; each call carries the generation of the link it was made on
 * and a stale one is ignored (comparing connection pointers would not do:
 * a new connection may reuse a freed one's address).
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include "sbd.h"
#include "util/error.h"

#define BACKOFF_MIN_MS 200
#define BACKOFF_MAX_MS 5000
#define CALL_TIMEOUT_MS 30000

static Sbd *link_sbd;
static guint link_gen;
static guint64 sent_upto;         /* highest seq sent on this link */
static gboolean heartbeat_busy;
static char *last_dial_error;     /* log a failing dial once, not every 5 s */

static void link_connect(Sbd *sbd);
static void send_reports(Sbd *sbd);

static guint
method(const ProtobufCServiceDescriptor *d, const char *name)
{
	const ProtobufCMethodDescriptor *m = protobuf_c_service_descriptor_get_method_by_name(d, name);

	g_assert(m != NULL);
	return (guint)(m - d->methods);
}

static gboolean
current(gpointer data)
{
	return link_sbd != NULL && link_sbd->conn != NULL &&
	    GPOINTER_TO_UINT(data) == link_gen;
}

static gboolean
call_with(Sbd *sbd, const char *name, const ProtobufCMessage *req,
    guint timeout_ms, BsRpcReplyFunc cb, gpointer data)
{
	g_autoptr(GError) err = NULL;

	if (bs_rpc_conn_call(sbd->conn, &basalt__host_service__descriptor,
	    method(&basalt__host_service__descriptor, name), req, timeout_ms, cb,
	    data, &err))
		return TRUE;
	sbd_log(BS_LOG_WARNING, NULL, "cannot call %s: %s", name, err ? err->message : "?");
	return FALSE;
}

static gboolean
call(Sbd *sbd, const char *name, const ProtobufCMessage *req, guint timeout_ms,
    BsRpcReplyFunc cb)
{
	return call_with(sbd, name, req, timeout_ms, cb, GUINT_TO_POINTER(link_gen));
}

/* ---- master address ---- */

static char *
master_name(Sbd *sbd)
{
	const char *list = sbd_conf_value(sbd, "LSF_MASTER_LIST");
	GPtrArray *hosts = sbd->cfg->cluster ? sbd->cfg->cluster->hosts : NULL;

	if (list != NULL) {
		g_auto(GStrv) words = g_strsplit_set(list, " \t,", -1);

		for (char **w = words; *w != NULL; w++) {
			if (**w != '\0')
				return g_strdup(*w);
		}
	}
	if (hosts != NULL && hosts->len > 0)
		return g_strdup(((BsClusterHost *)hosts->pdata[0])->name);
	return NULL;
}

static gboolean
master_port(Sbd *sbd, guint16 *port, GError **error)
{
	g_autofree char *path = NULL;
	g_autofree char *text = NULL;
	guint64 v;

	if (sbd->cfg->lsf->mbd_port > 0) {
		*port = (guint16)sbd->cfg->lsf->mbd_port;
		return TRUE;
	}
	if (sbd->cfg->lsf->lsb_sharedir == NULL) {
		g_set_error(error, BS_ERROR, BS_ERROR_CONFIG,
		    "LSB_MBD_PORT is 0 and LSB_SHAREDIR is not set");
		return FALSE;
	}
	path = g_build_filename(sbd->cfg->lsf->lsb_sharedir, "mbatchd.port", NULL);
	if (!g_file_get_contents(path, &text, NULL, error))
		return FALSE;
	v = g_ascii_strtoull(g_strstrip(text), NULL, 10);
	if (v == 0 || v > 65535) {
		g_set_error(error, BS_ERROR, BS_ERROR_CONFIG, "%s holds no port", path);
		return FALSE;
	}
	*port = (guint16)v;
	return TRUE;
}

/* Numeric address of the master (the dialer takes no names). */
static char *
master_address(Sbd *sbd, GError **error)
{
	g_autofree char *name = master_name(sbd);

	if (name == NULL) {
		g_set_error(error, BS_ERROR, BS_ERROR_CONFIG, "no master: set "
		    "LSF_MASTER_LIST in lsf.conf or list a host in lsf.cluster");
		return NULL;
	}
	return bs_rpc_master_address(name, error);
}

/* ---- reconnecting ---- */

static gboolean
reconnect_due(gpointer data)
{
	Sbd *sbd = data;

	sbd->reconnect_src = 0;
	link_connect(sbd);
	return G_SOURCE_REMOVE;
}

static void
schedule_reconnect(Sbd *sbd)
{
	if (sbd->reconnect_src != 0)
		return;
	sbd->reconnect_src = g_timeout_add(sbd->backoff_ms, reconnect_due, sbd);
	sbd->backoff_ms = MIN(sbd->backoff_ms * 2, BACKOFF_MAX_MS);
}

static void
link_down(Sbd *sbd)
{
	link_gen++;
	sbd->registered = FALSE;
	heartbeat_busy = FALSE;
	g_clear_handle_id(&sbd->heartbeat_src, g_source_remove);
	g_clear_pointer(&sbd->conn, bs_rpc_conn_unref);
}

static void
on_closed(BsRpcConn *conn, const char *reason, void *data)
{
	Sbd *sbd = data;

	if (conn != sbd->conn)
		return;
	if (sbd->registered || g_strcmp0(reason, last_dial_error) != 0)
		sbd_log(BS_LOG_WARNING, NULL, "link to mbatchd lost: %s", reason);
	g_free(last_dial_error);
	last_dial_error = g_strdup(reason);
	link_down(sbd);
	schedule_reconnect(sbd);
}

/* ---- heartbeats ---- */

typedef struct {
	GPtrArray *jobs;          /* SbdJob* */
	Basalt__HostJob *hj;
	Basalt__HostJob **ptrs;
	Basalt__ResourceUsage *usage;
} JobList;

static void
job_list_build(Sbd *sbd, JobList *l, gboolean running_only)
{
	GHashTableIter it;
	gpointer v;

	l->jobs = g_ptr_array_new();
	g_hash_table_iter_init(&it, sbd->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		if (!running_only || !((SbdJob *)v)->finished)
			g_ptr_array_add(l->jobs, v);
	}
	l->hj = g_new0(Basalt__HostJob, l->jobs->len + 1);
	l->ptrs = g_new0(Basalt__HostJob *, l->jobs->len + 1);
	l->usage = g_new0(Basalt__ResourceUsage, l->jobs->len + 1);
	for (guint i = 0; i < l->jobs->len; i++) {
		sbd_job_to_host_job(l->jobs->pdata[i], &l->hj[i], &l->usage[i]);
		l->ptrs[i] = &l->hj[i];
	}
}

static void
job_list_clear(JobList *l)
{
	g_ptr_array_free(l->jobs, TRUE);
	g_free(l->hj);
	g_free(l->ptrs);
	g_free(l->usage);
}

static void
heartbeat_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__HeartbeatReply *r = (const Basalt__HeartbeatReply *)reply;

	if (!current(data))
		return;
	heartbeat_busy = FALSE;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		bs_rpc_conn_close(link_sbd->conn, err ? err->message : "heartbeat failed");
		return;
	}
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
		sbd_log(BS_LOG_WARNING, NULL, "heartbeat refused: %s", r->error->message);
}

static gboolean
heartbeat(gpointer data)
{
	Sbd *sbd = data;
	Basalt__HeartbeatRequest req = BASALT__HEARTBEAT_REQUEST__INIT;
	Basalt__LoadIndices load;
	JobList l;

	/* Reports an unhelpful reply left unacknowledged go again now. */
	send_reports(sbd);
	if (heartbeat_busy)
		return G_SOURCE_CONTINUE;
	bs_reaper_sample(sbd->reaper);
	sbd_load_read(&load);
	job_list_build(sbd, &l, TRUE);
	req.host_name = sbd->host;
	req.load = &load;
	req.n_jobs = l.jobs->len;
	req.jobs = l.ptrs;
	heartbeat_busy = call(sbd, "Heartbeat", &req.base,
	    MAX(CALL_TIMEOUT_MS, sbd->heartbeat_s * 2000), heartbeat_replied);
	job_list_clear(&l);
	return G_SOURCE_CONTINUE;
}

/* ---- reports ---- */

/* What a Report call was about: its link and its seq. */
typedef struct {
	guint gen;
	guint64 seq;
} ReportCall;

static void
report_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__JobReportReply *r = (const Basalt__JobReportReply *)reply;
	g_autofree ReportCall *rc = data;

	if (!current(GUINT_TO_POINTER(rc->gen)))
		return;  /* that link is gone; the spool goes again on the next */
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK) {
		if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
			sbd_log(BS_LOG_WARNING, NULL, "report %" G_GUINT64_FORMAT
			    " refused: %s", rc->seq, r->error->message);
		if (r->acked_seq > 0 && sbd_spool_ack(link_sbd->spool, r->acked_seq) > 0)
			sbd_jobs_acked(link_sbd, r->acked_seq);
		if (r->acked_seq >= rc->seq)
			return;
	} else {
		sbd_log(BS_LOG_WARNING, NULL, "report %" G_GUINT64_FORMAT " failed: %s",
		    rc->seq, err ? err->message : "?");
	}
	/* Not acknowledged: from this one on, again with the next heartbeat. */
	sent_upto = MIN(sent_upto, rc->seq - 1);
}

static void
send_reports(Sbd *sbd)
{
	g_autoptr(GPtrArray) todo = NULL;

	if (!sbd->registered)
		return;
	todo = sbd_spool_pending(sbd->spool, sent_upto);
	for (guint i = 0; i < todo->len; i++) {
		Basalt__JobReport *rep = todo->pdata[i];
		ReportCall *rc;

		if (rep == NULL)
			continue;
		rc = g_new(ReportCall, 1);
		rc->gen = link_gen;
		rc->seq = rep->seq;
		if (call_with(sbd, "Report", &rep->base, CALL_TIMEOUT_MS, report_replied, rc))
			sent_upto = MAX(sent_upto, rep->seq);
		else
			g_free(rc);
		basalt__job_report__free_unpacked(rep, NULL);
	}
}

BsRpcConn *
sbd_link_conn(Sbd *sbd)
{
	return sbd->registered && sbd->conn != NULL &&
	    bs_rpc_conn_is_open(sbd->conn) ? sbd->conn : NULL;
}

void
sbd_link_kick(Sbd *sbd)
{
	send_reports(sbd);
}

/* ---- registration ---- */

static void
registered(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__RegisterReply *r = (const Basalt__RegisterReply *)reply;
	Sbd *sbd = link_sbd;

	if (!current(data))
		return;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		bs_rpc_conn_close(sbd->conn, err ? err->message : "RegisterHost failed");
		return;
	}
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		g_autofree char *why = g_strdup_printf("mbatchd refused host %s: %s",
		    sbd->host, r->error->message);

		bs_rpc_conn_close(sbd->conn, why);
		return;
	}
	sbd->registered = TRUE;
	sbd->backoff_ms = BACKOFF_MIN_MS;
	g_clear_pointer(&last_dial_error, g_free);
	sbd->heartbeat_s = r->heartbeat_interval_s ? r->heartbeat_interval_s :
	    (guint)MAX(sbd->cfg->params->sbd_sleep_time, 1);
	if (r->job_terminate_interval_s > 0)
		sbd->terminate_interval_s = r->job_terminate_interval_s;
	sbd_log(BS_LOG_NOTICE, NULL, "registered with mbatchd (cluster %s), heartbeat "
	    "every %u s, %u reports to send", r->cluster_name, sbd->heartbeat_s,
	    sbd_spool_length(sbd->spool));
	for (size_t i = 0; i < r->n_forget_jobs; i++)
		sbd_job_forget(sbd, r->forget_jobs[i]->job_id,
		    r->forget_jobs[i]->array_index, r->forget_jobs[i]->instance);
	/* An mbatchd without instances names jobs, not runs. */
	for (size_t i = 0; i < r->n_forget_job_ids; i++)
		sbd_job_forget_all_of(sbd, r->forget_job_ids[i]);
	sent_upto = 0;
	send_reports(sbd);
	sbd->heartbeat_src = g_timeout_add_seconds(sbd->heartbeat_s, heartbeat, sbd);
}

static void
on_ready(BsRpcConn *conn, void *data)
{
	Sbd *sbd = data;
	Basalt__RegisterRequest req = BASALT__REGISTER_REQUEST__INIT;
	SbdHostInfo info;
	JobList l;

	if (conn != sbd->conn)
		return;
	sbd_host_info(&info);
	job_list_build(sbd, &l, FALSE);
	req.host_name = sbd->host;
	req.ncpus = info.ncpus;
	req.mem_kb = info.mem_kb;
	req.swap_kb = info.swap_kb;
	req.host_type = info.type;
	req.host_model = info.model;
	req.boot_time = sbd->boot_time;
	req.port = sbd->port;
	req.n_jobs = l.jobs->len;
	req.jobs = l.ptrs;
	sbd_log(BS_LOG_INFO, NULL, "connected to mbatchd, registering with %u jobs",
	    l.jobs->len);
	(void)call(sbd, "RegisterHost", &req.base, CALL_TIMEOUT_MS, registered);
	job_list_clear(&l);
	sbd_host_info_clear(&info);
}

/* Log a failing dial once, not every 5 s, and try again later. */
static void
link_dial_failed(Sbd *sbd, const char *why)
{
	if (g_strcmp0(why, last_dial_error) != 0)
		sbd_log(BS_LOG_WARNING, NULL, "cannot reach mbatchd: %s", why);
	g_free(last_dial_error);
	last_dial_error = g_strdup(why);
	schedule_reconnect(sbd);
}

/* mbatchd's Unix socket, where mbatchd puts it: $LSB_SHAREDIR/mbatchd.sock
 * (LSB_SHAREDIR defaults to $LSF_ENVDIR/work). */
static char *
master_socket(Sbd *sbd)
{
	if (sbd->cfg->lsf->lsb_sharedir != NULL)
		return g_build_filename(sbd->cfg->lsf->lsb_sharedir,
		    "mbatchd.sock", NULL);
	return g_build_filename(sbd->cfg->envdir, "work", "mbatchd.sock", NULL);
}

static void
link_connect(Sbd *sbd)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *addr = sbd_auth_enabled(sbd) ?
	    master_address(sbd, &err) : NULL;
	g_autofree char *sock = NULL;
	BsRpcDialOptions opts;
	guint16 port = 0;
	GBytes *cred = NULL;

	if (sbd_auth_enabled(sbd) &&
	    (addr == NULL || !master_port(sbd, &port, &err))) {
		link_dial_failed(sbd, err->message);
		return;
	}
	bs_rpc_dial_options_init(&opts);
	opts.host = addr;
	opts.port = port;
	opts.role = BASALT__ROLE__ROLE_EXEC_HOST;
	opts.name = sbd->host;
	opts.serve = &sbd_exec_service.base;
	opts.limits.hello_timeout_ms = 10000;
	if (sbd_auth_enabled(sbd)) {
		/* A fresh credential (and nonce) per dial: munged refuses a
		 * credential decoded twice. */
		cred = sbd_auth_dial(sbd, &opts, &err);
		if (cred == NULL) {
			link_dial_failed(sbd, err->message);
			return;
		}
	} else {
		/* No MUNGE: the master is on this host, behind its socket. */
		sock = master_socket(sbd);
		opts.host = NULL;
		opts.unix_path = sock;
	}
	link_gen++;
	sbd->conn = bs_rpc_dial(&opts, NULL, on_ready, on_closed, sbd, &err);
	if (sbd->conn == NULL) {
		sbd_log(BS_LOG_WARNING, NULL, "cannot dial mbatchd at %s: %s",
		    sock != NULL ? sock : addr, err->message);
		schedule_reconnect(sbd);
	}
	if (cred != NULL)
		g_bytes_unref(cred);
}

void
sbd_link_start(Sbd *sbd)
{
	link_sbd = sbd;
	sbd->backoff_ms = BACKOFF_MIN_MS;
	if (sbd_auth_enabled(sbd))
		sbd_log(BS_LOG_NOTICE, NULL, "MUNGE authentication on: the link "
		    "to mbatchd goes over TCP and the master must prove it is "
		    "root or an LSF administrator");
	else
		sbd_log(BS_LOG_NOTICE, NULL, "no MUNGE configured (LSF_AUTH=munge "
		    "is not set in lsf.conf): this is a one-host cluster; "
		    "mbatchd is reached on its local Unix socket only");
	link_connect(sbd);
}

void
sbd_link_stop(Sbd *sbd)
{
	BsRpcConn *conn = sbd->conn;

	g_clear_handle_id(&sbd->reconnect_src, g_source_remove);
	sbd->conn = NULL;
	link_down(sbd);
	if (conn != NULL) {
		bs_rpc_conn_close(conn, "sbatchd is shutting down");
		bs_rpc_conn_unref(conn);
	}
	g_clear_pointer(&last_dial_error, g_free);
	link_sbd = NULL;
}
