/*
 * Job state files: what a restarted sbatchd needs to find its jobs again.
 *
 * One small file per job, <statedir>/jobs/<id>.<index>.job, written when
 * the job starts (temporary file, rename) and when it finishes (in place,
 * synced; see overwrite_in_place), and removed once mbatchd acknowledged
 * the final report.  Its process group and start time let a new sbatchd
 * re-adopt the processes (bs_reaper_adopt) and keep the runlimit; the
 * status record of bs-jobwrap next to it (<id>.<index>.status) gives the
 * exit status the new sbatchd could not wait for.  The record's [report]
 * group holds what the job report and the clean-up at the end need
 * (sbd-report.c), so a start creates one root file, not two.  A GKeyFile,
 * so paths with any characters survive and an administrator can read it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sbd.h"

#define GROUP "job"

void
sbd_job_free(SbdJob *job)
{
	if (job == NULL)
		return;
	g_strfreev(job->env);
	if (job->runlimit_src != 0)
		g_source_remove(job->runlimit_src);
	sbd_warning_cancel(job);
	if (job->term != NULL)
		bs_jobctl_terminate_cancel(job->term);
	g_free(job->key);
	g_free(job->user);
	g_free(job->out_path);
	g_free(job->err_path);
	g_free(job->status_path);
	g_free(job->kill_reason);
	g_free(job->term_reason);
	g_free(job->cgroup);
	g_free(job->info);
	g_free(job->legacy_info);
	g_free(job);
}

static char *
job_file(const Sbd *sbd, const char *key)
{
	g_autofree char *name = g_strconcat(key, ".job", NULL);

	return g_build_filename(sbd->jobs_dir, name, NULL);
}

static void
set_str(GKeyFile *kf, const char *k, const char *v)
{
	if (v != NULL)
		g_key_file_set_string(kf, GROUP, k, v);
}

static void
save_end(GKeyFile *kf, const SbdJob *job)
{
	g_key_file_set_boolean(kf, GROUP, "finished", TRUE);
	g_key_file_set_integer(kf, GROUP, "exit_status", job->exit_status);
	g_key_file_set_integer(kf, GROUP, "term_signal", job->term_signal);
	g_key_file_set_uint64(kf, GROUP, "final_seq", job->final_seq);
	g_key_file_set_int64(kf, GROUP, "utime_us", job->usage.utime_us);
	g_key_file_set_int64(kf, GROUP, "stime_us", job->usage.stime_us);
	g_key_file_set_int64(kf, GROUP, "peak_rss_kb", job->usage.peak_rss_kb);
}

/*
 * Spare records.  Creating a file is most of what a start costs sbatchd
 * (ext4 looks for an inode that was not freed recently, which after many
 * deletions means reading through the inode bitmaps), so the record of an
 * acknowledged job is renamed to jobs/spare.N rather than unlinked, and
 * the next record is written into it.  Only root ever opens these files
 * (0600 in a directory users cannot list), so no process of a job can hold
 * one.  A spare is never read: its name does not end in ".job".
 */
#define SPARE_MAX 64

static GPtrArray *
spares(Sbd *sbd)
{
	if (sbd->spare_records == NULL)
		sbd->spare_records = g_ptr_array_new_with_free_func(g_free);
	return sbd->spare_records;
}

/* Open a spare for writing, truncated; -1 (and *path NULL) when none. */
static int
spare_take(Sbd *sbd, char **path)
{
	GPtrArray *a = spares(sbd);

	while (a->len > 0) {
		char *p = g_ptr_array_steal_index_fast(a, a->len - 1);
		int fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);

		if (fd >= 0) {
			*path = p;
			return fd;
		}
		g_free(p);
	}
	*path = NULL;
	return -1;
}

/* TRUE: path became a spare; FALSE: the caller removes it. */
static gboolean
spare_keep(Sbd *sbd, const char *path)
{
	GPtrArray *a = spares(sbd);
	char name[32];
	char *spare;

	if (a->len >= SPARE_MAX)
		return FALSE;
	g_snprintf(name, sizeof name, "spare.%u", sbd->spare_next++);
	spare = g_build_filename(sbd->jobs_dir, name, NULL);
	if (rename(path, spare) != 0) {
		g_free(spare);
		return FALSE;
	}
	g_ptr_array_add(a, spare);
	return TRUE;
}

/* A spare found at start: kept (numbered past it), or removed past the
 * limit. */
static void
spare_found(Sbd *sbd, const char *name)
{
	g_autofree char *path = g_build_filename(sbd->jobs_dir, name, NULL);
	guint64 n;

	if (!g_ascii_string_to_unsigned(name + strlen("spare."), 10, 0, G_MAXUINT - 1,
	    &n, NULL) || spares(sbd)->len >= SPARE_MAX) {
		(void)g_unlink(path);
		return;
	}
	sbd->spare_next = MAX(sbd->spare_next, (guint)n + 1);
	g_ptr_array_add(spares(sbd), g_steal_pointer(&path));
}

/*
 * path replaced by text through a temporary file renamed over it, with no
 * sync (GLib's "consistent" mode syncs the file and its directory).  The
 * temporary file is a spare record when there is one; else, as one
 * sbatchd owns the state directory (its lock), a fixed name; one left by
 * a crash is overwritten by the next save and never read (it does not
 * end in ".job").
 */
static gboolean
replace_unsynced(Sbd *sbd, const char *path, const char *text, gsize len,
    GError **error)
{
	g_autofree char *tmp = NULL;
	int fd = spare_take(sbd, &tmp);
	gsize off = 0;

	if (fd < 0) {
		tmp = g_strconcat(path, ".tmp", NULL);
		sbd_fresh_place(sbd, tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	}

	while (fd >= 0 && off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (gsize)n;
	}
	if (fd < 0 || off < len || close(fd) != 0 || rename(tmp, path) != 0) {
		int e = errno;

		if (fd >= 0 && off < len)
			close(fd);
		(void)g_unlink(tmp);
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
		    "cannot write %s: %s", path, g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

/*
 * A finished job's record over its running record, in place: one pwrite()
 * from offset 0 and a sync, no new file.  The finished record holds every
 * key of the running one plus the end, so it is never shorter and covers
 * the old bytes whole; a single write is never torn by a crash of sbatchd.
 * If the machine crashes and tears it, the record is ignored at restart,
 * and the job's final report, synced in the spool before this, still
 * reaches mbatchd.  FALSE (nothing written) when it cannot be done this
 * way; the caller then replaces the file.
 */
static gboolean
overwrite_in_place(const char *path, const char *text, gsize len, gboolean sync)
{
	struct stat sb;
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	gboolean ok;

	if (fd < 0)
		return FALSE;
	ok = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (gsize)sb.st_size <= len && len <= G_MAXSSIZE &&
	    pwrite(fd, text, len, 0) == (ssize_t)len && (!sync || fdatasync(fd) == 0);
	close(fd);
	return ok;
}

/* The record: the [job] group, then the job's [report] group (what was
 * the <key>.info file: one file fewer to create per start). */
static char *
record_text(const SbdJob *job, gsize *len)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *text = NULL;
	char *all;

	g_key_file_set_uint64(kf, GROUP, "job_id", job->id);
	g_key_file_set_uint64(kf, GROUP, "array_index", job->index);
	g_key_file_set_uint64(kf, GROUP, "instance", job->instance);
	g_key_file_set_integer(kf, GROUP, "pgid", job->pgid);
	set_str(kf, "user", job->user);
	g_key_file_set_uint64(kf, GROUP, "uid", job->uid);
	g_key_file_set_uint64(kf, GROUP, "gid", job->gid);
	g_key_file_set_int64(kf, GROUP, "start_time", job->start_time);
	g_key_file_set_uint64(kf, GROUP, "runlimit_s", job->runlimit_s);
	g_key_file_set_integer(kf, GROUP, "warning_signal", job->warning_signal);
	g_key_file_set_uint64(kf, GROUP, "warning_time_s", job->warning_time_s);
	g_key_file_set_boolean(kf, GROUP, "warning_sent", job->warning_sent);
	g_key_file_set_uint64(kf, GROUP, "terminate_interval_s", job->term_interval_s);
	set_str(kf, "stdout", job->out_path);
	set_str(kf, "stderr", job->err_path);
	set_str(kf, "kill_reason", job->kill_reason);
	g_key_file_set_boolean(kf, GROUP, "forget", job->forget);
	if (job->report_begun)
		g_key_file_set_boolean(kf, GROUP, "report_begun", TRUE);
	sbd_usage_save(job, kf);
	if (job->finished)
		save_end(kf, job);
	text = g_key_file_to_data(kf, len, NULL);
	if (job->info == NULL)
		return g_steal_pointer(&text);
	all = g_strconcat(text, "\n", job->info, NULL);
	*len = strlen(all);
	return all;
}

gboolean
sbd_store_save(const SbdJob *job, GError **error)
{
	g_autofree char *path = job_file(job->sbd, job->key);
	gsize len;
	g_autofree char *text = record_text(job, &len);

	/* Always replaced atomically, so a restarted sbatchd reads a whole
	 * record.  Synced only once the job has finished: the record of a
	 * running job serves to adopt its processes after sbatchd restarts,
	 * and a crash of the machine, the only thing a sync guards against,
	 * takes those processes with it.  The end of a job (its exit status
	 * and final report seq) must survive that crash. */
	if (job->finished && overwrite_in_place(path, text, len, TRUE))
		return TRUE;
	if (job->finished)
		return g_file_set_contents_full(path, text, (gssize)len,
		    G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
		    0600, error);
	return replace_unsynced(job->sbd, path, text, len, error);
}

/* A single write is never torn by a crash of sbatchd; a crash of the
 * machine takes the job's processes and the report's reason with it. */
gboolean
sbd_store_mark(const SbdJob *job, GError **error)
{
	g_autofree char *path = job_file(job->sbd, job->key);
	gsize len;
	g_autofree char *text = record_text(job, &len);

	if (overwrite_in_place(path, text, len, FALSE))
		return TRUE;
	return sbd_store_save(job, error);
}

void
sbd_store_remove(const SbdJob *job)
{
	g_autofree char *path = job_file(job->sbd, job->key);

	if (!spare_keep(job->sbd, path) && g_unlink(path) < 0 && errno != ENOENT)
		sbd_log(BS_LOG_WARNING, job, "cannot remove %s: %s", path, g_strerror(errno));
	if (job->status_path != NULL) {
		g_autofree char *post = sbd_job_post_override_path(job->status_path);

		(void)g_unlink(job->status_path);
		(void)g_unlink(post);
	}
	g_free(path);
	path = g_strconcat(job->sbd->jobs_dir, "/", job->key, ".script", NULL);
	(void)g_unlink(path);
}

static char *
get_str(GKeyFile *kf, const char *k)
{
	return g_key_file_get_string(kf, GROUP, k, NULL);
}

static void
load_end(GKeyFile *kf, SbdJob *job)
{
	job->finished = g_key_file_get_boolean(kf, GROUP, "finished", NULL);
	if (!job->finished)
		return;
	job->exit_status = g_key_file_get_integer(kf, GROUP, "exit_status", NULL);
	job->term_signal = g_key_file_get_integer(kf, GROUP, "term_signal", NULL);
	job->final_seq = g_key_file_get_uint64(kf, GROUP, "final_seq", NULL);
	job->usage.utime_us = g_key_file_get_int64(kf, GROUP, "utime_us", NULL);
	job->usage.stime_us = g_key_file_get_int64(kf, GROUP, "stime_us", NULL);
	job->usage.peak_rss_kb = g_key_file_get_int64(kf, GROUP, "peak_rss_kb", NULL);
	job->state = job->exit_status == 0 && job->term_signal == 0 ?
	    BASALT__JOB_STATE__JOB_STATE_DONE : BASALT__JOB_STATE__JOB_STATE_EXIT;
}

/* The [report] group, as text; from an older sbatchd, the <key>.info file
 * it wrote beside the record, which goes when the job ends. */
static void
load_info(Sbd *sbd, GKeyFile *kf, SbdJob *job)
{
	g_autofree char *name = NULL;
	g_autofree char *path = NULL;

	if (g_key_file_has_group(kf, "report")) {
		g_autoptr(GKeyFile) rest = g_key_file_new();
		g_autofree char *all = g_key_file_to_data(kf, NULL, NULL);

		/* The whole record again, its [job] group dropped. */
		if (g_key_file_load_from_data(rest, all, (gsize)-1, G_KEY_FILE_NONE, NULL) &&
		    g_key_file_remove_group(rest, GROUP, NULL))
			job->info = g_key_file_to_data(rest, NULL, NULL);
		return;
	}
	name = g_strconcat(job->key, ".info", NULL);
	path = g_build_filename(sbd->jobs_dir, name, NULL);
	if (g_file_get_contents(path, &job->info, NULL, NULL))
		job->legacy_info = g_steal_pointer(&path);
}

static SbdJob *
load_one(Sbd *sbd, const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *status = NULL;
	SbdJob *job;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, error))
		return NULL;
	if (!g_key_file_has_key(kf, GROUP, "job_id", NULL) ||
	    !g_key_file_has_key(kf, GROUP, "pgid", NULL)) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND,
		    "no job_id or pgid");
		return NULL;
	}
	job = g_new0(SbdJob, 1);
	job->sbd = sbd;
	job->id = g_key_file_get_uint64(kf, GROUP, "job_id", NULL);
	job->index = (guint32)g_key_file_get_uint64(kf, GROUP, "array_index", NULL);
	job->instance = (guint32)g_key_file_get_uint64(kf, GROUP, "instance", NULL);
	job->key = sbd_job_key(job->id, job->index, job->instance);
	job->pgid = g_key_file_get_integer(kf, GROUP, "pgid", NULL);
	job->user = get_str(kf, "user");
	job->uid = (uid_t)g_key_file_get_uint64(kf, GROUP, "uid", NULL);
	job->gid = (gid_t)g_key_file_get_uint64(kf, GROUP, "gid", NULL);
	job->start_time = g_key_file_get_int64(kf, GROUP, "start_time", NULL);
	job->runlimit_s = g_key_file_get_uint64(kf, GROUP, "runlimit_s", NULL);
	job->warning_signal = g_key_file_get_integer(kf, GROUP, "warning_signal", NULL);
	job->warning_time_s = g_key_file_get_uint64(kf, GROUP, "warning_time_s", NULL);
	job->warning_sent = g_key_file_get_boolean(kf, GROUP, "warning_sent", NULL);
	job->term_interval_s = (guint)g_key_file_get_uint64(kf, GROUP,
	    "terminate_interval_s", NULL);
	job->out_path = get_str(kf, "stdout");
	job->err_path = get_str(kf, "stderr");
	job->kill_reason = get_str(kf, "kill_reason");
	job->forget = g_key_file_get_boolean(kf, GROUP, "forget", NULL);
	job->report_begun = g_key_file_get_boolean(kf, GROUP, "report_begun", NULL);
	load_info(sbd, kf, job);
	status = g_strconcat(job->key, ".status", NULL);
	job->status_path = g_build_filename(sbd->jobs_dir, status, NULL);
	job->state = BASALT__JOB_STATE__JOB_STATE_RUN;
	sbd_usage_load(job, kf);
	load_end(kf, job);
	return job;
}

GPtrArray *
sbd_store_load_all(Sbd *sbd)
{
	GPtrArray *jobs = g_ptr_array_new();
	GDir *dir = g_dir_open(sbd->jobs_dir, 0, NULL);
	const char *name;

	if (dir == NULL)
		return jobs;
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *path = NULL;
		g_autoptr(GError) err = NULL;
		SbdJob *job;

		if (g_str_has_prefix(name, "spare."))
			spare_found(sbd, name);
		if (g_str_has_prefix(name, "fresh."))
			sbd_fresh_found(sbd, name);
		if (!g_str_has_suffix(name, ".job"))
			continue;
		path = g_build_filename(sbd->jobs_dir, name, NULL);
		job = load_one(sbd, path, &err);
		if (job == NULL) {
			sbd_log(BS_LOG_ERR, NULL, "ignoring job file %s: %s", path, err->message);
			continue;
		}
		g_ptr_array_add(jobs, job);
	}
	g_dir_close(dir);
	return jobs;
}
