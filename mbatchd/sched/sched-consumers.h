/*
 * Resource plans in the scheduler's contract (issue 17): the consumer
 * tree and each resource group's plan as the snapshot carries them, and
 * the table the entitlement stage leaves in the plan (one row per
 * consumer and resource group: what it owns, is entitled to, holds).
 * Included by sched.h; kept apart so the plan types read as one piece.
 *
 * Rule: seeds/symphony-hybrid-policy.txt as read in decisions.md ("Hybrid
 * policy"); the stage is mbatchd/sched/stage-hybrid.c.  The builder is
 * mbatchd/consumers-input.c (from lsb.consumers).  A snapshot without
 * consumers (n_consumers 0, the zeroed default) schedules as before.
 */
#ifndef BS_SCHED_CONSUMERS_H
#define BS_SCHED_CONSUMERS_H

#include <glib.h>

typedef enum {
	SCHED_POLICY_HYBRID = 0,
	SCHED_POLICY_OWNERSHIP,
	SCHED_POLICY_SHARE,
} SchedConsumerPolicy;

/* One node of the consumer tree; parents come before their children. */
typedef struct {
	const char *path;         /* "/X/A" */
	int parent;               /* index into SchedSnapshot.consumers, -1 at
	                           * the first level */
	SchedConsumerPolicy policy; /* its first-level ancestor's */
} SchedConsumer;

/* One consumer's terms in one resource group: its Plan row, or the
 * defaults (own nothing, reserve nothing, no limit) when it has none. */
typedef struct {
	guint consumer;           /* index into SchedSnapshot.consumers */
	int owned;                /* as configured; scaled by the stage */
	int reserved;
	int limit;                /* SCHED_UNLIMITED (-1) for none */
	int rank;                 /* 0 is the highest */
	double share;             /* share policy: SHARE, default 1 */
	int grace_period;         /* seconds (reclaim, next issue) */
	int lend_limit;           /* ownership policy; SCHED_UNLIMITED */
	int borrow_limit;         /* ownership policy; SCHED_UNLIMITED */
	int share_limit;          /* share policy; SCHED_UNLIMITED */
	SchedConsumerPolicy policy; /* its branch's policy under this plan: the
	                           * first-level row's POLICY, else as
	                           * SchedConsumer.policy (a time window may
	                           * switch a branch, plan-window.c) */
} SchedPlanTerms;

/* A plan with a TIME_WINDOW (lsb.consumers): in force while one of its
 * windows is open, read against snap->now + snap->utc_offset as every
 * window is (window.c).  A group's windows never overlap. */
typedef struct {
	const GArray *windows;    /* lib/conf BsTimeWindow array, never NULL */
	int plan_slots;           /* as SchedResourceGroup.plan_slots */
	const SchedPlanTerms *terms; /* as SchedResourceGroup.terms */
	guint n_terms;
} SchedWindowedPlan;

/* A resource group: its hosts and its plan.  A host counts in the first
 * group that lists it.  plan_slots and terms are the default plan, the
 * one without TIME_WINDOW, in force outside every window of `windowed`
 * (the entitlement stage picks: sched_plan_in_force, plan-window.c). */
typedef struct {
	const char *name;
	const guint *hosts;       /* indexes into SchedSnapshot.hosts */
	guint n_hosts;
	int plan_slots;           /* the size the plan is written for (PLAN_SLOTS,
	                           * else the sum of first-level owned) */
	const SchedPlanTerms *terms; /* every consumer once, in plan order
	                           * (rank ties): rows as written, then the
	                           * consumers without a row in tree order */
	guint n_terms;
	const SchedWindowedPlan *windowed; /* the group's time-windowed plans */
	guint n_windowed;
	/* After badmin reconfig (SchedSnapshot.plan_reloaded): whether the
	 * reload changed this group's plan (the plan in force, the consumer
	 * tree or the configured hosts, against the previous configuration's
	 * plan in force at the previous pass), and the POLICY each consumer
	 * followed under that previous plan ([n_consumers], a
	 * SchedConsumerPolicy, -1 unknown; NULL: none known). */
	gboolean plan_changed;
	const int *prev_policy;
} SchedResourceGroup;

/* The plan of one group in force at the snapshot's time. */
typedef struct {
	int window;               /* index into windowed, -1: the default plan */
	int plan_slots;
	const SchedPlanTerms *terms;
	guint n_terms;
} SchedPlanInForce;


/* The stage's output: one row per resource group and consumer, groups in
 * snapshot order, consumers in plan order.  Parents have rows too (their
 * demand and allocation are their children's sums). */
#define SCHED_QUOTA_REASON_MAX 112

typedef struct {
	guint consumer;           /* index into SchedSnapshot.consumers */
	guint group;              /* index into SchedSnapshot.rgroups */
	int owned_conf;           /* OWNED as configured */
	int owned;                /* scaled to the group's current size (the
	                           * ownership policy's: exactly as configured) */
	int reserved;             /* RESERVED, capped at the scaled owned */
	int limit;                /* SCHED_UNLIMITED for none */
	int rank;
	double share;             /* share policy's SHARE; 0 for other policies */
	int demand;               /* slots of its running and pending jobs */
	int quota;                /* slots it is entitled to this pass */
	int alloc;                /* slots its jobs hold after this pass */
	int borrowed;             /* alloc above owned */
	int lent;                 /* owned slots not used by it that others use */
	char reason[SCHED_QUOTA_REASON_MAX]; /* why the quota is what it is */
} SchedConsumerQuota;

/* The policy's name as lsb.consumers writes it ("hybrid", ...). */
const char *sched_consumer_policy_name(SchedConsumerPolicy p);

#endif
