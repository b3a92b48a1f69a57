/*
 * lib/rpc against misbehaving peers.  Each case checks three things: the
 * bad connection is closed (we read EOF or a reset), the reason is logged,
 * and a well-behaved client is still served while or after it happens.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "rpc-test.h"
#include "util/error.h"

static TestServer ts;

static void
start_with(void (*tweak)(BsRpcServerOptions *))
{
	BsRpcServerOptions opts;

	log_capture_start();
	ts_options(&opts);
	if (tweak != NULL)
		tweak(&opts);
	ts_start(&ts, &opts);
}

static void
setup(void)
{
	start_with(NULL);
}

static void
teardown(void)
{
	ts_stop(&ts);
	log_capture_stop();
}

/* A good client gets its job submitted. */
static void
assert_served(void)
{
	GError *err = NULL;
	BsClient *c = bs_client_connect_unix(ts.path, 5000, &err);
	char *q;

	ck_assert_msg(c != NULL, "good client refused: %s",
	    err ? err->message : "");
	q = submit_via_stub(c, NULL);
	ck_assert_ptr_nonnull(q);
	g_free(q);
	bs_client_free(c);
}

/* Send bytes (after a hello if asked), then check close + reason. */
static void
abuse(gboolean hello, const void *bytes, gsize len, gboolean half_close,
    const char *reason)
{
	int fd = raw_connect_unix(ts.path);

	if (hello)
		raw_handshake(fd);
	raw_send(fd, bytes, len);
	if (half_close)
		shutdown(fd, SHUT_WR);
	assert_served();
	ck_assert_msg(raw_wait_closed(fd, 5000), "connection not closed");
	ck_assert_msg(log_wait(reason, 1, 5000), "no log line \"%s\"", reason);
	close(fd);
	assert_served();
}

START_TEST(test_short_header)
{
	static const guint8 b[] = { 0, 0 };

	abuse(TRUE, b, sizeof b, TRUE,
	    "closed: peer closed mid-frame (2 of 4 header bytes)");
}
END_TEST

START_TEST(test_short_body)
{
	static const guint8 b[] = { 0, 0, 0, 100, 0x08, 0x03, 0x10 };

	abuse(TRUE, b, sizeof b, TRUE,
	    "closed: peer closed mid-frame (3 of 100 body bytes)");
}
END_TEST

START_TEST(test_huge_length)
{
	static const guint8 b[] = { 0x80, 0, 0, 0, 1, 2, 3, 4 };

	/* Before and after the hello alike. */
	abuse(FALSE, b, sizeof b, FALSE,
	    "closed: frame length 2147483648 exceeds limit 4194304");
	abuse(TRUE, b, sizeof b, FALSE,
	    "closed: frame length 2147483648 exceeds limit 4194304");
	ck_assert_uint_eq(log_count("exceeds limit"), 2);
}
END_TEST

START_TEST(test_garbage)
{
	static const char http[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
	static const guint8 junk[] = { 0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff, 0xff };

	abuse(FALSE, http, sizeof http - 1, FALSE,
	    "closed: frame length 1195725856 exceeds limit");
	abuse(TRUE, junk, sizeof junk, FALSE,
	    "closed: frame payload of 5 bytes is not a valid Envelope");
}
END_TEST

START_TEST(test_request_before_hello)
{
	Basalt__ClusterInfoRequest req = BASALT__CLUSTER_INFO_REQUEST__INIT;
	int fd = raw_connect_unix(ts.path);

	raw_send_request(fd, 1, 12, &req.base);
	ck_assert(raw_wait_closed(fd, 5000));
	ck_assert(log_wait(
	    "closed: unexpected FRAME_KIND_REQUEST frame before the hello", 1,
	    5000));
	close(fd);
	assert_served();
}
END_TEST

START_TEST(test_second_hello)
{
	int fd = raw_connect_unix(ts.path);

	raw_handshake(fd);
	raw_send_hello(fd, BS_HELLO_MAGIC, 1, BASALT__ROLE__ROLE_CLIENT);
	ck_assert(raw_wait_closed(fd, 5000));
	ck_assert(log_wait("unexpected FRAME_KIND_HELLO frame after the hello",
	    1, 5000));
	close(fd);
	assert_served();
}
END_TEST

/* Expect a REPLY to id with status; returns it for more checks. */
static Basalt__Envelope *
expect_reply(int fd, guint64 id, int status)
{
	Basalt__Envelope *env = raw_recv(fd, 5000);

	ck_assert_ptr_nonnull(env);
	ck_assert_int_eq(env->kind, BASALT__FRAME_KIND__FRAME_KIND_REPLY);
	ck_assert_uint_eq(env->id, id);
	ck_assert_int_eq(env->status, status);
	return env;
}

START_TEST(test_unknown_method_keeps_connection)
{
	Basalt__ClusterInfoRequest req = BASALT__CLUSTER_INFO_REQUEST__INIT;
	static const guint8 junk[] = { 0xff, 0xff, 0xff };
	Basalt__Envelope bad = BASALT__ENVELOPE__INIT, *env;
	int fd = raw_connect_unix(ts.path);
	GBytes *f;
	gsize len;
	const void *d;

	raw_handshake(fd);
	raw_send_request(fd, 1, 99, &req.base);
	env = expect_reply(fd, 1, BASALT__RPC_STATUS__RPC_STATUS_BAD_METHOD);
	{
		/* The count grows as methods are added; the text must not lie. */
		g_autofree char *want = g_strdup_printf("unknown method 99 of "
		    "basalt.BatchService (%u methods)",
		    basalt__batch_service__descriptor.n_methods);

		ck_assert_msg(strstr(env->error, want), "%s", env->error);
	}
	basalt__envelope__free_unpacked(env, NULL);
	ck_assert(log_wait("request 1: unknown method 99", 1, 5000));

	/* A body that is not the method's input: BAD_MESSAGE, carry on. */
	bad.kind = BASALT__FRAME_KIND__FRAME_KIND_REQUEST;
	bad.id = 2;
	bad.method = 12;
	bad.body.data = (guint8 *)junk;
	bad.body.len = sizeof junk;
	f = bs_frame_pack(&bad, 0, NULL);
	d = g_bytes_get_data(f, &len);
	raw_send(fd, d, len);
	g_bytes_unref(f);
	env = expect_reply(fd, 2, BASALT__RPC_STATUS__RPC_STATUS_BAD_MESSAGE);
	ck_assert(strstr(env->error, "not a valid basalt.ClusterInfoRequest"));
	basalt__envelope__free_unpacked(env, NULL);

	/* The same connection still works. */
	raw_send_request(fd, 3, 12, &req.base);
	env = expect_reply(fd, 3, BASALT__RPC_STATUS__RPC_STATUS_OK);
	basalt__envelope__free_unpacked(env, NULL);
	close(fd);
	assert_served();
}
END_TEST

START_TEST(test_vanish_mid_frame_tcp)
{
	static const guint8 b[] = { 0, 0, 0, 50, 0x08, 0x03 };
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int fd = raw_connect_tcp(ts.port);
	gint64 end = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;

	raw_handshake(fd);
	raw_send(fd, b, sizeof b);
	/* Linger 0: the close sends a reset, as a crashed host would. */
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	close(fd);
	while (log_count("Connection reset by peer") +
	    log_count("peer closed mid-frame (2 of 50 body bytes)") == 0 &&
	    g_get_monotonic_time() < end)
		log_wait("closed:", 1, 100);
	ck_assert_uint_eq(log_count("Connection reset by peer") +
	    log_count("peer closed mid-frame (2 of 50 body bytes)"), 1);
	assert_served();
}
END_TEST

/* The byte count in "write stalled ... with N bytes queued". */
static gsize
queued_at_close(void)
{
	return (gsize)log_number_before(" bytes queued");
}

static void
small_outbound(BsRpcServerOptions *o)
{
	o->limits.max_outbound = 256 * 1024;
	o->limits.write_timeout_ms = 500;
}

START_TEST(test_peer_never_reads)
{
	Basalt__PeekRequest req = BASALT__PEEK_REQUEST__INIT;
	GBytes *f;
	const guint8 *d;
	gsize len, off = 0;
	int fd, sent = 0, buf = 4096;
	gint64 end;

	teardown();
	start_with(small_outbound);
	fd = raw_connect_unix(ts.path);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
	raw_handshake(fd);
	/* Ask for 64 KiB replies, as fast as the server takes requests. */
	req.offset = 64 * 1024;
	f = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REQUEST, 1,
	    10, 0, &req.base, NULL, 0, NULL);
	d = g_bytes_get_data(f, &len);
	end = g_get_monotonic_time() + 3 * G_USEC_PER_SEC;
	while (sent < 400 && g_get_monotonic_time() < end &&
	    log_count("pausing reads") == 0) {
		ssize_t n = send(fd, d + off, len - off,
		    MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n > 0 && (off += (gsize)n) == len) {
			off = 0;
			sent++;
		} else if (n < 0) {
			log_wait("pausing reads", 1, 10);
		}
	}
	g_bytes_unref(f);
	ck_assert(log_wait("pausing reads until the peer catches up", 1, 5000));
	/* Bounded, not dead to others: a good client is served meanwhile. */
	assert_served();
	ck_assert(log_wait("closed: write stalled for 500 ms", 1, 5000));
	/* Queued output stayed near the limit: at most one more reply. */
	ck_assert_uint_eq(log_count("bytes queued"), 1);
	ck_assert_msg(queued_at_close() <= 256 * 1024 + 80 * 1024,
	    "%" G_GSIZE_FORMAT " bytes queued", queued_at_close());
	ck_assert(raw_wait_closed(fd, 5000));
	close(fd);
	assert_served();
}
END_TEST

static void
short_hello(BsRpcServerOptions *o)
{
	o->limits.hello_timeout_ms = 500;
}

START_TEST(test_thousand_idle_connections)
{
	enum { N = 1000 };
	struct rlimit rl;
	int *fds = g_new(int, N);
	guint closed = 0;

	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	ck_assert_uint_ge(rl.rlim_cur, 2 * N + 64);
	teardown();
	start_with(short_hello);
	for (int i = 0; i < N; i++)
		fds[i] = raw_connect_unix(ts.path);
	/* They sit silent; others are still served. */
	assert_served();
	ck_assert_msg(log_wait("closed: no hello within 500 ms", N, 15000),
	    "only %u closed", log_count("no hello within"));
	for (int i = 0; i < N; i++) {
		closed += raw_wait_closed(fds[i], 1000);
		close(fds[i]);
	}
	ck_assert_uint_eq(closed, N);
	ck_assert_uint_eq(ts_n_connections(&ts), 0);
	assert_served();
	g_free(fds);
}
END_TEST

static void
few_connections(BsRpcServerOptions *o)
{
	o->max_connections = 4;
}

START_TEST(test_max_connections)
{
	int fds[4], extra;

	teardown();
	start_with(few_connections);
	for (int i = 0; i < 4; i++) {
		fds[i] = raw_connect_unix(ts.path);
		raw_handshake(fds[i]);
	}
	extra = raw_connect_unix(ts.path);
	ck_assert(raw_wait_closed(extra, 5000));
	ck_assert(log_wait("too many connections (4), closing new connection "
	    "from unix:", 1, 5000));
	close(extra);
	close(fds[0]);
	ck_assert(log_wait("peer closed the connection", 1, 5000) ||
	    ts_n_connections(&ts) == 3);
	assert_served();
	for (int i = 1; i < 4; i++)
		close(fds[i]);
}
END_TEST

static void
short_idle(BsRpcServerOptions *o)
{
	o->limits.idle_timeout_ms = 200;
}

START_TEST(test_idle_timeout)
{
	int fd;

	teardown();
	start_with(short_idle);
	fd = raw_connect_unix(ts.path);
	raw_handshake(fd);
	ck_assert(raw_wait_closed(fd, 5000));
	ck_assert(log_wait("closed: idle for 200 ms", 1, 5000));
	close(fd);
	assert_served();
}
END_TEST

/* --- bounded cost per client (admit.c) ------------------------------- */

#define NOBODY 65534

/* Connect n sockets to the server as uid (SO_PEERCRED is taken at
 * connect()), from a child that hands them back: the caps key on the
 * peer's uid and this test may run as root, which they exempt. */
static void
connect_as(uid_t uid, int *fds, int n)
{
	int sp[2], st;
	pid_t pid;

	if (geteuid() != 0 || uid == geteuid()) {
		for (int i = 0; i < n; i++)
			fds[i] = raw_connect_unix(ts.path);
		return;
	}
	ck_assert_int_eq(chmod(ts.dir, 0755), 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(sp[0]);
		if (setresgid(uid, uid, uid) < 0 || setresuid(uid, uid, uid) < 0)
			_exit(2);
		for (int i = 0; i < n; i++) {
			struct sockaddr_un sun = { .sun_family = AF_UNIX };
			char dummy = 'x';
			union {
				char buf[CMSG_SPACE(sizeof(int))];
				struct cmsghdr align;
			} u;
			struct iovec iov = { &dummy, 1 };
			struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.buf, .msg_controllen = sizeof u.buf };
			struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
			int fd = socket(AF_UNIX, SOCK_STREAM, 0);

			strncpy(sun.sun_path, ts.path, sizeof sun.sun_path - 1);
			if (fd < 0 || connect(fd, (struct sockaddr *)&sun,
			    sizeof sun) < 0)
				_exit(3);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(cm), &fd, sizeof fd);
			if (sendmsg(sp[1], &msg, 0) != 1)
				_exit(4);
			close(fd);
		}
		_exit(0);
	}
	close(sp[1]);
	for (int i = 0; i < n; i++) {
		char dummy;
		union {
			char buf[CMSG_SPACE(sizeof(int))];
			struct cmsghdr align;
		} u;
		struct iovec iov = { &dummy, 1 };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
		    .msg_control = u.buf, .msg_controllen = sizeof u.buf };

		ck_assert_int_eq(recvmsg(sp[0], &msg, 0), 1);
		memcpy(&fds[i], CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
	}
	close(sp[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Say hello as role; TRUE if accepted. */
static gboolean
hello_as(int fd, int role)
{
	Basalt__Envelope *env;
	Basalt__HelloReply *r;
	gboolean ok;

	raw_send_hello(fd, BS_HELLO_MAGIC,
	    BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT, role);
	env = raw_recv(fd, 5000);
	if (env == NULL)
		return FALSE;
	r = basalt__hello_reply__unpack(NULL, env->body.len, env->body.data);
	ok = r != NULL && r->accepted;
	if (r != NULL)
		basalt__hello_reply__free_unpacked(r, NULL);
	basalt__envelope__free_unpacked(env, NULL);
	return ok;
}

static void
three_per_uid(BsRpcServerOptions *o)
{
	o->max_per_uid = 3;
}

/* Wait until the server holds exactly n connections. */
static gboolean
wait_connections(guint n, guint timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;

	while (ts_n_connections(&ts) != n) {
		if (g_get_monotonic_time() > end)
			return FALSE;
		g_usleep(2000);
	}
	return TRUE;
}

START_TEST(test_per_uid_cap)
{
	int fds[4], again;

	teardown();
	start_with(three_per_uid);
	connect_as(NOBODY, fds, 4);
	for (int i = 0; i < 3; i++)
		ck_assert(hello_as(fds[i], BASALT__ROLE__ROLE_CLIENT));
	ck_assert(raw_wait_closed(fds[3], 5000));
	ck_assert(log_wait("too many connections from uid 65534 (limit 3 per "
	    "user), closing new connection from unix:", 1, 5000));
	/* Another user (root here) is not held to that uid's count. */
	assert_served();
	/* A slot freed is a slot again. */
	close(fds[0]);
	close(fds[3]);
	/* Wait until the server has seen fds[0] go: a "peer closed" line
	 * may be assert_served()'s own connection, so count connections,
	 * which fall to fds[1] and fds[2] once both are gone. */
	ck_assert(wait_connections(2, 5000));
	connect_as(NOBODY, &again, 1);
	ck_assert(hello_as(again, BASALT__ROLE__ROLE_CLIENT));
	close(again);
	close(fds[1]);
	close(fds[2]);
}
END_TEST

/* TCP peers have a uid once the authenticator says so (MUNGE). */
static gboolean
auth_as_nobody(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	(void)cred;
	(void)len;
	(void)reason;
	(void)data;
	peer->has_cred = TRUE;
	peer->uid = NOBODY;
	peer->gid = NOBODY;
	return TRUE;
}

static void
two_per_uid_tcp(BsRpcServerOptions *o)
{
	o->max_per_uid = 2;
	o->authenticate = auth_as_nobody;
}

START_TEST(test_per_uid_cap_tcp)
{
	int fds[3];

	teardown();
	start_with(two_per_uid_tcp);
	for (int i = 0; i < 3; i++)
		fds[i] = raw_connect_tcp(ts.port);
	ck_assert(hello_as(fds[0], BASALT__ROLE__ROLE_CLIENT));
	ck_assert(hello_as(fds[1], BASALT__ROLE__ROLE_CLIENT));
	ck_assert(!hello_as(fds[2], BASALT__ROLE__ROLE_CLIENT));
	ck_assert(log_wait("hello refused: too many connections from uid "
	    "65534 (limit 2 per user)", 1, 5000));
	ck_assert(raw_wait_closed(fds[2], 5000));
	assert_served();
	for (int i = 0; i < 3; i++)
		close(fds[i]);
}
END_TEST

static void
reserve_two(BsRpcServerOptions *o)
{
	o->max_connections = 6;
	o->daemon_reserve = 2;
}

START_TEST(test_daemon_reserve)
{
	int fds[5], host, tcp;

	teardown();
	start_with(reserve_two);
	connect_as(NOBODY, fds, 5);
	for (int i = 0; i < 4; i++)
		ck_assert(hello_as(fds[i], BASALT__ROLE__ROLE_CLIENT));
	ck_assert(raw_wait_closed(fds[4], 5000));
	ck_assert(log_wait("too many client connections (4); the other 2 are "
	    "kept for daemons", 1, 5000));
	/* A daemon link still gets in, ... */
	host = raw_connect_unix(ts.path);
	ck_assert(hello_as(host, BASALT__ROLE__ROLE_EXEC_HOST));
	/* ... but not a client that could be anyone until its hello. */
	tcp = raw_connect_tcp(ts.port);
	ck_assert(!hello_as(tcp, BASALT__ROLE__ROLE_CLIENT));
	ck_assert(log_wait("hello refused: too many client connections", 1,
	    5000));
	ck_assert(!raw_wait_closed(host, 100));
	close(tcp);
	close(host);
	for (int i = 0; i < 5; i++)
		close(fds[i]);
}
END_TEST

static void
client_idle(BsRpcServerOptions *o)
{
	o->client_idle_timeout_ms = 300;
}

START_TEST(test_client_idle_timeout)
{
	int client, host;

	teardown();
	start_with(client_idle);
	host = raw_connect_unix(ts.path);
	ck_assert(hello_as(host, BASALT__ROLE__ROLE_EXEC_HOST));
	client = raw_connect_unix(ts.path);
	raw_handshake(client);
	ck_assert(raw_wait_closed(client, 5000));
	ck_assert(log_wait("closed: idle for 300 ms", 1, 5000));
	/* Daemon links have no idle timeout. */
	ck_assert_uint_eq(log_count("closed: idle"), 1);
	ck_assert(!raw_wait_closed(host, 500));
	ck_assert_uint_eq(ts_n_connections(&ts), 1);
	close(client);
	close(host);
}
END_TEST

static void
small_budget(BsRpcServerOptions *o)
{
	o->limits.max_outbound = 256 * 1024;
	o->limits.write_timeout_ms = 20000;
	o->max_outbound_total = 600 * 1024;
}

/* Ask for 64 KiB peek replies until the server stops reading. */
static void
flood_peeks(int fd, guint n)
{
	Basalt__PeekRequest req = BASALT__PEEK_REQUEST__INIT;
	int buf = 4096;

	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
	req.offset = 64 * 1024;
	for (guint i = 0; i < n; i++)
		raw_send_request(fd, i + 1, 10, &req.base);
}

START_TEST(test_output_budget)
{
	enum { N = 4 };
	int fds[N], host;
	guint closed = 0;

	teardown();
	start_with(small_budget);
	host = raw_connect_unix(ts.path);
	ck_assert(hello_as(host, BASALT__ROLE__ROLE_EXEC_HOST));
	/* Four readers that never read: each may queue 256 KiB (and one
	 * reply more), together no more than 600 KiB. */
	for (int i = 0; i < N; i++) {
		fds[i] = raw_connect_unix(ts.path);
		raw_handshake(fds[i]);
		flood_peeks(fds[i], 6);
	}
	ck_assert(log_wait("closed: slowest reader: ", 1, 5000));
	ck_assert(log_wait("limit 614400)", 1, 5000));
	for (int i = 0; i < N; i++)
		closed += raw_wait_closed(fds[i], 200);
	ck_assert_uint_ge(closed, 1);
	ck_assert_uint_lt(closed, N);
	/* The daemon link is untouched and others are served. */
	ck_assert(!raw_wait_closed(host, 100));
	assert_served();
	for (int i = 0; i < N; i++)
		close(fds[i]);
	close(host);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rpc-abuse");
	TCase *frames = tcase_create("frames");
	TCase *load = tcase_create("load");

	tcase_add_checked_fixture(frames, setup, teardown);
	tcase_add_test(frames, test_short_header);
	tcase_add_test(frames, test_short_body);
	tcase_add_test(frames, test_huge_length);
	tcase_add_test(frames, test_garbage);
	tcase_add_test(frames, test_request_before_hello);
	tcase_add_test(frames, test_second_hello);
	tcase_add_test(frames, test_unknown_method_keeps_connection);
	tcase_add_test(frames, test_vanish_mid_frame_tcp);
	tcase_add_checked_fixture(load, setup, teardown);
	tcase_add_test(load, test_peer_never_reads);
	tcase_add_test(load, test_thousand_idle_connections);
	tcase_add_test(load, test_max_connections);
	tcase_add_test(load, test_idle_timeout);
	tcase_add_test(load, test_per_uid_cap);
	tcase_add_test(load, test_per_uid_cap_tcp);
	tcase_add_test(load, test_daemon_reserve);
	tcase_add_test(load, test_client_idle_timeout);
	tcase_add_test(load, test_output_budget);
	suite_add_tcase(s, frames);
	suite_add_tcase(s, load);
	return bs_run_suite(s);
}
