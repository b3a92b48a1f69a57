/*
 * pool-hosts.c: slots a slot pool keeps on its hosts for its queues with
 * per-host limits, so the pool's other queues do not fill those hosts
 * first.  Internal to mbatchd/sched (pool.c and placement).
 */
#ifndef BS_SCHED_POOL_HOSTS_H
#define BS_SCHED_POOL_HOSTS_H

#include "pass.h"

typedef struct PoolHolds PoolHolds;

PoolHolds *pool_holds_new(guint n_pools, guint n_hosts);
void pool_holds_free(PoolHolds *ph, guint n_pools);
/* At pool k's turn: keep up to `want` slots for queue q, which has
 * HJOB_LIMIT or PJOB_LIMIT (nothing otherwise), on the hosts where its
 * limits let it run, in its host order. */
void pool_holds_mark(PoolHolds *ph, Pass *p, guint k, guint q, int want);
/* Slots queue q of pool k may take on host h, given what is kept there
 * for the pool's other queues; INT_MAX when nothing is kept. */
int pool_holds_room(PoolHolds *ph, Pass *p, guint k, guint q, guint h);
/* Queue q placed `slots` on h: what was kept for it there is used. */
void pool_holds_take(PoolHolds *ph, guint k, guint q, guint h, int slots);
/* Queue q's last job had its place: nothing is kept for it any more. */
void pool_holds_release_queue(PoolHolds *ph, guint k, guint q);
/* Pool k's last job had its place: nothing is kept any more. */
void pool_holds_release(PoolHolds *ph, guint k);

#endif
