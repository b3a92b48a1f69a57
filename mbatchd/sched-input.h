/*
 * The configuration side of the scheduler's snapshot, without the daemon:
 * hosts, queues, pools, users and groups built from a BsConfig and the
 * runtime facts a caller states explicitly (which hosts are up, their
 * CPUs and load, which are closed by an administrator, which queues are
 * active, each queue's pool usage).  Time windows are handed over as
 * configured; the scheduler reads them against its own `now`.  mbatchd
 * takes the facts from its Manager (mbd-snapshot.c), the policy scenarios
 * from a scenario file (tests/sched/, bscenario): one translation for
 * both, so a scenario exercises what the daemon feeds the scheduler.
 *
 * Arrays grow while building, so cross-references are kept as offsets and
 * turned into pointers by sched_input_finish(), after the caller has added
 * its jobs (which may add users on demand).
 */
#ifndef BS_SCHED_INPUT_H
#define BS_SCHED_INPUT_H

#include <glib.h>

#include "conf/conf.h"
#include "mbatchd/sched/sched.h"

/* What the caller knows of a host at the time of the pass. */
typedef struct {
	gboolean up;              /* registered and heartbeating */
	int ncpus;                /* <= 0: unknown, counted as 1 */
	double r15s, r1m;
	gboolean closed_adm;      /* badmin hclose */
	gboolean reclaim;         /* badmin hclose -reclaim: its jobs are reclaimed */
	/* MultiCluster provider side: slots of this host another cluster
	 * holds by a lease now (taken from its capacity here; while the
	 * lease is inactive also the idle slots of this side). */
	int leased_out;
} SchedInputHost;

/*
 * MultiCluster consumer side: a host another cluster lends this one
 * (mbatchd/mc-leased.h), added after the local hosts as "host@cluster".
 * Only queues whose HOSTS name it (allremote, all@cluster, host@cluster)
 * list it; a queue without those words never uses a remote host.
 */
typedef struct {
	const char *name;         /* "host@cluster" */
	const char *host;         /* the provider's name for it */
	const char *cluster;      /* the provider */
	int slots;                /* the lease gives this cluster now */
	gboolean usable;          /* lease ok and linked: else closed */
	int ncpus;
	const char *type, *model; /* NULL: unknown */
	double maxmem;            /* MB, 0 unknown */
} SchedInputLeased;

/* What the caller knows of a queue. */
typedef struct {
	gboolean active;          /* not inactivated by badmin qinact */
	double pool_usage;        /* decayed accumulated slots (SLOT_POOL) */
} SchedInputQueue;

/*
 * The facts, asked per configured name while building.  Each function
 * fills `out` (zeroed beforehand); host() returns FALSE when the host is
 * unknown to the caller (never registered): it is then UNAVAIL with one
 * CPU and no load.
 */
/* lsb.consumers as the snapshot carries it (consumers-input.c), built
 * from the configuration alone: a caller may keep one per configuration
 * so that it is built once, not once a snapshot. */
typedef struct SchedConsumersInput SchedConsumersInput;
SchedConsumersInput *sched_consumers_input_new(void);
/* Forget what was built: the configuration it came from is going. */
void sched_consumers_input_reset(SchedConsumersInput *ci);
void sched_consumers_input_free(SchedConsumersInput *ci);

typedef struct {
	gboolean (*host)(const char *name, SchedInputHost *out, void *data);
	void (*queue)(const char *name, SchedInputQueue *out, void *data);
	void *data;
	/* The consumer tables kept for this configuration (built on first
	 * use, reused after; reset them when the configuration goes), or
	 * NULL: the snapshot builds its own. */
	SchedConsumersInput *consumers;
	/* Leased hosts (consumer side); NULL/0: none. */
	const SchedInputLeased *leased;
	guint n_leased;
} SchedInputFacts;

typedef struct {
	const BsConfig *cfg;
	GArray *hosts;            /* SchedHost */
	GArray *queues;           /* SchedQueue, lsb.queues order */
	GArray *users;            /* SchedUser, in order of first use */
	GArray *groups;           /* SchedGroup */
	GArray *pools;            /* SchedPool, one per SLOT_POOL name */
	GArray *queue_hosts;      /* SchedQueueHost storage */
	GArray *queue_refs;       /* SchedQueueRef storage: PREEMPTION lists */
	GArray *user_groups;      /* guint storage: SchedUser.groups */
	GHashTable *host_index;   /* name -> index + 1 */
	GHashTable *queue_index;  /* name -> index + 1 (lsb.queues order) */
	GHashTable *user_index;   /* name -> index + 1 */
	GStringChunk *names;      /* user names not owned by the caller */
	/* lsb.resources limits (limits-input.c). */
	GArray *limits;           /* SchedLimit */
	GPtrArray *lim_mem;       /* their bucket arrays, freed with in */
	GPtrArray *projects;      /* const char*: SchedSnapshot.projects */
	GPtrArray *apps;          /* const char*: SchedSnapshot.apps */
	GHashTable *project_index;
	GHashTable *app_index;
	/* Job groups (jobgroup-input.c), made on first use. */
	GArray *jobgroups;        /* SchedJobGroup */
	GHashTable *jobgroup_index; /* path -> index + 1 */
	/* lsb.consumers (consumers-input.c): the tables in use, the
	 * caller's (SchedInputFacts.consumers) or built for this snapshot
	 * alone (consumers_own, freed with it). */
	const SchedConsumersInput *consumers;
	SchedConsumersInput *consumers_own;
} SchedInput;

/* Hosts, queues, PREEMPTION lists, windows and pools from cfg and the
 * facts. */
void sched_input_build(SchedInput *in, const BsConfig *cfg,
    const SchedInputFacts *facts);
/* A host's index by name; FALSE if it is no server host of the cluster. */
gboolean sched_input_host(const SchedInput *in, const char *name, guint *idx);
/* A queue's index by name; FALSE if lsb.queues has no such queue. */
gboolean sched_input_queue(const SchedInput *in, const char *name, guint *idx);
/*
 * A user's index, adding the user (lsb.users MAX_JOBS, JL/P and the group
 * limits that apply) on first use.  `name` must outlive the snapshot
 * unless `copy` is set.
 */
guint sched_input_user(SchedInput *in, const char *name, gboolean copy);
/* A job's bsub -P (NULL or "": DEFAULT_PROJECT) and -app (NULL: none)
 * as indexes for SchedJob and SchedRunning. */
guint sched_input_project(SchedInput *in, const char *name);
guint sched_input_app(SchedInput *in, const char *name);
/* limits-input.c, called by build, finish and free. */
void sched_input_limits_init(SchedInput *in);
void sched_input_limits(SchedInput *in, SchedSnapshot *snap);
void sched_input_limits_free(SchedInput *in);
/* consumers-input.c, called by build, finish and free. */
void sched_input_consumers_build(SchedInput *in, SchedConsumersInput *kept);
void sched_input_consumers(SchedInput *in, SchedSnapshot *snap);
void sched_input_consumers_free(SchedInput *in);
/*
 * The one rule for a job's consumer, as SchedJob.consumer and
 * SchedRunning.consumer hold it: the leaf it asked for (bsub -consumer;
 * NULL or "": none), else its queue's CONSUMER; 0 when that is no leaf
 * consumer of lsb.consumers (or there is no lsb.consumers).  Whether the
 * user may submit to it is checked at submission, not here.
 */
guint sched_input_job_consumer(const SchedInput *in, guint queue, const char *requested);
/* The same rule from the queue's configuration (NULL: a queue not
 * configured), for a caller without a SchedInput (bjobs rows). */
guint sched_input_consumer_of(const BsConfig *cfg, const BsQueueConf *qc,
    const char *requested);
/* Fix the offsets and fill the configuration side of `snap`: hosts,
 * queues, users, groups, pools and PREEMPT_FOR.  The arrays must not grow
 * afterwards. */
void sched_input_finish(SchedInput *in, SchedSnapshot *snap);
/* jobgroup-input.c: the group a job names (index + 1 for SchedJob.jobgroup,
 * 0 for none), made with its ancestors; a group's bgadd -L (-1 none). */
guint sched_input_jobgroup(SchedInput *in, const char *path);
void sched_input_jobgroup_limit(SchedInput *in, const char *path, int limit);
void sched_input_jobgroups(SchedInput *in, SchedSnapshot *snap);
void sched_input_jobgroups_free(SchedInput *in);
void sched_input_free(SchedInput *in);
/* The run limit, in seconds, of a job that asked for none (no -W): the
 * application profile's RUNLIMIT, else the queue's (each its default,
 * else its maximum); 0 when neither has one.  The daemon resolves it in
 * effective.c; this is the scenarios' reading of the same rule. */
gint64 sched_input_run_limit(const BsQueueConf *q, const BsAppConf *app);
/* A job's user priority within its queue: its -sp, else half of
 * MAX_USER_PRIORITY (LSF's default); 0 when MAX_USER_PRIORITY is not set. */
int sched_input_user_priority(const BsParamsConf *params, guint32 sp);
/* A job's estimated run time in seconds: its -We, else the application
 * profile's RUNTIME (app may be NULL); 0 when neither says. */
gint64 sched_input_est_runtime(const BsAppConf *app, guint64 we);

#endif
