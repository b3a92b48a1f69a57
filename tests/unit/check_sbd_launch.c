/*
 * sbatchd launch: exit codes, signals, streams, environment, cwd, limits,
 * JOB_STARTER, clear launch errors, and (as root) running as the owner.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "check_sbd_common.h"
#include "tap.h"
#include "util/error.h"

/* Run spec to the end; fails the test if it takes over 10 s. */
static TestJob *
run_job(const BsLaunchSpec *spec)
{
	TestJob *job = sbd_start(spec);

	ck_assert_msg(sbd_wait_finished(job, 10000), "job %d did not finish", (int)job->pgid);
	return job;
}

static TestJob *
run_cmd(const char *command, gboolean wrapped)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status");

	sbd_spec_init(&spec, 1, command);
	if (wrapped)
		spec.status_path = status;
	return run_job(&spec);
}

/* The launch must fail, with this text in the message, leaving no child. */
static void
assert_launch_fails(const BsLaunchSpec *spec, int code, const char *text)
{
	g_autoptr(GError) err = NULL;
	pid_t pgid = 0;

	ck_assert(!bs_launch(spec, &pgid, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(g_error_matches(err, BS_ERROR, code), "code %d: %s", err->code, err->message);
	ck_assert_msg(strstr(err->message, text) != NULL, "message: %s", err->message);
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

START_TEST(test_expand_path)
{
	g_autofree char *a = bs_launch_expand_path("out.%J.%I.log", 42, 3);
	g_autofree char *b = bs_launch_expand_path("%J%%I%x", 7, 0);

	ck_assert_str_eq(a, "out.42.3.log");
	ck_assert_str_eq(b, "7%0%x");
}
END_TEST

START_TEST(test_command_line)
{
	BsLaunchSpec spec;
	g_autofree char *plain = NULL, *mark = NULL, *append = NULL, *script = NULL;

	sbd_spec_init(&spec, 1, "echo hi");
	plain = bs_launch_command_line(&spec);
	spec.job_starter = "nice -n 1 %USRCMD; echo done";
	mark = bs_launch_command_line(&spec);
	spec.job_starter = "time";
	append = bs_launch_command_line(&spec);
	spec.job_starter = NULL;
	spec.command = NULL;
	spec.script = "/spool/job 1";
	script = bs_launch_command_line(&spec);
	ck_assert_str_eq(plain, "echo hi");
	ck_assert_str_eq(mark, "nice -n 1 echo hi; echo done");
	ck_assert_str_eq(append, "time echo hi");
	ck_assert_str_eq(script, "/bin/sh '/spool/job 1'");
}
END_TEST

START_TEST(test_true_exits_zero)
{
	TestJob *job = run_cmd("true", FALSE);

	ck_assert(job->finished_after_leader);
	ck_assert_int_eq(job->end.source, BS_END_FROM_WAIT);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_CODE);
	ck_assert_int_eq(job->end.exit.code, 0);
}
END_TEST

/* on_forked runs while the child waits before its exec: a command that
 * would write a file has not run, however long the parent takes. */
typedef struct {
	const char *mark;
	pid_t pgid;
	gboolean mark_seen;
} ForkedSeen;

static void
forked_cb(pid_t pgid, void *data)
{
	ForkedSeen *f = data;

	f->pgid = pgid;
	g_usleep(200 * 1000);   /* time the child would need to run the command */
	f->mark_seen = g_file_test(f->mark, G_FILE_TEST_EXISTS);
}

START_TEST(test_on_forked_before_exec)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status");
	g_autofree char *mark = sbd_path("ran");
	g_autofree char *cmd = g_strdup_printf("touch '%s'", mark);
	ForkedSeen seen = { .mark = mark };
	TestJob *job;

	sbd_spec_init(&spec, 1, cmd);
	spec.status_path = status;
	spec.on_forked = forked_cb;
	spec.on_forked_data = &seen;
	job = run_job(&spec);
	ck_assert_int_eq(seen.pgid, job->pgid);
	ck_assert_msg(!seen.mark_seen, "the command ran before on_forked returned");
	ck_assert_int_eq(job->end.exit.code, 0);
	ck_assert(g_file_test(mark, G_FILE_TEST_EXISTS));
}
END_TEST

START_TEST(test_exit_code_through_wrapper)
{
	TestJob *job = run_cmd("exit 3", TRUE);
	g_autofree char *status = sbd_path("status");
	g_autofree char *line = sbd_slurp(status);

	ck_assert_int_eq(job->end.source, BS_END_FROM_RECORD);
	ck_assert_int_eq(job->end.exit.kind, BS_EXIT_CODE);
	ck_assert_int_eq(job->end.exit.code, 3);
	/* The leader (bs-jobwrap) exits like the command did. */
	ck_assert(WIFEXITED(job->leader_status));
	ck_assert_int_eq(WEXITSTATUS(job->leader_status), 3);
	ck_assert_msg(g_str_has_prefix(line, "exit=3 core=0 utime_us="), "%s", line);
}
END_TEST

START_TEST(test_killed_by_signal)
{
	TestJob *plain = run_cmd("kill -USR1 $$", FALSE);
	TestJob *wrapped = run_cmd("kill -USR1 $$", TRUE);

	ck_assert_int_eq(plain->end.exit.kind, BS_EXIT_SIGNAL);
	ck_assert_int_eq(plain->end.exit.signo, SIGUSR1);
	ck_assert_int_eq(wrapped->end.source, BS_END_FROM_RECORD);
	ck_assert_int_eq(wrapped->end.exit.kind, BS_EXIT_SIGNAL);
	ck_assert_int_eq(wrapped->end.exit.signo, SIGUSR1);
	ck_assert(WIFSIGNALED(wrapped->leader_status));
	ck_assert_int_eq(WTERMSIG(wrapped->leader_status), SIGUSR1);
}
END_TEST

START_TEST(test_output_expanded_and_merged)
{
	BsLaunchSpec spec;
	g_autofree char *path = sbd_path("out.42.3");
	g_autofree char *text = NULL;

	sbd_spec_init(&spec, 42, "echo out; echo err >&2");
	spec.array_index = 3;
	spec.stdout_path = "out.%J.%I";
	run_job(&spec);
	text = sbd_slurp(path);
	ck_assert_str_eq(text, "out\nerr\n");
}
END_TEST

START_TEST(test_index_zero_when_not_array)
{
	BsLaunchSpec spec;
	g_autofree char *path = sbd_path("o.7.0");
	g_autofree char *text = NULL;

	sbd_spec_init(&spec, 7, "echo x");
	spec.stdout_path = "o.%J.%I";
	run_job(&spec);
	text = sbd_slurp(path);
	ck_assert_str_eq(text, "x\n");
}
END_TEST

START_TEST(test_append_and_overwrite)
{
	BsLaunchSpec spec;
	g_autofree char *o = sbd_path("o"), *e = sbd_path("e");
	g_autofree char *t1 = NULL, *t2 = NULL, *t3 = NULL, *t4 = NULL;

	sbd_write(o, "old\n");
	sbd_write(e, "old\n");
	sbd_spec_init(&spec, 1, "echo new; echo bad >&2");
	spec.stdout_path = o;
	spec.stderr_path = e;
	run_job(&spec);                       /* -o, -e: append */
	t1 = sbd_slurp(o);
	t2 = sbd_slurp(e);
	spec.stdout_overwrite = TRUE;         /* -oo, -eo: overwrite */
	spec.stderr_overwrite = TRUE;
	run_job(&spec);
	t3 = sbd_slurp(o);
	t4 = sbd_slurp(e);
	ck_assert_str_eq(t1, "old\nnew\n");
	ck_assert_str_eq(t2, "old\nbad\n");
	ck_assert_str_eq(t3, "new\n");
	ck_assert_str_eq(t4, "bad\n");
}
END_TEST

START_TEST(test_spool_default)
{
	BsLaunchSpec spec;
	g_autofree char *spool = sbd_path("spool.out"), *e = sbd_path("err");
	g_autofree char *t1 = NULL, *t2 = NULL, *t3 = NULL;

	sbd_spec_init(&spec, 1, "echo out; echo err >&2");
	spec.spool_path = spool;
	run_job(&spec);                       /* no -o, no -e: both spooled */
	t1 = sbd_slurp(spool);
	spec.stderr_path = e;                 /* -e only: stdout still spooled */
	run_job(&spec);
	t2 = sbd_slurp(spool);
	t3 = sbd_slurp(e);
	ck_assert_str_eq(t1, "out\nerr\n");
	ck_assert_str_eq(t2, "out\n");
	ck_assert_str_eq(t3, "err\n");
}
END_TEST

START_TEST(test_stdin_env_cwd)
{
	BsLaunchSpec spec;
	g_autofree char *in = sbd_path("in"), *out = sbd_path("out");
	g_autofree char *real = realpath(sbd_dir, NULL);
	g_autofree char *want = NULL, *text = NULL;
	char *env[] = { "PATH=/usr/bin:/bin", "FOO=bar baz", "LSB_JOBID=wrong", NULL };

	sbd_write(in, "line one\nline two\n");
	sbd_spec_init(&spec, 99, "cat; echo \"$FOO|$LSB_JOBID|$LSB_JOBINDEX\"; pwd");
	spec.array_index = 5;
	spec.env = env;
	spec.stdin_path = "in";               /* relative to cwd */
	spec.stdout_path = out;
	run_job(&spec);
	text = sbd_slurp(out);
	want = g_strdup_printf("line one\nline two\nbar baz|99|5\n%s\n", real);
	ck_assert_str_eq(text, want);
}
END_TEST

START_TEST(test_limits_nice_umask)
{
	BsLaunchSpec spec;
	BsLaunchLimit lim = { RLIMIT_NOFILE, { 64, 64 } };
	g_autofree char *out = sbd_path("out");
	g_autofree char *text = NULL;

	sbd_spec_init(&spec, 1, "ulimit -n; cut -d' ' -f19 /proc/self/stat; umask");
	spec.limits = &lim;
	spec.n_limits = 1;
	spec.nice = 5;
	spec.set_umask = TRUE;
	spec.umask = 027;
	spec.stdout_path = out;
	run_job(&spec);
	text = sbd_slurp(out);
	ck_assert_str_eq(text, "64\n5\n0027\n");
}
END_TEST

START_TEST(test_job_starter_and_script)
{
	BsLaunchSpec spec;
	g_autofree char *out = sbd_path("out"), *script = sbd_path("job script");
	g_autofree char *status = sbd_path("status");
	g_autofree char *text = NULL;
	TestJob *job;

	sbd_write(script, "echo from script\nexit 4\n");
	sbd_spec_init(&spec, 1, NULL);
	spec.script = script;
	spec.job_starter = "echo before; %USRCMD";
	spec.stdout_path = out;
	spec.status_path = status;
	job = run_job(&spec);
	text = sbd_slurp(out);
	ck_assert_str_eq(text, "before\nfrom script\n");
	ck_assert_int_eq(job->end.exit.code, 4);
}
END_TEST

/* Pre- and post-exec in bs-jobwrap: the queue's pre (in /tmp) before the
 * job's (in the job's cwd); the job's post before the queue's, with
 * LSB_JOBEXIT_STAT; a failing post-exec is recorded, not the job's exit. */
START_TEST(test_pre_post_exec_order)
{
	BsLaunchSpec spec;
	g_autofree char *out = sbd_path("out"), *status = sbd_path("status");
	g_autofree char *text = NULL, *line = NULL, *want = NULL;
	TestJob *job;

	sbd_spec_init(&spec, 1, "echo job; exit 3");
	spec.stdout_path = out;
	spec.status_path = status;
	spec.pre_exec[0] = "echo qpre $(pwd)";
	spec.pre_exec[1] = "echo jpre $(pwd) </dev/null";
	spec.post_exec[1] = "echo jpost $LSB_JOBEXIT_STAT";
	spec.post_exec[0] = "echo qpost $LSB_JOBEXIT_STAT; exit 5";
	job = run_job(&spec);
	text = sbd_slurp(out);
	want = g_strdup_printf("qpre /tmp\njpre %s\njob\njpost 768\nqpost 768\n", sbd_dir);
	ck_assert_str_eq(text, want);
	ck_assert_int_eq(job->end.exit.code, 3);
	line = sbd_slurp(status);
	ck_assert_msg(strstr(line, " postexec=5") != NULL, "%s", line);
	ck_assert_msg(strstr(line, "preexec=") == NULL, "%s", line);
}
END_TEST

/* A failing pre-exec: the job's command never runs, the record says which
 * level failed and with what, and the leader exits with it. */
START_TEST(test_pre_exec_fails)
{
	BsLaunchSpec spec;
	g_autofree char *out = sbd_path("out"), *status = sbd_path("status");
	g_autofree char *text = NULL, *line = NULL;
	TestJob *job;

	sbd_spec_init(&spec, 1, "echo job");
	spec.stdout_path = out;
	spec.status_path = status;
	spec.pre_exec[0] = "true";
	spec.pre_exec[1] = "echo failing; exit 9";
	spec.post_exec[0] = "echo post";
	job = run_job(&spec);
	text = sbd_slurp(out);
	ck_assert_str_eq(text, "failing\n");
	ck_assert_int_eq(job->end.exit.code, 9);
	line = sbd_slurp(status);
	ck_assert_msg(g_str_has_prefix(line, "exit=9 ") && strstr(line, " preexec=2") != NULL,
	    "%s", line);
}
END_TEST

/* JOB_PREPROC_TIMEOUT / JOB_POSTPROC_TIMEOUT: a pre-exec over its time
 * fails with 98 and its processes (a background child too) are killed; a
 * post-exec over its time is recorded as failed with 98, the job's own
 * exit kept. */
START_TEST(test_pre_post_exec_timeouts)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status"), *pidf = sbd_path("bg.pid");
	g_autofree char *line = NULL, *pid = NULL;
	TestJob *job;

	sbd_spec_init(&spec, 1, "echo job");
	spec.status_path = status;
	spec.pre_exec[1] = g_strdup_printf("sleep 60 & echo $! >'%s'; wait", pidf);
	spec.pre_timeout_s = 1;
	job = run_job(&spec);
	g_free((char *)spec.pre_exec[1]);
	line = sbd_slurp(status);
	ck_assert_msg(g_str_has_prefix(line, "exit=98 ") && strstr(line, " preexec=2") != NULL,
	    "%s", line);
	ck_assert_int_eq(job->end.exit.code, 98);
	pid = sbd_slurp(pidf);
	ck_assert_int_ne(kill(atoi(pid), 0), 0);        /* the child went too */

	g_clear_pointer(&line, g_free);
	sbd_spec_init(&spec, 2, "exit 4");
	spec.status_path = status;
	spec.post_exec[0] = "sleep 60";
	spec.post_timeout_s = 1;
	job = run_job(&spec);
	line = sbd_slurp(status);
	ck_assert_msg(g_str_has_prefix(line, "exit=4 ") && strstr(line, " postexec=98") != NULL,
	    "%s", line);
	ck_assert_int_eq(job->end.exit.code, 4);
}
END_TEST

START_TEST(test_missing_command_runs_and_fails)
{
	BsLaunchSpec spec;
	g_autofree char *out = sbd_path("out");
	g_autofree char *text = NULL;
	TestJob *job;

	sbd_spec_init(&spec, 1, "no_such_command_xyz");
	spec.stdout_path = out;
	job = run_job(&spec);
	text = sbd_slurp(out);
	ck_assert_int_eq(job->end.exit.code, 127);
	ck_assert_msg(strstr(text, "not found") != NULL, "%s", text);
}
END_TEST

START_TEST(test_launch_errors)
{
	BsLaunchSpec spec;
	g_autofree char *status = sbd_path("status"), *fifo = sbd_path("fifo");

	sbd_spec_init(&spec, 1, "true");
	spec.cwd = "/nonexistent/sbd-dir";
	assert_launch_fails(&spec, BS_ERROR_IO,
	                    "cannot chdir to /nonexistent/sbd-dir: No such file or directory");
	spec.status_path = status;            /* the same through the wrapper */
	assert_launch_fails(&spec, BS_ERROR_IO, "cannot chdir to /nonexistent/sbd-dir");

	sbd_spec_init(&spec, 1, "true");
	spec.shell = "/nonexistent/sh";
	assert_launch_fails(&spec, BS_ERROR_IO,
	                    "cannot execute /nonexistent/sh: No such file or directory");
	spec.status_path = status;            /* reported from bs-jobwrap's child */
	assert_launch_fails(&spec, BS_ERROR_IO,
	                    "cannot execute /nonexistent/sh: No such file or directory");

	sbd_spec_init(&spec, 1, "true");
	spec.status_path = status;
	spec.wrapper = "/nonexistent/bs-jobwrap";
	assert_launch_fails(&spec, BS_ERROR_IO, "cannot execute the job wrapper /nonexistent/bs-jobwrap");

	sbd_spec_init(&spec, 1, NULL);
	spec.script = "/nonexistent/job.sh";
	assert_launch_fails(&spec, BS_ERROR_IO, "cannot read job script /nonexistent/job.sh");

	sbd_spec_init(&spec, 1, "cat");
	spec.stdin_path = "missing.%J";
	assert_launch_fails(&spec, BS_ERROR_IO, "cannot open input file missing.1: No such file");

	sbd_spec_init(&spec, 1, "true");
	spec.stdout_path = "/nonexistent/out";
	assert_launch_fails(&spec, BS_ERROR_IO, "cannot open output file /nonexistent/out");

	/* A FIFO nobody reads is an error, not a hung sbatchd. */
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	sbd_spec_init(&spec, 1, "true");
	spec.stdout_path = fifo;
	assert_launch_fails(&spec, BS_ERROR_IO, "No such device or address");

	sbd_spec_init(&spec, 1, "true");
	spec.command = NULL;
	assert_launch_fails(&spec, BS_ERROR_FAILED, "exactly one of a command or a script");
}
END_TEST

START_TEST(test_root_refused_unless_allowed)
{
	BsLaunchSpec spec;

	sbd_spec_init(&spec, 12, "true");
	spec.uid = 0;
	spec.gid = 0;
	spec.allow_root = FALSE;
	assert_launch_fails(&spec, BS_ERROR_REFUSED, "refusing to run a job as root");
}
END_TEST

/* ---- as root: a throwaway user ---- */

static char test_user[32];
static char test_group[32];

/*
 * groupadd/useradd/userdel/groupdel give up at once when another process
 * (a test running beside this one) holds the lock on /etc/passwd or
 * /etc/group, and userdel refuses while a process of the user still runs:
 * those are retried until a deadline (as tests/lib.sh's add_test_user),
 * anything else is reported at once.
 */
static void
run_admin(const char *cmd)
{
	gint64 deadline = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;

	for (;;) {
		g_autofree char *err = NULL;
		int status = -1;

		(void)g_spawn_command_line_sync(cmd, NULL, &err, &status, NULL);
		if (g_spawn_check_wait_status(status, NULL))
			return;
		if (err == NULL || (strstr(err, "lock") == NULL &&
		    strstr(err, "currently used") == NULL) ||
		    g_get_monotonic_time() > deadline) {
			fprintf(stderr, "# '%s' failed: %s\n", cmd, err != NULL ? err : "");
			return;
		}
		g_usleep(100 * 1000);
	}
}

/* Unchecked: in the runner, so the user goes even when a test dies. */
static void
user_setup(void)
{
	g_autofree char *ga = NULL, *ua = NULL;

	sbd_guard_setup();
	g_snprintf(test_group, sizeof test_group, "bsjg%d", (int)getpid());
	g_snprintf(test_user, sizeof test_user, "bsjt%d", (int)getpid());
	ga = g_strdup_printf("groupadd %s", test_group);
	ua = g_strdup_printf("useradd -M -U -G %s -s /bin/sh %s", test_group, test_user);
	run_admin(ga);
	run_admin(ua);
}

static void
user_teardown(void)
{
	g_autofree char *ud = g_strdup_printf("userdel %s", test_user);
	g_autofree char *gd = g_strdup_printf("groupdel %s", test_group);

	sbd_guard_teardown();
	run_admin(ud);
	run_admin(gd);
}

/* "Uid:\t1001\t1001\t1001\t1001" style line of /proc/<pid>/status. */
static void
assert_ids(pid_t pid, uid_t uid, gid_t gid, gid_t supp)
{
	g_autofree char *path = g_strdup_printf("/proc/%d/status", (int)pid);
	g_autofree char *text = sbd_slurp(path);
	g_autofree char *u = g_strdup_printf("\nUid:\t%u\t%u\t%u\t%u\n", uid, uid, uid, uid);
	g_autofree char *g = g_strdup_printf("\nGid:\t%u\t%u\t%u\t%u\n", gid, gid, gid, gid);
	g_autofree char *s = g_strdup_printf("%u", supp);
	const char *groups = strstr(text, "\nGroups:\t");

	ck_assert_msg(strstr(text, u) != NULL, "pid %d: want %s in\n%s", (int)pid, u, text);
	ck_assert_msg(strstr(text, g) != NULL, "pid %d: want %s", (int)pid, g);
	ck_assert_ptr_nonnull(groups);
	ck_assert_msg(strstr(groups, s) != NULL, "pid %d: no group %s", (int)pid, s);
}

START_TEST(test_runs_as_owner)
{
	struct passwd *pw = getpwnam(test_user);
	struct group *gr = getgrnam(test_group);
	BsLaunchSpec spec;
	g_autofree char *outdir = sbd_path("out");
	g_autofree char *out = g_build_filename(outdir, "o.%J", NULL);
	g_autofree char *outfile = g_build_filename(outdir, "o.5", NULL);
	g_autofree char *status = sbd_path("status");
	g_autofree char *want = NULL;
	struct stat st;
	TestJob *job;
	GArray *m;

	ck_assert_msg(pw != NULL && gr != NULL, "useradd %s failed", test_user);
	ck_assert_int_eq(g_mkdir(outdir, 0777), 0);
	ck_assert_int_eq(chmod(outdir, 0777), 0);
	ck_assert_int_eq(chmod(sbd_dir, 0711), 0);
	sbd_spec_init(&spec, 5, "id -u; id -g; sleep 100");
	spec.uid = pw->pw_uid;
	spec.gid = pw->pw_gid;
	spec.user = test_user;
	spec.allow_root = FALSE;
	spec.cwd = "/";
	spec.stdout_path = out;
	spec.status_path = status;            /* root-owned: handed over as an fd */
	job = sbd_start(&spec);
	want = g_strdup_printf("%u\n%u\n", pw->pw_uid, pw->pw_gid);
	ck_assert(sbd_wait_file(outfile, want, 5000));
	ck_assert(sbd_wait_group_state(job->pgid, 'S', 3, 5000));
	m = bs_proc_group_members(job->pgid);
	for (guint i = 0; i < m->len; i++)
		assert_ids(g_array_index(m, BsProcStat, i).pid, pw->pw_uid, pw->pw_gid, gr->gr_gid);
	g_array_free(m, TRUE);
	ck_assert_int_eq(stat(outfile, &st), 0);
	ck_assert_int_eq(st.st_uid, pw->pw_uid);
}
END_TEST

START_TEST(test_user_cannot_write_as_root)
{
	struct passwd *pw = getpwnam(test_user);
	g_autofree char *out = sbd_path("rootonly");
	BsLaunchSpec spec;

	ck_assert_ptr_nonnull(pw);
	sbd_spec_init(&spec, 1, "true");
	spec.uid = pw->pw_uid;
	spec.gid = pw->pw_gid;
	spec.user = test_user;
	spec.allow_root = FALSE;
	spec.cwd = "/";
	spec.stdout_path = out;               /* in a 0700 root directory */
	assert_launch_fails(&spec, BS_ERROR_IO, "cannot open output file");
}
END_TEST

START_TEST(test_root_allowed)
{
	BsLaunchSpec spec;
	g_autofree char *out = sbd_path("out");
	g_autofree char *text = NULL;

	sbd_spec_init(&spec, 1, "id -u");
	spec.uid = 0;
	spec.gid = 0;
	spec.user = "root";
	spec.allow_root = TRUE;
	spec.stdout_path = out;
	run_job(&spec);
	text = sbd_slurp(out);
	ck_assert_str_eq(text, "0\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sbd_launch");
	TCase *tc = tcase_create("launch");

	tcase_add_unchecked_fixture(tc, sbd_guard_setup, sbd_guard_teardown);
	tcase_add_checked_fixture(tc, sbd_setup, sbd_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_expand_path);
	tcase_add_test(tc, test_command_line);
	tcase_add_test(tc, test_true_exits_zero);
	tcase_add_test(tc, test_exit_code_through_wrapper);
	tcase_add_test(tc, test_on_forked_before_exec);
	tcase_add_test(tc, test_pre_post_exec_order);
	tcase_add_test(tc, test_pre_exec_fails);
	tcase_add_test(tc, test_pre_post_exec_timeouts);
	tcase_add_test(tc, test_killed_by_signal);
	tcase_add_test(tc, test_output_expanded_and_merged);
	tcase_add_test(tc, test_index_zero_when_not_array);
	tcase_add_test(tc, test_append_and_overwrite);
	tcase_add_test(tc, test_spool_default);
	tcase_add_test(tc, test_stdin_env_cwd);
	tcase_add_test(tc, test_limits_nice_umask);
	tcase_add_test(tc, test_job_starter_and_script);
	tcase_add_test(tc, test_missing_command_runs_and_fails);
	tcase_add_test(tc, test_launch_errors);
	tcase_add_test(tc, test_root_refused_unless_allowed);
	suite_add_tcase(s, tc);
	if (geteuid() == 0) {
		TCase *root = tcase_create("as_root");

		tcase_add_unchecked_fixture(root, user_setup, user_teardown);
		tcase_add_checked_fixture(root, sbd_setup, sbd_teardown);
		tcase_set_timeout(root, 20);
		tcase_add_test(root, test_runs_as_owner);
		tcase_add_test(root, test_user_cannot_write_as_root);
		tcase_add_test(root, test_root_allowed);
		suite_add_tcase(s, root);
	} else {
		printf("# as_root tests skipped: not running as root (setuid, useradd)\n");
	}
	return bs_run_suite(s);
}
