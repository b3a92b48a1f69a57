/*
 * Bounded cost per client (see admit.h).
 *
 * A connection counts as a client from accept() until a hello proves it
 * a daemon link (any role but ROLE_CLIENT), because before the hello
 * nobody knows.  So clients may fill max_connections - daemon_reserve
 * and no more: an execution host registering during a flood finds the
 * reserve free.  On the Unix socket the uid is known at accept()
 * (SO_PEERCRED), so a non-root peer over its caps is turned away before
 * any memory is spent; on TCP the uid is known once the authenticator
 * sets peer->has_cred at the hello, and the caps apply there.  Root is
 * exempt from the per-uid cap and may use the reserve: it runs the
 * daemons and is trusted with them anyway.
 *
 * Output: each connection stops reading past limits.max_outbound, but
 * forty such clients still pin forty times that.  All clients share one
 * budget; past it, the client with the most output queued (the slowest
 * reader) is closed, from an idle source so nobody's conn_send() sees a
 * connection close under it.  Daemon links are outside the budget.
 */
#include "config.h"

#include <sys/socket.h>

#include "rpc/admit.h"

static guint
client_cap(const Admit *a)
{
	guint max = a->opts->max_connections;

	return max > a->opts->daemon_reserve ? max - a->opts->daemon_reserve : 1;
}

static guint
uid_count(const Admit *a, uid_t uid)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(a->per_uid,
	    GUINT_TO_POINTER(uid)));
}

static void
uid_add(Admit *a, uid_t uid, int delta)
{
	guint n = uid_count(a, uid) + (guint)delta;

	if (n == 0)
		g_hash_table_remove(a->per_uid, GUINT_TO_POINTER(uid));
	else
		g_hash_table_insert(a->per_uid, GUINT_TO_POINTER(uid),
		    GUINT_TO_POINTER(n));
}

static gboolean
evict_run(gpointer data)
{
	Admit *a = data;
	GHashTableIter it;
	gpointer key;
	BsRpcConn *victim;
	char *why;

	g_clear_pointer(&a->evict, g_source_unref);
	while (a->budget.max != 0 && a->budget.total > a->budget.max) {
		victim = NULL;
		g_hash_table_iter_init(&it, a->conns);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			BsRpcConn *c = key;

			if (c->budget != NULL && c->out_bytes > 0 &&
			    (victim == NULL || c->out_bytes > victim->out_bytes))
				victim = c;
		}
		if (victim == NULL)
			break;
		why = g_strdup_printf("slowest reader: %" G_GSIZE_FORMAT
		    " bytes of output queued, and all clients together had %"
		    G_GSIZE_FORMAT " (limit %" G_GSIZE_FORMAT ")",
		    victim->out_bytes, a->budget.total, a->budget.max);
		conn_close_level(victim, BS_LOG_WARNING, why);
		g_free(why);
	}
	/* Those the spent budget stopped may read again. */
	if (a->budget.max == 0 || a->budget.total <= a->budget.max) {
		g_hash_table_iter_init(&it, a->conns);
		while (g_hash_table_iter_next(&it, &key, NULL))
			conn_budget_resume(key);
	}
	return G_SOURCE_REMOVE;
}

static void
budget_over(void *data)
{
	Admit *a = data;

	if (a->evict != NULL)
		return;
	a->evict = g_idle_source_new();
	g_source_set_priority(a->evict, G_PRIORITY_HIGH);
	g_source_set_callback(a->evict, evict_run, a, NULL);
	g_source_attach(a->evict, a->ctx);
}

void
admit_init(Admit *a, const BsRpcServerOptions *opts, GHashTable *conns,
    GMainContext *ctx)
{
	a->opts = opts;
	a->conns = conns;
	a->ctx = ctx;
	a->per_uid = g_hash_table_new(g_direct_hash, g_direct_equal);
	a->n_clients = 0;
	a->budget.total = 0;
	a->budget.max = opts->max_outbound_total;
	a->budget.over = budget_over;
	a->budget.data = a;
	a->evict = NULL;
}

void
admit_clear(Admit *a)
{
	if (a->evict != NULL) {
		g_source_destroy(a->evict);
		g_clear_pointer(&a->evict, g_source_unref);
	}
	g_clear_pointer(&a->per_uid, g_hash_table_destroy);
}

char *
admit_accept(Admit *a, int fd, gboolean is_tcp)
{
	struct ucred cred;
	socklen_t len = sizeof cred;

	/* TCP: the role and uid come with the hello (admit_hello). */
	if (is_tcp)
		return NULL;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return NULL;
	if (cred.uid == 0)
		return NULL;
	if (a->opts->max_per_uid != 0 &&
	    uid_count(a, cred.uid) >= a->opts->max_per_uid)
		return g_strdup_printf("too many connections from uid %u "
		    "(limit %u per user)", (unsigned)cred.uid,
		    a->opts->max_per_uid);
	if (a->n_clients >= client_cap(a))
		return g_strdup_printf("too many client connections (%u); "
		    "the other %u are kept for daemons", a->n_clients,
		    a->opts->daemon_reserve);
	return NULL;
}

void
admit_added(Admit *a, BsRpcConn *conn)
{
	conn->admit_client = TRUE;
	a->n_clients++;
	if (conn->peer.has_cred && conn->peer.uid != 0) {
		conn->admit_uid = TRUE;
		uid_add(a, conn->peer.uid, 1);
	}
	conn->budget = &a->budget;
}

static void
uncount(Admit *a, BsRpcConn *conn)
{
	if (conn->admit_uid)
		uid_add(a, conn->peer.uid, -1);
	if (conn->admit_client)
		a->n_clients--;
	conn->admit_uid = conn->admit_client = FALSE;
}

char *
admit_hello(Admit *a, BsRpcConn *conn, Basalt__Role role)
{
	const BsRpcPeer *peer = &conn->peer;
	gboolean root = peer->has_cred && peer->uid == 0;

	if (role != BASALT__ROLE__ROLE_CLIENT) {
		/* A daemon link: outside the client caps and the budget. */
		uncount(a, conn);
		if (conn->budget != NULL)
			conn->budget->total -= conn->out_bytes;
		conn->budget = NULL;
		return NULL;
	}
	if (!root && a->n_clients > client_cap(a))
		return g_strdup_printf("too many client connections (%u); "
		    "the other %u are kept for daemons", a->n_clients - 1,
		    a->opts->daemon_reserve);
	/* An authenticated TCP peer: its uid is known only now. */
	if (peer->has_cred && !root && !conn->admit_uid) {
		conn->admit_uid = TRUE;
		uid_add(a, peer->uid, 1);
		if (a->opts->max_per_uid != 0 &&
		    uid_count(a, peer->uid) > a->opts->max_per_uid)
			return g_strdup_printf("too many connections from uid "
			    "%u (limit %u per user)", (unsigned)peer->uid,
			    a->opts->max_per_uid);
	}
	if (a->opts->client_idle_timeout_ms != 0)
		conn->lim.idle_timeout_ms = a->opts->client_idle_timeout_ms;
	return NULL;
}

void
admit_closed(Admit *a, BsRpcConn *conn)
{
	uncount(a, conn);
}
