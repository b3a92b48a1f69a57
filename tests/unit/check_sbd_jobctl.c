/*
 * sbatchd job control and reaping: suspend/resume of a whole group, the
 * INT/TERM/KILL escalation, orphans, usage, and re-adoption after a
 * simulated sbatchd restart.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_sbd_common.h"
#include "tap.h"

#define TWO_SLEEPS "sleep 100 & sleep 100 & wait"
#define INTERVAL_MS 200

typedef struct {
	gboolean done;
	int last_signal;
} TermResult;

static void
on_term_done(pid_t pgid, int last_signal, gpointer data)
{
	TermResult *t = data;

	t->done = TRUE;
	t->last_signal = last_signal;
}

static gboolean
term_done(gpointer data)
{
	return ((TermResult *)data)->done;
}

static TestJob *
start_cmd(const char *command, gboolean wrapped)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status");

	sbd_spec_init(&spec, 1, command);
	if (wrapped)
		spec.status_path = status;
	return sbd_start(&spec);
}

/* Terminate with the test interval; returns the last signal sent. */
static int
terminate(TestJob *job)
{
	TermResult t = { FALSE, 0 };

	bs_jobctl_terminate(job->pgid, INTERVAL_MS, on_term_done, &t);
	ck_assert_msg(sbd_run_until(term_done, &t, 5000), "escalation did not end");
	ck_assert(!bs_proc_group_alive(job->pgid));
	ck_assert(sbd_wait_finished(job, 5000));
	return t.last_signal;
}

static gboolean
stopped_once(gpointer data)
{
	return ((TestJob *)data)->stops > 0;
}

static gboolean
continued_once(gpointer data)
{
	return ((TestJob *)data)->conts > 0;
}

START_TEST(test_suspend_resume_whole_group)
{
	TestJob *job = start_cmd(TWO_SLEEPS, TRUE);
	g_autoptr(GError) err = NULL;

	/* bs-jobwrap, sh and two sleeps */
	ck_assert(sbd_wait_group_state(job->pgid, 'S', 4, 5000));
	ck_assert_msg(bs_jobctl_suspend(job->pgid, 0, &err), "%s", err ? err->message : "");
	ck_assert_msg(sbd_wait_group_state(job->pgid, 'T', 4, 5000), "not all stopped");
	/* The leader's stop and continue come back through the reaper. */
	ck_assert(sbd_run_until(stopped_once, job, 5000));
	ck_assert(bs_jobctl_resume(job->pgid, 0, &err));
	ck_assert_msg(sbd_wait_group_state(job->pgid, 'S', 4, 5000), "not all running");
	ck_assert(sbd_run_until(continued_once, job, 5000));
	ck_assert_int_eq(terminate(job), SIGTERM);
}
END_TEST

START_TEST(test_terminate_plain_job_with_sigint)
{
	TestJob *job = start_cmd("sleep 100", TRUE);

	ck_assert(sbd_wait_group_state(job->pgid, 'S', 2, 5000));
	ck_assert_int_eq(terminate(job), SIGINT);
	ck_assert_int_eq(job->end.source, BS_END_FROM_RECORD);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_SIGNAL);
	ck_assert_int_eq(job->end.exit.signo, SIGINT);
}
END_TEST

START_TEST(test_terminate_background_children_needs_sigterm)
{
	/* A non-interactive shell starts background commands with SIGINT
	 * ignored, so they outlive the SIGINT step. */
	TestJob *job = start_cmd(TWO_SLEEPS, FALSE);

	ck_assert(sbd_wait_group_state(job->pgid, 'S', 3, 5000));
	ck_assert_int_eq(terminate(job), SIGTERM);
	ck_assert(job->finished_after_leader);
}
END_TEST

START_TEST(test_terminate_trapping_job_needs_sigkill)
{
	TestJob *job = start_cmd("trap '' INT TERM; " TWO_SLEEPS, TRUE);

	ck_assert(sbd_wait_group_state(job->pgid, 'S', 4, 5000));
	ck_assert_int_eq(terminate(job), SIGKILL);
	/* SIGKILL took the wrapper too: no record, the wait status stands. */
	ck_assert_int_eq(job->end.source, BS_END_FROM_WAIT);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_SIGNAL);
	ck_assert_int_eq(job->end.exit.signo, SIGKILL);
}
END_TEST

START_TEST(test_terminate_suspended_job)
{
	TestJob *job = start_cmd(TWO_SLEEPS, TRUE);

	ck_assert(sbd_wait_group_state(job->pgid, 'S', 4, 5000));
	ck_assert(bs_jobctl_suspend(job->pgid, 0, NULL));
	ck_assert(sbd_wait_group_state(job->pgid, 'T', 4, 5000));
	/* TERM alone would stay pending in stopped processes. */
	ck_assert_int_eq(terminate(job), SIGTERM);
}
END_TEST

START_TEST(test_signal_gone_group_is_an_error)
{
	TestJob *job = start_cmd("true", FALSE);
	g_autoptr(GError) err = NULL;

	ck_assert(sbd_wait_finished(job, 5000));
	ck_assert(!bs_jobctl_signal(job->pgid, SIGTERM, &err));
	ck_assert_msg(strstr(err->message, "no process left") != NULL, "%s", err->message);
}
END_TEST

static gboolean
leader_done(gpointer data)
{
	return ((TestJob *)data)->leader_done;
}

static gboolean
has_member_with_parent(GArray *members, pid_t ppid)
{
	for (guint i = 0; i < members->len; i++) {
		if (g_array_index(members, BsProcStat, i).ppid == ppid)
			return TRUE;
	}
	return FALSE;
}

START_TEST(test_orphans_keep_job_running)
{
	g_autofree char *late = sbd_path("late");
	TestJob *job = start_cmd("(sleep 0.5; echo late > late) & exit 0", FALSE);
	GArray *m;

	ck_assert(sbd_run_until(leader_done, job, 5000));
	ck_assert(!job->finished);
	/* The background subshell was re-parented to us, the subreaper. */
	m = bs_proc_group_members(job->pgid);
	ck_assert_uint_ge(m->len, 1);
	ck_assert(has_member_with_parent(m, getpid()));
	g_array_free(m, TRUE);
	ck_assert(sbd_wait_finished(job, 5000));
	ck_assert(job->finished_after_leader);
	ck_assert(g_file_test(late, G_FILE_TEST_EXISTS));
	ck_assert(!bs_proc_group_alive(job->pgid));
	ck_assert_int_eq(job->end.exit.code, 0);
}
END_TEST

START_TEST(test_usage_memory_and_cpu)
{
	TestJob *mem = start_cmd("dd if=/dev/zero of=/dev/null bs=50M count=1 2>/dev/null", TRUE);
	TestJob *cpu;

	ck_assert(sbd_wait_finished(mem, 10000));
	cpu = start_cmd("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", TRUE);
	ck_assert(sbd_wait_finished(cpu, 10000));
	ck_assert_msg(mem->end.usage.peak_rss_kb >= 40 * 1024, "peak %" G_GINT64_FORMAT " kB",
	              mem->end.usage.peak_rss_kb);
	ck_assert_int_gt(cpu->end.usage.utime_us + cpu->end.usage.stime_us, 0);
	/* A small job must not be charged for sbatchd's own memory. */
	ck_assert_msg(cpu->end.usage.peak_rss_kb < 40 * 1024, "peak %" G_GINT64_FORMAT " kB",
	              cpu->end.usage.peak_rss_kb);
}
END_TEST

static gboolean
sampled_big(gpointer data)
{
	TestJob *job = data;
	BsJobUsage u;

	bs_reaper_sample(sbd_reaper);
	return bs_reaper_usage(sbd_reaper, job->pgid, &u) && u.rss_kb >= 40 * 1024;
}

START_TEST(test_sampler_sees_live_group)
{
	/* dd holds its 50 MB buffer while blocked writing to a reader that
	 * never reads. */
	TestJob *job = start_cmd("dd if=/dev/zero bs=50M count=1 2>/dev/null | sleep 100", TRUE);
	BsJobUsage u;

	ck_assert_msg(sbd_run_until(sampled_big, job, 5000), "sampler never saw 40 MB");
	ck_assert(bs_reaper_usage(sbd_reaper, job->pgid, &u));
	ck_assert_uint_eq(u.nproc, 3);     /* sh, dd, sleep; not bs-jobwrap */
	ck_assert_int_ge(u.peak_rss_kb, u.rss_kb);
	ck_assert_int_eq(terminate(job), SIGINT);
	ck_assert_int_ge(job->end.usage.peak_rss_kb, 40 * 1024);
}
END_TEST

/* ---- re-adoption ---- */

/*
 * Play the old sbatchd: a process of its own session that launches the job
 * and then, like init after a real restart, reaps it.  The test process
 * (the new sbatchd) is never the job's parent.
 */
static pid_t
old_sbatchd(const BsLaunchSpec *spec, pid_t *pgid)
{
	int fds[2];
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pid_t job = -1;

		setsid();
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
		if (!bs_launch(spec, &job, NULL))
			job = -1;
		if (write(fds[1], &job, sizeof job) != sizeof job)
			_exit(1);
		while (wait(NULL) > 0 || errno == EINTR)
			;
		_exit(0);
	}
	sbd_register(pid);
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], pgid, sizeof *pgid), sizeof *pgid);
	close(fds[0]);
	ck_assert_int_gt(*pgid, 1);
	sbd_register(*pgid);
	return pid;
}

/* Drop the reaper and make a new one: what a restarted sbatchd has. */
static TestJob *
restart_and_adopt(pid_t pgid, const char *status_path)
{
	g_autoptr(GError) err = NULL;
	TestJob *job = g_new0(TestJob, 1);

	bs_reaper_free(sbd_reaper);
	sbd_reaper = bs_reaper_new(50, &err);
	ck_assert_msg(sbd_reaper != NULL, "%s", err ? err->message : "");
	job->pgid = pgid;
	sbd_watch(job, TRUE, status_path);
	return job;
}

START_TEST(test_readopt_reads_status_record)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status"), *go = sbd_path("go");
	TestJob *job;
	GArray *m;
	pid_t pgid;

	sbd_spec_init(&spec, 8, "while [ ! -e go ]; do sleep 0.05; done; exit 5");
	spec.status_path = status;
	old_sbatchd(&spec, &pgid);
	job = restart_and_adopt(pgid, status);
	m = bs_jobctl_find_members(pgid);
	ck_assert_uint_ge(m->len, 2);
	for (guint i = 0; i < m->len; i++) {
		BsProcStat st;

		/* None of them is our child: only polling can see the end. */
		if (bs_proc_read_stat(g_array_index(m, pid_t, i), &st))
			ck_assert_int_ne(st.ppid, getpid());
	}
	g_array_free(m, TRUE);
	ck_assert(!job->finished);
	sbd_write(go, "");
	ck_assert(sbd_wait_finished(job, 5000));
	ck_assert(job->end.adopted);
	ck_assert_int_eq(job->end.source, BS_END_FROM_RECORD);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_CODE);
	ck_assert_int_eq(job->end.exit.code, 5);
	g_free(job);
}
END_TEST

START_TEST(test_readopt_without_record_is_unknown)
{
	BsLaunchSpec spec;
	g_autofree char *go = sbd_path("go");
	TestJob *job;
	pid_t pgid;

	sbd_spec_init(&spec, 9, "while [ ! -e go ]; do sleep 0.05; done; exit 5");
	old_sbatchd(&spec, &pgid);
	job = restart_and_adopt(pgid, NULL);
	sbd_write(go, "");
	ck_assert(sbd_wait_finished(job, 5000));
	ck_assert_int_eq(job->end.source, BS_END_FROM_NOWHERE);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_UNKNOWN);
	g_free(job);
}
END_TEST

START_TEST(test_readopt_killed_group_is_unknown)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status");
	TestJob *job;
	pid_t pgid;

	sbd_spec_init(&spec, 10, "sleep 100");
	spec.status_path = status;
	old_sbatchd(&spec, &pgid);
	job = restart_and_adopt(pgid, status);
	ck_assert(bs_jobctl_signal(pgid, SIGKILL, NULL));
	ck_assert(sbd_wait_finished(job, 5000));
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_UNKNOWN);
	g_free(job);
}
END_TEST

START_TEST(test_readopt_gone_group_finishes)
{
	TestJob *job = restart_and_adopt(999999, NULL);

	ck_assert(sbd_wait_finished(job, 5000));
	ck_assert(job->end.adopted);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_UNKNOWN);
	g_free(job);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_jobctl");
	TCase *ctl = tcase_create("jobctl");
	TCase *reap = tcase_create("reaper");
	TCase *adopt = tcase_create("readopt");
	TCase *all[] = { ctl, reap, adopt };

	for (guint i = 0; i < G_N_ELEMENTS(all); i++) {
		tcase_add_unchecked_fixture(all[i], sbd_guard_setup, sbd_guard_teardown);
		tcase_add_checked_fixture(all[i], sbd_setup, sbd_teardown);
		tcase_set_timeout(all[i], 20);
		suite_add_tcase(s, all[i]);
	}
	tcase_add_test(ctl, test_suspend_resume_whole_group);
	tcase_add_test(ctl, test_terminate_plain_job_with_sigint);
	tcase_add_test(ctl, test_terminate_background_children_needs_sigterm);
	tcase_add_test(ctl, test_terminate_trapping_job_needs_sigkill);
	tcase_add_test(ctl, test_terminate_suspended_job);
	tcase_add_test(ctl, test_signal_gone_group_is_an_error);
	tcase_add_test(reap, test_orphans_keep_job_running);
	tcase_add_test(reap, test_usage_memory_and_cpu);
	tcase_add_test(reap, test_sampler_sees_live_group);
	tcase_add_test(adopt, test_readopt_reads_status_record);
	tcase_add_test(adopt, test_readopt_without_record_is_unknown);
	tcase_add_test(adopt, test_readopt_killed_group_is_unknown);
	tcase_add_test(adopt, test_readopt_gone_group_finishes);
	return bs_run_suite(s);
}
