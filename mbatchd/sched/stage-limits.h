/*
 * The lsb.resources limit stage (stage-limits.c), as placement and
 * preemption call it.  Internal to mbatchd/sched.
 */
#ifndef BS_SCHED_STAGE_LIMITS_H
#define BS_SCHED_STAGE_LIMITS_H

#include "sched.h"

typedef struct Limits Limits;
struct Pass;

/* NULL when the snapshot has no limits: every call below is then free. */
Limits *limits_new(const SchedSnapshot *snap);
void limits_free(Limits *lm);

/* Slots the limits that do not name hosts leave job j; when fewer than
 * its min_slots, pend says which limit (SCHED_PEND_RES_LIMIT). */
int limits_job_room(Limits *lm, const SchedJob *j, SchedPending *pend);
/* Whether the limit that limits_job_room last found full stops counting
 * suspended jobs (PREEMPT_FOR), so preemption could relieve it. */
gboolean limits_held_relievable(const Limits *lm);
/* Placement of j starts: allocs from `first` on are j's so far, and a
 * host refused by a limit is named in pend. */
void limits_place_begin(Limits *lm, const SchedJob *j, guint first,
    SchedPending *pend);
/* Slots the limits naming hosts leave j on host h, given the allocs
 * already chosen for it; 0 with SCHED_HR_RES_LIMIT in *why. */
int limits_host_room(Limits *lm, const GArray *allocs, const SchedJob *j,
    guint h, SchedHostReason *why);
/* Pending job j was dispatched on allocs [first, first + n). */
void limits_commit(Limits *lm, const GArray *allocs, const SchedJob *j,
    guint first, guint n);
/* Running job r was suspended (sign 1) or resumed (sign -1) in the pass. */
void limits_suspend(Limits *lm, const SchedRunning *r, int sign);
/* Running job r was killed (sign 1: its hold goes) or that was undone. */
void limits_kill(Limits *lm, const SchedRunning *r, int sign);
/* Slots the lsb.resources limits binding every job of queue q (QUEUES,
 * PER_QUEUE or cluster-wide, with SLOTS, SLOTS_PER_PROCESSOR or JOBS)
 * still leave it in this pass, INT_MAX when none: for the slot-pool
 * count of what a queue's limits hold (pool.c).  As the pass counts. */
int limits_queue_room(Limits *lm, guint q);
/* Whether jobs of one placement shape may still differ under the limits
 * (a limited resource in their rusage): the pass must not copy one's
 * outcome to the other. */
gboolean limits_job_varies(const Limits *lm, const SchedJob *j);
/* Whether a limit naming hosts also names projects or profiles: only
 * then may two jobs alike but for -P or -app find different hosts. */
gboolean limits_hosts_read_job(const Limits *lm);

#endif
