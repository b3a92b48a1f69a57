/*
 * Slot counters for one scheduling pass: what each queue, user, group, host
 * and their pairs hold.  Built once from the running jobs, then bumped as the
 * pass dispatches, suspends and resumes, so every limit check is a lookup,
 * not a scan.
 *
 * Suspended slots are counted twice: in the totals, and apart, so that a
 * limit which ignores suspended jobs under preemption (lsf-reference 4.1,
 * "Slot counting under preemption") subtracts them.  The accessors below
 * apply that table; callers never read the raw arrays for those limits.
 */
#ifndef BS_SCHED_COUNT_H
#define BS_SCHED_COUNT_H

#include "sched.h"

/* Which limits ignore suspended jobs in this pass: TRUE = only running
 * jobs count.  All FALSE when preemption is not configured. */
typedef struct {
	gboolean host;            /* MXJ */
	gboolean user;            /* lsb.users MAX_JOBS of one user */
	gboolean group;           /* group MAX_JOBS: PREEMPT_FOR=GROUP_MAX */
	gboolean group_cpu;       /* group JL/P: GROUP_JLP */
	gboolean user_host;       /* lsb.hosts JL/U: HOST_JLU */
	gboolean user_cpu;        /* lsb.users JL/P: USER_JLP */
} SchedRunOnly;

/* Counters keyed by two indexes packed in 64 bits (or an array's job id):
 * an open-addressing table, since the pass looks them up for every host it
 * considers. */
typedef struct {
	guint64 *keys;            /* SCHED_PAIR_EMPTY where unused */
	int *vals;
	guint mask;               /* size - 1, a power of two */
	guint n;                  /* keys in use */
} SchedPairs;

typedef struct {
	SchedRunOnly run_only;
	int *host;                /* [n_hosts] started slots (RUN + SUSP) */
	int *queue;               /* [n_queues] */
	int *user;                /* [n_users] */
	int *group;               /* [n_groups] */
	SchedPairs *queue_user;   /* pair key -> slots */
	SchedPairs *queue_host;
	SchedPairs *user_host;
	SchedPairs *group_host;
	SchedPairs *array;        /* array job id -> started elements */
	int *jobgroup;            /* [n_jobgroups] started jobs of the subtree */
	/* The suspended part of the counters above that preemption can exempt. */
	int *susp_host;
	int *susp_user;
	int *susp_group;
	SchedPairs *susp_user_host;
	SchedPairs *susp_group_host;
} SchedCount;

void sched_count_init(SchedCount *c, const SchedSnapshot *snap);
void sched_count_clear(SchedCount *c);
/* Add `slots` on `host` held by a job of `queue` and `user` (negative to
 * release them). */
void sched_count_add(SchedCount *c, const SchedSnapshot *snap, guint queue,
    guint user, guint host, int slots);
/* Mark `slots` of a started job as suspended (negative: resumed). */
void sched_count_suspend(SchedCount *c, const SchedSnapshot *snap, guint user,
    guint host, int slots);
void sched_count_add_array(SchedCount *c, guint64 array_id);

/* jobgroup-limit.c: a job of group g (index + 1, 0 none) started, and
 * whether the group or an ancestor has no room for one more. */
void sched_count_add_jobgroup(SchedCount *c, const SchedSnapshot *snap,
    guint g);
gboolean sched_jobgroup_full(const SchedCount *c, const SchedSnapshot *snap,
    guint g);

int sched_count_pair(const SchedPairs *t, guint a, guint b);
int sched_count_array(const SchedCount *c, guint64 array_id);

/* Slots counting against each limit, under the pass's counting rules. */
/* Inline: the pass reads it for every host it looks at. */
static inline int
sched_count_host(const SchedCount *c, guint host)
{
	return c->run_only.host ? c->host[host] - c->susp_host[host] :
	    c->host[host];
}
int sched_count_user(const SchedCount *c, guint user);
int sched_count_group(const SchedCount *c, guint group);
int sched_count_user_host_jlu(const SchedCount *c, guint user, guint host);
int sched_count_user_host_cpu(const SchedCount *c, guint user, guint host);
int sched_count_group_host(const SchedCount *c, guint group, guint host);

/* Preemption is configured when any queue is PREEMPTIVE or PREEMPTABLE. */
gboolean sched_preemption_configured(const SchedSnapshot *snap);

#endif
