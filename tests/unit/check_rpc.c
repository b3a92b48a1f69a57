/*
 * lib/rpc over real sockets: hello, calls through the generated stubs on
 * the blocking client (Unix, TCP, socketpair), deferred and missing
 * replies, the client's error messages, and symmetric calls on a dialed
 * main-loop connection.  Misbehaving peers are in check_rpc_abuse.c.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "tap.h"
#include "rpc-test.h"
#include "util/error.h"

static TestServer ts;

static void
setup(void)
{
	BsRpcServerOptions opts;

	log_capture_start();
	ts_options(&opts);
	ts_start(&ts, &opts);
}

static void
teardown(void)
{
	ts_stop(&ts);
	log_capture_stop();
}

static guint
method_index(const ProtobufCServiceDescriptor *d, const char *name)
{
	const ProtobufCMethodDescriptor *m =
	    protobuf_c_service_descriptor_get_method_by_name(d, name);

	ck_assert_ptr_nonnull(m);
	return (guint)(m - d->methods);
}

static BsClient *
connect_unix(void)
{
	GError *err = NULL;
	BsClient *c = bs_client_connect_unix(ts.path, 5000, &err);

	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	return c;
}

/* --- hello ----------------------------------------------------------- */

START_TEST(test_hello_accepted)
{
	BsClient *c = connect_unix();

	ck_assert_str_eq(bs_client_server_name(c), "testmaster");
	bs_client_free(c);
}
END_TEST

/* Send a raw hello and expect a refusal whose reason contains want. */
static void
expect_refused(const char *magic, guint32 version, int role, const char *want)
{
	int fd = raw_connect_unix(ts.path);
	Basalt__Envelope *env;
	Basalt__HelloReply *r;
	BsClient *good;

	raw_send_hello(fd, magic, version, role);
	env = raw_recv(fd, 5000);
	ck_assert_ptr_nonnull(env);
	ck_assert_int_eq(env->kind, BASALT__FRAME_KIND__FRAME_KIND_HELLO_REPLY);
	r = basalt__hello_reply__unpack(NULL, env->body.len, env->body.data);
	ck_assert(!r->accepted);
	ck_assert_msg(strstr(r->reason, want) != NULL, "reason: %s", r->reason);
	basalt__hello_reply__free_unpacked(r, NULL);
	basalt__envelope__free_unpacked(env, NULL);
	ck_assert(raw_wait_closed(fd, 5000));
	ck_assert(log_wait("hello refused:", 1, 5000));
	ck_assert_uint_ge(log_count(want), 1);
	close(fd);
	good = connect_unix();
	bs_client_free(good);
}

START_TEST(test_hello_bad_magic)
{
	expect_refused("HTTP/1.1", 1, BASALT__ROLE__ROLE_CLIENT,
	    "bad magic \"HTTP/1.1\"");
}
END_TEST

START_TEST(test_hello_bad_version)
{
	expect_refused(BS_HELLO_MAGIC, 99, BASALT__ROLE__ROLE_CLIENT,
	    "unsupported protocol version 99");
}
END_TEST

/*
 * A role the server registered no service for.  Every role of rpc.proto
 * is served by some daemon now (mbatchd serves ROLE_MASTER to the other
 * clusters, mbatchd/mc-links.c, t0930..t0932), so the stranger here says
 * a role no Basalt program has.
 */
#define UNSERVED_ROLE ((Basalt__Role)99)

START_TEST(test_hello_unserved_role)
{
	BsClientOptions opts;
	GError *err = NULL;

	expect_refused(BS_HELLO_MAGIC, 1, UNSERVED_ROLE,
	    "role UNKNOWN (99) is not served here");
	/* The blocking client reports the server's reason. */
	bs_client_options_init(&opts);
	opts.unix_path = ts.path;
	opts.role = UNSERVED_ROLE;
	ck_assert_ptr_null(bs_client_connect(&opts, &err));
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_REFUSED));
	ck_assert_msg(strstr(err->message, "server refused the connection: "
	    "role UNKNOWN (99) is not served here") != NULL, "%s",
	    err->message);
	g_error_free(err);
}
END_TEST

/* --- calls ----------------------------------------------------------- */

START_TEST(test_submit_unix)
{
	BsClient *c = connect_unix();
	char want[32], *q;
	guint64 job = 0;

	g_snprintf(want, sizeof want, "uid=%d", (int)getuid());
	q = submit_via_stub(c, &job);
	ck_assert_uint_eq(job, 42);
	ck_assert_str_eq(q, want);
	g_free(q);
	bs_client_free(c);
}
END_TEST

START_TEST(test_submit_tcp)
{
	GError *err = NULL;
	BsClient *c = bs_client_connect_tcp("127.0.0.1", ts.port, 5000, &err);
	char *q;

	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	q = submit_via_stub(c, NULL);
	ck_assert_str_eq(q, "uid=none");   /* no SO_PEERCRED on TCP */
	g_free(q);
	bs_client_free(c);
}
END_TEST

/* defer_hello: the hello goes with the first call; calls work as usual. */
START_TEST(test_submit_deferred_hello)
{
	BsClientOptions opts;
	GError *err = NULL;
	BsClient *c;
	char want[32], *q;
	guint64 job = 0;

	bs_client_options_init(&opts);
	opts.unix_path = ts.path;
	opts.timeout_ms = 5000;
	opts.defer_hello = TRUE;
	c = bs_client_connect(&opts, &err);
	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	g_snprintf(want, sizeof want, "uid=%d", (int)getuid());
	q = submit_via_stub(c, &job);
	ck_assert_uint_eq(job, 42);
	ck_assert_str_eq(q, want);
	g_free(q);
	ck_assert_str_eq(bs_client_server_name(c), "testmaster");
	/* A second call on the same connection. */
	q = submit_via_stub(c, NULL);
	ck_assert_str_eq(q, want);
	g_free(q);
	bs_client_free(c);
}
END_TEST

/* A refused deferred hello fails the first call, with the server's reason. */
START_TEST(test_deferred_hello_refused)
{
	Basalt__SubmitRequest req = BASALT__SUBMIT_REQUEST__INIT;
	ProtobufCMessage *reply = NULL;
	BsClientOptions opts;
	GError *err = NULL;
	BsClient *c;

	bs_client_options_init(&opts);
	opts.unix_path = ts.path;
	opts.timeout_ms = 5000;
	opts.role = UNSERVED_ROLE;
	opts.defer_hello = TRUE;
	c = bs_client_connect(&opts, &err);
	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	ck_assert(!bs_client_call(c, &basalt__batch_service__descriptor,
	    method_index(&basalt__batch_service__descriptor, "Submit"),
	    &req.base, &reply, &err));
	ck_assert_ptr_null(reply);
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_REFUSED));
	ck_assert_msg(strstr(err->message, "server refused the connection: "
	    "role UNKNOWN (99) is not served here") != NULL, "%s",
	    err->message);
	g_error_free(err);
	bs_client_free(c);
}
END_TEST

typedef struct {
	int fd;
	BsRpcConn *conn;
} Adopt;

static gboolean
adopt_on_server(gpointer p)
{
	Adopt *a = p;

	a->conn = bs_rpc_server_adopt_fd(ts.srv, a->fd, NULL);
	return G_SOURCE_REMOVE;
}

START_TEST(test_submit_socketpair)
{
	int sv[2];
	Adopt a;
	BsClient *c;
	GError *err = NULL;
	char want[32], *q;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv),
	    0);
	a.fd = sv[0];
	ts_run(&ts, adopt_on_server, &a);
	ck_assert_ptr_nonnull(a.conn);
	c = bs_client_connect_fd(sv[1], NULL, &err);
	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	g_snprintf(want, sizeof want, "uid=%d", (int)getuid());
	q = submit_via_stub(c, NULL);
	ck_assert_str_eq(q, want);
	g_free(q);
	bs_client_free(c);
}
END_TEST

START_TEST(test_direct_call)
{
	BsClient *c = connect_unix();
	Basalt__ClusterInfoRequest req = BASALT__CLUSTER_INFO_REQUEST__INIT;
	ProtobufCMessage *reply = NULL;
	GError *err = NULL;

	ck_assert_msg(bs_client_call(c, &basalt__batch_service__descriptor,
	    method_index(&basalt__batch_service__descriptor, "Cluster"),
	    &req.base, &reply, &err), "%s", err ? err->message : "");
	ck_assert_str_eq(((Basalt__ClusterInfo *)reply)->cluster_name,
	    "testcluster");
	protobuf_c_message_free_unpacked(reply, NULL);
	/* A method index the descriptor does not have never leaves. */
	ck_assert(!bs_client_call(c, &basalt__batch_service__descriptor, 99,
	    &req.base, &reply, &err));
	ck_assert(strstr(err->message, "has no method 99") != NULL);
	g_error_free(err);
	bs_client_free(c);
}
END_TEST

static gboolean
open_gate(gpointer seq)
{
	bs_rpc_server_set_synced(ts.srv, GPOINTER_TO_UINT(seq));
	return G_SOURCE_REMOVE;
}

/*
 * The output gate: a reply queued behind a barrier waits until the server
 * is told that sequence is synced; another client's query is not held.
 */
START_TEST(test_output_gate)
{
	Basalt__SubmitRequest req = BASALT__SUBMIT_REQUEST__INIT;
	Basalt__ClusterInfoRequest ci = BASALT__CLUSTER_INFO_REQUEST__INIT;
	BsClient *c = connect_unix();
	ProtobufCMessage *reply = NULL;
	Basalt__Envelope *env;
	GError *err = NULL;
	int fd = raw_connect_unix(ts.path);

	test_gate_server = ts.srv;
	test_submit_barrier = 7;
	raw_handshake(fd);
	raw_send_request(fd, 1, method_index(&basalt__batch_service__descriptor,
	    "Submit"), &req.base);
	ck_assert_ptr_null(raw_recv(fd, 300));
	ck_assert_msg(bs_client_call(c, &basalt__batch_service__descriptor,
	    method_index(&basalt__batch_service__descriptor, "Cluster"),
	    &ci.base, &reply, &err), "%s", err ? err->message : "");
	protobuf_c_message_free_unpacked(reply, NULL);
	ts_run(&ts, open_gate, GUINT_TO_POINTER(6));
	ck_assert_ptr_null(raw_recv(fd, 200));
	ts_run(&ts, open_gate, GUINT_TO_POINTER(7));
	env = raw_recv(fd, 2000);
	ck_assert_ptr_nonnull(env);
	ck_assert_int_eq(env->kind, BASALT__FRAME_KIND__FRAME_KIND_REPLY);
	ck_assert_int_eq(env->status, BASALT__RPC_STATUS__RPC_STATUS_OK);
	basalt__envelope__free_unpacked(env, NULL);
	test_gate_server = NULL;
	test_submit_barrier = 0;
	close(fd);
	bs_client_free(c);
}
END_TEST

static Basalt__JobList *
call_jobs(BsClient *c, guint64 job, guint64 delay_ms, GError **err)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	guint64 ids[2] = { job, delay_ms };
	ProtobufCMessage *reply = NULL;

	q.n_job_ids = 2;
	q.job_ids = ids;
	if (!bs_client_call(c, &basalt__batch_service__descriptor,
	    method_index(&basalt__batch_service__descriptor, "Jobs"), &q.base,
	    &reply, err))
		return NULL;
	return (Basalt__JobList *)reply;
}

START_TEST(test_deferred_reply)
{
	BsClient *c = connect_unix();
	GError *err = NULL;
	Basalt__JobList *l = call_jobs(c, 77, 30, &err);

	ck_assert_msg(l != NULL, "%s", err ? err->message : "");
	ck_assert_uint_eq(l->n_jobs, 1);
	ck_assert_uint_eq(l->jobs[0]->job_id, 77);
	basalt__job_list__free_unpacked(l, NULL);
	bs_client_free(c);
}
END_TEST

START_TEST(test_deferred_reply_to_dead_peer)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	guint64 ids[2] = { 5, 150 };
	int fd = raw_connect_unix(ts.path);
	BsClient *good;
	char *qn;

	raw_handshake(fd);
	q.n_job_ids = 2;
	q.job_ids = ids;
	raw_send_request(fd, 1, method_index(&basalt__batch_service__descriptor,
	    "Jobs"), &q.base);
	close(fd);
	ck_assert(log_wait("dropping reply to basalt.BatchService.Jobs: "
	    "connection closed", 1, 5000));
	good = connect_unix();
	qn = submit_via_stub(good, NULL);
	g_free(qn);
	bs_client_free(good);
}
END_TEST

/* Call method `name` with an empty request and expect a failure. */
static void
expect_call_error(const char *name, const ProtobufCMessage *req,
    int code, const char *want)
{
	BsClient *c = connect_unix();
	ProtobufCMessage *reply = NULL;
	GError *err = NULL;
	char *q;

	ck_assert(!bs_client_call(c, &basalt__batch_service__descriptor,
	    method_index(&basalt__batch_service__descriptor, name), req,
	    &reply, &err));
	ck_assert_ptr_null(reply);
	ck_assert(g_error_matches(err, BS_ERROR, code));
	ck_assert_msg(strstr(err->message, want) != NULL, "%s", err->message);
	g_error_free(err);
	/* A non-OK status leaves the connection usable. */
	q = submit_via_stub(c, NULL);
	g_free(q);
	bs_client_free(c);
}

START_TEST(test_service_failed_no_reply)
{
	Basalt__QueueQuery q = BASALT__QUEUE_QUERY__INIT;

	expect_call_error("Queues", &q.base, BS_ERROR_FAILED,
	    "BatchService.Queues: RPC_STATUS_SERVICE_FAILED: the handler did "
	    "not reply");
	ck_assert(log_wait("basalt.BatchService.Queues (request 1) failed: "
	    "the handler did not reply", 1, 5000));
}
END_TEST

START_TEST(test_service_failed_null_reply)
{
	Basalt__HostQuery q = BASALT__HOST_QUERY__INIT;

	expect_call_error("Hosts", &q.base, BS_ERROR_FAILED,
	    "RPC_STATUS_SERVICE_FAILED: the handler reported failure");
}
END_TEST

START_TEST(test_not_implemented)
{
	Basalt__AdminRequest q = BASALT__ADMIN_REQUEST__INIT;

	expect_call_error("Admin", &q.base, BS_ERROR_PROTOCOL,
	    "RPC_STATUS_BAD_METHOD: basalt.BatchService.Admin is not "
	    "implemented");
}
END_TEST

/* --- client errors --------------------------------------------------- */

START_TEST(test_client_refused)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	socklen_t len = sizeof in;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	GError *err = NULL;
	char *path;

	/* A bound port nobody listens on refuses connections. */
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&in, sizeof in), 0);
	getsockname(fd, (struct sockaddr *)&in, &len);
	ck_assert_ptr_null(bs_client_connect_tcp("127.0.0.1",
	    ntohs(in.sin_port), 2000, &err));
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_IO));
	ck_assert_msg(strstr(err->message, "cannot connect to 127.0.0.1:") &&
	    strstr(err->message, "Connection refused"), "%s", err->message);
	g_clear_error(&err);
	close(fd);
	path = g_build_filename(ts.dir, "nobody.sock", NULL);
	ck_assert_ptr_null(bs_client_connect_unix(path, 2000, &err));
	ck_assert(strstr(err->message, "No such file") != NULL);
	g_clear_error(&err);
	g_free(path);
}
END_TEST

START_TEST(test_client_timeout)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	socklen_t len = sizeof in;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	GError *err = NULL;
	gint64 t0;

	/* Listening, but nobody ever answers the hello. */
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&in, sizeof in), 0);
	ck_assert_int_eq(listen(fd, 4), 0);
	getsockname(fd, (struct sockaddr *)&in, &len);
	t0 = g_get_monotonic_time();
	ck_assert_ptr_null(bs_client_connect_tcp("127.0.0.1",
	    ntohs(in.sin_port), 200, &err));
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_TIMEOUT));
	ck_assert_msg(strstr(err->message, "no reply within 200 ms") != NULL,
	    "%s", err->message);
	ck_assert_int_lt(g_get_monotonic_time() - t0, 3 * G_USEC_PER_SEC);
	g_error_free(err);
	close(fd);
}
END_TEST

/* --- TCP authentication hook ----------------------------------------- */

static gboolean
fake_munge(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	/* The credential is bytes, not a C string. */
	if (len > 4 && len < 16 && memcmp(cred, "uid:", 4) == 0) {
		char *num = g_strndup((const char *)cred + 4, len - 4);

		peer->has_cred = TRUE;
		peer->uid = (uid_t)g_ascii_strtoull(num, NULL, 10);
		g_free(num);
		return TRUE;
	}
	*reason = g_strdup("bad credential");
	return FALSE;
}

START_TEST(test_tcp_authentication)
{
	BsRpcServerOptions opts;
	BsClientOptions co;
	GError *err = NULL;
	BsClient *c;
	char *q;

	/* Without an authenticator, unauthenticated TCP is refused. */
	ts_stop(&ts);
	ts_options(&opts);
	opts.allow_unauthenticated_tcp = FALSE;
	ts_start(&ts, &opts);
	ck_assert_ptr_null(bs_client_connect_tcp("127.0.0.1", ts.port, 5000,
	    &err));
	ck_assert_msg(strstr(err->message, "TCP peers must authenticate"),
	    "%s", err->message);
	g_clear_error(&err);
	ts_stop(&ts);

	opts.authenticate = fake_munge;
	ts_start(&ts, &opts);
	bs_client_options_init(&co);
	co.host = "127.0.0.1";
	co.port = ts.port;
	co.credential = (const guint8 *)"uid:1234";
	co.credential_len = 8;
	c = bs_client_connect(&co, &err);
	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	q = submit_via_stub(c, NULL);
	ck_assert_str_eq(q, "uid=1234");
	g_free(q);
	bs_client_free(c);
	co.credential = (const guint8 *)"forged";
	co.credential_len = 6;
	ck_assert_ptr_null(bs_client_connect(&co, &err));
	ck_assert(strstr(err->message, "bad credential") != NULL);
	g_error_free(err);
}
END_TEST

/* --- symmetric calls on a dialed connection --------------------------- */

typedef struct {
	gboolean server_ready, dial_ready, exec_done, host_done, closed;
	gboolean timed_out;
	BsRpcConn *server_conn;
	char *closed_reason;
	int pgid;
	guint heartbeat;
	char *cluster;
	BsRpcCall *held;            /* a call the exec side never answers */
} Sym;

static Sym sym;

static void
x_start_job(Basalt__ExecService_Service *svc, const Basalt__StartJobRequest *in,
    Basalt__StartJobReply_Closure closure, void *data)
{
	Basalt__StartJobReply r = BASALT__START_JOB_REPLY__INIT;

	/* The master is the peer here; it said hello first, we dialed. */
	ck_assert_str_eq(bs_rpc_call_peer(data)->name, "testmaster");
	r.pgid = (int)in->job_id * 100;
	closure(&r, data);
}

static void
x_signal_job(Basalt__ExecService_Service *svc,
    const Basalt__SignalJobRequest *in, Basalt__SignalJobReply_Closure closure,
    void *data)
{
	sym.held = bs_rpc_call_defer(data);
}

static Basalt__ExecService_Service exec_service = {
	.base = BASALT__EXEC_SERVICE__BASE_INIT,
	.start_job = x_start_job,
	.signal_job = x_signal_job,
};

static void
exec_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	ck_assert_msg(status == BASALT__RPC_STATUS__RPC_STATUS_OK, "%s",
	    err ? err->message : "");
	sym.pgid = ((const Basalt__StartJobReply *)reply)->pgid;
	sym.exec_done = TRUE;
}

static void
signal_timed_out(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	ck_assert_int_eq(status, BASALT__RPC_STATUS__RPC_STATUS_UNAVAILABLE);
	ck_assert_ptr_null(reply);
	ck_assert_msg(strstr(err->message, "SignalJob: no reply within 100 ms"),
	    "%s", err->message);
	sym.timed_out = TRUE;
}

/* mbatchd side: a host said hello; call ExecService back on it. */
static void
master_sees_host(BsRpcConn *conn, void *data)
{
	Basalt__StartJobRequest req = BASALT__START_JOB_REQUEST__INIT;
	const BsRpcPeer *peer = bs_rpc_conn_peer(conn);
	GError *err = NULL;

	ck_assert_int_eq(peer->role, BASALT__ROLE__ROLE_EXEC_HOST);
	ck_assert_str_eq(peer->name, "hostA");
	sym.server_conn = bs_rpc_conn_ref(conn);
	sym.server_ready = TRUE;
	req.job_id = 9;
	ck_assert_msg(bs_rpc_conn_call(conn, &basalt__exec_service__descriptor,
	    method_index(&basalt__exec_service__descriptor, "StartJob"),
	    &req.base, 2000, exec_replied, NULL, &err), "%s",
	    err ? err->message : "");
}

static void
registered(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err, void *data)
{
	const Basalt__RegisterReply *r = (const Basalt__RegisterReply *)reply;

	ck_assert_msg(status == BASALT__RPC_STATUS__RPC_STATUS_OK, "%s",
	    err ? err->message : "");
	sym.heartbeat = r->heartbeat_interval_s;
	sym.cluster = g_strdup(r->cluster_name);
	sym.host_done = TRUE;
}

/* sbatchd side: connected; register with the master. */
static void
host_connected(BsRpcConn *conn, void *data)
{
	Basalt__RegisterRequest req = BASALT__REGISTER_REQUEST__INIT;

	sym.dial_ready = TRUE;
	req.host_name = (char *)"hostA";
	ck_assert(bs_rpc_conn_call(conn, &basalt__host_service__descriptor,
	    method_index(&basalt__host_service__descriptor, "RegisterHost"),
	    &req.base, 2000, registered, NULL, NULL));
}

static void
host_closed(BsRpcConn *conn, const char *reason, void *data)
{
	sym.closed_reason = g_strdup(reason);
	sym.closed = TRUE;
}

/* Server and dialer share this thread's context. */
static BsRpcServer *
local_server(GMainContext *ctx, guint16 *port)
{
	BsRpcServerOptions opts;
	BsRpcServer *srv;

	ts_options(&opts);
	srv = bs_rpc_server_new(&opts, ctx);
	bs_rpc_server_register(srv, BASALT__ROLE__ROLE_EXEC_HOST,
	    &test_host_service.base);
	bs_rpc_server_set_callbacks(srv, master_sees_host, NULL, NULL);
	ck_assert(bs_rpc_server_listen_tcp(srv, "127.0.0.1", 0, port, NULL));
	return srv;
}

static BsRpcConn *
dial_local(GMainContext *ctx, guint16 port, Basalt__Role role)
{
	BsRpcDialOptions d;
	GError *err = NULL;
	BsRpcConn *conn;

	bs_rpc_dial_options_init(&d);
	d.host = "127.0.0.1";
	d.port = port;
	d.role = role;
	d.name = "hostA";
	d.serve = &exec_service.base;
	conn = bs_rpc_dial(&d, ctx, host_connected, host_closed, NULL, &err);
	ck_assert_msg(conn != NULL, "%s", err ? err->message : "");
	return conn;
}

START_TEST(test_symmetric_calls)
{
	GMainContext *ctx = g_main_context_new();
	Basalt__SignalJobRequest sig = BASALT__SIGNAL_JOB_REQUEST__INIT;
	BsRpcServer *srv;
	BsRpcConn *conn;
	guint16 port;

	memset(&sym, 0, sizeof sym);
	srv = local_server(ctx, &port);
	conn = dial_local(ctx, port, BASALT__ROLE__ROLE_EXEC_HOST);
	ck_assert(iterate_until(ctx, &sym.exec_done, 5000));
	ck_assert(iterate_until(ctx, &sym.host_done, 5000));
	ck_assert_int_eq(sym.pgid, 900);
	ck_assert_uint_eq(sym.heartbeat, 7);
	ck_assert_str_eq(sym.cluster, "hostA");

	/* A call the peer never answers times out; the link stays up. */
	ck_assert(bs_rpc_conn_call(sym.server_conn,
	    &basalt__exec_service__descriptor,
	    method_index(&basalt__exec_service__descriptor, "SignalJob"),
	    &sig.base, 100, signal_timed_out, NULL, NULL));
	ck_assert(iterate_until(ctx, &sym.timed_out, 5000));
	ck_assert(bs_rpc_conn_is_open(conn));
	bs_rpc_call_unref(sym.held);   /* late SERVICE_FAILED, ignored */

	bs_rpc_server_free(srv);
	ck_assert(iterate_until(ctx, &sym.closed, 5000));
	ck_assert_msg(strstr(sym.closed_reason, "peer closed") != NULL, "%s",
	    sym.closed_reason);
	ck_assert(!bs_rpc_conn_is_open(sym.server_conn));
	bs_rpc_conn_unref(sym.server_conn);
	bs_rpc_conn_unref(conn);
	g_free(sym.closed_reason);
	g_free(sym.cluster);
	g_main_context_unref(ctx);
}
END_TEST

START_TEST(test_dial_refused_and_unreachable)
{
	GMainContext *ctx = g_main_context_new();
	BsRpcDialOptions d;
	BsRpcServer *srv;
	BsRpcConn *conn;
	guint16 port;
	char *path;

	memset(&sym, 0, sizeof sym);
	srv = local_server(ctx, &port);
	conn = dial_local(ctx, port, UNSERVED_ROLE);
	ck_assert(iterate_until(ctx, &sym.closed, 5000));
	ck_assert(!sym.dial_ready);
	ck_assert_msg(strstr(sym.closed_reason, "hello refused by peer: role "
	    "UNKNOWN (99) is not served here") != NULL, "%s",
	    sym.closed_reason);
	g_free(sym.closed_reason);
	bs_rpc_conn_unref(conn);

	memset(&sym, 0, sizeof sym);
	path = g_build_filename(ts.dir, "nobody.sock", NULL);
	bs_rpc_dial_options_init(&d);
	d.unix_path = path;
	conn = bs_rpc_dial(&d, ctx, host_connected, host_closed, NULL, NULL);
	ck_assert_ptr_nonnull(conn);
	ck_assert(iterate_until(ctx, &sym.closed, 5000));
	ck_assert_msg(strstr(sym.closed_reason, "connect to unix:") &&
	    strstr(sym.closed_reason, "No such file"), "%s", sym.closed_reason);
	g_free(sym.closed_reason);
	g_free(path);
	bs_rpc_conn_unref(conn);
	bs_rpc_server_free(srv);
	g_main_context_unref(ctx);
}
END_TEST

/* --- shutdown -------------------------------------------------------- */

START_TEST(test_shutdown_with_clients)
{
	int fds[3];
	BsClient *c = connect_unix();
	char *q = submit_via_stub(c, NULL);

	g_free(q);
	for (int i = 0; i < 3; i++) {
		fds[i] = raw_connect_unix(ts.path);
		if (i > 0)
			raw_handshake(fds[i]);
	}
	ck_assert_uint_eq(ts_n_connections(&ts), 4);
	/* teardown stops the server; every peer sees the close. */
	ts_stop(&ts);
	for (int i = 0; i < 3; i++) {
		ck_assert(raw_wait_closed(fds[i], 2000));
		close(fds[i]);
	}
	bs_client_free(c);
	log_capture_stop();
	log_capture_start();
	{
		BsRpcServerOptions opts;

		ts_options(&opts);
		ts_start(&ts, &opts);   /* for teardown */
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rpc");
	TCase *hello = tcase_create("hello");
	TCase *calls = tcase_create("calls");
	TCase *client = tcase_create("client");
	TCase *sym_tc = tcase_create("symmetric");

	tcase_add_checked_fixture(hello, setup, teardown);
	tcase_add_test(hello, test_hello_accepted);
	tcase_add_test(hello, test_hello_bad_magic);
	tcase_add_test(hello, test_hello_bad_version);
	tcase_add_test(hello, test_hello_unserved_role);
	tcase_add_test(hello, test_tcp_authentication);
	tcase_add_checked_fixture(calls, setup, teardown);
	tcase_add_test(calls, test_submit_unix);
	tcase_add_test(calls, test_submit_tcp);
	tcase_add_test(calls, test_submit_socketpair);
	tcase_add_test(calls, test_submit_deferred_hello);
	tcase_add_test(calls, test_deferred_hello_refused);
	tcase_add_test(calls, test_direct_call);
	tcase_add_test(calls, test_output_gate);
	tcase_add_test(calls, test_deferred_reply);
	tcase_add_test(calls, test_deferred_reply_to_dead_peer);
	tcase_add_test(calls, test_service_failed_no_reply);
	tcase_add_test(calls, test_service_failed_null_reply);
	tcase_add_test(calls, test_not_implemented);
	tcase_add_test(calls, test_shutdown_with_clients);
	tcase_add_checked_fixture(client, setup, teardown);
	tcase_add_test(client, test_client_refused);
	tcase_add_test(client, test_client_timeout);
	tcase_add_checked_fixture(sym_tc, setup, teardown);
	tcase_add_test(sym_tc, test_symmetric_calls);
	tcase_add_test(sym_tc, test_dial_refused_and_unreachable);
	suite_add_tcase(s, hello);
	suite_add_tcase(s, calls);
	suite_add_tcase(s, client);
	suite_add_tcase(s, sym_tc);
	return bs_run_suite(s);
}
