/*
 * mbatchd's state: jobs, queues and hosts as the master knows them.
 *
 * state_apply() is the only function that changes anything here.  Service
 * handlers and the scheduler decide; they express each decision as an Event
 * (proto/event.proto) and hand it to the manager, which journals it and then
 * applies it.  Replaying the journal after a restart goes through the same
 * function, so the state rebuilt is the state that was live.
 *
 * Volatile facts that need no journal (a host's load, its connection, a
 * job's latest pending reason and usage) are set directly by their owners
 * through the few setters at the end of this header.
 */
#ifndef BS_STATE_H
#define BS_STATE_H

#include <glib.h>

#include "common.pb-c.h"
#include "event.pb-c.h"
#include "job/depend.h"

typedef Basalt__JobState JobState;
#define JS_PEND  BASALT__JOB_STATE__JOB_STATE_PEND
#define JS_PSUSP BASALT__JOB_STATE__JOB_STATE_PSUSP
#define JS_RUN   BASALT__JOB_STATE__JOB_STATE_RUN
#define JS_USUSP BASALT__JOB_STATE__JOB_STATE_USUSP
#define JS_SSUSP BASALT__JOB_STATE__JOB_STATE_SSUSP
#define JS_DONE  BASALT__JOB_STATE__JOB_STATE_DONE
#define JS_EXIT  BASALT__JOB_STATE__JOB_STATE_EXIT
#define JS_UNKWN BASALT__JOB_STATE__JOB_STATE_UNKWN
#define JS_ZOMBI BASALT__JOB_STATE__JOB_STATE_ZOMBI

struct _BsResReq;
struct _BsDepend;
struct Lease;                 /* mbatchd/sched/lease.h */
struct LeaseOutcome;

/*
 * A submission environment, kept once for every job submitted with the
 * same one (state_env_intern): a user's jobs mostly come from one shell,
 * and the environment is most of a pending job's memory.  vars is one
 * block, the pointer array followed by the strings.
 */
typedef struct SharedEnv {
	gint ref;
	guint hash;
	size_t n;
	char **vars;
	GHashTable *table;        /* the State's envs while it lives */
} SharedEnv;

/* The submission an array's elements share, kept once, with its -R and -w
 * parsed when the submission (or bmod) is applied (on replay: at its end),
 * so the scheduler reads them and never parses.  spec->env points into env,
 * which is shared with other specs: never free or change it through spec.
 * Jobs submitted with the very same request (a loop of bsub) share one
 * too: it is found in the State's specs by key, and never changes once
 * made (bmod gives the job a new one). */
typedef struct {
	gint ref;
	Basalt__JobSpec *spec;
	SharedEnv *env;             /* NULL: no environment */
	struct _BsResReq *resreq;   /* NULL: no -R (or one this version
	                             * cannot read, from an old journal) */
	struct _BsDepend *depend;   /* NULL: no -w (same) */
	GBytes *key;                /* the spec packed without env, + env */
	GHashTable *table;          /* the State's specs while it lives */
} JobSpecRef;

typedef struct SubmitToken SubmitToken;

/* What a job's runs used: allocated with the first sample, so a job that
 * never ran (the many pending ones) carries none of it; it lives as long
 * as the job, since bjobs -l, bhist and accounting show a finished or
 * requeued run's usage. */
typedef struct {
	Basalt__ResourceUsage usage;  /* scalars only; pids not kept */
	/* What the blaunch tasks of run task_usage_instance used, on every
	 * host (mbd-tasks.c); added to usage as the first host reports it. */
	Basalt__ResourceUsage task_usage;
	guint32 task_usage_instance;
} JobUsage;

typedef struct Job {
	guint64 key;              /* job_key(id, index): the table's key */
	guint64 id;
	guint32 index;            /* array index, 0 when not an element */
	JobState state;
	const char *user;         /* interned */
	guint32 uid, gid;
	const char *queue;        /* interned */
	const char *from_host;    /* interned */
	const char *name;         /* interned; "name[idx]" for elements */
	JobSpecRef *spec;
	int array_limit;          /* "%N" of its array, 0 = none */
	guint preempt_count;      /* times preempted (MAX_JOB_PREEMPT) */

	gint64 submit_time;       /* also "requeue time" for ordering */
	gint64 start_time;        /* dispatch time of the current run */
	gint64 end_time;
	char **exec_hosts;        /* NULL-terminated, one per slot */
	int pgid;
	int exit_status;
	int term_signal;
	gboolean kill_as_done;    /* bkill -d on this run: its end is DONE */
	JobUsage *usage;          /* NULL until a run reports: job_usage() */
	/* From the last scheduling pass: a GRefString, interned, since
	 * thousands of jobs wait for the same reason. */
	char *pending_reason;
	char *suspend_reason;
	SubmitToken *token;       /* tokens.c; shared by an array's elements */
	char *term_reason;        /* TERM_* of the last run's end (a limit), or NULL */
	char *exit_reason;        /* why a run ended EXIT, when mbatchd or the
	                           * host said (e.g. refused to start) */
	/* The host of each pre-exec failure so far (interned), NULL when
	 * none: MAX_PREEXEC_RETRY counts them all, LOCAL_MAX_PREEXEC_RETRY
	 * those of one host, and the scheduler avoids those hosts. */
	GPtrArray *preexec_hosts;
	/* PSUSP because its pre-exec retries are spent: the pending reason
	 * is the pre-exec's, not the scheduler's "suspended by the user".
	 * Rebuilt by the journal's EvJobPreexec, not by a checkpoint. */
	gboolean preexec_held;
	/* Level of the last pre-exec failure (EvJobPreexec.level), 0 when
	 * none; not in a checkpoint (preexec_hosts is). */
	guint preexec_level;
	guint64 preempted_by;     /* job_key of the preemptor while SSUSP by it */
	guint32 instance;         /* number of the current (or last) run, 0 = never */
	gboolean window_kill_sent; /* volatile: TERMINATE_WHEN=WINDOW ordered the
	                           * kill of this run; cleared with the run */
	gboolean deadline_kill_sent; /* volatile: bsub -t's kill of this run
	                           * was ordered; cleared with the run */
	guint reclaim_count;      /* runs reclaimed (EvJobReclaim, below) */
	/* What the current (or last) run started with, from its dispatch
	 * event; NULL while pending, or when the dispatch was journaled
	 * before stamps existed (mbatchd/effective.c resolves then). */
	Basalt__JobEffective *effective;

	/* bpost's messages (JobMsg*), by index, NULL when none; bounded by
	 * BS_JOB_MSG_MAX (messages.c). */
	GPtrArray *messages;

	/* The resource group (interned) whose consumer quota holds the job
	 * pending, as last journaled (EvJobConsumerPend); NULL otherwise.
	 * Starting clears it. */
	const char *quota_pend;

	/* Resource reclaim (EvJobReclaim): the grace deadline of the current
	 * run's reclaim, 0: none (a requeue or a new run clears it); whom it
	 * was reclaimed for (interned, "" for hclose -reclaim; kept after
	 * the requeue for bjobs -l); reclaim_count (above) counts them. */
	gint64 reclaim_deadline;
	const char *reclaim_for;
	const char *reclaim_kind;  /* EvJobReclaim kind: borrowed, ..., host */

	GList *qlink;             /* in its queue's pending list, when pending */
	GList *flink;             /* in State.finished, when DONE/EXIT */
} Job;

typedef struct {
	const char *name;         /* interned */
	gboolean open;
	gboolean active;          /* not inactivated by badmin qinact */
	GQueue pending;           /* Job*, dispatch order: PEND and PSUSP */
	/* apply_move's last placed link and its index, so restating an order
	 * first to last (a checkpoint) costs a step per job, not a walk; any
	 * other change to pending forgets it (NULL). */
	GList *moved;
	guint moved_pos;
} QueueRt;

typedef struct {
	const char *name;         /* interned */
	gboolean closed_adm;      /* badmin hclose */
	char *close_comment;
	gboolean reclaim;         /* badmin hclose -reclaim (EvHostReclaim) */
} HostRt;

typedef struct {
	GHashTable *jobs;         /* &Job.key -> Job */
	GHashTable *queues;       /* name -> QueueRt */
	GHashTable *hosts;        /* name -> HostRt */
	GQueue finished;          /* Job*, in completion order */
	guint64 last_job_id;
	guint64 last_seq;
	GStringChunk *names;      /* interned user, queue and host names */
	GHashTable *interned;     /* string -> its copy in names */
	GHashTable *envs;         /* SharedEnv set: identical environments once */
	GHashTable *specs;        /* JobSpecRef.key -> JobSpecRef: identical
	                           * submissions once */
	GHashTable *ckpt_envs;    /* a checkpoint's EvEnvironment ids ->
	                           * SharedEnv (a ref each), until
	                           * state_replay_end; NULL: none */
	GHashTable *ckpt_specs;   /* its EvSpec ids -> JobSpecRef (a ref
	                           * each), the same */
	GHashTable *by_host;      /* exec_hosts[0] -> set of Job* run there */
	/* depindex.c: the jobs a -w reference can name; both NULL until
	 * the first lookup makes them. */
	GHashTable *dep_by_id;    /* &id -> set of Job* (array elements share it) */
	GHashTable *dep_by_name;  /* interned user -> (base name -> set of Job*) */
	/* tokens.c: submission tokens of the jobs in the state. */
	GHashTable *tokens;       /* "uid:token" -> SubmitToken */
	/* jobgroups.c: job groups by path. */
	GHashTable *jobgroups;    /* path -> JobGroup */
	/* Unfinished jobs per group path (their spec's job_group, which may
	 * outlive its group), kept by apply.c as jobs come, finish, are
	 * requeued or change group; so the busy groups are found without a
	 * walk over the jobs.  path (owned) -> guint count (owned), never 0. */
	GHashTable *jobgroup_unfinished;
	/* Bumped when a group comes or goes, a limit or kind changes, or a
	 * path's unfinished count reaches or leaves 0: JOB_GROUP_CLEAN looks
	 * again only then. */
	guint64 jobgroups_serial;
	/* leases.c: MultiCluster leases, "policy\nconsumer" -> Lease, and
	 * the same leases in key order (state_leases()). */
	GHashTable *leases;
	GPtrArray *lease_list;
	/* Between state_replay_begin() and _end(): -R and -w wait unparsed
	 * (most replayed jobs are cleaned long before the end). */
	gboolean replaying;
} State;

static inline guint64
job_key(guint64 id, guint32 index)
{
	return (id << 32) | index;
}

/* tokens.c: a retried submission finds the job it made (see there). */
#define STATE_TOKEN_MAX 64
/* leases.c: the lease events (EvLeaseNew, EvLeaseSplit, EvLeaseStatus)
 * applied, and leases as events for checkpoints and from the lease stage's
 * outcomes (strings borrowed from the lease; blocks gets what to g_free). */
void state_leases_init(State *st);
void state_leases_free(State *st);
gboolean state_apply_lease(State *st, const Basalt__Event *ev, GError **err);
const struct Lease *state_lease(const State *st, const char *policy, const char *consumer);
/* The lease of (policy, provider, consumer): a consumer may hold two
 * providers' policies of one name. */
const struct Lease *state_lease_of(const State *st, const char *policy,
    const char *provider, const char *consumer);
/* The whole lease as events (new, its last evaluation, its status): what
 * a checkpoint holds, and what a consumer journals from its provider. */
void state_lease_events(const struct Lease *l, gint64 now, GPtrArray *events,
    GPtrArray *blocks);
void state_lease_status_event(const struct Lease *l, gint64 now, GPtrArray *events,
    GPtrArray *blocks);
/* Every lease (const Lease*), by policy then consumer; the array is the
 * state's and changes with it (what bclusters shows: McLeasesFunc). */
const GPtrArray *state_leases(const State *st);
void state_lease_new_event(const struct Lease *l, gint64 now, GPtrArray *events,
    GPtrArray *blocks);
void state_lease_outcome_events(const struct LeaseOutcome *o, gint64 now, GPtrArray *events,
    GPtrArray *blocks);
void state_export_leases(const State *st, GPtrArray *events, GPtrArray *blocks);
void state_tokens_init(State *st);
void state_tokens_free(State *st);
void state_token_add(State *st, Job *j, guint32 uid, const char *token);
void state_token_drop(State *st, Job *j);
gboolean state_token_find(State *st, guint32 uid, const char *token,
    guint64 *job_id, const char **queue);
/* The job's token as bsub sent it, or NULL. */
const char *state_token_text(const Job *j);

State *state_new(void);
void state_free(State *st);

/* The one mutator.  FALSE with a message when the event does not fit the
 * state (an unknown job, say): the caller logs it; nothing changed. */
gboolean state_apply(State *st, const Basalt__Event *ev, GError **err);
/* Around a journal replay: the end parses the -R and -w of the jobs left,
 * so the state is the one applying the events live makes, without parsing
 * the clauses of the jobs cleaned within the journal. */
void state_replay_begin(State *st);
void state_replay_end(State *st);
/* Forgets a checkpoint's environment and spec ids (EvEnvironment,
 * EvSpec); the replay's end does, and state_free. */
void state_ckpt_refs_drop(State *st);
/*
 * A replay that passes over the records of jobs cleaned later in the
 * journal (lib/journal/skip.h) must leave the state it would have left
 * with them.  It may when every queue's pending jobs are in submission
 * order, as only a move to a place breaks it: then a job's presence in a
 * queue does not change where the others go.
 */
gboolean state_queues_in_order(const State *st);
/* What a passed-over record still leaves: the last seq, and of a
 * submission (is_new) the last job id and its queue. */
void state_replay_skipped(State *st, guint64 seq, guint64 job_id,
    gboolean is_new, const char *queue);

const char *state_intern(State *st, const char *s);
/* The jobs whose first execution host is host, in any state (a finished
 * job keeps its hosts): a GPtrArray of Job*, to free.  Registration and
 * host failure look here instead of at every job. */
GPtrArray *state_jobs_on_host(const State *st, const char *host);
/* apply.c keeps by_host: a job joins it with its hosts, leaves without. */
void state_host_index_add(State *st, Job *j);
void state_host_index_remove(State *st, Job *j);
Job *state_job(const State *st, guint64 id, guint32 index);

/* jobgroups.c: job groups (bgadd, bsub -g).  limit -1: none. */
typedef struct {
	char *path;               /* normal form, "/a/b" */
	char *owner;
	int limit;
	gboolean implicit;        /* made by bsub -g or bmod -g */
	gint64 create_time;
	guint n_children;         /* groups right below it */
} JobGroup;
void state_jobgroups_init(State *st);
void state_jobgroups_free(State *st);
JobGroup *state_jobgroup(const State *st, const char *path);
/* A job joins group `path` (its spec's): the group and its ancestors are
 * created implicitly when missing.  FALSE: the path is not valid. */
gboolean state_jobgroup_for_job(State *st, const char *path,
    const char *owner, gint64 now);
gboolean state_apply_jobgroup(State *st, const Basalt__EvJobGroup *e,
    gint64 now, GError **err);
/* Every group, parents before children (JobGroup*, to free). */
GPtrArray *state_jobgroups_sorted(const State *st);
/* The paths that hold an unfinished job in their subtree: every such
 * job's group and its ancestors, as a set of strings (unref it).  From
 * the per-path counts: no pass over the jobs. */
GHashTable *state_jobgroups_busy(const State *st);
/* apply.c: an unfinished job joins (+1) or leaves (-1) group path (a job
 * without a group: nothing). */
void state_jobgroup_count(State *st, const char *path, int delta);

/* messages.c: bpost's messages.  LSF's default MAX_JOB_MSG_NUM is 128. */
#define BS_JOB_MSG_MAX 128
#define BS_JOB_MSG_TEXT_MAX 4096
typedef struct {
	guint32 index;
	char *text;
	char *user;
	gint64 time;
} JobMsg;
/* Stores (or replaces) the message at its index. */
void job_msg_put(Job *j, guint32 index, const char *text, const char *user,
    gint64 time);
/* The message at index, or NULL. */
const JobMsg *job_msg_get(const Job *j, guint32 index);
void job_msgs_free(Job *j);

/* depindex.c: apply.c keeps the dependency index as jobs come, change
 * name and are cleaned, once the first lookup has made it. */
void state_dep_index_init(State *st);
void state_dep_index_free(State *st);
void state_dep_index_add(State *st, Job *j);
void state_dep_index_remove(State *st, Job *j);
/* Appends one BsDependJob (job/depend.h) to out for every job the
 * reference names, as BsDependLookup promises: for a name, the jobs of
 * `user` (interned) answering to it; for an id, that job or every element
 * of that array; for an element, that element.  The first lookup makes
 * the index, from every job in the state. */
void state_dep_lookup(State *st, const char *user,
    const BsDependRef *ref, GArray *out);
QueueRt *state_queue(State *st, const char *name);
/* The queue's runtime record, created open and active on first use. */
QueueRt *state_queue_ensure(State *st, const char *name);
HostRt *state_host_ensure(State *st, const char *name);

gboolean job_is_pending(const Job *j);
/* How many Jobs this process has freed so far: a Job * kept while this
 * stays the same still points to a live job. */
guint64 state_jobs_freed(void);
gboolean job_is_started(const Job *j);   /* RUN, USUSP, SSUSP, UNKWN */
/* Pre-exec failures of the job, in all (host NULL) or on one host. */
guint job_preexec_fails(const Job *j, const char *host);
gboolean job_is_finished(const Job *j);  /* DONE, EXIT */
const char *job_state_name(JobState s);  /* "PEND", "RUN", ... */
int job_slots(const Job *j);             /* slots held while started */
const Basalt__JobSpec *job_spec(const Job *j);
/* An owned copy of a stamp; free with basalt__job_effective__free_unpacked(). */
Basalt__JobEffective *job_effective_copy(const Basalt__JobEffective *e);

void job_spec_ref_drop(JobSpecRef *r);
/* A reference to the shared copy of these n variables (n > 0). */
SharedEnv *state_env_intern(State *st, char *const *vars, size_t n);
void shared_env_unref(SharedEnv *e);

/*
 * The live state as events (state/export.c), for a checkpoint.  The events
 * borrow from the state and from *blocks; free both arrays after packing.
 */
GPtrArray *state_export_events(const State *st, GPtrArray **blocks);

/* Volatile, unjournaled facts. */
void job_set_pending_reason(Job *j, const char *reason);
/* Usage of a running job from a heartbeat; peak memory only grows. */
void job_set_usage(Job *j, const Basalt__ResourceUsage *u);
/* The job's usage, all zero when no run has reported any. */
const Basalt__ResourceUsage *job_usage(const Job *j);
/* The job's usage record, made on first use (by a writer). */
JobUsage *job_usage_ensure(Job *j);

#endif
