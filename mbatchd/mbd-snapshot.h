/*
 * The scheduler's snapshot as the daemon builds it: configuration, state
 * and host links flattened into the plain arrays of SchedSnapshot, with
 * the daemon objects beside it (which Job each pending and running entry
 * is) so a plan can be applied.  Everything time-dependent (windows, begin
 * times, dependencies) is settled here, so the policy never reads a clock.
 */
#ifndef BS_MBD_SNAPSHOT_H
#define BS_MBD_SNAPSHOT_H

#include "mbatchd/mbd.h"
#include "mbatchd/sched-input.h"
#include "mbatchd/sched/sched.h"

typedef struct {
	Manager *m;
	SchedSnapshot snap;
	SchedInput in;            /* hosts, queues, pools, users, groups */
	GArray *running, *pending;
	GArray *allocs;           /* SchedAlloc storage for running jobs */
	GArray *ints;             /* guint storage: asked hosts */
	GPtrArray *pending_jobs;  /* Job*, parallel to pending */
	GPtrArray *running_jobs;  /* Job*, parallel to running */
	GPtrArray *filter_data;   /* JobFilter*, freed with the pass */
	GDateTime *now;
} Build;

void snapshot_build(Build *b, Manager *m);
void snapshot_free(Build *b);

#endif
