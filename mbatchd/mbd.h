/*
 * mbatchd, the daemon: what its parts share.
 *
 * The Manager owns everything mbatchd has: the configuration, the state,
 * the RPC server, the links to execution hosts and the timers.  It is the
 * only place where an event is committed: commit = apply to the state now
 * (and, with the journal, make it durable before anyone hears of it).
 *
 * One thread, one GMainLoop, as Redis does: no locks anywhere.  The daemon's
 * parts are files named mbd-<part>.c, each owning one concern; reusable
 * units that know nothing of the Manager keep plain names, in their own
 * folders or libraries (as in sbatchd, whose parts are sbd-<part>.c):
 *
 *   mbd.c            options, daemonizing, signals, main
 *   mbd-manager.c    Manager lifecycle, the commit path, the timers
 *   mbd-events.c     one-line constructors for the job events
 *   mbd-journal.c    the daemon's use of lib/journal: recovery, group commit
 *                    before the loop sleeps, checkpoints, a full disk
 *   mbd-acct.c       lsb.acct and lsb.events beside the journal, written
 *                    after each sync, once across crashes (the records:
 *                    acct-record.c, events-record.c)
 *   mbd-hosts.c      HostService (sbatchd's link): registration, heartbeats,
 *                    reports, each about one run (instance) of a job
 *   mbd-orders.c     every decision's effect on a host: commit, then send
 *   mbd-snapshot.c   building the scheduler's snapshot from the state
 *   mbd-dispatch.c   one scheduling pass: snapshot, policy, apply the plan
 *   mbd-usage.c      decayed slot usage per queue, for slot pools
 *   mc-links.c       MultiCluster: the links to other clusters' mbatchds
 *   svc/             BatchService: the commands' requests
 *
 *   state/           the tables and state_apply(), the only mutator
 *   sched/           the pure scheduling policy: snapshot in, plan out
 *                    (time windows are its time-driven stage)
 *   effective.c      a job's effective parameters from its spec and the
 *                    configuration, stamped into its dispatch event
 */
#ifndef BS_MBD_MBD_H
#define BS_MBD_MBD_H

#include <glib.h>

#include "batch.pb-c.h"
#include "conf/conf.h"
#include "event.pb-c.h"
#include "host.pb-c.h"
#include "mbatchd/state/state.h"
#include "rpc/rpc.h"

/* An execution host as the master sees it right now (volatile). */
typedef struct {
	const char *name;         /* interned in the state */
	BsRpcConn *conn;          /* NULL while the host is away */
	gboolean registered;      /* has ever registered since mbatchd start */
	gboolean unavail;         /* missed heartbeats or never came */
	gint64 last_heard;        /* monotonic microseconds */
	gint64 boot_time;
	guint ncpus;
	guint64 mem_kb;
	Basalt__LoadIndices load;
	guint64 last_report_seq;  /* highest JobReport.seq applied */
} HostLink;

typedef struct Manager {
	BsConfig *cfg;
	char *envdir;
	State *st;
	BsRpcServer *srv;
	GMainLoop *loop;
	GHashTable *links;        /* host name -> HostLink */
	char *sharedir;
	char *sock_path;
	guint16 tcp_port;
	char *master_name;

	guint sched_timer;        /* pending coalesced scheduling pass */
	guint tick_timer;         /* periodic: heartbeats, usage, cleaning */
	guint wake_timer;         /* a pass at the last plan's next_wake */
	guint sched_delay_ms;     /* coalescing delay after an event */
	gint64 sched_last_end;    /* monotonic us when the last pass ended */
	gint64 sched_last_us;     /* how long it took */
	/* Plan transitions (SchedSnapshot.prev_pass, plan_reloaded): when the
	 * last pass ran, on the snapshot's clock, and whether a reconfig came
	 * since (the next pass brings consumers to the reloaded plans). */
	gint64 sched_prev_now;
	gint64 trimmed_at;        /* monotonic time of the last malloc_trim */
	gboolean plan_reloaded;
	/* Since that reconfig: each resource group's plan under the
	 * previous configuration at the previous pass (plan-reload.h), so
	 * only the groups the reconfig changed transit. */
	GHashTable *plan_prev;
	guint heartbeat_s;        /* what sbatchd is told to use */
	gboolean shutting_down;
	char **argv;

	/* The journal (mbd-journal.c). */
	struct BsEvlog *log;
	char *journal_dir;
	GSource *commit_src;
	guint keep_segments;
	gboolean storage_failed;  /* the last sync failed: refuse new work */
	char *storage_error;
	gint64 storage_retry_at;
	struct AcctLog *acct;     /* lsb.acct (mbd-acct.c) */
	struct AcctLog *events;   /* lsb.events, NULL unless asked for */

	/* Slot pools (mbd-usage.c, mbd-dispatch.c): decayed slot-seconds per
	 * queue, and what the last pass deserved each queue. */
	GHashTable *queue_usage;  /* interned queue name -> double */
	GHashTable *user_names;   /* uid -> UserName (mbd-users.c) */
	gint64 usage_last;
	GHashTable *deserved;     /* interned queue name -> GINT_TO_POINTER(n + 1) */

	/* Slot reservations of the last pass (mbd-reserve.c). */
	GHashTable *reserves;     /* &job key (owned) -> MbdReserve */
	GHashTable *reserved_on;  /* host name (owned) -> GUINT_TO_POINTER(slots) */

	/* Orders (mbd-orders.c): kills mbatchd decided by itself and has
	 * journaled, per run, so a tick deciding again journals nothing. */
	GHashTable *terminating;  /* &job key (owned) -> GUINT_TO_POINTER(instance) */

	/* Hosts that refused to start a job (mbd-refused.c). */
	GHashTable *refused;      /* &job key (owned) -> GPtrArray of host names */

	/* bconsumers -at's answers of this cycle and its per-user passes
	 * (mbd-preview-cache.c); NULL until the first. */
	struct MbdPreviewCache *preview_cache;

	/* The entitlement stage's last table, for bconsumers
	 * (mbd-consumers.c); NULL before the first cycle with a plan. */
	struct MbdConsumerFigures *consumer_figs;
	/* The names those figures are looked up by, made by the first pass
	 * of each configuration (mbd-consumers.c); dropped on reconfig. */
	struct MbdConsumerNames *consumer_names;

	/* lsb.consumers as the scheduler's snapshot carries it, built by the
	 * first snapshot of each configuration and reused by the others
	 * (consumers-input.c); reset when the configuration is replaced. */
	struct SchedConsumersInput *consumers_in;

	/* JOB_GROUP_CLEAN (mbd-jobgroups.c): State.jobgroups_serial when the
	 * groups were last looked at, so a tick with no change does nothing. */
	gboolean jobgroups_looked;
	guint64 jobgroups_seen;

	Basalt__BatchService_Service batch_service;
	Basalt__HostService_Service host_service;

	/* MultiCluster: the links to the other clusters' mbatchds (mc-links.c). */
	struct McLinks *mc;
	/* Hosts other clusters lend this one, "host@cluster" (mc-leased.c),
	 * and the live lease exchange (mc-lease.c). */
	struct McLeased *leased;
	struct McLease *lease;
	/* The job relay to and from other clusters (mc-jobs-*.c). */
	struct McJobs *mc_jobs;
} Manager;

typedef struct {
	char **argv;              /* for badmin mbdrestart's re-exec */
	const char *envdir;       /* NULL: $LSF_ENVDIR, else the built-in default */
	const char *tcp_address;  /* NULL: from lsf.conf (LSB_MBD_ADDRESS) */
} ManagerOptions;

Manager *manager_new(const ManagerOptions *opts, GError **err);
void manager_free(Manager *m);
void manager_run(Manager *m);
void manager_quit(Manager *m);
/* badmin mbdrestart: flush, then exec this program again (the new one
 * recovers from the journal). */
void manager_restart_soon(Manager *m);

/*
 * Commit one event: stamp it with the next sequence number and the time,
 * apply it.  FALSE (logged, nothing changed) if it does not fit the state.
 */
gboolean manager_commit(Manager *m, Basalt__Event *ev, GError **err);
/* mbd-jobgroups.c: JOB_GROUP_CLEAN's deletion of empty implicit groups. */
void manager_clean_jobgroups(Manager *m);

/* How a job ended, for commit_job_status(); NULL when it did not end. */
typedef struct {
	int exit_status;
	int term_signal;
	const Basalt__ResourceUsage *usage;
	const char *term_reason;  /* TERM_* from the host, NULL: none */
} JobOutcome;

/* Job events in one line each (mbd-events.c). */
gboolean commit_job_status(Manager *m, const Job *j, JobState state,
    const JobOutcome *out, const char *reason);
gboolean commit_job_requeue(Manager *m, const Job *j, gboolean hold,
    const char *reason);
gboolean commit_job_start(Manager *m, const Job *j, int pgid);

/* Ask for a scheduling pass soon (coalesced). */
void manager_schedule_soon(Manager *m);
/* Run a pass now: snapshot, policies, dispatch (mbd-dispatch.c). */
void manager_schedule_now(Manager *m);
/* Run a pass at wall-clock second t (a plan's next_wake), replacing the
 * previous such request; 0: none. */
void manager_wake_at(Manager *m, gint64 t);

/* Load the configuration again; all or nothing.  Diagnostics go to *diags. */
gboolean manager_reconfig(Manager *m, BsDiags *diags);
/* Keep what each resource group's plan was at the previous pass under the
 * running configuration, before cfg replaces it (plan-reload.h). */
void manager_plan_remember(Manager *m, const BsConfig *cfg);

gint64 manager_now(void);                 /* wall clock, seconds */
gboolean manager_is_admin(Manager *m, uid_t uid);

/* mbd-auth.c: identity and roles of peers (MUNGE on TCP). */
#define MBD_NO_AUTH_REASON "no MUNGE is configured on the master " \
	"(LSF_AUTH=munge in lsf.conf): only local connections over the " \
	"Unix socket are accepted"
void mbd_auth_setup(Manager *m, BsRpcServerOptions *opts);
gboolean mbd_auth_enabled(const Manager *m);
/* mbd-users.c: a uid's name, kept 30 s; the uid in decimal if it has none. */
const char *manager_user_name(Manager *m, uid_t uid, char *buf, gsize len);
void manager_user_names_free(Manager *m);

/* Hosts (mbd-hosts.c). */
HostLink *manager_link(Manager *m, const char *host);
void hosts_link_free(HostLink *l);
void hosts_init_services(Manager *m);
/* mbd-tasks.c: HostService.TaskJob and TaskUsage, for blaunch tasks. */
void tasks_task_usage(Basalt__HostService_Service *svc,
    const Basalt__TaskUsageRequest *req, Basalt__TaskUsageReply_Closure closure,
    void *call);
/* The first host's usage of j with its blaunch tasks' added, in *out
 * (scalars only); NULL when in is NULL. */
const Basalt__ResourceUsage *tasks_fold_usage(const struct Job *j,
    const Basalt__ResourceUsage *in, Basalt__ResourceUsage *out);
void tasks_task_job(Basalt__HostService_Service *svc,
    const Basalt__TaskJobRequest *req, Basalt__TaskJobReply_Closure closure,
    void *call);
void hosts_expect_recovered(Manager *m);
void hosts_check_heartbeats(Manager *m);
void hosts_conn_closed(Manager *m, BsRpcConn *conn, const char *reason);
/* Orders to hosts: mbd-orders.h (commit, then send). */

/* The journal (mbd-journal.c). */
gboolean journal_open(Manager *m, GError **err);
void journal_start_commits(Manager *m);
gboolean journal_append(Manager *m, Basalt__Event *ev, GError **err);
void journal_cancel_last(Manager *m);
guint64 journal_next_seq(Manager *m);
gboolean journal_flush(Manager *m);
void journal_close(Manager *m);

/* Queue usage for slot pools (mbd-usage.c). */
void usage_tick(Manager *m);
double usage_of(const Manager *m, const char *queue);


/* Services (mbatchd/svc/). */
void svc_init_batch_service(Manager *m);

#endif
