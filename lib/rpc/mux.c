/*
 * One epoll set per main context, shared by all the connections on it.
 *
 * Why not one GSource per connection: GLib's loop walks every source and
 * polls every fd on each iteration, so with 10,000 execution hosts
 * connected each wake-up of mbatchd cost tens of thousands of steps before
 * it could read the one request that woke it (a `bjobs` call spent most of
 * its time there).  Here the context sees a single source with a single
 * fd, the epoll set; epoll_wait() hands back only the connections that are
 * ready, and the deadlines (hello, idle, write stall) sit in a sequence
 * ordered by time, so the source wakes at its head.  The cost
 * of a wake-up is then the work it brings, whatever the connection count.
 *
 * Interest sets and deadlines are level-triggered and re-derived by
 * conn_update() after every change, exactly as they were per source.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "rpc/conn-private.h"

/* Ready connections taken per dispatch; more wait for the next one. */
#define MUX_BATCH 256

struct ConnMux {
	GSource base;
	GMainContext *ctx;
	int epfd;
	GSequence *deadlines;       /* BsRpcConn *, by conn->deadline */
	guint n_conns;
};

G_LOCK_DEFINE_STATIC(muxes);
static GHashTable *muxes;       /* GMainContext * -> ConnMux * */

static guint32
ev_to_epoll(GIOCondition ev)
{
	return ((ev & G_IO_IN) ? EPOLLIN : 0) | ((ev & G_IO_OUT) ? EPOLLOUT : 0);
}

static GIOCondition
epoll_to_cond(guint32 e)
{
	return ((e & EPOLLIN) ? G_IO_IN : 0) | ((e & EPOLLOUT) ? G_IO_OUT : 0) |
	    ((e & EPOLLPRI) ? G_IO_PRI : 0) | ((e & EPOLLHUP) ? G_IO_HUP : 0) |
	    ((e & EPOLLERR) ? G_IO_ERR : 0);
}

static gint
deadline_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
	gint64 x = ((const BsRpcConn *)a)->deadline;
	gint64 y = ((const BsRpcConn *)b)->deadline;

	(void)unused;
	return x < y ? -1 : x > y;
}

/* The earliest deadline, -1 if none. */
static gint64
mux_head(ConnMux *mux)
{
	GSequenceIter *first = g_sequence_get_begin_iter(mux->deadlines);

	return g_sequence_iter_is_end(first) ? -1 :
	    ((BsRpcConn *)g_sequence_get(first))->deadline;
}

/*
 * The source wakes for the epoll fd, or when the earliest deadline is due:
 * prepare() reads the head before every poll.  (A ready time would do the
 * same, but GLib wakes the context, an eventfd write and one more loop
 * iteration, at every change of it, and a request changes its connection's
 * deadline several times: hello, write stall, none.)  Only a change made
 * away from the thread running the loop must wake it.
 */
static void
mux_arm(ConnMux *mux)
{
	if (!g_main_context_is_owner(mux->ctx))
		g_main_context_wakeup(mux->ctx);
}

static gboolean
mux_prepare(GSource *source, gint *timeout)
{
	gint64 t = mux_head((ConnMux *)source);
	gint64 now;

	*timeout = -1;
	if (t < 0)
		return FALSE;
	now = g_source_get_time(source);
	if (t <= now) {
		*timeout = 0;
		return TRUE;
	}
	*timeout = (gint)MIN((t - now + 999) / 1000, (gint64)G_MAXINT);
	return FALSE;
}

/* The epoll fd's readiness GLib checks itself. */
static gboolean
mux_check(GSource *source)
{
	gint64 t = mux_head((ConnMux *)source);

	return t >= 0 && t <= g_source_get_time(source);
}

static void
dispatch_all(GPtrArray *conns, const GIOCondition *conds)
{
	for (guint i = 0; i < conns->len; i++) {
		BsRpcConn *conn = g_ptr_array_index(conns, i);

		/* An earlier one in the batch may have closed it. */
		if (conn->state != CONN_CLOSED)
			conn_dispatch(conn, conds != NULL ? conds[i] : 0);
		bs_rpc_conn_unref(conn);
	}
	g_ptr_array_set_size(conns, 0);
}

static gboolean
mux_dispatch(GSource *source, GSourceFunc cb, gpointer user_data)
{
	ConnMux *mux = (ConnMux *)source;
	struct epoll_event evs[MUX_BATCH];
	GIOCondition conds[MUX_BATCH];
	GPtrArray *batch = g_ptr_array_sized_new(MUX_BATCH);
	gint64 now;
	int n;

	(void)cb;
	(void)user_data;
	/* Every connection in hand is referenced first: dispatching one may
	 * close another (a host link replaced by a new registration). */
	n = epoll_wait(mux->epfd, evs, MUX_BATCH, 0);
	for (int i = 0; i < n; i++) {
		g_ptr_array_add(batch, bs_rpc_conn_ref(evs[i].data.ptr));
		conds[i] = epoll_to_cond(evs[i].events);
	}
	dispatch_all(batch, conds);
	/* Then every connection whose deadline has come. */
	now = g_get_monotonic_time();
	for (GSequenceIter *it = g_sequence_get_begin_iter(mux->deadlines);
	    !g_sequence_iter_is_end(it); it = g_sequence_iter_next(it)) {
		BsRpcConn *conn = g_sequence_get(it);

		if (conn->deadline > now)
			break;
		g_ptr_array_add(batch, bs_rpc_conn_ref(conn));
	}
	dispatch_all(batch, NULL);
	g_ptr_array_free(batch, TRUE);
	/* The last connection may have left and taken the source down. */
	if (!g_source_is_destroyed(source))
		mux_arm(mux);
	return G_SOURCE_CONTINUE;
}

static void
mux_finalize(GSource *source)
{
	ConnMux *mux = (ConnMux *)source;

	close(mux->epfd);
	g_sequence_free(mux->deadlines);
}

static GSourceFuncs mux_funcs = {
	.prepare = mux_prepare,
	.check = mux_check,
	.dispatch = mux_dispatch,
	.finalize = mux_finalize,
};

static ConnMux *
mux_new(GMainContext *ctx)
{
	int epfd = epoll_create1(EPOLL_CLOEXEC);
	ConnMux *mux;

	if (epfd < 0)
		g_error("epoll_create1: %s", g_strerror(errno));
	mux = (ConnMux *)g_source_new(&mux_funcs, sizeof(ConnMux));
	mux->ctx = ctx;
	mux->epfd = epfd;
	mux->deadlines = g_sequence_new(NULL);
	g_source_set_static_name(&mux->base, "bs-rpc-conns");
	/* Nothing dispatches a connection from inside another's dispatch (no
	 * nested loops), and a blocked source would be taken out of the poll
	 * list and put back on every dispatch for nothing. */
	g_source_set_can_recurse(&mux->base, TRUE);
	g_source_add_unix_fd(&mux->base, epfd, G_IO_IN);
	g_source_attach(&mux->base, ctx);
	return mux;
}

ConnMux *
mux_join(GMainContext *ctx, BsRpcConn *conn)
{
	struct epoll_event ev = { .events = 0, .data.ptr = conn };
	ConnMux *mux;

	G_LOCK(muxes);
	if (muxes == NULL)
		muxes = g_hash_table_new(g_direct_hash, g_direct_equal);
	mux = g_hash_table_lookup(muxes, ctx);
	if (mux == NULL) {
		mux = mux_new(ctx);
		g_hash_table_insert(muxes, ctx, mux);
	}
	mux->n_conns++;
	G_UNLOCK(muxes);
	if (epoll_ctl(mux->epfd, EPOLL_CTL_ADD, conn->fd, &ev) < 0)
		g_error("epoll_ctl(ADD, %d): %s", conn->fd, g_strerror(errno));
	conn->ev = 0;
	conn->deadline = -1;
	conn->deadline_it = NULL;
	return mux;
}

void
mux_set(ConnMux *mux, BsRpcConn *conn, GIOCondition ev, gint64 deadline)
{
	if (ev != conn->ev) {
		struct epoll_event e = { .events = ev_to_epoll(ev),
		    .data.ptr = conn };

		if (epoll_ctl(mux->epfd, EPOLL_CTL_MOD, conn->fd, &e) < 0)
			g_error("epoll_ctl(MOD, %d): %s", conn->fd,
			    g_strerror(errno));
		conn->ev = ev;
	}
	if (deadline == conn->deadline)
		return;
	if (conn->deadline_it != NULL)
		g_sequence_remove(conn->deadline_it);
	conn->deadline = deadline;
	conn->deadline_it = deadline < 0 ? NULL :
	    g_sequence_insert_sorted(mux->deadlines, conn, deadline_cmp, NULL);
	mux_arm(mux);
}

void
mux_leave(ConnMux *mux, BsRpcConn *conn)
{
	/* Before close(): the set must not keep a pointer to a freed conn. */
	epoll_ctl(mux->epfd, EPOLL_CTL_DEL, conn->fd, NULL);
	if (conn->deadline_it != NULL) {
		g_sequence_remove(conn->deadline_it);
		conn->deadline_it = NULL;
		mux_arm(mux);
	}
	G_LOCK(muxes);
	if (--mux->n_conns == 0) {
		/* A dispatch in progress keeps its own reference; finalize
		 * runs once it is over. */
		g_hash_table_remove(muxes, mux->ctx);
		g_source_destroy(&mux->base);
		g_source_unref(&mux->base);
	}
	G_UNLOCK(muxes);
}
