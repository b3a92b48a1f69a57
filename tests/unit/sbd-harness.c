/*
 * The fixture of check_sbd_daemon (sbd-harness.h): the real sbatchd, run
 * from the build tree as a virtual host (-f -N vhost1 -S dir) against a
 * fake mbatchd in this test process.
 *
 * The fake master is an rpc server on 127.0.0.1:0 that implements
 * HostService (recording every RegisterHost, Heartbeat and Report, and
 * acknowledging reports) and calls ExecService back on the host's
 * connection, as mbatchd does.  Without LSF_AUTH in lsf.conf sbatchd dials
 * the master's Unix socket, $LSB_SHAREDIR/mbatchd.sock, where the fake
 * listens (and on 127.0.0.1:0, its port in $LSB_SHAREDIR/mbatchd.port);
 * a test can stop the master and start another.  The test process is a
 * subreaper (the shared fixture's reaper), so jobs orphaned by a killed sbatchd come back here and are reaped.  Every
 * wait has a deadline; sbatchd and every job are killed by pid/pgid.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "batch.pb-c.h"
#include "host.pb-c.h"
#include "rpc/rpc.h"
#include "util/log.h"

#include "check_sbd_common.h"
#include "sbd-harness.h"
Master *M;
char *state_dir;
static char *conf_dir, *share_dir, *log_path;
static pid_t sbd_pid;
gboolean sbd_exited;
int sbd_wstatus;

static ProtobufCMessage *
copy_msg(const ProtobufCMessage *m)
{
	gsize len = protobuf_c_message_get_packed_size(m);
	g_autofree guint8 *buf = g_malloc(len + 1);

	protobuf_c_message_pack(m, buf);
	return protobuf_c_message_unpack(m->descriptor, NULL, len, buf);
}

/* ---- the fake master ---- */

static void
m_register(Basalt__HostService_Service *svc, const Basalt__RegisterRequest *in,
    Basalt__RegisterReply_Closure closure, void *data)
{
	Basalt__RegisterReply r = BASALT__REGISTER_REPLY__INIT;

	g_ptr_array_add(M->registers, copy_msg(&in->base));
	r.heartbeat_interval_s = 1;
	r.job_terminate_interval_s = 1;
	r.cluster_name = (char *)"test";
	r.n_forget_job_ids = M->forget->len;
	r.forget_job_ids = (uint64_t *)(void *)M->forget->data;
	closure(&r, data);
}

static void
m_heartbeat(Basalt__HostService_Service *svc, const Basalt__HeartbeatRequest *in,
    Basalt__HeartbeatReply_Closure closure, void *data)
{
	Basalt__HeartbeatReply r = BASALT__HEARTBEAT_REPLY__INIT;

	M->heartbeats++;
	if (M->last_hb != NULL)
		protobuf_c_message_free_unpacked(&M->last_hb->base, NULL);
	M->last_hb = (Basalt__HeartbeatRequest *)copy_msg(&in->base);
	closure(&r, data);
}

static void
m_report(Basalt__HostService_Service *svc, const Basalt__JobReport *in,
    Basalt__JobReportReply_Closure closure, void *data)
{
	Basalt__JobReportReply r = BASALT__JOB_REPORT_REPLY__INIT;
	Rep rep = { 0 };

	rep.seq = in->seq;
	ck_assert_ptr_nonnull(in->job);
	rep.job_id = in->job->job_id;
	rep.state = in->job->state;
	rep.pgid = in->job->pgid;
	rep.exit_status = in->job->exit_status;
	rep.term_signal = in->job->term_signal;
	rep.instance = in->job->instance;
	rep.reason = g_strdup(in->reason);
	rep.n_registered = M->registers->len;
	g_array_append_val(M->reports, rep);
	r.acked_seq = in->seq;
	closure(&r, data);
}

static Basalt__HostService_Service host_service = {
	.base = BASALT__HOST_SERVICE__BASE_INIT,
	.register_host = m_register,
	.heartbeat = m_heartbeat,
	.report = m_report,
};

static void
m_ready(BsRpcConn *conn, void *data)
{
	if (bs_rpc_conn_peer(conn)->role != BASALT__ROLE__ROLE_EXEC_HOST)
		return;
	ck_assert_str_eq(bs_rpc_conn_peer(conn)->name, HOST);
	g_clear_pointer(&M->conn, bs_rpc_conn_unref);
	M->conn = bs_rpc_conn_ref(conn);
}

static void
m_closed(BsRpcConn *conn, const char *reason, void *data)
{
	if (M != NULL && conn == M->conn)
		g_clear_pointer(&M->conn, bs_rpc_conn_unref);
}

static void
write_port(guint16 port)
{
	g_autofree char *path = g_build_filename(share_dir, "mbatchd.port", NULL);
	g_autofree char *text = g_strdup_printf("%u\n", port);

	sbd_write(path, text);
}

void
master_start(void)
{
	BsRpcServerOptions opts;
	g_autoptr(GError) err = NULL;
	g_autofree char *sock = NULL;

	M = g_new0(Master, 1);
	M->registers = g_ptr_array_new();
	M->reports = g_array_new(FALSE, TRUE, sizeof(Rep));
	M->forget = g_array_new(FALSE, TRUE, sizeof(guint64));
	bs_rpc_server_options_init(&opts);
	opts.server_name = "fakembd";
	opts.allow_unauthenticated_tcp = TRUE;
	M->srv = bs_rpc_server_new(&opts, NULL);
	bs_rpc_server_register(M->srv, BASALT__ROLE__ROLE_EXEC_HOST, &host_service.base);
	bs_rpc_server_set_callbacks(M->srv, m_ready, m_closed, NULL);
	ck_assert_msg(bs_rpc_server_listen_tcp(M->srv, "127.0.0.1", 0, &M->port, &err),
	    "%s", err ? err->message : "");
	write_port(M->port);
	/* No LSF_AUTH in this lsf.conf: sbatchd dials the master's socket. */
	sock = g_build_filename(share_dir, "mbatchd.sock", NULL);
	ck_assert_msg(bs_rpc_server_listen_unix(M->srv, sock, &err), "%s",
	    err ? err->message : "");
}

void
master_stop(void)
{
	if (M == NULL)
		return;
	g_clear_pointer(&M->conn, bs_rpc_conn_unref);
	bs_rpc_server_free(M->srv);
	for (guint i = 0; i < M->registers->len; i++)
		protobuf_c_message_free_unpacked(M->registers->pdata[i], NULL);
	g_ptr_array_free(M->registers, TRUE);
	for (guint i = 0; i < M->reports->len; i++)
		g_free(g_array_index(M->reports, Rep, i).reason);
	g_array_free(M->reports, TRUE);
	g_array_free(M->forget, TRUE);
	if (M->last_hb != NULL)
		protobuf_c_message_free_unpacked(&M->last_hb->base, NULL);
	g_clear_pointer(&M, g_free);
}

/* ---- calling the host (ExecService) ---- */

typedef struct {
	gboolean done;
	Basalt__RpcStatus status;
	ProtobufCMessage *reply;
} CallWait;

static void
exec_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	CallWait *w = data;

	w->status = status;
	w->reply = reply != NULL ? copy_msg(reply) : NULL;
	w->done = TRUE;
}

static gboolean
call_done(gpointer data)
{
	return ((CallWait *)data)->done;
}

static gboolean
connected(gpointer data)
{
	return M->conn != NULL && M->registers->len > 0;
}

/* Call an ExecService method and return its reply (caller frees). */
ProtobufCMessage *
exec_call(const char *name, const ProtobufCMessage *req)
{
	const ProtobufCServiceDescriptor *d = &basalt__exec_service__descriptor;
	const ProtobufCMethodDescriptor *m = protobuf_c_service_descriptor_get_method_by_name(d, name);
	g_autoptr(GError) err = NULL;
	CallWait w = { 0 };

	ck_assert_msg(sbd_run_until(connected, NULL, WAIT_MS), "sbatchd never connected");
	ck_assert_msg(bs_rpc_conn_call(M->conn, d, (guint)(m - d->methods), req, 5000,
	    exec_replied, &w, &err), "%s", err ? err->message : "");
	ck_assert_msg(sbd_run_until(call_done, &w, WAIT_MS), "%s: no reply", name);
	ck_assert_msg(w.status == BASALT__RPC_STATUS__RPC_STATUS_OK, "%s: status %d",
	    name, w.status);
	return w.reply;
}

static char *job_env[] = { "PATH=/usr/bin:/bin", "HOME=/", "LANG=C" };
static char *lsb_env[] = { "LSB_QUEUE=normal" };

void
start_req_init(Basalt__StartJobRequest *req, Basalt__JobSpec *spec, guint64 id,
    const char *command)
{
	basalt__start_job_request__init(req);
	basalt__job_spec__init(spec);
	req->job_id = id;
	req->user = (char *)g_get_user_name();
	req->uid = getuid();
	req->gid = getgid();
	req->spec = spec;
	req->n_env = G_N_ELEMENTS(lsb_env);
	req->env = lsb_env;
	spec->command = (char *)command;
	spec->cwd = sbd_dir;
	spec->n_env = G_N_ELEMENTS(job_env);
	spec->env = job_env;
}

/* Start a job; returns its pgid (registered for cleanup), or fails. */
pid_t
start_job_full(Basalt__StartJobRequest *req)
{
	Basalt__StartJobReply *r = (Basalt__StartJobReply *)exec_call("StartJob", &req->base);
	pid_t pgid = r->pgid;

	ck_assert_msg(r->error == NULL || r->error->code == 0, "StartJob: %s",
	    r->error ? r->error->message : "");
	ck_assert_int_gt(pgid, 1);
	sbd_register(pgid);
	basalt__start_job_reply__free_unpacked(r, NULL);
	return pgid;
}

pid_t
start_job(guint64 id, const char *command, guint64 runlimit_s)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;

	start_req_init(&req, &spec, id, command);
	req.runlimit_s = runlimit_s;
	return start_job_full(&req);
}

/* SignalJob; returns the error message (g_free) or NULL. */
char *
signal_job(guint64 id, Basalt__ExecAction action)
{
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	Basalt__SignalJobReply *r;
	char *msg = NULL;

	req.job_id = id;
	req.action = action;
	r = (Basalt__SignalJobReply *)exec_call("SignalJob", &req.base);
	if (r->error != NULL && r->error->code != 0)
		msg = g_strdup(r->error->message);
	basalt__signal_job_reply__free_unpacked(r, NULL);
	return msg;
}

/* ---- waiting for the master to hear something ---- */

typedef struct {
	guint64 job_id;
	int state;
	guint nth;
} RepWait;

const Rep *
find_report(guint64 job_id, int state, guint nth)
{
	for (guint i = 0; M != NULL && i < M->reports->len; i++) {
		const Rep *r = &g_array_index(M->reports, Rep, i);

		if (r->job_id == job_id && r->state == state && nth-- == 0)
			return r;
	}
	return NULL;
}

static gboolean
has_report(gpointer data)
{
	RepWait *w = data;

	return find_report(w->job_id, w->state, w->nth) != NULL;
}

/* A copy: the array moves as reports arrive. */
Rep
wait_report_nth(guint64 job_id, int state, guint nth)
{
	RepWait w = { job_id, state, nth };

	ck_assert_msg(sbd_run_until(has_report, &w, WAIT_MS),
	    "no report #%u of state %d for job %" G_GUINT64_FORMAT, nth, state, job_id);
	return *find_report(job_id, state, nth);
}

Rep
wait_report(guint64 job_id, int state)
{
	return wait_report_nth(job_id, state, 0);
}

gboolean
n_registered(gpointer data)
{
	return M->registers->len >= GPOINTER_TO_UINT(data);
}

Basalt__RegisterRequest *
wait_registered(guint n)
{
	ck_assert_msg(sbd_run_until(n_registered, GUINT_TO_POINTER(n), WAIT_MS),
	    "sbatchd did not register %u times", n);
	return M->registers->pdata[n - 1];
}

gboolean
n_heartbeats(gpointer data)
{
	return M->heartbeats >= GPOINTER_TO_UINT(data);
}

gboolean
group_gone(gpointer data)
{
	return !bs_proc_group_alive(GPOINTER_TO_INT(data));
}

gboolean
no_job_files(gpointer data)
{
	g_autofree char *jobs = g_build_filename(state_dir, "jobs", NULL);
	GDir *d = g_dir_open(jobs, 0, NULL);
	const char *name;
	gboolean none = TRUE;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL)
		none = none && !g_str_has_suffix(name, ".job");
	if (d != NULL)
		g_dir_close(d);
	return none;
}

/* ---- the daemon ---- */

void
write_conf(gboolean allow_root)
{
	g_autofree char *lsf = g_build_filename(conf_dir, "lsf.conf", NULL);
	g_autofree char *shared = g_build_filename(conf_dir, "lsf.shared", NULL);
	g_autofree char *cluster = g_build_filename(conf_dir, "lsf.cluster.test", NULL);
	g_autofree char *text = g_strdup_printf("LSB_SHAREDIR=%s\nLSB_MBD_PORT=0\n"
	    "LSF_MASTER_LIST=127.0.0.1\nLSF_LOG_MASK=LOG_INFO\n%s", share_dir,
	    allow_root ? "LSB_ALLOW_ROOT_JOBS=Y\n" : "");

	sbd_write(lsf, text);
	sbd_write(shared, "Begin Cluster\nClusterName Servers\ntest (" HOST ")\n"
	    "End Cluster\n");
	sbd_write(cluster, "Begin Host\nHOSTNAME model type server RESOURCES\n"
	    HOST " ! ! 1 ()\nEnd Host\n");
}

static void
on_other_child(pid_t pid, int wstatus, gpointer data)
{
	if (pid == sbd_pid) {
		sbd_exited = TRUE;
		sbd_wstatus = wstatus;
	}
}

void
start_sbd(void)
{
	pid_t pid;

	sbd_exited = FALSE;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sigset_t none;
		int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		(void)setsid();
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(BS_TEST_SBATCHD, "sbatchd", "-f", "-d", conf_dir, "-N", HOST,
		    "-S", state_dir, (char *)NULL);
		_exit(127);
	}
	sbd_pid = pid;
	sbd_register(pid);
}

static gboolean
sbd_gone(gpointer data)
{
	return sbd_exited;
}

void
stop_sbd(void)
{
	if (sbd_pid <= 0 || sbd_exited)
		return;
	kill(sbd_pid, SIGTERM);
	if (!sbd_run_until(sbd_gone, NULL, 5000)) {
		kill(sbd_pid, SIGKILL);
		(void)sbd_run_until(sbd_gone, NULL, 5000);
	}
}

void
daemon_setup(void)
{
	sbd_setup();
	bs_log_init("check_sbd_daemon", BS_LOG_WARNING);
	bs_reaper_set_other_func(sbd_reaper, on_other_child, NULL);
	conf_dir = sbd_path("conf");
	share_dir = sbd_path("share");
	state_dir = sbd_path("state");
	log_path = sbd_path("sbatchd.log");
	ck_assert_int_eq(g_mkdir(conf_dir, 0755), 0);
	ck_assert_int_eq(g_mkdir(share_dir, 0755), 0);
	sbd_pid = 0;
	master_start();
	write_conf(TRUE);
}

/* Kill what a test started: its jobs (by the pgids in the state files'
 * reports), sbatchd, the master. */
void
daemon_teardown(void)
{
	g_autofree char *log = NULL;

	stop_sbd();
	for (guint i = 0; M != NULL && i < M->reports->len; i++) {
		pid_t pgid = g_array_index(M->reports, Rep, i).pgid;
		GArray *m = pgid > 1 ? bs_jobctl_find_members(pgid) : NULL;

		if (m != NULL && m->len > 0)
			killpg(pgid, SIGKILL);
		if (m != NULL)
			g_array_free(m, TRUE);
	}
	master_stop();
	if (g_file_get_contents(log_path, &log, NULL, NULL) && getenv("SBD_TEST_LOG"))
		fprintf(stderr, "%s", log);
	g_clear_pointer(&conf_dir, g_free);
	g_clear_pointer(&share_dir, g_free);
	g_clear_pointer(&state_dir, g_free);
	g_clear_pointer(&log_path, g_free);
	sbd_teardown();
}

