/*
 * Frame codec: a frame is a 4-byte big-endian length followed by that many
 * bytes of a packed basalt.Envelope (proto/rpc.proto).
 *
 * This is pure code without I/O so that the server, the blocking client and
 * the fuzzer share one decoder.  The decoder is incremental because sockets
 * hand us arbitrary chunks: it keeps the partial header and body between
 * calls and never needs more than one frame of memory.  The length is
 * checked against a per-decoder limit before anything is allocated, and the
 * body buffer grows only as bytes actually arrive, so a peer that announces
 * 4 MiB and sends one byte costs us a few kilobytes, not 4 MiB.
 */
#ifndef BS_RPC_FRAME_H
#define BS_RPC_FRAME_H

#include <glib.h>

#include "rpc.pb-c.h"

#define BS_FRAME_HEADER_SIZE 4
#define BS_FRAME_MAX_DEFAULT (4u * 1024 * 1024)
#define BS_HELLO_MAGIC "basalt"

typedef enum {
	BS_FRAME_MORE,     /* all input consumed, no complete frame yet */
	BS_FRAME_OK,       /* one envelope decoded; more input may remain */
	BS_FRAME_ERROR,    /* the stream is broken; the decoder stays failed */
} BsFrameStatus;

typedef struct BsFrameDecoder BsFrameDecoder;

/* max_frame is the largest accepted payload; 0 means BS_FRAME_MAX_DEFAULT. */
BsFrameDecoder *bs_frame_decoder_new(gsize max_frame);
void bs_frame_decoder_free(BsFrameDecoder *dec);
void bs_frame_decoder_set_max(BsFrameDecoder *dec, gsize max_frame);
gsize bs_frame_decoder_get_max(const BsFrameDecoder *dec);

/*
 * Consume bytes from data until one frame completes or the input ends.
 * *consumed says how many bytes were used (always set); the caller feeds the
 * rest again after handling the frame.  On BS_FRAME_OK, *out holds an
 * envelope to free with basalt__envelope__free_unpacked(env, NULL).  On
 * BS_FRAME_ERROR, err (BS_ERROR_PROTOCOL) says exactly what was wrong.
 */
BsFrameStatus bs_frame_decoder_feed(BsFrameDecoder *dec, const guint8 *data,
    gsize len, gsize *consumed, Basalt__Envelope **out, GError **err);

/*
 * TRUE when part of a frame has been received: EOF now means the peer
 * vanished mid-frame.  have/want (either may be NULL) count the bytes of
 * the header or body being assembled.
 */
gboolean bs_frame_decoder_partial(const BsFrameDecoder *dec, gsize *have,
    gsize *want);

/* TRUE while a frame's body (not its length prefix) is being assembled. */
gboolean bs_frame_decoder_in_body(const BsFrameDecoder *dec);

/* Pack an envelope with its length prefix; fails if it exceeds max_frame. */
GBytes *bs_frame_pack(const Basalt__Envelope *env, gsize max_frame,
    GError **err);

/*
 * Build and pack an envelope in one go.  body (may be NULL) is packed into
 * Envelope.body; error (may be NULL) is the human-readable reason.
 */
GBytes *bs_frame_pack_message(Basalt__FrameKind kind, guint64 id,
    guint32 method, Basalt__RpcStatus status, const ProtobufCMessage *body,
    const char *error, gsize max_frame, GError **err);

/* Stable names for logs and error messages ("BAD_METHOD", "REQUEST"). */
const char *bs_frame_kind_name(int kind);
const char *bs_rpc_status_name(int status);

#endif
