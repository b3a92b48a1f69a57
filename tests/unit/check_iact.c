/*
 * lib/iact: the interactive link's framing over a real socketpair, cut
 * into single bytes; the bounds a hostile peer runs into (announced
 * length, truncation, garbage); and the credential payload parser.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tap.h"
#include "iact/iact-wire.h"

static void
pair(int sv[2])
{
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv), 0);
}

START_TEST(round_trip_byte_by_byte)
{
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT, *got = NULL;
	static IaOut out;
	IaReader rd;
	int sv[2], rc = 0;

	pair(sv);
	memset(&rd, 0, sizeof rd);
	f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_OUTPUT;
	f.output.data = (uint8_t *)"hello\n";
	f.output.len = 6;
	ck_assert_int_eq(ia_out_set(&out, &f), 0);
	ck_assert(!ia_out_empty(&out));
	/* Deliver one byte at a time: the reader must wait, not fail. */
	for (size_t i = 0; i < out.len; i++) {
		ck_assert_int_eq(write(sv[0], out.buf + i, 1), 1);
		rc = ia_read(&rd, sv[1], &got);
		if (i + 1 < out.len)
			ck_assert_int_eq(rc, 0);
	}
	ck_assert_int_eq(rc, 1);
	ck_assert_int_eq(got->kind_case, BASALT__INTERACTIVE_FRAME__KIND_OUTPUT);
	ck_assert_int_eq(got->output.len, 6);
	ck_assert(memcmp(got->output.data, "hello\n", 6) == 0);
	basalt__interactive_frame__free_unpacked(got, NULL);
	close(sv[0]);
	ck_assert_int_eq(ia_read(&rd, sv[1], &got), -1);   /* clean end */
	ia_reader_clear(&rd);
	close(sv[1]);
}
END_TEST

START_TEST(flush_sends_everything)
{
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT, *got = NULL;
	static IaOut out;
	static uint8_t data[IA_CHUNK];
	int sv[2];

	pair(sv);
	memset(data, 'x', sizeof data);
	f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_INPUT;
	f.input.data = data;
	f.input.len = sizeof data;
	ck_assert_int_eq(ia_out_set(&out, &f), 0);
	ck_assert_int_eq(ia_out_flush(&out, sv[0]), 1);
	ck_assert(ia_out_empty(&out));
	ck_assert_int_eq(ia_recv_wait(sv[1], &got, 1000), 0);
	ck_assert_int_eq(got->input.len, sizeof data);
	basalt__interactive_frame__free_unpacked(got, NULL);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(oversized_frames_refused)
{
	Basalt__InteractiveFrame f = BASALT__INTERACTIVE_FRAME__INIT, *got = NULL;
	static IaOut out;
	static uint8_t big[IA_MAX_FRAME + 1];
	unsigned char hdr[4] = { 0x7f, 0xff, 0xff, 0xff };
	IaReader rd;
	int sv[2];

	f.kind_case = BASALT__INTERACTIVE_FRAME__KIND_OUTPUT;
	f.output.data = big;
	f.output.len = sizeof big;
	ck_assert_int_eq(ia_out_set(&out, &f), -1);
	/* A 2 GiB announcement fails on the header, before any allocation. */
	pair(sv);
	memset(&rd, 0, sizeof rd);
	ck_assert_int_eq(write(sv[0], hdr, 4), 4);
	errno = 0;
	ck_assert_int_eq(ia_read(&rd, sv[1], &got), -2);
	ck_assert_int_eq(errno, EPROTO);
	ck_assert_ptr_null(rd.body);
	ia_reader_clear(&rd);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(truncated_and_garbage_refused)
{
	Basalt__InteractiveFrame *got = NULL;
	unsigned char partial[6] = { 0, 0, 0, 10, 0x32, 0x01 };
	unsigned char garbage[7] = { 0, 0, 0, 3, 0xff, 0xff, 0xff };
	IaReader rd;
	int sv[2];

	pair(sv);
	memset(&rd, 0, sizeof rd);
	ck_assert_int_eq(write(sv[0], partial, sizeof partial), (ssize_t)sizeof partial);
	close(sv[0]);
	ck_assert_int_eq(ia_read(&rd, sv[1], &got), -2);   /* EOF mid-frame */
	ia_reader_clear(&rd);
	close(sv[1]);

	pair(sv);
	ck_assert_int_eq(write(sv[0], garbage, sizeof garbage), (ssize_t)sizeof garbage);
	ck_assert_int_eq(ia_read(&rd, sv[1], &got), -2);
	ck_assert_int_eq(errno, EPROTO);
	ia_reader_clear(&rd);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(payload_words)
{
	const char *p = IA_HELLO_TAG " jobx=9 job=42 nonce=abc host=vh1";
	char v[8];

	ck_assert_int_eq(ia_payload_get(p, IA_HELLO_TAG, "job", v, sizeof v), 0);
	ck_assert_str_eq(v, "42");
	ck_assert_int_eq(ia_payload_get(p, IA_HELLO_TAG, "nonce", v, sizeof v), 0);
	ck_assert_str_eq(v, "abc");
	ck_assert_int_eq(ia_payload_get(p, IA_HELLO_TAG, "index", v, sizeof v), -1);
	/* The reply's tag is not the hello's, nor a prefix of it. */
	ck_assert_int_eq(ia_payload_get(p, IA_REPLY_TAG, "job", v, sizeof v), -1);
	ck_assert_int_eq(ia_payload_get(IA_REPLY_TAG " job=1", IA_HELLO_TAG, "job",
	    v, sizeof v), -1);
	/* A value longer than the buffer is refused, not cut. */
	ck_assert_int_eq(ia_payload_get(IA_HELLO_TAG " nonce=0123456789",
	    IA_HELLO_TAG, "nonce", v, sizeof v), -1);
}
END_TEST

START_TEST(bad_addresses)
{
	const char *bad[] = { "", "tcp:", "tcp:1.2.3.4", "tcp:1.2.3.4:0",
	    "tcp:1.2.3.4:99999", "tcp:name:22", "http://x", "unix:" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		errno = 0;
		ck_assert_int_eq(ia_connect(bad[i], 100), -1);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("iact");
	TCase *tc = tcase_create("wire");

	tcase_add_test(tc, round_trip_byte_by_byte);
	tcase_add_test(tc, flush_sends_everything);
	tcase_add_test(tc, oversized_frames_refused);
	tcase_add_test(tc, truncated_and_garbage_refused);
	tcase_add_test(tc, payload_words);
	tcase_add_test(tc, bad_addresses);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
