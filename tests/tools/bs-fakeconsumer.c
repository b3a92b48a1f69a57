/*
 * bs-fakeconsumer: a consumer cluster whose figures a test sets, for the
 * lease tests on a real provider (t1002): it links to the provider's
 * mbatchd as another cluster's master (ROLE_MASTER, MUNGE, the real
 * ClusterService), answers each LeaseState, and reports Demand figures
 * read from a file, as a consumer whose jobs run on the lease would.  The
 * rebalancing rule needs the consumer's running slots on the lease's
 * hosts; this lets a test set them without a job relay.
 *
 *   bs-fakeconsumer IP:PORT --name CLUSTER --cred SOCKET --dir DIR
 *
 * DIR/figures holds lines "POLICY USED PENDING" (USED: the consumer's
 * running slots on each host of the lease, comma-separated; PENDING its
 * pending slots), re-read every second; DIR/noack, while it exists, makes
 * it answer and report the generation it held before (so the provider's
 * lease stays inactive).  Each LeaseState received is appended to
 * DIR/leases as "POLICY generation=G status=S consumer=C provider=P
 * made=M"; each Demand sent to DIR/demands as "POLICY generation=G", each
 * refused one to DIR/refused.  It can also play a provider: DIR/send
 * (see send_leases) holds LeaseStates to send once, their answers go to
 * DIR/replies.  Runs until killed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "cluster.pb-c.h"
#include "rpc/rpc.h"
#include "util/error.h"

typedef struct {
	char *policy, *provider;
	char **hosts;
	guint64 generation;       /* the newest received */
	guint64 acked;            /* what we said we hold */
} FakeLease;

static const char *dir, *name;
static BsRpcConn *conn;
static gboolean linked;
static GHashTable *leases;     /* policy -> FakeLease */

static void
lease_free(gpointer p)
{
	FakeLease *l = p;

	g_free(l->policy);
	g_free(l->provider);
	g_strfreev(l->hosts);
	g_free(l);
}

static gboolean
noack(void)
{
	g_autofree char *p = g_build_filename(dir, "noack", NULL);

	return g_file_test(p, G_FILE_TEST_EXISTS);
}

static void
append(const char *file, const char *line)
{
	g_autofree char *p = g_build_filename(dir, file, NULL);
	FILE *f = fopen(p, "a");

	if (f != NULL) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

static void
svc_hello(Basalt__ClusterService_Service *svc, const Basalt__ClusterHelloRequest *req,
    Basalt__ClusterHelloReply_Closure closure, void *call)
{
	Basalt__ClusterHelloReply r = BASALT__CLUSTER_HELLO_REPLY__INIT;

	(void)svc;
	(void)req;
	r.cluster_name = (char *)name;
	closure(&r, call);
}

static void
svc_lease(Basalt__ClusterService_Service *svc, const Basalt__LeaseState *req,
    Basalt__LeaseStateReply_Closure closure, void *call)
{
	Basalt__LeaseStateReply r = BASALT__LEASE_STATE_REPLY__INIT;
	FakeLease *l = g_hash_table_lookup(leases, req->policy);
	g_autofree char *line = NULL;
	int cons = 0, prov = 0;

	(void)svc;
	if (l == NULL) {
		l = g_new0(FakeLease, 1);
		l->policy = g_strdup(req->policy);
		g_hash_table_insert(leases, l->policy, l);
	}
	g_free(l->provider);
	l->provider = g_strdup(req->provider);
	g_strfreev(l->hosts);
	l->hosts = g_new0(char *, req->n_hosts + 1);
	for (size_t i = 0; i < req->n_hosts; i++) {
		l->hosts[i] = g_strdup(req->hosts[i]->host_name);
		cons += (int)req->hosts[i]->slots;
		prov += i < req->n_exported_slots ?
		    (int)req->exported_slots[i] - (int)req->hosts[i]->slots : 0;
	}
	l->generation = req->generation;
	if (!noack())
		l->acked = req->generation;
	line = g_strdup_printf("%s generation=%" G_GUINT64_FORMAT " status=%d consumer=%d "
	    "provider=%d made=%d", req->policy, req->generation, (int)req->status, cons,
	    prov, req->made);
	append("leases", line);
	r.generation = l->acked;
	closure(&r, call);
}

static void
svc_demand(Basalt__ClusterService_Service *svc, const Basalt__LeaseDemand *req,
    Basalt__LeaseDemandReply_Closure closure, void *call)
{
	Basalt__LeaseDemandReply r = BASALT__LEASE_DEMAND_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;

	(void)svc;
	(void)req;
	e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
	e.message = (char *)"a fake consumer lends nothing";
	r.error = &e;
	closure(&r, call);
}

static void
demand_replied(BsRpcConn *c, Basalt__RpcStatus status, const ProtobufCMessage *reply,
    const GError *error, void *data)
{
	const Basalt__LeaseDemandReply *r = (const Basalt__LeaseDemandReply *)reply;
	g_autofree char *policy = data;

	(void)c;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		g_autofree char *l = g_strdup_printf("%s %s", policy,
		    error != NULL ? error->message : "no reply");

		append("refused", l);
	} else if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		g_autofree char *l = g_strdup_printf("%s %s", policy, r->error->message);

		append("refused", l);
	}
}

/* One Demand per figures line; a policy we hold no lease of is sent
 * as is (the provider must refuse it). */
static void
send_demands(void)
{
	g_autofree char *p = g_build_filename(dir, "figures", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(p, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
		g_auto(GStrv) used = NULL;
		Basalt__LeaseDemand d = BASALT__LEASE_DEMAND__INIT;
		g_autofree Basalt__LeasedHost *hs = NULL;
		g_autofree Basalt__LeasedHost **hp = NULL;
		FakeLease *l;
		guint n;

		if (g_strv_length(w) != 3)
			continue;
		l = g_hash_table_lookup(leases, w[0]);
		used = g_strsplit(w[1], ",", -1);
		n = g_strv_length(used);
		hs = g_new0(Basalt__LeasedHost, n + 1);
		hp = g_new0(Basalt__LeasedHost *, n + 1);
		for (guint k = 0; k < n; k++) {
			basalt__leased_host__init(&hs[k]);
			hs[k].host_name = l != NULL && k < g_strv_length(l->hosts) ?
			    l->hosts[k] : (char *)"nosuch";
			hs[k].used = (guint32)atoi(used[k]);
			hp[k] = &hs[k];
		}
		d.policy = w[0];
		d.consumer = (char *)name;
		d.provider = l != NULL ? l->provider : (char *)"";
		d.pending_slots = (guint32)atoi(w[2]);
		d.hosts = hp;
		d.n_hosts = n;
		if (l != NULL && !noack())
			l->acked = l->generation;
		d.generation = l != NULL ? l->acked : 0;
		if (bs_rpc_conn_call(conn, &basalt__cluster_service__descriptor, 2, &d.base,
		    5000, demand_replied, g_strdup(w[0]), NULL)) {
			g_autofree char *sent = g_strdup_printf("%s generation=%" G_GUINT64_FORMAT,
			    w[0], d.generation);

			append("demands", sent);
		}
	}
}

static void
hello_replied(BsRpcConn *c, Basalt__RpcStatus status, const ProtobufCMessage *reply,
    const GError *error, void *data)
{
	const Basalt__ClusterHelloReply *r = (const Basalt__ClusterHelloReply *)reply;

	(void)c;
	(void)data;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK ||
	    (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)) {
		fprintf(stderr, "bs-fakeconsumer: hello failed: %s\n",
		    error != NULL ? error->message : r->error->message);
		exit(2);
	}
	if (!linked)
		append("linked", r->cluster_name);
	linked = TRUE;
}

static void
say_hello(void)
{
	Basalt__ClusterHelloRequest req = BASALT__CLUSTER_HELLO_REQUEST__INIT;

	req.cluster_name = (char *)name;
	req.master_host = (char *)"fake-master";
	bs_rpc_conn_call(conn, &basalt__cluster_service__descriptor, 0, &req.base, 5000,
	    hello_replied, NULL, NULL);
}

static void
lease_replied(BsRpcConn *c, Basalt__RpcStatus status, const ProtobufCMessage *reply,
    const GError *error, void *data)
{
	const Basalt__LeaseStateReply *r = (const Basalt__LeaseStateReply *)reply;
	g_autofree char *policy = data;
	g_autofree char *line = NULL;

	(void)c;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		line = g_strdup_printf("%s failed: %s", policy, error != NULL ? error->message : "");
	else if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
		line = g_strdup_printf("%s refused: %s", policy, r->error->message);
	else
		line = g_strdup_printf("%s ok generation=%" G_GUINT64_FORMAT, policy, r->generation);
	append("replies", line);
}

/* DIR/send: lines "POLICY PROVIDER CONSUMER HOST:SLOTS:EXPORTED,... GEN",
 * each sent once as a LeaseState (playing a provider), then the file is
 * removed; the answers go to DIR/replies. */
static void
send_leases(void)
{
	g_autofree char *p = g_build_filename(dir, "send", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(p, &text, NULL, NULL))
		return;
	unlink(p);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
		g_auto(GStrv) hosts = NULL;
		g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func(g_free);
		Basalt__LeaseState st = BASALT__LEASE_STATE__INIT;
		g_autofree Basalt__LeasedHost *hs = NULL;
		g_autofree Basalt__LeasedHost **hp = NULL;
		g_autofree uint32_t *ex = NULL;
		guint n;

		if (g_strv_length(w) != 5)
			continue;
		hosts = g_strsplit(w[3], ",", -1);
		n = g_strv_length(hosts);
		hs = g_new0(Basalt__LeasedHost, n + 1);
		hp = g_new0(Basalt__LeasedHost *, n + 1);
		ex = g_new0(uint32_t, n + 1);
		for (guint k = 0; k < n; k++) {
			g_auto(GStrv) f = g_strsplit(hosts[k], ":", 3);

			basalt__leased_host__init(&hs[k]);
			hs[k].host_name = g_strdup(f[0]);
			g_ptr_array_add(keep, hs[k].host_name);
			hs[k].slots = f[1] != NULL ? (guint32)atoi(f[1]) : 1;
			ex[k] = f[1] != NULL && f[2] != NULL ? (guint32)atoi(f[2]) : hs[k].slots;
			hp[k] = &hs[k];
		}
		st.policy = w[0];
		st.provider = w[1];
		st.consumer = w[2];
		st.status = BASALT__LEASE_STATUS__LEASE_STATUS_OK;
		st.generation = (guint64)g_ascii_strtoull(w[4], NULL, 10);
		st.shared = FALSE;
		st.made = TRUE;
		st.hosts = hp;
		st.n_hosts = n;
		st.exported_slots = ex;
		st.n_exported_slots = n;
		bs_rpc_conn_call(conn, &basalt__cluster_service__descriptor, 1, &st.base,
		    5000, lease_replied, g_strdup(w[0]), NULL);
	}
}

static gboolean
tick(gpointer data)
{
	static guint n;

	(void)data;
	if (linked) {
		send_demands();
		send_leases();
	}
	if (++n % 10 == 0)
		say_hello();
	return G_SOURCE_CONTINUE;
}

static void
ready(BsRpcConn *c, void *data)
{
	(void)c;
	(void)data;
	say_hello();
}

static void
closed(BsRpcConn *c, const char *reason, void *data)
{
	(void)c;
	(void)data;
	fprintf(stderr, "bs-fakeconsumer: link closed: %s\n", reason);
	exit(1);
}

int
main(int argc, char **argv)
{
	Basalt__ClusterService_Service svc = BASALT__CLUSTER_SERVICE__INIT(svc_);
	const char *addr = NULL, *sock = NULL;
	g_autofree char *host = NULL;
	BsRpcDialOptions o;
	GError *err = NULL;
	const char *colon;
	GBytes *cred;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--cred") == 0 && i + 1 < argc)
			sock = argv[++i];
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			dir = argv[++i];
		else
			addr = argv[i];
	}
	if (addr == NULL || name == NULL || sock == NULL || dir == NULL ||
	    (colon = strrchr(addr, ':')) == NULL) {
		fprintf(stderr, "usage: bs-fakeconsumer IP:PORT --name CLUSTER --cred SOCKET "
		    "--dir DIR\n");
		return 1;
	}
	leases = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, lease_free);
	cred = bs_auth_hello_credential(sock, BASALT__ROLE__ROLE_MASTER, name, NULL, &err);
	if (cred == NULL) {
		fprintf(stderr, "bs-fakeconsumer: %s\n", err->message);
		return 1;
	}
	host = g_strndup(addr, (gsize)(colon - addr));
	bs_rpc_dial_options_init(&o);
	o.host = host;
	o.port = (guint16)atoi(colon + 1);
	o.role = BASALT__ROLE__ROLE_MASTER;
	o.name = name;
	o.credential = g_bytes_get_data(cred, &o.credential_len);
	o.serve = &svc.base;
	conn = bs_rpc_dial(&o, NULL, ready, closed, NULL, &err);
	if (conn == NULL) {
		fprintf(stderr, "bs-fakeconsumer: %s\n", err->message);
		return 1;
	}
	g_timeout_add_seconds(1, tick, NULL);
	g_main_loop_run(g_main_loop_new(NULL, FALSE));
	return 0;
}
