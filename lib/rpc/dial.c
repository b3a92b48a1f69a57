/*
 * The dialing side of a main-loop connection (sbatchd -> mbatchd).
 *
 * Connecting never blocks the loop: the socket is non-blocking, connect()
 * finishes when the fd turns writable, and even an immediate failure is
 * reported through the closed callback on a later iteration, so the caller
 * has exactly one path to handle (and to hang its reconnect timer on).
 * Addresses must be numeric because getaddrinfo() on a name may block for
 * seconds; resolving names is the caller's job.
 */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "rpc/conn-private.h"
#include "util/error.h"

typedef struct {
	BsRpcConnFunc ready;
	BsRpcClosedFunc closed;
	void *data;
	ProtobufCService *serve;
	GBytes *hello;
	BsRpcAuthFunc verify_reply;
	void *verify_data;
} Dial;

static void
dial_connected(BsRpcConn *conn, void *data)
{
	Dial *d = data;

	conn_send(conn, g_steal_pointer(&d->hello));
}

static void
dial_hello_reply(BsRpcConn *conn, const Basalt__Envelope *env, void *data)
{
	Dial *d = data;
	Basalt__HelloReply *r = NULL;
	char *why, *reason = NULL;

	if (env->kind == BASALT__FRAME_KIND__FRAME_KIND_HELLO_REPLY)
		r = basalt__hello_reply__unpack(NULL, env->body.len,
		    env->body.data);
	if (r == NULL || !r->accepted) {
		why = g_strdup_printf("hello refused by peer: %s", r == NULL ?
		    "no valid hello reply" : r->reason);
		conn_close_level(conn, BS_LOG_WARNING, why);
		g_free(why);
	} else if (d->verify_reply != NULL &&
	    !d->verify_reply(&conn->peer, r->credential.data,
	    r->credential.len, &reason, d->verify_data)) {
		/* Never ready: nothing this peer sends is served. */
		why = g_strdup_printf("peer refused: %s", reason != NULL ?
		    reason : "its credential does not verify");
		conn_close_level(conn, BS_LOG_WARNING, why);
		g_free(why);
		g_free(reason);
	} else {
		conn->peer.name = g_strndup(r->server_name, 256);
		conn_set_ready(conn, d->serve);
		log_info("%s: connected to \"%s\"", conn->desc, conn->peer.name);
		conn->announced = TRUE;
		if (d->ready != NULL)
			d->ready(conn, d->data);
	}
	if (r != NULL)
		basalt__hello_reply__free_unpacked(r, NULL);
}

static void
dial_closed(BsRpcConn *conn, const char *reason, void *data)
{
	Dial *d = data;

	if (d->closed != NULL)
		d->closed(conn, reason, d->data);
	if (d->hello != NULL)
		g_bytes_unref(d->hello);
	g_free(d);
}

static const ConnHooks dial_hooks = {
	.connected = dial_connected,
	.hello = dial_hello_reply,
	.closed = dial_closed,
};

void
bs_rpc_dial_options_init(BsRpcDialOptions *opts)
{
	memset(opts, 0, sizeof *opts);
	bs_rpc_limits_init(&opts->limits);
	opts->role = BASALT__ROLE__ROLE_CLIENT;
}

static GBytes *
dial_hello_frame(const BsRpcDialOptions *opts, GError **err)
{
	Basalt__Hello h = BASALT__HELLO__INIT;

	h.magic = (char *)BS_HELLO_MAGIC;
	h.version = BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	h.role = opts->role;
	if (opts->name != NULL)
		h.name = (char *)opts->name;
	h.credential.data = (guint8 *)opts->credential;
	h.credential.len = opts->credential_len;
	return bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_HELLO, 0, 0,
	    BASALT__RPC_STATUS__RPC_STATUS_OK, &h.base, NULL,
	    opts->limits.max_frame, err);
}

/* Resolve the numeric address into storage; the socket is not made yet. */
static gboolean
dial_address(const BsRpcDialOptions *opts, struct sockaddr_storage *ss,
    socklen_t *len, char **desc, GError **err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct sockaddr_un *sun = (struct sockaddr_un *)ss;
	struct addrinfo *ai;
	char service[8];
	int rc;

	memset(ss, 0, sizeof *ss);
	if (opts->unix_path != NULL) {
		if (strlen(opts->unix_path) >= sizeof sun->sun_path) {
			g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
			    "socket path too long: %s", opts->unix_path);
			return FALSE;
		}
		sun->sun_family = AF_UNIX;
		strcpy(sun->sun_path, opts->unix_path);
		*len = sizeof *sun;
		*desc = g_strdup_printf("unix:%s", opts->unix_path);
		return TRUE;
	}
	if (opts->host == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "no address to dial");
		return FALSE;
	}
	g_snprintf(service, sizeof service, "%u", opts->port);
	rc = getaddrinfo(opts->host, service, &hints, &ai);
	if (rc != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "bad address %s: %s", opts->host, gai_strerror(rc));
		return FALSE;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	*desc = g_strdup_printf("%s:%u", opts->host, opts->port);
	return TRUE;
}

BsRpcConn *
bs_rpc_dial(const BsRpcDialOptions *opts, GMainContext *ctx,
    BsRpcConnFunc ready, BsRpcClosedFunc closed, void *data, GError **err)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char *address = NULL, *desc;
	BsRpcConn *conn;
	GBytes *hello;
	Dial *d;
	int fd, cerr = 0;

	if (!dial_address(opts, &ss, &len, &address, err))
		return NULL;
	hello = dial_hello_frame(opts, err);
	fd = hello == NULL ? -1 : socket(ss.ss_family,
	    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		if (hello != NULL)
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "socket: %s",
			    g_strerror(errno));
		g_clear_pointer(&hello, g_bytes_unref);
		g_free(address);
		return NULL;
	}
	if (ss.ss_family != AF_UNIX) {
		int one = 1;

		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	}
	if (connect(fd, (struct sockaddr *)&ss, len) < 0 &&
	    errno != EINPROGRESS)
		cerr = errno;
	d = g_new0(Dial, 1);
	d->ready = ready;
	d->closed = closed;
	d->data = data;
	d->serve = opts->serve;
	d->hello = hello;
	d->verify_reply = opts->verify_reply;
	d->verify_data = opts->verify_data;
	if (ctx == NULL)
		ctx = g_main_context_get_thread_default();
	if (ctx == NULL)
		ctx = g_main_context_default();
	conn = conn_new(ctx, fd, CONN_CONNECTING, &opts->limits, &dial_hooks, d);
	conn->connect_errno = cerr;
	conn_update(conn);
	conn->peer.address = address;
	conn->peer.is_tcp = opts->unix_path == NULL;
	desc = g_strdup_printf("dial %s", address);
	conn_set_desc(conn, desc);
	g_free(desc);
	return conn;
}

char *
bs_rpc_master_address(const char *name, GError **err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
	    .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	char buf[NI_MAXHOST];
	int rc = getaddrinfo(name, NULL, &hints, &ai);

	if (rc == 0)
		rc = getnameinfo(ai->ai_addr, ai->ai_addrlen, buf, sizeof buf, NULL, 0,
		    NI_NUMERICHOST);
	if (ai != NULL)
		freeaddrinfo(ai);
	if (rc != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "cannot resolve master host %s: %s", name, gai_strerror(rc));
		return NULL;
	}
	return g_strdup(buf);
}
