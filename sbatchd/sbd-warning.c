/*
 * LSF's job warning action before the run limit (bsub -wa 'signal' -wt
 * '[hour:]minute', or JOB_WARNING_ACTION / JOB_ACTION_WARNING_TIME of the
 * application profile, queue or consumer, as mbatchd stamped them in the
 * run's JobEffective): the signal goes to the job's process group once,
 * the warning time before the run limit, so the job can save its work
 * before it is killed.  Armed with the run limit (sbd-job.c), again after
 * bmod -W changed it, and after a restart unless it was sent already
 * (sbd-store.c keeps that).  The signal was checked by mbatchd; the job
 * runs as its user, so the signal reaches only that user's processes.
 */
#include "config.h"

#include "sbatchd/jobctl.h"
#include "sbatchd/sbd.h"

static gboolean
warning_due(gpointer data)
{
	SbdJob *job = data;
	g_autoptr(GError) err = NULL;

	job->warning_src = 0;
	if (job->finished || job->warning_sent || job->pgid <= 0)
		return G_SOURCE_REMOVE;
	job->warning_sent = TRUE;
	sbd_log(BS_LOG_NOTICE, job, "job warning action: signal %d, %" G_GUINT64_FORMAT
	    " s before the run limit", job->warning_signal, job->warning_time_s);
	if (!bs_jobctl_signal(job->pgid, job->warning_signal, &err))
		sbd_log(BS_LOG_WARNING, job, "job warning action: %s", err->message);
	return G_SOURCE_REMOVE;
}

void
sbd_warning_arm(SbdJob *job)
{
	gint64 now_ms = g_get_real_time() / 1000;
	gint64 at_ms;

	sbd_warning_cancel(job);
	if (job->warning_signal <= 0 || job->warning_time_s == 0 ||
	    job->runlimit_s == 0 || job->warning_sent || job->finished)
		return;
	at_ms = (job->start_time + (gint64)job->runlimit_s -
	    (gint64)job->warning_time_s) * 1000;
	job->warning_src = g_timeout_add((guint)CLAMP(at_ms - now_ms, 0, G_MAXUINT),
	    warning_due, job);
}

void
sbd_warning_cancel(SbdJob *job)
{
	g_clear_handle_id(&job->warning_src, g_source_remove);
}
