/*
 * Reaping job processes and deciding when a job is finished.
 *
 * sbatchd is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so processes
 * a job leaves behind when its leader exits are re-parented to sbatchd
 * rather than to init, and we reap them and count their CPU time.  SIGCHLD
 * stays blocked and is read through a signalfd watched by the GMainLoop;
 * each wake-up drains every waitable child (exits, stops, continues) and
 * dispatches it to the job whose process group it belongs to.
 *
 * A job is its process tree, as LSF tracks it: the members of its process
 * group, and every descendant of theirs that left the group (setsid,
 * setpgid), found at each scan of /proc by walking parent links up to a
 * member.  bs-jobwrap is a child subreaper too, so an orphan of the job is
 * re-parented to it, not to us, while the job runs; one re-parented to us
 * (its wrapper was killed) stays the job's by its pid and start time.
 *
 * A job is finished when its process group is empty (kill(-pgid, 0) fails
 * with ESRCH) and no descendant that left it is alive, not when its leader
 * exits: `cmd &` in a job script keeps the job running.  Members whose
 * parent is not sbatchd (re-adopted jobs after a restart, or a member
 * whose parent left the group) do not raise SIGCHLD here, so while a job
 * waits for its tree to empty a timer polls it every poll_ms.
 *
 * Usage: every figure below covers the whole tree.  CPU time is the sum
 * of wait4() rusage of the members we reaped
 * (each includes the children that member reaped itself, so the leader
 * bs-jobwrap brings in the whole command tree it waited for).  Peak memory
 * is the largest of: the group's summed VmRSS at any bs_reaper_sample()
 * call (the daemon calls it on a timer), any member's VmHWM seen then,
 * ru_maxrss of reaped members other than the leader, and the wrapper's
 * record.  The leader's own ru_maxrss is useless: it was forked from
 * sbatchd and Linux keeps the pre-exec peak, i.e. sbatchd's size.  The
 * wrapper process itself is left out of memory figures.  For re-adopted
 * jobs CPU is the larger of the status record and the last sample:
 * processes reaped by init while we were down are lost.
 *
 * Callbacks run on the main loop.  A callback may unwatch jobs or watch new
 * ones, but must not free the reaper.
 */
#ifndef BS_SBD_REAPER_H
#define BS_SBD_REAPER_H

#include <glib.h>
#include <sys/types.h>

#include "launch.h"

typedef struct BsReaper BsReaper;

typedef struct {
	gint64 utime_us;          /* user CPU of the job's processes */
	gint64 stime_us;          /* system CPU */
	gint64 peak_rss_kb;       /* highest memory seen, KiB */
	gint64 rss_kb;            /* group memory at the last sample */
	guint nproc;              /* job processes at the last sample */
	guint nthreads;           /* their threads at the last sample */
	gint64 vsize_kb;          /* their virtual memory at the last sample */
} BsJobUsage;

typedef enum {
	BS_END_FROM_NOWHERE = 0,  /* exit status unknown */
	BS_END_FROM_WAIT,         /* we reaped the leader ourselves */
	BS_END_FROM_RECORD,       /* the status wrapper's record */
} BsEndSource;

typedef struct {
	pid_t pgid;
	BsExitStatus exit;
	BsEndSource source;
	gboolean adopted;
	BsJobUsage usage;
} BsJobEnd;

/* Every callback is optional.  pid is the member the event is about. */
typedef struct {
	void (*leader_exited)(pid_t pgid, int wstatus, gpointer data);
	void (*stopped)(pid_t pgid, pid_t pid, int signo, gpointer data);
	void (*continued)(pid_t pgid, pid_t pid, gpointer data);
	void (*finished)(const BsJobEnd *end, gpointer data);
} BsJobWatchFuncs;

/* A child that belongs to no watched job was reaped (a helper the daemon
 * ran, a job nobody watched). */
typedef void (*BsReaperOtherFunc)(pid_t pid, int wstatus, gpointer data);

/*
 * Block SIGCHLD in the calling thread.  The daemon calls this first thing
 * in main(), before any thread exists, so every thread inherits the mask
 * and SIGCHLD is only ever consumed through the signalfd.
 */
gboolean bs_reaper_block_sigchld(GError **error);

/*
 * Become a subreaper and watch SIGCHLD on the default main context.  One
 * reaper per process: waitpid(-1) takes every child, so a second one would
 * steal the first one's events.  poll_ms: see above (1000 is fine for a
 * daemon; tests use less).
 */
BsReaper *bs_reaper_new(guint poll_ms, GError **error);
void bs_reaper_free(BsReaper *r);
void bs_reaper_set_other_func(BsReaper *r, BsReaperOtherFunc fn, gpointer data);

/* Watch a job just launched by bs_launch() (pgid = the leader's pid).
 * status_path: what the BsLaunchSpec had, or NULL. */
void bs_reaper_watch(BsReaper *r, pid_t pgid, const char *status_path,
                     const BsJobWatchFuncs *funcs, gpointer data);

/*
 * Re-adopt a job after an sbatchd restart, from the pgid and status path
 * in the job's state file.  Its processes are not our children, so the
 * finish is found by polling and the exit status comes from the status
 * record, or is unknown.  When the group is already empty, finished is
 * called from the first poll.  Returns the live member count (0: gone).
 * A pgid number can be reused once its group is empty: check with
 * bs_jobctl_find_members() (same session) that the processes are the job's.
 */
guint bs_reaper_adopt(BsReaper *r, pid_t pgid, const char *status_path,
                      const BsJobWatchFuncs *funcs, gpointer data);

/* Forget a job without a finished callback. */
void bs_reaper_unwatch(BsReaper *r, pid_t pgid);
gboolean bs_reaper_is_watching(BsReaper *r, pid_t pgid);

/* One /proc scan: memory and live CPU of every watched job. */
void bs_reaper_sample(BsReaper *r);
/* Scan the tree now and send signo to the job's descendants outside its
 * group (killpg, which the caller sends, misses them). */
void bs_reaper_signal_escaped(BsReaper *r, pid_t pgid, int signo);
/* Usage so far (reaped members plus the last sample). */
gboolean bs_reaper_usage(BsReaper *r, pid_t pgid, BsJobUsage *out);

#endif
