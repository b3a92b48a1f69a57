/*
 * The scheduler's contract: a read-only, closed snapshot of the cluster
 * goes in, a plan comes out.  Closed: everything the policies read is in
 * the snapshot (hosts with their load and memory figures, queues with
 * their limits and parsed time windows, each job's parsed -R and
 * evaluated dependencies, the time as `now`), so nothing here touches
 * sockets, files, clocks or globals, or calls back into the daemon
 * (tests/unit/sched-closed.sh checks the sources).  The daemon builds the
 * snapshot from its state, runs sched_run(), and applies the plan's
 * decisions in order.  The same code runs in unit tests and in benchmarks
 * over simulated clusters.
 *
 * sched_run() is a pipeline of stages (sched.c lists them): time windows,
 * termination times, entitlement, queue order, resume, placement,
 * preemption.  The plan is a
 * list of typed decisions, the pending reasons, and when to run next.
 *
 * Indexes, not pointers, link the pieces: a job names its queue and user by
 * their position in the snapshot's arrays, a placement names hosts the same
 * way.  That keeps the snapshot cheap to build and trivial to free.
 */
#ifndef BS_SCHED_H
#define BS_SCHED_H

#include <glib.h>
#include <stdint.h>

#include "resreq/resreq.h"
#include "sched-consumers.h"
#include "sched-reclaim.h"

#define SCHED_UNLIMITED (-1)

typedef enum {
	SCHED_HOST_OK = 0,
	SCHED_HOST_CLOSED_ADM,    /* badmin hclose */
	SCHED_HOST_CLOSED_WIND,   /* outside its DISPATCH_WINDOW */
	SCHED_HOST_UNAVAIL,       /* sbatchd not registered or heartbeats missed */
} SchedHostState;

typedef struct {
	const char *name;
	int max_slots;            /* MXJ, SCHED_UNLIMITED for none */
	int ncpus;
	int jl_u;                 /* lsb.hosts JL/U: slots per user on this host */
	SchedHostState state;
	double r15s;              /* load, for the least-loaded-first order */
	double r1m;               /* breaks r15s ties when choosing victims */
	/* What -R select[] and rusage[mem] read (resreq-host.c).  Memory
	 * in MB.  load_known FALSE: the host never reported its load, and
	 * a select on a load index fails there. */
	gboolean load_known;
	double r15m, ut, mem, swp, tmp;
	double maxmem;            /* 0 when unknown */
	const char *type;         /* NULL: "LINUX" */
	const char *model;        /* NULL: "LINUX" */
	/* lsb.hosts DISPATCH_WINDOW (BsTimeWindow array, NULL: always open):
	 * outside it the host is closed_Wind for new jobs (window.c). */
	const GArray *dispatch_window;
	/* badmin hclose -reclaim: its jobs are reclaimed (notice, grace,
	 * requeue) while the host takes no new job (state CLOSED_ADM). */
	gboolean reclaim;
	/* MultiCluster (mbatchd/mc-leased.h): a host another cluster lends
	 * this one, named "host@cluster"; cluster is the provider, so the
	 * job relay knows where a job placed here goes.  max_slots is the
	 * slots the lease gives this cluster now; state is CLOSED_ADM while
	 * the lease is inactive or disconnected.  Only queues whose HOSTS
	 * name it (allremote, all@cluster, host@cluster) list it. */
	gboolean remote;
	const char *cluster;      /* the provider; NULL for a local host */
} SchedHost;

typedef struct {
	guint host;               /* index into SchedSnapshot.hosts */
	int pref;                 /* HOSTS "+N" preference; higher first */
} SchedQueueHost;

/*
 * One entry of a queue's PREEMPTION lists: PREEMPTIVE[low+2 normal] or
 * PREEMPTABLE[high], the queue named by its index.  The daemon translates
 * names; the policy decides what the lists mean (preempt.c).
 */
typedef struct {
	guint queue;              /* index into SchedSnapshot.queues */
	int pref;                 /* the "+N" of a PREEMPTIVE entry */
	gboolean has_pref;        /* "+N" was written (PREEMPTIVE lists only) */
} SchedQueueRef;

typedef struct {
	const char *name;
	int priority;
	/* Not inactivated by badmin qinact.  (A builder may also fold
	 * closed windows in and say so with inactive_by_admin FALSE; the
	 * windows below are checked either way.) */
	gboolean dispatch_ok;
	gboolean inactive_by_admin; /* why dispatch_ok is FALSE: admin or window */
	int qjob_limit;           /* slots of the whole queue */
	int ujob_limit;           /* slots per user in the queue */
	int hjob_limit;           /* slots per host from the queue */
	double pjob_limit;        /* slots per CPU per host; < 0 unlimited */
	SchedQueueHost *hosts;    /* candidate hosts; NULL = every host */
	guint n_hosts;
	/* PREEMPTION.  A list with no entries is the bare keyword: every
	 * lower-priority (PREEMPTIVE) or higher-priority (PREEMPTABLE) queue. */
	gboolean preemptive;
	SchedQueueRef *preemptive_queues;
	guint n_preemptive_queues;
	gboolean preemptable;
	SchedQueueRef *preemptable_queues;
	guint n_preemptable_queues;
	gboolean terminate_on_preempt;  /* TERMINATE_WHEN=PREEMPT */
	/* Time windows, lib/conf BsTimeWindow arrays (NULL: always open),
	 * read against now by the time-driven stage (window.c).  Outside
	 * dispatch_window the queue starts nothing; outside run_window it
	 * starts nothing and its running jobs are suspended, or killed with
	 * terminate_on_window (TERMINATE_WHEN=WINDOW). */
	const GArray *dispatch_window;
	const GArray *run_window;
	gboolean terminate_on_window;
	/* Queue-based fairshare (pool.c).  in_pool FALSE (a zeroed struct):
	 * the queue is in no SLOT_POOL. */
	gboolean in_pool;
	guint pool;               /* index into SchedSnapshot.pools */
	int slot_share;           /* SLOT_SHARE, percent of the pool */
	double pool_usage;        /* decayed accumulated slots used, kept by
	                           * the daemon; orders queues of equal need */
	/* SLOT_RESERVE and BACKFILL (stage-reserve.c).  reserve_time: how
	 * long a parallel job may hold reserved slots, MAX_RESERVE_TIME x
	 * MBD_SLEEP_TIME seconds; 0: the queue does not reserve. */
	gint64 reserve_time;
	gboolean backfill;
} SchedQueue;

/* A SLOT_POOL of lsb.queues: the queues naming it share its slots. */
typedef struct {
	const char *name;
	int max_slots;            /* MAX_SLOTS_IN_POOL; <= 0 unlimited */
	gboolean use_priority;    /* USE_PRIORITY_IN_POOL */
} SchedPool;

typedef struct {
	const char *name;
	int max_jobs;             /* lsb.users MAX_JOBS: slots cluster-wide */
	double jl_p;              /* lsb.users JL/P: slots per CPU; < 0 unlimited */
	guint *groups;            /* indexes of the SchedGroups the user is in */
	guint n_groups;
} SchedUser;

typedef struct {
	const char *name;
	int max_jobs;             /* slots of all members together */
	/* lsb.users JL/P of the group: slots per CPU on one host for all
	 * members together.  <= 0 is unlimited (unlike SchedUser.jl_p), so a
	 * zeroed struct means no limit. */
	double jl_p;
} SchedGroup;

/* Where a dispatched or started job holds slots. */
typedef struct {
	guint host;
	int slots;
} SchedAlloc;

typedef enum {
	SCHED_DEP_NONE = 0,       /* no dependency, or it is satisfied */
	SCHED_DEP_WAIT,
	SCHED_DEP_NEVER,
} SchedDepState;

typedef struct {
	guint64 id;
	guint32 array_index;
	guint queue;
	guint user;
	int min_slots;
	int max_slots;            /* >= min_slots */
	gboolean one_host;        /* span[hosts=1] */
	int ptile;                /* span[ptile=N]; 0 = no per-host bound */
	/* bsub -x: only on hosts where nothing else runs, and nothing else
	 * joins it there (exclusive.c).  (Here, and user_priority below,
	 * where the layout had room: the pass reads every job's record.) */
	gboolean exclusive;
	guint *asked_hosts;       /* bsub -m; NULL = any */
	guint n_asked_hosts;
	gboolean held;            /* PSUSP */
	SchedDepState dep;
	/* bsub -sp under MAX_USER_PRIORITY (its default when not given): the
	 * order within the queue, highest first; 0 with the feature off. */
	int user_priority;
	gint64 begin_time;        /* bsub -b; 0 = none */
	guint64 array_id;         /* job id of its array; 0 if not an element */
	int array_limit;          /* "%N" of the array; 0 = none */
	/* bsub -R as parsed when the submission was applied; select[] and
	 * rusage[mem] are checked against each host's figures
	 * (resreq-host.c).  NULL: none.  one_host and ptile above are its
	 * span[], copied out. */
	const BsResReq *resreq;
	/* bsub -P and -app, as indexes into SchedSnapshot.projects and
	 * .apps; read only when the snapshot has limits (stage-limits.c). */
	guint project;
	guint app;
	/* Run limit in seconds (-W, else the queue's or application's
	 * RUNLIMIT), 0: none.  Only a job with one may backfill. */
	gint64 run_limit;
	/* Slot reservation carried from the previous pass's plan
	 * (SchedPlan.reserves): the slots it holds, since when, and until
	 * when it may not reserve after its reservation expired (0: none). */
	const SchedAlloc *reserved;
	guint n_reserved;
	gint64 reserve_since;
	gint64 reserve_banned_until;
	/* bsub -We in seconds, 0: none.  Backfill reads it as the job's
	 * expected duration when shorter than its run limit. */
	gint64 est_runtime;
	/* bsub -t: past it the job is not started but ends (deadline.c);
	 * 0: none. */
	gint64 term_time;
	/* Hosts where the job's pre-exec failed: placed elsewhere while
	 * any other host fits, on them only when none does.  NULL: none. */
	const guint *avoid_hosts;
	guint n_avoid_hosts;
	/* Hosts that refused to start the job (user unknown there, root
	 * jobs not allowed there...): never placed there.  NULL: none. */
	const guint *refused_hosts;
	guint n_refused_hosts;
	/* bsub -g: index + 1 into SchedSnapshot.jobgroups; 0: no group. */
	guint jobgroup;
	/* Resource plans: 1 + index into SchedSnapshot.consumers of the
	 * job's leaf consumer (bsub -consumer, else its queue's CONSUMER);
	 * 0: outside every consumer, scheduled as without plans. */
	guint consumer;
} SchedJob;

typedef enum {
	SCHED_RUN_RUN = 0,
	SCHED_RUN_SSUSP,
	SCHED_RUN_USUSP,
} SchedRunState;

typedef struct {
	guint64 id;
	guint queue;
	guint user;
	SchedRunState state;
	gboolean exclusive;       /* bsub -x: its hosts take no other job */
	guint64 array_id;
	SchedAlloc *allocs;
	guint n_allocs;
	gboolean deadline_sent;   /* its -t kill was already ordered */
	/* Preemption.  All zero is a job never preempted, without a limit. */
	gint64 start_time;        /* same clock as SchedSnapshot.now; victims
	                           * most recently started first */
	int preempt_count;        /* times preempted so far (journaled) */
	int max_preempt;          /* effective MAX_JOB_PREEMPT (application >
	                           * queue > lsb.params); <= 0 unlimited */
	gboolean preempted;       /* with state SSUSP: suspended by preemption,
	                           * so the policy resumes it (resume.c) */
	gboolean window_held;     /* with state SSUSP: suspended because its
	                           * queue's run window closed (window.c) */
	gboolean terminating;     /* a kill was already ordered: the window
	                           * stage does not order it again */
	/* What lsb.resources limits count (stage-limits.c): -P, -app as
	 * indexes like SchedJob's, and -R for its rusage. */
	guint project;
	guint app;
	const BsResReq *resreq;
	gint64 run_limit;         /* seconds, 0: none; with start_time, when a
	                           * reservation's slots are expected free */
	gint64 est_runtime;       /* bsub -We, seconds, 0: none */
	gint64 term_time;         /* bsub -t, 0: none: killed when it passes */
	guint jobgroup;           /* bsub -g, as SchedJob.jobgroup */
	guint consumer;           /* as SchedJob.consumer; 0: none */
	/* Reclaim (stage-reclaim.c).  reclaim_deadline: the journaled grace
	 * deadline of a reclaim in progress, 0: none; past it the job is
	 * terminated and requeued.  user_priority: its bsub -sp, which with
	 * the queue's PRIORITY says how important it is. */
	gint64 reclaim_deadline;
	int user_priority;
} SchedRunning;

/*
 * A job group (bgadd -L, jobgroup-limit.c): its parent by index, -1 for
 * a top-level group, and the most started jobs (RUN, SSUSP, USUSP; a job
 * counts once whatever its slots) its whole subtree may hold,
 * SCHED_UNLIMITED for none.  A parent comes before its children.
 */
typedef struct {
	const char *path;
	int parent;
	int limit;
} SchedJobGroup;

/*
 * How long a job is expected to run, for backfill: its run limit, or its
 * -We estimate when that is shorter (LSF uses the smaller of the two);
 * 0 when neither is known.
 */
static inline gint64
sched_expected_duration(gint64 run_limit, gint64 est_runtime)
{
	if (est_runtime > 0 && (run_limit <= 0 || est_runtime < run_limit))
		return est_runtime;
	return run_limit > 0 ? run_limit : 0;
}

/*
 * When a running job is expected to free its slots, 0: not known.  A job
 * past its -We estimate is not killed (only a run limit kills), so from
 * then on only its run limit tells.
 */
static inline gint64
sched_expected_end(const SchedRunning *r, gint64 now)
{
	gint64 d = sched_expected_duration(r->run_limit, r->est_runtime);

	if (d > 0 && r->start_time + d <= now && d != r->run_limit)
		d = r->run_limit;
	return d > 0 ? r->start_time + d : 0;
}

/* PREEMPT_FOR keywords: the same bits as BsPreemptFor in lib/conf/conf.h,
 * so the daemon copies the configured word as it is. */
typedef enum {
	SCHED_PREEMPT_FOR_GROUP_JLP = 1 << 0,
	SCHED_PREEMPT_FOR_GROUP_MAX = 1 << 1,
	SCHED_PREEMPT_FOR_HOST_JLU = 1 << 2,
	SCHED_PREEMPT_FOR_USER_JLP = 1 << 3,
	SCHED_PREEMPT_FOR_LEAST_RUN_TIME = 1 << 4,
	SCHED_PREEMPT_FOR_MINI_JOB = 1 << 5,
	SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB = 1 << 6,
} SchedPreemptFor;

/*
 * An lsb.resources Limit section, resolved against the snapshot by the
 * builder (mbatchd/limits-input.c).  Each consumer dimension maps a
 * member (user, queue, host, project, application profile, by index) to
 * a bucket: NULL is a dimension the limit does not name (every member,
 * one bucket); else bucket[i] == 0 is a member the limit does not cover
 * and k > 0 its bucket.  All members share bucket 1 in the plain forms
 * (USERS = a b: a and b together); the PER_ forms give each member its
 * own (or a `group/` one for the group).  n_buckets bounds the k.
 */
typedef enum {
	SCHED_LIM_USER = 0,
	SCHED_LIM_QUEUE,
	SCHED_LIM_HOST,
	SCHED_LIM_PROJECT,
	SCHED_LIM_APP,
	SCHED_LIM_NDIM
} SchedLimitDim;

typedef struct {
	const char *name;
	const guint *bucket[SCHED_LIM_NDIM];
	guint n_buckets[SCHED_LIM_NDIM];
	gboolean per[SCHED_LIM_NDIM];     /* written as PER_ */
	/* For blimits: the name of bucket k of a PER_ dimension at [k]. */
	const char *const *bucket_names[SCHED_LIM_NDIM];
	/* PER_USER naming users one by one (no `group/`): under
	 * PREEMPT_FOR its per-processor part is USER_JLP, not GROUP_JLP. */
	gboolean per_single_user;
	int slots;                /* SCHED_UNLIMITED when not set */
	double slots_per_proc;    /* < 0 not set */
	int jobs;                 /* SCHED_UNLIMITED when not set */
	double mem, swp, tmp;     /* MB, or percent when *_pct; < 0 not set */
	gboolean mem_pct, swp_pct, tmp_pct;
	const char *const *res_names; /* RESOURCE names, n_res of them */
	const double *res_values;
	guint n_res;
} SchedLimit;

typedef struct {
	SchedHost *hosts;
	guint n_hosts;
	SchedQueue *queues;
	guint n_queues;
	SchedUser *users;
	guint n_users;
	SchedGroup *groups;
	guint n_groups;
	SchedRunning *running;    /* started jobs: RUN, SSUSP, USUSP */
	guint n_running;
	/* Pending jobs of every queue, each queue's jobs in its dispatch order
	 * (submission, btop/bbot, requeue-to-head already applied). */
	SchedJob *pending;
	guint n_pending;
	gint64 now;               /* seconds since the epoch: the only clock */
	int utc_offset;           /* seconds east of UTC at now: windows are
	                           * written in local time */
	/* PREEMPT_FOR.  Whether preemption is configured at all is not a
	 * field: it is whether any queue is preemptive or preemptable. */
	guint preempt_for;        /* SchedPreemptFor bits */
	/* SLOT_POOLs, named by SchedQueue.pool; none = no queue-based
	 * fairshare. */
	SchedPool *pools;
	guint n_pools;
	/* lsb.resources Limit sections; none = nothing to enforce.  Job
	 * projects and profiles index these names. */
	SchedLimit *limits;
	guint n_limits;
	const char *const *projects;
	guint n_projects;
	const char *const *apps;  /* apps[0] is "" : no -app */
	guint n_apps;
	/* MBD_SLEEP_TIME in seconds: one scheduling session, how long a job
	 * whose reservation expired may not reserve again. */
	int session_time;
	/* Job groups that jobs name; none = no group limit to check. */
	SchedJobGroup *jobgroups;
	guint n_jobgroups;
	/* Resource plans (sched-consumers.h); none = no plans. */
	SchedConsumer *consumers;
	guint n_consumers;
	SchedResourceGroup *rgroups;
	guint n_rgroups;
	gboolean hybrid_evenly;   /* HYBRID_EVENLY_DISTRIBUTE_SLOTS */
	SchedReclaimOptions reclaim; /* lsb.params reclaim options */
	/* Plan transitions (stage-reclaim.c): a resource group whose plan in
	 * force at now differs from the one at prev_pass, or, when
	 * plan_reloaded, each group whose reload changed its plan
	 * (SchedResourceGroup.plan_changed), has its consumers brought to the
	 * new plan whether or not another consumer asks (seed "Time interval
	 * transitions"). */
	gint64 prev_pass;         /* when the previous pass ran (same clock
	                           * as now); 0: none since mbatchd started */
	gboolean plan_reloaded;   /* badmin reconfig since that pass */
} SchedSnapshot;

/*
 * Why a job is still pending.  A job-level reason holds the whole job; when
 * the job was stopped host by host, the plan counts hosts per host reason
 * instead, as `bjobs -p` prints them ("Job slot limit reached: 2 hosts;").
 */
typedef enum {
	SCHED_PEND_NONE = 0,
	SCHED_PEND_HELD,
	SCHED_PEND_BEGIN_TIME,
	SCHED_PEND_DEP_WAIT,
	SCHED_PEND_DEP_NEVER,
	SCHED_PEND_QUEUE_INACTIVE_ADM,
	SCHED_PEND_QUEUE_INACTIVE_WIN,
	SCHED_PEND_QUEUE_LIMIT,       /* QJOB_LIMIT */
	SCHED_PEND_QUEUE_USER_LIMIT,  /* UJOB_LIMIT */
	SCHED_PEND_USER_LIMIT,        /* lsb.users MAX_JOBS */
	SCHED_PEND_GROUP_LIMIT,       /* lsb.users group MAX_JOBS */
	SCHED_PEND_ARRAY_LIMIT,       /* job array "%N" */
	SCHED_PEND_NO_HOSTS,          /* the host reasons below tell why */
	SCHED_PEND_POOL_SHARE,        /* the queue's slot-pool share is used */
	SCHED_PEND_RES_LIMIT,         /* an lsb.resources Limit is full */
	SCHED_PEND_DEADLINE,          /* bsub -t passed: it ends instead */
	SCHED_PEND_JOBGROUP_LIMIT,    /* bgadd -L of its group or an ancestor */
	SCHED_PEND_CONSUMER_QUOTA,    /* its consumer is at its quota */
	_SCHED_PEND_MAX
} SchedPendReason;

typedef enum {
	SCHED_HR_NOT_USABLE = 0,      /* not in the queue's HOSTS */
	SCHED_HR_NOT_ASKED,           /* not in bsub -m */
	SCHED_HR_CLOSED_ADM,
	SCHED_HR_CLOSED_WIND,
	SCHED_HR_UNAVAIL,
	SCHED_HR_SLOTS,               /* MXJ reached */
	SCHED_HR_QUEUE_HOST,          /* HJOB_LIMIT */
	SCHED_HR_QUEUE_CPU,           /* PJOB_LIMIT */
	SCHED_HR_USER_HOST,           /* lsb.hosts JL/U */
	SCHED_HR_USER_CPU,            /* lsb.users JL/P */
	SCHED_HR_GROUP_CPU,           /* lsb.users JL/P of a user group */
	SCHED_HR_RESREQ,              /* -R select[] or rusage[mem] not met */
	SCHED_HR_NOT_ENOUGH,          /* free, but fewer slots than the job needs */
	SCHED_HR_RES_LIMIT,           /* an lsb.resources Limit on hosts is full */
	SCHED_HR_NONEXCLUSIVE,        /* -x, and other jobs run there */
	SCHED_HR_EXCL_RUNNING,        /* an exclusive job runs there */
	SCHED_HR_REFUSED,             /* the host refused to start this job */
	_SCHED_HR_MAX
} SchedHostReason;

typedef struct {
	SchedPendReason reason;
	guint32 host_counts[_SCHED_HR_MAX];   /* with SCHED_PEND_NO_HOSTS */
	/* With SCHED_PEND_POOL_SHARE: the pool's name, from the snapshot
	 * (valid while the snapshot's strings are). */
	const char *pool;
	/* With SCHED_PEND_RES_LIMIT, or a SCHED_HR_RES_LIMIT host count:
	 * the Limit's NAME, the resource ("slot", "job", "mem", ...) and
	 * on what it is defined ("user or user group", "queue", ...). */
	const char *limit;
	const char *limit_res;
	const char *limit_on;
	/* With SCHED_PEND_CONSUMER_QUOTA: the resource group's name. */
	const char *rgroup;
	/* Slots the job holds reserved after this pass (SLOT_RESERVE), and
	 * how many it needs: the reason then says it is collecting them. */
	int reserved;
	int reserve_need;
} SchedPending;

/*
 * A slot reservation the daemon keeps for the next pass (SLOT_RESERVE):
 * the pending job, the slots it holds (first_alloc, n_allocs into
 * SchedPlan.allocs), since when, and when it is expected to be able to
 * start (the run limits of the jobs on its hosts; 0: unknown).  An entry
 * with no slots and banned_until set is a job whose reservation expired:
 * it may not reserve again before then.
 */
typedef struct {
	guint job;                /* index into SchedSnapshot.pending */
	guint first_alloc;
	guint n_allocs;
	gint64 since;
	gint64 start;
	gint64 banned_until;
} SchedReserve;

/*
 * What the daemon is to do, one decision at a time.  A preemption names
 * its preemptor and comes right before that preemptor's dispatch; the
 * daemon applies decisions in plan order, one small function per kind
 * (mbatchd/mbd-dispatch.c).
 */
typedef enum {
	SCHED_DO_DISPATCH = 0,        /* start a pending job on its allocs */
	SCHED_DO_PREEMPT_SUSPEND,     /* suspend a running job for a preemptor */
	SCHED_DO_PREEMPT_TERMINATE,   /* kill it instead: TERMINATE_WHEN=PREEMPT */
	SCHED_DO_RESUME,              /* resume a job suspended by preemption */
	SCHED_DO_WINDOW_SUSPEND,      /* its queue's run window closed */
	SCHED_DO_WINDOW_RESUME,       /* the run window opened again */
	SCHED_DO_WINDOW_TERMINATE,    /* closed, and TERMINATE_WHEN=WINDOW */
	SCHED_DO_DEADLINE_TERMINATE,  /* a running job's -t passed: kill it */
	SCHED_DO_DEADLINE_EXIT,       /* a pending job's -t passed: it ends */
	SCHED_DO_RECLAIM_NOTICE,      /* reclaim a running job: its warning
	                               * action now, its grace deadline
	                               * journaled; by: index into
	                               * SchedPlan.reclaims */
	SCHED_DO_RECLAIM_REQUEUE,     /* its grace passed: terminate, requeue */
	_SCHED_DO_MAX
} SchedDecisionKind;

typedef struct {
	SchedDecisionKind kind;
	/* SCHED_DO_DISPATCH and SCHED_DO_DEADLINE_EXIT: index into
	 * SchedSnapshot.pending; every other kind: index into
	 * SchedSnapshot.running. */
	guint job;
	guint first_alloc;        /* SCHED_DO_DISPATCH: into SchedPlan.allocs */
	guint n_allocs;
	guint by;                 /* SCHED_DO_PREEMPT_*: the preemptor, index
	                           * into SchedSnapshot.pending;
	                           * SCHED_DO_RECLAIM_NOTICE: index into
	                           * SchedPlan.reclaims */
} SchedDecision;

typedef struct {
	GArray *decisions;        /* SchedDecision, in the order to apply */
	GArray *allocs;           /* SchedAlloc, referenced by dispatches */
	SchedPending *pending;    /* one per snapshot pending job */
	guint n_pending;
	/* Queue-based fairshare, for bqueues -l: each queue's deserved slots
	 * this pass (-1 for a queue in no pool) and each pool's size T, as
	 * computed when the pool's turn came (pool.c). */
	int *queue_deserved;      /* [n_queues] */
	guint n_queues;
	int *pool_slots;          /* [n_pools] */
	guint n_pools;
	/* When the scheduler must run again though nothing else happens
	 * (a window opens or closes, a begin time comes), on the clock of
	 * SchedSnapshot.now; 0: nothing timed. */
	gint64 next_wake;
	GArray *reserves;         /* SchedReserve, at most one per pending job */
	/* Resource plans: each consumer's quota per resource group
	 * (sched-consumers.h), for bconsumers and explain output. */
	SchedConsumerQuota *quotas;
	guint n_quotas;
	/* Reclaim (stage-reclaim.c): the jobs reclaimed this pass
	 * (SchedReclaim), each with a SCHED_DO_RECLAIM_NOTICE decision. */
	GArray *reclaims;
	/* [n_rgroups]: each resource group's idle slots after placement,
	 * counted as the entitlement stage counts them (sched_host_idle in
	 * pass.h); filled by the reclaim stage, NULL without groups. */
	int *group_idle;
} SchedPlan;

static inline const SchedDecision *
sched_plan_decision(const SchedPlan *plan, guint i)
{
	return &g_array_index(plan->decisions, SchedDecision, i);
}

/* How many decisions of this kind the plan holds. */
guint sched_plan_count(const SchedPlan *plan, SchedDecisionKind kind);
/* Whether the kind frees a running job's slots for a preemptor. */
static inline gboolean
sched_kind_preempts(SchedDecisionKind kind)
{
	return kind == SCHED_DO_PREEMPT_SUSPEND || kind == SCHED_DO_PREEMPT_TERMINATE;
}
/* The kind's name, for logs and tests ("dispatch", "window-suspend"). */
const char *sched_kind_name(SchedDecisionKind kind);

SchedPlan *sched_run(const SchedSnapshot *snap);

/*
 * The reclaim selection, pure: from the snapshot and the plan a pass over
 * it produced (its quota table and dispatches), which running jobs to
 * reclaim now, appended to out (GArray of SchedReclaim) in the order the
 * seed takes them.  Jobs already under reclaim (reclaim_deadline set) are
 * not chosen again; their slots count as coming back.  The idle slots are
 * the plan's group_idle (what the pass left; none when NULL), and a plan
 * change (prev_pass, plan_reloaded) is read from the snapshot.
 * sched_run() calls it at the end of the pass (stage-reclaim.c); a preview
 * runs sched_run() on a snapshot built from the configuration it shows.
 */
void sched_reclaim_select(const SchedSnapshot *snap, const SchedPlan *plan,
    GArray *out);
/*
 * Slots being reclaimed after this pass, per resource group and consumer
 * ([g * n_consumers + c], parents summing their children): jobs whose
 * reclaim is in progress and those the plan reclaims now.  g_free.
 */
int *sched_reclaim_counts(const SchedSnapshot *snap, const SchedPlan *plan);

/*
 * hybrid-hosts.c: resource groups' hosts as every part of resource plans
 * counts them (the entitlement and reclaim stages, bconsumers).  A host's
 * slots: its MXJ, else its CPUs (at least 1).
 */
int sched_rgroup_host_slots(const SchedHost *h);
/* host_group[h] = 1 + the first group listing host h, for the hosts of
 * every group; the caller zeroes the array ([n_hosts]) first. */
void sched_rgroup_host_map(const SchedSnapshot *s, guint *host_group);
/* The slots of group g's hosts whose snapshot state is OK (a dispatch
 * window closing inside a pass is the stage's own business). */
int sched_rgroup_slots(const SchedSnapshot *s, guint g);

/*
 * What lsb.resources limits hold now (stage-limits.c), counted from the
 * snapshot's running jobs by the same code the stage uses: for blimits.
 * One row per limit and bucket in use.  used/limit of a resource not set
 * in the limit are -1.
 */
typedef struct {
	guint limit;              /* index into SchedSnapshot.limits */
	/* The member each PER_ dimension names in this row, or NULL. */
	const char *member[SCHED_LIM_NDIM];
	int slots_used, slots_max;
	int jobs_used, jobs_max;
	double mem_used, mem_max, swp_used, swp_max, tmp_used, tmp_max;
	double *res_used;         /* [n_res of the limit] */
} SchedLimitUsage;

GArray *sched_limits_usage(const SchedSnapshot *snap);
void sched_limits_usage_free(GArray *rows);

/*
 * For queue-based fairshare: how many more slots jobs of queue q (of any
 * user, project and profile the limits could cover) could take under the
 * lsb.resources limits that cover every job of the queue, counted from
 * the snapshot's running jobs; INT_MAX when no such limit binds it.
 */
int sched_limits_queue_room(const SchedSnapshot *snap, guint q);
void sched_plan_free(SchedPlan *plan);

/* The plan of s->rgroups[g] in force at s->now (plan-window.c); *next,
 * when not NULL, gets the seconds until one of the group's plan windows
 * next opens or closes, -1 when never. */
SchedPlanInForce sched_plan_in_force(const SchedSnapshot *s, guint g, gint64 *next);
/* The same at time t (same clock as now) instead of now. */
SchedPlanInForce sched_plan_in_force_at(const SchedSnapshot *s, guint g, gint64 t,
    gint64 *next);
/* Seconds from t to the next minute at which one of the windows opens or
 * closes, -1 when none ever does (window.c). */
gint64 sched_windows_next_boundary(const GArray *windows, GDateTime *t);

/* LSF's wording for a reason, as `bjobs -p` prints it. */
const char *sched_pend_reason_text(SchedPendReason r);
const char *sched_host_reason_text(SchedHostReason r);
/* "reason; " for a job-level reason, or "reason: N hosts; " per host reason. */
char *sched_pending_format(const SchedPending *p);

#endif
