/*
 * Blocking client: see client.h for why it avoids GIO.
 *
 * One deadline covers each operation (connect, hello, call) and every
 * poll() waits only for what is left of it, so a silent server costs the
 * command exactly its timeout.  Replies are matched by id: a late reply to
 * an earlier call is skipped, never mistaken for the current one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "rpc/client.h"
#include "rpc/frame.h"
#include "util/error.h"

#define CLIENT_TIMEOUT_DEFAULT_MS 30000
#define RX_CHUNK (64u * 1024)

typedef struct {
	ProtobufCService base;
	BsClient *client;
} ClientService;

struct BsClient {
	int fd;
	guint timeout_ms;
	gsize max_frame;
	char *address;
	char *server_name;
	guint64 next_id;
	BsFrameDecoder *dec;
	guint8 *rx;
	gsize rx_off, rx_len;
	gboolean broken;
	gboolean hello_pending;   /* reply not read yet (defer_hello) */
	gboolean (*verify_reply)(const guint8 *, gsize, char **, void *);
	void *verify_data;
	GBytes *hello_frame;      /* not sent yet: goes with the first call */
	GError *last_error;
	GPtrArray *services;
};

void
bs_client_options_init(BsClientOptions *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->role = BASALT__ROLE__ROLE_CLIENT;
}

static gint64
deadline_after(guint ms)
{
	return g_get_monotonic_time() + (gint64)ms * 1000;
}

/* Wait for events on fd until the deadline; FALSE with err on timeout. */
static gboolean
wait_fd(BsClient *c, short events, gint64 deadline, const char *what,
    GError **err)
{
	struct pollfd pfd = { .fd = c->fd, .events = events };
	gint64 left;
	int rc;

	for (;;) {
		left = (deadline - g_get_monotonic_time() + 999) / 1000;
		if (left <= 0) {
			g_set_error(err, BS_ERROR, BS_ERROR_TIMEOUT,
			    "%s: no %s within %u ms", c->address, what,
			    c->timeout_ms);
			return FALSE;
		}
		rc = poll(&pfd, 1, (int)MIN(left, G_MAXINT));
		if (rc > 0)
			return TRUE;
		if (rc < 0 && errno != EINTR) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "poll: %s",
			    g_strerror(errno));
			return FALSE;
		}
	}
}

static gboolean
send_all(BsClient *c, GBytes *frame, gint64 deadline, GError **err)
{
	gsize len, off = 0;
	const guint8 *data = g_bytes_get_data(frame, &len);
	ssize_t n;

	while (off < len) {
		n = send(c->fd, data + off, len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (gsize)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (!wait_fd(c, POLLOUT, deadline, "progress sending",
			    err))
				return FALSE;
			continue;
		}
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "%s: send: %s",
		    c->address, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

/* Refill rx from the socket; FALSE with err on EOF, error or timeout. */
static gboolean
fill_rx(BsClient *c, gint64 deadline, GError **err)
{
	ssize_t n;

	for (;;) {
		n = recv(c->fd, c->rx, RX_CHUNK, 0);
		if (n > 0) {
			c->rx_off = 0;
			c->rx_len = (gsize)n;
			return TRUE;
		}
		if (n == 0) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO,
			    "%s: connection closed by the server", c->address);
			return FALSE;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "%s: recv: %s",
			    c->address, g_strerror(errno));
			return FALSE;
		}
		if (!wait_fd(c, POLLIN, deadline, "reply", err))
			return FALSE;
	}
}

/* Read until one whole envelope is decoded. */
static Basalt__Envelope *
recv_envelope(BsClient *c, gint64 deadline, GError **err)
{
	Basalt__Envelope *env;
	GError *ferr = NULL;
	gsize used;

	for (;;) {
		if (c->rx_off == c->rx_len && !fill_rx(c, deadline, err))
			return NULL;
		switch (bs_frame_decoder_feed(c->dec, c->rx + c->rx_off,
		    c->rx_len - c->rx_off, &used, &env, &ferr)) {
		case BS_FRAME_OK:
			c->rx_off += used;
			return env;
		case BS_FRAME_MORE:
			c->rx_off += used;
			break;
		case BS_FRAME_ERROR:
			g_set_error(err, BS_ERROR, BS_ERROR_PROTOCOL,
			    "%s: bad frame from server: %s", c->address,
			    ferr->message);
			g_error_free(ferr);
			return NULL;
		}
	}
}

/* The hello frame; sent now, or kept to go out with the first call. */
static gboolean
client_send_hello(BsClient *c, const BsClientOptions *opts, gint64 deadline,
    GError **err)
{
	Basalt__Hello h = BASALT__HELLO__INIT;
	GBytes *frame;
	gboolean ok;

	h.magic = (char *)BS_HELLO_MAGIC;
	h.version = BASALT__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	h.role = opts->role != 0 ? opts->role : BASALT__ROLE__ROLE_CLIENT;
	if (opts->name != NULL)
		h.name = (char *)opts->name;
	h.credential.data = (guint8 *)opts->credential;
	h.credential.len = opts->credential_len;
	frame = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_HELLO, 0, 0,
	    BASALT__RPC_STATUS__RPC_STATUS_OK, &h.base, NULL, c->max_frame, err);
	if (frame == NULL)
		return FALSE;
	if (opts->defer_hello) {
		c->hello_frame = frame;
		return TRUE;
	}
	ok = send_all(c, frame, deadline, err);
	g_bytes_unref(frame);
	return ok;
}

static gboolean
client_read_hello(BsClient *c, gint64 deadline, GError **err)
{
	Basalt__HelloReply *r;
	Basalt__Envelope *env;
	char *reason = NULL;
	gboolean ok;

	c->hello_pending = FALSE;
	if ((env = recv_envelope(c, deadline, err)) == NULL)
		return FALSE;
	r = env->kind == BASALT__FRAME_KIND__FRAME_KIND_HELLO_REPLY ?
	    basalt__hello_reply__unpack(NULL, env->body.len, env->body.data) :
	    NULL;
	basalt__envelope__free_unpacked(env, NULL);
	if (r == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_PROTOCOL,
		    "%s: no valid hello reply from server", c->address);
		return FALSE;
	}
	ok = r->accepted;
	if (!ok)
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "%s: server refused the connection: %s", c->address,
		    r->reason);
	else if (c->verify_reply != NULL && !c->verify_reply(
	    r->credential.data, r->credential.len, &reason, c->verify_data)) {
		g_set_error(err, BS_ERROR, BS_ERROR_REFUSED,
		    "%s: the server is not who it should be: %s", c->address,
		    reason != NULL ? reason : "its credential does not verify");
		g_free(reason);
		ok = FALSE;
	} else
		c->server_name = g_strdup(r->server_name);
	basalt__hello_reply__free_unpacked(r, NULL);
	return ok;
}

static BsClient *
client_new(int fd, const BsClientOptions *opts, const char *address)
{
	BsClient *c = g_new0(BsClient, 1);

	c->fd = fd;
	c->timeout_ms = opts->timeout_ms != 0 ? opts->timeout_ms :
	    CLIENT_TIMEOUT_DEFAULT_MS;
	c->max_frame = opts->max_frame != 0 ? opts->max_frame :
	    BS_FRAME_MAX_DEFAULT;
	c->address = g_strdup(address);
	c->dec = bs_frame_decoder_new(c->max_frame);
	c->rx = g_malloc(RX_CHUNK);
	c->services = g_ptr_array_new_with_free_func(g_free);
	c->verify_reply = opts->verify_reply;
	c->verify_data = opts->verify_data;
	return c;
}

BsClient *
bs_client_connect_fd(int fd, const BsClientOptions *opts, GError **err)
{
	BsClientOptions defaults;
	BsClient *c;
	gint64 deadline;
	int fl = fcntl(fd, F_GETFL);

	if (opts == NULL) {
		bs_client_options_init(&defaults);
		opts = &defaults;
	}
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "fcntl: %s",
		    g_strerror(errno));
		close(fd);
		return NULL;
	}
	c = client_new(fd, opts, opts->unix_path != NULL ? opts->unix_path :
	    opts->host != NULL ? opts->host : "server");
	deadline = deadline_after(c->timeout_ms);
	if (!client_send_hello(c, opts, deadline, err) ||
	    (!opts->defer_hello && !client_read_hello(c, deadline, err))) {
		bs_client_free(c);
		return NULL;
	}
	c->hello_pending = opts->defer_hello;
	return c;
}

/* Non-blocking connect bounded by the timeout; returns the fd or -1. */
static int
connect_addr(const struct sockaddr *sa, socklen_t len, int family,
    const char *address, guint timeout_ms, GError **err)
{
	BsClient probe = { .address = (char *)address,
	    .timeout_ms = timeout_ms };
	int fd, soerr = 0;
	socklen_t slen = sizeof soerr;

	fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "socket: %s",
		    g_strerror(errno));
		return -1;
	}
	probe.fd = fd;
	if (family != AF_UNIX) {
		int one = 1;

		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	}
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS)
			soerr = errno;
		else if (!wait_fd(&probe, POLLOUT, deadline_after(timeout_ms),
		    "connection", err)) {
			close(fd);
			return -1;
		} else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
		    &slen) < 0)
			soerr = errno;
	}
	if (soerr != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO,
		    "cannot connect to %s: %s", address, g_strerror(soerr));
		close(fd);
		return -1;
	}
	return fd;
}

static int
connect_tcp(const char *host, guint16 port, guint timeout_ms, GError **err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai, *p;
	char service[8], *address;
	int fd = -1, rc;

	g_snprintf(service, sizeof service, "%u", port);
	address = g_strdup_printf("%s:%u", host, port);
	rc = getaddrinfo(host, service, &hints, &ai);
	if (rc != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot resolve %s: %s",
		    host, gai_strerror(rc));
		g_free(address);
		return -1;
	}
	for (p = ai; p != NULL && fd < 0; p = p->ai_next) {
		g_clear_error(err);
		fd = connect_addr(p->ai_addr, p->ai_addrlen, p->ai_family,
		    address, timeout_ms, err);
	}
	freeaddrinfo(ai);
	g_free(address);
	return fd;
}

BsClient *
bs_client_connect(const BsClientOptions *opts, GError **err)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	guint timeout = opts->timeout_ms != 0 ? opts->timeout_ms :
	    CLIENT_TIMEOUT_DEFAULT_MS;
	int fd;

	if (opts->unix_path != NULL) {
		if (strlen(opts->unix_path) >= sizeof sun.sun_path) {
			g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
			    "socket path too long: %s", opts->unix_path);
			return NULL;
		}
		strcpy(sun.sun_path, opts->unix_path);
		fd = connect_addr((struct sockaddr *)&sun, sizeof sun, AF_UNIX,
		    opts->unix_path, timeout, err);
	} else if (opts->host != NULL) {
		fd = connect_tcp(opts->host, opts->port, timeout, err);
	} else {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "no server address given");
		return NULL;
	}
	if (fd < 0)
		return NULL;
	return bs_client_connect_fd(fd, opts, err);
}

BsClient *
bs_client_connect_unix(const char *path, guint timeout_ms, GError **err)
{
	BsClientOptions opts;

	bs_client_options_init(&opts);
	opts.unix_path = path;
	opts.timeout_ms = timeout_ms;
	return bs_client_connect(&opts, err);
}

BsClient *
bs_client_connect_tcp(const char *host, guint16 port, guint timeout_ms,
    GError **err)
{
	BsClientOptions opts;

	bs_client_options_init(&opts);
	opts.host = host;
	opts.port = port;
	opts.timeout_ms = timeout_ms;
	return bs_client_connect(&opts, err);
}

void
bs_client_free(BsClient *c)
{
	if (c == NULL)
		return;
	close(c->fd);
	if (c->hello_frame != NULL)
		g_bytes_unref(c->hello_frame);
	bs_frame_decoder_free(c->dec);
	g_free(c->rx);
	g_free(c->address);
	g_free(c->server_name);
	g_clear_error(&c->last_error);
	g_ptr_array_free(c->services, TRUE);
	g_free(c);
}

void
bs_client_set_timeout(BsClient *c, guint timeout_ms)
{
	c->timeout_ms = timeout_ms != 0 ? timeout_ms : CLIENT_TIMEOUT_DEFAULT_MS;
}

const char *
bs_client_server_name(const BsClient *c)
{
	return c->server_name;
}

const GError *
bs_client_last_error(const BsClient *c)
{
	return c->last_error;
}

/* Wait for the REPLY to id, skipping late replies to earlier calls. */
static Basalt__Envelope *
await_reply(BsClient *c, guint64 id, gint64 deadline, GError **err)
{
	Basalt__Envelope *env;

	while ((env = recv_envelope(c, deadline, err)) != NULL) {
		if (env->kind == BASALT__FRAME_KIND__FRAME_KIND_REPLY &&
		    env->id == id)
			return env;
		if (env->kind != BASALT__FRAME_KIND__FRAME_KIND_REPLY ||
		    env->id > id) {
			g_set_error(err, BS_ERROR, BS_ERROR_PROTOCOL,
			    "%s: unexpected %s frame (id %" G_GUINT64_FORMAT
			    ") from server", c->address,
			    bs_frame_kind_name(env->kind), env->id);
			basalt__envelope__free_unpacked(env, NULL);
			return NULL;
		}
		basalt__envelope__free_unpacked(env, NULL);
	}
	return NULL;
}

gboolean
bs_client_send(BsClient *c, const ProtobufCServiceDescriptor *desc,
    guint method_index, const ProtobufCMessage *request, guint64 *id,
    GError **err)
{
	gint64 deadline = deadline_after(c->timeout_ms);
	GBytes *frame;
	gboolean ok;

	if (c->broken) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "%s: connection is "
		    "unusable after an earlier error", c->address);
		return FALSE;
	}
	if (method_index >= desc->n_methods ||
	    request->descriptor != desc->methods[method_index].input) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s has no method %u taking %s", desc->name, method_index,
		    request->descriptor->name);
		return FALSE;
	}
	frame = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REQUEST,
	    ++c->next_id, method_index, BASALT__RPC_STATUS__RPC_STATUS_OK,
	    request, NULL, c->max_frame, err);
	if (frame == NULL)
		return FALSE;
	if (c->hello_frame != NULL) {
		/* Hello and request in one send: the server reads both at
		 * once and answers both in one wake-up. */
		GByteArray *both = g_bytes_unref_to_array(c->hello_frame);
		gsize len;
		const guint8 *data = g_bytes_get_data(frame, &len);

		c->hello_frame = NULL;
		g_byte_array_append(both, data, (guint)len);
		g_bytes_unref(frame);
		frame = g_byte_array_free_to_bytes(both);
	}
	ok = send_all(c, frame, deadline, err);
	g_bytes_unref(frame);
	if (!ok) {
		c->broken = TRUE;
		return FALSE;
	}
	*id = c->next_id;
	return TRUE;
}

static void
envelope_free(gpointer env)
{
	basalt__envelope__free_unpacked(env, NULL);
}

gboolean
bs_client_wait(BsClient *c, const ProtobufCServiceDescriptor *desc,
    guint method_index, guint64 id, GBytes **body, GError **err)
{
	const ProtobufCMethodDescriptor *m = &desc->methods[method_index];
	gint64 deadline = deadline_after(c->timeout_ms);
	Basalt__Envelope *env = NULL;
	gboolean ok = TRUE;

	*body = NULL;
	/* A deferred hello's reply comes first, then the first call's. */
	if (c->hello_pending)
		ok = client_read_hello(c, deadline, err);
	env = ok ? await_reply(c, id, deadline, err) : NULL;
	if (env == NULL) {
		c->broken = TRUE;
		return FALSE;
	}
	if (env->status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		g_set_error(err, BS_ERROR, env->status ==
		    BASALT__RPC_STATUS__RPC_STATUS_SERVICE_FAILED ||
		    env->status == BASALT__RPC_STATUS__RPC_STATUS_UNAVAILABLE ?
		    BS_ERROR_FAILED : BS_ERROR_PROTOCOL, "%s.%s: %s: %s",
		    desc->short_name, m->name, bs_rpc_status_name(env->status),
		    env->error[0] != '\0' ? env->error : "no details");
		basalt__envelope__free_unpacked(env, NULL);
		return FALSE;
	}
	/* The body stays in the envelope, which goes with the bytes. */
	*body = g_bytes_new_with_free_func(env->body.data, env->body.len,
	    envelope_free, env);
	return TRUE;
}

gboolean
bs_client_decode(const ProtobufCServiceDescriptor *desc, guint method_index,
    GBytes *body, ProtobufCAllocator *allocator, ProtobufCMessage **reply,
    GError **err)
{
	const ProtobufCMethodDescriptor *m = &desc->methods[method_index];
	gsize len;
	const guint8 *data = g_bytes_get_data(body, &len);

	*reply = protobuf_c_message_unpack(m->output, allocator, len, data);
	if (*reply == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_PROTOCOL,
		    "%s.%s: reply is not a valid %s", desc->short_name, m->name,
		    m->output->name);
		return FALSE;
	}
	return TRUE;
}

gboolean
bs_client_call(BsClient *c, const ProtobufCServiceDescriptor *desc,
    guint method_index, const ProtobufCMessage *request,
    ProtobufCMessage **reply, GError **err)
{
	guint64 id;
	GBytes *body;
	gboolean ok;

	*reply = NULL;
	if (!bs_client_send(c, desc, method_index, request, &id, err) ||
	    !bs_client_wait(c, desc, method_index, id, &body, err))
		return FALSE;
	ok = bs_client_decode(desc, method_index, body, NULL, reply, err);
	g_bytes_unref(body);
	return ok;
}

/* invoke() for the generated stubs: one blocking call, then the closure. */
static void
client_service_invoke(ProtobufCService *service, unsigned method_index,
    const ProtobufCMessage *input, ProtobufCClosure closure,
    void *closure_data)
{
	BsClient *c = ((ClientService *)service)->client;
	ProtobufCMessage *reply = NULL;

	g_clear_error(&c->last_error);
	bs_client_call(c, service->descriptor, method_index, input, &reply,
	    &c->last_error);
	closure(reply, closure_data);
	if (reply != NULL)
		protobuf_c_message_free_unpacked(reply, NULL);
}

ProtobufCService *
bs_client_service(BsClient *c, const ProtobufCServiceDescriptor *desc)
{
	ClientService *s;

	for (guint i = 0; i < c->services->len; i++) {
		s = g_ptr_array_index(c->services, i);
		if (s->base.descriptor == desc)
			return &s->base;
	}
	s = g_new0(ClientService, 1);
	s->base.descriptor = desc;
	s->base.invoke = client_service_invoke;
	s->client = c;
	g_ptr_array_add(c->services, s);
	return &s->base;
}
