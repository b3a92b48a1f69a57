/*
 * The accepting side: listeners, the connection table, and the hello that
 * decides what a peer may do.
 *
 * The role a peer claims in its hello picks the service it is served
 * (a table filled by the daemon), but identity never comes from the hello:
 * Unix peers are known by SO_PEERCRED, TCP peers only through the
 * authenticator hook (MUNGE).  Limits live here because a server faces
 * strangers: max connections is checked right after accept() and before
 * any memory is spent, and the hello timeout reaps silent sockets.
 */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include "rpc/admit.h"
#include "rpc/conn-private.h"
#include "util/error.h"

#define ACCEPTS_PER_DISPATCH 64
/* After EMFILE the listener stays readable; back off instead of spinning. */
#define ACCEPT_BACKOFF_MS 100

typedef struct {
	BsRpcServer *srv;
	int fd;
	gboolean is_tcp;
	char *path;         /* Unix socket file to remove on shutdown */
	GSource *src;
	GSource *backoff;
} Listener;

struct BsRpcServer {
	BsRpcServerOptions opts;
	char *server_name;
	GMainContext *ctx;
	GHashTable *services;      /* Role -> ProtobufCService * */
	GPtrArray *listeners;
	GHashTable *conns;         /* set of BsRpcConn *, one reference each */
	BsRpcConnFunc ready;
	BsRpcClosedFunc closed;
	void *cb_data;
	guint serial;
	BsRpcGate gate;            /* see bs_rpc_server_set_barrier() */
	Admit admit;               /* per-client caps (admit.c) */
};

static void server_hello(BsRpcConn *conn, const Basalt__Envelope *env,
    void *data);
static void server_conn_closed(BsRpcConn *conn, const char *reason,
    void *data);

static const ConnHooks server_hooks = {
	.hello = server_hello,
	.closed = server_conn_closed,
};

void
bs_rpc_server_options_init(BsRpcServerOptions *opts)
{
	memset(opts, 0, sizeof *opts);
	bs_rpc_limits_init(&opts->limits);
	opts->max_connections = 4096;
	opts->server_name = "basalt";
}

BsRpcServer *
bs_rpc_server_new(const BsRpcServerOptions *opts, GMainContext *ctx)
{
	BsRpcServer *srv = g_new0(BsRpcServer, 1);

	if (opts != NULL)
		srv->opts = *opts;
	else
		bs_rpc_server_options_init(&srv->opts);
	srv->server_name = g_strdup(srv->opts.server_name != NULL ?
	    srv->opts.server_name : "basalt");
	srv->opts.server_name = srv->server_name;
	if (ctx == NULL)
		ctx = g_main_context_ref_thread_default();
	else
		g_main_context_ref(ctx);
	srv->ctx = ctx;
	srv->services = g_hash_table_new(g_direct_hash, g_direct_equal);
	srv->listeners = g_ptr_array_new();
	srv->conns = g_hash_table_new(g_direct_hash, g_direct_equal);
	admit_init(&srv->admit, &srv->opts, srv->conns, ctx);
	return srv;
}

void
bs_rpc_server_register(BsRpcServer *srv, Basalt__Role role,
    ProtobufCService *service)
{
	g_hash_table_replace(srv->services, GINT_TO_POINTER(role), service);
}

void
bs_rpc_server_set_callbacks(BsRpcServer *srv, BsRpcConnFunc ready,
    BsRpcClosedFunc closed, void *data)
{
	srv->ready = ready;
	srv->closed = closed;
	srv->cb_data = data;
}

void
bs_rpc_server_set_barrier(BsRpcServer *srv, guint64 seq)
{
	srv->gate.barrier = seq;
}

void
bs_rpc_server_set_synced(BsRpcServer *srv, guint64 seq)
{
	GHashTableIter it;
	gpointer conn;

	guint64 old = srv->gate.synced;

	if (seq <= old)
		return;
	srv->gate.synced = seq;
	g_hash_table_iter_init(&it, srv->conns);
	while (g_hash_table_iter_next(&it, &conn, NULL))
		conn_gate_opened(conn, old);
}

guint
bs_rpc_server_n_connections(const BsRpcServer *srv)
{
	return g_hash_table_size(srv->conns);
}

static void
listener_free(Listener *l)
{
	if (l->src != NULL) {
		g_source_destroy(l->src);
		g_source_unref(l->src);
	}
	if (l->backoff != NULL) {
		g_source_destroy(l->backoff);
		g_source_unref(l->backoff);
	}
	close(l->fd);
	if (l->path != NULL)
		unlink(l->path);
	g_free(l->path);
	g_free(l);
}

void
bs_rpc_server_free(BsRpcServer *srv)
{
	GHashTableIter it;
	gpointer key;

	if (srv == NULL)
		return;
	for (guint i = 0; i < srv->listeners->len; i++)
		listener_free(g_ptr_array_index(srv->listeners, i));
	g_ptr_array_free(srv->listeners, TRUE);
	/* Each close removes the connection from the table. */
	while (g_hash_table_size(srv->conns) > 0) {
		g_hash_table_iter_init(&it, srv->conns);
		g_hash_table_iter_next(&it, &key, NULL);
		bs_rpc_conn_close(key, "server shutting down");
	}
	admit_clear(&srv->admit);
	g_hash_table_destroy(srv->conns);
	g_hash_table_destroy(srv->services);
	g_main_context_unref(srv->ctx);
	g_free(srv->server_name);
	g_free(srv);
}

/* Fill the peer from the socket itself, never from what it says. */
static void
server_fill_peer(BsRpcServer *srv, BsRpcConn *conn, int fd,
    const char *address)
{
	BsRpcPeer *peer = &conn->peer;
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	struct ucred cred;
	socklen_t clen = sizeof cred;
	char *desc;

	peer->address = g_strdup(address);
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0 &&
	    ss.ss_family == AF_UNIX) {
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0) {
			peer->has_cred = TRUE;
			peer->uid = cred.uid;
			peer->gid = cred.gid;
			peer->pid = cred.pid;
		}
		desc = g_strdup_printf("conn %u (%s uid=%d pid=%d)",
		    srv->serial, address, (int)peer->uid, (int)peer->pid);
	} else {
		int one = 1;

		/* Replies are small and latency-bound: no Nagle delay. */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		peer->is_tcp = TRUE;
		desc = g_strdup_printf("conn %u (tcp %s)", srv->serial, address);
	}
	conn_set_desc(conn, desc);
	g_free(desc);
}

static BsRpcConn *
server_add_conn(BsRpcServer *srv, int fd, const char *address)
{
	BsRpcConn *conn;

	conn = conn_new(srv->ctx, fd, CONN_HELLO, &srv->opts.limits,
	    &server_hooks, srv);
	srv->serial++;
	conn->gate = &srv->gate;
	server_fill_peer(srv, conn, fd, address);
	g_hash_table_add(srv->conns, conn);
	admit_added(&srv->admit, conn);
	log_debug("%s: accepted", conn->desc);
	return conn;
}

BsRpcConn *
bs_rpc_server_adopt_fd(BsRpcServer *srv, int fd, GError **err)
{
	if (!g_unix_set_fd_nonblocking(fd, TRUE, err))
		return NULL;
	return server_add_conn(srv, fd, "socketpair");
}

static char *
sockaddr_to_string(const struct sockaddr_storage *ss, const Listener *l)
{
	char host[INET6_ADDRSTRLEN] = "?";
	guint16 port = 0;

	if (!l->is_tcp)
		return g_strdup_printf("unix:%s", l->path);
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)ss;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
		port = ntohs(in->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
		port = ntohs(in6->sin6_port);
	}
	return g_strdup_printf("%s:%u", host, port);
}

static gboolean listener_ready(gint fd, GIOCondition cond, gpointer data);

static void
listener_watch(Listener *l)
{
	l->src = g_unix_fd_source_new(l->fd, G_IO_IN);
	g_source_set_callback(l->src, G_SOURCE_FUNC(listener_ready), l, NULL);
	g_source_attach(l->src, l->srv->ctx);
}

static gboolean
listener_resume(gpointer data)
{
	Listener *l = data;

	g_clear_pointer(&l->backoff, g_source_unref);
	listener_watch(l);
	return G_SOURCE_REMOVE;
}

/* Out of descriptors: stop watching for a moment, or we would spin. */
static void
listener_back_off(Listener *l)
{
	log_warning("accept: %s; pausing accepts for %d ms", g_strerror(errno),
	    ACCEPT_BACKOFF_MS);
	g_source_destroy(l->src);
	g_clear_pointer(&l->src, g_source_unref);
	l->backoff = g_timeout_source_new(ACCEPT_BACKOFF_MS);
	g_source_set_callback(l->backoff, listener_resume, l, NULL);
	g_source_attach(l->backoff, l->srv->ctx);
}

static gboolean
listener_ready(gint fd, GIOCondition cond, gpointer data)
{
	Listener *l = data;
	BsRpcServer *srv = l->srv;
	struct sockaddr_storage ss;
	socklen_t len;
	char *addr, *why;
	int cfd;

	for (int i = 0; i < ACCEPTS_PER_DISPATCH; i++) {
		len = sizeof ss;
		cfd = accept4(fd, (struct sockaddr *)&ss, &len,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (cfd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (cfd < 0 && (errno == EMFILE || errno == ENFILE ||
		    errno == ENOBUFS || errno == ENOMEM)) {
			listener_back_off(l);
			return G_SOURCE_CONTINUE;
		}
		if (cfd < 0) {
			log_warning("accept: %s", g_strerror(errno));
			break;
		}
		addr = sockaddr_to_string(&ss, l);
		if (g_hash_table_size(srv->conns) >= srv->opts.max_connections) {
			log_warning("too many connections (%u), closing new "
			    "connection from %s", srv->opts.max_connections,
			    addr);
			close(cfd);
		} else if ((why = admit_accept(&srv->admit, cfd,
		    l->is_tcp)) != NULL) {
			log_warning("%s, closing new connection from %s", why,
			    addr);
			g_free(why);
			close(cfd);
		} else {
			server_add_conn(srv, cfd, addr);
		}
		g_free(addr);
	}
	return G_SOURCE_CONTINUE;
}

static gboolean
server_add_listener(BsRpcServer *srv, int fd, gboolean is_tcp,
    const char *path, GError **err)
{
	Listener *l;

	if (listen(fd, SOMAXCONN) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "listen: %s",
		    g_strerror(errno));
		close(fd);
		return FALSE;
	}
	l = g_new0(Listener, 1);
	l->srv = srv;
	l->fd = fd;
	l->is_tcp = is_tcp;
	l->path = g_strdup(path);
	listener_watch(l);
	g_ptr_array_add(srv->listeners, l);
	return TRUE;
}

gboolean
bs_rpc_server_listen_unix(BsRpcServer *srv, const char *path, GError **err)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof sun.sun_path) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "socket path too long: %s", path);
		return FALSE;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
			    "%s exists and is not a socket", path);
			return FALSE;
		}
		unlink(path);
	}
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof sun) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "bind %s: %s", path,
		    g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return FALSE;
	}
	/* Anyone may connect: identity comes from SO_PEERCRED. */
	chmod(path, 0666);
	return server_add_listener(srv, fd, FALSE, path, err);
}

static guint16
bound_port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

gboolean
bs_rpc_server_listen_tcp(BsRpcServer *srv, const char *address, guint16 port,
    guint16 *bound_port, GError **err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai;
	char service[8];
	int fd, one = 1, rc;

	g_snprintf(service, sizeof service, "%u", port);
	rc = getaddrinfo(address, service, &hints, &ai);
	if (rc != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "bad listen address %s: %s", address, gai_strerror(rc));
		return FALSE;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "bind %s:%u: %s",
		    address, port, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return FALSE;
	}
	freeaddrinfo(ai);
	if (bound_port != NULL)
		*bound_port = bound_port_of(fd);
	return server_add_listener(srv, fd, TRUE, NULL, err);
}

static gboolean
server_authenticate(BsRpcServer *srv, BsRpcConn *conn,
    const Basalt__Hello *hello, char **reason)
{
	if (!conn->peer.is_tcp)
		return TRUE;
	if (srv->opts.authenticate != NULL) {
		if (srv->opts.authenticate(&conn->peer, hello->credential.data,
		    hello->credential.len, reason, srv->opts.auth_data))
			return TRUE;
		if (*reason == NULL)
			*reason = g_strdup("authentication failed");
		return FALSE;
	}
	if (srv->opts.allow_unauthenticated_tcp)
		return TRUE;
	*reason = g_strdup(srv->opts.no_auth_reason != NULL ?
	    srv->opts.no_auth_reason : "TCP peers must authenticate and no "
	    "authenticator is configured");
	return FALSE;
}

/* Identity known: may it take the role it claims? */
static gboolean
server_admit(BsRpcServer *srv, BsRpcConn *conn, char **reason)
{
	if (srv->opts.admit == NULL ||
	    srv->opts.admit(&conn->peer, reason, srv->opts.auth_data))
		return TRUE;
	if (*reason == NULL)
		*reason = g_strdup("permission denied");
	return FALSE;
}

static const char *
role_name(int role)
{
	const ProtobufCEnumValue *v =
	    protobuf_c_enum_descriptor_get_value(&basalt__role__descriptor, role);

	return v != NULL ? v->name : "UNKNOWN";
}

/* Why this hello is refused, or NULL; *svc is what the peer gets. */
static char *
hello_check(BsRpcServer *srv, BsRpcConn *conn, const Basalt__Hello *h,
    ProtobufCService **svc)
{
	char *reason = NULL, *magic;

	if (h == NULL)
		return g_strdup("hello does not decode");
	if (strcmp(h->magic, BS_HELLO_MAGIC) != 0) {
		magic = g_strescape(h->magic, NULL);
		if (strlen(magic) > 32)
			strcpy(magic + 29, "...");
		reason = g_strdup_printf("bad magic \"%s\"", magic);
		g_free(magic);
		return reason;
	}
	if (h->version != BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT)
		return g_strdup_printf("unsupported protocol version %u "
		    "(server speaks %d)", h->version,
		    BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT);
	*svc = g_hash_table_lookup(srv->services, GINT_TO_POINTER(h->role));
	if (*svc == NULL)
		return g_strdup_printf("role %s (%d) is not served here",
		    role_name(h->role), (int)h->role);
	/* The hooks judge the claim: role and name as the hello says them. */
	conn->peer.role = h->role;
	g_free(conn->peer.name);
	conn->peer.name = g_strndup(h->name, 256);
	if (!server_authenticate(srv, conn, h, &reason) ||
	    !server_admit(srv, conn, &reason))
		return reason;
	return NULL;
}

static void
server_hello(BsRpcConn *conn, const Basalt__Envelope *env, void *data)
{
	BsRpcServer *srv = data;
	Basalt__HelloReply reply = BASALT__HELLO_REPLY__INIT;
	Basalt__Hello *h = NULL;
	ProtobufCService *svc = NULL;
	GBytes *frame, *cred = NULL;
	char *reason, *why;

	if (env->kind == BASALT__FRAME_KIND__FRAME_KIND_HELLO)
		h = basalt__hello__unpack(NULL, env->body.len, env->body.data);
	reason = env->kind == BASALT__FRAME_KIND__FRAME_KIND_HELLO ?
	    hello_check(srv, conn, h, &svc) : g_strdup("expected a HELLO");
	if (reason == NULL)
		reason = admit_hello(&srv->admit, conn, h->role);
	reply.accepted = reason == NULL;
	reply.version = BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	reply.reason = reason != NULL ? reason : (char *)"";
	reply.server_name = srv->server_name;
	if (reason == NULL && conn->peer.is_tcp &&
	    srv->opts.reply_credential != NULL &&
	    (cred = srv->opts.reply_credential(&conn->peer,
	    srv->opts.auth_data)) != NULL) {
		reply.credential.data = (guint8 *)g_bytes_get_data(cred,
		    &reply.credential.len);
	}
	frame = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_HELLO_REPLY,
	    env->id, 0, BASALT__RPC_STATUS__RPC_STATUS_OK, &reply.base, NULL,
	    conn->lim.max_frame, NULL);
	if (frame != NULL)
		conn_send(conn, frame);
	if (cred != NULL)
		g_bytes_unref(cred);
	if (reason != NULL) {
		why = g_strdup_printf("hello refused: %s", reason);
		conn_close_after_flush(conn, BS_LOG_WARNING, why);
		g_free(why);
	} else {
		conn_set_ready(conn, svc);
		log_info("%s: hello from %s \"%s\"", conn->desc,
		    role_name(h->role), conn->peer.name);
		conn->announced = TRUE;
		if (srv->ready != NULL)
			srv->ready(conn, srv->cb_data);
	}
	if (h != NULL)
		basalt__hello__free_unpacked(h, NULL);
	g_free(reason);
}

static void
server_conn_closed(BsRpcConn *conn, const char *reason, void *data)
{
	BsRpcServer *srv = data;

	admit_closed(&srv->admit, conn);
	if (conn->announced && srv->closed != NULL)
		srv->closed(conn, reason, srv->cb_data);
	if (g_hash_table_remove(srv->conns, conn))
		bs_rpc_conn_unref(conn);
}
