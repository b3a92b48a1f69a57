/*
 * The state of one scheduling pass, shared by the dispatch loop (sched.c),
 * preemption (preempt.c) and resume (resume.c).  Internal to mbatchd/sched.
 */
#ifndef BS_SCHED_PASS_H
#define BS_SCHED_PASS_H

#include "count.h"
#include "sched.h"

typedef struct Preempt Preempt;

typedef struct {
	const SchedSnapshot *snap;
	SchedCount count;
	SchedPlan *plan;
	GArray **queue_hosts;     /* per queue: candidate host indexes, best first */
	GHashTable *blocked;      /* Shape -> SchedPending copied to later jobs */
	GHashTable *no_victims;   /* Shapes held by MAX_JOBS that found no victims */
	Preempt *preempt;         /* NULL when no queue may preempt another */
} Pass;

/* Slots job j may take cluster-wide; *why names the limit when fewer than
 * its min_slots. */
int sched_job_headroom(Pass *p, const SchedJob *j, SchedPendReason *why);
/* Free slots for j on host h under the slot limits alone (no host state,
 * no host filter), capped by ptile; 0 with the reason in *why. */
int sched_host_room(Pass *p, const SchedJob *j, guint h, SchedHostReason *why);
/* Whether h can take j at all: up, asked for (-m) and passing the filter. */
gboolean sched_host_usable(Pass *p, const SchedJob *j, guint h);
/* Record the dispatch of pending job idx on allocs [first, first + n) and
 * preemptions [first_pre, first_pre + n_pre), and count its slots. */
void sched_commit(Pass *p, guint idx, guint first, guint n, guint first_pre,
    guint n_pre);

/* preempt.c */
Preempt *preempt_new(const SchedSnapshot *snap);
void preempt_free(Preempt *pre);
/* Whether jobs of queue q may preempt any queue. */
gboolean preempt_queue_can(const Preempt *pre, guint q);
/* Try to start pending job idx by preempting running jobs; TRUE when it
 * was dispatched (victims and dispatch are in the plan). */
gboolean preempt_try(Pass *p, guint idx);

/* resume.c: resume preempted jobs whose slots are free again. */
void sched_resume(Pass *p);

#endif
