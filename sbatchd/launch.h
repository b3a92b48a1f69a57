/*
 * Starting a job's processes as the job's owner.
 *
 * The caller (sbatchd) fills a BsLaunchSpec from the job it was given and
 * calls bs_launch().  Everything that can fail for a reason a person can
 * fix (root job not allowed, user unknown, cwd missing, output file not
 * writable, shell missing) comes back as a GError with a readable message,
 * not as a mysterious exit code of the job: the child reports a failed
 * setup step and its errno over a close-on-exec pipe before it gives up.
 *
 * The job runs in a new session (setsid), so its process group id equals its
 * session id equals the pid that bs_launch() returns.  Every later control
 * action (bs_jobctl_*) addresses that group, and the reaper (reaper.h) calls
 * the job finished only once the group is empty.
 *
 * Exit status after an sbatchd restart.  A job's leader is our child only as
 * long as this sbatchd lives; after a restart nobody can wait for it any more
 * (its processes were re-parented to init).  So when status_path is set, the
 * leader is bs-jobwrap (jobwrap.c), a tiny program that runs the shell as its
 * child, waits for it, and writes one line to status_path
 * ("exit=N core=0 utime_us=.. stime_us=.. maxrss_kb=..", or "signal=N ..."),
 * then exits the way the command did, so a live sbatchd still sees the
 * command's wait status as the leader's.  bs-jobwrap ignores the catchable
 * signals that are meant for the job, so bkill's SIGINT/SIGTERM reach the
 * command but not the record keeper; only a SIGKILL of the whole group loses
 * the record, and then a live sbatchd still has the leader's wait status
 * (killed by signal 9) while a restarted one reports the status as unknown
 * (BS_EXIT_UNKNOWN).  The file is created by sbatchd (in its state dir,
 * which the job's owner need not be able to write) before the fork and
 * handed to bs-jobwrap as an open descriptor.  The wrapper also measures the
 * command's CPU and peak memory cleanly (see jobwrap.c for why a command
 * forked directly from sbatchd cannot), so sbatchd should always give a
 * status path; without one the job's peak memory is known only from
 * samples (bs_reaper_sample) and a restart loses the exit status.
 *
 * Relative output paths are relative to cwd.  A cwd that cannot be
 * entered fails the launch, unless cwd_fallback names where to run instead
 * (LSF's /tmp: lsf.conf LSB_EXIT_IF_CWD_NOTEXIST, sbd-start.c).
 */
#ifndef BS_SBD_LAUNCH_H
#define BS_SBD_LAUNCH_H

#include <glib.h>
#include <sys/resource.h>
#include <sys/types.h>

/* One setrlimit() applied to the job (RLIMIT_AS, RLIMIT_CORE, RLIMIT_CPU...). */
typedef struct {
	int resource;
	struct rlimit limit;
} BsLaunchLimit;

typedef struct {
	gint64 job_id;
	int array_index;          /* 0 when the job is not an array element */

	/* Exactly one of command (run by "shell -c") or script (a file run by
	 * "shell script").  job_starter, when set, wraps it: %USRCMD in the
	 * starter is replaced by the user command, else the command is appended
	 * after a blank (LSF JOB_STARTER). */
	const char *command;
	const char *script;
	const char *job_starter;
	const char *shell;        /* NULL: /bin/sh */
	/* bsub -L: an absolute path.  The command line runs under it as a
	 * login shell (argv[0] "-name", as login(1) starts one), so it reads
	 * the user's login files first; it replaces shell. */
	const char *login_shell;

	/* Identity.  When sbatchd runs as root the child switches to uid/gid
	 * with the supplementary groups of user (initgroups semantics).  uid 0
	 * is refused unless allow_root.  When sbatchd is not root, uid must be
	 * sbatchd's own uid and nothing is switched. */
	uid_t uid;
	gid_t gid;
	const char *user;         /* for the group list; NULL: gid only */
	gboolean allow_root;

	const char *cwd;          /* NULL: keep sbatchd's; missing dir: error */
	const char *cwd_fallback; /* entered when cwd cannot be; NULL: none */
	/* The full KEY=value list, NULL: empty.  LSB_JOBID (and LSB_JOBINDEX
	 * for an array element) are set on top, replacing any given. */
	char **env;
	gboolean set_umask;       /* FALSE: keep sbatchd's umask */
	mode_t umask;             /* the submitter's umask */
	int nice;                 /* 0: unchanged, else setpriority() value */
	const BsLaunchLimit *limits;
	guint n_limits;
	/* A cgroup's cgroup.procs the child moves itself into before it
	 * switches user (sbatchd/job-cgroup.c); NULL: stay in sbatchd's.  A
	 * failure to join is not a launch failure: sbatchd's own sampling
	 * still enforces the job's memory limits. */
	const char *cgroup_procs;

	/* Standard streams (bsub -i, -o/-oo, -e/-eo).  Paths may contain %J
	 * (job id) and %I (array index, 0 when none) and are relative to cwd.
	 * stdout_path NULL: spool_path, or /dev/null without one.  stderr_path
	 * NULL: wherever stdout goes (bsub -o without -e).  Files are opened by
	 * the child after it became the job's owner. */
	const char *stdin_path;   /* NULL: /dev/null */
	const char *stdout_path;
	gboolean stdout_overwrite;
	const char *stderr_path;
	gboolean stderr_overwrite;
	const char *spool_path;
	/* Directories to create as the job's owner before the streams are
	 * opened (bsub -outdir, parents first; one that exists is fine);
	 * NULL-terminated, NULL: none. */
	char *const *mkdirs;

	/* Pre- and post-execution commands, [0] the queue's, [1] the job's
	 * (bsub -E/-Ep, else the application's); NULL: none.  Run by
	 * bs-jobwrap (jobwrap.c), so only with a status_path: pre [0] then
	 * [1] before the job, post [1] then [0] after it. */
	const char *pre_exec[2];
	const char *post_exec[2];
	/* Seconds each pre-exec / post-exec may run, 0: no bound.  One over
	 * it is killed with the job's whole group: a pre-exec then fails
	 * with 98 (LSF's), a post-exec is recorded as failed with 98. */
	guint pre_timeout_s;
	guint post_timeout_s;
	/* LSB_PRE_POST_EXEC_USER: the queue's pre/post-exec, and the
	 * application profile's, run as this user (resolved by sbatchd on
	 * this host) instead of the job's; NULL: as the job's user.  bsub
	 * -E/-Ep always run as the job's user.  Needs a root sbatchd: the
	 * wrapper then stays root and gives each child its identity. */
	const char *hook_user;
	uid_t hook_uid;
	gid_t hook_gid;
	/* pre_exec[1] / post_exec[1] are the application profile's (no bsub
	 * -E / -Ep): they run as hook_user too. */
	gboolean pre_exec_profile;
	gboolean post_exec_profile;
	/* The profile has a POST_EXEC (run now or overridden by bsub -Ep):
	 * a bmod -Epn of the running job brings it back, to run as
	 * hook_user, so the wrapper must be able to become that user. */
	gboolean profile_post_exec;

	/* Optional: set to the BsChildStep (launch-report.h) whose failure
	 * made bs_launch() fail, 0 when it failed before the child ran. */
	int *failed_step;

	/* Optional: called in the parent with the child's pid (its process
	 * group) right after the fork, while the child waits before its exec:
	 * nothing of the job runs until this returns.  sbatchd records the run
	 * here, so a sbatchd killed at any moment after the fork leaves a run
	 * its successor knows (and can kill), never an unknown one; a child
	 * whose parent died before the go reads end of file and exits. */
	void (*on_forked)(pid_t pgid, void *data);
	void *on_forked_data;

	const char *status_path;  /* NULL: no wrapper, no status record */
	/* With a status_path: a file created empty and handed to bs-jobwrap
	 * open for reading (-p), whose contents at the job's end replace
	 * post_exec[1] (bmod -Ep of a running job); NULL: none. */
	const char *post_override_path;
	const char *wrapper;      /* bs-jobwrap; NULL: the installed one */

	/* An interactive job (bsub -I*): the read end of the setup pipe that
	 * bs-jobwrap's relay reads (irelay.h), or -1.  It needs status_path
	 * (the wrapper); the launch closes its own copy. */
	int interactive_fd;
} BsLaunchSpec;

/*
 * Start the job.  On success *pgid_out is the leader's pid, which is also
 * the job's process group and session id; the caller hands it to the
 * reaper (bs_reaper_watch) before returning to the main loop.  On failure
 * no process of the job is left behind (a child that failed its setup has
 * been reaped here).
 */
gboolean bs_launch(const BsLaunchSpec *spec, pid_t *pgid_out, GError **error);

/* %J -> job id, %I -> array index; other characters are copied.  */
char *bs_launch_expand_path(const char *tmpl, gint64 job_id, int array_index);

/* The command line given to "shell -c": starter and user command combined. */
char *bs_launch_command_line(const BsLaunchSpec *spec);

/* How a job ended, as seen in a wait status or read back from status_path. */
typedef enum {
	BS_EXIT_UNKNOWN = 0,      /* nobody could observe it */
	BS_EXIT_CODE,             /* exited; code is the exit code */
	BS_EXIT_SIGNAL,           /* killed; signo, core */
} BsExitKind;

typedef struct {
	BsExitKind kind;
	int code;
	int signo;
	gboolean core;
} BsExitStatus;

BsExitStatus bs_exit_from_wait_status(int wstatus);

/* What the status wrapper recorded about the command: its end and the
 * resource usage of the command's process tree (wait4 of the command, so
 * the wrapper's own copy of sbatchd's memory is not counted). */
typedef struct {
	BsExitStatus exit;
	gint64 utime_us;
	gint64 stime_us;
	gint64 maxrss_kb;
	gboolean link_lost;       /* an interactive job's bsub went away first */
} BsStatusRecord;

/* Read a record written by the wrapper.  FALSE with exit.kind
 * BS_EXIT_UNKNOWN when there is none: a missing or empty file (no error
 * set), or a partial line (the wrapper was killed mid-write). */
gboolean bs_status_record_read(const char *path, BsStatusRecord *out, GError **error);
/* The one-line text form, as the wrapper writes it (for tests and tools). */
char *bs_status_record_format(const BsStatusRecord *rec);
/* "exit 3", "signal 9", "signal 11 (core dumped)", "unknown". */
char *bs_exit_describe(const BsExitStatus *st);

#endif
