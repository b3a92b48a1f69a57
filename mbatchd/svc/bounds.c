/*
 * The size of every list in a request, checked before any handler runs.
 *
 * A frame may be 4 MiB, room for about a million short names; no command
 * needs that many, and each name costs the handler work.  So every
 * request of the BatchService passes through here first: if any repeated
 * field, at any depth, holds more than MAX_REQUEST_LIST_SIZE (lsb.params)
 * entries, the caller gets its method's reply with an error saying which
 * list and the limit, and the handler never sees the request.  One check
 * for every method, present and future, rather than one per handler.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/svc/svc.h"
#include "util/log.h"

/* Nested messages are few levels deep; a bound keeps a hostile nesting
 * from costing stack (protobuf-c already bounds it on unpack). */
#define MAX_DEPTH 8

/* The first list longer than max, as "select.users" with its length. */
static gboolean
too_long(const ProtobufCMessage *msg, size_t max, int depth, GString *path,
    size_t *len)
{
	const ProtobufCMessageDescriptor *d = msg->descriptor;

	if (depth > MAX_DEPTH)
		return FALSE;
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const char *base = (const char *)msg;
		gsize plen = path->len;

		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + f->quantifier_offset);

			if (n > max) {
				g_string_append(path, f->name);
				*len = n;
				return TRUE;
			}
			if (f->type != PROTOBUF_C_TYPE_MESSAGE)
				continue;
			for (size_t k = 0; k < n; k++) {
				const ProtobufCMessage *sub =
				    (*(ProtobufCMessage *const *const *)(base + f->offset))[k];

				g_string_append_printf(path, "%s.", f->name);
				if (sub != NULL && too_long(sub, max, depth + 1, path, len))
					return TRUE;
				g_string_truncate(path, plen);
			}
		} else if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
			const ProtobufCMessage *sub =
			    *(ProtobufCMessage *const *)(base + f->offset);

			if (sub == NULL)
				continue;
			g_string_append_printf(path, "%s.", f->name);
			if (too_long(sub, max, depth + 1, path, len))
				return TRUE;
			g_string_truncate(path, plen);
		}
	}
	return FALSE;
}

/* The method's reply, empty but for its error. */
static void
refuse(const ProtobufCMessageDescriptor *out, Basalt__Error *e,
    ProtobufCClosure closure, void *call)
{
	const ProtobufCFieldDescriptor *f =
	    protobuf_c_message_descriptor_get_field_by_name(out, "error");
	ProtobufCMessage *reply;

	if (f == NULL || f->descriptor != &basalt__error__descriptor) {
		/* No error field to say why: the call fails as a whole. */
		closure(NULL, call);
		return;
	}
	reply = g_malloc0(out->sizeof_message);
	out->message_init(reply);
	*(Basalt__Error **)((char *)reply + f->offset) = e;
	closure(reply, call);
	g_free(reply);
}

static void
bounded_invoke(ProtobufCService *service, unsigned method,
    const ProtobufCMessage *input, ProtobufCClosure closure, void *call)
{
	Manager *m = svc_manager((Basalt__BatchService_Service *)service);
	size_t max = (size_t)m->cfg->params->max_request_list_size, len = 0;
	g_autoptr(GString) path = g_string_new(NULL);
	Basalt__Error *e;

	if (input != NULL && too_long(input, max, 0, path, &len)) {
		e = svc_error(BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST,
		    "Request refused: %zu entries in %s; at most %zu are "
		    "accepted (MAX_REQUEST_LIST_SIZE in lsb.params)", len,
		    path->str, max);
		log_warning("%s: %s", bs_rpc_conn_describe(bs_rpc_call_conn(call)),
		    e->message);
		refuse(service->descriptor->methods[method].output, e, closure,
		    call);
		svc_error_free(e);
		return;
	}
	protobuf_c_service_invoke_internal(service, method, input, closure, call);
}

void
svc_bound_requests(Manager *m)
{
	m->batch_service.base.invoke = bounded_invoke;
}
