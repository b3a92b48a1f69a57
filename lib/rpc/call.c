/*
 * Calls in both directions over one connection.
 *
 * Incoming: a REQUEST is checked against the generated service descriptor
 * (method in range, implemented, body decodes as its input type) and handed
 * to service->invoke() with a BsRpcCall as closure_data.  The call is
 * reference counted so a handler can keep it past invoke() and reply after
 * a journal commit; whoever drops the last reference without a reply sends
 * RPC_STATUS_SERVICE_FAILED, so a caller never waits for a reply that will
 * not come.  The call holds the connection, so a late reply to a dead peer
 * finds an inert connection and is dropped.
 *
 * Outgoing: requests get an id, a pending entry and an optional timer; the
 * REPLY with the same id completes them.  Closing the connection completes
 * every pending call with RPC_STATUS_UNAVAILABLE.
 */
#include "config.h"

#include "rpc/conn-private.h"
#include "util/error.h"

struct BsRpcCall {
	gint ref;
	BsRpcConn *conn;
	guint64 id;
	guint method;
	const ProtobufCServiceDescriptor *sdesc;
	const ProtobufCMethodDescriptor *mdesc;
	gboolean replied;
};

typedef struct {
	guint64 id;
	BsRpcConn *conn;            /* not a reference: conn owns us */
	const ProtobufCServiceDescriptor *sdesc;
	const ProtobufCMethodDescriptor *mdesc;
	BsRpcReplyFunc cb;
	void *data;
	GSource *timer;
	guint timeout_ms;
} OutCall;

GHashTable *
call_pending_new(void)
{
	return g_hash_table_new(g_int64_hash, g_int64_equal);
}

static void
send_status(BsRpcConn *conn, guint64 id, guint method,
    Basalt__RpcStatus status, const char *error)
{
	GBytes *frame = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REPLY,
	    id, method, status, NULL, error, conn->lim.max_frame, NULL);

	if (frame != NULL)
		conn_send(conn, frame);
}

/* Refuse a request the service cannot take; the connection carries on. */
static void
reject(BsRpcConn *conn, const Basalt__Envelope *env, Basalt__RpcStatus status,
    const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static void
reject(BsRpcConn *conn, const Basalt__Envelope *env, Basalt__RpcStatus status,
    const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	log_warning("%s: request %" G_GUINT64_FORMAT ": %s", conn->desc,
	    env->id, msg);
	send_status(conn, env->id, env->method, status, msg);
	g_free(msg);
}

/*
 * The generated invoke (protobuf_c_service_invoke_internal) jumps through
 * the handler table that follows the base struct and does not check for
 * NULL, so a daemon that leaves a method unimplemented would crash on it.
 * Only that layout is known; a custom invoke checks for itself.
 */
static gboolean
method_implemented(ProtobufCService *svc, guint method)
{
	typedef void (*Handler)(void);
	const Handler *handlers;

	if (svc->invoke != protobuf_c_service_invoke_internal)
		return TRUE;
	handlers = (const Handler *)(svc + 1);
	return handlers[method] != NULL;
}

static BsRpcCall *
call_new(BsRpcConn *conn, const Basalt__Envelope *env,
    const ProtobufCServiceDescriptor *sdesc)
{
	BsRpcCall *call = g_new0(BsRpcCall, 1);

	call->ref = 1;
	call->conn = bs_rpc_conn_ref(conn);
	call->id = env->id;
	call->method = env->method;
	call->sdesc = sdesc;
	call->mdesc = &sdesc->methods[env->method];
	conn->inflight++;
	return call;
}

void
call_dispatch_request(BsRpcConn *conn, const Basalt__Envelope *env)
{
	ProtobufCService *svc = conn->service;
	const ProtobufCServiceDescriptor *sd;
	const ProtobufCMethodDescriptor *m;
	ProtobufCMessage *input;
	BsRpcCall *call;

	if (svc == NULL) {
		reject(conn, env, BASALT__RPC_STATUS__RPC_STATUS_BAD_METHOD,
		    "no service is served on this connection");
		return;
	}
	sd = svc->descriptor;
	if (env->method >= sd->n_methods) {
		reject(conn, env, BASALT__RPC_STATUS__RPC_STATUS_BAD_METHOD,
		    "unknown method %u of %s (%u methods)", env->method,
		    sd->name, sd->n_methods);
		return;
	}
	m = &sd->methods[env->method];
	if (!method_implemented(svc, env->method)) {
		reject(conn, env, BASALT__RPC_STATUS__RPC_STATUS_BAD_METHOD,
		    "%s.%s is not implemented", sd->name, m->name);
		return;
	}
	input = protobuf_c_message_unpack(m->input, NULL, env->body.len,
	    env->body.data);
	if (input == NULL) {
		reject(conn, env, BASALT__RPC_STATUS__RPC_STATUS_BAD_MESSAGE,
		    "%s.%s: body is not a valid %s", sd->name, m->name,
		    m->input->name);
		return;
	}
	call = call_new(conn, env, sd);
	/* A request's reply waits only for the commits it makes itself. */
	if (conn->gate != NULL)
		conn->gate->barrier = 0;
	svc->invoke(svc, env->method, input, bs_rpc_call_reply, call);
	protobuf_c_message_free_unpacked(input, NULL);
	bs_rpc_call_unref(call);
}

/* Mark replied and queue a non-OK status; logs why. */
static void
call_fail(BsRpcCall *call, const char *why)
{
	call->replied = TRUE;
	call->conn->inflight--;
	log_warning("%s: %s.%s (request %" G_GUINT64_FORMAT ") failed: %s",
	    call->conn->desc, call->sdesc->name, call->mdesc->name, call->id,
	    why);
	send_status(call->conn, call->id, call->method,
	    BASALT__RPC_STATUS__RPC_STATUS_SERVICE_FAILED, why);
}

void
bs_rpc_call_reply(const ProtobufCMessage *reply, void *data)
{
	BsRpcCall *call = data;
	BsRpcConn *conn = call->conn;
	GError *err = NULL;
	GBytes *frame;

	if (call->replied) {
		log_warning("%s: %s.%s replied twice, ignoring", conn->desc,
		    call->sdesc->name, call->mdesc->name);
		return;
	}
	if (reply == NULL) {
		call_fail(call, "the handler reported failure");
		return;
	}
	if (reply->descriptor != call->mdesc->output) {
		call_fail(call, "the handler replied with the wrong type");
		return;
	}
	frame = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REPLY,
	    call->id, call->method, BASALT__RPC_STATUS__RPC_STATUS_OK, reply,
	    NULL, conn->lim.max_frame, &err);
	if (frame == NULL) {
		call_fail(call, err->message);
		g_error_free(err);
		return;
	}
	call->replied = TRUE;
	conn->inflight--;
	if (!bs_rpc_conn_is_open(conn))
		log_info("%s: dropping reply to %s.%s: connection closed",
		    conn->desc, call->sdesc->name, call->mdesc->name);
	conn_send(conn, frame);
}

BsRpcCall *
bs_rpc_call_defer(BsRpcCall *call)
{
	g_atomic_int_inc(&call->ref);
	return call;
}

void
bs_rpc_call_unref(BsRpcCall *call)
{
	if (call == NULL || !g_atomic_int_dec_and_test(&call->ref))
		return;
	if (!call->replied)
		call_fail(call, "the handler did not reply");
	bs_rpc_conn_unref(call->conn);
	g_free(call);
}

const BsRpcPeer *
bs_rpc_call_peer(const BsRpcCall *call)
{
	return &call->conn->peer;
}

BsRpcConn *
bs_rpc_call_conn(const BsRpcCall *call)
{
	return call->conn;
}

guint64
bs_rpc_call_id(const BsRpcCall *call)
{
	return call->id;
}

static void
out_call_finish(OutCall *oc, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *err)
{
	BsRpcConn *conn = bs_rpc_conn_ref(oc->conn);

	if (oc->timer != NULL) {
		g_source_destroy(oc->timer);
		g_source_unref(oc->timer);
	}
	oc->cb(conn, status, reply, err, oc->data);
	g_free(oc);
	bs_rpc_conn_unref(conn);
}

static gboolean
out_call_timeout(gpointer data)
{
	OutCall *oc = data;
	GError *err;

	g_hash_table_remove(oc->conn->pending, &oc->id);
	err = g_error_new(BS_ERROR, BS_ERROR_TIMEOUT,
	    "%s.%s: no reply within %u ms", oc->sdesc->name, oc->mdesc->name,
	    oc->timeout_ms);
	out_call_finish(oc, BASALT__RPC_STATUS__RPC_STATUS_UNAVAILABLE, NULL,
	    err);
	g_error_free(err);
	return G_SOURCE_REMOVE;
}

gboolean
bs_rpc_conn_call(BsRpcConn *conn, const ProtobufCServiceDescriptor *desc,
    guint method_index, const ProtobufCMessage *request, guint timeout_ms,
    BsRpcReplyFunc cb, void *data, GError **err)
{
	const ProtobufCMethodDescriptor *m;
	OutCall *oc;
	GBytes *frame;
	guint64 id;

	if (!bs_rpc_conn_is_open(conn)) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "%s is closed",
		    conn->desc);
		return FALSE;
	}
	if (method_index >= desc->n_methods ||
	    request->descriptor != desc->methods[method_index].input) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s has no method %u taking %s", desc->name, method_index,
		    request->descriptor->name);
		return FALSE;
	}
	m = &desc->methods[method_index];
	id = ++conn->next_id;
	frame = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REQUEST,
	    id, method_index, BASALT__RPC_STATUS__RPC_STATUS_OK, request, NULL,
	    conn->lim.max_frame, err);
	if (frame == NULL)
		return FALSE;
	oc = g_new0(OutCall, 1);
	oc->id = id;
	oc->conn = conn;
	oc->sdesc = desc;
	oc->mdesc = m;
	oc->cb = cb;
	oc->data = data;
	oc->timeout_ms = timeout_ms;
	g_hash_table_insert(conn->pending, &oc->id, oc);
	if (timeout_ms != 0) {
		oc->timer = g_timeout_source_new(timeout_ms);
		g_source_set_callback(oc->timer, out_call_timeout, oc, NULL);
		g_source_attach(oc->timer, conn->ctx);
	}
	conn_send(conn, frame);
	return TRUE;
}

void
call_handle_reply(BsRpcConn *conn, const Basalt__Envelope *env)
{
	OutCall *oc = g_hash_table_lookup(conn->pending, &env->id);
	ProtobufCMessage *reply = NULL;
	Basalt__RpcStatus status = env->status;
	GError *err = NULL;

	if (oc == NULL) {
		/* Most likely a call that already timed out. */
		log_info("%s: reply to unknown request %" G_GUINT64_FORMAT
		    ", ignoring", conn->desc, env->id);
		return;
	}
	g_hash_table_remove(conn->pending, &env->id);
	if (status == BASALT__RPC_STATUS__RPC_STATUS_OK) {
		reply = protobuf_c_message_unpack(oc->mdesc->output, NULL,
		    env->body.len, env->body.data);
		if (reply == NULL) {
			status = BASALT__RPC_STATUS__RPC_STATUS_BAD_MESSAGE;
			err = g_error_new(BS_ERROR, BS_ERROR_PROTOCOL,
			    "%s.%s: reply is not a valid %s", oc->sdesc->name,
			    oc->mdesc->name, oc->mdesc->output->name);
		}
	} else {
		err = g_error_new(BS_ERROR, BS_ERROR_FAILED, "%s.%s: %s: %s",
		    oc->sdesc->name, oc->mdesc->name, bs_rpc_status_name(status),
		    env->error);
	}
	out_call_finish(oc, status, reply, err);
	if (reply != NULL)
		protobuf_c_message_free_unpacked(reply, NULL);
	g_clear_error(&err);
}

void
call_fail_pending(BsRpcConn *conn, const char *reason)
{
	GList *calls = g_hash_table_get_values(conn->pending);
	GError *err;

	g_hash_table_remove_all(conn->pending);
	for (GList *l = calls; l != NULL; l = l->next) {
		OutCall *oc = l->data;

		err = g_error_new(BS_ERROR, BS_ERROR_IO, "%s.%s: connection "
		    "closed: %s", oc->sdesc->name, oc->mdesc->name, reason);
		out_call_finish(oc, BASALT__RPC_STATUS__RPC_STATUS_UNAVAILABLE,
		    NULL, err);
		g_error_free(err);
	}
	g_list_free(calls);
}
