/*
 * Frame codec.  See frame.h for the shape; the notes here are about limits.
 *
 * The decoder is a two-state machine (header, body).  A failed decoder stays
 * failed: once a length prefix is wrong there is no way to find the next
 * frame boundary, so the only safe thing the owner can do is close the
 * connection, and making every later feed fail keeps a careless caller from
 * misreading the stream.
 */
#include "config.h"
#include "rpc/frame.h"

#include <string.h>

#include "util/error.h"

/* Body buffers start at most this big and grow as bytes arrive. */
#define BODY_CHUNK (64u * 1024)

struct BsFrameDecoder {
	gsize max_frame;
	guint8 header[BS_FRAME_HEADER_SIZE];
	gsize header_have;
	guint8 *body;
	gsize body_cap;
	gsize body_have;
	gsize body_want;       /* 0 while reading the header */
	gboolean failed;
};

BsFrameDecoder *
bs_frame_decoder_new(gsize max_frame)
{
	BsFrameDecoder *dec = g_new0(BsFrameDecoder, 1);

	bs_frame_decoder_set_max(dec, max_frame);
	return dec;
}

void
bs_frame_decoder_free(BsFrameDecoder *dec)
{
	if (dec == NULL)
		return;
	g_free(dec->body);
	g_free(dec);
}

void
bs_frame_decoder_set_max(BsFrameDecoder *dec, gsize max_frame)
{
	dec->max_frame = max_frame != 0 ? max_frame : BS_FRAME_MAX_DEFAULT;
}

gsize
bs_frame_decoder_get_max(const BsFrameDecoder *dec)
{
	return dec->max_frame;
}

gboolean
bs_frame_decoder_partial(const BsFrameDecoder *dec, gsize *have, gsize *want)
{
	gsize h = 0, w = 0;
	gboolean mid;

	if (dec->body_want != 0) {
		h = dec->body_have;
		w = dec->body_want;
	} else {
		h = dec->header_have;
		w = BS_FRAME_HEADER_SIZE;
	}
	mid = dec->body_want != 0 || dec->header_have != 0;
	if (have != NULL)
		*have = h;
	if (want != NULL)
		*want = w;
	return mid;
}

gboolean
bs_frame_decoder_in_body(const BsFrameDecoder *dec)
{
	return dec->body_want != 0;
}

static BsFrameStatus
decoder_fail(BsFrameDecoder *dec, GError **err, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static BsFrameStatus
decoder_fail(BsFrameDecoder *dec, GError **err, const char *fmt, ...)
{
	va_list ap;

	dec->failed = TRUE;
	if (err != NULL) {
		va_start(ap, fmt);
		*err = g_error_new_valist(BS_ERROR, BS_ERROR_PROTOCOL, fmt, ap);
		va_end(ap);
	}
	return BS_FRAME_ERROR;
}

/* Header complete: validate the length before reserving any memory. */
static BsFrameStatus
decoder_start_body(BsFrameDecoder *dec, GError **err)
{
	guint32 len = (guint32)dec->header[0] << 24 |
	    (guint32)dec->header[1] << 16 | (guint32)dec->header[2] << 8 |
	    (guint32)dec->header[3];

	if (len == 0)
		return decoder_fail(dec, err, "zero-length frame");
	if (len > dec->max_frame)
		return decoder_fail(dec, err, "frame length %u exceeds limit %"
		    G_GSIZE_FORMAT, len, dec->max_frame);
	dec->body_want = len;
	dec->body_have = 0;
	return BS_FRAME_MORE;
}

static void
decoder_append(BsFrameDecoder *dec, const guint8 *data, gsize n)
{
	gsize need = dec->body_have + n;

	if (need > dec->body_cap) {
		gsize cap = MAX(dec->body_cap * 2, MAX(need, BODY_CHUNK));

		dec->body_cap = MIN(cap, dec->body_want);
		dec->body = g_realloc(dec->body, dec->body_cap);
	}
	memcpy(dec->body + dec->body_have, data, n);
	dec->body_have = need;
}

static gboolean
frame_kind_known(int kind)
{
	return kind >= BASALT__FRAME_KIND__FRAME_KIND_HELLO &&
	    kind <= BASALT__FRAME_KIND__FRAME_KIND_REPLY;
}

/* Body complete: unpack it, then reset for the next frame. */
static BsFrameStatus
decoder_finish(BsFrameDecoder *dec, Basalt__Envelope **out, GError **err)
{
	Basalt__Envelope *env;
	gsize len = dec->body_want;

	env = basalt__envelope__unpack(NULL, len, dec->body);
	dec->header_have = 0;
	dec->body_want = 0;
	dec->body_have = 0;
	/* Keep small buffers for the next frame; give big ones back. */
	if (dec->body_cap > BODY_CHUNK) {
		g_clear_pointer(&dec->body, g_free);
		dec->body_cap = 0;
	}
	if (env == NULL)
		return decoder_fail(dec, err, "frame payload of %" G_GSIZE_FORMAT
		    " bytes is not a valid Envelope", len);
	if (!frame_kind_known(env->kind)) {
		int kind = env->kind;

		basalt__envelope__free_unpacked(env, NULL);
		return decoder_fail(dec, err, "unknown frame kind %d", kind);
	}
	*out = env;
	return BS_FRAME_OK;
}

BsFrameStatus
bs_frame_decoder_feed(BsFrameDecoder *dec, const guint8 *data, gsize len,
    gsize *consumed, Basalt__Envelope **out, GError **err)
{
	gsize used = 0, n;
	BsFrameStatus st = BS_FRAME_MORE;

	*out = NULL;
	if (dec->failed) {
		*consumed = 0;
		return decoder_fail(dec, err, "frame stream already failed");
	}
	while (used < len && st == BS_FRAME_MORE) {
		if (dec->body_want == 0) {
			n = MIN(len - used, BS_FRAME_HEADER_SIZE - dec->header_have);
			memcpy(dec->header + dec->header_have, data + used, n);
			dec->header_have += n;
			used += n;
			if (dec->header_have == BS_FRAME_HEADER_SIZE)
				st = decoder_start_body(dec, err);
			continue;
		}
		n = MIN(len - used, dec->body_want - dec->body_have);
		decoder_append(dec, data + used, n);
		used += n;
		if (dec->body_have == dec->body_want)
			st = decoder_finish(dec, out, err);
	}
	*consumed = used;
	return st;
}

GBytes *
bs_frame_pack(const Basalt__Envelope *env, gsize max_frame, GError **err)
{
	gsize len = basalt__envelope__get_packed_size(env);
	guint8 *buf;

	if (max_frame == 0)
		max_frame = BS_FRAME_MAX_DEFAULT;
	if (len > max_frame || len > G_MAXUINT32) {
		g_set_error(err, BS_ERROR, BS_ERROR_PROTOCOL,
		    "frame length %" G_GSIZE_FORMAT " exceeds limit %"
		    G_GSIZE_FORMAT, len, max_frame);
		return NULL;
	}
	buf = g_malloc(BS_FRAME_HEADER_SIZE + len);
	buf[0] = (guint8)(len >> 24);
	buf[1] = (guint8)(len >> 16);
	buf[2] = (guint8)(len >> 8);
	buf[3] = (guint8)len;
	basalt__envelope__pack(env, buf + BS_FRAME_HEADER_SIZE);
	return g_bytes_new_take(buf, BS_FRAME_HEADER_SIZE + len);
}

GBytes *
bs_frame_pack_message(Basalt__FrameKind kind, guint64 id, guint32 method,
    Basalt__RpcStatus status, const ProtobufCMessage *body, const char *error,
    gsize max_frame, GError **err)
{
	Basalt__Envelope env = BASALT__ENVELOPE__INIT;
	GBytes *frame;
	guint8 *buf = NULL;

	env.kind = kind;
	env.id = id;
	env.method = method;
	env.status = status;
	if (error != NULL)
		env.error = (char *)error;
	if (body != NULL) {
		gsize len = protobuf_c_message_get_packed_size(body);

		/* Refuse early: no point packing a body that cannot fit. */
		if (max_frame != 0 && len > max_frame) {
			g_set_error(err, BS_ERROR, BS_ERROR_PROTOCOL,
			    "frame length %" G_GSIZE_FORMAT " exceeds limit %"
			    G_GSIZE_FORMAT, len, max_frame);
			return NULL;
		}
		buf = g_malloc(len > 0 ? len : 1);
		protobuf_c_message_pack(body, buf);
		env.body.data = buf;
		env.body.len = len;
	}
	frame = bs_frame_pack(&env, max_frame, err);
	g_free(buf);
	return frame;
}

const char *
bs_frame_kind_name(int kind)
{
	const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(
	    &basalt__frame_kind__descriptor, kind);

	return v != NULL ? v->name : "UNKNOWN";
}

const char *
bs_rpc_status_name(int status)
{
	const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(
	    &basalt__rpc_status__descriptor, status);

	return v != NULL ? v->name : "UNKNOWN";
}
