/*
 * bsub -L on the execution side: the command line runs under the login
 * shell started as a login shell (argv[0] "-name"), with and without
 * bs-jobwrap in front (its --argv0= argument, also after pre-exec hook
 * options), and a missing login shell
 * fails the launch with a clear message.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_sbd_common.h"
#include "tap.h"
#include "util/error.h"

/* Runs the command under -L sh, wrapped or not (with a queue pre-exec
 * when pre is set); returns its output. */
static char *
run_login_pre(const char *command, gboolean wrapped, const char *pre)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status");
	g_autofree char *out = sbd_path("login.out");
	TestJob *job;

	sbd_spec_init(&spec, 7, command);
	spec.login_shell = "/bin/sh";
	spec.stdout_path = out;
	spec.stdout_overwrite = TRUE;
	if (wrapped)
		spec.status_path = status;
	spec.pre_exec[0] = pre;
	job = sbd_start(&spec);
	ck_assert_msg(sbd_wait_finished(job, 10000), "job did not finish");
	ck_assert(job->end.exit.kind == BS_EXIT_CODE);
	ck_assert_int_eq(job->end.exit.code, 0);
	return sbd_slurp(out);
}

static char *
run_login(const char *command, gboolean wrapped)
{
	return run_login_pre(command, wrapped, NULL);
}

START_TEST(test_login_argv0_unwrapped)
{
	g_autofree char *out = run_login("echo \"$0\"", FALSE);

	ck_assert_str_eq(out, "-sh\n");
}
END_TEST

START_TEST(test_login_argv0_wrapped)
{
	g_autofree char *out = run_login("echo \"$0\"; echo \"$LSB_JOBID\"", TRUE);

	ck_assert_str_eq(out, "-sh\n7\n");
}
END_TEST

/* bs-jobwrap's hook options come before the descriptors, --argv0 after. */
START_TEST(test_login_with_pre_exec)
{
	g_autofree char *out = run_login_pre("echo \"$0\"", TRUE, "true");

	ck_assert_str_eq(out, "-sh\n");
}
END_TEST

START_TEST(test_missing_login_shell_fails)
{
	BsLaunchSpec spec;
	g_autoptr(GError) err = NULL;
	pid_t pgid = 0;

	sbd_spec_init(&spec, 8, "true");
	spec.login_shell = "/nonexistent/bs-no-shell";
	ck_assert(!bs_launch(&spec, &pgid, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->message, "/nonexistent/bs-no-shell") != NULL,
	    "message: %s", err->message);
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_login_shell");
	TCase *tc = tcase_create("login");

	tcase_add_unchecked_fixture(tc, sbd_guard_setup, sbd_guard_teardown);
	tcase_add_checked_fixture(tc, sbd_setup, sbd_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_login_argv0_unwrapped);
	tcase_add_test(tc, test_login_argv0_wrapped);
	tcase_add_test(tc, test_login_with_pre_exec);
	tcase_add_test(tc, test_missing_login_shell_fails);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
