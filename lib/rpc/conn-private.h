/*
 * What conn.c, call.c, server.c and dial.c share and nobody else sees.
 *
 * A connection is one fd in its context's epoll set (mux.c): the fd's
 * interest set says whether we read and/or write, and its deadline is the
 * earliest of the connection's deadlines (hello, idle, write stall).  The
 * server and the dialer plug in through ConnHooks, so the I/O core knows
 * nothing about roles, listeners or reconnecting.
 */
#ifndef BS_RPC_CONN_PRIVATE_H
#define BS_RPC_CONN_PRIVATE_H

#include <glib-unix.h>

#include "rpc/rpc.h"
#include "util/log.h"

typedef enum {
	CONN_CONNECTING,   /* dialer: connect() in progress */
	CONN_HELLO,        /* waiting for the hello (server) or its reply (dialer) */
	CONN_READY,        /* requests and replies both ways */
	CONN_CLOSING,      /* flushing a last frame (a refusal), then close */
	CONN_CLOSED,
} ConnState;

/*
 * The output gate of a server: a frame queued while `barrier` is N is not
 * written before `synced` reaches N.  mbatchd sets the barrier to the
 * journal sequence number of each event it commits and advances `synced`
 * after each fdatasync, so no reply or order leaves before the events
 * behind it are durable.  Each incoming request starts at barrier 0, so a
 * query or a refusal is never held behind someone else's commit.
 */
typedef struct {
	guint64 barrier;
	guint64 synced;
} BsRpcGate;

typedef struct ConnMux ConnMux;

/*
 * Output queued by all the clients of a server, against one cap: conn.c
 * keeps `total` current and calls over(data) when a frame takes it past
 * `max`; the server then evicts from its main loop (admit.c), never from
 * inside conn_send().
 */
typedef struct {
	gsize total;
	gsize max;                /* 0: no cap */
	void (*over)(void *data);
	void *data;
} BsRpcOutBudget;

typedef struct {
	/* Dialer: connect() finished; send the hello. */
	void (*connected)(BsRpcConn *conn, void *data);
	/* Server: a HELLO frame; dialer: a HELLO_REPLY frame. */
	void (*hello)(BsRpcConn *conn, const Basalt__Envelope *env, void *data);
	/* The connection is closed; hooks are dropped right after. */
	void (*closed)(BsRpcConn *conn, const char *reason, void *data);
} ConnHooks;

struct BsRpcConn {
	gint ref;
	GMainContext *ctx;
	int fd;
	ConnMux *mux;               /* the epoll set of ctx (mux.c) */
	GIOCondition ev;            /* interest set registered there */
	gint64 deadline;            /* next deadline, -1 none, 0 at once */
	GSequenceIter *deadline_it; /* its place in the mux's deadlines */
	ConnState state;
	int connect_errno;          /* dialer: connect() failed at once */
	BsRpcLimits lim;
	BsFrameDecoder *dec;
	GByteArray *stash;          /* input read but not fed while paused */

	GQueue outq;                /* GBytes frames, head partly written */
	gsize out_off;
	gsize out_bytes;
	gboolean read_paused;       /* output over lim.max_outbound */
	BsRpcGate *gate;            /* the server's output gate, or NULL */
	guint64 held_until;         /* output waits until gate->synced reaches it */

	gint64 created;
	gint64 last_traffic;
	gint64 last_write_progress;

	BsRpcPeer peer;
	char *desc;
	ProtobufCService *service;  /* what we serve on this connection */
	GHashTable *pending;        /* request id -> OutCall, our calls */
	guint64 next_id;
	guint inflight;             /* peer's calls not answered yet */

	char *closing_reason;
	BsLogLevel closing_level;
	gboolean announced;         /* the owner saw "ready" */
	/* admit.c's accounting: which counts this connection is in. */
	gboolean admit_client;      /* counted as a client (not a daemon link) */
	gboolean admit_uid;         /* counted against peer.uid's cap */
	BsRpcOutBudget *budget;     /* clients' shared output budget, or NULL */
	gboolean budget_paused;     /* reads paused while the budget is spent */
	const ConnHooks *hooks;
	void *hook_data;
};

/* conn.c */
BsRpcConn *conn_new(GMainContext *ctx, int fd, ConnState state,
    const BsRpcLimits *lim, const ConnHooks *hooks, void *hook_data);
void conn_set_desc(BsRpcConn *conn, const char *desc);
void conn_update(BsRpcConn *conn);
void conn_gate_opened(BsRpcConn *conn, guint64 old_synced);
void conn_send(BsRpcConn *conn, GBytes *frame);
void conn_set_ready(BsRpcConn *conn, ProtobufCService *service);
void conn_close_level(BsRpcConn *conn, BsLogLevel level, const char *reason);
void conn_close_after_flush(BsRpcConn *conn, BsLogLevel level,
    const char *reason);
void conn_peer_clear(BsRpcPeer *peer);
void conn_dispatch(BsRpcConn *conn, GIOCondition cond);
/* The output budget has room again: read again if only it stopped us. */
void conn_budget_resume(BsRpcConn *conn);

/* mux.c: the epoll set shared by the connections of one main context. */
ConnMux *mux_join(GMainContext *ctx, BsRpcConn *conn);
/* Interest set and deadline (as conn_update derives them). */
void mux_set(ConnMux *mux, BsRpcConn *conn, GIOCondition ev, gint64 deadline);
/* Before the fd is closed. */
void mux_leave(ConnMux *mux, BsRpcConn *conn);

/* call.c */
void call_dispatch_request(BsRpcConn *conn, const Basalt__Envelope *env);
void call_handle_reply(BsRpcConn *conn, const Basalt__Envelope *env);
void call_fail_pending(BsRpcConn *conn, const char *reason);
GHashTable *call_pending_new(void);

#endif
