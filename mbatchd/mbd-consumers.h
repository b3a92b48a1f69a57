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
	int owned_scaled, demand, quota, alloc, borrowed, lent;
	int reclaiming;           /* slots being reclaimed from it */
	char *reason;             /* why the quota is what it is, owned */
} MbdConsumerFig;

struct MbdConsumerFigures {
	gint64 time;              /* Unix seconds of the cycle; 0: none yet */
	GHashTable *figs;         /* "group\npath" (owned) -> MbdConsumerFig* */
	GHashTable *group_slots;  /* group name (owned) -> GINT_TO_POINTER(n + 1) */
};

/* Keep the stage's table of this pass (replacing the last one). */
void consumers_keep(Manager *m, const Build *b, const SchedPlan *plan);
/* The table of a pass as figures dated `time`; NULL without resource
 * groups (a preview keeps its own, mbd-preview.c). */
struct MbdConsumerFigures *consumers_figures_new(const Build *b,
    const SchedPlan *plan, gint64 time);
/* The figures of one consumer in one group, or NULL (no cycle yet, or
 * the consumer came with a reconfiguration since). */
const MbdConsumerFig *consumers_figures_fig(const struct MbdConsumerFigures *f,
    const char *group, const char *path);
/* The group's slots in that pass, or -1. */
int consumers_figures_group_slots(const struct MbdConsumerFigures *f,
    const char *group);
/* Journal the jobs whose pending reason became, or stopped being, their
 * consumer's quota in this pass (after record_pending_reasons). */
void consumers_record_pending(Manager *m, const Build *b,
    const SchedPlan *plan);
void consumers_figures_free(struct MbdConsumerFigures *f);

#endif
