/*
 * libFuzzer target for the frame decoder (lib/rpc/frame.c).
 *
 * The first input byte picks a chunk size so the fuzzer explores how the
 * stream is split as well as what it contains; the second picks a small or
 * the default frame limit, so length checks at the edge get exercised
 * without megabyte inputs.  Every decoded envelope is re-encoded and must
 * decode to the same kind and id: a round-trip check is cheap and catches
 * encoder/decoder disagreements the sanitizers cannot see.  Found this way:
 * protobuf-c's tag-0 quirk, see check_round_trip().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "rpc/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_round_trip(const Basalt__Envelope *env, gsize max)
{
	BsFrameDecoder *dec;
	Basalt__Envelope *again = NULL;
	GBytes *f = bs_frame_pack(env, max, NULL);
	const guint8 *d;
	gsize len, used;

	/* protobuf-c keeps unknown fields verbatim, including a tag 0 spelled
	 * as a two-byte varint, which it accepts on input but rejects once
	 * re-packed canonically.  We never re-send what we receive, so the
	 * oracle only covers envelopes made of known fields. */
	if (env->base.n_unknown_fields != 0) {
		if (f != NULL)
			g_bytes_unref(f);
		return;
	}
	if (f == NULL)
		return;
	d = g_bytes_get_data(f, &len);
	dec = bs_frame_decoder_new(max);
	if (bs_frame_decoder_feed(dec, d, len, &used, &again, NULL) !=
	    BS_FRAME_OK || used != len || again->kind != env->kind ||
	    again->id != env->id)
		abort();
	basalt__envelope__free_unpacked(again, NULL);
	bs_frame_decoder_free(dec);
	g_bytes_unref(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	BsFrameDecoder *dec;
	Basalt__Envelope *env;
	gsize chunk, max, used, n;

	if (size < 2)
		return 0;
	chunk = (gsize)data[0] % 17 + 1;
	max = data[1] & 1 ? 256 : BS_FRAME_MAX_DEFAULT;
	data += 2;
	size -= 2;
	dec = bs_frame_decoder_new(max);
	while (size > 0) {
		n = MIN(chunk, size);
		switch (bs_frame_decoder_feed(dec, data, n, &used, &env, NULL)) {
		case BS_FRAME_ERROR:
			size = 0;
			continue;
		case BS_FRAME_OK:
			check_round_trip(env, max);
			basalt__envelope__free_unpacked(env, NULL);
			break;
		case BS_FRAME_MORE:
			break;
		}
		if (used > n)
			abort();
		data += used;
		size -= used;
	}
	(void)bs_frame_decoder_partial(dec, NULL, NULL);
	bs_frame_decoder_free(dec);
	return 0;
}
