/*
 * Resource plans inside one scheduling pass (internal to mbatchd/sched):
 * the entitlement stage (stage-hybrid.c) fills a Hybrid with each
 * consumer's quota and what it may start this pass; placement asks it how
 * many more slots a job may take (hybrid-place.c); hybrid-quota.c divides
 * one parent's slots among its children.
 */
#ifndef BS_SCHED_HYBRID_H
#define BS_SCHED_HYBRID_H

#include "pass.h"

/* One sibling in a division (hybrid-quota.c).  Slots are doubles until
 * the division rounds them: owned slots scale to fractions. */
typedef struct {
	double floor;             /* given first: reserve, an owner's unlent slots */
	double base;              /* then, up to this: the owned part (>= floor) */
	double cap;               /* never more: limit, demand (or reserve) */
	double weight;            /* borrowing weight: scaled owned or SHARE;
	                           * 0: owns nothing, waits for the owners */
	int rank;
	guint order;              /* position in the plan: rank ties */
	int quota;                /* out: whole slots */
} QuotaShare;

/* Divide `total` slots among n siblings: floors, then owned parts (in
 * proportion to owned when short), then the rest in proportion to weight
 * among owners and evenly among those owning nothing once no owner needs
 * more (evenly: among all that need more); fractions rounded down, the
 * leftover slots one each by rank then plan order. */
void hybrid_divide(QuotaShare *c, guint n, int total, gboolean evenly);

struct Hybrid {
	guint n_c, n_g;
	guint *host_group;        /* [n_hosts]: 1 + group, 0: in none */
	guint8 *queue_groups;     /* [q * n_g + g]: queue q's hosts reach group g */
	guint *queue_only;        /* [n_queues]: 1 + the group holding all its
	                           * candidate hosts, 0: none does */
	guint *queue_n_hosts;     /* [n_queues]: its candidate hosts */
	/* [g * n_c + c] */
	const SchedPlanTerms **terms;
	SchedPlanInForce *force;  /* [n_g]: each group's plan in force now */
	guint *pos;               /* plan order */
	double *owned;            /* scaled */
	double *floor;            /* reserve, or what the children reserve */
	double *kids_floor;       /* the children's floors, summed */
	int *need;                /* demand as divisions read it (count_need) */
	int *demand, *alloc, *quota, *grant, *placed;
	int *size;                /* [n_g]: slots of its OK hosts */
	int *idle;                /* [n_g]: free slots of its OK hosts */
	int *outside_left;        /* [n_g]: idle slots jobs outside every
	                           * consumer may still take this pass */
	int *outside_placed;      /* [n_g] */
	guint **children;         /* [n_c + 1]: children of c, [n_c] the roots,
	                           * each G_MAXUINT-terminated, tree order */
	/* Running jobs holding slots on a group's hosts, by consumer
	 * (run_by[run_first[c] .. run_first[c + 1]), c = n_c: outside every
	 * consumer), built by the first preemption that needs them. */
	guint *run_first, *run_by;
};

/* hybrid-place.c: placement's questions. */
/* Slots the job's consumer may still start in the groups its queue's
 * hosts reach; INT_MAX for a job outside every consumer or whose queue
 * reaches no group.  *group: the first of them, for the reason. */
int hybrid_job_room(const Pass *p, const SchedJob *j, guint *group);
/* For a job outside every consumer whose queue's hosts all lie in one
 * group: the idle slots no consumer was granted there, else INT_MAX; so
 * such a job is not tried host by host when there are none.  *n_hosts:
 * its queue's candidate hosts, for the reason. */
int hybrid_outside_room(const Pass *p, const SchedJob *j, guint *n_hosts);
/* Slots job j may take on host h under the plan of h's group. */
int hybrid_host_room(const Pass *p, const SchedJob *j, guint h);
void hybrid_placed(Pass *p, const SchedJob *j, guint h, int slots);
/* Preemption and resume under plans (hybrid-place.c).  Whether running
 * job r holds slots of its consumer's allocation: not when suspended by
 * preemption. */
gboolean hybrid_holds_slots(const SchedRunning *r);
/* Whether r holds a slot on a group's host. */
gboolean hybrid_in_groups(const Pass *p, const SchedRunning *r);
/* Whether j may preempt r: r holds no slot on a group's host, or both
 * belong to the same consumer, or both to none. */
gboolean hybrid_may_preempt(const Pass *p, const SchedJob *j,
    const SchedRunning *r);
/* r stops (sign 1) or starts again (-1) counting against its consumer's
 * (or the outside jobs') slots this pass. */
void hybrid_released(Pass *p, const SchedRunning *r, int sign);
/* What the plans let j start in all: hybrid_job_room, and for a job
 * outside every consumer hybrid_outside_room; INT_MAX without plans. */
int hybrid_preempt_room(const Pass *p, const SchedJob *j);
/* The running jobs holding slots on a group's hosts of j's consumer
 * (or, for a job outside every consumer, of none): *n of them. */
const guint *hybrid_running_beside(Pass *p, const SchedJob *j, guint *n);
/* Whether every candidate host of queue q lies in one group. */
gboolean hybrid_queue_in_group(const Pass *p, guint q);
/* Whether a job suspended by preemption may resume within what its
 * consumer (or the outside jobs) may still start in each group. */
gboolean hybrid_resume_fits(const Pass *p, const SchedRunning *r);
/* After placement: each row's allocation, borrowed and lent. */
void hybrid_finish(Pass *p);
void hybrid_free(Hybrid *hy);

#endif
