/*
 * Blocking RPC client for the commands (bsub, bjobs, ...).
 *
 * Plain POSIX sockets and poll(): a command makes a handful of calls and
 * exits, so it gains nothing from a main loop and should not pay for GIO's
 * start-up.  One call is in flight at a time.  Every wait is bounded by the
 * client's timeout; errors are GErrors in the BS_ERROR domain whose message
 * can be printed as is.
 *
 * Two ways to call: bs_client_call() with a descriptor and a method index,
 * or the protoc-c generated stubs on bs_client_service(), e.g.
 * basalt__batch_service__submit(bs_client_service(c, &desc), &req, cb, d),
 * whose closure gets the reply, or NULL on failure (then see
 * bs_client_last_error()).
 */
#ifndef BS_RPC_CLIENT_H
#define BS_RPC_CLIENT_H

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

#include "rpc.pb-c.h"

typedef struct BsClient BsClient;

typedef struct {
	const char *unix_path;     /* either this ... */
	const char *host;          /* ... or a host (name or address) and port */
	guint16 port;
	guint timeout_ms;          /* each connect, hello and call; 0: 30 s */
	Basalt__Role role;         /* ROLE_CLIENT unless set */
	const char *name;          /* Hello.name; default: none */
	const guint8 *credential;  /* Hello.credential (MUNGE) */
	gsize credential_len;
	/* Checks HelloReply.credential (the server's identity); FALSE with
	 * *reason (g_malloc'd) fails the connect as BS_ERROR_REFUSED. */
	gboolean (*verify_reply)(const guint8 *cred, gsize len, char **reason,
	    void *data);
	void *verify_data;
	gsize max_frame;           /* 0: BS_FRAME_MAX_DEFAULT */
	/* Send the hello but read its reply only with the first call's
	 * reply: one round trip less for a command that makes one call.  A
	 * refused hello then fails that call (BS_ERROR_REFUSED), not the
	 * connect; the server reads frames in order and drops a request that
	 * follows a refused hello. */
	gboolean defer_hello;
} BsClientOptions;

void bs_client_options_init(BsClientOptions *opts);
/* Connect and complete the hello (or only send it, with defer_hello). */
BsClient *bs_client_connect(const BsClientOptions *opts, GError **err);
BsClient *bs_client_connect_unix(const char *path, guint timeout_ms,
    GError **err);
BsClient *bs_client_connect_tcp(const char *host, guint16 port,
    guint timeout_ms, GError **err);
/* Use an already-connected socket (socketpair); takes the fd. */
BsClient *bs_client_connect_fd(int fd, const BsClientOptions *opts,
    GError **err);
void bs_client_free(BsClient *client);

void bs_client_set_timeout(BsClient *client, guint timeout_ms);
const char *bs_client_server_name(const BsClient *client);

/*
 * Call method_index of desc.  On success *reply is the decoded reply, to
 * free with protobuf_c_message_free_unpacked(*reply, NULL).  A transport
 * failure (timeout, closed, garbage) leaves the client unusable; a non-OK
 * status from the server does not.
 */
gboolean bs_client_call(BsClient *client,
    const ProtobufCServiceDescriptor *desc, guint method_index,
    const ProtobufCMessage *request, ProtobufCMessage **reply, GError **err);

/*
 * bs_client_call in three steps, for a caller that keeps its next call in
 * flight while it unpacks a reply (bjobs' pages: mbatchd packs the next
 * page on one core while the client unpacks the last on the other).
 * bs_client_send sends the request and gives its id; bs_client_wait waits
 * for that id's reply (replies come in the order of the requests) and
 * gives its packed body, to unref; bs_client_decode unpacks it, with
 * allocator (NULL: protobuf-c's malloc and free).  Failures are
 * bs_client_call's.
 */
gboolean bs_client_send(BsClient *client,
    const ProtobufCServiceDescriptor *desc, guint method_index,
    const ProtobufCMessage *request, guint64 *id, GError **err);
gboolean bs_client_wait(BsClient *client,
    const ProtobufCServiceDescriptor *desc, guint method_index, guint64 id,
    GBytes **body, GError **err);
gboolean bs_client_decode(const ProtobufCServiceDescriptor *desc,
    guint method_index, GBytes *body, ProtobufCAllocator *allocator,
    ProtobufCMessage **reply, GError **err);

/* A ProtobufCService for the generated stubs; owned by the client. */
ProtobufCService *bs_client_service(BsClient *client,
    const ProtobufCServiceDescriptor *desc);
/* Why the last call through a stub passed NULL to its closure. */
const GError *bs_client_last_error(const BsClient *client);

#endif
