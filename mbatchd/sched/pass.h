/*
 * The state of one scheduling pass, shared by its stages (sched.c lists
 * them in order) and their helpers.  Internal to mbatchd/sched.
 */
#ifndef BS_SCHED_PASS_H
#define BS_SCHED_PASS_H

#include "count.h"
#include "sched.h"
#include "stage-limits.h"

typedef struct Preempt Preempt;
typedef struct Pools Pools;
typedef struct Reserve Reserve;
typedef struct Hybrid Hybrid;
typedef struct ResreqMemo ResreqMemo;
typedef struct ShapeMemo ShapeMemo;

/* open.c: one queue's candidate hosts that may still take its jobs. */
typedef struct {
	gboolean built;
	guint q;
	GArray *cand;             /* the queue's candidate hosts (Pass.queue_hosts) */
	guint *pos;               /* [n_hosts]: position in cand + 1, 0 = not one */
	guint *next, *prev;       /* [cand->len]: the list, over positions */
	guint8 *state;            /* [cand->len]: _SCHED_HR_MAX when listed, else
	                           * the reason it gives every job of the queue */
	guint head;               /* first position, G_MAXUINT when empty */
	guint32 closed[_SCHED_HR_MAX]; /* candidates not listed, per reason */
} OpenHosts;

typedef struct {
	const SchedSnapshot *snap;
	SchedCount count;
	SchedPlan *plan;
	/* window.c, the time-driven stage, fills these first; the other
	 * stages read them instead of the snapshot's raw state. */
	gboolean *queue_open;     /* [n_queues]: dispatch and run windows open */
	gboolean *run_open;       /* [n_queues]: run window open */
	SchedHostState *host_state; /* [n_hosts]: state, closed_Wind applied */
	gboolean *run_held;       /* [n_running]: suspended or killed by the
	                           * window stage in this pass */
	guint *order;             /* stage-order.c: pending jobs in pass order */
	GArray **queue_hosts;     /* per queue: candidate host indexes, best first */
	OpenHosts *open;          /* per queue: those that may have a free slot */
	ShapeMemo *blocked;       /* Shape -> SchedPending copied to later jobs */
	ShapeMemo *no_victims;    /* Shapes held by MAX_JOBS that found no victims */
	Preempt *preempt;         /* NULL when no queue may preempt another */
	Pools *pools;             /* NULL when no queue is in a SLOT_POOL */
	Limits *limits;           /* NULL when lsb.resources has no Limit */
	Reserve *reserve;         /* NULL when no queue has SLOT_RESERVE */
	Hybrid *hybrid;           /* stage-hybrid.c: NULL without resource plans */
	guint8 *excl;             /* exclusive.c: [n_hosts], an exclusive job
	                           * holds the host; NULL when no job is -x */
	guint *excl_held;         /* exclusive.c: [n_hosts], counted SLOT_RESERVE
	                           * reservations of -x jobs on the host */
	const SchedJob *avoiding; /* placing this job away from its avoid_hosts */
	ResreqMemo *resreq_memo;  /* resreq-host.c: placement's, else NULL */
} Pass;

/* The stages, in the order sched_run() runs them. */
void stage_windows(Pass *p);      /* window.c */
void stage_deadlines(Pass *p);    /* deadline.c */
void stage_entitlement(Pass *p);  /* stage-entitle.c */
void stage_hybrid(Pass *p);       /* stage-hybrid.c, run by stage_entitlement */
void stage_order(Pass *p);        /* stage-order.c */
void sched_resume(Pass *p);       /* resume.c */
void stage_place(Pass *p);        /* stage-place.c */
void stage_place_clear(Pass *p);
void stage_reclaim(Pass *p);      /* stage-reclaim.c */

/* stage-preempt.c: the preemption stage, entered by placement for a job
 * it could not place (placed_none) or that MAX_JOBS holds.  TRUE when
 * the job was dispatched over victims. */
gboolean stage_preempt(Pass *p, guint idx, gboolean placed_none);

/* plan.c */
SchedPlan *plan_new(const SchedSnapshot *snap);
/* Append a decision on job (pending index for a dispatch, running index
 * otherwise); by: the preemptor of a preemption, else 0. */
void plan_add(SchedPlan *plan, SchedDecisionKind kind, guint job, guint by);
/* The scheduler must run again at t (same clock as snap->now). */
void plan_wake_at(SchedPlan *plan, gint64 t);

/* A host's state this pass: the snapshot's, closed_Wind outside its
 * dispatch window (window.c). */
static inline SchedHostState
sched_host_state(const Pass *p, guint h)
{
	return p->host_state[h];
}

/* Host h's idle slots as this pass counts them, the one rule the
 * entitlement and reclaim stages share: none on a host that is not OK
 * this pass (closed, or outside its dispatch window), else its slots less
 * what the counters hold (started slots, those placed by this pass, and
 * SLOT_RESERVE reservations, which stage-reserve.c counts in). */
static inline int
sched_host_idle(const Pass *p, guint h)
{
	if (sched_host_state(p, h) != SCHED_HOST_OK)
		return 0;
	return MAX(0, sched_rgroup_host_slots(&p->snap->hosts[h]) -
	    sched_count_host(&p->count, h));
}

/* Why job j cannot be considered at all (held, dependency, inactive
 * queue, array limit), or SCHED_PEND_NONE. */
SchedPendReason sched_job_gate(Pass *p, const SchedJob *j);
/* Try to start pending job idx; its plan entry says why not. */
void sched_consider(Pass *p, guint idx);

/* Slots job j may take cluster-wide; *why names the limit when fewer than
 * its min_slots. */
int sched_job_headroom(Pass *p, const SchedJob *j, SchedPendReason *why);
/* Free slots for j on host h under the slot limits alone (no host state,
 * no -R), capped by ptile; 0 with the reason in *why. */
int sched_host_room(Pass *p, const SchedJob *j, guint h, SchedHostReason *why);
/* Whether h can take j at all: up, asked for (-m) and meeting its -R. */
gboolean sched_host_usable(Pass *p, const SchedJob *j, guint h);
/* Record the dispatch of pending job idx on allocs [first, first + n),
 * after any preemptions just added for it, and count its slots. */
void sched_commit(Pass *p, guint idx, guint first, guint n);

/* open.c.  Positions run from open_first() by open_next() to G_MAXUINT. */
OpenHosts *open_new(const SchedSnapshot *snap);
void open_free(OpenHosts *open, guint n_queues);
/* Queue q's list, built at first use. */
OpenHosts *open_hosts(Pass *p, guint q);
guint open_first(const OpenHosts *oh);
guint open_next(const OpenHosts *oh, guint c);
/* Whether listed position c may still take the queue's jobs; if not, it
 * is unlinked and counted under its reason. */
gboolean open_take(Pass *p, OpenHosts *oh, guint c);
/* Whether position c is in the list (it may take jobs, or was not found
 * closed yet). */
static inline gboolean
open_listed(const OpenHosts *oh, guint c)
{
	return oh->state[c] == _SCHED_HR_MAX;
}
/* Host h reached its MXJ: where a queue limit closed it, MXJ now says why. */
void open_host_filled(Pass *p, guint h);
/* Host h may have room again (a preemption released some): look again
 * where it is closed. */
void open_reopen(Pass *p, guint h);
/* Whether host h has reached its MXJ (the first host limit checked). */
gboolean sched_host_full(Pass *p, guint h);
/* ceil(per_cpu x ncpus), INT_MAX when per_cpu < 0 (no limit). */
int sched_cpu_cap(double per_cpu, int ncpus);

/* resreq-host.c: whether the host meets the job's -R select[] and
 * rusage[mem]; TRUE for a NULL rr. */
gboolean sched_resreq_host_ok(const BsResReq *rr, const SchedHost *host);
/* The same through the pass's memo of the last -R asked (NULL: none). */
gboolean sched_resreq_host_ok_memo(ResreqMemo *m, const BsResReq *rr,
    const SchedSnapshot *snap, guint h);
ResreqMemo *resreq_memo_new(guint n_hosts);
void resreq_memo_free(ResreqMemo *m);
/* Whether rr can rule out a host at all (has a select or a memory ask):
 * jobs without one may share what the pass learnt about their shape. */
gboolean sched_resreq_constrains(const BsResReq *rr);

/* exclusive.c: bsub -x.  excl_init before placement; excl_host_ok
 * before a job takes host h (FALSE with the reason); excl_placed after it
 * did. */
void excl_init(Pass *p);
gboolean excl_host_ok(const Pass *p, const SchedJob *j, guint h,
    SchedHostReason *why);
void excl_placed(Pass *p, const SchedJob *j, guint h);
/* Whether host h is closed to every job by an exclusive job, running,
 * placed this pass, or holding a reservation there.  Inline: the open
 * lists (open.c) ask it for every host they pass. */
static inline gboolean
excl_closed(const Pass *p, guint h)
{
	return p->excl != NULL && (p->excl[h] || p->excl_held[h] > 0);
}
/* A -x job's reservation on host h counted (sign > 0) or let go. */
void excl_reserved(Pass *p, const SchedJob *j, guint h, int sign);

/* stage-order.c: each queue's jobs by -sp user priority, highest first,
 * the order given kept among equals (btop/bbot act within a priority). */
void order_by_user_priority(const SchedSnapshot *snap, guint *order);

/* prehosts.c: position c of queue q's open list left it or came back. */
void prehosts_listed(Pass *p, guint q, guint h, gboolean listed);

/* preempt.c */
Preempt *preempt_new(const SchedSnapshot *snap);
void preempt_free(Preempt *pre);
/* Whether jobs of queue q may preempt any queue. */
gboolean preempt_queue_can(const Preempt *pre, guint q);
/* Try to start pending job idx by preempting running jobs; TRUE when it
 * was dispatched (victims and dispatch are in the plan).  placed_none:
 * placement has just found no host offering the job a slot. */
gboolean preempt_try(Pass *p, guint idx, gboolean placed_none);


/* pool.c: queue-based fairshare. */
/* NULL when no queue is in a pool.  Fills plan->queue_deserved with -1. */
Pools *pools_new(Pass *p);
void pools_free(Pools *pl);
/* The key pending jobs are sorted by, highest first: each queue's own
 * PRIORITY; a pool's queues of equal priority in its entitlement order.
 * pl may be NULL.  [n_queues], g_free. */
int *pools_sort_key(const Pools *pl, const SchedSnapshot *snap);
/* Remember the pass order (order[0..n)) to find each queue's jobs. */
void pools_set_order(Pools *pl, const SchedSnapshot *snap, const guint *order,
    guint n);
/* Before pending job idx is considered: when it is a pool queue's and the
 * pool's turn has not come yet, measure the pool and compute its
 * entitlements.  TRUE for a pool queue's job. */
gboolean pools_take_turn(Pass *p, guint idx);
/* Slots queue q may take on host h, given what its pool keeps there for
 * its queues with per-host limits; INT_MAX when nothing is kept. */
int pools_host_room(Pass *p, guint q, guint h);
/* Queue q placed `slots` on host h. */
void pools_placed(Pass *p, guint q, guint h, int slots);
/* After job idx was considered: the pool's USE_PRIORITY_IN_POOL round
 * once its last job had its place. */
void pools_considered(Pass *p, guint idx);
/* Slots queue q may still take in this pass under its pool, INT_MAX
 * when it is in no pool. */
int pools_queue_room(Pass *p, guint q);
/* Whether the hosts, not the share, hold queue q's jobs: its pool found
 * no free slot on its hosts at its turn, and queues outside the pool hold
 * some of them or q is below its entitlement. */
gboolean pools_hosts_full(Pass *p, guint q);
/* Entitlements of pools that had no turn (nothing pending), for bqueues. */
void pools_finish(Pass *p);

#endif
