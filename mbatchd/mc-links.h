/*
 * MultiCluster links: one ClusterService link from this mbatchd to the
 * mbatchd of every other cluster lsf.shared lists (lsf-reference.md 3.5,
 * issue 19 item 1).  This is what the lease code and the job relay build
 * on: who is reachable now, and a way to call them and be called.
 *
 * Who dials: of two clusters, the one whose name sorts lower (strcmp)
 * dials and re-dials; the other only accepts.  One rule that both sides
 * compute alike gives exactly one link per pair without a race to settle
 * (two links crossing in flight, each side dropping a different one), and
 * no duplicate to tell apart.  The cost: when the dialer is down, the
 * other side waits for it, which it would have to anyway.
 *
 * Trust (mbd-auth.c calls mc_links_admit): the dialer says hello as
 * ROLE_MASTER under its cluster's name with a MUNGE credential of root
 * from an address of one of that cluster's Servers; the acceptor answers
 * with its own credential, which the dialer checks the same way.  Then the
 * dialer calls ClusterService.Hello (its master's name and application
 * profiles; the reply carries the acceptor's) and the link is ok on both
 * sides.  Anything else is refused with a logged reason and closed.
 */
#ifndef BS_MBD_MC_LINKS_H
#define BS_MBD_MC_LINKS_H

#include <glib.h>

#include "cluster.pb-c.h"
#include "rpc/rpc.h"

struct Manager;

typedef enum {
	MC_LINK_DISC,             /* no link now */
	MC_LINK_OK,               /* authenticated both ways, hello done */
} McLinkStatus;

/* One remote cluster, as the rest of mbatchd may read it. */
typedef struct McLink {
	char *cluster;            /* its name in lsf.shared */
	char **servers;           /* its Servers (a copy) */
	gboolean dialer;          /* this side dials it */
	McLinkStatus status;
	gint64 since;             /* wall-clock seconds of the last change */
	char *master;             /* its master host, as its hello said; NULL before */
	char *address;            /* "ADDR:PORT" dialed, or where it came from */
	char *last_error;         /* why the last attempt or link failed, NULL: none */
	guint connects;           /* links made since this mbatchd started */
	gint64 next_dial;         /* wall-clock seconds of the next dial, 0: none */
	GPtrArray *apps;          /* Basalt__RemoteApp* (owned), its last hello's */
	char *admin;              /* its primary administrator, its last hello's */
	guint hosts, server_hosts;/* its host and server counts, the same */

	/* Private to mc-links.c. */
	BsRpcConn *conn;          /* the link, or the dial in progress */
	char *nonce;              /* the dial's MUNGE nonce */
	guint server_idx;         /* which of servers the next dial tries */
	guint backoff_ms;
	guint retry_timer;
	gboolean ping_in_flight;
	gint64 last_ping_us;      /* monotonic: the dialer's last keepalive */
	gint64 last_heard_us;     /* monotonic: the last hello either way */
	struct McLinks *owner;
} McLink;

/* A link went ok or disc. */
typedef void (*McLinkChangeFunc)(struct Manager *m, const McLink *l,
    void *data);
/*
 * A ClusterService request from cluster `cluster` (a link that is ok):
 * reply by calling closure(reply, call) once, now or later (see
 * bs_rpc_call_defer).  The request is valid until the function returns.
 */
typedef void (*McMethodFunc)(struct Manager *m, const char *cluster,
    const ProtobufCMessage *req, ProtobufCClosure closure, void *call,
    void *data);

/* Build the table from the configuration (lsf.shared is read at start
 * only, as LSF's); then, once the server listens, start dialing. */
void mc_links_init(struct Manager *m);
void mc_links_start(struct Manager *m);
/* Close every link (no callbacks run after this) and free the table. */
void mc_links_free(struct Manager *m);
/* The service ROLE_MASTER peers get (register it on the server). */
ProtobufCService *mc_links_service(struct Manager *m);

/* Links in lsf.shared order; mc_link_find by name (NULL: not a peer). */
guint mc_links_count(struct Manager *m);
const McLink *mc_link_nth(struct Manager *m, guint i);
const McLink *mc_link_find(struct Manager *m, const char *cluster);

/*
 * Call ClusterService method `method` (index in the descriptor) on
 * cluster's mbatchd.  FALSE with err (callback never called) when the link
 * is not ok.
 */
gboolean mc_link_call(struct Manager *m, const char *cluster, guint method,
    const ProtobufCMessage *req, guint timeout_ms, BsRpcReplyFunc cb,
    void *data, GError **err);
void mc_links_on_change(struct Manager *m, McLinkChangeFunc fn, void *data);
/* The handler of ClusterService method `method` (Lease, Demand, ...);
 * without one the peer gets an error reply. */
void mc_links_on_method(struct Manager *m, guint method, McMethodFunc fn,
    void *data);

/* mc-journal.c: journal every link change (EvClusterLink, badmin mbdhist). */
void mc_links_journal_changes(struct Manager *m);

/* mbd-auth.c: may this ROLE_MASTER peer link with us?  FALSE with *reason
 * (g_malloc'd). */
gboolean mc_links_admit(struct Manager *m, const BsRpcPeer *peer,
    char **reason);
/* The server saw a connection close. */
void mc_links_conn_closed(struct Manager *m, BsRpcConn *conn,
    const char *reason);

const char *mc_link_status_name(McLinkStatus s);

#endif
