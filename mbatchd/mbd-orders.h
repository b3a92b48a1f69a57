/*
 * Orders: the one path from a decision to its effect on an execution host.
 *
 * Every decision about a job that has (or is about to have) processes on a
 * host goes through one function here, one per kind of decision, and each
 * does the same two steps in the same order:
 *
 *   1. commit the event(s) through manager_commit();
 *   2. only if that succeeded, send the order to the job's host.
 *
 * The journal's output gate (lib/rpc, bs_rpc_server_set_barrier) holds the
 * order until the event is durable, so a host never acts on a decision the
 * journal could lose, and a refused commit (a full disk) sends nothing.
 *
 * Every order names the job's instance (Job.instance, a new number per
 * dispatch), so sbatchd tells a new run from a repeated order and mbatchd
 * tells a report of the current run from one of an older run.
 *
 * What an order that cannot be delivered becomes (the reason is journaled
 * with the event and bhist -l shows it; no job is left RUN without a
 * process):
 *
 *   dispatch, start order over the frame limit    EXIT at once, no dispatch
 *   dispatch, no live link to the first host      not dispatched: stays
 *                                                 pending for the next pass
 *   start order refused by the link (cannot be    requeued with the reason
 *   packed, link closed under it)
 *   start order refused by the host               EXIT, the host's reason
 *   start order lost (timeout, link cut)          settled by the host's next
 *                                                 registration: requeued
 *   stop/resume/kill/signal, no live link         refused, nothing changes
 *                                                 (the caller says so; use
 *                                                 bkill -r to remove the job)
 *   signal refused: the host has no such run      the run is lost: requeued
 *                                                 (rerunnable or never
 *                                                 started) or EXIT
 *   requeue/remove, no live link                  committed; the host is
 *                                                 told to forget the old run
 *                                                 when it registers again
 *   host unavailable (MAX_SBD_FAIL)               rerunnable: requeued,
 *                                                 else UNKWN until it returns
 */
#ifndef BS_MBD_MBD_ORDERS_H
#define BS_MBD_MBD_ORDERS_H

#include "mbatchd/mbd.h"

/* bsub -t passed (sched/deadline.c): the kill's reason, and the TERM_*
 * word the job ends with (bjobs -l, bhist -l, bacct print LSF's line
 * "TERM_DEADLINE: job killed after deadline"). */
#define DEADLINE_REASON "TERM_DEADLINE: job killed after deadline"
#define DEADLINE_TERM "TERM_DEADLINE"

/* bkill -s, bpeek and friends: the host could not be asked at all. */
#define ORDERS_ERROR_UNREACHABLE "The execution host is unreachable"

/*
 * Dispatch: start j, pending, on hosts (NULL-terminated, one entry per
 * slot, the first is where it starts).  The dispatch event carries the new
 * instance.  FALSE when the job did not start (err says why; the job then
 * already has its EXIT or stays pending).
 */
gboolean orders_dispatch(Manager *m, Job *j, char *const *hosts, GError **err);
/* The same for another cluster's run on a leased host (mc-jobs-provider.c):
 * the run's limits and warning action are the consumer's (`limits`, when
 * not NULL), the rest is resolved here. */
gboolean orders_dispatch_limits(Manager *m, Job *j, char *const *hosts,
    const Basalt__JobEffective *limits, GError **err);

/*
 * Suspend a started job: as USUSP (bstop) or SSUSP (preemption, run
 * window).  preemptor, when not NULL, is journaled with the suspension
 * (it counts toward MAX_JOB_PREEMPT).
 */
gboolean orders_suspend(Manager *m, Job *j, JobState as, const char *reason,
    const Job *preemptor, GError **err);
/* Resume a suspended job (bresume, free slots, a run window opening). */
gboolean orders_resume(Manager *m, Job *j, GError **err);
/* What bresume puts on a USUSP job: SSUSP until the resume stage finds
 * it a slot (SchedRunning.preempted marks the jobs that stage resumes). */
#define RESUME_WAIT_REASON "The job was resumed by the user and waits for a job slot;"

/* bresume of a USUSP job: it becomes SSUSP with RESUME_WAIT_REASON and
 * the scheduler's resume stage resumes it when a slot is free for it
 * (bresume(1)); nothing is sent to the host until then. */
gboolean orders_resume_wait(Manager *m, Job *j, GError **err);
/*
 * Kill a started job with its queue's TERMINATE sequence.  user NULL: a
 * decision of mbatchd's (preemption, run window), journaled once per run
 * however often it is decided again (the order goes again each time).  With requeue_rerunnable a
 * rerunnable job goes back to pending at once (TERMINATE_WHEN=PREEMPT).
 * Otherwise the job ends when its host reports the kill.
 */
gboolean orders_terminate(Manager *m, Job *j, const char *user,
    const char *reason, gboolean requeue_rerunnable, GError **err);
/* bkill -d on a started job: killed, and its end recorded DONE. */
gboolean orders_terminate_done(Manager *m, Job *j, const char *user,
    GError **err);
/* bkill -s SIG on a started job. */
gboolean orders_signal(Manager *m, Job *j, int sig, const char *user,
    GError **err);
/* brequeue: back to pending (PSUSP with hold); the old run is killed. */
gboolean orders_requeue(Manager *m, Job *j, gboolean hold, const char *reason,
    GError **err);
/*
 * Resource reclaim (mbatchd/sched/stage-reclaim.c).  orders_reclaim: the
 * notice: journal the reclaim of the current run with its grace deadline
 * (EvJobReclaim), then send the run's warning action (JobEffective
 * .warning_signal; none: nothing is sent).  orders_reclaim_requeue: the
 * grace passed: back to pending with the reason "reclaimed for consumer
 * /X/A", the old run killed with its queue's TERMINATE action.
 */
typedef struct {
	gint64 deadline;
	int grace;
	const char *for_consumer;   /* "" : a host closed with -reclaim */
	const char *from_consumer;  /* "" : none */
	const char *kind;           /* borrowed | shared | owned | host */
} OrdersReclaim;
gboolean orders_reclaim(Manager *m, Job *j, const OrdersReclaim *r,
    GError **err);
gboolean orders_reclaim_requeue(Manager *m, Job *j, GError **err);
/* badmin hclose -reclaim: journal that the host's jobs are reclaimed while
 * it stays closed (EvHostReclaim); the scheduler does the rest. */
gboolean orders_host_reclaim(Manager *m, const char *host, GError **err);
/* bkill -r: EXIT now, whatever the host says; the old run is killed. */
gboolean orders_remove(Manager *m, Job *j, const char *reason, GError **err);
/* A started job its host no longer has (registration): requeued when it
 * never started or is rerunnable, else EXIT. */
void orders_lost(Manager *m, Job *j, const char *why);
/* Its host fell silent for MAX_SBD_FAIL heartbeats. */
void orders_host_unavailable(Manager *m, Job *j);

/*
 * bmod of a started job: journal its new spec and stamp (EvJobModify
 * with effective), then give its first host the new run, CPU and memory
 * limits and, when set_post_exec, the job-level post-exec it ends with
 * (post_exec NULL or "": none); with set_out, the spec's -o, where the
 * job report goes.  Refused, nothing committed, when the
 * host has no live link.
 */
gboolean orders_modify(Manager *m, Job *j, const Basalt__JobSpec *spec,
    const Basalt__JobEffective *eff, gboolean set_post_exec,
    const char *post_exec, gboolean set_out, GError **err);

/* badmin hrestart / hshutdown: order the host's sbatchd to re-execute
 * itself or to exit (its jobs keep running).  FALSE when the host has no
 * live link. */
gboolean orders_host_daemon(Manager *m, const char *host, gboolean restart,
    GError **err);

/* bpeek: ask the job's host for output; cb gets the reply (or NULL with
 * error).  FALSE when the host cannot be asked. */
typedef void (*OrdersPeekFunc)(const Basalt__PeekReply *reply,
    const char *error, void *data);
gboolean orders_peek(Manager *m, const Job *j, guint64 offset,
    OrdersPeekFunc cb, void *data);

/* The start order for run `instance` of j on hosts, with the effective
 * parameters eff (the dispatch event's stamp).  The request borrows from
 * j, hosts and eff; free with orders_start_request_clear(). */
typedef struct {
	Basalt__StartJobRequest req;
	GPtrArray *env;
	char *lsb_hosts, *lsb_mcpu;
} StartOrder;
void orders_start_request_build(Manager *m, const Job *j, char *const *hosts,
    guint32 instance, const Basalt__JobEffective *eff, StartOrder *o);
void orders_start_request_clear(StartOrder *o);
/* Largest start order that fits in a frame, envelope included. */
gsize orders_start_limit(void);

/* A run's pre-exec failed: journal the decision (EvJobPreexec). */
typedef enum {
	PREEXEC_RETRY,            /* pending again, at the head of its queue */
	PREEXEC_HOLD,             /* retries spent: PSUSP at the head */
	PREEXEC_EXIT,             /* retries spent: EXIT */
} PreexecOutcome;
gboolean orders_preexec_failed(Manager *m, Job *j, const char *host,
    int exit_status, guint level, PreexecOutcome out, const char *reason);
/* A kill of the job's current run was ordered (bkill or the system). */
gboolean orders_run_terminating(Manager *m, const Job *j);
/* The job ended on its first host: what blaunch left on its other hosts
 * is killed (best effort, nothing journaled: the end is). */
void orders_end_tasks(Manager *m, const Job *j);

void orders_init(Manager *m);
void orders_free(Manager *m);

#endif
