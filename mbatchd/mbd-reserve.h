/*
 * Slot reservations between passes (mbd-reserve.c).  The scheduler is
 * pure: a reservation comes in its snapshot and goes out in its plan, and
 * the daemon keeps the plan's reservations here for the next pass, for
 * bhosts (RSV) and bjobs -l.
 *
 * Not journaled: a reservation is the scheduler's working state, not a
 * fact of a job.  After a restart the first pass rebuilds it from the
 * free slots (the reserving jobs come first in their queues' order, and
 * nothing has started before that pass); only the MAX_RESERVE_TIME clock
 * starts again, so a job may hold slots one period longer across a
 * restart.  Journaling each pass's reservations would cost a record per
 * reserving job per pass for that.
 */
#ifndef BS_MBD_RESERVE_H
#define BS_MBD_RESERVE_H

#include "mbatchd/mbd-snapshot.h"

typedef struct {
	gint64 since;             /* when the job first reserved */
	gint64 start;             /* expected start, 0: unknown */
	gint64 banned_until;      /* expired: may not reserve before this */
	char **hosts;             /* one name per reserved slot, NULL: none */
} MbdReserve;

void reserve_table_init(Manager *m);
void reserve_table_free(Manager *m);

/* A pending job's reservation and run limit, into its snapshot entry
 * (storage in b->allocs, as offsets fixed by reserve_fix_pointers). */
void reserve_to_snapshot(Build *b, const Job *j, const BsQueueConf *qc,
    SchedJob *sj);
void reserve_fix_pointers(Build *b, SchedJob *sj);
/* A started job's run limit in seconds, 0: none. */
gint64 reserve_running_limit(const Job *j);
/* Keep the plan's reservations for the next pass (replacing the last). */
void reserve_from_plan(Manager *m, Build *b, const SchedPlan *plan);

/* The job's reservation, or NULL. */
const MbdReserve *reserve_of(Manager *m, const Job *j);
/* Slots reserved on a host. */
guint reserve_on_host(Manager *m, const char *host);

#endif
