/*
 * A job's accounting and its end by a limit, as bjobs -l, bhist -l and
 * bacct -l print them (LSF's wording): the "Completed <exit>; TERM_...:"
 * line, "MAX MEM: ...;  AVG MEM: ..." and the process and thread maxima.
 * Shared so the three commands say it the same way.
 */
#ifndef BS_CMD_USAGE_FORMAT_H
#define BS_CMD_USAGE_FORMAT_H

#include <glib.h>

#include "pb.h"

/* LSF's text for a TERM_* name ("job killed after reaching LSF memory
 * usage limit"), or NULL for a name it does not know. */
const char *usage_term_text(const char *term);

/* "Completed <exit>; TERM_MEMLIMIT: job killed after reaching LSF memory
 * usage limit." (no time, no newline); nothing for an empty term. */
void usage_format_completed(GString *out, gboolean done, const char *term);

/* The memory and count block after a job's history, each line starting
 * with `indent`: "MEMORY USAGE:", "MAX MEM: 3 Mbytes;  AVG MEM: 2 Mbytes",
 * "MAX SWAP: ...", "MAX PROCS: 3;  MAX THREADS: 4".  Nothing when the job
 * was never sampled. */
void usage_format_block(GString *out, const char *indent,
			const Basalt__ResourceUsage *u);

#endif
