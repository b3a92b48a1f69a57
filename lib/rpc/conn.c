/*
 * The I/O core of a connection: non-blocking reads into the frame decoder,
 * a queue of outgoing frames, and the deadlines that bound a peer.
 *
 * Why raw fds rather than GSocket/GIOStream: we need to stop reading from
 * one peer while still writing to it (backpressure), which changing the
 * fd's interest set does in place; we need SO_PEERCRED from the fd; and the
 * connections of a context share one epoll set whose source also carries
 * their deadlines (mux.c), so ten thousand idle peers cost nothing per
 * wake-up.  It also keeps lib/rpc on plain glib, without GObject lifetimes
 * to get right.
 *
 * Frames are queued and written from the connection's dispatch, never from
 * inside conn_send(): a reply can then be sent from anywhere (a handler,
 * a journal-commit callback) without the connection closing under the
 * caller's feet.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rpc/conn-private.h"
#include "util/error.h"

#define READ_CHUNK (64u * 1024)
/* Bound the work one peer gets per loop iteration, for fairness. */
#define READS_PER_DISPATCH 4


void
bs_rpc_limits_init(BsRpcLimits *lim)
{
	lim->max_frame = BS_FRAME_MAX_DEFAULT;
	lim->max_outbound = 16u * 1024 * 1024;
	lim->hello_timeout_ms = 10000;
	lim->idle_timeout_ms = 0;
	lim->write_timeout_ms = 30000;
}

static gint64
ms_to_us(guint ms)
{
	return (gint64)ms * 1000;
}

static gboolean
conn_reading(const BsRpcConn *conn)
{
	return (conn->state == CONN_HELLO || conn->state == CONN_READY) &&
	    !conn->read_paused;
}

static void
conn_eof(BsRpcConn *conn)
{
	gsize have, want;
	char *reason;

	if (!bs_frame_decoder_partial(conn->dec, &have, &want)) {
		conn_close_level(conn, BS_LOG_INFO, "peer closed the connection");
		return;
	}
	reason = g_strdup_printf("peer closed mid-frame (%" G_GSIZE_FORMAT
	    " of %" G_GSIZE_FORMAT " %s bytes)", have, want,
	    bs_frame_decoder_in_body(conn->dec) ? "body" : "header");
	conn_close_level(conn, BS_LOG_WARNING, reason);
	g_free(reason);
}

/* Route one frame by kind; the state says which kinds are legal now. */
static void
conn_handle_frame(BsRpcConn *conn, const Basalt__Envelope *env)
{
	gboolean hello = env->kind == BASALT__FRAME_KIND__FRAME_KIND_HELLO ||
	    env->kind == BASALT__FRAME_KIND__FRAME_KIND_HELLO_REPLY;
	char *reason;

	if (conn->state == CONN_HELLO && hello && conn->hooks != NULL) {
		conn->hooks->hello(conn, env, conn->hook_data);
		return;
	}
	if (conn->state == CONN_READY &&
	    env->kind == BASALT__FRAME_KIND__FRAME_KIND_REQUEST) {
		call_dispatch_request(conn, env);
		return;
	}
	if (conn->state == CONN_READY &&
	    env->kind == BASALT__FRAME_KIND__FRAME_KIND_REPLY) {
		call_handle_reply(conn, env);
		return;
	}
	reason = g_strdup_printf("unexpected %s frame %s",
	    bs_frame_kind_name(env->kind), conn->state == CONN_HELLO ?
	    "before the hello" : "after the hello");
	conn_close_level(conn, BS_LOG_WARNING, reason);
	g_free(reason);
}

static gboolean
budget_spent(const BsRpcConn *conn)
{
	return conn->budget != NULL && conn->budget->max != 0 &&
	    conn->budget->total > conn->budget->max;
}

void
conn_budget_resume(BsRpcConn *conn)
{
	if (!conn->budget_paused || conn->state == CONN_CLOSED)
		return;
	conn->budget_paused = FALSE;
	if (conn->out_bytes <= conn->lim.max_outbound / 2)
		conn->read_paused = FALSE;
	conn_update(conn);
}

/* Feed a chunk; FALSE once the connection stopped accepting input. */
static gboolean
conn_feed(BsRpcConn *conn, const guint8 *buf, gsize len)
{
	Basalt__Envelope *env;
	GError *err = NULL;
	gsize used;

	while (len > 0) {
		/* The clients' output budget is spent: no new request is
		 * served by anyone until the eviction (on the main loop) made
		 * room, or one dispatch over many peers would overshoot it by
		 * a reply each. */
		if (budget_spent(conn)) {
			conn->read_paused = conn->budget_paused = TRUE;
			g_byte_array_append(conn->stash, buf, (guint)len);
			return FALSE;
		}
		switch (bs_frame_decoder_feed(conn->dec, buf, len, &used, &env,
		    &err)) {
		case BS_FRAME_MORE:
			return TRUE;
		case BS_FRAME_ERROR:
			conn_close_level(conn, BS_LOG_WARNING, err->message);
			g_error_free(err);
			return FALSE;
		case BS_FRAME_OK:
			conn_handle_frame(conn, env);
			basalt__envelope__free_unpacked(env, NULL);
			break;
		}
		buf += used;
		len -= used;
		if (conn->state != CONN_HELLO && conn->state != CONN_READY)
			return FALSE;
		/* Small requests can ask for big replies: once output is
		 * over the limit, keep the rest of the chunk for later. */
		if (conn->read_paused) {
			g_byte_array_append(conn->stash, buf, (guint)len);
			return FALSE;
		}
	}
	return TRUE;
}

/* Frames read before reads paused, fed once output has drained. */
static void
conn_feed_stash(BsRpcConn *conn)
{
	GByteArray *s = conn->stash;

	conn->stash = g_byte_array_new();
	conn_feed(conn, s->data, s->len);
	g_byte_array_unref(s);
}

static void
conn_do_read(BsRpcConn *conn)
{
	guint8 buf[READ_CHUNK];
	ssize_t n;
	char *reason;

	for (int i = 0; i < READS_PER_DISPATCH && conn_reading(conn); i++) {
		n = recv(conn->fd, buf, sizeof buf, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0) {
			reason = g_strdup_printf("read: %s", g_strerror(errno));
			conn_close_level(conn, BS_LOG_WARNING, reason);
			g_free(reason);
			return;
		}
		if (n == 0) {
			conn_eof(conn);
			return;
		}
		conn->last_traffic = g_get_monotonic_time();
		if (!conn_feed(conn, buf, (gsize)n))
			return;
	}
}

static void
conn_maybe_resume(BsRpcConn *conn)
{
	if (!conn->read_paused || conn->out_bytes > conn->lim.max_outbound / 2)
		return;
	conn->read_paused = FALSE;
	log_info("%s: output drained to %" G_GSIZE_FORMAT " bytes, reading "
	    "again", conn->desc, conn->out_bytes);
}

/* Frames handed to one sendmsg(). */
#define WRITE_IOV 16

/* Drops the n bytes sent from the head of the queue. */
static void
conn_sent(BsRpcConn *conn, gsize n)
{
	conn->out_bytes -= n;
	if (conn->budget != NULL)
		conn->budget->total -= n;
	conn->last_write_progress = conn->last_traffic = g_get_monotonic_time();
	while (!g_queue_is_empty(&conn->outq)) {
		gsize left = g_bytes_get_size(g_queue_peek_head(&conn->outq)) -
		    conn->out_off;

		if (n < left) {
			conn->out_off += n;
			return;
		}
		n -= left;
		g_bytes_unref(g_queue_pop_head(&conn->outq));
		conn->out_off = 0;
	}
}

/*
 * The queued frames go out together, in one sendmsg: a hello reply and the
 * reply after it then reach the peer in one segment, so a client waiting
 * for both wakes once instead of twice.
 */
static void
conn_do_write(BsRpcConn *conn)
{
	struct iovec iov[WRITE_IOV];
	struct msghdr mh;
	ssize_t n;
	char *reason;

	while (!g_queue_is_empty(&conn->outq)) {
		guint n_iov = 0;

		for (GList *l = conn->outq.head; l != NULL && n_iov < WRITE_IOV;
		    l = l->next, n_iov++) {
			gsize len;
			const guint8 *data = g_bytes_get_data(l->data, &len);
			gsize off = n_iov == 0 ? conn->out_off : 0;

			iov[n_iov].iov_base = (void *)(data + off);
			iov[n_iov].iov_len = len - off;
		}
		memset(&mh, 0, sizeof mh);
		mh.msg_iov = iov;
		mh.msg_iovlen = n_iov;
		n = sendmsg(conn->fd, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0) {
			reason = g_strdup_printf("write: %s", g_strerror(errno));
			conn_close_level(conn, BS_LOG_WARNING, reason);
			g_free(reason);
			return;
		}
		conn_sent(conn, (gsize)n);
	}
	conn_maybe_resume(conn);
	if (conn->state == CONN_CLOSING && g_queue_is_empty(&conn->outq))
		conn_close_level(conn, conn->closing_level,
		    conn->closing_reason);
}

static void
conn_finish_connect(BsRpcConn *conn)
{
	int soerr = conn->connect_errno;
	socklen_t len = sizeof soerr;
	char *reason;

	if (soerr == 0 &&
	    getsockopt(conn->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
		soerr = errno;
	if (soerr != 0) {
		reason = g_strdup_printf("connect to %s: %s",
		    conn->peer.address, g_strerror(soerr));
		conn_close_level(conn, BS_LOG_WARNING, reason);
		g_free(reason);
		return;
	}
	conn->state = CONN_HELLO;
	if (conn->hooks != NULL && conn->hooks->connected != NULL)
		conn->hooks->connected(conn, conn->hook_data);
}

/* Output waits until the commits behind it are durable (BsRpcGate). */
static gboolean
conn_held(const BsRpcConn *conn)
{
	return conn->gate != NULL && conn->held_until > conn->gate->synced;
}

/* The earliest deadline of this connection, or -1 for none. */
static gint64
conn_next_deadline(const BsRpcConn *conn)
{
	gint64 next = -1, t;

	if ((conn->state == CONN_CONNECTING || conn->state == CONN_HELLO) &&
	    conn->lim.hello_timeout_ms != 0)
		next = conn->created + ms_to_us(conn->lim.hello_timeout_ms);
	if (conn->outq.length != 0 && conn->lim.write_timeout_ms != 0 &&
	    !conn_held(conn)) {
		t = conn->last_write_progress +
		    ms_to_us(conn->lim.write_timeout_ms);
		next = next < 0 ? t : MIN(next, t);
	}
	if (conn->state == CONN_READY && conn->lim.idle_timeout_ms != 0 &&
	    conn->inflight == 0 && g_hash_table_size(conn->pending) == 0) {
		t = conn->last_traffic + ms_to_us(conn->lim.idle_timeout_ms);
		next = next < 0 ? t : MIN(next, t);
	}
	if (conn->connect_errno != 0 ||
	    (conn->stash->len > 0 && conn_reading(conn)))
		next = 0;
	return next;
}

static void
conn_check_timers(BsRpcConn *conn, gint64 now)
{
	char *reason = NULL;
	const BsRpcLimits *lim = &conn->lim;

	if (conn->state == CONN_CONNECTING || conn->state == CONN_HELLO) {
		if (lim->hello_timeout_ms != 0 &&
		    now >= conn->created + ms_to_us(lim->hello_timeout_ms))
			reason = g_strdup_printf("%s within %u ms",
			    conn->state == CONN_CONNECTING ? "no connection" :
			    "no hello", lim->hello_timeout_ms);
	}
	if (reason == NULL && !g_queue_is_empty(&conn->outq) && !conn_held(conn) &&
	    lim->write_timeout_ms != 0 && now >= conn->last_write_progress +
	    ms_to_us(lim->write_timeout_ms))
		reason = g_strdup_printf("write stalled for %u ms with %"
		    G_GSIZE_FORMAT " bytes queued", lim->write_timeout_ms,
		    conn->out_bytes);
	if (reason == NULL && conn->state == CONN_READY && lim->idle_timeout_ms != 0 &&
	    conn->inflight == 0 && g_hash_table_size(conn->pending) == 0 &&
	    now >= conn->last_traffic + ms_to_us(lim->idle_timeout_ms))
		reason = g_strdup_printf("idle for %u ms", lim->idle_timeout_ms);
	if (reason != NULL) {
		conn_close_level(conn, BS_LOG_WARNING, reason);
		g_free(reason);
	}
}

/* The fd is ready (cond) or a deadline came (cond 0); called by mux.c. */
void
conn_dispatch(BsRpcConn *conn, GIOCondition cond)
{
	bs_rpc_conn_ref(conn);
	if (conn->state == CONN_CONNECTING) {
		if (conn->connect_errno != 0 || cond != 0)
			conn_finish_connect(conn);
	} else {
		if (conn->stash->len > 0 && conn_reading(conn))
			conn_feed_stash(conn);
		if (cond != 0 && conn_reading(conn))
			conn_do_read(conn);
		/* Replies the read just queued go out now, not one poll later:
		 * with 10,000 connections every poll is long, and a reply
		 * waiting for the next one doubled each call's time.  A full
		 * socket just says EAGAIN and the frame waits for G_IO_OUT. */
		if (conn->state != CONN_CLOSED && !conn_held(conn) &&
		    ((cond & G_IO_OUT) || !g_queue_is_empty(&conn->outq)))
			conn_do_write(conn);
		/* Hung up while we are not reading and have nothing to
		 * write: nothing else would ever notice. */
		if (conn->state != CONN_CLOSED && !conn_reading(conn) &&
		    (cond & (G_IO_HUP | G_IO_ERR)) &&
		    g_queue_is_empty(&conn->outq))
			conn_close_level(conn, BS_LOG_INFO, "peer hung up");
	}
	if (conn->state != CONN_CLOSED)
		conn_check_timers(conn, g_get_monotonic_time());
	conn_update(conn);
	bs_rpc_conn_unref(conn);
}

/* The gate opened: the peer's stall clock starts now, not at the hold. */
void
conn_gate_opened(BsRpcConn *conn, guint64 old_synced)
{
	/* Output that was not held is not freed by the sync either: leave the
	 * connection alone (every sync reaches every connection, 10,000 of
	 * them on a big cluster). */
	if (conn->gate == NULL || conn->held_until <= old_synced)
		return;
	if (!g_queue_is_empty(&conn->outq))
		conn->last_write_progress = g_get_monotonic_time();
	conn_update(conn);
}

/* Re-derive the interest set and deadline from the state. */
void
conn_update(BsRpcConn *conn)
{
	GIOCondition ev = 0;

	if (conn->state == CONN_CLOSED)
		return;
	if (conn->state == CONN_CONNECTING) {
		ev = G_IO_OUT;
	} else {
		if (conn_reading(conn))
			ev |= G_IO_IN;
		if (!g_queue_is_empty(&conn->outq) && !conn_held(conn))
			ev |= G_IO_OUT;
	}
	mux_set(conn->mux, conn, ev, conn_next_deadline(conn));
}

BsRpcConn *
conn_new(GMainContext *ctx, int fd, ConnState state, const BsRpcLimits *lim,
    const ConnHooks *hooks, void *hook_data)
{
	BsRpcConn *conn = g_new0(BsRpcConn, 1);

	/* One reference for the creator, one held while the fd is open. */
	conn->ref = 2;
	conn->ctx = g_main_context_ref(ctx);
	conn->fd = fd;
	conn->state = state;
	conn->lim = *lim;
	conn->dec = bs_frame_decoder_new(lim->max_frame);
	conn->stash = g_byte_array_new();
	g_queue_init(&conn->outq);
	conn->created = conn->last_traffic = conn->last_write_progress =
	    g_get_monotonic_time();
	conn->pending = call_pending_new();
	conn->hooks = hooks;
	conn->hook_data = hook_data;
	conn->desc = g_strdup("conn");
	conn->mux = mux_join(ctx, conn);
	conn_update(conn);
	return conn;
}

void
conn_set_desc(BsRpcConn *conn, const char *desc)
{
	g_free(conn->desc);
	conn->desc = g_strdup(desc);
}

void
conn_send(BsRpcConn *conn, GBytes *frame)
{
	if (conn->state == CONN_CLOSED || conn->state == CONN_CLOSING) {
		g_bytes_unref(frame);
		return;
	}
	if (g_queue_is_empty(&conn->outq))
		conn->last_write_progress = g_get_monotonic_time();
	conn->out_bytes += g_bytes_get_size(frame);
	g_queue_push_tail(&conn->outq, frame);
	if (conn->budget != NULL) {
		conn->budget->total += g_bytes_get_size(frame);
		if (conn->budget->max != 0 &&
		    conn->budget->total > conn->budget->max)
			conn->budget->over(conn->budget->data);
	}
	/* A hello reply depends on no commit; everything after does. */
	if (conn->gate != NULL && conn->state == CONN_READY)
		conn->held_until = MAX(conn->held_until, conn->gate->barrier);
	if (!conn->read_paused && conn->out_bytes > conn->lim.max_outbound) {
		conn->read_paused = TRUE;
		log_warning("%s: %" G_GSIZE_FORMAT " bytes of output queued "
		    "(limit %" G_GSIZE_FORMAT "), pausing reads until the peer "
		    "catches up", conn->desc, conn->out_bytes,
		    conn->lim.max_outbound);
	}
	conn_update(conn);
}

void
conn_set_ready(BsRpcConn *conn, ProtobufCService *service)
{
	conn->state = CONN_READY;
	conn->service = service;
	conn->last_traffic = g_get_monotonic_time();
	conn_update(conn);
}

void
conn_close_after_flush(BsRpcConn *conn, BsLogLevel level, const char *reason)
{
	if (conn->state == CONN_CLOSED || conn->state == CONN_CLOSING)
		return;
	if (g_queue_is_empty(&conn->outq)) {
		conn_close_level(conn, level, reason);
		return;
	}
	conn->state = CONN_CLOSING;
	conn->closing_level = level;
	conn->closing_reason = g_strdup(reason);
	conn_update(conn);
}

void
conn_close_level(BsRpcConn *conn, BsLogLevel level, const char *reason)
{
	const ConnHooks *hooks = conn->hooks;
	GBytes *b;

	if (conn->state == CONN_CLOSED)
		return;
	conn->state = CONN_CLOSED;
	bs_log(level, "%s: closed: %s", conn->desc, reason);
	mux_leave(conn->mux, conn);
	conn->mux = NULL;
	close(conn->fd);
	conn->fd = -1;
	while ((b = g_queue_pop_head(&conn->outq)) != NULL)
		g_bytes_unref(b);
	if (conn->budget != NULL)
		conn->budget->total -= conn->out_bytes;
	conn->budget = NULL;
	conn->out_bytes = conn->out_off = 0;
	call_fail_pending(conn, reason);
	conn->hooks = NULL;
	if (hooks != NULL && hooks->closed != NULL)
		hooks->closed(conn, reason, conn->hook_data);
	conn->hook_data = NULL;
	bs_rpc_conn_unref(conn);
}

void
bs_rpc_conn_close(BsRpcConn *conn, const char *reason)
{
	conn_close_level(conn, BS_LOG_INFO, reason != NULL ? reason :
	    "closed locally");
}

void
conn_peer_clear(BsRpcPeer *peer)
{
	g_clear_pointer(&peer->address, g_free);
	g_clear_pointer(&peer->name, g_free);
	g_clear_pointer(&peer->auth_origin, g_free);
	g_clear_pointer(&peer->auth_nonce, g_free);
}

BsRpcConn *
bs_rpc_conn_ref(BsRpcConn *conn)
{
	g_atomic_int_inc(&conn->ref);
	return conn;
}

void
bs_rpc_conn_unref(BsRpcConn *conn)
{
	if (conn == NULL || !g_atomic_int_dec_and_test(&conn->ref))
		return;
	g_assert(conn->state == CONN_CLOSED);
	bs_frame_decoder_free(conn->dec);
	g_byte_array_unref(conn->stash);
	g_hash_table_destroy(conn->pending);
	g_free(conn->closing_reason);
	g_free(conn->desc);
	conn_peer_clear(&conn->peer);
	g_main_context_unref(conn->ctx);
	g_free(conn);
}

gboolean
bs_rpc_conn_is_open(const BsRpcConn *conn)
{
	return conn->state != CONN_CLOSED && conn->state != CONN_CLOSING;
}

const BsRpcPeer *
bs_rpc_conn_peer(const BsRpcConn *conn)
{
	return &conn->peer;
}

const char *
bs_rpc_conn_describe(const BsRpcConn *conn)
{
	return conn->desc;
}

gsize
bs_rpc_conn_outbound_bytes(const BsRpcConn *conn)
{
	return conn->out_bytes;
}
