/*
 * Test harness for lib/rpc (see rpc-test.h).  The service implementations
 * here are deliberately small, each one exercising one way a handler can
 * behave: reply at once, defer, forget to reply, fail, reply big.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "rpc-test.h"
#include "util/log.h"

/* --- the test BatchService ------------------------------------------- */

BsRpcServer *test_gate_server;
guint64 test_submit_barrier;

static void
t_submit(Basalt__BatchService_Service *svc, const Basalt__SubmitRequest *in,
    Basalt__SubmitReply_Closure closure, void *data)
{
	const BsRpcPeer *peer = bs_rpc_call_peer(data);
	Basalt__SubmitReply r = BASALT__SUBMIT_REPLY__INIT;
	char who[64];

	if (peer->has_cred)
		g_snprintf(who, sizeof who, "uid=%d", (int)peer->uid);
	else
		g_snprintf(who, sizeof who, "uid=none");
	r.job_id = 42;
	r.queue = who;
	/* As mbatchd does after committing an event: hold the reply. */
	if (test_gate_server != NULL && test_submit_barrier > 0)
		bs_rpc_server_set_barrier(test_gate_server, test_submit_barrier);
	closure(&r, data);
}

typedef struct {
	BsRpcCall *call;
	Basalt__JobList_Closure closure;
	guint64 job_id;
} Deferred;

static gboolean
deferred_reply(gpointer p)
{
	Deferred *d = p;
	Basalt__JobList r = BASALT__JOB_LIST__INIT;
	Basalt__JobInfo job = BASALT__JOB_INFO__INIT, *jobs[1] = { &job };

	job.job_id = d->job_id;
	r.n_jobs = 1;
	r.jobs = jobs;
	d->closure(&r, d->call);
	bs_rpc_call_unref(d->call);
	g_free(d);
	return G_SOURCE_REMOVE;
}

/* Replies later, as after a journal commit; delay = job_ids[1] ms. */
static void
t_jobs(Basalt__BatchService_Service *svc, const Basalt__JobQuery *in,
    Basalt__JobList_Closure closure, void *data)
{
	Deferred *d = g_new0(Deferred, 1);
	guint delay = in->n_job_ids > 1 ? (guint)in->job_ids[1] : 20;
	GSource *t = g_timeout_source_new(delay);

	d->call = bs_rpc_call_defer(data);
	d->closure = closure;
	d->job_id = in->n_job_ids > 0 ? in->job_ids[0] : 0;
	g_source_set_callback(t, deferred_reply, d, NULL);
	g_source_attach(t, g_main_context_get_thread_default());
	g_source_unref(t);
}

/* Forgets to reply. */
static void
t_queues(Basalt__BatchService_Service *svc, const Basalt__QueueQuery *in,
    Basalt__QueueList_Closure closure, void *data)
{
}

/* Reports failure the protobuf-c way. */
static void
t_hosts(Basalt__BatchService_Service *svc, const Basalt__HostQuery *in,
    Basalt__HostList_Closure closure, void *data)
{
	closure(NULL, data);
}

/* A reply of in->offset bytes, to fill a peer's socket. */
static void
t_peek(Basalt__BatchService_Service *svc, const Basalt__PeekRequest *in,
    Basalt__PeekReply_Closure closure, void *data)
{
	Basalt__PeekReply r = BASALT__PEEK_REPLY__INIT;
	gsize n = MIN(in->offset, 1024 * 1024);

	r.stdout_data.data = g_malloc0(n + 1);
	r.stdout_data.len = n;
	closure(&r, data);
	g_free(r.stdout_data.data);
}

static void
t_cluster(Basalt__BatchService_Service *svc,
    const Basalt__ClusterInfoRequest *in, Basalt__ClusterInfo_Closure closure,
    void *data)
{
	Basalt__ClusterInfo r = BASALT__CLUSTER_INFO__INIT;

	r.cluster_name = (char *)"testcluster";
	closure(&r, data);
}

Basalt__BatchService_Service test_batch_service = {
	.base = BASALT__BATCH_SERVICE__BASE_INIT,
	.submit = t_submit,
	.jobs = t_jobs,
	.queues = t_queues,
	.hosts = t_hosts,
	.peek = t_peek,
	.cluster = t_cluster,
	/* admin and the rest stay NULL: "not implemented" */
};

static void
t_register(Basalt__HostService_Service *svc, const Basalt__RegisterRequest *in,
    Basalt__RegisterReply_Closure closure, void *data)
{
	Basalt__RegisterReply r = BASALT__REGISTER_REPLY__INIT;

	r.heartbeat_interval_s = 7;
	r.cluster_name = in->host_name;
	closure(&r, data);
}

Basalt__HostService_Service test_host_service = {
	.base = BASALT__HOST_SERVICE__BASE_INIT,
	.register_host = t_register,
};

/* --- server thread --------------------------------------------------- */

void
ts_options(BsRpcServerOptions *opts)
{
	bs_rpc_server_options_init(opts);
	opts->server_name = "testmaster";
	opts->allow_unauthenticated_tcp = TRUE;
	opts->limits.hello_timeout_ms = 5000;
	opts->limits.write_timeout_ms = 5000;
}

static gpointer
ts_thread(gpointer p)
{
	TestServer *ts = p;

	g_main_context_push_thread_default(ts->ctx);
	g_main_loop_run(ts->loop);
	g_main_context_pop_thread_default(ts->ctx);
	return NULL;
}

static gboolean
loop_started(gpointer p)
{
	return G_SOURCE_REMOVE;
}

void
ts_start(TestServer *ts, const BsRpcServerOptions *opts)
{
	GError *err = NULL;

	memset(ts, 0, sizeof *ts);
	ts->dir = g_dir_make_tmp("check-rpc-XXXXXX", &err);
	ck_assert_ptr_nonnull(ts->dir);
	ts->path = g_build_filename(ts->dir, "mbatchd.sock", NULL);
	ts->ctx = g_main_context_new();
	ts->loop = g_main_loop_new(ts->ctx, FALSE);
	ts->srv = bs_rpc_server_new(opts, ts->ctx);
	bs_rpc_server_register(ts->srv, BASALT__ROLE__ROLE_CLIENT,
	    &test_batch_service.base);
	bs_rpc_server_register(ts->srv, BASALT__ROLE__ROLE_EXEC_HOST,
	    &test_host_service.base);
	ck_assert_msg(bs_rpc_server_listen_unix(ts->srv, ts->path, &err), "%s",
	    err ? err->message : "");
	ck_assert_msg(bs_rpc_server_listen_tcp(ts->srv, "127.0.0.1", 0,
	    &ts->port, &err), "%s", err ? err->message : "");
	ck_assert_uint_ne(ts->port, 0);
	ts->thread = g_thread_new("rpc-server", ts_thread, ts);
	/* A quit before g_main_loop_run() starts would be lost. */
	ts_run(ts, loop_started, NULL);
}

void
ts_stop(TestServer *ts)
{
	g_main_loop_quit(ts->loop);
	g_thread_join(ts->thread);
	bs_rpc_server_free(ts->srv);
	/* Deferred replies still queued on the context go with it. */
	while (g_main_context_iteration(ts->ctx, FALSE))
		;
	g_main_loop_unref(ts->loop);
	g_main_context_unref(ts->ctx);
	ck_assert_int_eq(access(ts->path, F_OK), -1);
	rmdir(ts->dir);
	g_free(ts->path);
	g_free(ts->dir);
}

typedef struct {
	GSourceFunc fn;
	void *data;
	GMutex lock;
	GCond cond;
	gboolean done;
} RunOnServer;

static gboolean
run_on_server(gpointer p)
{
	RunOnServer *r = p;

	r->fn(r->data);
	g_mutex_lock(&r->lock);
	r->done = TRUE;
	g_cond_signal(&r->cond);
	g_mutex_unlock(&r->lock);
	return G_SOURCE_REMOVE;
}

void
ts_run(TestServer *ts, GSourceFunc fn, void *data)
{
	RunOnServer r = { .fn = fn, .data = data };

	g_mutex_init(&r.lock);
	g_cond_init(&r.cond);
	g_main_context_invoke(ts->ctx, run_on_server, &r);
	g_mutex_lock(&r.lock);
	while (!r.done)
		g_cond_wait(&r.cond, &r.lock);
	g_mutex_unlock(&r.lock);
	g_mutex_clear(&r.lock);
	g_cond_clear(&r.cond);
}

typedef struct {
	TestServer *ts;
	guint n;
} CountConns;

static gboolean
count_conns(gpointer p)
{
	CountConns *c = p;

	c->n = bs_rpc_server_n_connections(c->ts->srv);
	return G_SOURCE_REMOVE;
}

guint
ts_n_connections(TestServer *ts)
{
	CountConns c = { .ts = ts };

	ts_run(ts, count_conns, &c);
	return c.n;
}

/* --- log capture ----------------------------------------------------- */

static GMutex log_lock;
static GCond log_cond;
static GString *log_text;

static void
log_sink(BsLogLevel level, const char *msg, void *data)
{
	g_mutex_lock(&log_lock);
	g_string_append(log_text, msg);
	g_string_append_c(log_text, '\n');
	g_cond_broadcast(&log_cond);
	g_mutex_unlock(&log_lock);
}

void
log_capture_start(void)
{
	bs_log_init("check_rpc", BS_LOG_WARNING);
	log_text = g_string_new(NULL);
	bs_log_set_sink(log_sink, NULL);
}

void
log_capture_stop(void)
{
	bs_log_set_sink(NULL, NULL);
	g_string_free(log_text, TRUE);
	log_text = NULL;
}

static guint
count_locked(const char *substr)
{
	guint n = 0;
	const char *p = log_text->str;

	while ((p = strstr(p, substr)) != NULL) {
		n++;
		p += strlen(substr);
	}
	return n;
}

guint
log_count(const char *substr)
{
	guint n;

	g_mutex_lock(&log_lock);
	n = count_locked(substr);
	g_mutex_unlock(&log_lock);
	return n;
}

gint64
log_number_before(const char *substr)
{
	const char *p, *q;
	gint64 n = -1;

	g_mutex_lock(&log_lock);
	p = strstr(log_text->str, substr);
	if (p != NULL) {
		for (q = p; q > log_text->str && g_ascii_isdigit(q[-1]); q--)
			;
		if (q < p)
			n = g_ascii_strtoll(q, NULL, 10);
	}
	g_mutex_unlock(&log_lock);
	return n;
}

gboolean
log_wait(const char *substr, guint count, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	gboolean ok;

	g_mutex_lock(&log_lock);
	while (!(ok = count_locked(substr) >= count) &&
	    g_cond_wait_until(&log_cond, &log_lock, end))
		;
	ok = count_locked(substr) >= count;
	g_mutex_unlock(&log_lock);
	return ok;
}

/* --- raw peers ------------------------------------------------------- */

int
raw_connect_unix(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	g_strlcpy(sun.sun_path, path, sizeof sun.sun_path);
	ck_assert_msg(connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0,
	    "connect: %s", g_strerror(errno));
	return fd;
}

int
raw_connect_tcp(guint16 port)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
	    .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_msg(connect(fd, (struct sockaddr *)&in, sizeof in) == 0,
	    "connect: %s", g_strerror(errno));
	return fd;
}

void
raw_send(int fd, const void *data, gsize len)
{
	ssize_t n;
	const guint8 *p = data;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		ck_assert_msg(n > 0, "send: %s", g_strerror(errno));
		p += n;
		len -= (gsize)n;
	}
}

static void
raw_send_frame(int fd, GBytes *f)
{
	gsize len;
	const void *d = g_bytes_get_data(f, &len);

	raw_send(fd, d, len);
	g_bytes_unref(f);
}

void
raw_send_hello(int fd, const char *magic, guint32 version, int role)
{
	Basalt__Hello h = BASALT__HELLO__INIT;

	h.magic = (char *)magic;
	h.version = version;
	h.role = role;
	h.name = (char *)"raw";
	raw_send_frame(fd, bs_frame_pack_message(
	    BASALT__FRAME_KIND__FRAME_KIND_HELLO, 0, 0, 0, &h.base, NULL, 0,
	    NULL));
}

void
raw_send_request(int fd, guint64 id, guint32 method,
    const ProtobufCMessage *body)
{
	raw_send_frame(fd, bs_frame_pack_message(
	    BASALT__FRAME_KIND__FRAME_KIND_REQUEST, id, method, 0, body, NULL,
	    0, NULL));
}

Basalt__Envelope *
raw_recv(int fd, guint timeout_ms)
{
	BsFrameDecoder *dec = bs_frame_decoder_new(0);
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	Basalt__Envelope *env = NULL;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	guint8 b;
	gsize used;

	/* One byte at a time so no byte of the next frame is lost. */
	while (env == NULL && g_get_monotonic_time() < end) {
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		if (recv(fd, &b, 1, 0) != 1)
			break;
		if (bs_frame_decoder_feed(dec, &b, 1, &used, &env, NULL) ==
		    BS_FRAME_ERROR)
			break;
	}
	bs_frame_decoder_free(dec);
	return env;
}

gboolean
raw_wait_closed(int fd, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	while (g_get_monotonic_time() < end) {
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return TRUE;
	}
	return FALSE;
}

void
raw_handshake(int fd)
{
	Basalt__Envelope *env;
	Basalt__HelloReply *r;

	raw_send_hello(fd, BS_HELLO_MAGIC,
	    BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT,
	    BASALT__ROLE__ROLE_CLIENT);
	env = raw_recv(fd, 5000);
	ck_assert_ptr_nonnull(env);
	ck_assert_int_eq(env->kind, BASALT__FRAME_KIND__FRAME_KIND_HELLO_REPLY);
	r = basalt__hello_reply__unpack(NULL, env->body.len, env->body.data);
	ck_assert(r->accepted);
	basalt__hello_reply__free_unpacked(r, NULL);
	basalt__envelope__free_unpacked(env, NULL);
}

/* --- calls ----------------------------------------------------------- */

typedef struct {
	gboolean called;
	char *queue;
	guint64 job_id;
} SubmitResult;

static void
submit_done(const Basalt__SubmitReply *r, void *data)
{
	SubmitResult *res = data;

	res->called = TRUE;
	if (r != NULL) {
		res->queue = g_strdup(r->queue);
		res->job_id = r->job_id;
	}
}

char *
submit_via_stub(BsClient *c, guint64 *job_id)
{
	Basalt__SubmitRequest req = BASALT__SUBMIT_REQUEST__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	SubmitResult res = { 0 };

	spec.command = (char *)"sleep 1";
	req.spec = &spec;
	basalt__batch_service__submit(bs_client_service(c,
	    &basalt__batch_service__descriptor), &req, submit_done, &res);
	ck_assert(res.called);
	if (job_id != NULL)
		*job_id = res.job_id;
	return res.queue;
}

static gboolean
wake(gpointer p)
{
	return G_SOURCE_CONTINUE;
}

gboolean
iterate_until(GMainContext *ctx, const gboolean *flag, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	GSource *tick = g_timeout_source_new(20);

	g_source_set_callback(tick, wake, NULL, NULL);
	g_source_attach(tick, ctx);
	while (!*flag && g_get_monotonic_time() < end)
		g_main_context_iteration(ctx, TRUE);
	g_source_destroy(tick);
	g_source_unref(tick);
	return *flag;
}
