/*
 * pool-need.c: what a slot-pool queue's limits let it use in this pass.
 * Internal to mbatchd/sched.
 */
#ifndef BS_SCHED_POOL_NEED_H
#define BS_SCHED_POOL_NEED_H

#include "pass.h"

/* Slots queue q can use this pass: what it holds plus what its pending
 * jobs (jobs: pending indexes in pass order, may be NULL) ask for,
 * bounded by every limit that can hold it. */
gint64 pool_queue_need(Pass *p, guint q, GArray *jobs);

#endif
