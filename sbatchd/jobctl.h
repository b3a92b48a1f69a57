/*
 * Controlling a running job: suspend, resume, signal, terminate.
 *
 * Every action addresses the job's whole process group (pgid = the
 * leader's pid, see launch.h), so children and grandchildren of the job
 * are stopped, continued and killed with it; and, through the tree hook
 * the daemon sets, its descendants that left the group.
 *
 * Terminate follows LSF's default JOB_CONTROLS TERMINATE action: SIGINT,
 * then SIGTERM, then SIGKILL, spaced by JOB_TERMINATE_INTERVAL (given here
 * in milliseconds so tests can use a short one), stopping as soon as the
 * group is gone.  A stopped process does not act on SIGINT or SIGTERM until
 * it is continued (the signal stays pending), so each of those is followed
 * by SIGCONT: terminating a suspended job works without resuming it first.
 *
 * JOB_CONTROLS actions given as commands (SUSPEND[cmd]) are the daemon's
 * business: it runs them with bs_launch(); this module only sends signals.
 */
#ifndef BS_SBD_JOBCTL_H
#define BS_SBD_JOBCTL_H

#include <glib.h>
#include <sys/types.h>

/*
 * Called with (pgid, signo) just before every signal this module sends to
 * a group, so that the daemon can send it to the job's processes outside
 * the group (reaper.h).  Before, not after: a SIGKILL to the group kills
 * bs-jobwrap, through which the tree is found while it lives.
 */
typedef void (*BsJobctlTreeHook)(pid_t pgid, int signo, gpointer data);
void bs_jobctl_set_tree_hook(BsJobctlTreeHook hook, gpointer data);

/* Send signo to the group.  A group that no longer exists is an error. */
gboolean bs_jobctl_signal(pid_t pgid, int signo, GError **error);
/* signo 0: SIGSTOP (LSF's default for batch jobs; SIGTSTP would be
 * discarded by the kernel, the job's group being orphaned). */
gboolean bs_jobctl_suspend(pid_t pgid, int signo, GError **error);
/* signo 0: SIGCONT. */
gboolean bs_jobctl_resume(pid_t pgid, int signo, GError **error);

/*
 * Live processes of a job, for re-adoption after a restart: the members of
 * process group pgid that are also in session pgid (a job is its own
 * session, so a recycled number used as another group does not match).
 * A GArray of pid_t; empty when the job is gone.
 */
GArray *bs_jobctl_find_members(pid_t pgid);

typedef struct BsTerminate BsTerminate;
/* last_signal: the last signal sent before the group was found gone. */
typedef void (*BsTerminateDone)(pid_t pgid, int last_signal, gpointer data);

/*
 * Start the escalation on the default main context: SIGINT (+SIGCONT) now,
 * then one step per interval_ms.  done (optional) is called once, from the
 * main loop, when the group is gone; the BsTerminate is freed after it.
 */
BsTerminate *bs_jobctl_terminate(pid_t pgid, guint interval_ms,
                                 BsTerminateDone done, gpointer data);
/* Stop an escalation whose done has not been called yet; no callback. */
void bs_jobctl_terminate_cancel(BsTerminate *t);

#endif
