/*
 * A job's effective parameters (proto JobEffective, resolved by mbatchd at
 * dispatch) as text, shared by bjobs -l and bhist -l so that both show a
 * job's terms the same way: each limit as LSF's two-line block
 * ("\n RUNLIMIT\n 10.0 min\n"), then the other settings the same way.
 */
#ifndef BS_CMD_EFFECTIVE_FORMAT_H
#define BS_CMD_EFFECTIVE_FORMAT_H

#include <glib.h>

#include "pb.h"

/* The limits that apply, in a fixed order; nothing when none does. */
void effective_format_limits(GString *out, const Basalt__JobEffective *e);
/* A pending job's own limits of bsub -C -D -F -S -v -p -T, in the same blocks. */
void effective_format_job_limits(GString *out, const Basalt__JobSpec *s);
/* NICE (when not 0), JOB_STARTER, PRE_EXEC, POST_EXEC, ENV_VARS and
 * MAX_JOB_PREEMPT (when bounded): the settings that are set. */
void effective_format_settings(GString *out, const Basalt__JobEffective *e);

#endif
