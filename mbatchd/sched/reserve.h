/*
 * Slot reservation and backfill (stage-reserve.c), as placement sees
 * them: small hooks into a job's turn, the host limits and the host walk,
 * so the placement and limit files keep their own rules.  Internal to
 * mbatchd/sched.
 */
#ifndef BS_SCHED_RESERVE_H
#define BS_SCHED_RESERVE_H

#include "pass.h"

typedef struct Reserve Reserve;

/* NULL when no queue has SLOT_RESERVE: nothing below costs anything.
 * Otherwise counts the reservations the snapshot carries (expiring those
 * past MAX_RESERVE_TIME) as slots in use. */
Reserve *reserve_new(Pass *p);
void reserve_free(Reserve *r);

/* Around pending job idx's turn: before, its own reserved slots are
 * handed back to it; after, a job that did not start collects what it
 * can of the free slots it fits (or lets its reservation go). */
void reserve_turn_begin(Pass *p, guint idx);
void reserve_turn_end(Pass *p, guint idx);

/* Whether j may backfill into reserved slots this pass (BACKFILL queue,
 * a run limit, some reservation held). */
gboolean reserve_backfill_candidate(Pass *p, const SchedJob *j);
/* Whether pending job idx came into the pass with a reservation. */
gboolean reserve_holds(const Pass *p, guint idx);
/* Reserved slots on host h that j may borrow, for the host limits: all
 * of them (MXJ), those of j's queue (HJOB_LIMIT, PJOB_LIMIT) and of j's
 * user (JL/U, JL/P).  Zero for a job that is no candidate. */
void reserve_borrow(Pass *p, const SchedJob *j, guint h, int *all, int *queue,
    int *user);
/* Hosts holding reserved slots of a reservation with a known start, in
 * queue q's host order (for the walk of a backfill candidate: the open
 * host lists leave full hosts out).  Owned by the pass. */
const GArray *reserve_hosts(Pass *p, guint q);

/* After placement: the reservations held go into the plan. */
void reserve_finish(Pass *p);

#endif
