/* cmd/cmd-util and cmd/jobctl-format: helpers and job control messages. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>

#include "tap.h"
#include "cmd-util.h"
#include "jobctl-format.h"

#define GS(name) g_autoptr(GString) name = g_string_new(NULL)

START_TEST(test_help_version)
{
	char *h[] = { "bjobs", "-u", "all", "-h", NULL };
	char *v[] = { "bsub", "-V", NULL };
	char *n[] = { "bsub", "--", "-h", NULL };
	GS(out);

	ck_assert_int_eq(cmd_help_version(4, h), CMD_HV_HELP);
	ck_assert_int_eq(cmd_help_version(2, v), CMD_HV_VERSION);
	ck_assert_int_eq(cmd_help_version(3, n), CMD_HV_NONE);
	cmd_format_usage(out, "bjobs [-h]");
	ck_assert_str_eq(out->str, "Usage: bjobs [-h]\n");
	g_string_truncate(out, 0);
	cmd_format_version(out);
	ck_assert(g_str_has_prefix(out->str, "Basalt " PACKAGE_VERSION ","));
}
END_TEST

START_TEST(test_times)
{
	GS(out);

	cmd_time_short(out, 1669024920);     /* 2022-11-21 10:02:00 UTC */
	g_string_append_c(out, '|');
	cmd_time_short(out, 1667296920);     /* 2022-11-01 10:02:00 */
	g_string_append_c(out, '|');
	cmd_time_long(out, 1669024920);
	g_string_append_c(out, '|');
	cmd_time_wide(out, 1669024920);
	ck_assert_str_eq(out->str, "Nov 21 10:02|Nov  1 10:02|"
			 "Mon Nov 21 10:02:00|11/21-10:02:00");
}
END_TEST

START_TEST(test_memory)
{
	GS(out);
	guint64 kb;

	cmd_mem_kb(out, 512);
	g_string_append_c(out, '|');
	cmd_mem_kb(out, 2048);
	g_string_append_c(out, '|');
	cmd_mem_kb(out, 3 * 1024 * 1024 / 2);
	ck_assert_str_eq(out->str, "512 Kbytes|2 Mbytes|1.5 Gbytes");
	ck_assert(cmd_parse_mem_kb("100", &kb) && kb == 100);
	ck_assert(cmd_parse_mem_kb("4mb", &kb) && kb == 4096);
	ck_assert(cmd_parse_mem_kb("2G", &kb) && kb == 2097152);
	ck_assert(cmd_parse_mem_kb("1TB", &kb) && kb == 1073741824ULL);
	ck_assert(!cmd_parse_mem_kb("", &kb));
	ck_assert(!cmd_parse_mem_kb("M", &kb));
	ck_assert(!cmd_parse_mem_kb("5Q", &kb));
	ck_assert(!cmd_parse_mem_kb("99999999999999999999", &kb));
	/* LSF's units, any case, fractions, and PB. */
	ck_assert(cmd_parse_mem_kb("1.5G", &kb) && kb == 1536 * 1024);
	ck_assert(cmd_parse_mem_kb("1pb", &kb) &&
	    kb == G_GUINT64_CONSTANT(1) << 40);
	ck_assert(cmd_parse_mem_kb("3Kb", &kb) && kb == 3);
	ck_assert(cmd_parse_mem_kb("0.5k", &kb) && kb == 1);
	ck_assert(!cmd_parse_mem_kb("1.", &kb));
	ck_assert(!cmd_parse_mem_kb("-1", &kb));
	ck_assert(!cmd_parse_mem_kb("1 MB", &kb));
	ck_assert(!cmd_parse_mem_kb("1MBB", &kb));
	/* A bare number is in LSF_UNIT_FOR_LIMITS. */
	cmd_set_mem_unit(BS_MEM_GB);
	ck_assert(cmd_parse_mem_kb("2", &kb) && kb == 2 * 1024 * 1024);
	ck_assert(cmd_parse_mem_kb("2k", &kb) && kb == 2);
	cmd_set_mem_unit(BS_MEM_KB);
}
END_TEST

START_TEST(test_signals)
{
	GS(out);

	ck_assert_int_eq(cmd_signal_parse("KILL"), SIGKILL);
	ck_assert_int_eq(cmd_signal_parse("SIGTERM"), SIGTERM);
	ck_assert_int_eq(cmd_signal_parse("stop"), SIGSTOP);
	ck_assert_int_eq(cmd_signal_parse("sigcont"), SIGCONT);
	ck_assert_int_eq(cmd_signal_parse("9"), 9);
	ck_assert_int_eq(cmd_signal_parse("0"), -1);
	ck_assert_int_eq(cmd_signal_parse("99"), -1);
	ck_assert_int_eq(cmd_signal_parse("BOGUS"), -1);
	ck_assert_int_eq(cmd_signal_parse("SIG"), -1);
	ck_assert_str_eq(cmd_signal_name(SIGUSR1), "USR1");
	ck_assert_ptr_null(cmd_signal_name(0));
	cmd_signal_list(out);
	ck_assert_str_eq(out->str,
			 "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 "
			 "PIPE ALRM TERM CHLD CONT STOP TSTP TTIN TTOU URG XCPU "
			 "XFSZ VTALRM PROF WINCH IO SYS\n");
}
END_TEST

START_TEST(test_cells)
{
	GS(out);

	cmd_cell(out, "abc", 5, CMD_FIT_HEAD, FALSE);
	g_string_append_c(out, '|');
	cmd_cell(out, "abcdefgh", 5, CMD_FIT_HEAD, FALSE);
	g_string_append_c(out, '|');
	cmd_cell(out, "abcdefgh", 5, CMD_FIT_TAIL, FALSE);
	g_string_append_c(out, '|');
	cmd_cell(out, "abcdefgh", 5, CMD_FIT_CUT, FALSE);
	g_string_append_c(out, '|');
	cmd_cell(out, "abcdefgh", 5, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, '|');
	cmd_cell(out, "ab", 5, CMD_FIT_CUT, TRUE);
	g_string_append_c(out, '|');
	cmd_cell(out, NULL, 2, CMD_FIT_CUT, FALSE);
	g_string_append_c(out, '|');
	cmd_limit(out, -1);
	cmd_limit(out, 7);
	cmd_limit_double(out, -1);
	cmd_limit_double(out, 2);
	cmd_limit_double(out, 1.5);
	ck_assert_str_eq(out->str, "abc  |abcd*|*efgh|abcde|abcdefgh|   ab|  |"
			 "-7-21.5");
}
END_TEST

START_TEST(test_jobids)
{
	GS(out);
	GError *err = NULL;
	guint64 id;
	guint32 idx;

	cmd_jobid(out, 12, 0);
	cmd_jobid(out, 12, 3);
	ck_assert_str_eq(out->str, "1212[3]");
	ck_assert(cmd_parse_jobid("123", &id, &idx, NULL));
	ck_assert(id == 123 && idx == 0);
	ck_assert(cmd_parse_jobid("123[45]", &id, &idx, NULL));
	ck_assert(id == 123 && idx == 45);
	ck_assert(cmd_parse_jobid("0", &id, &idx, NULL) && id == 0);
	ck_assert(!cmd_parse_jobid("12x", &id, &idx, &err));
	ck_assert_str_eq(err->message, "12x: Illegal job ID.");
	g_clear_error(&err);
	ck_assert(!cmd_parse_jobid("1[0]", &id, &idx, NULL));
	ck_assert(!cmd_parse_jobid("1[2", &id, &idx, NULL));
	ck_assert(!cmd_parse_jobid("[2]", &id, &idx, NULL));
	ck_assert(!cmd_parse_jobid("1[]", &id, &idx, NULL));
	ck_assert(!cmd_parse_jobid("-1", &id, &idx, NULL));
}
END_TEST

START_TEST(test_error_texts)
{
	Basalt__Error e = BASALT__ERROR__INIT;

	ck_assert_str_eq(cmd_errcode_text(BASALT__ERROR_CODE__ERROR_CODE_NO_QUEUE),
			 "No such queue");
	ck_assert_str_eq(cmd_errcode_text(BASALT__ERROR_CODE__ERROR_CODE_QUEUE_CLOSED),
			 "Queue has been closed");
	ck_assert_str_eq(cmd_errcode_text(BASALT__ERROR_CODE__ERROR_CODE_PERMISSION),
			 "User permission denied");
	ck_assert_str_eq(cmd_errcode_text(BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE),
			 "Job has already finished");
	ck_assert_str_eq(cmd_errcode_text(BASALT__ERROR_CODE__ERROR_CODE_LIMIT),
			 "Cannot exceed queue's hard limit(s)");
	ck_assert_str_eq(cmd_errcode_text((Basalt__ErrorCode)99),
			 "Internal batch system error");
	e.code = BASALT__ERROR_CODE__ERROR_CODE_QUEUE_USER;
	ck_assert_str_eq(cmd_error_text(&e), "User cannot use the queue");
	e.message = "Job has not started yet";
	ck_assert_str_eq(cmd_error_text(&e), "Job has not started yet");
	ck_assert_str_eq(cmd_error_text(NULL), "No error");
	ck_assert_str_eq(cmd_state_name(BASALT__JOB_STATE__JOB_STATE_PSUSP), "PSUSP");
	ck_assert_str_eq(cmd_state_name(BASALT__JOB_STATE__JOB_STATE_UNSPECIFIED),
			 "UNKWN");
}
END_TEST

START_TEST(test_wrap)
{
	GS(out);

	cmd_wrap(out, "0123456789abcdefghij", 8, 3);
	cmd_wrap(out, "short", 8, 3);
	cmd_wrap(out, "exactly8", 8, 3);
	ck_assert_str_eq(out->str, "01234567\n   89abc\n   defgh\n   ij\n"
			 "short\nexactly8\n");
}
END_TEST

static Basalt__JobResult
result(guint64 id, guint32 idx, Basalt__Error *e)
{
	Basalt__JobResult r = BASALT__JOB_RESULT__INIT;

	r.job_id = id;
	r.array_index = idx;
	r.error = e;
	return r;
}

START_TEST(test_control_messages)
{
	GS(out);
	Basalt__Error ok = BASALT__ERROR__INIT;
	Basalt__JobResult r = result(101, 0, NULL);
	Basalt__JobResult ra = result(7, 3, &ok);

	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_KILL, 0, &r));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_REMOVE, 0, &r));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_STOP, 0, &r));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_RESUME, 0, &ra));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_REQUEUE, 0, &r));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_SIGNAL,
				       SIGSTOP, &r));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_SIGNAL,
				       SIGCONT, &r));
	ck_assert(jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_SIGNAL,
				       SIGUSR1, &r));
	ck_assert(jobctl_format_switch(out, "short", &r));
	ck_assert(jobctl_format_modify(out, &ra));
	jobctl_format_move(out, 101, 0, 2, FALSE);
	jobctl_format_move(out, 7, 3, 1, TRUE);
	ck_assert_str_eq(out->str,
			 "Job <101> is being terminated\n"
			 "Job <101> is being terminated\n"
			 "Job <101> is being stopped\n"
			 "Job <7[3]> is being resumed\n"
			 "Job <101> is being requeued\n"
			 "Job <101> is being stopped\n"
			 "Job <101> is being resumed\n"
			 "Job <101> is being signaled\n"
			 "Job <101> is switched to queue <short>\n"
			 "Parameters of job <7[3]> are being changed\n"
			 "Job <101> has been moved to position 2 from top.\n"
			 "Job <7[3]> has been moved to position 1 from bottom.\n");
}
END_TEST

START_TEST(test_control_errors)
{
	GS(out);
	Basalt__Error e = BASALT__ERROR__INIT;
	Basalt__JobResult r = result(55, 0, &e);

	e.code = BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE;
	ck_assert(!jobctl_format_result(out, BASALT__JOB_ACTION__JOB_ACTION_KILL, 0, &r));
	e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
	ck_assert(!jobctl_format_switch(out, "q", &r));
	e.code = BASALT__ERROR_CODE__ERROR_CODE_NO_JOB;
	e.message = "Job <55> is not found";
	ck_assert(!jobctl_format_modify(out, &r));
	ck_assert_str_eq(out->str,
			 "Job <55>: Job has already finished\n"
			 "Job <55>: User permission denied\n"
			 "Job <55>: Job <55> is not found\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_util");
	TCase *tc = tcase_create("util");
	TCase *ctl = tcase_create("jobctl");

	setenv("TZ", "UTC", 1);
	tcase_add_test(tc, test_help_version);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_signals);
	tcase_add_test(tc, test_cells);
	tcase_add_test(tc, test_jobids);
	tcase_add_test(tc, test_error_texts);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(ctl, test_control_messages);
	tcase_add_test(ctl, test_control_errors);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, ctl);
	return bs_run_suite(s);
}
