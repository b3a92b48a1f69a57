/*
 * The scheduler's snapshot as the daemon builds it: configuration, state
 * and host links flattened into the plain arrays of SchedSnapshot, with
 * the daemon objects beside it (which Job each pending and running entry
 * is) so a plan can be applied.  The snapshot is closed: the time (now and
 * the local UTC offset), the parsed windows, the hosts' figures, each
 * job's parsed -R and evaluated dependencies are in it, so the policy
 * never reads a clock or calls back into the daemon.
 */
#ifndef BS_MBD_SNAPSHOT_H
#define BS_MBD_SNAPSHOT_H

#include "mbatchd/mbd.h"
#include "mbatchd/sched-input.h"
#include "mbatchd/sched/sched.h"

typedef struct {
	Manager *m;
	const BsConfig *cfg;      /* the configuration it was built from:
	                           * m->cfg, or a previewed one */
	SchedSnapshot snap;
	SchedInput in;            /* hosts, queues, pools, users, groups */
	GArray *running, *pending;
	GArray *allocs;           /* SchedAlloc storage for running jobs */
	GArray *ints;             /* guint storage: asked hosts */
	GPtrArray *pending_jobs;  /* Job*, parallel to pending */
	GPtrArray *running_jobs;  /* Job*, parallel to running */
	GDateTime *now;
	GPtrArray *prev_policies; /* int arrays: SchedResourceGroup.prev_policy */
} Build;

/* What a run window closing puts on the job it suspends; the window stage
 * resumes only the jobs suspended with it (SchedRunning.window_held). */
#define WINDOW_REASON "The run windows of the queue are closed;"

/* The snapshot of m's live state under configuration cfg (m->cfg for a
 * cycle; a preview passes the configuration it tries). */
void snapshot_build(Build *b, Manager *m, const BsConfig *cfg);
/* What -R select[] reads of host h->name (load, memory, type), from its
 * link; also for bhosts -R, which asks the same question as the
 * scheduler. */
void snapshot_host_resources(Manager *m, SchedHost *h);
void snapshot_free(Build *b);

#endif
