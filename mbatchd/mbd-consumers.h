/*
 * What mbatchd keeps of the entitlement stage's last output (the
 * per-consumer, per-resource-group table of the scheduler's plan), so
 * that bconsumers shows the figures the last cycle acted on without
 * running the stage again; and the journaling of quota-driven pending
 * (a job whose pending reason becomes, or stops being, its consumer's
 * quota gets one EvJobConsumerPend, not one per cycle).
 */
#ifndef BS_MBD_CONSUMERS_H
#define BS_MBD_CONSUMERS_H

#include "mbatchd/mbd.h"
#include "mbatchd/mbd-snapshot.h"

typedef struct {
	gboolean set;             /* the pass had a row for it */
	int owned_scaled, demand, quota, alloc, borrowed, lent;
	int reclaiming;           /* slots being reclaimed from it */
	char reason[SCHED_QUOTA_REASON_MAX]; /* why the quota is what it is */
} MbdConsumerFig;

/* One configuration's group and consumer names with their snapshot
 * indexes, shared by the figures of its passes (mbd-consumers.c). */
typedef struct MbdConsumerNames MbdConsumerNames;

struct MbdConsumerFigures {
	gint64 time;              /* Unix seconds of the cycle; 0: none yet */
	MbdConsumerNames *names;  /* a reference */
	MbdConsumerFig *figs;     /* [group * n_consumers + consumer] */
	int *group_slots;         /* [group] */
};

/* Keep the stage's table of this pass (replacing the last one). */
void consumers_keep(Manager *m, const Build *b, const SchedPlan *plan);
/* The table of a pass as figures dated `time`; NULL without resource
 * groups (a preview keeps its own, mbd-preview.c).  names: those of the
 * snapshot's configuration, kept by the caller, or NULL: made for these
 * figures alone. */
struct MbdConsumerFigures *consumers_figures_new(const Build *b,
    const SchedPlan *plan, gint64 time, MbdConsumerNames *names);
/* The figures of one consumer in one group, or NULL (no cycle yet, or
 * the consumer came with a reconfiguration since). */
const MbdConsumerFig *consumers_figures_fig(const struct MbdConsumerFigures *f,
    const char *group, const char *path);
/* The group's slots in that pass, or -1. */
int consumers_figures_group_slots(const struct MbdConsumerFigures *f,
    const char *group);
void consumers_names_unref(MbdConsumerNames *n);
/* Journal pending job i of the pass if its pending reason became, or
 * stopped being, its consumer's quota; called by the pass over the
 * pending jobs that records their reasons (mbd-dispatch.c), after job i's
 * reason is set, so no second pass over them is made. */
void consumers_pending_job(Manager *m, const Build *b, const SchedPlan *plan,
    guint i);
void consumers_figures_free(struct MbdConsumerFigures *f);

#endif
