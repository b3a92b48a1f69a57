/*
 * Pre-exec failures and JOB_CONTROLS in mbatchd (mbd-prepost.c).
 */
#ifndef BS_MBATCHD_PREPOST_H
#define BS_MBATCHD_PREPOST_H

#include "mbatchd/mbd.h"
#include "host.pb-c.h"

/* The current run of j ended in a failed pre-exec on host (hj says which
 * and with what status): pending again at the head of its queue, or EXIT
 * when the retries are spent; journaled. */
void prepost_preexec_failed(Manager *m, Job *j, const char *host,
    const Basalt__HostJob *hj);

/* The JOB_CONTROLS action for a SUSPEND, RESUME or TERMINATE order:
 * a command to run (returned, borrowed from the configuration), or NULL
 * with *sig set to the signal named (left alone for the default). */
const char *prepost_job_control(Manager *m, const Job *j,
    Basalt__ExecAction action, int *sig);

#endif
