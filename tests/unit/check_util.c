/* lib/util: log levels, the sink tests rely on, level names, escaping. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/log.h"

static GString *seen;

static void
capture(BsLogLevel level, const char *msg, void *data)
{
	g_string_append_printf(seen, "%d:%s\n", (int)level, msg);
}

START_TEST(test_sink_sees_messages_below_level)
{
	seen = g_string_new(NULL);
	bs_log_init("check", BS_LOG_ERR);
	bs_log_set_sink(capture, NULL);
	log_warning("conn %d closed", 7);
	log_debug("quiet");
	bs_log_set_sink(NULL, NULL);
	ck_assert_str_eq(seen->str, "1:conn 7 closed\n4:quiet\n");
	g_string_free(seen, TRUE);
}
END_TEST

/* A name with a newline cannot make a second log line. */
START_TEST(test_log_escapes_controls)
{
	seen = g_string_new(NULL);
	bs_log_init("check", BS_LOG_ERR);
	bs_log_set_sink(capture, NULL);
	log_warning("hello from \"%s\"", "x\nNov 24 mbatchd[1]: error: forged\r\x1b[2J");
	bs_log_set_sink(NULL, NULL);
	ck_assert_str_eq(seen->str, "1:hello from \"x\\nNov 24 mbatchd[1]: error: "
	    "forged\\r\\x1b[2J\"\n");
	g_string_free(seen, TRUE);
}
END_TEST

START_TEST(test_escape)
{
	g_autofree char *a = bs_escape("plain name-1.x_y\\z");
	g_autofree char *b = bs_escape("a\nb\tc\x01\x7f");
	g_autofree char *c = bs_escape("caf\xc3\xa9 \xc2\x9b" "1m \xff");
	g_autofree char *d = bs_escape(NULL);

	ck_assert(bs_escape_clean("plain name-1.x_y\\z"));
	ck_assert(bs_escape_clean("caf\xc3\xa9"));
	ck_assert(!bs_escape_clean("a\nb"));
	ck_assert(!bs_escape_clean("\xc2\x9b"));
	ck_assert(!bs_escape_clean("\xff"));
	ck_assert_str_eq(a, "plain name-1.x_y\\z");
	ck_assert_str_eq(b, "a\\nb\\tc\\x01\\x7f");
	ck_assert_str_eq(c, "caf\xc3\xa9 \\u009b1m \\xff");
	ck_assert_str_eq(d, "");
}
END_TEST

START_TEST(test_level_names)
{
	BsLogLevel l;

	ck_assert(bs_log_level_parse("LOG_DEBUG", &l));
	ck_assert_int_eq(l, BS_LOG_DEBUG);
	ck_assert(bs_log_level_parse("log_warning", &l));
	ck_assert_int_eq(l, BS_LOG_WARNING);
	ck_assert(!bs_log_level_parse("LOUD", &l));
}
END_TEST

START_TEST(test_error_domain)
{
	GError *err = NULL;

	g_set_error(&err, BS_ERROR, BS_ERROR_CONFIG, "lsb.queues:%d: bad", 3);
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_CONFIG));
	ck_assert_str_eq(err->message, "lsb.queues:3: bad");
	g_error_free(err);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, test_sink_sees_messages_below_level);
	tcase_add_test(tc, test_level_names);
	tcase_add_test(tc, test_log_escapes_controls);
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_error_domain);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
