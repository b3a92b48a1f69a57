/*
 * Daemon-side RPC over a GMainLoop: a server that accepts connections on a
 * Unix socket and/or TCP, and connections that are symmetric once the hello
 * is done (either side may call the service the other serves).
 *
 * Everything here runs on one thread, the one iterating the GMainContext
 * given at creation.  Handlers are plain protoc-c service implementations:
 * the server unpacks a request with the generated descriptor and calls
 * service->invoke(); the closure_data a handler receives is a BsRpcCall from
 * which it reads the peer's identity, and which it may keep (bs_rpc_call_defer)
 * to reply after, say, a journal commit.
 *
 * Misbehaving peers are bounded by BsRpcLimits and can only ever lose their
 * own connection; every close is logged with its reason.
 */
#ifndef BS_RPC_RPC_H
#define BS_RPC_RPC_H

#include <sys/types.h>

#include <glib.h>

#include "rpc.pb-c.h"
#include "rpc/frame.h"

typedef struct BsRpcServer BsRpcServer;
typedef struct BsRpcConn BsRpcConn;
typedef struct BsRpcCall BsRpcCall;

/* Per-connection limits.  Zero timeouts mean "no limit". */
typedef struct {
	gsize max_frame;          /* largest frame accepted or sent (4 MiB) */
	gsize max_outbound;       /* stop reading beyond this much queued output (16 MiB) */
	guint hello_timeout_ms;   /* hello (or hello reply) must arrive (10 s) */
	guint idle_timeout_ms;    /* close after no traffic (0: daemon links) */
	guint write_timeout_ms;   /* close when queued output makes no progress (30 s) */
} BsRpcLimits;

void bs_rpc_limits_init(BsRpcLimits *lim);

/* Who is at the other end.  uid/gid/pid come from SO_PEERCRED, never from
 * the wire; on TCP they stay unset until an authenticator fills them. */
typedef struct {
	gboolean has_cred;
	uid_t uid;
	gid_t gid;
	pid_t pid;
	gboolean is_tcp;
	char *address;            /* "unix:/path", "127.0.0.1:4242", "socketpair" */
	Basalt__Role role;
	char *name;               /* Hello.name, free text */
	/* Filled by an authenticator (MUNGE): the address of the host that
	 * vouched for the peer, and the nonce a reply credential must carry. */
	char *auth_origin;
	char *auth_nonce;
} BsRpcPeer;

/*
 * Decides whether a TCP peer may proceed, given Hello.credential (the MUNGE
 * hook).  peer->role and peer->name are the hello's.  It may set
 * peer->uid/gid, has_cred and the auth_ fields.  Return FALSE and set
 * *reason (g_malloc'd) to refuse.  A dialer's verify_reply hook has the same
 * shape and gets HelloReply.credential.
 */
typedef gboolean (*BsRpcAuthFunc)(BsRpcPeer *peer, const guint8 *cred,
    gsize cred_len, char **reason, void *data);
/*
 * Decides whether a peer whose identity is known (SO_PEERCRED, or the
 * authenticator) may take the role its hello claims.  Called for every
 * peer; FALSE with *reason (g_malloc'd) refuses the hello.
 */
typedef gboolean (*BsRpcAdmitFunc)(const BsRpcPeer *peer, char **reason,
    void *data);
/* HelloReply.credential for an accepted TCP peer (NULL: none). */
typedef GBytes *(*BsRpcReplyCredFunc)(const BsRpcPeer *peer, void *data);

typedef struct {
	BsRpcLimits limits;
	guint max_connections;            /* 4096; beyond it new ones are closed */
	const char *server_name;          /* HelloReply.server_name */
	gboolean allow_unauthenticated_tcp; /* tests; daemons set an authenticator */
	BsRpcAuthFunc authenticate;       /* TCP peers only; NULL: see above */
	void *auth_data;
	/* Why TCP peers are refused when there is no authenticator (the
	 * default names the missing authenticator). */
	const char *no_auth_reason;
	BsRpcAdmitFunc admit;             /* every peer; NULL: all roles */
	BsRpcReplyCredFunc reply_credential; /* TCP peers; gets auth_data */
	/*
	 * Bounded cost per client (admit.c).  A "client" is any connection
	 * not known to be a daemon: before its hello, or after a hello as
	 * ROLE_CLIENT.  Daemon links (every other role) never count against
	 * the client caps and are never evicted for the output budget.
	 */
	guint max_per_uid;            /* client connections per uid; 0: no cap; root exempt */
	guint daemon_reserve;         /* of max_connections, kept for daemon links */
	guint client_idle_timeout_ms; /* hello'd clients with nothing in flight; 0: none */
	gsize max_outbound_total;     /* queued output over all clients; 0: no cap */
} BsRpcServerOptions;

void bs_rpc_server_options_init(BsRpcServerOptions *opts);

typedef void (*BsRpcConnFunc)(BsRpcConn *conn, void *data);
typedef void (*BsRpcClosedFunc)(BsRpcConn *conn, const char *reason,
    void *data);
/*
 * Result of an outgoing call, called exactly once and never from inside
 * bs_rpc_conn_call().  reply is non-NULL only with RPC_STATUS_OK and is freed
 * after the callback returns; error says why otherwise (transport failures:
 * timeout, connection closed, come as RPC_STATUS_UNAVAILABLE).
 */
typedef void (*BsRpcReplyFunc)(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data);

/* Server.  ctx NULL means the thread-default context. */
BsRpcServer *bs_rpc_server_new(const BsRpcServerOptions *opts,
    GMainContext *ctx);
/* Closes listeners and connections and frees everything. */
void bs_rpc_server_free(BsRpcServer *srv);
/* The service that peers saying hello with this role get (not owned). */
void bs_rpc_server_register(BsRpcServer *srv, Basalt__Role role,
    ProtobufCService *service);
/* ready: hello accepted; closed: the connection is gone (with reason). */
void bs_rpc_server_set_callbacks(BsRpcServer *srv, BsRpcConnFunc ready,
    BsRpcClosedFunc closed, void *data);
/* Replaces a stale socket file at path; the file is removed on free. */
gboolean bs_rpc_server_listen_unix(BsRpcServer *srv, const char *path,
    GError **err);
/* Numeric address only; port 0 picks one, *bound_port (may be NULL) says which. */
gboolean bs_rpc_server_listen_tcp(BsRpcServer *srv, const char *address,
    guint16 port, guint16 *bound_port, GError **err);
/* Serve an already-connected socket (socketpair, inherited fd); takes it. */
BsRpcConn *bs_rpc_server_adopt_fd(BsRpcServer *srv, int fd, GError **err);
guint bs_rpc_server_n_connections(const BsRpcServer *srv);
/*
 * The output gate.  A frame queued after bs_rpc_server_set_barrier(N) is
 * not written before bs_rpc_server_set_synced() reaches N: mbatchd sets
 * the barrier to each event it commits and advances `synced` after each
 * journal sync, so replies and orders never run ahead of the disk.  Every
 * incoming request starts at barrier 0.
 */
void bs_rpc_server_set_barrier(BsRpcServer *srv, guint64 seq);
void bs_rpc_server_set_synced(BsRpcServer *srv, guint64 seq);

/* Dialing out (sbatchd -> mbatchd).  The peer sees us as `role`. */
typedef struct {
	const char *unix_path;    /* either this ... */
	const char *host;         /* ... or a numeric host and port */
	guint16 port;
	Basalt__Role role;
	const char *name;         /* Hello.name */
	const guint8 *credential; /* Hello.credential (MUNGE), may be NULL */
	gsize credential_len;
	/* Checks HelloReply.credential before the link is ready; refusing
	 * closes it, and nothing the peer sends is ever served. */
	BsRpcAuthFunc verify_reply;
	void *verify_data;
	ProtobufCService *serve;  /* what we serve the peer (ExecService), may be NULL */
	BsRpcLimits limits;       /* hello_timeout_ms also bounds connect() */
} BsRpcDialOptions;

void bs_rpc_dial_options_init(BsRpcDialOptions *opts);
/*
 * Start connecting; returns at once.  ready runs when the peer accepted our
 * hello, closed when connecting failed or the link went away (reconnecting
 * is the caller's business).  The caller owns the returned reference.
 */
BsRpcConn *bs_rpc_dial(const BsRpcDialOptions *opts, GMainContext *ctx,
    BsRpcConnFunc ready, BsRpcClosedFunc closed, void *data, GError **err);

/* The numeric address of host `name` (the dialer takes no names), or NULL
 * with "cannot resolve master host NAME: why" in err. */
char *bs_rpc_master_address(const char *name, GError **err);

/* Connections are reference counted; a closed one stays valid, inert. */
BsRpcConn *bs_rpc_conn_ref(BsRpcConn *conn);
void bs_rpc_conn_unref(BsRpcConn *conn);
void bs_rpc_conn_close(BsRpcConn *conn, const char *reason);
gboolean bs_rpc_conn_is_open(const BsRpcConn *conn);
const BsRpcPeer *bs_rpc_conn_peer(const BsRpcConn *conn);
/* Short description for log lines: "conn 3 (unix uid=1000 pid=42)". */
const char *bs_rpc_conn_describe(const BsRpcConn *conn);
gsize bs_rpc_conn_outbound_bytes(const BsRpcConn *conn);

/*
 * Call method_index of desc on the peer.  timeout_ms 0 means none.  FALSE
 * (callback never called) if the connection is closed or the request
 * cannot be packed.
 */
gboolean bs_rpc_conn_call(BsRpcConn *conn,
    const ProtobufCServiceDescriptor *desc, guint method_index,
    const ProtobufCMessage *request, guint timeout_ms, BsRpcReplyFunc cb,
    void *data, GError **err);

/*
 * The call context a handler receives as closure_data.  The request message
 * is only valid until the handler returns; copy what a deferred reply needs.
 */
const BsRpcPeer *bs_rpc_call_peer(const BsRpcCall *call);
BsRpcConn *bs_rpc_call_conn(const BsRpcCall *call);
guint64 bs_rpc_call_id(const BsRpcCall *call);
/*
 * Keep the call to reply later: returns a reference.  Reply by invoking the
 * closure the handler got with (reply, call), then bs_rpc_call_unref().  If
 * the connection died meanwhile the reply is dropped.  Dropping the last
 * reference without replying sends RPC_STATUS_SERVICE_FAILED.
 */
BsRpcCall *bs_rpc_call_defer(BsRpcCall *call);
void bs_rpc_call_unref(BsRpcCall *call);
/* The closure handed to handlers, for code that replies outside invoke. */
void bs_rpc_call_reply(const ProtobufCMessage *reply, void *call);

#endif
