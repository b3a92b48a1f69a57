/*
 * lib/rpc/frame: the codec alone, no sockets.  The decoder must give the
 * same envelopes whatever way the stream is cut, and fail precisely (with
 * the reason a log line will carry) on every kind of bad input.
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "rpc/frame.h"
#include "util/error.h"

/* Two frames back to back: a request with a body and an error reply. */
static GByteArray *
two_frames(void)
{
	Basalt__Hello h = BASALT__HELLO__INIT;
	GByteArray *s = g_byte_array_new();
	GBytes *f;
	gsize len;
	const guint8 *d;

	h.magic = (char *)"basalt";
	h.name = (char *)"host-a";
	f = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REQUEST, 7, 2,
	    BASALT__RPC_STATUS__RPC_STATUS_OK, &h.base, NULL, 0, NULL);
	d = g_bytes_get_data(f, &len);
	g_byte_array_append(s, d, (guint)len);
	g_bytes_unref(f);
	f = bs_frame_pack_message(BASALT__FRAME_KIND__FRAME_KIND_REPLY, 8, 1,
	    BASALT__RPC_STATUS__RPC_STATUS_BAD_METHOD, NULL, "no such method",
	    0, NULL);
	d = g_bytes_get_data(f, &len);
	g_byte_array_append(s, d, (guint)len);
	g_bytes_unref(f);
	return s;
}

static void
check_first(const Basalt__Envelope *e)
{
	Basalt__Hello *h;

	ck_assert_int_eq(e->kind, BASALT__FRAME_KIND__FRAME_KIND_REQUEST);
	ck_assert_uint_eq(e->id, 7);
	ck_assert_uint_eq(e->method, 2);
	h = basalt__hello__unpack(NULL, e->body.len, e->body.data);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->name, "host-a");
	basalt__hello__free_unpacked(h, NULL);
}

static void
check_second(const Basalt__Envelope *e)
{
	ck_assert_int_eq(e->kind, BASALT__FRAME_KIND__FRAME_KIND_REPLY);
	ck_assert_uint_eq(e->id, 8);
	ck_assert_int_eq(e->status, BASALT__RPC_STATUS__RPC_STATUS_BAD_METHOD);
	ck_assert_str_eq(e->error, "no such method");
	ck_assert_uint_eq(e->body.len, 0);
}

/* Feed one piece; collect whatever frames complete into out. */
static void
feed_piece(BsFrameDecoder *dec, const guint8 *d, gsize len, GPtrArray *out)
{
	Basalt__Envelope *env;
	GError *err = NULL;
	gsize used;

	while (len > 0) {
		BsFrameStatus st = bs_frame_decoder_feed(dec, d, len, &used,
		    &env, &err);

		ck_assert_msg(st != BS_FRAME_ERROR, "%s",
		    err != NULL ? err->message : "?");
		ck_assert_uint_le(used, len);
		if (st == BS_FRAME_OK)
			g_ptr_array_add(out, env);
		else
			ck_assert_uint_eq(used, len);
		d += used;
		len -= used;
	}
}

static void
free_envs(GPtrArray *a)
{
	for (guint i = 0; i < a->len; i++)
		basalt__envelope__free_unpacked(a->pdata[i], NULL);
	g_ptr_array_free(a, TRUE);
}

START_TEST(test_round_trip)
{
	GByteArray *s = two_frames();
	BsFrameDecoder *dec = bs_frame_decoder_new(0);
	GPtrArray *got = g_ptr_array_new();

	feed_piece(dec, s->data, s->len, got);
	ck_assert_uint_eq(got->len, 2);
	check_first(got->pdata[0]);
	check_second(got->pdata[1]);
	ck_assert(!bs_frame_decoder_partial(dec, NULL, NULL));
	free_envs(got);
	bs_frame_decoder_free(dec);
	g_byte_array_unref(s);
}
END_TEST

/* Cut the two-frame stream at every offset _i. */
START_TEST(test_every_split)
{
	GByteArray *s = two_frames();
	BsFrameDecoder *dec = bs_frame_decoder_new(0);
	GPtrArray *got = g_ptr_array_new();
	guint cut = (guint)_i;

	if (cut > s->len)
		cut = s->len;
	feed_piece(dec, s->data, cut, got);
	feed_piece(dec, s->data + cut, s->len - cut, got);
	ck_assert_uint_eq(got->len, 2);
	check_first(got->pdata[0]);
	check_second(got->pdata[1]);
	free_envs(got);
	bs_frame_decoder_free(dec);
	g_byte_array_unref(s);
}
END_TEST

START_TEST(test_byte_at_a_time)
{
	GByteArray *s = two_frames();
	BsFrameDecoder *dec = bs_frame_decoder_new(0);
	GPtrArray *got = g_ptr_array_new();
	gsize have, want;

	for (guint i = 0; i < s->len; i++) {
		feed_piece(dec, s->data + i, 1, got);
		if (i == 1) {
			ck_assert(bs_frame_decoder_partial(dec, &have, &want));
			ck_assert_uint_eq(have, 2);
			ck_assert_uint_eq(want, 4);
		}
	}
	ck_assert_uint_eq(got->len, 2);
	check_first(got->pdata[0]);
	check_second(got->pdata[1]);
	free_envs(got);
	bs_frame_decoder_free(dec);
	g_byte_array_unref(s);
}
END_TEST

/* Feed raw bytes and expect an error containing want. */
static void
expect_error(gsize max, const guint8 *d, gsize len, const char *want)
{
	BsFrameDecoder *dec = bs_frame_decoder_new(max);
	Basalt__Envelope *env = NULL;
	GError *err = NULL;
	gsize used;

	ck_assert_int_eq(bs_frame_decoder_feed(dec, d, len, &used, &env, &err),
	    BS_FRAME_ERROR);
	ck_assert_ptr_null(env);
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_PROTOCOL));
	ck_assert_msg(strstr(err->message, want) != NULL, "got \"%s\"",
	    err->message);
	g_clear_error(&err);
	/* A failed decoder stays failed. */
	ck_assert_int_eq(bs_frame_decoder_feed(dec, d, len, &used, &env, &err),
	    BS_FRAME_ERROR);
	g_clear_error(&err);
	bs_frame_decoder_free(dec);
}

START_TEST(test_oversize_length)
{
	static const guint8 two_gib[] = { 0x80, 0, 0, 0, 1, 2, 3 };
	static const guint8 just_over[] = { 0, 0x40, 0, 1 };

	expect_error(0, two_gib, sizeof two_gib,
	    "frame length 2147483648 exceeds limit 4194304");
	expect_error(0, just_over, sizeof just_over,
	    "frame length 4194305 exceeds limit 4194304");
}
END_TEST

START_TEST(test_zero_length)
{
	static const guint8 zero[] = { 0, 0, 0, 0 };

	expect_error(0, zero, sizeof zero, "zero-length frame");
}
END_TEST

START_TEST(test_short_input)
{
	static const guint8 part[] = { 0, 0, 0, 9, 0x08 };
	BsFrameDecoder *dec = bs_frame_decoder_new(0);
	Basalt__Envelope *env;
	gsize used, have, want;

	ck_assert(!bs_frame_decoder_partial(dec, NULL, NULL));
	ck_assert_int_eq(bs_frame_decoder_feed(dec, part, 2, &used, &env,
	    NULL), BS_FRAME_MORE);
	ck_assert_uint_eq(used, 2);
	ck_assert(!bs_frame_decoder_in_body(dec));
	ck_assert_int_eq(bs_frame_decoder_feed(dec, part + 2, 3, &used, &env,
	    NULL), BS_FRAME_MORE);
	ck_assert(bs_frame_decoder_partial(dec, &have, &want));
	ck_assert(bs_frame_decoder_in_body(dec));
	ck_assert_uint_eq(have, 1);
	ck_assert_uint_eq(want, 9);
	bs_frame_decoder_free(dec);
}
END_TEST

START_TEST(test_garbage)
{
	/* A valid length, then bytes that are no protobuf at all. */
	static const guint8 junk[] = { 0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const char http[] = "GET / HTTP/1.1\r\n\r\n";

	expect_error(0, junk, sizeof junk,
	    "frame payload of 5 bytes is not a valid Envelope");
	expect_error(0, (const guint8 *)http, sizeof http - 1,
	    "exceeds limit");
}
END_TEST

START_TEST(test_unknown_kind)
{
	Basalt__Envelope e = BASALT__ENVELOPE__INIT;
	GBytes *f;
	gsize len;
	const guint8 *d;

	e.kind = 99;
	e.id = 1;
	f = bs_frame_pack(&e, 0, NULL);
	d = g_bytes_get_data(f, &len);
	expect_error(0, d, len, "unknown frame kind 99");
	g_bytes_unref(f);
	e.kind = BASALT__FRAME_KIND__FRAME_KIND_UNSPECIFIED;
	f = bs_frame_pack(&e, 0, NULL);
	d = g_bytes_get_data(f, &len);
	expect_error(0, d, len, "unknown frame kind 0");
	g_bytes_unref(f);
}
END_TEST

START_TEST(test_limit_configurable)
{
	Basalt__Envelope e = BASALT__ENVELOPE__INIT, *out;
	guint8 body[40] = { 0 };
	BsFrameDecoder *dec;
	GError *err = NULL;
	GBytes *f;
	gsize len, used;
	const guint8 *d;

	e.kind = BASALT__FRAME_KIND__FRAME_KIND_REQUEST;
	e.body.data = body;
	e.body.len = sizeof body;
	/* The encoder refuses what the peer's limit would refuse. */
	ck_assert_ptr_null(bs_frame_pack(&e, 16, &err));
	ck_assert(strstr(err->message, "exceeds limit 16") != NULL);
	g_clear_error(&err);
	f = bs_frame_pack(&e, 0, NULL);
	d = g_bytes_get_data(f, &len);
	expect_error(16, d, len, "exceeds limit 16");

	dec = bs_frame_decoder_new(16);
	ck_assert_uint_eq(bs_frame_decoder_get_max(dec), 16);
	bs_frame_decoder_set_max(dec, 64);
	ck_assert_int_eq(bs_frame_decoder_feed(dec, d, len, &used, &out, &err),
	    BS_FRAME_OK);
	ck_assert_uint_eq(out->body.len, sizeof body);
	basalt__envelope__free_unpacked(out, NULL);
	bs_frame_decoder_free(dec);
	g_bytes_unref(f);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(bs_rpc_status_name(1), "RPC_STATUS_BAD_METHOD");
	ck_assert_str_eq(bs_frame_kind_name(3), "FRAME_KIND_REQUEST");
	ck_assert_str_eq(bs_frame_kind_name(42), "UNKNOWN");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("frame");
	TCase *codec = tcase_create("codec");
	TCase *bad = tcase_create("bad-input");
	GByteArray *stream = two_frames();

	tcase_add_test(codec, test_round_trip);
	tcase_add_loop_test(codec, test_every_split, 0, (int)stream->len + 1);
	tcase_add_test(codec, test_byte_at_a_time);
	tcase_add_test(codec, test_names);
	tcase_add_test(bad, test_oversize_length);
	tcase_add_test(bad, test_zero_length);
	tcase_add_test(bad, test_short_input);
	tcase_add_test(bad, test_garbage);
	tcase_add_test(bad, test_unknown_kind);
	tcase_add_test(bad, test_limit_configurable);
	g_byte_array_unref(stream);
	suite_add_tcase(s, codec);
	suite_add_tcase(s, bad);
	return bs_run_suite(s);
}
