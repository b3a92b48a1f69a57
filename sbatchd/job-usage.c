/*
 * What sbatchd learns from its samples of a running job: the accounting
 * LSF keeps (average and maximum memory, virtual memory as SWAP, process
 * and thread counts) and the whole-job limits it enforces (job-limits.h).
 *
 * A job over a limit is ended the way LSF ends it: SIGXCPU first for a CPU
 * limit, then the job's termination sequence (SIGINT, SIGTERM, SIGKILL
 * spaced by JOB_TERMINATE_INTERVAL); its report carries LSF's name for
 * the end (TERM_MEMLIMIT ...) and the reason line.  The sampling period is
 * lsf.conf LSF_PIM_SLEEPTIME (seconds, default 10): a job can pass a limit
 * for that long before it is seen, which is why the kernel also enforces
 * what it can (setrlimit, and memory.max when job-cgroup.c has a cgroup).
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>

#include "sbd.h"

#define DEFAULT_INTERVAL_S 10

guint
sbd_usage_interval_s(const Sbd *sbd)
{
	const char *v = sbd_conf_value(sbd, "LSF_PIM_SLEEPTIME");
	char *end = NULL;
	long n;

	if (v == NULL || *v == '\0')
		return DEFAULT_INTERVAL_S;
	n = strtol(v, &end, 10);
	if (*end != '\0' || n <= 0 || n > 3600) {
		sbd_log(BS_LOG_WARNING, NULL, "LSF_PIM_SLEEPTIME=%s is not a number "
		    "of seconds (1-3600); using %d", v, DEFAULT_INTERVAL_S);
		return DEFAULT_INTERVAL_S;
	}
	return (guint)n;
}

void
sbd_job_kill_for(SbdJob *job, const char *term)
{
	if (job->finished || job->term_reason != NULL)
		return;
	job->term_reason = g_strdup(term);
	sbd_log(BS_LOG_NOTICE, job, "%s: ending the job", term);
	/* LSF gives a job over its CPU limit SIGXCPU to act on first. */
	if (g_str_equal(term, "TERM_CPULIMIT") && job->pgid > 0)
		(void)bs_jobctl_signal(job->pgid, SIGXCPU, NULL);
	sbd_job_terminate(job, sbd_limits_kill_reason(term));
}

static void
job_sampled(SbdJob *job, const BsJobUsage *u)
{
	SbdJobSample s = {
		.cpu_us = u->utime_us + u->stime_us,
		.mem_kb = u->rss_kb,
		.swap_kb = u->vsize_kb,
		.nprocs = u->nproc,
		.nthreads = u->nthreads,
	};
	const char *term;

	/* A sample with no process in it (between the leader's exit and the
	 * reaping) says nothing of the job. */
	if (u->nproc == 0)
		return;
	job->mem_sum_kb += u->rss_kb;
	job->mem_samples++;
	job->max_nprocs = MAX(job->max_nprocs, u->nproc);
	job->nthreads = u->nthreads;
	job->max_nthreads = MAX(job->max_nthreads, u->nthreads);
	job->swap_kb = u->vsize_kb;
	job->max_swap_kb = MAX(job->max_swap_kb, u->vsize_kb);
	if ((term = sbd_limits_check(&job->limits, &s)) != NULL)
		sbd_job_kill_for(job, term);
}

void
sbd_usage_sample(Sbd *sbd)
{
	GHashTableIter it;
	gpointer v;
	GPtrArray *live = g_ptr_array_new();

	bs_reaper_sample(sbd->reaper);
	/* Collect first: ending a job may change the table. */
	g_hash_table_iter_init(&it, sbd->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		SbdJob *job = v;

		if (!job->finished && job->pgid > 0)
			g_ptr_array_add(live, job);
	}
	for (guint i = 0; i < live->len; i++) {
		SbdJob *job = live->pdata[i];
		BsJobUsage u;

		if (bs_reaper_usage(sbd->reaper, job->pgid, &u))
			job_sampled(job, &u);
	}
	g_ptr_array_free(live, TRUE);
}

void
sbd_usage_finished(SbdJob *job, const BsJobEnd *end)
{
	if (job->term_reason == NULL) {
		/* The kernel enforced a limit before a sample saw it. */
		job->term_reason = g_strdup(sbd_limits_end_term(
		    end->exit.kind == BS_EXIT_SIGNAL && end->exit.signo == SIGXCPU,
		    job->limits.cpulimit_s, sbd_cgroup_oom_killed(job)));
		if (job->term_reason != NULL && job->kill_reason == NULL)
			job->kill_reason = g_strdup(sbd_limits_kill_reason(job->term_reason));
	}
	sbd_cgroup_remove(job);
}

void
sbd_usage_fill(const SbdJob *job, Basalt__ResourceUsage *u)
{
	u->avg_rss_kb = job->mem_samples > 0 ?
	    (guint64)(job->mem_sum_kb / (gint64)job->mem_samples) : 0;
	u->max_nprocs = job->max_nprocs;
	u->max_nthreads = job->max_nthreads;
	u->nthreads = job->finished ? 0 : job->nthreads;
	u->swap_kb = job->finished ? 0 : (guint64)MAX(job->swap_kb, 0);
	u->max_swap_kb = (guint64)MAX(job->max_swap_kb, 0);
}

/* ---- the job's state file (sbd-store.c): a group of its own ---- */

#define USAGE_GROUP "Usage"

static gint64
get_or(GKeyFile *kf, const char *key, gint64 dflt)
{
	g_autoptr(GError) err = NULL;
	gint64 v = g_key_file_get_int64(kf, USAGE_GROUP, key, &err);

	return err != NULL ? dflt : v;
}

void
sbd_usage_save(const SbdJob *job, GKeyFile *kf)
{
	const SbdJobLimits *l = &job->limits;

	g_key_file_set_int64(kf, USAGE_GROUP, "cpulimit_s", l->cpulimit_s);
	g_key_file_set_int64(kf, USAGE_GROUP, "memlimit_kb", l->memlimit_kb);
	g_key_file_set_int64(kf, USAGE_GROUP, "swaplimit_kb", l->swaplimit_kb);
	g_key_file_set_int64(kf, USAGE_GROUP, "processlimit", l->processlimit);
	g_key_file_set_int64(kf, USAGE_GROUP, "threadlimit", l->threadlimit);
	g_key_file_set_int64(kf, USAGE_GROUP, "mem_sum_kb", job->mem_sum_kb);
	g_key_file_set_int64(kf, USAGE_GROUP, "mem_samples", (gint64)job->mem_samples);
	g_key_file_set_int64(kf, USAGE_GROUP, "max_nprocs", job->max_nprocs);
	g_key_file_set_int64(kf, USAGE_GROUP, "max_nthreads", job->max_nthreads);
	g_key_file_set_int64(kf, USAGE_GROUP, "max_swap_kb", job->max_swap_kb);
	if (job->term_reason != NULL)
		g_key_file_set_string(kf, USAGE_GROUP, "term_reason", job->term_reason);
	if (job->cgroup != NULL)
		g_key_file_set_string(kf, USAGE_GROUP, "cgroup", job->cgroup);
}

void
sbd_usage_load(SbdJob *job, GKeyFile *kf)
{
	SbdJobLimits *l = &job->limits;
	g_autofree char *term = NULL;

	l->cpulimit_s = get_or(kf, "cpulimit_s", -1);
	l->memlimit_kb = get_or(kf, "memlimit_kb", -1);
	l->swaplimit_kb = get_or(kf, "swaplimit_kb", -1);
	l->processlimit = get_or(kf, "processlimit", -1);
	l->threadlimit = get_or(kf, "threadlimit", -1);
	job->mem_sum_kb = get_or(kf, "mem_sum_kb", 0);
	job->mem_samples = (guint64)MAX(get_or(kf, "mem_samples", 0), 0);
	job->max_nprocs = (guint)CLAMP(get_or(kf, "max_nprocs", 0), 0, G_MAXUINT);
	job->max_nthreads = (guint)CLAMP(get_or(kf, "max_nthreads", 0), 0, G_MAXUINT);
	job->max_swap_kb = get_or(kf, "max_swap_kb", 0);
	/* Only names this sbatchd knows: the file is ours, but be strict. */
	term = g_key_file_get_string(kf, USAGE_GROUP, "term_reason", NULL);
	if (term != NULL && sbd_limits_kill_reason(term) != NULL)
		job->term_reason = g_steal_pointer(&term);
	job->cgroup = g_key_file_get_string(kf, USAGE_GROUP, "cgroup", NULL);
}
