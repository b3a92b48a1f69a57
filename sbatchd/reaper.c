/*
 * The reaper: subreaper + blocked SIGCHLD + signalfd + waitpid(-1).
 * See reaper.h for the rules; this file says how.
 *
 * Each wake-up peeks at the next waitable child with waitid(WNOWAIT) so we
 * can ask its process group (getpgid works on a zombie until it is reaped)
 * and then reap exactly that pid with wait4(), which also gives its
 * rusage.  Without the peek an orphan's group is gone by the time wait4
 * returns, and its CPU time could not be charged to its job.
 *
 * The one global: the reaper itself.  A process has one SIGCHLD and
 * waitpid(-1) takes every child, so a second reaper would silently steal
 * the first one's children; the pointer only lets bs_reaper_new() refuse.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib-unix.h>

#include "procscan.h"
#include "reaper.h"
#include "util/error.h"

static BsReaper *the_reaper;

typedef struct {
	pid_t pgid;
	char *status_path;
	BsJobWatchFuncs funcs;
	gpointer data;
	gboolean adopted;
	gboolean wrapped;         /* leader is bs-jobwrap, not the job's own */
	gboolean leader_done;
	int leader_status;
	gint64 reaped_utime_us;   /* reaped members, exact */
	gint64 reaped_stime_us;
	gint64 live_utime_us;     /* live members at the last sample */
	gint64 live_stime_us;
	gint64 peak_rss_kb;
	gint64 rss_kb;
	guint nproc;
	guint nthreads;
	gint64 vsize_kb;
	/* Descendants outside the group (setsid, setpgid): pid -> start
	 * time (guint64 *), as of the last scan of the process tree. */
	GHashTable *escaped;
	/* The sample being taken. */
	gint64 s_utime, s_stime, s_rss, s_hwm, s_vsize;
	guint s_n, s_threads;
	GHashTable *s_escaped;
} Job;

struct BsReaper {
	int sfd;
	guint fd_source;
	guint poll_source;
	guint poll_ms;
	GHashTable *jobs;         /* GINT_TO_POINTER(pgid) -> Job */
	BsReaperOtherFunc other;
	gpointer other_data;
};

static void
job_free(gpointer p)
{
	Job *job = p;

	g_free(job->status_path);
	g_clear_pointer(&job->escaped, g_hash_table_destroy);
	g_clear_pointer(&job->s_escaped, g_hash_table_destroy);
	g_free(job);
}

static Job *
job_lookup(BsReaper *r, pid_t pgid)
{
	return g_hash_table_lookup(r->jobs, GINT_TO_POINTER(pgid));
}

static GHashTable *
escaped_new(void)
{
	return g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
}

/* The job whose escaped descendant pid is (starttime 0: whichever start). */
static Job *
job_of_escapee(BsReaper *r, pid_t pid, guint64 starttime)
{
	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, r->jobs);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		Job *job = value;
		const guint64 *start = g_hash_table_lookup(job->escaped, GINT_TO_POINTER(pid));

		if (start != NULL && (starttime == 0 || *start == starttime))
			return job;
	}
	return NULL;
}

static gint64
tv_us(const struct timeval *tv)
{
	return (gint64)tv->tv_sec * G_USEC_PER_SEC + tv->tv_usec;
}

gboolean
bs_reaper_block_sigchld(GError **error)
{
	sigset_t set;
	int rc;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	rc = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (rc != 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot block SIGCHLD: %s",
		            g_strerror(rc));
		return FALSE;
	}
	return TRUE;
}

/* ---- finishing ---- */

static void
job_fill_end(const Job *job, BsJobEnd *end)
{
	BsStatusRecord rec;
	gboolean have_rec = job->status_path != NULL &&
	                    bs_status_record_read(job->status_path, &rec, NULL);

	memset(end, 0, sizeof *end);
	end->pgid = job->pgid;
	end->adopted = job->adopted;
	end->usage.utime_us = job->reaped_utime_us;
	end->usage.stime_us = job->reaped_stime_us;
	end->usage.peak_rss_kb = job->peak_rss_kb;
	if (have_rec) {
		end->exit = rec.exit;
		end->source = BS_END_FROM_RECORD;
		end->usage.peak_rss_kb = MAX(end->usage.peak_rss_kb, rec.maxrss_kb);
	} else if (job->leader_done) {
		end->exit = bs_exit_from_wait_status(job->leader_status);
		end->source = BS_END_FROM_WAIT;
	}
	if (job->adopted) {
		/* We could not wait for most of it: take the best view we had. */
		gint64 ut = have_rec ? MAX(rec.utime_us, job->live_utime_us) : job->live_utime_us;
		gint64 st = have_rec ? MAX(rec.stime_us, job->live_stime_us) : job->live_stime_us;

		end->usage.utime_us += ut;
		end->usage.stime_us += st;
	}
}

static void
reaper_finish(BsReaper *r, Job *job)
{
	BsJobEnd end;

	job_fill_end(job, &end);
	g_hash_table_steal(r->jobs, GINT_TO_POINTER(job->pgid));
	if (job->funcs.finished != NULL)
		job->funcs.finished(&end, job->data);
	job_free(job);
}

static gboolean
job_awaits_empty_group(const Job *job)
{
	return job->leader_done || job->adopted;
}

static gboolean reaper_poll(gpointer data);

static void
reaper_need_poll(BsReaper *r)
{
	if (r->poll_source == 0)
		r->poll_source = g_timeout_add(r->poll_ms, reaper_poll, r);
}

static gboolean
escapee_alive(pid_t pid, guint64 starttime)
{
	BsProcStat st;

	return bs_proc_read_stat(pid, &st) && st.starttime == starttime &&
	       st.state != 'Z' && st.state != 'X';
}

/* Does a descendant that left the job's group still run?  Asked once the
 * group is empty, so the tree is scanned again first: what the escapees
 * started since the last sample is the job's too. */
static gboolean
job_escapees_alive(BsReaper *r, Job *job)
{
	GHashTableIter it;
	gpointer key, value;

	if (g_hash_table_size(job->escaped) == 0)
		return FALSE;
	bs_reaper_sample(r);
	g_hash_table_iter_init(&it, job->escaped);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		if (escapee_alive(GPOINTER_TO_INT(key), *(const guint64 *)value))
			return TRUE;
	}
	return FALSE;
}

/* Finish the job if its group is empty; TRUE when it was finished. */
static gboolean
reaper_try_finish(BsReaper *r, pid_t pgid)
{
	Job *job = job_lookup(r, pgid);

	if (job == NULL || !job_awaits_empty_group(job))
		return FALSE;
	if (bs_proc_group_alive(pgid) || job_escapees_alive(r, job)) {
		reaper_need_poll(r);
		return FALSE;
	}
	reaper_finish(r, job);
	return TRUE;
}

static gboolean
reaper_any_awaiting(BsReaper *r)
{
	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, r->jobs);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		if (job_awaits_empty_group(value))
			return TRUE;
	}
	return FALSE;
}

/* Members whose parent is not us give no SIGCHLD: look now and then.
 * While this source runs, poll_source stays set, so reaper_need_poll()
 * from inside it adds nothing; the last check decides whether to go on. */
static gboolean
reaper_poll(gpointer data)
{
	BsReaper *r = data;
	GArray *due = g_array_new(FALSE, FALSE, sizeof(pid_t));
	GHashTableIter it;
	gpointer key, value;

	g_hash_table_iter_init(&it, r->jobs);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		if (job_awaits_empty_group(value)) {
			pid_t pgid = GPOINTER_TO_INT(key);

			g_array_append_val(due, pgid);
		}
	}
	/* Finishing calls back into the caller, who may change the table. */
	for (guint i = 0; i < due->len; i++)
		(void)reaper_try_finish(r, g_array_index(due, pid_t, i));
	g_array_free(due, TRUE);
	if (reaper_any_awaiting(r))
		return G_SOURCE_CONTINUE;
	r->poll_source = 0;
	return G_SOURCE_REMOVE;
}

/* ---- reaping ---- */

static void
job_account(Job *job, pid_t pid, const struct rusage *ru)
{
	job->reaped_utime_us += tv_us(&ru->ru_utime);
	job->reaped_stime_us += tv_us(&ru->ru_stime);
	/* The live figures counted this process until now; they are stale
	 * until the next sample, and an undercount beats a double count. */
	job->live_utime_us = 0;
	job->live_stime_us = 0;
	/* The leader was forked from sbatchd, and Linux keeps the peak RSS of
	 * the pre-exec copy of sbatchd in its ru_maxrss: it would report our
	 * size, not the job's.  Other members were forked by the job. */
	if (pid != job->pgid)
		job->peak_rss_kb = MAX(job->peak_rss_kb, (gint64)ru->ru_maxrss);
}

static void
reaper_dispatch(BsReaper *r, pid_t pid, pid_t pgid, int wstatus, const struct rusage *ru)
{
	Job *job = job_lookup(r, pgid > 0 ? pgid : pid);

	/* A descendant that left the group, re-parented to us. */
	if (job == NULL && (job = job_of_escapee(r, pid, 0)) != NULL &&
	    (WIFEXITED(wstatus) || WIFSIGNALED(wstatus)))
		g_hash_table_remove(job->escaped, GINT_TO_POINTER(pid));
	if (job == NULL) {
		if (r->other != NULL && (WIFEXITED(wstatus) || WIFSIGNALED(wstatus)))
			r->other(pid, wstatus, r->other_data);
		return;
	}
	pgid = job->pgid;
	if (WIFSTOPPED(wstatus)) {
		if (job->funcs.stopped != NULL)
			job->funcs.stopped(pgid, pid, WSTOPSIG(wstatus), job->data);
		return;
	}
	if (WIFCONTINUED(wstatus)) {
		if (job->funcs.continued != NULL)
			job->funcs.continued(pgid, pid, job->data);
		return;
	}
	job_account(job, pid, ru);
	if (pid == pgid) {
		job->leader_done = TRUE;
		job->leader_status = wstatus;
		if (job->funcs.leader_exited != NULL)
			job->funcs.leader_exited(pgid, wstatus, job->data);
	}
	(void)reaper_try_finish(r, pgid);
}

/* Reap one waitable child; FALSE when there is none. */
static gboolean
reaper_reap_one(BsReaper *r)
{
	siginfo_t si;
	struct rusage ru;
	int wstatus;
	pid_t pid, pgid;

	memset(&si, 0, sizeof si);
	if (waitid(P_ALL, 0, &si, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) < 0)
		return errno == EINTR;
	if (si.si_pid == 0)
		return FALSE;
	pid = si.si_pid;
	pgid = getpgid(pid);
	memset(&ru, 0, sizeof ru);
	if (wait4(pid, &wstatus, WNOHANG | WUNTRACED | WCONTINUED, &ru) <= 0)
		return FALSE;
	reaper_dispatch(r, pid, pgid, wstatus, &ru);
	return TRUE;
}

static gboolean
reaper_on_sigchld(gint fd, GIOCondition cond, gpointer data)
{
	BsReaper *r = data;
	struct signalfd_siginfo info[16];

	/* SIGCHLDs coalesce, so the count read means nothing: drain both. */
	while (read(fd, info, sizeof info) > 0)
		;
	while (reaper_reap_one(r))
		;
	return G_SOURCE_CONTINUE;
}

/* ---- sampling ---- */

static void
sample_member(Job *job, const BsProcStat *st)
{
	gint64 rss, hwm;

	/* cutime/cstime: children this member reaped, which we never see. */
	job->s_utime += (gint64)(st->utime_us + st->cutime_us);
	job->s_stime += (gint64)(st->stime_us + st->cstime_us);
	/* bs-jobwrap is ours, not the job's: its memory does not count. */
	if (job->wrapped && st->pid == job->pgid)
		return;
	job->s_n++;
	job->s_threads += st->nthreads;
	job->s_vsize += (gint64)st->vsize_kb;
	if (bs_proc_read_mem(st->pid, &rss, &hwm)) {
		job->s_rss += rss;
		job->s_hwm = MAX(job->s_hwm, hwm);
	}
}

static void
scan_collect(const BsProcStat *st, gpointer data)
{
	g_hash_table_insert(data, GINT_TO_POINTER(st->pid), g_memdup2(st, sizeof *st));
}

/*
 * The job a process belongs to: the job of its group, or the job it
 * escaped from before (same pid and start time), or else its parent's.
 * Every process looked at on the way is remembered in memo (NULL: no
 * job's), so one scan walks each chain once.  Deeper chains than
 * TREE_DEPTH are cut there: a job cannot hide a process that way, since
 * every process in between is the job's and is seen by its own walk.
 */
#define TREE_DEPTH 1024

static Job *
tree_owner(BsReaper *r, GHashTable *procs, GHashTable *memo, const BsProcStat *st)
{
	const BsProcStat *chain[TREE_DEPTH];
	guint n = 0;
	Job *job = NULL;

	for (const BsProcStat *p = st; p != NULL && n < TREE_DEPTH;) {
		gpointer hit;

		if (g_hash_table_lookup_extended(memo, GINT_TO_POINTER(p->pid), NULL, &hit)) {
			job = hit;
			break;
		}
		chain[n++] = p;
		if ((job = job_lookup(r, p->pgrp)) != NULL ||
		    (job = job_of_escapee(r, p->pid, p->starttime)) != NULL || p->ppid <= 1)
			break;
		p = g_hash_table_lookup(procs, GINT_TO_POINTER(p->ppid));
	}
	for (guint i = 0; i < n; i++)
		g_hash_table_insert(memo, GINT_TO_POINTER(chain[i]->pid), job);
	return job;
}

void
bs_reaper_sample(BsReaper *r)
{
	GHashTableIter it;
	gpointer value;
	GHashTable *procs, *memo;

	if (g_hash_table_size(r->jobs) == 0)
		return;
	g_hash_table_iter_init(&it, r->jobs);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		Job *job = value;

		job->s_utime = job->s_stime = job->s_rss = job->s_hwm = 0;
		job->s_vsize = 0;
		job->s_n = job->s_threads = 0;
		job->s_escaped = escaped_new();
	}
	procs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	memo = g_hash_table_new(g_direct_hash, g_direct_equal);
	bs_proc_foreach(scan_collect, procs);
	g_hash_table_iter_init(&it, procs);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		const BsProcStat *st = value;
		Job *job = tree_owner(r, procs, memo, st);

		if (job == NULL)
			continue;
		sample_member(job, st);
		if (st->pgrp != job->pgid)
			g_hash_table_insert(job->s_escaped, GINT_TO_POINTER(st->pid),
			                    g_memdup2(&st->starttime, sizeof st->starttime));
	}
	g_hash_table_destroy(memo);
	g_hash_table_destroy(procs);
	g_hash_table_iter_init(&it, r->jobs);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		Job *job = value;

		g_hash_table_destroy(job->escaped);
		job->escaped = g_steal_pointer(&job->s_escaped);

		job->live_utime_us = job->s_utime;
		job->live_stime_us = job->s_stime;
		job->rss_kb = job->s_rss;
		job->nproc = job->s_n;
		job->nthreads = job->s_threads;
		job->vsize_kb = job->s_vsize;
		job->peak_rss_kb = MAX(job->peak_rss_kb, MAX(job->s_rss, job->s_hwm));
	}
}

void
bs_reaper_signal_escaped(BsReaper *r, pid_t pgid, int signo)
{
	Job *job = job_lookup(r, pgid);
	GHashTableIter it;
	gpointer key, value;

	if (job == NULL)
		return;
	bs_reaper_sample(r);
	g_hash_table_iter_init(&it, job->escaped);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		pid_t pid = GPOINTER_TO_INT(key);
		BsProcStat st;

		/* The pid is still the process we saw (same start time), and
		 * it is not back in the group (killpg reached it). */
		if (bs_proc_read_stat(pid, &st) && st.starttime == *(const guint64 *)value &&
		    st.pgrp != pgid)
			(void)kill(pid, signo);
	}
}

gboolean
bs_reaper_usage(BsReaper *r, pid_t pgid, BsJobUsage *out)
{
	Job *job = job_lookup(r, pgid);

	if (job == NULL)
		return FALSE;
	out->utime_us = job->reaped_utime_us + job->live_utime_us;
	out->stime_us = job->reaped_stime_us + job->live_stime_us;
	out->peak_rss_kb = job->peak_rss_kb;
	out->rss_kb = job->rss_kb;
	out->nproc = job->nproc;
	out->nthreads = job->nthreads;
	out->vsize_kb = job->vsize_kb;
	return TRUE;
}

/* ---- life cycle and watching ---- */

BsReaper *
bs_reaper_new(guint poll_ms, GError **error)
{
	BsReaper *r;
	struct sigaction dfl;
	sigset_t set;
	int sfd;

	if (the_reaper != NULL) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "a reaper already exists");
		return NULL;
	}
	if (!bs_reaper_block_sigchld(error))
		return NULL;
	/* SIG_IGN for SIGCHLD would make the kernel reap for us, silently. */
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	(void)sigaction(SIGCHLD, &dfl, NULL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot become a child subreaper: %s",
		            g_strerror(errno));
		return NULL;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create a signalfd: %s",
		            g_strerror(errno));
		return NULL;
	}
	r = g_new0(BsReaper, 1);
	r->sfd = sfd;
	r->poll_ms = poll_ms > 0 ? poll_ms : 1000;
	r->jobs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, job_free);
	r->fd_source = g_unix_fd_add(sfd, G_IO_IN, reaper_on_sigchld, r);
	the_reaper = r;
	return r;
}

void
bs_reaper_free(BsReaper *r)
{
	if (r == NULL)
		return;
	if (r->poll_source != 0)
		g_source_remove(r->poll_source);
	g_source_remove(r->fd_source);
	close(r->sfd);
	g_hash_table_destroy(r->jobs);
	/* Children exiting from now on wait, as zombies, for the next reaper:
	 * that is what makes a reaper restart (and re-adoption) work. */
	if (the_reaper == r)
		the_reaper = NULL;
	g_free(r);
}

void
bs_reaper_set_other_func(BsReaper *r, BsReaperOtherFunc fn, gpointer data)
{
	r->other = fn;
	r->other_data = data;
}

static Job *
reaper_add(BsReaper *r, pid_t pgid, const char *status_path,
           const BsJobWatchFuncs *funcs, gpointer data)
{
	Job *job = g_new0(Job, 1);

	job->pgid = pgid;
	job->status_path = g_strdup(status_path);
	job->wrapped = status_path != NULL;
	job->escaped = escaped_new();
	if (funcs != NULL)
		job->funcs = *funcs;
	job->data = data;
	g_hash_table_replace(r->jobs, GINT_TO_POINTER(pgid), job);
	return job;
}

void
bs_reaper_watch(BsReaper *r, pid_t pgid, const char *status_path,
                const BsJobWatchFuncs *funcs, gpointer data)
{
	(void)reaper_add(r, pgid, status_path, funcs, data);
}

guint
bs_reaper_adopt(BsReaper *r, pid_t pgid, const char *status_path,
                const BsJobWatchFuncs *funcs, gpointer data)
{
	Job *job = reaper_add(r, pgid, status_path, funcs, data);
	GArray *members = bs_proc_group_members(pgid);
	guint n = members->len;

	g_array_free(members, TRUE);
	job->adopted = TRUE;
	reaper_need_poll(r);
	return n;
}

void
bs_reaper_unwatch(BsReaper *r, pid_t pgid)
{
	g_hash_table_remove(r->jobs, GINT_TO_POINTER(pgid));
}

gboolean
bs_reaper_is_watching(BsReaper *r, pid_t pgid)
{
	return job_lookup(r, pgid) != NULL;
}
