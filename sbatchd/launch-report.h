/*
 * How a launching child tells sbatchd which setup step failed.
 *
 * Shared by launch.c (reads), launch-child.c and the bs-jobwrap helper
 * (write).  Plain C, no GLib: bs-jobwrap is kept tiny on purpose (see
 * jobwrap.c).
 */
#ifndef BS_SBD_LAUNCH_REPORT_H
#define BS_SBD_LAUNCH_REPORT_H

#include <stdint.h>

typedef enum {
	BS_STEP_SETSID = 1,
	BS_STEP_RLIMIT,
	BS_STEP_NICE,
	BS_STEP_SETGROUPS,
	BS_STEP_SETGID,
	BS_STEP_SETUID,
	BS_STEP_CHDIR,
	BS_STEP_STDIN,
	BS_STEP_STDOUT,
	BS_STEP_STDERR,
	BS_STEP_SCRIPT,
	BS_STEP_EXEC_WRAPPER,     /* exec of bs-jobwrap */
	BS_STEP_FORK,             /* bs-jobwrap could not fork the command */
	BS_STEP_EXEC,             /* exec of the shell */
	/* Numbered apart so steps added above keep their values. */
	BS_STEP_OUTDIR = 30,      /* creating bsub -outdir as the job's owner */
} BsChildStep;

/* bs-jobwrap's optional fourth argument "--argv0=NAME": the command is
 * started with argv[0] NAME instead of its path (bsub -L: "-bash" starts
 * a login shell). */
#define BS_JOBWRAP_ARGV0 "--argv0="

/* Written in one write() (atomic on a pipe) by a process that gives up. */
typedef struct {
	int32_t step;
	int32_t err;
	int32_t index;            /* which limit, for BS_STEP_RLIMIT */
} BsChildReport;

#endif
