/*
 * What a badmin reconfig changes in the resource plans (lsb.consumers).
 * A reconfig is a plan change (stage-reclaim.c: every leaf gives back its
 * excess whether or not anyone asks) only for the resource groups whose
 * plan really changed: the plan in force (each consumer's OWNED, RESERVED,
 * LIMIT, RANK, SHARE, GRACE_PERIOD, LEND/BORROW/SHARE_LIMIT and POLICY),
 * the consumer tree, or the group's HOSTS and PLAN_SLOTS as configured.
 * A reconfig of anything else (a queue's description) leaves every group
 * to the demand-driven reclaim, even while hosts are down.
 *
 * Each group's plan is reduced to a digest.  At a reconfig the daemon
 * keeps, per group, the digest of the previous configuration's plan in
 * force at the previous pass and the POLICY each consumer followed under
 * it (PlanPrev); the first pass after compares it with the new
 * configuration's plan in force then, so a window boundary in between
 * counts, and a POLICY switched by the reconfig reclaims as a window's
 * switch does.  Pure over the configuration: no clock is read here.
 */
#ifndef BS_MBD_PLAN_RELOAD_H
#define BS_MBD_PLAN_RELOAD_H

#include <glib.h>

#include "conf/conf.h"
#include "mbatchd/sched/sched.h"

/* One group's plan under the previous configuration. */
typedef struct {
	char *digest;             /* NULL: no such group then */
	GHashTable *policy;       /* consumer path -> SchedConsumerPolicy + 1 */
} PlanPrev;

/* The digest of group `name`'s plan in cfg at local time t: its plan in
 * force, the consumer tree, its HOSTS and PLAN_SLOTS as written.  NULL
 * when cfg has no such group.  g_free() it. */
char *plan_reload_digest(const BsConfig *cfg, const char *name, GDateTime *t);

/* A table group name -> PlanPrev*, to fill with plan_reload_keep. */
GHashTable *plan_reload_table_new(void);

/* A deep copy (a preview adds to it without touching the daemon's). */
GHashTable *plan_reload_table_copy(GHashTable *prev);

/* Before `old` is replaced: record every group of old and of new_cfg
 * as old had it at t (the previous pass), unless the table already holds
 * it (an earlier reconfig that no pass has read yet: that one's previous
 * plan is still the one in force at the previous pass). */
void plan_reload_keep(GHashTable *prev, const BsConfig *old, const BsConfig *new_cfg,
    GDateTime *t);

/* Fill snap's groups (built from cfg at local time t) from prev: each
 * group's plan_changed and prev_policy, on a copy of snap->rgroups the
 * snapshot then points to.  The copy and the policy arrays go into
 * `store` (the caller's GPtrArray with g_free, freed with it). */
void plan_reload_mark(const GHashTable *prev, const BsConfig *cfg, GDateTime *t,
    SchedSnapshot *snap, GPtrArray *store);

#endif
