/*
 * Resource reclaim in the scheduler's contract (issue 18): the lsb.params
 * options the snapshot carries, and what the reclaim stage decides: which
 * running jobs give their slots back, to which consumer, with which grace
 * deadline.  Included by sched.h, like sched-consumers.h.
 *
 * Rule: seeds/symphony-resource-reclaim.txt and the "Reclaim" paragraphs
 * of seeds/symphony-hybrid-policy.txt as read in decisions.md ("Resource
 * reclaim"); the stage is mbatchd/sched/stage-reclaim.c.  The selection is
 * a pure function of a snapshot and the plan its pass produced
 * (sched_reclaim_select in sched.h), so a preview (badmin reconfig
 * -preview, bconsumers -at) runs the very code the scheduler runs.
 */
#ifndef BS_SCHED_RECLAIM_H
#define BS_SCHED_RECLAIM_H

#include <glib.h>

/* The seconds the system waits for a reclaimed slot past the grace
 * deadline before it stops counting on it (a bound, not a delay). */
#define SCHED_RECLAIM_LEEWAY 120

/* RECLAIM_CRITERIA: which job of a consumer gives its slot back first
 * among equally important ones (the seed's preemption criteria). */
typedef enum {
	SCHED_RECLAIM_POLICY_DEFAULT = 0, /* most over-allocated first */
	SCHED_RECLAIM_MOST_RECENT_TASK,   /* most recently started first */
} SchedReclaimCriteria;

/* lsb.params.  All zero (the zeroed default) is LSF's default: shared
 * slots are reclaimed, leaf grace periods, PolicyDefault. */
typedef struct {
	gboolean disable_hybrid_own;   /* DISABLE_RECLAIM_HYBRID_OWN=Y */
	gboolean keep_shared;          /* RECLAIM_SHARED=N */
	gboolean owned_before_borrow;  /* RECLAIM_OWNED_BEFORE_BORROW=Y */
	gboolean ancestor_grace;       /* USE_ANCESTOR_GRACE_PERIOD_FOR_RECLAIM=Y */
	SchedReclaimCriteria criteria; /* RECLAIM_CRITERIA */
} SchedReclaimOptions;

/* Which slots a reclaim takes back, in the order the seed reclaims them. */
typedef enum {
	SCHED_RECLAIM_BORROWED = 0,   /* slots above the job's consumer's owned */
	SCHED_RECLAIM_SHARED,         /* slots above its quota, by rank */
	SCHED_RECLAIM_OWNED,          /* its own slots above its quota: the
	                               * group shrank, or a plan changed */
	SCHED_RECLAIM_HOST_CLOSE,     /* badmin hclose -reclaim */
} SchedReclaimKind;

/* One job to reclaim. */
typedef struct {
	guint job;                /* index into SchedSnapshot.running */
	guint group;              /* index into SchedSnapshot.rgroups;
	                           * G_MAXUINT: a host close outside groups */
	int from;                 /* the job's consumer (SchedSnapshot.consumers),
	                           * -1: outside every consumer */
	int to;                   /* the consumer it is reclaimed for; -1: none
	                           * (a host close) */
	int slots;                /* slots it gives back in the group */
	SchedReclaimKind kind;
	int grace;                /* seconds: the over-allocated consumer's
	                           * GRACE_PERIOD, or with
	                           * USE_ANCESTOR_GRACE_PERIOD_FOR_RECLAIM the
	                           * closest common ancestor's */
	gint64 deadline;          /* SchedSnapshot.now + grace */
} SchedReclaim;

/* The kind's name, for logs and scenario files ("borrowed", ...). */
const char *sched_reclaim_kind_name(SchedReclaimKind k);

#endif
