/*
 * The pre- and post-execution commands and pre-exec retry bounds of a job,
 * as LSF combines them: the queue's PRE_EXEC runs first, then the job's
 * level, which is bsub -E when given, else the application profile's
 * PRE_EXEC (the job's overrides the profile's, never the queue's); after
 * the job, the job's level (bsub -Ep, else the profile's POST_EXEC), then
 * the queue's POST_EXEC.  Retries: LOCAL_MAX_PREEXEC_RETRY, application >
 * lsb.params, and what happens when they are spent,
 * LOCAL_MAX_PREEXEC_RETRY_ACTION, application > queue > lsb.params.
 *
 * Split from effective.c so the pieces of one feature stay together; like
 * it, no Manager and no I/O.
 */
#ifndef BS_MBATCHD_EFFECTIVE_PREPOST_H
#define BS_MBATCHD_EFFECTIVE_PREPOST_H

#include "conf/conf.h"
#include "common.pb-c.h"
#include "host.pb-c.h"

/* Stamp the queue's commands and the retry bounds into e (strings
 * borrowed from the configuration; effective_resolve copies e). */
void effective_resolve_prepost(const BsConfig *cfg, const BsQueueConf *q,
    const BsAppConf *app, Basalt__JobEffective *e);

/* The start order's four commands from the stamp and the job's spec
 * (borrowed).  e may be NULL (nothing stamped): the job's own only. */
void effective_fill_prepost(const Basalt__JobEffective *e,
    const Basalt__JobSpec *spec, Basalt__StartJobRequest *req);

/* JOB_PREPROC_TIMEOUT and JOB_POSTPROC_TIMEOUT of today's configuration
 * into the start order (like JOB_TERMINATE_INTERVAL, how sbatchd runs
 * the job rather than its terms: not stamped). */
void effective_fill_prepost_timeouts(const BsConfig *cfg, const BsAppConf *app,
    Basalt__StartJobRequest *req);

#endif
