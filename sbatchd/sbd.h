/*
 * sbatchd, the daemon: what its parts share.
 *
 * The daemon is one GMainLoop thread and a handful of parts that each own
 * one concern, so each can be read (and reasoned about under failure) alone:
 *
 *   sbd.c        options, configuration, daemonizing, signals, main loop
 *   sbd-link.c   the one connection to mbatchd: dial, register, heartbeat,
 *                reconnect with backoff, send reports (HostService client)
 *   sbd-exec.c   ExecService: what mbatchd asks of us (start, signal, peek)
 *   sbd-job.c    the job table: reaper events, runlimit, re-adoption
 *   sbd-start.c  a StartJobRequest made into a launch (identity, env, files)
 *   sbd-store.c  job state files in the state directory
 *   sbd-spool.c  the report spool: every JobReport is on disk until acked
 *   sbd-load.c   host facts and load indices from /proc
 *   sbd-jobenv.c LSF's job environment, the host file, the per-job TMPDIR
 *   sbd-report.c the job report at the end of the -o file, job mail
 *   sbd-tasks.c  the task port: blaunch starts a job's tasks on this host
 *
 * Jobs never depend on the link: a job keeps running while mbatchd is away
 * or sbatchd itself restarts, and what it did waits in the spool.
 */
#ifndef BS_SBD_SBD_H
#define BS_SBD_SBD_H

#include <glib.h>
#include <sys/types.h>

#include "common.pb-c.h"
#include "host.pb-c.h"
#include "conf/conf.h"
#include "rpc/rpc.h"
#include "util/log.h"

#include "jobctl.h"
#include "job-limits.h"
#include "launch.h"
#include "reaper.h"

typedef struct Sbd Sbd;
typedef struct SbdSpool SbdSpool;

/* One job this host runs, or ran and has not yet been acknowledged. */
typedef struct {
	Sbd *sbd;
	guint64 id;
	guint32 index;
	guint32 instance;         /* mbatchd's run number; 0 from an older mbatchd */
	char *key;                /* "<id>.<index>[.<instance>]": table key, file stem */
	char *user;
	uid_t uid;
	gid_t gid;
	pid_t pgid;
	gint64 start_time;        /* Unix seconds */
	guint64 runlimit_s;       /* 0: none */
	guint term_interval_s;    /* JOB_TERMINATE_INTERVAL for this job */
	char *out_path;           /* where stdout goes (absolute), for peek */
	char *err_path;           /* stderr when separate, or NULL */
	char *status_path;        /* bs-jobwrap's record */
	Basalt__JobState state;   /* RUN, USUSP, DONE, EXIT */
	gboolean finished;
	int exit_status;          /* exit code, 128+signal when killed, -1 unknown */
	int term_signal;
	BsJobUsage usage;         /* final usage once finished */
	guint64 final_seq;        /* seq of the final report; 0 before */
	char *kill_reason;        /* why sbatchd killed it ("RUNLIMIT was reached;") */
	gboolean forget;          /* mbatchd no longer wants it: no more reports */
	guint runlimit_src;
	/* The job warning action before the run limit (bsub -wa/-wt and
	 * their defaults, sbd-warning.c): the signal (0: none), how long
	 * before the limit, whether it went, the timer. */
	int warning_signal;
	guint64 warning_time_s;
	gboolean warning_sent;
	guint warning_src;
	BsTerminate *term;
	/* job-prepost.c: what the wrapper recorded at the end, and the
	 * environment a JOB_CONTROLS command gets (not kept across a restart:
	 * a re-adopted job's commands see LSB_JOB* only). */
	guint preexec_failed;     /* 0, or the level of the pre-exec that failed */
	int postexec_status;      /* non-zero: a post-exec failed with it */
	char **env;
	/* Limits and accounting (job-limits.h, job-usage.c, job-cgroup.c). */
	SbdJobLimits limits;      /* enforced over the whole job */
	char *term_reason;        /* TERM_* once a limit ended it, or NULL */
	char *cgroup;             /* its cgroup v2 directory, or NULL */
	/* What the job report and the clean-up at the end need, the text of
	 * the record's [report] group (sbd-report.c), saved with the record;
	 * NULL when there is none.  report_begun: the end's report was
	 * started, so a restarted sbatchd does not write it twice. */
	char *info;
	gboolean report_begun;
	char *legacy_info;        /* a <key>.info of an older sbatchd, to remove */
	gint64 mem_sum_kb;        /* sampled memory, summed: AVG MEM */
	guint64 mem_samples;
	guint max_nprocs, max_nthreads, nthreads;
	gint64 swap_kb, max_swap_kb;
} SbdJob;

struct Sbd {
	char *envdir;
	BsConfig *cfg;
	char *host;               /* the name we register as (-N) */
	char *statedir;           /* -S */
	char *jobs_dir;           /* statedir/jobs */
	/* Records of acknowledged jobs kept for reuse (sbd-store.c): paths
	 * of jobs_dir/spare.N, and the next N. */
	GPtrArray *spare_records;
	guint spare_next;
	/* Empty files made ahead of the starts (sbd-fresh.c). */
	GPtrArray *fresh;
	guint fresh_next;
	guint fresh_src;
	char *output_dir;         /* statedir/output */
	char *wrapper;            /* bs-jobwrap */
	guint port;               /* -p, reported in RegisterHost */
	int task_port;            /* -r, else LSF_RES_PORT; -1: lsf.conf's */
	gint64 boot_time;
	gboolean allow_root;      /* LSF_ROOT_REX or LSB_ALLOW_ROOT_JOBS */
	gboolean exit_if_no_cwd;  /* LSB_EXIT_IF_CWD_NOTEXIST: else run in /tmp */
	guint reaper_poll_ms;
	GMainLoop *loop;
	BsReaper *reaper;
	GHashTable *jobs;         /* key -> SbdJob* */

	/* link (sbd-link.c) */
	BsRpcConn *conn;
	gboolean registered;
	guint reconnect_src;
	guint backoff_ms;
	guint heartbeat_src;
	guint heartbeat_s;
	guint terminate_interval_s;
	guint sample_src;
	SbdSpool *spool;
	char *cgroup_parent;      /* per-job cgroups go here; NULL: none */
};

/* Logging with the host (and job) in every line. */
void sbd_log_host(const char *host);
void sbd_log(BsLogLevel level, const SbdJob *job, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

/* lsf.conf values. */
const char *sbd_conf_value(const Sbd *sbd, const char *key);

/* sbd-auth.c: MUNGE on the link to mbatchd. */
gboolean sbd_auth_enabled(const Sbd *sbd);
/* The hello credential for opts (role and name set) and the master check;
 * the returned bytes back opts->credential until the dial is made. */
GBytes *sbd_auth_dial(Sbd *sbd, BsRpcDialOptions *opts, GError **err);
gboolean sbd_conf_flag(const Sbd *sbd, const char *key);

/* sbd-interactive.c: the setup pipe of an interactive job's relay: its
 * read end (> 0), 0 for a batch job, -1 with error when refused. */
int sbd_interactive_setup(Sbd *sbd, const Basalt__StartJobRequest *req,
    GError **error);
/* An interactive job's shell moves its jobs to process groups of their
 * own inside the job's session (sid = pgid): a suspend, resume or signal
 * of the job reaches them too.  Nothing for a batch job. */
void sbd_interactive_signal_session(pid_t pgid, int sig);

/* sbd-link.c */
void sbd_link_start(Sbd *sbd);
void sbd_link_stop(Sbd *sbd);
/* A new report is in the spool: send it if we can. */
void sbd_link_kick(Sbd *sbd);

/* sbd-exec.c */
extern Basalt__ExecService_Service sbd_exec_service;
void sbd_exec_init(Sbd *sbd);
/* bpeek: read the job's output as its user in a child and reply through
 * closure(call) when it is done; FALSE (nothing deferred) when no child
 * could be started. */
gboolean sbd_peek_start(Sbd *sbd, SbdJob *job, guint64 offset,
    Basalt__PeekReply_Closure closure, void *call, GError **error);

/* sbd-job.c */
void sbd_jobs_init(Sbd *sbd);
void sbd_jobs_free(Sbd *sbd);
/* Re-adopt what the state directory says is ours (at start). */
void sbd_jobs_recover(Sbd *sbd);
/* The run instance of a job; instance 0 (an order from an mbatchd that
 * predates instances): the job's latest run here, a live one first. */
SbdJob *sbd_job_lookup(Sbd *sbd, guint64 id, guint32 index, guint32 instance);
char *sbd_job_key(guint64 id, guint32 index, guint32 instance);
/* sbd-start.c: launch a job from mbatchd's request.  Idempotent per run:
 * a repeated order (same instance) gets the run it already started,
 * running or finished; a new instance is a new run, even while an older
 * run of the same job is still being killed (the two are kept apart). */
gboolean sbd_job_start(Sbd *sbd, const Basalt__StartJobRequest *req,
    SbdJob **out, GError **error);
/* A job's owner on this host and its environment, as sbd_job_start()
 * decides them (for blaunch tasks, sbd-tasks.c). */
gboolean sbd_start_owner(Sbd *sbd, const Basalt__StartJobRequest *req,
    char **user, uid_t *uid, gid_t *gid, char **home, GError **error);
char **sbd_start_env(Sbd *sbd, const Basalt__StartJobRequest *req);
/* The name of group gid on this host, else the number. */
char *sbd_group_name(gid_t gid);
/* A launched job joins the table: saved, watched, reported. */
void sbd_job_started(SbdJob *job);
/* Fill a HostJob (strings and usage owned by the caller's arena). */
void sbd_job_to_host_job(SbdJob *job, Basalt__HostJob *hj,
    Basalt__ResourceUsage *usage);
/* Reports up to acked are in: drop the jobs whose final report it was. */
void sbd_jobs_acked(Sbd *sbd, guint64 acked);
void sbd_job_terminate(SbdJob *job, const char *reason);
/* mbatchd forgot that run (requeued, removed while away, FORGET): kill it
 * and drop it without reporting; instance 0: every run of the job. */
void sbd_job_forget(Sbd *sbd, guint64 id, guint32 index, guint32 instance);
void sbd_job_forget_all_of(Sbd *sbd, guint64 id);
/* The job report is written (sbd-report.h): the final report goes out. */
void sbd_job_end_files_done(SbdJob *job);
/* Report a state change of a job (spooled, then sent). */
void sbd_job_report(SbdJob *job, const char *reason);

/* job-modify.c: bmod of a running job (EXEC_ACTION_MODIFY): its new run,
 * CPU and memory limits and job-level post-exec. */
gboolean sbd_job_modify(SbdJob *job, const Basalt__SignalJobRequest *in,
    GError **error);
/* The file whose contents replace the job-level post-exec at the end
 * (jobwrap.c -p), beside the job's status record; NULL without one. */
char *sbd_job_post_override_path(const char *status_path);
/* sbd-warning.c: arm the warning action's timer for the run limit (no-op
 * without a signal, a time or a limit), or cancel it. */
void sbd_warning_arm(SbdJob *job);
void sbd_warning_cancel(SbdJob *job);
/* sbd-job.c: the run limit deadline again, after runlimit_s changed. */
void sbd_job_rearm_runlimit(SbdJob *job);
/* Save the job's state file (logged on failure). */
void sbd_job_save(SbdJob *job);
/* sbd.c: badmin hrestart / hshutdown: re-execute or exit once the
 * reply has left; jobs keep running. */
void sbd_daemon_stop_soon(Sbd *sbd, gboolean restart);

/* job-prepost.c */
/* The queue's and the job's pre/post-exec commands into the launch. */
void sbd_prepost_plan(Sbd *sbd, const Basalt__StartJobRequest *req, BsLaunchSpec *l);
/* Whether cmd, a job-level post-exec mbatchd sent with the stamp e, is
 * the application profile's POST_EXEC (not bsub -Ep / bmod -Ep's). */
gboolean sbd_prepost_is_profile(const Basalt__JobEffective *e, const char *cmd);
/* After the run: read the wrapper's pre/post-exec outcome into the job. */
void sbd_prepost_finish(SbdJob *job);
/* The report's reason for that outcome, or NULL. */
char *sbd_prepost_reason(const SbdJob *job);
/* Run a JOB_CONTROLS command for the job (as its user); susp_reason, for
 * SUSPEND, becomes LSB_SUSP_REASONS. */
gboolean sbd_job_control_command(SbdJob *job, const char *command,
    const char *susp_reason, GError **error);

/* start-refusal.c: a failed start whose cause is the job's own (launch
 * step `step`) becomes an SBD_JOB_ERROR whose code is the exit code the
 * job ends with; any other error is left alone (the host cannot run it). */
#define SBD_JOB_ERROR (sbd_job_error_quark())
GQuark sbd_job_error_quark(void);
void sbd_start_classify(Sbd *sbd, const Basalt__StartJobRequest *req,
    int step, GError **error);
/* sbd-tasks.c: the task port where blaunch starts a job's tasks. */
void sbd_tasks_start(Sbd *sbd);
void sbd_tasks_stop(Sbd *sbd);
/* An order for a job also reaches its blaunch tasks here; how many. */
guint sbd_tasks_job_action(Sbd *sbd, guint64 id, guint32 index,
    Basalt__ExecAction action, int signo, guint term_interval_s);
/* The link to mbatchd (sbd-link.c), for the task port's questions. */
BsRpcConn *sbd_link_conn(Sbd *sbd);
/* job-usage.c: accounting and whole-job limits from the samples. */
/* The sampling period: LSF_PIM_SLEEPTIME in lsf.conf, else 10 s. */
guint sbd_usage_interval_s(const Sbd *sbd);
/* Sample every job, keep its accounting, end those over a limit. */
void sbd_usage_sample(Sbd *sbd);
/* End the job for a limit: term is LSF's name (TERM_MEMLIMIT ...). */
void sbd_job_kill_for(SbdJob *job, const char *term);
/* The run's end: what the wait status or its cgroup says of a limit. */
void sbd_usage_finished(SbdJob *job, const BsJobEnd *end);
/* The accounting fields of a report. */
void sbd_usage_fill(const SbdJob *job, Basalt__ResourceUsage *u);
/* Limits, accounting and the end's name in the job's state file. */
void sbd_usage_save(const SbdJob *job, GKeyFile *kf);
void sbd_usage_load(SbdJob *job, GKeyFile *kf);

/* job-cgroup.c: cgroup v2 memory limits, when the host has them. */
void sbd_cgroup_init(Sbd *sbd);
/* Create the job's cgroup with its limits; the path of its cgroup.procs
 * for the launch (caller frees), or NULL when there is none. */
char *sbd_cgroup_create(SbdJob *job, const Basalt__JobEffective *e);
/* Did the kernel kill a process of the job for its memory.max? */
gboolean sbd_cgroup_oom_killed(const SbdJob *job);
/* A running job's new memory.max (bmod -M; NULL: no limit), when it has a
 * cgroup; a failure is logged. */
void sbd_cgroup_set_memory(SbdJob *job, const Basalt__JobLimit *kb);
void sbd_cgroup_remove(SbdJob *job);

/* sbd-fresh.c: path given a fresh empty file (root's, 0600) when one is
 * ready and path does not exist; the caller opens path as before. */
void sbd_fresh_place(Sbd *sbd, const char *path);
/* Make the pool whole again when the main loop is idle. */
void sbd_fresh_refill(Sbd *sbd);
/* A jobs/fresh.* found at start: removed. */
void sbd_fresh_found(Sbd *sbd, const char *name);
void sbd_fresh_free(Sbd *sbd);

/* sbd-store.c */
gboolean sbd_store_save(const SbdJob *job, GError **error);
/* The record rewritten where it is, unsynced, when it has not shrunk
 * (report_begun); else replaced as sbd_store_save does. */
gboolean sbd_store_mark(const SbdJob *job, GError **error);
void sbd_store_remove(const SbdJob *job);
/* Every job file in jobs_dir, parsed; a GPtrArray of SbdJob* (not watched). */
GPtrArray *sbd_store_load_all(Sbd *sbd);
void sbd_job_free(SbdJob *job);

/* sbd-spool.c */
SbdSpool *sbd_spool_open(const char *statedir, GError **error);
void sbd_spool_free(SbdSpool *sp);
/* Assign the next seq, append durably; returns the seq (0 on failure). */
guint64 sbd_spool_append(SbdSpool *sp, Basalt__JobReport *rep);
/* Drop every report with seq <= acked; returns how many were dropped. */
guint sbd_spool_ack(SbdSpool *sp, guint64 acked);
/* Reports in seq order with seq > after: GPtrArray of Basalt__JobReport*
 * (unpacked; free with basalt__job_report__free_unpacked). */
GPtrArray *sbd_spool_pending(SbdSpool *sp, guint64 after);
guint sbd_spool_length(const SbdSpool *sp);
gboolean sbd_spool_has_job(const SbdSpool *sp, guint64 id, guint32 index);

/* sbd-load.c */
typedef struct {
	guint ncpus;
	guint64 mem_kb, swap_kb;
	char *type, *model;
} SbdHostInfo;
void sbd_host_info(SbdHostInfo *info);
void sbd_host_info_clear(SbdHostInfo *info);
void sbd_load_read(Basalt__LoadIndices *load);

#endif
