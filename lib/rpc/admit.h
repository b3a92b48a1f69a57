/*
 * What one client may cost a server: connections per uid and in total,
 * with room kept for daemon links, an idle timeout for clients, and one
 * budget for the output queued to all clients.  server.c calls in at
 * accept, at the hello (when the role and, on TCP, the uid are known) and
 * at close; conn.c keeps the output budget current.
 */
#ifndef BS_RPC_ADMIT_H
#define BS_RPC_ADMIT_H

#include "rpc/conn-private.h"

typedef struct {
	const BsRpcServerOptions *opts;
	GHashTable *conns;        /* the server's connection table (not owned) */
	GMainContext *ctx;
	GHashTable *per_uid;      /* uid -> client connections of that uid */
	guint n_clients;          /* connections not known to be daemon links */
	BsRpcOutBudget budget;
	GSource *evict;           /* an eviction waiting for the main loop */
} Admit;

void admit_init(Admit *a, const BsRpcServerOptions *opts, GHashTable *conns,
    GMainContext *ctx);
void admit_clear(Admit *a);
/* Before a connection is made of a just-accepted fd: why it is refused
 * (g_malloc'd), or NULL. */
char *admit_accept(Admit *a, int fd, gboolean is_tcp);
/* The connection joined the server's table. */
void admit_added(Admit *a, BsRpcConn *conn);
/* The hello was accepted for role: why the peer is refused anyway, or
 * NULL (a client then gets the client idle timeout). */
char *admit_hello(Admit *a, BsRpcConn *conn, Basalt__Role role);
void admit_closed(Admit *a, BsRpcConn *conn);

#endif
