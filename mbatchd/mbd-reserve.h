/*
 * Slot reservations between passes (mbd-reserve.c).  The scheduler is
 * pure: a reservation comes in its snapshot and goes out in its plan, and
 * the daemon keeps the plan's reservations here for the next pass, for
 * bhosts (RSV) and bjobs -l.
 *
 * Not journaled: a reservation is the scheduler's working state, not a
 * fact of a job.  After a restart nothing starts before the first pass,
 * and that pass collects the free slots again in the same job order, so
 * the slots a job held are free for it again unless a job before it in
 * that order takes them; what is lost is the MAX_RESERVE_TIME clock,
 * which starts again (a job may hold slots one period longer across a
 * restart) and the session without reservation of an expired job.
 * Journaling them would cost a record per reserving job per pass.
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
