/*
 * Hosts that refused to start a job, kept off it until they register
 * again (mbd-refused.c).
 */
#ifndef BS_MBATCHD_REFUSED_H
#define BS_MBATCHD_REFUSED_H

#include "mbatchd/mbd.h"

void refused_init(Manager *m);
void refused_free(Manager *m);
/* host refused to start j. */
void refused_note(Manager *m, const Job *j, const char *host);
/* The hosts that refused j (interned names), NULL when none. */
const GPtrArray *refused_hosts(Manager *m, const Job *j);
/* j started: its refusals no longer matter. */
void refused_forget_job(Manager *m, const Job *j);
/* host registered: it may run every job again. */
void refused_forget_host(Manager *m, const char *host);

#endif
