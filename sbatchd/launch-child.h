/*
 * The part of a launch that runs in the child, between fork() and exec().
 *
 * Internal to launch.c.  sbatchd may have threads, so after fork() the child
 * may only make async-signal-safe calls: no malloc, no stdio, no NSS
 * lookups, no GLib.  The parent therefore prepares everything (paths with
 * %J/%I expanded, the group list that initgroups() would have computed, argv
 * and envp) in a BsChildPlan, and the child only makes system calls.
 */
#ifndef BS_SBD_LAUNCH_CHILD_H
#define BS_SBD_LAUNCH_CHILD_H

#include <glib.h>
#include <sys/types.h>

#include "launch.h"
#include "launch-report.h"

typedef struct {
	int report_fd;        /* write end of the report pipe, close-on-exec */
	int status_fd;        /* >= 3 with a wrapper, else -1 */
	int interactive_fd;   /* the wrapper's interactive setup pipe, or -1 */
	int post_fd;          /* the wrapper's post-exec override (-p), or -1 */
	int env_fd;           /* a root wrapper's job environment (-e), or -1 */
	int go_fd;            /* read end of the go pipe, or -1: no gate */
	int go_wr_fd;         /* its write end, which the child closes */

	gboolean switch_ids;
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	size_t n_groups;
	/* The wrapper stays root to run hooks as another user
	 * (LSB_PRE_POST_EXEC_USER): the owner's steps (directories, cwd,
	 * script, streams) run with the owner's ids, root is kept as the
	 * saved id and taken back just before the exec. */
	gboolean root_wrapper;

	const BsLaunchLimit *limits;
	guint n_limits;
	const char *cgroup_procs;  /* NULL: none */
	int nice;
	gboolean set_umask;
	mode_t umask;
	const char *cwd;
	const char *cwd_fallback;  /* when cwd cannot be entered; NULL: fail */
	char *const *mkdirs;  /* created as the owner, EEXIST is fine */

	const char *stdin_path;
	const char *stdout_path;
	int stdout_flags;     /* O_APPEND or O_TRUNC, with O_WRONLY|O_CREAT */
	const char *stderr_path;   /* NULL: duplicate stdout */
	int stderr_flags;

	const char *script;   /* checked readable as the owner; may be NULL */
	const char *path;     /* what to exec: bs-jobwrap or the shell */
	gboolean wrapped;     /* path is bs-jobwrap: report_fd and status_fd
	                       * must survive the exec */
	char *const *argv;
	char *const *envp;
} BsChildPlan;

/* Never returns: execs the job or reports a step and _exit()s. */
G_GNUC_NORETURN void bs_child_run(const BsChildPlan *plan);

#endif
