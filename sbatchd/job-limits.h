/*
 * A job's limits on its host, as LSF applies them.
 *
 * mbatchd sends the dispatch stamp (JobEffective) in the start order; this
 * file decides what becomes a setrlimit() of every process of the job and
 * what sbatchd enforces over the whole job (its process group) from its
 * samples:
 *
 *   CPULIMIT    RLIMIT_CPU per process (SIGXCPU) and the job's summed CPU
 *               time: SIGXCPU, then the termination sequence (TERM_CPULIMIT)
 *   FILELIMIT   RLIMIT_FSIZE (SIGXFSZ)
 *   DATALIMIT   RLIMIT_DATA
 *   STACKLIMIT  RLIMIT_STACK
 *   CORELIMIT   RLIMIT_CORE
 *   MEMLIMIT    the job's summed resident memory (TERM_MEMLIMIT); RLIMIT_RSS
 *               does nothing on Linux, so it is not set
 *   SWAPLIMIT   the job's summed virtual memory, LSF's SWAP (TERM_SWAP)
 *   PROCESSLIMIT  the job's process count (TERM_PROCESSLIMIT); RLIMIT_NPROC
 *               counts every process of the user, not the job's
 *   THREADLIMIT the job's thread count (TERM_THREADLIMIT)
 *   RUNLIMIT    wall clock, sbd-job.c (TERM_RUNLIMIT)
 *
 * The functions here are pure (no I/O but getrlimit), so the unit test
 * check_job_limits holds the mapping.
 */
#ifndef BS_SBD_JOB_LIMITS_H
#define BS_SBD_JOB_LIMITS_H

#include <glib.h>

#include "common.pb-c.h"
#include "launch.h"

/* The limits sbatchd enforces over the whole job; -1 = none. */
typedef struct {
	gint64 cpulimit_s;
	gint64 memlimit_kb;
	gint64 swaplimit_kb;
	gint64 processlimit;
	gint64 threadlimit;
} SbdJobLimits;

/* One sample of a whole job, as the limits are checked against it. */
typedef struct {
	gint64 cpu_us;            /* user + system, every process so far */
	gint64 mem_kb;            /* resident memory of the live processes */
	gint64 swap_kb;           /* their virtual memory */
	guint nprocs;
	guint nthreads;
} SbdJobSample;

/* The most setrlimit()s a job gets. */
#define SBD_MAX_RLIMITS 5

void sbd_limits_none(SbdJobLimits *l);
/* The whole-job limits of a stamp; e == NULL: none. */
void sbd_limits_from_effective(const Basalt__JobEffective *e, SbdJobLimits *l);

/* The setrlimit()s of a stamp into out (SBD_MAX_RLIMITS entries); returns
 * how many.  A size beyond what rlim_t holds is RLIM_INFINITY. */
guint sbd_limits_rlimits(const Basalt__JobEffective *e, BsLaunchLimit *out);

/* A process that is not root cannot raise a hard limit: bound each entry
 * by sbatchd's own hard limit then (when `root` is FALSE). */
void sbd_limits_clamp(BsLaunchLimit *lims, guint n, gboolean root);

/* lsf.conf LSB_JOB_CPULIMIT, as LSF reads it: "y" the CPU limit is the
 * job's only (no RLIMIT_CPU), "n" per process only (sbatchd does not sum),
 * unset (NULL) or anything else both.  Adjusts l and lims[0..*n). */
void sbd_limits_cpu_policy(const char *conf, SbdJobLimits *l,
			   BsLaunchLimit *lims, guint *n);

/* The first whole-job limit the sample is over, as LSF names its end
 * (TERM_MEMLIMIT ...), or NULL.  The order is LSF's: memory first. */
const char *sbd_limits_check(const SbdJobLimits *l, const SbdJobSample *s);

/* The reason line sbatchd reports with the kill ("MEMLIMIT was reached;"),
 * or NULL for a name it does not know. */
const char *sbd_limits_kill_reason(const char *term);

/* The LSF end of a job the kernel stopped before a sample saw it over a
 * limit: TERM_CPULIMIT when it died of SIGXCPU under a CPU limit,
 * TERM_MEMLIMIT when its cgroup's OOM killer acted; NULL otherwise. */
const char *sbd_limits_end_term(gboolean died_of_xcpu, gint64 cpulimit_s,
                                gboolean oom_killed);

#endif
