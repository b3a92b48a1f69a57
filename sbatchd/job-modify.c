/*
 * bmod of a running job, on its host: mbatchd's EXEC_ACTION_MODIFY order
 * carries the run's new stamp, and this file makes the run follow it where
 * LSF applies such a change:
 *
 *   RUNLIMIT   the wall-clock deadline is re-armed from the job's start
 *              (a limit already passed ends the job now: TERM_RUNLIMIT)
 *   CPULIMIT   the whole-job limit sbatchd checks in its samples, and
 *              RLIMIT_CPU of every live process of the job (prlimit(2)),
 *              as at the start (LSB_JOB_CPULIMIT decides which of the two)
 *   MEMLIMIT   the whole-job limit of the samples (TERM_MEMLIMIT), and the
 *              job's cgroup memory.max when it has one
 *   post-exec  the job-level post-exec the wrapper runs at the end: written
 *              to the override file the wrapper holds open (jobwrap.c -p)
 *   -o         where the job report goes at the end (the job's info file,
 *              sbd-report.c); the job's output stays in the file it has
 *
 * The new limits are saved in the job's state file, so an sbatchd that
 * restarts keeps them.  The order comes only from mbatchd's link (MUNGE,
 * ROLE_MASTER); mbatchd has checked that the caller owns the job or is an
 * administrator.  A limit a non-root sbatchd cannot raise (a hard rlimit)
 * is bounded by its own, as at the start.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "procscan.h"
#include "sbd.h"
#include "sbd-report.h"
#include "util/error.h"

/* RLIMIT_CPU of every live process of the job's process group. */
static void
set_cpu_rlimits(SbdJob *job, const BsLaunchLimit *lims, guint n)
{
	struct rlimit lim = { RLIM_INFINITY, RLIM_INFINITY };
	g_autoptr(GArray) procs = NULL;

	for (guint i = 0; i < n; i++)
		if (lims[i].resource == RLIMIT_CPU)
			lim = lims[i].limit;
	if (job->pgid <= 0)
		return;
	procs = bs_proc_group_members(job->pgid);
	for (guint i = 0; procs != NULL && i < procs->len; i++) {
		const BsProcStat *p = &g_array_index(procs, BsProcStat, i);
		struct rlimit cur, want = lim;

		if (p->state == 'Z' || prlimit(p->pid, RLIMIT_CPU, NULL, &cur) < 0)
			continue;
		/* Without CAP_SYS_RESOURCE a hard limit only goes down. */
		if (geteuid() != 0 && (want.rlim_max == RLIM_INFINITY ||
		    (cur.rlim_max != RLIM_INFINITY && want.rlim_max > cur.rlim_max)))
			want.rlim_max = cur.rlim_max;
		if (want.rlim_cur != RLIM_INFINITY && want.rlim_max != RLIM_INFINITY &&
		    want.rlim_cur > want.rlim_max)
			want.rlim_cur = want.rlim_max;
		if (want.rlim_cur == RLIM_INFINITY && want.rlim_max != RLIM_INFINITY)
			want.rlim_cur = want.rlim_max;
		if (prlimit(p->pid, RLIMIT_CPU, &want, NULL) < 0)
			sbd_log(BS_LOG_WARNING, job, "cannot set the CPU limit of "
			    "process %d: %s", (int)p->pid, g_strerror(errno));
	}
}

char *
sbd_job_post_override_path(const char *status_path)
{
	return status_path != NULL ? g_strconcat(status_path, ".post", NULL) : NULL;
}

/* The wrapper reads the file through the descriptor it was given at the
 * start, so the file is rewritten in place (same inode), never replaced.
 * "S" is the job's own command (bmod -Ep), run as the job's user; "P" is
 * the profile's POST_EXEC back after bmod -Epn, run as launch runs it
 * (LSB_PRE_POST_EXEC_USER when set); "N" none. */
static gboolean
set_post_exec(SbdJob *job, const char *cmd, const Basalt__JobEffective *e,
    GError **err)
{
	g_autofree char *path = sbd_job_post_override_path(job->status_path);
	char kind = cmd == NULL || *cmd == '\0' ? 'N' :
	    sbd_prepost_is_profile(e, cmd) ? 'P' : 'S';
	g_autofree char *text = g_strdup_printf("%c%s", kind, cmd != NULL ? cmd : "");
	gsize len = strlen(text);
	int fd;

	if (path == NULL) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "the job has no wrapper: "
		    "its post-exec cannot be changed");
		return FALSE;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, text, len, 0) != (ssize_t)len) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot change the post-exec "
		    "(%s): %s", path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return FALSE;
	}
	close(fd);
	return TRUE;
}

gboolean
sbd_job_modify(SbdJob *job, const Basalt__SignalJobRequest *in, GError **err)
{
	const Basalt__JobEffective *e = in->effective;
	BsLaunchLimit lims[SBD_MAX_RLIMITS];
	SbdJobLimits l;
	guint n;

	if (e != NULL) {
		sbd_limits_from_effective(e, &l);
		n = sbd_limits_rlimits(e, lims);
		sbd_limits_cpu_policy(sbd_conf_value(job->sbd, "LSB_JOB_CPULIMIT"),
		    &l, lims, &n);
		job->limits.cpulimit_s = l.cpulimit_s;
		job->limits.memlimit_kb = l.memlimit_kb;
		set_cpu_rlimits(job, lims, n);
		sbd_cgroup_set_memory(job, e->memlimit_kb);
		job->runlimit_s = e->runlimit_s != NULL ? e->runlimit_s->value : 0;
		sbd_job_rearm_runlimit(job);
		sbd_log(BS_LOG_NOTICE, job, "modified: run limit %" G_GUINT64_FORMAT
		    " s, CPU limit %" G_GINT64_FORMAT " s, memory limit %"
		    G_GINT64_FORMAT " KB", job->runlimit_s, job->limits.cpulimit_s,
		    job->limits.memlimit_kb);
	}
	if (in->set_post_exec && !set_post_exec(job, in->post_exec, e, err))
		return FALSE;
	if (in->set_report_path && !sbd_job_info_set_out(job, in->report_path, err))
		return FALSE;
	sbd_job_save(job);
	return TRUE;
}
