/*
 * mbatchd/mc-links.c, the link state machine, between two in-process
 * masters (alpha at 127.0.0.1, beta at 127.0.0.2, one port, as LSF's one
 * LSB_MBD_PORT) over real TCP with a private munged: the lower name dials;
 * both sides reach ok after the MUNGE exchange and the ClusterService
 * hello; watchers hear each change; a method registered on one side is
 * served to the other, an unregistered one is answered with an error; a
 * lost peer turns the link disc with its reason and the dialer re-dials by
 * itself once the peer is back.  mc_links_admit's rules are checked on
 * made-up peers.  Skipped when munged is not installed.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "auth/auth.h"
#include "munged-fixture.h"
#include "auth/peer.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mc-links.h"
#include "util/error.h"

gint64
manager_now(void)
{
	return g_get_real_time() / G_USEC_PER_SEC;
}

static BsMungedFixture munge;
static char *dir;              /* munge.dir */
static char *sock;             /* munge.sock */
static guint16 port;

/* A port free on 127.0.0.2 (then on 127.0.0.1 too, almost surely). */
static guint16
free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	inet_pton(AF_INET, "127.0.0.2", &a.sin_addr);
	g_assert(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
	g_assert(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	close(fd);
	return ntohs(a.sin_port);
}

/* One cluster's configuration: both clusters in lsf.shared; every address
 * credential comes from 127.0.0.1 (one munged), so beta-master has that
 * address too, after its own. */
static char *
write_envdir(const char *name)
{
	char *env = g_build_filename(dir, name, NULL);
	g_autofree char *conf = g_strdup_printf("LSF_CLUSTER_NAME=%s\n"
	    "LSF_AUTH=munge\nLSF_MUNGE_SOCKET=%s\nLSB_MBD_PORT=%u\n", name, sock,
	    port);
	g_autofree char *cl = g_strdup_printf("lsf.cluster.%s", name);
	struct {
		const char *file, *text;
	} files[] = {
		{ "lsf.conf", conf },
		{ "lsf.shared", "Begin Cluster\nClusterName Servers\n"
		  "alpha alpha-master\nbeta beta-master\nEnd Cluster\n" },
		{ cl, "Begin ClusterAdmins\nAdministrators = root\nEnd ClusterAdmins\n" },
		{ "hosts", "127.0.0.1 alpha-master\n127.0.0.2 beta-master\n"
		  "127.0.0.1 beta-master\n" },
	};

	g_mkdir_with_parents(env, 0755);
	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *p = g_build_filename(env, files[i].file, NULL);

		g_assert(g_file_set_contents(p, files[i].text, -1, NULL));
	}
	return env;
}

/* ---- an mbatchd reduced to its links ------------------------------------ */

typedef struct {
	Manager m;
	BsRpcServer *srv;
	GPtrArray *changes;       /* "cluster:ok" / "cluster:disc" */
} Mbd;

static gboolean
t_authenticate(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	(void)data;
	return bs_auth_peer_hello(sock, peer, cred, len, reason);
}

static gboolean
t_admit(const BsRpcPeer *peer, char **reason, void *data)
{
	Mbd *d = data;

	if (peer->role == BASALT__ROLE__ROLE_MASTER)
		return mc_links_admit(&d->m, peer, reason);
	*reason = g_strdup("only masters here");
	return FALSE;
}

static GBytes *
t_reply_cred(const BsRpcPeer *peer, void *data)
{
	Mbd *d = data;

	return bs_auth_peer_reply(sock, peer, d->m.cfg->cluster->name, NULL);
}

static void
t_closed(BsRpcConn *conn, const char *reason, void *data)
{
	Mbd *d = data;

	mc_links_conn_closed(&d->m, conn, reason);
}

static void
t_change(Manager *m, const McLink *l, void *data)
{
	Mbd *d = data;

	(void)m;
	g_ptr_array_add(d->changes, g_strdup_printf("%s:%s", l->cluster,
	    mc_link_status_name(l->status)));
}

static Mbd *
mbd_start(const char *name, const char *addr)
{
	Mbd *d = g_new0(Mbd, 1);
	g_autofree char *env = write_envdir(name);
	g_autoptr(BsDiags) diags = bs_diags_new();
	BsRpcServerOptions opts;
	GError *err = NULL;

	d->m.cfg = bs_config_load(env, 0, diags);
	ck_assert_msg(d->m.cfg != NULL, "%s", bs_diags_to_string(diags));
	d->m.envdir = g_strdup(env);
	d->m.master_name = g_strdup_printf("%s-master", name);
	d->changes = g_ptr_array_new_with_free_func(g_free);
	mc_links_init(&d->m);
	mc_links_on_change(&d->m, t_change, d);
	bs_rpc_server_options_init(&opts);
	opts.server_name = name;
	opts.authenticate = t_authenticate;
	opts.admit = t_admit;
	opts.reply_credential = t_reply_cred;
	opts.auth_data = d;
	d->srv = bs_rpc_server_new(&opts, NULL);
	bs_rpc_server_register(d->srv, BASALT__ROLE__ROLE_MASTER,
	    mc_links_service(&d->m));
	bs_rpc_server_set_callbacks(d->srv, NULL, t_closed, d);
	ck_assert_msg(bs_rpc_server_listen_tcp(d->srv, addr, port, NULL, &err),
	    "%s", err != NULL ? err->message : "");
	mc_links_start(&d->m);
	return d;
}

static void
mbd_stop(Mbd *d)
{
	mc_links_free(&d->m);
	bs_rpc_server_free(d->srv);
	bs_config_free(d->m.cfg);
	g_free(d->m.envdir);
	g_free(d->m.master_name);
	g_ptr_array_unref(d->changes);
	g_free(d);
}

static const McLink *
link_of(Mbd *d, const char *cluster)
{
	const McLink *l = mc_link_find(&d->m, cluster);

	ck_assert_ptr_nonnull(l);
	return l;
}

static gboolean
link_status_is(Mbd *d, const char *cluster, McLinkStatus s)
{
	return link_of(d, cluster)->status == s;
}

/* Run the loop until both links are in status s (or the deadline). */
static gboolean
until_both(Mbd *a, Mbd *b, McLinkStatus s, guint ms)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)ms * 1000;

	while (g_get_monotonic_time() < deadline) {
		if ((a == NULL || link_status_is(a, "beta", s)) &&
		    (b == NULL || link_status_is(b, "alpha", s)))
			return TRUE;
		g_main_context_iteration(NULL, FALSE);
		g_usleep(1000);
	}
	return FALSE;
}

static gboolean
iterate_until(gboolean *flag, guint ms)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)ms * 1000;

	while (!*flag && g_get_monotonic_time() < deadline) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(1000);
	}
	return *flag;
}

/* ---- tests ---------------------------------------------------------------- */

START_TEST(test_link_up_both_sides)
{
	Mbd *a = mbd_start("alpha", "127.0.0.1");
	Mbd *b = mbd_start("beta", "127.0.0.2");
	const McLink *la, *lb;
	g_autofree char *want = g_strdup_printf("127.0.0.2:%u", port);

	ck_assert_uint_eq(mc_links_count(&a->m), 1);
	ck_assert_ptr_null(mc_link_find(&a->m, "alpha"));
	ck_assert(until_both(a, b, MC_LINK_OK, 10000));
	la = link_of(a, "beta");
	lb = link_of(b, "alpha");
	ck_assert(la->dialer);
	ck_assert(!lb->dialer);
	ck_assert_str_eq(la->master, "beta-master");
	ck_assert_str_eq(lb->master, "alpha-master");
	ck_assert_str_eq(la->address, want);
	ck_assert_uint_eq(la->connects, 1);
	ck_assert_uint_eq(lb->connects, 1);
	ck_assert_ptr_null(la->last_error);
	ck_assert_uint_eq(a->changes->len, 1);
	ck_assert_str_eq(g_ptr_array_index(a->changes, 0), "beta:ok");
	ck_assert_str_eq(g_ptr_array_index(b->changes, 0), "alpha:ok");
	mbd_stop(a);
	mbd_stop(b);
}
END_TEST

typedef struct {
	gboolean done;
	Basalt__RpcStatus status;
	char *error;
	guint64 generation;
} Reply;

static void
lease_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data)
{
	Reply *r = data;
	const Basalt__LeaseStateReply *lr = (const void *)reply;

	(void)conn;
	(void)error;
	r->status = status;
	if (lr != NULL && lr->error != NULL)
		r->error = g_strdup(lr->error->message);
	if (lr != NULL)
		r->generation = lr->generation;
	r->done = TRUE;
}

static void
demand_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data)
{
	Reply *r = data;
	const Basalt__LeaseDemandReply *dr = (const void *)reply;

	(void)conn;
	(void)error;
	r->status = status;
	if (dr != NULL && dr->error != NULL)
		r->error = g_strdup(dr->error->message);
	r->done = TRUE;
}

static char *lease_from;

static void
on_lease(Manager *m, const char *cluster, const ProtobufCMessage *req,
    ProtobufCClosure closure, void *call, void *data)
{
	const Basalt__LeaseState *ls = (const void *)req;
	Basalt__LeaseStateReply r = BASALT__LEASE_STATE_REPLY__INIT;

	(void)m;
	(void)data;
	g_free(lease_from);
	lease_from = g_strdup_printf("%s %s", cluster, ls->policy);
	r.generation = ls->generation + 1;
	closure(&r.base, call);
}

static guint
method(const char *name)
{
	const ProtobufCMethodDescriptor *d =
	    protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__cluster_service__descriptor, name);

	return (guint)(d - basalt__cluster_service__descriptor.methods);
}

START_TEST(test_methods_both_ways)
{
	Mbd *a = mbd_start("alpha", "127.0.0.1");
	Mbd *b = mbd_start("beta", "127.0.0.2");
	Basalt__LeaseState ls = BASALT__LEASE_STATE__INIT;
	Basalt__LeaseDemand dm = BASALT__LEASE_DEMAND__INIT;
	Reply r1 = { 0 }, r2 = { 0 }, r3 = { 0 };
	GError *err = NULL;

	ck_assert(until_both(a, b, MC_LINK_OK, 10000));
	mc_links_on_method(&b->m, method("Lease"), on_lease, NULL);
	ls.policy = (char *)"export1";
	ls.provider = (char *)"alpha";
	ls.consumer = (char *)"beta";
	ls.generation = 6;
	/* alpha dialed; it calls beta on that link ... */
	ck_assert(mc_link_call(&a->m, "beta", method("Lease"), &ls.base, 5000,
	    lease_replied, &r1, &err));
	ck_assert(iterate_until(&r1.done, 5000));
	ck_assert_int_eq(r1.status, BASALT__RPC_STATUS__RPC_STATUS_OK);
	ck_assert_ptr_null(r1.error);
	ck_assert_uint_eq(r1.generation, 7);
	ck_assert_str_eq(lease_from, "alpha export1");
	/* A cluster speaks only for itself. */
	ls.provider = (char *)"gamma";
	memset(&r1, 0, sizeof r1);
	ck_assert(mc_link_call(&a->m, "beta", method("Lease"), &ls.base, 5000,
	    lease_replied, &r1, &err));
	ck_assert(iterate_until(&r1.done, 5000));
	ck_assert_str_eq(r1.error, "cluster alpha may speak only for itself, "
	    "not for \"gamma\"");
	g_clear_pointer(&r1.error, g_free);
	ls.provider = (char *)"alpha";
	ls.consumer = (char *)"delta";
	memset(&r1, 0, sizeof r1);
	ck_assert(mc_link_call(&a->m, "beta", method("Lease"), &ls.base, 5000,
	    lease_replied, &r1, &err));
	ck_assert(iterate_until(&r1.done, 5000));
	ck_assert_str_eq(r1.error, "the lease names \"delta\", not this cluster");
	g_clear_pointer(&r1.error, g_free);
	/* ... and beta calls alpha on the same link, which serves nothing. */
	dm.policy = (char *)"export1";
	dm.consumer = (char *)"beta";
	ls.provider = (char *)"beta";
	ls.consumer = (char *)"alpha";
	ck_assert(mc_link_call(&b->m, "alpha", method("Demand"), &dm.base, 5000,
	    demand_replied, &r2, &err));
	ck_assert(iterate_until(&r2.done, 5000));
	ck_assert_ptr_nonnull(r2.error);
	ck_assert_str_eq(r2.error, "cluster alpha does not serve Demand yet");
	/* beta serves Lease, alpha does not. */
	ck_assert(mc_link_call(&b->m, "alpha", method("Lease"), &ls.base, 5000,
	    lease_replied, &r3, &err));
	ck_assert(iterate_until(&r3.done, 5000));
	ck_assert_str_eq(r3.error, "cluster alpha does not serve Lease yet");
	/* No link to a cluster that is not a peer. */
	ck_assert(!mc_link_call(&a->m, "nosuch", method("Lease"), &ls.base, 5000,
	    lease_replied, &r1, &err));
	ck_assert_str_eq(err->message, "no link to cluster nosuch");
	g_clear_error(&err);
	g_free(r2.error);
	g_free(r3.error);
	g_clear_pointer(&lease_from, g_free);
	mbd_stop(a);
	mbd_stop(b);
}
END_TEST

START_TEST(test_loss_and_redial)
{
	Mbd *a = mbd_start("alpha", "127.0.0.1");
	Mbd *b = mbd_start("beta", "127.0.0.2");
	Basalt__LeaseState ls = BASALT__LEASE_STATE__INIT;
	GError *err = NULL;
	Reply r = { 0 };
	const McLink *la;

	ck_assert(until_both(a, b, MC_LINK_OK, 10000));
	/* The acceptor goes away. */
	mbd_stop(b);
	ck_assert(until_both(a, NULL, MC_LINK_DISC, 10000));
	la = link_of(a, "beta");
	ck_assert_ptr_nonnull(la->last_error);
	ck_assert_uint_eq(a->changes->len, 2);
	ck_assert_str_eq(g_ptr_array_index(a->changes, 1), "beta:disc");
	ck_assert(!mc_link_call(&a->m, "beta", method("Lease"), &ls.base, 5000,
	    lease_replied, &r, &err));
	ck_assert_msg(g_str_has_prefix(err->message, "no link to cluster beta: "),
	    "%s", err->message);
	g_clear_error(&err);
	/* Let a dial or two fail, then bring beta back: alpha re-dials. */
	{
		gboolean never = FALSE;

		iterate_until(&never, 1500);
	}
	ck_assert(link_status_is(a, "beta", MC_LINK_DISC));
	ck_assert_int_gt(la->next_dial, 0);
	b = mbd_start("beta", "127.0.0.2");
	ck_assert(until_both(a, b, MC_LINK_OK, 15000));
	ck_assert_uint_eq(link_of(a, "beta")->connects, 2);
	ck_assert_ptr_null(link_of(a, "beta")->last_error);
	ck_assert_str_eq(g_ptr_array_index(a->changes, 2), "beta:ok");

	/* The dialer goes away: beta sees disc and waits to be dialed. */
	mbd_stop(a);
	ck_assert(until_both(NULL, b, MC_LINK_DISC, 10000));
	ck_assert_int_eq(link_of(b, "alpha")->next_dial, 0);
	a = mbd_start("alpha", "127.0.0.1");
	ck_assert(until_both(a, b, MC_LINK_OK, 15000));
	ck_assert_uint_eq(link_of(b, "alpha")->connects, 2);
	mbd_stop(a);
	mbd_stop(b);
}
END_TEST

/* Who may link: made-up peers against beta's table. */
START_TEST(test_admit_rules)
{
	Mbd *b = mbd_start("beta", "127.0.0.2");
	Mbd *a = mbd_start("alpha", "127.0.0.1");
	BsRpcPeer p = { 0 };
	char *why = NULL;

	p.is_tcp = TRUE;
	p.has_cred = TRUE;
	p.uid = 0;
	p.role = BASALT__ROLE__ROLE_MASTER;
	p.name = (char *)"alpha";
	p.auth_origin = (char *)"127.0.0.1";
	ck_assert(mc_links_admit(&b->m, &p, &why));

	p.is_tcp = FALSE;
	ck_assert(!mc_links_admit(&b->m, &p, &why));
	ck_assert_str_eq(why, "permission denied: a cluster links over TCP "
	    "with MUNGE, not on the local socket");
	g_clear_pointer(&why, g_free);
	p.is_tcp = TRUE;

	p.uid = 1000;
	ck_assert(!mc_links_admit(&b->m, &p, &why));
	ck_assert_str_eq(why, "permission denied: cluster alpha must link as root");
	g_clear_pointer(&why, g_free);
	p.uid = 0;

	p.name = (char *)"beta";
	ck_assert(!mc_links_admit(&b->m, &p, &why));
	ck_assert_str_eq(why, "permission denied: \"beta\" is not a remote "
	    "cluster of lsf.shared");
	g_clear_pointer(&why, g_free);
	p.name = (char *)"alpha";

	p.auth_origin = (char *)"192.0.2.1";
	ck_assert(!mc_links_admit(&b->m, &p, &why));
	ck_assert_str_eq(why, "permission denied: the credential comes from "
	    "192.0.2.1, which is not an address of cluster alpha's Servers");
	g_clear_pointer(&why, g_free);

	/* alpha dials beta: beta dialing alpha is refused by alpha. */
	p.name = (char *)"beta";
	p.auth_origin = (char *)"127.0.0.2";
	ck_assert(!mc_links_admit(&a->m, &p, &why));
	ck_assert_str_eq(why, "cluster beta: this side dials it (the lower "
	    "name dials)");
	g_clear_pointer(&why, g_free);
	mbd_stop(a);
	mbd_stop(b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("mc_links");
	TCase *tc = tcase_create("links");
	int rc;

	signal(SIGPIPE, SIG_IGN);
	if (!bs_munged_start(&munge, "check-mc-links-XXXXXX")) {
		bs_munged_stop(&munge);
		printf("1..0 # SKIP munged is not installed or did not start\n");
		return 0;
	}
	dir = munge.dir;
	sock = munge.sock;
	port = free_port();
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_link_up_both_sides);
	tcase_add_test(tc, test_methods_both_ways);
	tcase_add_test(tc, test_loss_and_redial);
	tcase_add_test(tc, test_admit_rules);
	suite_add_tcase(s, tc);
	rc = bs_run_suite(s);
	bs_munged_stop(&munge);
	return rc;
}
