/*
 * The execution host's view of a job's paths and its report: LSF's path
 * patterns, the -o directory rule, the -outdir prefixes, and the layout of
 * the job report (job-paths.h, job-report-format.h).  Pure functions, no
 * daemon.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sbatchd/job-paths.h"
#include "sbatchd/job-report-format.h"
#include "tap.h"

static const SbdPathVars vars = {
	.job_id = 42, .index = 0, .user = "alice", .group = "staff",
	.host = "hostA", .project = "proj",
};

START_TEST(test_patterns)
{
	SbdPathVars arr = vars;
	g_autofree char *a = sbd_path_expand("/s/%J/%U/%G/%H/%P/%I", &vars);
	g_autofree char *b = NULL;
	g_autofree char *c = sbd_path_expand("%EJ.%EI.%JG.%%J.%X.%", &vars);

	ck_assert_str_eq(a, "/s/42/alice/staff/hostA/proj/0");
	arr.index = 7;
	b = sbd_path_expand("out.%J.%I", &arr);
	ck_assert_str_eq(b, "out.42.7");
	/* %% is a percent sign, an unknown pattern and a lone % stay. */
	ck_assert_str_eq(c, "42.0./.%J.%X.%");
	arr.jobgroup = "/proj/a";
	g_free(b);
	b = sbd_path_expand("o.%JG.%J", &arr);
	ck_assert_str_eq(b, "o./proj/a.42");
}
END_TEST

static gboolean
say_dir(const char *path, gpointer data)
{
	return strcmp(path, "/x/y") == 0;
}

START_TEST(test_output_paths)
{
	g_autofree char *dir = g_dir_make_tmp("jobenv-XXXXXX", NULL);
	g_autofree char *rel = sbd_path_output("o.%J", &vars, "/work", "out", NULL, NULL);
	g_autofree char *abs = sbd_path_output("/x/o.%U", &vars, "/work", "out", NULL, NULL);
	g_autofree char *slash = sbd_path_output("outs/", &vars, "/work", "err", NULL, NULL);
	g_autofree char *isdir = sbd_path_output(dir, &vars, "/work", "out", NULL, NULL);
	g_autofree char *said = sbd_path_output("/x/y", &vars, "/work", "out", say_dir, NULL);
	g_autofree char *want = g_strconcat(dir, "/42.out", NULL);
	g_autofree char *elem = NULL;
	SbdPathVars arr = vars;

	ck_assert_str_eq(rel, "/work/o.42");
	ck_assert_str_eq(abs, "/x/o.alice");
	ck_assert_str_eq(slash, "/work/outs/42.err");
	ck_assert_str_eq(isdir, want);
	/* The owner's view decides, not this process's. */
	ck_assert_str_eq(said, "/x/y/42.out");
	arr.index = 3;
	elem = sbd_path_output("outs/", &arr, "/work", "out", NULL, NULL);
	ck_assert_str_eq(elem, "/work/outs/42_3.out");
	g_rmdir(dir);
}
END_TEST

START_TEST(test_prefixes)
{
	g_auto(GStrv) p = sbd_path_prefixes("/a/b//c/");

	ck_assert_uint_eq(g_strv_length(p), 3);
	ck_assert_str_eq(p[0], "/a");
	ck_assert_str_eq(p[1], "/a/b");
	ck_assert_str_eq(p[2], "/a/b/c");
}
END_TEST

static SbdReportFacts
facts(void)
{
	static char *hosts[] = { (char *)"hostA", (char *)"hostA", (char *)"hostB", NULL };
	SbdReportFacts f = {
		.job_id = 42, .name = "myjob", .cluster = "c1", .sender = "root@hostA",
		.submit_host = "sub1", .user = "alice", .home = "/home/alice",
		.cwd = "/work", .queue = "normal", .command = "echo hi", .hosts = hosts,
		.submit_time = 1000, .start_time = 1010, .end_time = 1030, .done = TRUE,
		.exit = { .kind = BS_EXIT_CODE, .code = 0 },
	};

	return f;
}

static const SbdReportUsage usage = {
	.cpu_s = 1.5, .max_mem_kb = 2048, .avg_mem_kb = -1, .max_swap_kb = -1,
	.max_procs = 3, .max_threads = -1, .run_time_s = 20, .turnaround_s = 30,
};

START_TEST(test_report_done)
{
	SbdReportFacts f = facts();
	g_autofree char *r = sbd_report_format(&f, &usage);

	ck_assert_msg(g_str_has_prefix(r, "Sender: LSF System <root@hostA>\n"
	    "Subject: Job 42: <myjob> in cluster <c1> Done\n\n"), "%s", r);
	ck_assert_ptr_nonnull(strstr(r, "\nJob <myjob> was submitted from host <sub1> "
	    "by user <alice> in cluster <c1> at "));
	ck_assert_ptr_nonnull(strstr(r, "\nJob was executed on host(s) <2*hostA> <hostB>, "
	    "in queue <normal>, as user <alice> in cluster <c1> at "));
	ck_assert_ptr_nonnull(strstr(r, "\n</home/alice> was used as the home directory.\n"
	    "</work> was used as the working directory.\n"));
	ck_assert_ptr_nonnull(strstr(r, "# LSBATCH: User input\necho hi\n"));
	ck_assert_ptr_nonnull(strstr(r, "\nSuccessfully completed.\n\nResource usage summary:\n\n"));
	ck_assert_ptr_nonnull(strstr(r, "\n    CPU time :                                   1.50 sec.\n"));
	ck_assert_ptr_nonnull(strstr(r, "\n    Max Memory :                                 2 MB\n"));
	ck_assert_ptr_nonnull(strstr(r, "\n    Average Memory :                             -\n"));
	ck_assert_ptr_nonnull(strstr(r, "\n    Max Processes :                              3\n"));
	ck_assert_ptr_nonnull(strstr(r, "\n    Run time :                                   20 sec.\n"));
	ck_assert_ptr_nonnull(strstr(r, "\n    Turnaround time :                            30 sec.\n"));
	ck_assert_msg(g_str_has_suffix(r, "The output (if any) is above this job summary.\n\n"),
	    "%s", r);
}
END_TEST

/* The mail of a job without -o: its output is appended, after the report. */
START_TEST(test_report_output_follows)
{
	SbdReportFacts f = facts();
	g_autofree char *r = NULL;

	f.output_follows = TRUE;
	f.err_path = "/work/err";
	r = sbd_report_format(&f, &usage);
	ck_assert_ptr_null(strstr(r, "is above this job summary"));
	ck_assert_msg(g_str_has_suffix(r, "\nPS:\n\nRead file </work/err> for stderr "
	    "output of this job.\n\nThe output (if any) follows:\n\n"), "%s", r);
}
END_TEST

START_TEST(test_report_exited)
{
	SbdReportFacts f = facts();
	g_autofree char *code = NULL;
	g_autofree char *sig = NULL;

	f.done = FALSE;
	f.exit.code = 3;
	f.err_path = "/work/err";
	f.index = 5;
	code = sbd_report_format(&f, &usage);
	ck_assert_ptr_nonnull(strstr(code, "Subject: Job 42[5]: <myjob> in cluster <c1> Exited\n"));
	ck_assert_ptr_nonnull(strstr(code, "\nExited with exit code 3.\n"));
	ck_assert_ptr_null(strstr(code, "Successfully completed."));
	ck_assert_ptr_nonnull(strstr(code, "Read file </work/err> for stderr output of this job.\n"));
	f.exit.kind = BS_EXIT_SIGNAL;
	f.exit.signo = 9;
	f.reason = "RUNLIMIT was reached;";
	sig = sbd_report_format(&f, &usage);
	ck_assert_ptr_nonnull(strstr(sig, "\nRUNLIMIT was reached;\nExited with signal termination: Killed.\n"));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_jobenv");
	TCase *tc = tcase_create("jobenv");

	tcase_add_test(tc, test_patterns);
	tcase_add_test(tc, test_output_paths);
	tcase_add_test(tc, test_prefixes);
	tcase_add_test(tc, test_report_done);
	tcase_add_test(tc, test_report_exited);
	tcase_add_test(tc, test_report_output_follows);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
