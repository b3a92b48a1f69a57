/*
 * sbatchd as a program: the real daemon, run from the build tree as a
 * virtual host (-f -N vhost1 -S dir) against a fake mbatchd in this test
 * process.
 *
 * The fake master is an rpc server on 127.0.0.1:0 that implements
 * HostService (recording every RegisterHost, Heartbeat and Report, and
 * acknowledging reports) and calls ExecService back on the host's
 * connection, as mbatchd does.  Without LSF_AUTH in lsf.conf sbatchd dials
 * the master's Unix socket, $LSB_SHAREDIR/mbatchd.sock, where the fake
 * listens (and on 127.0.0.1:0, its port in $LSB_SHAREDIR/mbatchd.port);
 * a test can stop the master and start another.  The test process is a subreaper (the shared fixture's reaper), so
 * jobs orphaned by a killed sbatchd come back here and are reaped.  Every
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
#include "tap.h"

#define HOST "vhost1"
#define WAIT_MS 8000

typedef struct {
	guint64 seq;
	guint64 job_id;
	int state;
	int pgid;
	int exit_status;
	int term_signal;
	guint32 instance;
	char *reason;
	guint n_registered;       /* registrations seen before this report */
} Rep;

typedef struct {
	BsRpcServer *srv;
	guint16 port;
	BsRpcConn *conn;          /* the host's link */
	GPtrArray *registers;     /* Basalt__RegisterRequest* copies */
	guint heartbeats;
	Basalt__HeartbeatRequest *last_hb;
	GArray *reports;          /* Rep */
	GArray *forget;           /* guint64 */
} Master;

static Master *M;
static char *conf_dir, *share_dir, *state_dir, *log_path;
static pid_t sbd_pid;
static gboolean sbd_exited;
static int sbd_wstatus;

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

static void
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

static void
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
static ProtobufCMessage *
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

static void
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
static pid_t
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

static pid_t
start_job(guint64 id, const char *command, guint64 runlimit_s)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;

	start_req_init(&req, &spec, id, command);
	req.runlimit_s = runlimit_s;
	return start_job_full(&req);
}

/* SignalJob; returns the error message (g_free) or NULL. */
static char *
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

static const Rep *
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
static Rep
wait_report_nth(guint64 job_id, int state, guint nth)
{
	RepWait w = { job_id, state, nth };

	ck_assert_msg(sbd_run_until(has_report, &w, WAIT_MS),
	    "no report #%u of state %d for job %" G_GUINT64_FORMAT, nth, state, job_id);
	return *find_report(job_id, state, nth);
}

static Rep
wait_report(guint64 job_id, int state)
{
	return wait_report_nth(job_id, state, 0);
}

static gboolean
n_registered(gpointer data)
{
	return M->registers->len >= GPOINTER_TO_UINT(data);
}

static Basalt__RegisterRequest *
wait_registered(guint n)
{
	ck_assert_msg(sbd_run_until(n_registered, GUINT_TO_POINTER(n), WAIT_MS),
	    "sbatchd did not register %u times", n);
	return M->registers->pdata[n - 1];
}

static gboolean
n_heartbeats(gpointer data)
{
	return M->heartbeats >= GPOINTER_TO_UINT(data);
}

static gboolean
group_gone(gpointer data)
{
	return !bs_proc_group_alive(GPOINTER_TO_INT(data));
}

static gboolean
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

static void
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

static void
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

static void
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

static void
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
static void
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

/* ---- tests ---- */

START_TEST(test_register_and_heartbeat)
{
	Basalt__RegisterRequest *reg;

	start_sbd();
	reg = wait_registered(1);
	ck_assert_str_eq(reg->host_name, HOST);
	ck_assert_uint_eq(reg->ncpus, (guint)sysconf(_SC_NPROCESSORS_ONLN));
	ck_assert_uint_gt(reg->mem_kb, 0);
	ck_assert_int_gt(reg->boot_time, 0);
	ck_assert_uint_eq(reg->n_jobs, 0);
	ck_assert_msg(sbd_run_until(n_heartbeats, GUINT_TO_POINTER(2), WAIT_MS),
	    "only %u heartbeats", M->heartbeats);
	ck_assert_uint_ge(M->heartbeats, 2);
	ck_assert_str_eq(M->last_hb->host_name, HOST);
	ck_assert_ptr_nonnull(M->last_hb->load);
	ck_assert_uint_gt(M->last_hb->load->mem_free_kb, 0);
}
END_TEST

START_TEST(test_exit_code_and_output)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	Rep run, end;
	pid_t pgid;
	g_autofree char *out = sbd_path("out.101");
	g_autofree char *text = NULL;

	start_sbd();
	start_req_init(&req, &spec, 101, "echo hi; exit 3");
	spec.stdout_path = (char *)"out.%J";
	pgid = start_job_full(&req);
	run = wait_report(101, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_int_eq(run.pgid, pgid);
	end = wait_report(101, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_int_eq(end.exit_status, 3);
	ck_assert_int_eq(end.term_signal, 0);
	ck_assert_uint_gt(end.seq, run.seq);
	text = sbd_slurp(out);
	ck_assert_str_eq(text, "hi\n");
	/* Acknowledged: the job's state file goes. */
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_peek_default_output)
{
	Basalt__PeekJobRequest req = BASALT__PEEK_JOB_REQUEST__INIT;
	Basalt__PeekReply *r;
	g_autofree char *spool = NULL;
	pid_t pgid;

	start_sbd();
	pgid = start_job(102, "echo hello; exec sleep 100", 0);
	spool = g_build_filename(state_dir, "output", "102.0.out", NULL);
	ck_assert_msg(sbd_wait_file(spool, "hello\n", WAIT_MS), "no spooled output");
	req.job_id = 102;
	r = (Basalt__PeekReply *)exec_call("PeekJob", &req.base);
	ck_assert_ptr_null(r->error);
	ck_assert_uint_eq(r->stdout_data.len, 6);
	ck_assert(memcmp(r->stdout_data.data, "hello\n", 6) == 0);
	ck_assert_uint_eq(r->next_offset, 6);
	ck_assert(!r->finished);
	basalt__peek_reply__free_unpacked(r, NULL);
	req.offset = 6;
	r = (Basalt__PeekReply *)exec_call("PeekJob", &req.base);
	ck_assert_uint_eq(r->stdout_data.len, 0);
	basalt__peek_reply__free_unpacked(r, NULL);
	ck_assert_ptr_null(signal_job(102, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE));
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
}
END_TEST

START_TEST(test_suspend_resume_terminate)
{
	Rep end;
	pid_t pgid;

	start_sbd();
	pgid = start_job(201, "sleep 100 & sleep 100; wait", 0);
	wait_report(201, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert(sbd_wait_group_state(pgid, 'S', 3, WAIT_MS));
	ck_assert_ptr_null(signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND));
	ck_assert_msg(sbd_wait_group_state(pgid, 'T', 3, WAIT_MS), "not stopped");
	wait_report(201, BASALT__JOB_STATE__JOB_STATE_USUSP);
	ck_assert_ptr_null(signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_RESUME));
	ck_assert_msg(sbd_wait_group_state(pgid, 'S', 3, WAIT_MS), "not resumed");
	wait_report_nth(201, BASALT__JOB_STATE__JOB_STATE_RUN, 1);
	ck_assert_ptr_null(signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE));
	end = wait_report(201, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_msg(end.term_signal == SIGINT || end.exit_status == 128 + SIGINT,
	    "exit %d signal %d", end.exit_status, end.term_signal);
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
	/* A job that is gone is no longer known. */
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
	g_autofree char *msg = signal_job(201, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND);
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "not found") != NULL, "%s", msg);
}
END_TEST

START_TEST(test_runlimit)
{
	Rep end;
	pid_t pgid;

	start_sbd();
	pgid = start_job(301, "sleep 100", 1);
	end = wait_report(301, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_str_eq(end.reason, "RUNLIMIT was reached;");
	ck_assert_int_ne(end.exit_status, 0);
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
}
END_TEST

#define WAIT_GO(code) "while [ ! -e go ]; do sleep 0.05; done; " code

START_TEST(test_master_restart)
{
	Basalt__RegisterRequest *reg;
	Rep a, b;
	pid_t pa, pb;
	g_autofree char *go = sbd_path("go");

	start_sbd();
	pa = start_job(401, WAIT_GO("exit 4"), 0);
	pb = start_job(402, WAIT_GO("exit 5"), 0);
	wait_report(401, BASALT__JOB_STATE__JOB_STATE_RUN);
	wait_report(402, BASALT__JOB_STATE__JOB_STATE_RUN);
	master_stop();
	ck_assert(bs_proc_group_alive(pa) && bs_proc_group_alive(pb));
	sbd_write(go, "");
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pa), WAIT_MS));
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pb), WAIT_MS));
	master_start();
	reg = wait_registered(1);
	ck_assert_uint_eq(reg->n_jobs, 2);
	for (size_t i = 0; i < reg->n_jobs; i++)
		ck_assert_int_eq(reg->jobs[i]->state, BASALT__JOB_STATE__JOB_STATE_EXIT);
	a = wait_report(401, BASALT__JOB_STATE__JOB_STATE_EXIT);
	b = wait_report(402, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_int_eq(a.exit_status, 4);
	ck_assert_int_eq(b.exit_status, 5);
	ck_assert_uint_eq(a.n_registered, 1);
	ck_assert_uint_eq(b.n_registered, 1);
	/* The spool came in seq order.  A RUN report whose ack the old master
	 * never sent (it closed with the reply queued) comes again first. */
	for (guint i = 1; i < M->reports->len; i++)
		ck_assert_uint_lt(g_array_index(M->reports, Rep, i - 1).seq,
		    g_array_index(M->reports, Rep, i).seq);
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_sbatchd_restart)
{
	Basalt__RegisterRequest *reg;
	Rep end;
	pid_t pgid;
	g_autofree char *go = sbd_path("go");
	g_autofree char *count = sbd_path("count");
	g_autofree char *text = NULL;

	start_sbd();
	pgid = start_job(501, WAIT_GO("echo ran >> count; exit 6"), 0);
	wait_report(501, BASALT__JOB_STATE__JOB_STATE_RUN);
	stop_sbd();
	ck_assert(sbd_exited);
	ck_assert_msg(WIFEXITED(sbd_wstatus) && WEXITSTATUS(sbd_wstatus) == 0,
	    "sbatchd status %d", sbd_wstatus);
	ck_assert_msg(bs_proc_group_alive(pgid), "the job died with sbatchd");
	start_sbd();
	reg = wait_registered(2);
	ck_assert_uint_eq(reg->n_jobs, 1);
	ck_assert_uint_eq(reg->jobs[0]->job_id, 501);
	ck_assert_int_eq(reg->jobs[0]->state, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_int_eq(reg->jobs[0]->pgid, pgid);
	sbd_write(go, "");
	end = wait_report(501, BASALT__JOB_STATE__JOB_STATE_EXIT);
	ck_assert_int_eq(end.exit_status, 6);
	text = sbd_slurp(count);
	ck_assert_str_eq(text, "ran\n");
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_forget_kills)
{
	guint64 id = 601;
	pid_t pgid;

	start_sbd();
	pgid = start_job(id, "sleep 100", 0);
	wait_report(id, BASALT__JOB_STATE__JOB_STATE_RUN);
	g_array_append_val(M->forget, id);
	bs_rpc_conn_close(M->conn, "test: master forgets job 601");
	wait_registered(2);
	ck_assert_msg(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS),
	    "the forgotten job still runs");
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
	ck_assert_ptr_null(find_report(id, BASALT__JOB_STATE__JOB_STATE_EXIT, 0));
}
END_TEST

/* SignalJob for one run (instance) of a job; the error message or NULL. */
static char *
signal_run(guint64 id, guint32 instance, Basalt__ExecAction action)
{
	Basalt__SignalJobRequest req = BASALT__SIGNAL_JOB_REQUEST__INIT;
	Basalt__SignalJobReply *r;
	char *msg = NULL;

	req.job_id = id;
	req.instance = instance;
	req.action = action;
	r = (Basalt__SignalJobReply *)exec_call("SignalJob", &req.base);
	if (r->error != NULL && r->error->code != 0)
		msg = g_strdup(r->error->message);
	basalt__signal_job_reply__free_unpacked(r, NULL);
	return msg;
}

/*
 * Runs of one job are kept apart by their instance (issue 11, the ghost):
 * a repeated start order gets the same run; a new instance starts a new
 * run even while the old one, forgotten, is still being killed; the old
 * run's death is never reported, the new run's end is, with its instance.
 */
START_TEST(test_instances_kept_apart)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	guint64 id = 901;
	pid_t old_pgid, again, new_pgid;
	Rep run, done;
	g_autofree char *err = NULL;

	start_sbd();
	/* The old run shrugs off SIGINT and SIGTERM: it dies only at the
	 * end of the TERMINATE sequence (2 s with the 1 s interval). */
	start_req_init(&req, &spec, id, "trap '' INT TERM; sleep 100; sleep 100");
	req.instance = 1;
	old_pgid = start_job_full(&req);
	run = wait_report(id, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_uint_eq(run.instance, 1);
	again = start_job_full(&req);
	ck_assert_int_eq(again, old_pgid);
	ck_assert_uint_eq(M->reports->len, 1);

	/* mbatchd forgot run 1 and starts run 2 of the same job at once. */
	ck_assert_ptr_null(signal_run(id, 1, BASALT__EXEC_ACTION__EXEC_ACTION_FORGET));
	start_req_init(&req, &spec, id, "exit 0");
	req.instance = 2;
	new_pgid = start_job_full(&req);
	ck_assert_int_ne(new_pgid, old_pgid);
	ck_assert_msg(bs_proc_group_alive(old_pgid), "the old run died too soon "
	    "for this test to mean anything");
	done = wait_report(id, BASALT__JOB_STATE__JOB_STATE_DONE);
	ck_assert_uint_eq(done.instance, 2);
	ck_assert_int_eq(done.pgid, new_pgid);
	/* An order for the old run does not reach the new one, and back. */
	err = signal_run(id, 3, BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(sbd_run_until(group_gone, GINT_TO_POINTER(old_pgid), WAIT_MS),
	    "the forgotten run still runs");
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
	/* Run 1 said only that it ran; everything after is run 2's. */
	for (guint i = 1; i < M->reports->len; i++)
		ck_assert_uint_eq(g_array_index(M->reports, Rep, i).instance, 2);
}
END_TEST

/* The seq counter survives an empty spool; a torn last record is cut. */
START_TEST(test_seq_persists_torn_spool_cut)
{
	g_autofree char *seq = g_build_filename(state_dir, "seq", NULL);
	g_autofree char *spool = g_build_filename(state_dir, "reports", NULL);
	Rep run;

	ck_assert_int_eq(g_mkdir(state_dir, 0711), 0);
	sbd_write(seq, "41\n");
	ck_assert(g_file_set_contents(spool, "\0\0\0\x09torn", 8, NULL));
	start_sbd();
	wait_registered(1);
	start_job(801, "true", 0);
	run = wait_report(801, BASALT__JOB_STATE__JOB_STATE_RUN);
	ck_assert_uint_eq(run.seq, 42);
	wait_report(801, BASALT__JOB_STATE__JOB_STATE_DONE);
	ck_assert(sbd_run_until(no_job_files, NULL, WAIT_MS));
}
END_TEST

START_TEST(test_refusals)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	Basalt__StartJobReply *r;

	write_conf(FALSE);
	start_sbd();
	start_req_init(&req, &spec, 701, "true");
	req.user = (char *)"root";
	req.uid = 0;
	req.gid = 0;
	r = (Basalt__StartJobReply *)exec_call("StartJob", &req.base);
	ck_assert_ptr_nonnull(r->error);
	ck_assert_int_eq(r->error->code, BASALT__ERROR_CODE__ERROR_CODE_PERMISSION);
	ck_assert_msg(strstr(r->error->message, "root jobs are not allowed on host "
	    HOST) != NULL, "%s", r->error->message);
	basalt__start_job_reply__free_unpacked(r, NULL);
	if (getuid() != 0) {
		start_req_init(&req, &spec, 702, "true");
		spec.cwd = (char *)"/nonexistent/dir";
		r = (Basalt__StartJobReply *)exec_call("StartJob", &req.base);
		ck_assert_ptr_nonnull(r->error);
		ck_assert_msg(strstr(r->error->message, "/nonexistent/dir") != NULL, "%s",
		    r->error->message);
		basalt__start_job_reply__free_unpacked(r, NULL);
	}
	ck_assert_uint_eq(M->reports->len, 0);
}
END_TEST

/* A start order names a user; everything else about the identity is this
 * host's: a gid or uid in the order cannot change what the job runs as. */
static char *
start_refused(Basalt__StartJobRequest *req)
{
	Basalt__StartJobReply *r = (Basalt__StartJobReply *)exec_call("StartJob", &req->base);
	char *msg;

	ck_assert_msg(r->error != NULL, "job %" G_GUINT64_FORMAT " was started",
	    req->job_id);
	ck_assert_int_eq(r->error->code, BASALT__ERROR_CODE__ERROR_CODE_PERMISSION);
	msg = g_strdup(r->error->message);
	basalt__start_job_reply__free_unpacked(r, NULL);
	return msg;
}

START_TEST(test_identity_from_passwd)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	struct passwd *pw = getpwnam("nobody");
	g_autofree char *dir = sbd_path("ids");
	g_autofree char *out = sbd_path("ids/out");
	g_autofree char *text = NULL;
	g_autofree char *want = NULL;
	g_autofree char *msg = NULL;
	uid_t nobody;
	gid_t nobody_gid;

	if (getuid() != 0 || pw == NULL)
		return;               /* needs root and a user nobody */
	nobody = pw->pw_uid;
	nobody_gid = pw->pw_gid;
	ck_assert_int_eq(chmod(sbd_dir, 0711), 0);
	ck_assert_int_eq(g_mkdir(dir, 0777), 0);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	start_sbd();

	/* gid 42 (shadow on Debian) in the order: the job gets nobody's gid
	 * and groups from this host, and 42 in neither. */
	start_req_init(&req, &spec, 901, "id -u; id -g; id -G; echo end");
	req.user = (char *)"nobody";
	req.uid = nobody;
	req.gid = 42;
	spec.cwd = dir;
	spec.stdout_path = out;
	start_job_full(&req);
	wait_report(901, BASALT__JOB_STATE__JOB_STATE_DONE);
	text = sbd_slurp(out);
	want = g_strdup_printf("%u\n%u\n", (unsigned)nobody, (unsigned)nobody_gid);
	ck_assert_msg(g_str_has_prefix(text, want), "job ran as: %s", text);
	ck_assert_msg(strstr(text, " 42 ") == NULL && strstr(text, "\n42\n") == NULL &&
	    strstr(text, " 42\n") == NULL && strstr(text, "\n42 ") == NULL,
	    "gid 42 reached the job: %s", text);

	/* A uid that is not the user's here: refused, nothing runs. */
	start_req_init(&req, &spec, 902, "touch ran");
	req.user = (char *)"nobody";
	req.uid = nobody - 1;
	msg = start_refused(&req);
	ck_assert_msg(strstr(msg, "User account <nobody> has uid") != NULL, "%s", msg);
	g_free(msg);

	/* Root's uid under another name: refused too. */
	start_req_init(&req, &spec, 903, "touch ran");
	req.user = (char *)"nobody";
	req.uid = 0;
	req.gid = 0;
	msg = start_refused(&req);
	ck_assert_msg(strstr(msg, "has uid") != NULL, "%s", msg);
	g_free(msg);

	/* A user this host does not know, and a name with a newline (which
	 * must not reach the log as a second line). */
	start_req_init(&req, &spec, 904, "touch ran");
	req.user = (char *)"nosuchuser\nforged: line";
	msg = start_refused(&req);
	ck_assert_msg(strstr(msg, "User account <nosuchuser\\nforged: line> does not "
	    "exist on execution host " HOST) != NULL, "%s", msg);
	g_free(msg);
	msg = sbd_path("ran");
	ck_assert(!g_file_test(msg, G_FILE_TEST_EXISTS));
}
END_TEST

/* bpeek reads what the job's user could, from a regular file, without
 * blocking the daemon: a symlink put where the output was is refused, and
 * a FIFO there neither blocks sbatchd nor answers. */
static Basalt__PeekReply *
peek(guint64 id)
{
	Basalt__PeekJobRequest req = BASALT__PEEK_JOB_REQUEST__INIT;

	req.job_id = id;
	return (Basalt__PeekReply *)exec_call("PeekJob", &req.base);
}

START_TEST(test_peek_symlink_fifo)
{
	Basalt__StartJobRequest req;
	Basalt__JobSpec spec;
	Basalt__PeekReply *r;
	g_autofree char *out = sbd_path("p905");
	g_autofree char *secret = sbd_path("secret");
	pid_t pgid;

	start_sbd();
	sbd_write(secret, "root:SECRET-HASH\n");
	start_req_init(&req, &spec, 905, "echo hello; exec sleep 100");
	spec.stdout_path = out;
	pgid = start_job_full(&req);
	ck_assert_msg(sbd_wait_file(out, "hello\n", WAIT_MS), "no output");
	r = peek(905);
	ck_assert_ptr_null(r->error);
	ck_assert_uint_eq(r->stdout_data.len, 6);
	basalt__peek_reply__free_unpacked(r, NULL);

	ck_assert_int_eq(g_unlink(out), 0);
	ck_assert_int_eq(symlink(secret, out), 0);
	r = peek(905);
	ck_assert_msg(r->error != NULL, "a symlink was followed: %.*s",
	    (int)r->stdout_data.len, (char *)r->stdout_data.data);
	ck_assert_msg(strstr(r->error->message, "symbolic link") != NULL, "%s",
	    r->error->message);
	basalt__peek_reply__free_unpacked(r, NULL);

	ck_assert_int_eq(g_unlink(out), 0);
	ck_assert_int_eq(mkfifo(out, 0600), 0);
	r = peek(905);
	ck_assert_ptr_nonnull(r->error);
	ck_assert_msg(strstr(r->error->message, "not a regular file") != NULL, "%s",
	    r->error->message);
	basalt__peek_reply__free_unpacked(r, NULL);
	/* The daemon still answers. */
	ck_assert_ptr_null(signal_job(905, BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE));
	ck_assert(sbd_run_until(group_gone, GINT_TO_POINTER(pgid), WAIT_MS));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_daemon");
	TCase *tc = tcase_create("daemon");

	tcase_add_unchecked_fixture(tc, sbd_guard_setup, sbd_guard_teardown);
	tcase_add_checked_fixture(tc, daemon_setup, daemon_teardown);
	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, test_register_and_heartbeat);
	tcase_add_test(tc, test_exit_code_and_output);
	tcase_add_test(tc, test_peek_default_output);
	tcase_add_test(tc, test_suspend_resume_terminate);
	tcase_add_test(tc, test_runlimit);
	tcase_add_test(tc, test_master_restart);
	tcase_add_test(tc, test_sbatchd_restart);
	tcase_add_test(tc, test_forget_kills);
	tcase_add_test(tc, test_instances_kept_apart);
	tcase_add_test(tc, test_seq_persists_torn_spool_cut);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_identity_from_passwd);
	tcase_add_test(tc, test_peek_symlink_fifo);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
