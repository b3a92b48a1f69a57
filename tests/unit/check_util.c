/* lib/util: log levels, the sink tests rely on, and level names. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "util/error.h"
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
	tcase_add_test(tc, test_error_domain);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
