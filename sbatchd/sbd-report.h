/*
 * LSF's job report: the summary that ends a job's -o file, or goes by mail
 * (bsub -N, or no -o: then with the job's spooled output after it; -B for
 * the start), written on the execution
 * host once the job's processes are gone and before sbatchd reports the
 * job finished, so that when bjobs says DONE or EXIT the file is complete.
 *
 * What the report needs about the job is saved in its state file when it
 * starts (the record's [report] group, sbd-store.c), so a restarted
 * sbatchd can still write it; it names the job's host file and temporary
 * directory too, which are removed here.
 *
 * Everything the user controls is written or run as the user: the report
 * is appended to the -o file by a child that has switched to the job's
 * owner, and the mail program (lsf.conf LSB_MAILPROG, an administrator's
 * choice; bsub only names the recipient) runs as the owner too.
 */
#ifndef BS_SBD_SBD_REPORT_H
#define BS_SBD_SBD_REPORT_H

#include <glib.h>

#include "host.pb-c.h"
#include "job-report-format.h"
#include "launch.h"
#include "sbd.h"

/* Saved at start; the info the report and the clean-up need. */
typedef struct {
	const Basalt__StartJobRequest *req;
	const char *user;
	uid_t uid;
	gid_t gid;
	const char *home;
	const char *cwd;
	const char *out_path;     /* the -o file, NULL without -o */
	const char *err_path;
	const char *hostfile;
	const char *tmpdir;
	/* How -o was expanded, for a later bmod -o (sbd_job_info_set_out). */
	const char *path_base;    /* -outdir, else the working directory */
	const char *group;        /* %G */
} SbdJobInfo;

/* Into job->info, saved with the job's record from then on. */
void sbd_job_info_save(Sbd *sbd, SbdJob *job, const SbdJobInfo *info);
/* Whether path is a directory the user can see (stat in a child that has
 * become the user, so root's view of private directories never leaks). */
gboolean sbd_is_dir_as_user(const char *user, uid_t uid, gid_t gid,
    const char *path);

/* bmod -o / -on of the running job: the job report goes to this -o
 * (expanded as at the start, as the job's owner sees it) or, NULL or "",
 * to no file.  The job's own output stays where it is. */
gboolean sbd_job_info_set_out(SbdJob *job, const char *tmpl, GError **error);

/* bsub -B: mail that the job started (after the launch succeeded). */
void sbd_job_begin_mail(Sbd *sbd, const char *key, gint64 start_time);

/* The job's processes are gone (job_finish, before the final report):
 * write the report or mail it unless the run was forgotten, remove the
 * temporary directory, the host file and the info file.  TRUE: done;
 * FALSE: a child is still appending the report, and
 * sbd_job_end_files_done(job) (sbd-job.c) is called once it has exited
 * or was given up on, from the main loop. */
gboolean sbd_job_end_files(SbdJob *job);
/* The reaper reaped pid, which belongs to no job: TRUE when it was a report
 * writer (and the job's end went on). */
gboolean sbd_report_child_exited(Sbd *sbd, pid_t pid, int wstatus);
/* sbatchd stops: forget the writers (a restarted sbatchd finds the jobs
 * unfinished and ends them again). */
void sbd_report_stop(void);

#endif
