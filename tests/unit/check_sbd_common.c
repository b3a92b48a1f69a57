/* Fixture shared by the sbatchd suites: see check_sbd_common.h. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "check_sbd_common.h"

BsReaper *sbd_reaper;
char *sbd_dir;

/* Test-only state: the fixture is per process (Check forks each test). */
static char *registry;            /* set in the runner, inherited by tests */
static GPtrArray *jobs;           /* TestJob *, this test's jobs */
static char *default_env[] = { "PATH=/usr/bin:/bin", "HOME=/", "LANG=C", NULL };

/* ---- registry: survives a test process that died ----
 *
 * One line per thing to clean: "pgid N" or "dir PATH".  A test that ends
 * cleanly cuts its own lines off again (registry_mark); a test that died
 * leaves them for sbd_guard_teardown, which runs in the Check runner.  The
 * runner is made a subreaper so the killed jobs come back to it to be reaped
 * instead of becoming init's zombies. */

static off_t registry_mark;

void
sbd_guard_setup(void)
{
	g_autofree char *dir = g_dir_make_tmp("sbd-guard-XXXXXX", NULL);

	ck_assert_ptr_nonnull(dir);
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	registry = g_build_filename(dir, "registry", NULL);
	sbd_write(registry, "");
}

static void
kill_job_group(pid_t pgid)
{
	/* Only a group that is still this job's own session. */
	GArray *members = bs_jobctl_find_members(pgid);

	if (members->len > 0) {
		killpg(pgid, SIGKILL);
		killpg(pgid, SIGCONT);
	}
	g_array_free(members, TRUE);
}

/* Runner side: reap what came back to us, for at most two seconds. */
static void
reap_group(pid_t pgid)
{
	for (int i = 0; i < 200 && bs_proc_group_alive(pgid); i++) {
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			;
		if (bs_proc_group_alive(pgid))
			g_usleep(10000);
	}
}

static void remove_tree(const char *path);

void
sbd_guard_teardown(void)
{
	g_autofree char *text = NULL;
	g_autofree char *dir = g_path_get_dirname(registry);
	g_auto(GStrv) lines = NULL;

	if (g_file_get_contents(registry, &text, NULL, NULL)) {
		lines = g_strsplit(text, "\n", -1);
		for (char **l = lines; *l != NULL; l++) {
			if (g_str_has_prefix(*l, "pgid "))
				kill_job_group((pid_t)atoi(*l + 5));
		}
		for (char **l = lines; *l != NULL; l++) {
			if (g_str_has_prefix(*l, "pgid "))
				reap_group((pid_t)atoi(*l + 5));
			else if (g_str_has_prefix(*l, "dir "))
				remove_tree(*l + 4);
		}
	}
	remove_tree(dir);
	g_clear_pointer(&registry, g_free);
}

static void
registry_add(const char *kind, const char *what)
{
	FILE *f = fopen(registry, "a");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s %s\n", kind, what);
	fclose(f);
}

void
sbd_register(pid_t pgid)
{
	char num[32];

	g_snprintf(num, sizeof num, "%d", (int)pgid);
	registry_add("pgid", num);
}

/* ---- per test ---- */

void
sbd_setup(void)
{
	g_autoptr(GError) err = NULL;

	struct stat st;

	ck_assert_int_eq(stat(registry, &st), 0);
	registry_mark = st.st_size;
	sbd_dir = g_dir_make_tmp("sbd-test-XXXXXX", &err);
	ck_assert_msg(sbd_dir != NULL, "%s", err ? err->message : "");
	registry_add("dir", sbd_dir);
	sbd_reaper = bs_reaper_new(50, &err);
	ck_assert_msg(sbd_reaper != NULL, "%s", err ? err->message : "");
	jobs = g_ptr_array_new_with_free_func(g_free);
}

static gboolean
all_finished(gpointer data)
{
	for (guint i = 0; i < jobs->len; i++) {
		TestJob *job = g_ptr_array_index(jobs, i);

		if (!job->finished && bs_reaper_is_watching(sbd_reaper, job->pgid))
			return FALSE;
	}
	return TRUE;
}

static void
remove_tree(const char *path)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;

	if (d != NULL) {
		while ((name = g_dir_read_name(d)) != NULL) {
			g_autofree char *child = g_build_filename(path, name, NULL);

			remove_tree(child);
		}
		g_dir_close(d);
		g_rmdir(path);
	} else {
		g_unlink(path);
	}
}

void
sbd_teardown(void)
{
	for (guint i = 0; i < jobs->len; i++)
		kill_job_group(((TestJob *)g_ptr_array_index(jobs, i))->pgid);
	/* Reap what we killed, so no zombie outlives the test. */
	(void)sbd_run_until(all_finished, NULL, 5000);
	bs_reaper_free(sbd_reaper);
	sbd_reaper = NULL;
	g_ptr_array_free(jobs, TRUE);
	remove_tree(sbd_dir);
	g_clear_pointer(&sbd_dir, g_free);
	/* Everything of this test is dead and reaped, its directory gone. */
	ck_assert_int_eq(truncate(registry, registry_mark), 0);
}

/* ---- jobs ---- */

void
sbd_spec_init(BsLaunchSpec *spec, gint64 job_id, const char *command)
{
	memset(spec, 0, sizeof *spec);
	spec->job_id = job_id;
	spec->command = command;
	spec->uid = getuid();
	spec->gid = getgid();
	spec->user = g_get_user_name();
	spec->allow_root = spec->uid == 0;
	spec->cwd = sbd_dir;
	spec->env = default_env;
	spec->wrapper = BS_TEST_JOBWRAP;
}

static void
on_leader(pid_t pgid, int wstatus, gpointer data)
{
	TestJob *job = data;

	job->leader_done = TRUE;
	job->leader_status = wstatus;
}

static void
on_stopped(pid_t pgid, pid_t pid, int signo, gpointer data)
{
	((TestJob *)data)->stops++;
}

static void
on_continued(pid_t pgid, pid_t pid, gpointer data)
{
	((TestJob *)data)->conts++;
}

static void
on_finished(const BsJobEnd *end, gpointer data)
{
	TestJob *job = data;

	job->finished = TRUE;
	job->finished_after_leader = job->leader_done;
	job->end = *end;
}

static const BsJobWatchFuncs test_funcs = {
	.leader_exited = on_leader,
	.stopped = on_stopped,
	.continued = on_continued,
	.finished = on_finished,
};

void
sbd_watch(TestJob *job, gboolean adopt, const char *status_path)
{
	if (adopt)
		(void)bs_reaper_adopt(sbd_reaper, job->pgid, status_path, &test_funcs, job);
	else
		bs_reaper_watch(sbd_reaper, job->pgid, status_path, &test_funcs, job);
}

TestJob *
sbd_start(const BsLaunchSpec *spec)
{
	g_autoptr(GError) err = NULL;
	TestJob *job = g_new0(TestJob, 1);
	pid_t pgid = 0;

	g_ptr_array_add(jobs, job);
	ck_assert_msg(bs_launch(spec, &pgid, &err), "launch failed: %s",
	              err ? err->message : "?");
	ck_assert_int_gt(pgid, 1);
	job->pgid = pgid;
	sbd_register(pgid);
	sbd_watch(job, FALSE, spec->status_path);
	return job;
}

/* ---- waiting ---- */

static gboolean
wake(gpointer data)
{
	return G_SOURCE_CONTINUE;
}

gboolean
sbd_run_until(gboolean (*cond)(gpointer), gpointer data, guint timeout_ms)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	/* Some conditions (process states in /proc) raise no event: look
	 * again every 10 ms. */
	guint tick = g_timeout_add(10, wake, NULL);
	gboolean ok;

	while (!(ok = cond(data)) && g_get_monotonic_time() < deadline)
		g_main_context_iteration(NULL, TRUE);
	g_source_remove(tick);
	return ok;
}

static gboolean
job_finished(gpointer data)
{
	return ((TestJob *)data)->finished;
}

gboolean
sbd_wait_finished(TestJob *job, guint timeout_ms)
{
	return sbd_run_until(job_finished, job, timeout_ms);
}

typedef struct {
	pid_t pgid;
	char state;
	guint min;
} StateWait;

static gboolean
group_in_state(gpointer data)
{
	StateWait *w = data;
	GArray *m = bs_proc_group_members(w->pgid);
	gboolean ok = m->len >= w->min;

	for (guint i = 0; ok && i < m->len; i++)
		ok = g_array_index(m, BsProcStat, i).state == w->state;
	g_array_free(m, TRUE);
	return ok;
}

gboolean
sbd_wait_group_state(pid_t pgid, char state, guint min, guint timeout_ms)
{
	StateWait w = { pgid, state, min };

	return sbd_run_until(group_in_state, &w, timeout_ms);
}

typedef struct {
	const char *path;
	const char *text;
} FileWait;

static gboolean
file_has(gpointer data)
{
	FileWait *w = data;
	g_autofree char *text = NULL;

	return g_file_get_contents(w->path, &text, NULL, NULL) && strcmp(text, w->text) == 0;
}

gboolean
sbd_wait_file(const char *path, const char *text, guint timeout_ms)
{
	FileWait w = { path, text };

	return sbd_run_until(file_has, &w, timeout_ms);
}

/* ---- files ---- */

char *
sbd_path(const char *name)
{
	return g_build_filename(sbd_dir, name, NULL);
}

char *
sbd_slurp(const char *path)
{
	char *text = NULL;
	g_autoptr(GError) err = NULL;

	ck_assert_msg(g_file_get_contents(path, &text, NULL, &err), "%s", err ? err->message : "");
	return text;
}

void
sbd_write(const char *path, const char *text)
{
	g_autoptr(GError) err = NULL;

	ck_assert_msg(g_file_set_contents(path, text, -1, &err), "%s", err ? err->message : "");
}
