/*
 * MultiCluster links: the state machine of mbatchd's link to each other
 * cluster (mc-links.h says who dials and how a peer is trusted).
 *
 *   dialer:   DISC --dial--> (connecting, MUNGE both ways) --Hello ok--> OK
 *             OK --closed, keepalive hello unanswered--> DISC, re-dial after a backoff
 *             (1 s doubling to 10 s, reset by a link that came up); each
 *             attempt tries the next of the cluster's Servers.
 *   acceptor: DISC --the peer's Hello on an admitted connection--> OK
 *             OK --closed, no keepalive hello for SILENCE_MAX_S--> DISC
 *             (so a hung dialer is seen too); a new admitted Hello from the same
 *             cluster replaces the old link (the peer re-dialed because it
 *             lost it, before we noticed).
 *
 * A peer's master is dialed at one of its Servers (resolved through
 * LSF_ENVDIR/hosts first) on our LSB_MBD_PORT: one port for every cluster,
 * as in LSF.  Every received message is checked before it is believed:
 * names are bounded and plain, profiles are counted and bounded, and only
 * the link's own connection speaks for a cluster.
 */
#include "config.h"

#include <string.h>

#include "auth/auth.h"
#include "auth/peer.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mc-hello.h"
#include "mbatchd/mc-links.h"
#include "util/error.h"
#include "util/log.h"

#define BACKOFF_MIN_MS 1000
#define BACKOFF_MAX_MS 10000
#define HELLO_TIMEOUT_MS 10000
#define PING_INTERVAL_S 15      /* the dialer's keepalive hello */
#define TICK_S 5
/* The acceptor gives up on a link that sent no hello for two keepalives
 * and a reply's time. */
#define SILENCE_MAX_S (2 * PING_INTERVAL_S + HELLO_TIMEOUT_MS / 1000)
#define MAX_LEASE_HOSTS 100000

typedef struct {
	McMethodFunc fn;
	void *data;
} McHandler;

typedef struct {
	McLinkChangeFunc fn;
	void *data;
} McWatcher;

typedef struct McLinks {
	Basalt__ClusterService_Service service;   /* first: see links_of() */
	Manager *m;
	GPtrArray *links;         /* McLink*, lsf.shared order */
	GArray *watchers;         /* McWatcher */
	McHandler handlers[8];    /* by ClusterService method index */
	guint ping_timer;
	gboolean stopping;
} McLinks;

static McLinks *
links_of(ProtobufCService *svc)
{
	return (McLinks *)(void *)svc;
}

const char *
mc_link_status_name(McLinkStatus s)
{
	return s == MC_LINK_OK ? "ok" : "disc";
}

static const char *
local_name(const McLinks *mc)
{
	return mc->m->cfg->cluster->name;
}

static const char *
auth_socket(const McLinks *mc)
{
	return bs_auth_socket(mc->m->cfg->lsf->values);
}

/* ---- link state ---------------------------------------------------------- */

static void
set_error(McLink *l, const char *why)
{
	g_free(l->last_error);
	l->last_error = why != NULL ? g_strdup(why) : NULL;
}

static void
notify(McLinks *mc, const McLink *l)
{
	for (guint i = 0; i < mc->watchers->len; i++) {
		const McWatcher *w = &g_array_index(mc->watchers, McWatcher, i);

		w->fn(mc->m, l, w->data);
	}
}

static void
apps_take(McLink *l, Basalt__RemoteApp **apps, size_t n)
{
	g_ptr_array_set_size(l->apps, 0);
	for (size_t i = 0; i < n; i++) {
		Basalt__RemoteApp *a = g_new(Basalt__RemoteApp, 1);

		basalt__remote_app__init(a);
		a->name = g_strdup(apps[i]->name);
		a->description = g_strdup(apps[i]->description);
		g_ptr_array_add(l->apps, a);
	}
}

static void
app_free(gpointer p)
{
	Basalt__RemoteApp *a = p;

	g_free(a->name);
	g_free(a->description);
	g_free(a);
}

/* What a hello (either way) says of its cluster. */
typedef struct {
	const char *master;
	Basalt__RemoteApp **apps;
	size_t n_apps;
	const char *admin;
	guint hosts, servers;
} HelloFacts;

static void
facts_take(McLink *l, const HelloFacts *f)
{
	apps_take(l, f->apps, f->n_apps);
	g_free(l->admin);
	l->admin = g_strdup(f->admin);
	l->hosts = f->hosts;
	l->server_hosts = f->servers;
}

static void
link_up(McLinks *mc, McLink *l, const HelloFacts *f)
{
	const BsRpcPeer *peer = bs_rpc_conn_peer(l->conn);

	g_free(l->master);
	l->master = g_strdup(f->master);
	facts_take(l, f);
	if (!l->dialer) {
		g_free(l->address);
		l->address = g_strdup(peer->address);
	}
	l->backoff_ms = BACKOFF_MIN_MS;
	l->next_dial = 0;
	l->last_heard_us = l->last_ping_us = g_get_monotonic_time();
	set_error(l, NULL);
	l->connects++;
	if (l->status != MC_LINK_OK) {
		l->status = MC_LINK_OK;
		l->since = manager_now();
	}
	log_notice("cluster %s: link ok (master %s, %s %s)", l->cluster,
	    l->master, l->dialer ? "dialed at" : "from", l->address);
	notify(mc, l);
}

static void schedule_dial(McLinks *mc, McLink *l);

/* The link's connection is gone (or never came): DISC, and re-dial. */
static void
link_down(McLinks *mc, McLink *l, const char *reason)
{
	gboolean was_ok = l->status == MC_LINK_OK;

	g_clear_pointer(&l->conn, bs_rpc_conn_unref);
	g_clear_pointer(&l->nonce, g_free);
	l->ping_in_flight = FALSE;
	set_error(l, reason);
	if (was_ok) {
		l->status = MC_LINK_DISC;
		l->since = manager_now();
		log_warning("cluster %s: link lost: %s", l->cluster, reason);
		notify(mc, l);
	}
	if (l->dialer && !mc->stopping)
		schedule_dial(mc, l);
}

static McLink *
link_by_name(McLinks *mc, const char *name)
{
	for (guint i = 0; name != NULL && i < mc->links->len; i++) {
		McLink *l = mc->links->pdata[i];

		if (strcmp(l->cluster, name) == 0)
			return l;
	}
	return NULL;
}

static McLink *
link_by_conn(McLinks *mc, const BsRpcConn *conn)
{
	for (guint i = 0; conn != NULL && i < mc->links->len; i++) {
		McLink *l = mc->links->pdata[i];

		if (l->conn == conn)
			return l;
	}
	return NULL;
}

/* ---- admission (the acceptor's side) ------------------------------------ */

static gboolean
is_server_address(McLinks *mc, char **servers, const char *origin)
{
	for (guint i = 0; servers != NULL && servers[i] != NULL; i++)
		if (bs_auth_host_has_address(mc->m->envdir, servers[i], origin))
			return TRUE;
	return FALSE;
}

gboolean
mc_links_admit(Manager *m, const BsRpcPeer *peer, char **reason)
{
	McLinks *mc = m->mc;
	const char *name = peer->name != NULL ? peer->name : "";
	McLink *l = mc != NULL ? link_by_name(mc, name) : NULL;

	if (!peer->is_tcp) {
		*reason = g_strdup("permission denied: a cluster links over TCP "
		    "with MUNGE, not on the local socket");
		return FALSE;
	}
	if (!peer->has_cred || peer->uid != 0) {
		*reason = g_strdup_printf("permission denied: cluster %s must "
		    "link as root", name);
		return FALSE;
	}
	if (l == NULL) {
		*reason = g_strdup_printf("permission denied: \"%s\" is not a "
		    "remote cluster of lsf.shared", name);
		return FALSE;
	}
	if (l->dialer) {
		*reason = g_strdup_printf("cluster %s: this side dials it (the "
		    "lower name dials)", name);
		return FALSE;
	}
	if (peer->auth_origin == NULL ||
	    !is_server_address(mc, l->servers, peer->auth_origin)) {
		*reason = g_strdup_printf("permission denied: the credential "
		    "comes from %s, which is not an address of cluster %s's "
		    "Servers", peer->auth_origin != NULL &&
		    *peer->auth_origin != '\0' ? peer->auth_origin :
		    "an unknown address", name);
		return FALSE;
	}
	return TRUE;
}

/* ---- ClusterService ------------------------------------------------------ */

typedef struct {
	BsRpcConn *conn;
	char *why;
} LateClose;

static gboolean
late_close(gpointer data)
{
	LateClose *lc = data;

	bs_rpc_conn_close(lc->conn, lc->why);
	bs_rpc_conn_unref(lc->conn);
	g_free(lc->why);
	g_free(lc);
	return G_SOURCE_REMOVE;
}

/* Close a refused peer once its refusal had time to leave (a close now
 * would drop the reply it should read). */
static void
close_soon(BsRpcConn *conn, const char *why)
{
	LateClose *lc = g_new(LateClose, 1);

	lc->conn = bs_rpc_conn_ref(conn);
	lc->why = g_strdup(why);
	g_timeout_add(500, late_close, lc);
}

static void
hello_refuse(ProtobufCClosure closure, void *call, Basalt__ErrorCode code,
    const char *why)
{
	Basalt__ClusterHelloReply r = BASALT__CLUSTER_HELLO_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;

	e.code = code;
	e.message = (char *)why;
	r.error = &e;
	closure(&r.base, call);
}

static void
svc_hello(Basalt__ClusterService_Service *svc,
    const Basalt__ClusterHelloRequest *req,
    Basalt__ClusterHelloReply_Closure closure, void *call)
{
	McLinks *mc = links_of(&svc->base);
	const BsRpcPeer *peer = bs_rpc_call_peer(call);
	BsRpcConn *conn = bs_rpc_call_conn(call);
	Basalt__ClusterHelloReply r = BASALT__CLUSTER_HELLO_REPLY__INIT;
	McLink *l = link_by_name(mc, peer->name);
	g_autofree char *bad = NULL;
	HelloFacts facts;
	McAppList apps;
	gboolean up = FALSE;

	if (l == NULL || l->dialer || peer->role != BASALT__ROLE__ROLE_MASTER) {
		/* Only an admitted dialer says hello; we dial the others. */
		hello_refuse((ProtobufCClosure)closure, call,
		    BASALT__ERROR_CODE__ERROR_CODE_PERMISSION,
		    "hello is for the dialing cluster");
		return;
	}
	if (g_strcmp0(req->cluster_name, l->cluster) != 0) {
		bad = g_strdup_printf("the hello names cluster \"%.40s\" on the "
		    "link of cluster %s", req->cluster_name, l->cluster);
	} else {
		bad = mc_hello_fields_bad(req->master_host, req->apps, req->n_apps,
		    req->admin);
	}
	if (bad != NULL) {
		log_warning("cluster %s: hello refused: %s", l->cluster, bad);
		hello_refuse((ProtobufCClosure)closure, call,
		    BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST, bad);
		close_soon(conn, bad);
		return;
	}
	facts = (HelloFacts){ req->master_host, req->apps, req->n_apps,
	    req->admin, req->hosts, req->servers };
	if (l->conn == conn && l->status == MC_LINK_OK) {
		/* The dialer's keepalive: its profiles may have changed. */
		facts_take(l, &facts);
		l->last_heard_us = g_get_monotonic_time();
	} else if (l->conn != conn) {
		if (l->conn != NULL) {
			BsRpcConn *old = l->conn;

			/* Detach first: its close must not take the new one down. */
			l->conn = NULL;
			bs_rpc_conn_close(old, "replaced by a new link from the "
			    "same cluster");
			bs_rpc_conn_unref(old);
		}
		l->conn = bs_rpc_conn_ref(conn);
		up = TRUE;
	} else {
		up = TRUE;
	}
	r.cluster_name = (char *)local_name(mc);
	r.master_host = mc->m->master_name;
	r.admin = (char *)mc_our_admin(mc->m->cfg);
	mc_our_hosts(mc->m->cfg, &r.hosts, &r.servers);
	mc_our_apps(mc->m->cfg, &apps);
	r.apps = apps.ptrs;
	r.n_apps = apps.n;
	closure(&r, call);
	mc_our_apps_clear(&apps);
	/* Up only after the answer left: what the link's watchers send at
	 * once (a Demand, a resent RemoteStatus) follows it on the
	 * connection, so the dialer has taken the link as ok before it
	 * reads them (before, it refused them: "the link has not said
	 * hello"). */
	if (up && l->conn == conn)
		link_up(mc, l, &facts);
}

/* Lease and Demand go to whoever registered for them, from an ok link. */
static gboolean
dispatch(McLinks *mc, guint method, const ProtobufCMessage *req,
    ProtobufCClosure closure, void *call, char **why)
{
	McLink *l = link_by_conn(mc, bs_rpc_call_conn(call));
	const McHandler *h = method < G_N_ELEMENTS(mc->handlers) ?
	    &mc->handlers[method] : NULL;

	if (l == NULL || l->status != MC_LINK_OK) {
		*why = g_strdup("the link has not said hello");
		return FALSE;
	}
	if (h == NULL || h->fn == NULL) {
		*why = g_strdup_printf("cluster %s does not serve %s yet",
		    local_name(mc),
		    basalt__cluster_service__descriptor.methods[method].name);
		return FALSE;
	}
	h->fn(mc->m, l->cluster, req, closure, call, h->data);
	return TRUE;
}

static guint
method_index(const char *name)
{
	const ProtobufCMethodDescriptor *d =
	    protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__cluster_service__descriptor, name);

	return (guint)(d - basalt__cluster_service__descriptor.methods);
}

/*
 * A lease message speaks for its sender only: the provider of a LeaseState
 * and the consumer of a LeaseDemand must be the cluster of the link, the
 * other side this cluster; names and counts are bounded.
 */
static char *
lease_names_bad(McLinks *mc, void *call, const char *policy,
    const char *from_field, const char *to_field)
{
	McLink *l = link_by_conn(mc, bs_rpc_call_conn(call));

	if (!mc_plain_name(policy, MC_MAX_NAME, FALSE))
		return g_strdup("bad policy name");
	if (l != NULL && g_strcmp0(from_field, l->cluster) != 0)
		return g_strdup_printf("cluster %s may speak only for itself, "
		    "not for \"%.40s\"", l->cluster, from_field);
	if (to_field != NULL && g_strcmp0(to_field, local_name(mc)) != 0)
		return g_strdup_printf("the lease names \"%.40s\", not this "
		    "cluster", to_field);
	return NULL;
}

static void
svc_lease(Basalt__ClusterService_Service *svc, const Basalt__LeaseState *req,
    Basalt__LeaseStateReply_Closure closure, void *call)
{
	Basalt__LeaseStateReply r = BASALT__LEASE_STATE_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	McLinks *mc = links_of(&svc->base);
	g_autofree char *why = lease_names_bad(mc, call, req->policy,
	    req->provider, req->consumer);

	for (size_t i = 0; why == NULL && i < req->n_hosts; i++)
		if (!mc_plain_name(req->hosts[i]->host_name, MC_MAX_HOST_NAME, TRUE))
			why = g_strdup_printf("bad host name in lease %s",
			    req->policy);
	if (why == NULL && req->n_hosts > MAX_LEASE_HOSTS)
		why = g_strdup_printf("%zu hosts in one lease, more than %d",
		    req->n_hosts, MAX_LEASE_HOSTS);
	if (why == NULL && dispatch(mc, method_index("Lease"), &req->base,
	    (ProtobufCClosure)closure, call, &why))
		return;
	e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
	e.message = why;
	r.error = &e;
	closure(&r, call);
}

static void
svc_demand(Basalt__ClusterService_Service *svc, const Basalt__LeaseDemand *req,
    Basalt__LeaseDemandReply_Closure closure, void *call)
{
	Basalt__LeaseDemandReply r = BASALT__LEASE_DEMAND_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	McLinks *mc = links_of(&svc->base);
	g_autofree char *why = lease_names_bad(mc, call, req->policy,
	    req->consumer, NULL);

	if (why == NULL && dispatch(mc, method_index("Demand"), &req->base,
	    (ProtobufCClosure)closure, call, &why))
		return;
	e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
	e.message = why;
	r.error = &e;
	closure(&r, call);
}

/* The job relay (mc-jobs-*.c): its handlers check what the messages say;
 * here only that the link said hello. */
#define RELAY_METHOD(fn, Req, Reply, REPLY_INIT, name)                        \
static void                                                                   \
fn(Basalt__ClusterService_Service *svc, const Req *req,                       \
    Reply##_Closure closure, void *call)                                      \
{                                                                             \
	Reply r = REPLY_INIT;                                                 \
	Basalt__Error e = BASALT__ERROR__INIT;                                \
	g_autofree char *why = NULL;                                          \
                                                                              \
	if (dispatch(links_of(&svc->base), method_index(name), &req->base,    \
	    (ProtobufCClosure)closure, call, &why))                           \
		return;                                                       \
	e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;                  \
	e.message = why;                                                      \
	r.error = &e;                                                         \
	closure(&r, call);                                                    \
}
RELAY_METHOD(svc_remote_start, Basalt__RemoteStartRequest,
    Basalt__RemoteStartReply, BASALT__REMOTE_START_REPLY__INIT, "RemoteStart")
RELAY_METHOD(svc_remote_signal, Basalt__RemoteSignalRequest,
    Basalt__RemoteSignalReply, BASALT__REMOTE_SIGNAL_REPLY__INIT, "RemoteSignal")
RELAY_METHOD(svc_remote_status, Basalt__RemoteStatusRequest,
    Basalt__RemoteStatusReply, BASALT__REMOTE_STATUS_REPLY__INIT, "RemoteStatus")

/* ---- dialing --------------------------------------------------------------- */

/* A cluster's master runs as root: no administrator stands in for it. */
static gboolean
nobody_else(uid_t uid, void *data)
{
	(void)uid;
	(void)data;
	return FALSE;
}

static gboolean
verify_peer(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	McLink *l = data;
	McLinks *mc = l->owner;
	g_autofree char *who = g_strdup_printf("not accepted as cluster %s",
	    l->cluster);
	BsAuthCred c;

	if (!bs_auth_server_verify(auth_socket(mc), cred, len, l->nonce, who,
	    nobody_else, NULL, &c, reason))
		return FALSE;
	if (c.uid != 0 || g_strcmp0(c.name, l->cluster) != 0 ||
	    !is_server_address(mc, l->servers, c.origin)) {
		*reason = g_strdup_printf("%s: its credential is of uid %u, "
		    "cluster \"%.40s\", from %s; cluster %s's master runs as "
		    "root on one of its Servers", who, (unsigned)c.uid,
		    c.name != NULL ? c.name : "", c.origin, l->cluster);
		bs_auth_cred_clear(&c);
		return FALSE;
	}
	bs_auth_peer_take(peer, &c);
	bs_auth_cred_clear(&c);
	return TRUE;
}

static void
hello_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data)
{
	McLink *l = data;
	McLinks *mc = l->owner;
	const Basalt__ClusterHelloReply *r =
	    (const Basalt__ClusterHelloReply *)reply;
	g_autofree char *bad = NULL;
	HelloFacts facts;

	l->ping_in_flight = FALSE;
	if (mc->stopping || l->conn != conn)
		return;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		bad = g_strdup_printf("hello failed: %s", error != NULL ?
		    error->message : "no reply");
	else if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
		bad = g_strdup_printf("hello refused: %.200s", r->error->message);
	else if (g_strcmp0(r->cluster_name, l->cluster) != 0)
		bad = g_strdup_printf("hello answered by cluster \"%.40s\"",
		    r->cluster_name);
	else
		bad = mc_hello_fields_bad(r->master_host, r->apps, r->n_apps,
		    r->admin);
	if (bad != NULL) {
		/* The close calls link_down with this reason. */
		bs_rpc_conn_close(conn, bad);
		return;
	}
	facts = (HelloFacts){ r->master_host, r->apps, r->n_apps, r->admin,
	    r->hosts, r->servers };
	if (l->status == MC_LINK_OK) {
		/* A keepalive: its profiles may have changed. */
		facts_take(l, &facts);
		l->last_heard_us = g_get_monotonic_time();
		return;
	}
	link_up(mc, l, &facts);
}

static gboolean
send_hello(McLinks *mc, McLink *l)
{
	Basalt__ClusterHelloRequest req = BASALT__CLUSTER_HELLO_REQUEST__INIT;
	g_autoptr(GError) err = NULL;
	McAppList apps;
	gboolean ok;

	req.cluster_name = (char *)local_name(mc);
	req.master_host = mc->m->master_name;
	req.admin = (char *)mc_our_admin(mc->m->cfg);
	mc_our_hosts(mc->m->cfg, &req.hosts, &req.servers);
	mc_our_apps(mc->m->cfg, &apps);
	req.apps = apps.ptrs;
	req.n_apps = apps.n;
	ok = bs_rpc_conn_call(l->conn, &basalt__cluster_service__descriptor,
	    method_index("Hello"), &req.base, HELLO_TIMEOUT_MS, hello_replied, l,
	    &err);
	mc_our_apps_clear(&apps);
	if (ok)
		l->ping_in_flight = TRUE;
	else
		bs_rpc_conn_close(l->conn, err != NULL ? err->message :
		    "hello cannot be sent");
	return ok;
}

static void
dial_ready(BsRpcConn *conn, void *data)
{
	McLink *l = data;

	if (!l->owner->stopping && l->conn == conn)
		send_hello(l->owner, l);
}

static void
dial_closed(BsRpcConn *conn, const char *reason, void *data)
{
	McLink *l = data;

	if (l->owner->stopping || l->conn != conn)
		return;
	if (l->status != MC_LINK_OK && g_strcmp0(l->last_error, reason) != 0)
		log_warning("cluster %s: cannot link to %s: %s", l->cluster,
		    l->address != NULL ? l->address : "its master", reason);
	link_down(l->owner, l, reason);
}

static void
dial_now(McLinks *mc, McLink *l)
{
	const BsLsfConf *lsf = mc->m->cfg->lsf;
	const char *server = l->servers[l->server_idx % g_strv_length(l->servers)];
	g_autofree char *addr = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *why = NULL;
	BsRpcDialOptions opts;
	GBytes *cred;

	l->server_idx++;
	l->next_dial = 0;
	if (!bs_auth_enabled(lsf->values)) {
		why = g_strdup("MUNGE is not configured (LSF_AUTH=munge in "
		    "lsf.conf): clusters cannot link");
	} else if (lsf->mbd_port <= 0) {
		why = g_strdup("LSB_MBD_PORT is not set: the masters of all "
		    "clusters listen on that one port");
	} else if ((addr = bs_auth_host_address(mc->m->envdir, server)) == NULL) {
		why = g_strdup_printf("cannot resolve server %s", server);
	}
	if (why == NULL) {
		g_free(l->address);
		l->address = g_strdup_printf("%s:%d", addr, lsf->mbd_port);
		g_clear_pointer(&l->nonce, g_free);
		cred = bs_auth_hello_credential(auth_socket(mc),
		    BASALT__ROLE__ROLE_MASTER, local_name(mc), &l->nonce, &err);
		if (cred == NULL) {
			why = g_strdup(err->message);
		} else {
			bs_rpc_dial_options_init(&opts);
			opts.host = addr;
			opts.port = (guint16)lsf->mbd_port;
			opts.role = BASALT__ROLE__ROLE_MASTER;
			opts.name = local_name(mc);
			opts.credential = g_bytes_get_data(cred,
			    &opts.credential_len);
			opts.verify_reply = verify_peer;
			opts.verify_data = l;
			opts.serve = &mc->service.base;
			opts.limits.hello_timeout_ms = HELLO_TIMEOUT_MS;
			l->conn = bs_rpc_dial(&opts, NULL, dial_ready,
			    dial_closed, l, &err);
			g_bytes_unref(cred);
			if (l->conn == NULL)
				why = g_strdup(err->message);
		}
	}
	if (why != NULL) {
		if (g_strcmp0(l->last_error, why) != 0)
			log_warning("cluster %s: cannot link: %s", l->cluster, why);
		link_down(mc, l, why);
	}
}

static gboolean
dial_timer(gpointer data)
{
	McLink *l = data;

	l->retry_timer = 0;
	dial_now(l->owner, l);
	return G_SOURCE_REMOVE;
}

static void
schedule_dial(McLinks *mc, McLink *l)
{
	(void)mc;
	if (l->retry_timer != 0)
		return;
	l->retry_timer = g_timeout_add(l->backoff_ms, dial_timer, l);
	l->next_dial = manager_now() + (l->backoff_ms + 999) / 1000;
	l->backoff_ms = MIN(l->backoff_ms * 2, BACKOFF_MAX_MS);
}

/*
 * Keepalive: the dialer says hello every PING_INTERVAL_S and closes the
 * link when that goes unanswered (the call's timeout); the acceptor closes
 * a link that has said nothing for SILENCE_MAX_S.  A master that hangs
 * with its connection open is seen lost from both sides.
 */
static gboolean
ping_tick(gpointer data)
{
	McLinks *mc = data;
	gint64 now = g_get_monotonic_time();

	for (guint i = 0; i < mc->links->len; i++) {
		McLink *l = mc->links->pdata[i];
		g_autofree char *why = NULL;

		if (l->status != MC_LINK_OK || l->conn == NULL)
			continue;
		if (l->dialer && !l->ping_in_flight &&
		    now - l->last_ping_us >= PING_INTERVAL_S * G_USEC_PER_SEC) {
			l->last_ping_us = now;
			send_hello(mc, l);
		} else if (!l->dialer &&
		    now - l->last_heard_us > SILENCE_MAX_S * G_USEC_PER_SEC) {
			why = g_strdup_printf("no keepalive from cluster %s for "
			    "%d s", l->cluster, SILENCE_MAX_S);
			/* The server's close callback takes the link down. */
			bs_rpc_conn_close(l->conn, why);
		}
	}
	return G_SOURCE_CONTINUE;
}

/* ---- the table --------------------------------------------------------------- */

static void
link_free(gpointer p)
{
	McLink *l = p;

	if (l->retry_timer != 0)
		g_source_remove(l->retry_timer);
	if (l->conn != NULL) {
		bs_rpc_conn_close(l->conn, "mbatchd is stopping");
		bs_rpc_conn_unref(l->conn);
	}
	g_free(l->cluster);
	g_strfreev(l->servers);
	g_free(l->master);
	g_free(l->address);
	g_free(l->last_error);
	g_free(l->nonce);
	g_free(l->admin);
	g_ptr_array_unref(l->apps);
	g_free(l);
}

void
mc_links_init(Manager *m)
{
	McLinks *mc = g_new0(McLinks, 1);
	Basalt__ClusterService_Service init = BASALT__CLUSTER_SERVICE__INIT(svc_);
	g_autoptr(GPtrArray) peers = bs_conf_cluster_peers(m->cfg->cluster);

	mc->service = init;
	mc->m = m;
	mc->links = g_ptr_array_new_with_free_func(link_free);
	mc->watchers = g_array_new(FALSE, FALSE, sizeof(McWatcher));
	m->mc = mc;
	for (guint i = 0; i < peers->len; i++) {
		const BsClusterEntry *e = peers->pdata[i];
		McLink *l = g_new0(McLink, 1);

		l->cluster = g_strdup(e->name);
		l->servers = g_strdupv(e->servers);
		l->dialer = strcmp(local_name(mc), e->name) < 0;
		l->status = MC_LINK_DISC;
		l->since = manager_now();
		l->apps = g_ptr_array_new_with_free_func(app_free);
		l->backoff_ms = BACKOFF_MIN_MS;
		l->owner = mc;
		g_ptr_array_add(mc->links, l);
	}
}

void
mc_links_start(Manager *m)
{
	McLinks *mc = m->mc;

	for (guint i = 0; i < mc->links->len; i++) {
		McLink *l = mc->links->pdata[i];

		log_notice("cluster %s: %s (Servers %s)", l->cluster, l->dialer ?
		    "this side dials its master" : "its master dials this side",
		    l->servers[0]);
		if (l->dialer)
			dial_now(mc, l);
	}
	if (mc->links->len > 0)
		mc->ping_timer = g_timeout_add_seconds(TICK_S, ping_tick, mc);
}

void
mc_links_free(Manager *m)
{
	McLinks *mc = m->mc;

	if (mc == NULL)
		return;
	mc->stopping = TRUE;
	if (mc->ping_timer != 0)
		g_source_remove(mc->ping_timer);
	g_ptr_array_unref(mc->links);
	g_array_unref(mc->watchers);
	g_free(mc);
	m->mc = NULL;
}

ProtobufCService *
mc_links_service(Manager *m)
{
	return &m->mc->service.base;
}

guint
mc_links_count(Manager *m)
{
	return m->mc != NULL ? m->mc->links->len : 0;
}

const McLink *
mc_link_nth(Manager *m, guint i)
{
	return i < mc_links_count(m) ? m->mc->links->pdata[i] : NULL;
}

const McLink *
mc_link_find(Manager *m, const char *cluster)
{
	return m->mc != NULL ? link_by_name(m->mc, cluster) : NULL;
}

gboolean
mc_link_call(Manager *m, const char *cluster, guint method,
    const ProtobufCMessage *req, guint timeout_ms, BsRpcReplyFunc cb,
    void *data, GError **err)
{
	McLink *l = m->mc != NULL ? link_by_name(m->mc, cluster) : NULL;

	if (l == NULL || l->status != MC_LINK_OK || l->conn == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "no link to cluster "
		    "%s%s%s", cluster, l != NULL && l->last_error != NULL ?
		    ": " : "", l != NULL && l->last_error != NULL ?
		    l->last_error : "");
		return FALSE;
	}
	return bs_rpc_conn_call(l->conn, &basalt__cluster_service__descriptor,
	    method, req, timeout_ms, cb, data, err);
}

void
mc_links_on_change(Manager *m, McLinkChangeFunc fn, void *data)
{
	McWatcher w = { fn, data };

	g_array_append_val(m->mc->watchers, w);
}

void
mc_links_on_method(Manager *m, guint method, McMethodFunc fn, void *data)
{
	g_return_if_fail(method < G_N_ELEMENTS(m->mc->handlers));
	m->mc->handlers[method].fn = fn;
	m->mc->handlers[method].data = data;
}

void
mc_links_conn_closed(Manager *m, BsRpcConn *conn, const char *reason)
{
	McLink *l;

	if (m->mc == NULL || m->mc->stopping)
		return;
	l = link_by_conn(m->mc, conn);
	if (l != NULL && !l->dialer)
		link_down(m->mc, l, reason);
}
