/*
 * lib/auth against a real private munged (started here, own key and
 * socket, killed at the end), and the hello exchange of lib/rpc with its
 * hooks: a credential is bound to its hello (role, name) and to its
 * connection (the reply carries the dialer's nonce), a replayed or forged
 * one is refused, and a dialer that rejects the reply's credential never
 * serves the peer.  Skipped when munged is not installed.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <munge.h>

#include "tap.h"
#include "rpc-test.h"
#include "auth/auth.h"
#include "munged-fixture.h"
#include "util/error.h"

static BsMungedFixture munge;
static char *dir;              /* munge.dir */
static char *sock;             /* munge.sock */

START_TEST(test_hello_round_trip)
{
	g_autofree char *nonce = NULL;
	GError *err = NULL;
	BsAuthCred c;
	gsize len;
	GBytes *b = bs_auth_hello_credential(sock, 2, "hostA", &nonce, &err);
	const guint8 *d;

	ck_assert_msg(b != NULL, "%s", err ? err->message : "");
	ck_assert_uint_eq(strlen(nonce), 32);
	d = g_bytes_get_data(b, &len);
	ck_assert_msg(bs_auth_hello_verify(sock, d, len, 2, "hostA", &c, &err),
	    "%s", err ? err->message : "");
	ck_assert_uint_eq(c.uid, getuid());
	ck_assert_uint_eq(c.gid, getgid());
	ck_assert_str_eq(c.origin, "127.0.0.1");
	ck_assert_str_eq(c.nonce, nonce);
	bs_auth_cred_clear(&c);
	/* munged remembers it: the same credential again is a replay. */
	ck_assert(!bs_auth_hello_verify(sock, d, len, 2, "hostA", &c, &err));
	ck_assert_msg(strstr(err->message, "eplayed") != NULL, "%s", err->message);
	g_clear_error(&err);
	g_bytes_unref(b);
}
END_TEST

START_TEST(test_hello_bound_to_role_and_name)
{
	GError *err = NULL;
	BsAuthCred c;
	gsize len;
	GBytes *b = bs_auth_hello_credential(sock, 1, "alice", NULL, &err);
	const guint8 *d = g_bytes_get_data(b, &len);

	/* A user's client credential does not make an execution host. */
	ck_assert(!bs_auth_hello_verify(sock, d, len, 2, "alice", &c, &err));
	ck_assert_msg(strstr(err->message, "made for another hello") != NULL,
	    "%s", err->message);
	g_clear_error(&err);
	g_bytes_unref(b);
	b = bs_auth_hello_credential(sock, 2, "hostA", NULL, &err);
	d = g_bytes_get_data(b, &len);
	ck_assert(!bs_auth_hello_verify(sock, d, len, 2, "hostB", &c, &err));
	g_clear_error(&err);
	g_bytes_unref(b);
	/* Names with spaces or control characters never get a credential. */
	ck_assert_ptr_null(bs_auth_hello_credential(sock, 2, "a b", NULL, &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bs_auth_hello_credential(sock, 2, "a\nb", NULL, &err));
	g_clear_error(&err);
}
END_TEST

START_TEST(test_forged_and_missing)
{
	GError *err = NULL;
	BsAuthCred c;
	const char *forged = "MUNGE:AAAAforgedforgedforged:";

	ck_assert(!bs_auth_hello_verify(sock, (const guint8 *)forged,
	    strlen(forged), 1, "x", &c, &err));
	ck_assert_msg(strstr(err->message, "MUNGE credential refused") != NULL,
	    "%s", err->message);
	g_clear_error(&err);
	ck_assert(!bs_auth_hello_verify(sock, NULL, 0, 1, "x", &c, &err));
	ck_assert_str_eq(err->message, "no MUNGE credential");
	g_clear_error(&err);
	/* A payload made with libmunge directly, naming a host with a
	 * newline (a log forger), is refused even though it matches. */
	{
		munge_ctx_t ctx = munge_ctx_create();
		const char *p = "basalt-hello role=2 name=a\nb nonce=0123456789abcdef01";
		char *cred = NULL;

		ck_assert(munge_ctx_set(ctx, MUNGE_OPT_SOCKET, sock) == EMUNGE_SUCCESS);
		ck_assert(munge_encode(&cred, ctx, p, (int)strlen(p)) == EMUNGE_SUCCESS);
		ck_assert(!bs_auth_hello_verify(sock, (const guint8 *)cred,
		    strlen(cred), 2, "a\nb", &c, &err));
		ck_assert_msg(strstr(err->message, "printable") != NULL, "%s",
		    err->message);
		g_clear_error(&err);
		free(cred);
		munge_ctx_destroy(ctx);
	}
	/* A NUL inside is refused before munged sees it. */
	ck_assert(!bs_auth_hello_verify(sock, (const guint8 *)"MUNGE:\0x", 8, 1,
	    "x", &c, &err));
	g_clear_error(&err);
}
END_TEST

START_TEST(test_reply_nonce)
{
	GError *err = NULL;
	BsAuthCred c;
	gsize len;
	GBytes *b = bs_auth_reply_credential(sock, "00112233445566778899aabb",
	    "cluster1", &err);
	const guint8 *d = g_bytes_get_data(b, &len);

	ck_assert(!bs_auth_reply_verify(sock, d, len, "ffff2233445566778899aabb",
	    &c, &err));
	ck_assert_msg(strstr(err->message, "another connection") != NULL, "%s",
	    err->message);
	g_clear_error(&err);
	g_bytes_unref(b);
	b = bs_auth_reply_credential(sock, "00112233445566778899aabb",
	    "cluster1", &err);
	d = g_bytes_get_data(b, &len);
	ck_assert(bs_auth_reply_verify(sock, d, len, "00112233445566778899aabb",
	    &c, &err));
	ck_assert_str_eq(c.name, "cluster1");
	bs_auth_cred_clear(&c);
	g_bytes_unref(b);
	/* A hello credential is no reply, even with the right nonce. */
	{
		g_autofree char *nonce = NULL;

		b = bs_auth_hello_credential(sock, 2, "h", &nonce, &err);
		d = g_bytes_get_data(b, &len);
		ck_assert(!bs_auth_reply_verify(sock, d, len, nonce, &c, &err));
		g_clear_error(&err);
		g_bytes_unref(b);
	}
}
END_TEST

START_TEST(test_host_addresses)
{
	g_autofree char *hosts = g_build_filename(dir, "hosts", NULL);

	ck_assert(g_file_set_contents(hosts, "# LSF hosts\n"
	    "127.0.0.1 vh1 vh2   # virtual hosts\n10.1.2.3 far far-alias\n",
	    -1, NULL));
	ck_assert(bs_auth_host_has_address(dir, "vh2", "127.0.0.1"));
	ck_assert(bs_auth_host_has_address(dir, "far-alias", "10.1.2.3"));
	ck_assert(!bs_auth_host_has_address(dir, "far", "127.0.0.1"));
	ck_assert(!bs_auth_host_has_address(dir, "vh1", "127.0.0.2"));
	/* Not in the file: the resolver decides. */
	ck_assert(bs_auth_host_has_address(dir, "localhost", "127.0.0.1"));
	ck_assert(!bs_auth_host_has_address(NULL, "no-such-host.invalid",
	    "127.0.0.1"));
	/* A changed file is read again (the parse is cached). */
	ck_assert(g_file_set_contents(hosts, "127.0.0.2 vh1 VH2\n", -1, NULL));
	ck_assert(bs_auth_host_has_address(dir, "vh1", "127.0.0.2"));
	ck_assert(bs_auth_host_has_address(dir, "vh2", "127.0.0.2"));
	ck_assert(!bs_auth_host_has_address(dir, "vh1", "127.0.0.1"));
	unlink(hosts);
}
END_TEST

/* ---- the hello exchange over lib/rpc with the hooks ---- */

static gboolean
t_authenticate(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	BsAuthCred c;
	GError *err = NULL;

	if (!bs_auth_hello_verify(sock, cred, len, peer->role, peer->name, &c,
	    &err)) {
		*reason = g_strdup(err->message);
		g_error_free(err);
		return FALSE;
	}
	peer->has_cred = TRUE;
	peer->uid = c.uid;
	peer->auth_nonce = g_steal_pointer(&c.nonce);
	bs_auth_cred_clear(&c);
	return TRUE;
}

static gboolean
t_admit(const BsRpcPeer *peer, char **reason, void *data)
{
	if (peer->role == BASALT__ROLE__ROLE_EXEC_HOST &&
	    g_strcmp0(peer->name, "intruder") == 0) {
		*reason = g_strdup("permission denied: intruder");
		return FALSE;
	}
	return TRUE;
}

static const char *reply_nonce_override;

static GBytes *
t_reply_cred(const BsRpcPeer *peer, void *data)
{
	return bs_auth_reply_credential(sock, reply_nonce_override != NULL ?
	    reply_nonce_override : peer->auth_nonce, "testmaster", NULL);
}

typedef struct {
	char *nonce;
	gboolean checked;
} Check;

static gboolean
t_verify(const guint8 *cred, gsize len, char **reason, void *data)
{
	Check *ck = data;
	BsAuthCred c;
	GError *err = NULL;

	ck->checked = TRUE;
	if (!bs_auth_reply_verify(sock, cred, len, ck->nonce, &c, &err)) {
		*reason = g_strdup(err->message);
		g_error_free(err);
		return FALSE;
	}
	bs_auth_cred_clear(&c);
	return TRUE;
}

static BsClient *
connect_with(TestServer *ts, int role, const char *name, GError **err,
    Check *ck)
{
	BsClientOptions o;
	GBytes *b;
	BsClient *c;

	bs_client_options_init(&o);
	o.host = "127.0.0.1";
	o.port = ts->port;
	o.role = role;
	o.name = name;
	o.timeout_ms = 5000;
	b = bs_auth_hello_credential(sock, role, name, &ck->nonce, NULL);
	ck_assert_ptr_nonnull(b);
	o.credential = g_bytes_get_data(b, &o.credential_len);
	o.verify_reply = t_verify;
	o.verify_data = ck;
	c = bs_client_connect(&o, err);
	g_bytes_unref(b);
	return c;
}

START_TEST(test_hello_exchange)
{
	TestServer ts;
	BsRpcServerOptions opts;
	GError *err = NULL;
	Check ck = { 0 };
	BsClient *c;

	ts_options(&opts);
	opts.allow_unauthenticated_tcp = FALSE;
	opts.authenticate = t_authenticate;
	opts.admit = t_admit;
	opts.reply_credential = t_reply_cred;
	ts_start(&ts, &opts);

	c = connect_with(&ts, BASALT__ROLE__ROLE_CLIENT, "alice", &err, &ck);
	ck_assert_msg(c != NULL, "%s", err ? err->message : "");
	ck_assert(ck.checked);
	bs_client_free(c);
	g_free(ck.nonce);

	/* The admit hook sees the authenticated claim and may refuse it. */
	memset(&ck, 0, sizeof ck);
	c = connect_with(&ts, BASALT__ROLE__ROLE_EXEC_HOST, "intruder", &err, &ck);
	ck_assert_ptr_null(c);
	ck_assert_msg(strstr(err->message, "permission denied: intruder") != NULL,
	    "%s", err->message);
	g_clear_error(&err);
	g_free(ck.nonce);

	/* A reply that answers another connection's nonce is rejected. */
	memset(&ck, 0, sizeof ck);
	reply_nonce_override = "0123456789abcdef0123456789abcdef";
	c = connect_with(&ts, BASALT__ROLE__ROLE_CLIENT, "alice", &err, &ck);
	reply_nonce_override = NULL;
	ck_assert_ptr_null(c);
	ck_assert_int_eq(err->code, BS_ERROR_REFUSED);
	ck_assert_msg(strstr(err->message, "not who it should be") != NULL,
	    "%s", err->message);
	g_clear_error(&err);
	g_free(ck.nonce);

	/* No credential at all: refused with the reason. */
	c = bs_client_connect_tcp("127.0.0.1", ts.port, 5000, &err);
	ck_assert_ptr_null(c);
	ck_assert_msg(strstr(err->message, "no MUNGE credential") != NULL, "%s",
	    err->message);
	g_clear_error(&err);
	ts_stop(&ts);
}
END_TEST

/* A dialer (main loop) whose verify_reply refuses is never ready. */
typedef struct {
	gboolean ready, closed;
	char *reason;
} DialState;

static void
d_ready(BsRpcConn *conn, void *data)
{
	((DialState *)data)->ready = TRUE;
}

static void
d_closed(BsRpcConn *conn, const char *reason, void *data)
{
	DialState *st = data;

	st->closed = TRUE;
	st->reason = g_strdup(reason);
}

static gboolean
d_refuse_uid(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	if (len == 0) {
		*reason = g_strdup("no MUNGE credential");
		return FALSE;
	}
	return TRUE;
}

START_TEST(test_dial_verify_reply)
{
	TestServer ts;
	BsRpcServerOptions opts;
	BsRpcDialOptions d;
	GMainContext *ctx = g_main_context_new();
	DialState st = { 0 };
	BsRpcConn *conn;
	GError *err = NULL;

	/* A server that gives no reply credential (a fake master). */
	ts_options(&opts);
	ts_start(&ts, &opts);
	bs_rpc_dial_options_init(&d);
	d.host = "127.0.0.1";
	d.port = ts.port;
	d.role = BASALT__ROLE__ROLE_EXEC_HOST;
	d.name = "hostA";
	d.verify_reply = d_refuse_uid;
	conn = bs_rpc_dial(&d, ctx, d_ready, d_closed, &st, &err);
	ck_assert_ptr_nonnull(conn);
	ck_assert(iterate_until(ctx, &st.closed, 5000));
	ck_assert(!st.ready);
	ck_assert_msg(strstr(st.reason, "peer refused: no MUNGE credential") !=
	    NULL, "%s", st.reason);
	g_free(st.reason);
	bs_rpc_conn_unref(conn);
	ts_stop(&ts);
	g_main_context_unref(ctx);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("auth");
	TCase *tc = tcase_create("munge");
	int rc;

	if (!bs_munged_start(&munge, "check-auth-XXXXXX")) {
		printf("1..0 # SKIP munged is not installed or did not start\n");
		bs_munged_stop(&munge);
		return 0;
	}
	dir = munge.dir;
	sock = munge.sock;
	tcase_add_test(tc, test_hello_round_trip);
	tcase_add_test(tc, test_hello_bound_to_role_and_name);
	tcase_add_test(tc, test_forged_and_missing);
	tcase_add_test(tc, test_reply_nonce);
	tcase_add_test(tc, test_host_addresses);
	tcase_add_test(tc, test_hello_exchange);
	tcase_add_test(tc, test_dial_verify_reply);
	suite_add_tcase(s, tc);
	rc = bs_run_suite(s);
	bs_munged_stop(&munge);
	return rc;
}
