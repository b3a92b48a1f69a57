/*
 * The job table: every job this host runs, from launch to the moment
 * mbatchd has acknowledged how it ended.
 *
 * A job is in the table (and has a state file, sbd-store.c) while it runs
 * and after it finished until its final report is acknowledged, so a
 * restarted sbatchd can list it in RegisterHost either way.  Every change
 * mbatchd must learn (running, stopped, continued, finished) becomes a
 * JobReport in the spool first (sbd-spool.c), then goes out on the link.
 *
 * What sbatchd decides by itself is kept small: it kills a job that passed
 * its RUNLIMIT (and says so in the report's reason) and one mbatchd forgot;
 * suspend reasons and USUSP versus SSUSP are mbatchd's to decide.
 *
 * Building a launch from a StartJobRequest (identity, environment, files)
 * is in sbd-start.c.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sbd-report.h"
#include "procscan.h"
#include "sbd.h"

#define DEFAULT_TERMINATE_S 10

static void job_finish(SbdJob *job, const BsJobEnd *end);

/* Runs of one job are kept apart by their instance; a run from an older
 * mbatchd (instance 0) keeps the old name, so its files are found again. */
char *
sbd_job_key(guint64 id, guint32 index, guint32 instance)
{
	if (instance == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT ".%u", id, index);
	return g_strdup_printf("%" G_GUINT64_FORMAT ".%u.%u", id, index, instance);
}

/* Is a a better answer than b to "the job's run here"? */
static gboolean
later_run(const SbdJob *a, const SbdJob *b)
{
	if (b == NULL)
		return TRUE;
	if (a->finished != b->finished)
		return !a->finished;
	return a->instance > b->instance;
}

SbdJob *
sbd_job_lookup(Sbd *sbd, guint64 id, guint32 index, guint32 instance)
{
	g_autofree char *key = sbd_job_key(id, index, instance);
	SbdJob *best = g_hash_table_lookup(sbd->jobs, key);
	GHashTableIter it;
	gpointer v;

	if (instance != 0)
		return best;
	/* Only orders from an mbatchd without instances come here. */
	g_hash_table_iter_init(&it, sbd->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		SbdJob *job = v;

		if (job->id == id && job->index == index && job != best &&
		    later_run(job, best))
			best = job;
	}
	return best;
}

/* Out of the table and the disk: mbatchd has everything it needs. */
static void
job_drop(SbdJob *job)
{
	Sbd *sbd = job->sbd;

	if (job->pgid > 0 && !job->finished)
		bs_reaper_unwatch(sbd->reaper, job->pgid);
	sbd_store_remove(job);
	g_hash_table_remove(sbd->jobs, job->key);
}

static void
job_save(SbdJob *job)
{
	g_autoptr(GError) err = NULL;

	if (!sbd_store_save(job, &err))
		sbd_log(BS_LOG_ERR, job, "cannot save the job's state: %s", err->message);
}

void
sbd_job_save(SbdJob *job)
{
	job_save(job);
}

/* ---- reports ---- */

void
sbd_job_to_host_job(SbdJob *job, Basalt__HostJob *hj, Basalt__ResourceUsage *u)
{
	BsJobUsage live;

	basalt__host_job__init(hj);
	basalt__resource_usage__init(u);
	hj->job_id = job->id;
	hj->array_index = job->index;
	hj->instance = job->instance;
	hj->state = job->state;
	hj->pgid = job->pgid;
	hj->exit_status = job->exit_status;
	hj->term_signal = job->term_signal;
	hj->preexec_failed = job->preexec_failed;
	hj->postexec_status = job->postexec_status;
	if (!job->finished && bs_reaper_usage(job->sbd->reaper, job->pgid, &live))
		job->usage = live;
	u->utime_us = (guint64)MAX(job->usage.utime_us, 0);
	u->stime_us = (guint64)MAX(job->usage.stime_us, 0);
	u->max_rss_kb = (guint64)MAX(job->usage.peak_rss_kb, 0);
	u->rss_kb = job->finished ? 0 : (guint64)MAX(job->usage.rss_kb, 0);
	u->nprocs = job->finished ? 0 : job->usage.nproc;
	u->pgid = job->pgid;
	sbd_usage_fill(job, u);
	hj->usage = u;
	hj->term_reason = job->term_reason;
}

void
sbd_job_report(SbdJob *job, const char *reason)
{
	Basalt__JobReport rep = BASALT__JOB_REPORT__INIT;
	Basalt__HostJob hj;
	Basalt__ResourceUsage u;
	guint64 seq;

	if (job->forget)
		return;
	sbd_job_to_host_job(job, &hj, &u);
	rep.job = &hj;
	rep.time = g_get_real_time() / G_USEC_PER_SEC;
	rep.reason = (char *)(reason != NULL ? reason : "");
	seq = sbd_spool_append(job->sbd->spool, &rep);
	if (job->finished)
		job->final_seq = seq;
	sbd_log(BS_LOG_INFO, job, "report %" G_GUINT64_FORMAT ": %s%s%s", seq,
	    protobuf_c_enum_descriptor_get_value(&basalt__job_state__descriptor,
	    job->state)->name + strlen("JOB_STATE_"), *rep.reason ? ", " : "", rep.reason);
	sbd_link_kick(job->sbd);
}

void
sbd_jobs_acked(Sbd *sbd, guint64 acked)
{
	GHashTableIter it;
	gpointer v;
	GPtrArray *done = g_ptr_array_new();

	g_hash_table_iter_init(&it, sbd->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		SbdJob *job = v;

		if (job->finished && job->final_seq != 0 && job->final_seq <= acked)
			g_ptr_array_add(done, job);
	}
	for (guint i = 0; i < done->len; i++) {
		sbd_log(BS_LOG_DEBUG, done->pdata[i], "final report acknowledged");
		job_drop(done->pdata[i]);
	}
	g_ptr_array_free(done, TRUE);
}

/* ---- reaper events ---- */

static void
on_stopped(pid_t pgid, pid_t pid, int signo, gpointer data)
{
	SbdJob *job = data;

	if (job->state != BASALT__JOB_STATE__JOB_STATE_RUN)
		return;
	job->state = BASALT__JOB_STATE__JOB_STATE_USUSP;
	sbd_log(BS_LOG_INFO, job, "stopped by signal %d", signo);
	sbd_job_report(job, NULL);
}

static void
on_continued(pid_t pgid, pid_t pid, gpointer data)
{
	SbdJob *job = data;

	if (job->state != BASALT__JOB_STATE__JOB_STATE_USUSP)
		return;
	job->state = BASALT__JOB_STATE__JOB_STATE_RUN;
	sbd_log(BS_LOG_INFO, job, "continued");
	sbd_job_report(job, NULL);
}

static void
on_finished(const BsJobEnd *end, gpointer data)
{
	job_finish(data, end);
}

static const BsJobWatchFuncs job_funcs = {
	.stopped = on_stopped,
	.continued = on_continued,
	.finished = on_finished,
};

static void
set_exit(SbdJob *job, const BsExitStatus *st)
{
	switch (st->kind) {
	case BS_EXIT_CODE:
		job->exit_status = st->code;
		job->term_signal = 0;
		break;
	case BS_EXIT_SIGNAL:
		job->exit_status = 128 + st->signo;
		job->term_signal = st->signo;
		break;
	default:
		job->exit_status = -1;
		job->term_signal = 0;
		break;
	}
	job->state = job->exit_status == 0 ? BASALT__JOB_STATE__JOB_STATE_DONE :
	    BASALT__JOB_STATE__JOB_STATE_EXIT;
}

/* An interactive job whose bsub went away (killed, or the connection
 * dropped) was hung up and killed by its relay: without a reason its end
 * would read as an unexplained signal.  The relay's record says so. */
static void
lost_link_reason(SbdJob *job)
{
	BsStatusRecord rec;

	if (job->kill_reason == NULL && job->status_path != NULL &&
	    bs_status_record_read(job->status_path, &rec, NULL) && rec.link_lost)
		job->kill_reason = g_strdup("The interactive connection to bsub "
		    "was lost;");
}

static void
job_finish(SbdJob *job, const BsJobEnd *end)
{
	g_autofree char *how = bs_exit_describe(&end->exit);

	g_clear_handle_id(&job->runlimit_src, g_source_remove);
	sbd_warning_cancel(job);
	g_clear_pointer(&job->term, bs_jobctl_terminate_cancel);
	job->finished = TRUE;
	job->usage = end->usage;
	set_exit(job, &end->exit);
	lost_link_reason(job);
	sbd_usage_finished(job, end);
	sbd_log(BS_LOG_NOTICE, job, "finished: %s", how);
	sbd_prepost_finish(job);
	/* The report ends the -o file before bjobs can say the job ended:
	 * the final report waits for its writer. */
	if (sbd_job_end_files(job))
		sbd_job_end_files_done(job);
}

void
sbd_job_end_files_done(SbdJob *job)
{
	g_autofree char *prepost = NULL;
	g_autofree char *both = NULL;
	const char *reason = job->kill_reason;

	if (job->forget) {
		job_drop(job);
		return;
	}
	if (job->exit_status < 0 && reason == NULL)
		reason = "The exit status of the job is unknown: sbatchd restarted "
		    "and the job left no status record;";
	if ((prepost = sbd_prepost_reason(job)) != NULL)
		reason = reason != NULL ?
		    (both = g_strconcat(reason, " ", prepost, NULL)) : prepost;
	sbd_job_report(job, reason);
	job_save(job);
}

/* ---- killing ---- */

static void
term_done(pid_t pgid, int last_signal, gpointer data)
{
	SbdJob *job = data;

	job->term = NULL;
	sbd_log(BS_LOG_INFO, job, "terminated (last signal %d)", last_signal);
}

void
sbd_job_terminate(SbdJob *job, const char *reason)
{
	guint interval_s = job->term_interval_s ? job->term_interval_s :
	    job->sbd->terminate_interval_s ? job->sbd->terminate_interval_s :
	    DEFAULT_TERMINATE_S;

	if (job->finished)
		return;
	if (reason != NULL && job->kill_reason == NULL) {
		job->kill_reason = g_strdup(reason);
		job_save(job);
	}
	if (job->term != NULL)
		return;
	sbd_log(BS_LOG_NOTICE, job, "terminating (interval %u s)%s%s", interval_s,
	    reason ? ": " : "", reason ? reason : "");
	job->term = bs_jobctl_terminate(job->pgid, interval_s * 1000, term_done, job);
}

static gboolean
runlimit_reached(gpointer data)
{
	SbdJob *job = data;

	job->runlimit_src = 0;
	sbd_job_kill_for(job, "TERM_RUNLIMIT");
	return G_SOURCE_REMOVE;
}

static void
arm_runlimit(SbdJob *job)
{
	gint64 now_ms = g_get_real_time() / 1000;
	gint64 end_ms = (job->start_time + (gint64)job->runlimit_s) * 1000;

	if (job->runlimit_s == 0)
		return;
	job->runlimit_src = g_timeout_add((guint)CLAMP(end_ms - now_ms, 0, G_MAXUINT),
	    runlimit_reached, job);
	sbd_warning_arm(job);
}

void
sbd_job_rearm_runlimit(SbdJob *job)
{
	g_clear_handle_id(&job->runlimit_src, g_source_remove);
	sbd_warning_cancel(job);
	if (!job->finished)
		arm_runlimit(job);
}

static void
forget_one(SbdJob *job)
{
	sbd_log(BS_LOG_NOTICE, job, "mbatchd forgot run %u of the job: %s",
	    job->instance, job->finished ? "dropping it" : "killing it");
	job->forget = TRUE;
	if (job->finished) {
		job_drop(job);
		return;
	}
	job_save(job);
	sbd_job_terminate(job, NULL);
}

void
sbd_job_forget(Sbd *sbd, guint64 id, guint32 index, guint32 instance)
{
	GHashTableIter it;
	gpointer v;
	GPtrArray *runs = g_ptr_array_new();

	/* Collect first: dropping changes the table. */
	g_hash_table_iter_init(&it, sbd->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		SbdJob *job = v;

		if (job->id == id && job->index == index &&
		    (instance == 0 || job->instance == instance))
			g_ptr_array_add(runs, job);
	}
	for (guint i = 0; i < runs->len; i++)
		forget_one(runs->pdata[i]);
	g_ptr_array_free(runs, TRUE);
}

void
sbd_job_forget_all_of(Sbd *sbd, guint64 id)
{
	GHashTableIter it;
	gpointer v;
	GPtrArray *runs = g_ptr_array_new();

	g_hash_table_iter_init(&it, sbd->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		if (((SbdJob *)v)->id == id)
			g_ptr_array_add(runs, v);
	}
	for (guint i = 0; i < runs->len; i++)
		forget_one(runs->pdata[i]);
	g_ptr_array_free(runs, TRUE);
}

/* ---- starting ---- */

void
sbd_job_started(SbdJob *job)
{
	Sbd *sbd = job->sbd;
	SbdJob *old = g_hash_table_lookup(sbd->jobs, job->key);

	/* A finished run of the same job (requeued here): its final report is
	 * in the spool already, its record can go. */
	if (old != NULL)
		g_hash_table_remove(sbd->jobs, job->key);
	g_hash_table_insert(sbd->jobs, job->key, job);
	/* No save here: the run's record was written whole (pgid, owner,
	 * start time, paths) by bs_launch's on_forked, before the child could
	 * exec, and nothing it holds has changed since; a second copy cost a
	 * new file and a rename per job. */
	job->state = BASALT__JOB_STATE__JOB_STATE_RUN;
	bs_reaper_watch(sbd->reaper, job->pgid, job->status_path, &job_funcs, job);
	arm_runlimit(job);
	sbd_log(BS_LOG_NOTICE, job, "started as user %s, pgid %d", job->user, job->pgid);
	sbd_job_report(job, NULL);
}

/* ---- restart ---- */

static gboolean
group_stopped(pid_t pgid)
{
	GArray *m = bs_proc_group_members(pgid);
	gboolean stopped = m->len > 0;

	for (guint i = 0; stopped && i < m->len; i++)
		stopped = g_array_index(m, BsProcStat, i).state == 'T';
	g_array_free(m, TRUE);
	return stopped;
}

static void
recover_running(SbdJob *job)
{
	GArray *members = bs_jobctl_find_members(job->pgid);
	BsJobEnd end;
	BsStatusRecord rec;

	if (members->len > 0) {
		if (group_stopped(job->pgid))
			job->state = BASALT__JOB_STATE__JOB_STATE_USUSP;
		(void)bs_reaper_adopt(job->sbd->reaper, job->pgid, job->status_path,
		    &job_funcs, job);
		arm_runlimit(job);
		sbd_log(BS_LOG_NOTICE, job, "re-adopted, pgid %d, %u processes",
		    job->pgid, members->len);
		if (job->forget)
			sbd_job_terminate(job, NULL);
	} else {
		/* Gone while we were down (or its number is someone else's now):
		 * what the wrapper recorded is all there is. */
		memset(&end, 0, sizeof end);
		end.pgid = job->pgid;
		end.adopted = TRUE;
		if (bs_status_record_read(job->status_path, &rec, NULL)) {
			end.exit = rec.exit;
			end.source = BS_END_FROM_RECORD;
			end.usage.utime_us = rec.utime_us;
			end.usage.stime_us = rec.stime_us;
			end.usage.peak_rss_kb = rec.maxrss_kb;
		}
		job_finish(job, &end);
	}
	g_array_free(members, TRUE);
}

void
sbd_jobs_recover(Sbd *sbd)
{
	g_autoptr(GPtrArray) jobs = sbd_store_load_all(sbd);

	for (guint i = 0; i < jobs->len; i++) {
		SbdJob *job = jobs->pdata[i];

		g_hash_table_replace(sbd->jobs, job->key, job);
		if (!job->finished)
			recover_running(job);
		else if (job->forget || !sbd_spool_has_job(sbd->spool, job->id, job->index))
			job_drop(job);  /* its final report was acknowledged */
		else
			sbd_log(BS_LOG_INFO, job, "finished, final report still to send");
	}
}

/* ---- the table ---- */

static gboolean
sample(gpointer data)
{
	sbd_usage_sample(data);
	return G_SOURCE_CONTINUE;
}

void
sbd_jobs_init(Sbd *sbd)
{
	sbd->jobs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    (GDestroyNotify)sbd_job_free);
	sbd->sample_src = g_timeout_add_seconds(sbd_usage_interval_s(sbd), sample, sbd);
}

void
sbd_jobs_free(Sbd *sbd)
{
	/* The jobs keep running: a new sbatchd re-adopts them. */
	g_clear_handle_id(&sbd->sample_src, g_source_remove);
	sbd_report_stop();
	g_clear_pointer(&sbd->jobs, g_hash_table_destroy);
}
