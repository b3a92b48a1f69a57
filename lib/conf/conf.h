/*
 * Basalt configuration: the LSF files an administrator already has, read
 * into plain C structs.
 *
 * Files and where they are found (the rule LSF uses, plus a flat layout):
 *
 *   envdir       the `envdir` argument, else $LSF_ENVDIR, else SYSCONFDIR.
 *   lsf.conf     envdir/lsf.conf (required; its absence is an error).
 *   lsf.shared, lsf.cluster.<cluster>
 *                in LSF_CONFDIR from lsf.conf, default envdir.
 *   cluster name LSF_CLUSTER_NAME in lsf.conf if set, else the first
 *                ClusterName of lsf.shared's Cluster section.
 *   lsb.*        LSB_CONFDIR from lsf.conf (default envdir).  If the LSF
 *                layout LSB_CONFDIR/<cluster>/configdir exists it is used,
 *                else lsb.* are read from LSB_CONFDIR itself (flat layout).
 *   lsb.params, lsb.queues, lsb.hosts, lsb.users, lsb.resources,
 *   lsb.applications, lsb.consumers
 *                are optional: an absent file means LSF's defaults (no
 *                lsb.queues, or one without queues, gives one queue
 *                `default`; no lsb.applications gives no profiles).
 *
 * Loading is all or nothing: bs_config_load() returns NULL if any error was
 * found, and every error and warning is in the BsDiags.  A daemon reloads by
 * loading a new BsConfig and swapping it in only on success.
 *
 * Conventions in the structs: BS_CONF_UNLIMITED (-1) in an int or limit
 * means "not set / unlimited"; a NULL list means "not set" (the LSF
 * default, e.g. HOSTS = all); every object keeps the line of its Begin or
 * row and, for horizontal sections, the line of each key (key_lines).
 */
#ifndef BS_CONF_CONF_H
#define BS_CONF_CONF_H

#include <glib.h>

#include "conf/conf_time.h"
#include "conf/diag.h"

#define BS_CONF_UNLIMITED (-1)
#define BS_CONF_MXJ_NCPUS (-2)   /* lsb.hosts MXJ `!`: one slot per CPU */

/* ---- value types shared by several files ------------------------------- */

/* `[default] maximum` limits.  Time limits are in minutes, size limits in KB. */
typedef struct {
	gint64 def;      /* BS_CONF_UNLIMITED when only a maximum is given */
	gint64 max;      /* BS_CONF_UNLIMITED when not set */
	char *spec;      /* host or model name after `/` (CPU normalisation), or NULL */
} BsLimit;

typedef struct {        /* PROCLIMIT/TASKLIMIT = [minimum [default]] maximum */
	int min, def, max;  /* BS_CONF_UNLIMITED when not given */
} BsProcLimit;

typedef struct {        /* `[name, shares]` in USER_SHARES, FAIRSHARE, DISTRIBUTION */
	char *name;
	int shares;
} BsShare;

typedef struct {        /* a value that applies only when set (lsb.applications) */
	int value;
	gboolean set;
} BsOptInt;

typedef struct {        /* one `sched/stop` load threshold (r1m = 0.6/1.6) */
	char *index;
	double sched, stop;
	gboolean has_sched, has_stop;
} BsLoadThreshold;

/* ---- lsf.conf ---------------------------------------------------------- */

typedef struct {
	char *path;
	GHashTable *values;     /* every KEY -> value, known or not (sites carry many) */
	char *lsf_confdir;      /* LSF_CONFDIR, default envdir */
	char *lsb_confdir;      /* LSB_CONFDIR, default envdir */
	char *lsf_logdir;       /* LSF_LOGDIR, NULL = log to stderr */
	int log_mask;           /* LSF_LOG_MASK as a BsLogLevel, default LOG_WARNING */
	char *lsf_cluster_name; /* LSF_CLUSTER_NAME override, or NULL */
	char *lsb_sharedir;     /* LSB_SHAREDIR: mbatchd state (journal) lives here */
	char *lsf_serverdir;    /* LSF_SERVERDIR: daemons' binaries */
	int mbd_port;           /* LSB_MBD_PORT 0-65535, default 6881 (0 = any) */
	int sbd_port;           /* LSB_SBD_PORT 0-65535, default 6882 (0 = any) */
	int mbd_max_conns;      /* LSB_MBD_MAX_CONNS, -1 = from the descriptor limit */
	int mbd_max_conns_per_user; /* LSB_MBD_MAX_CONNS_PER_USER, default 256, 0 = no cap */
	int mbd_client_idle_timeout; /* LSB_MBD_CLIENT_IDLE_TIMEOUT s, default 60, 0 = none */
	int mbd_max_queued_output;   /* LSB_MBD_MAX_QUEUED_OUTPUT MiB, default 256, 0 = no cap */
	int unit_for_limits;    /* LSF_UNIT_FOR_LIMITS as a BsMemUnit, default KB */
} BsLsfConf;

/* ---- lsf.shared / lsf.cluster.<name> ----------------------------------- */

typedef struct {
	char *name;
	char **servers;         /* Servers column, NULL if `-` */
	int line;
} BsClusterEntry;

typedef struct {
	char *name;             /* HOSTNAME */
	char *model;            /* model column, NULL = `!`/`-` (detected) */
	char *type;
	gboolean server;        /* server column, default Y */
	char **resources;       /* RESOURCES column, NULL if none */
	int line;
} BsClusterHost;

typedef struct {
	char *name;             /* CLUSTERNAME */
	gboolean equiv;         /* EQUIV, default N */
	int cache_interval;     /* CACHE_INTERVAL seconds, default 60 */
	gboolean recv_from;     /* RECV_FROM, default Y */
	char *auth;             /* AUTH, NULL = privileged port */
	int line;
} BsRemoteCluster;

typedef struct {
	char *name;             /* this cluster */
	GPtrArray *clusters;    /* BsClusterEntry*, lsf.shared order */
	GPtrArray *host_types;  /* char*, lsf.shared HostType section */
	GPtrArray *host_models; /* char*, lsf.shared HostModel section */
	char **admins;          /* ClusterAdmins Administrators, NULL if none */
	GPtrArray *hosts;       /* BsClusterHost*, file order */
	GHashTable *host_by_name;
	GPtrArray *remote_clusters; /* BsRemoteCluster* */
} BsClusterConf;

#define BS_CLUSTER_NAME_MAX 39   /* LSF's MAXLSFNAMELEN - 1 */

/* The Cluster section's line for name, or NULL. */
const BsClusterEntry *bs_conf_cluster_find(const BsClusterConf *c, const char *name);
/*
 * name as a peer of the local cluster: listed in lsf.shared with Servers,
 * not the local cluster, and in RemoteClusters when that section lists
 * any.  NULL otherwise.
 */
const BsClusterEntry *bs_conf_cluster_peer(const BsClusterConf *c, const char *name);
/* Every peer, in lsf.shared order (g_ptr_array_unref; entries not owned). */
GPtrArray *bs_conf_cluster_peers(const BsClusterConf *c);

/* ---- lsb.params -------------------------------------------------------- */

typedef enum {          /* PREEMPT_FOR keywords, as bits */
	BS_PREEMPT_FOR_GROUP_JLP = 1 << 0,
	BS_PREEMPT_FOR_GROUP_MAX = 1 << 1,
	BS_PREEMPT_FOR_HOST_JLU = 1 << 2,
	BS_PREEMPT_FOR_USER_JLP = 1 << 3,
	BS_PREEMPT_FOR_LEAST_RUN_TIME = 1 << 4,
	BS_PREEMPT_FOR_MINI_JOB = 1 << 5,
	BS_PREEMPT_FOR_OPTIMAL_MINI_JOB = 1 << 6,
} BsPreemptFor;

typedef enum {          /* PREEMPT_JOBTYPE keywords */
	BS_PREEMPT_JOBTYPE_EXCLUSIVE = 1 << 0,
	BS_PREEMPT_JOBTYPE_BACKFILL = 1 << 1,
	BS_PREEMPT_JOBTYPE_AFFINITY = 1 << 2,
} BsPreemptJobType;

typedef struct {
	char **default_queue;           /* DEFAULT_QUEUE, NULL = queue `default` */
	int mbd_sleep_time;             /* seconds, 60 */
	int sbd_sleep_time;             /* seconds, 30 */
	int job_accept_interval;        /* x MBD_SLEEP_TIME, 1; 0 = no wait */
	int max_job_num;                /* 1000 */
	int max_job_array_size;         /* 1000, 1..2147483646 */
	int max_jobid;                  /* 999999, 999999..2147483646 */
	int clean_period;               /* seconds, 3600 */
	guint preempt_for;              /* BsPreemptFor bits, 0 */
	int preemption_wait_time;       /* seconds, 300 */
	char **preemptable_resources;   /* NULL */
	guint preempt_jobtype;          /* BsPreemptJobType bits, 0 */
	int max_job_preempt;            /* >0, BS_CONF_UNLIMITED */
	int max_preexec_retry;          /* >0, 5: LSF's job forwarding model only: unused */
	int local_max_preexec_retry;    /* >0, BS_CONF_UNLIMITED */
	int local_max_preexec_retry_action; /* BsPreexecAction, UNSET = SUSPEND */
	int job_preproc_timeout;        /* minutes, BS_CONF_UNLIMITED */
	int job_postproc_timeout;       /* minutes, BS_CONF_UNLIMITED */
	int mc_reclaim_delay;           /* SECONDS (file: minutes, or `Ns`), 600 */
	int mc_pending_reason_update_interval; /* seconds, 300, 0 = off */
	int mc_pending_reason_pkg_size; /* KB, 512 */
	int hist_hours;                 /* 5, 0 = no decay */
	double cpu_time_factor;         /* 0.7 */
	double run_time_factor;         /* 0.7 */
	double run_job_factor;          /* 3.0 */
	double committed_run_time_factor; /* 0 */
	double fairshare_adjustment_factor; /* 0 */
	gboolean enable_event_stream;   /* N */
	int max_event_stream_size;      /* MB, 1024 */
	int max_event_stream_file_number; /* 10 */
	int max_sbd_fail;               /* 3 */
	int job_terminate_interval;     /* seconds, 10 */
	int max_pend_jobs;              /* BS_CONF_UNLIMITED */
	int max_pend_slots;             /* 2147483647 */
	int max_user_priority;          /* BS_CONF_UNLIMITED (user priority off) */
	char *job_priority_over_time;   /* NULL */
	int sub_try_interval;           /* seconds, 60 */
	int max_sbd_conns;              /* BS_CONF_UNLIMITED */
	int pg_susp_it;                 /* seconds, 180 */
	char *default_project;          /* "default" */
	char *job_spool_dir;            /* NULL */
	int shared_resource_update_factor; /* BS_CONF_UNLIMITED */
	int job_dispatch_pack_size;     /* 300 */
	int job_scheduling_interval;    /* seconds, 0..45; 0 = event-driven only */
	gboolean simplified_guarantee;  /* N */
	/* Basalt: half-life, in hours, of the decayed slot usage that orders
	 * the queues of a slot pool (decisions.md "Queue-based fairshare").
	 * BS_CONF_UNLIMITED means "use HIST_HOURS"; 0 = no decay. */
	int pool_usage_half_life;
	char *default_application;      /* DEFAULT_APPLICATION, NULL = none */
	/* Who sees what of other users' jobs: LSF's levels 0-5, default 5
	 * (everyone's summary, details only of one's own jobs). */
	int secure_job_info_level;
	/* Basalt: the most entries any list in a request may have. */
	int max_request_list_size;      /* 100000 */
	/* Job groups: the group of a job submitted without -g (LSF's %u and
	 * %p substituted at submission), NULL = none; and whether a group
	 * made implicitly by bsub -g goes when it holds no unfinished job. */
	char *default_jobgroup;         /* DEFAULT_JOBGROUP */
	gboolean job_group_clean;       /* JOB_GROUP_CLEAN, N */
	/* Basalt: the most job groups one user who is not an administrator
	 * may own (the total, 100000, is shared by all). */
	int max_job_groups_per_user;    /* MAX_JOB_GROUPS_PER_USER, 1000 */
	/* Resource plans (lsb.consumers; decisions.md "Hybrid policy"). */
	gboolean hybrid_evenly_distribute_slots; /* N */
	int consumer_rank_default;      /* BS_CONF_UNLIMITED = not set (rank 0) */
	/* Resource reclaim (decisions.md "Resource reclaim"). */
	gboolean disable_reclaim_hybrid_own;    /* N */
	gboolean reclaim_shared;                /* Y */
	gboolean reclaim_owned_before_borrow;   /* N */
	gboolean use_ancestor_grace_period_for_reclaim; /* N */
	int reclaim_criteria;           /* 0 POLICY_DEFAULT, 1 MOST_RECENT_TASK */
	GHashTable *key_lines;          /* KEY -> line in lsb.params */
} BsParamsConf;

/* ---- lsb.queues -------------------------------------------------------- */

typedef struct {        /* one entry of PREEMPTIVE[...] / PREEMPTABLE[...] */
	char *queue;
	int pref;           /* the +N preference, 0 if none */
	gboolean has_pref;
} BsQueueRef;

typedef struct {
	gboolean preemptive;
	GPtrArray *preemptive_queues;   /* BsQueueRef*; NULL = every lower-priority queue */
	gboolean preemptable;
	GPtrArray *preemptable_queues;  /* BsQueueRef*; NULL = every higher-priority queue */
} BsPreemption;

typedef enum {
	BS_HOSTREF_HOST,        /* a cluster host */
	BS_HOSTREF_GROUP,       /* an lsb.hosts HostGroup */
	BS_HOSTREF_ALL,         /* all local hosts */
	BS_HOSTREF_OTHERS,      /* local hosts not listed otherwise */
	BS_HOSTREF_NONE,
	BS_HOSTREF_ALLREMOTE,   /* every borrowed host */
	BS_HOSTREF_REMOTE,      /* name@cluster (name may be `all`); not validated, as LSF */
} BsHostRefKind;

typedef struct {        /* one word of HOSTS: [~]name[@cluster][+pref] */
	BsHostRefKind kind; /* HOST vs GROUP is settled after lsb.hosts is read */
	char *name;
	char *cluster;      /* REMOTE only */
	gboolean exclude;   /* ~ */
	int pref;
	gboolean has_pref;
} BsHostRef;

typedef enum {
	BS_TERMINATE_WHEN_LOAD = 1 << 0,
	BS_TERMINATE_WHEN_PREEMPT = 1 << 1,
	BS_TERMINATE_WHEN_WINDOW = 1 << 2,
} BsTerminateWhen;

typedef enum {
	BS_INTERACTIVE_YES,     /* default: batch and interactive jobs */
	BS_INTERACTIVE_NO,
	BS_INTERACTIVE_ONLY,
} BsInteractive;

typedef enum {          /* LOCAL_MAX_PREEXEC_RETRY_ACTION */
	BS_PREEXEC_ACTION_UNSET = 0,
	BS_PREEXEC_ACTION_SUSPEND,      /* LSF's default: the job becomes PSUSP */
	BS_PREEXEC_ACTION_EXIT,
} BsPreexecAction;

typedef struct {        /* JOB_CONTROLS (and the *_CONTROL aliases); NULL = LSF default */
	char *suspend;      /* signal name, command or CHKPNT */
	char *resume;
	char *terminate;
} BsJobControls;

typedef struct {
	gboolean enabled;
	char *cu;           /* the CU[...] argument, or NULL */
} BsExclusive;

typedef struct {
	GArray *codes;      /* int exit codes that requeue */
	GArray *exclude;    /* int codes inside EXCLUDE(...) */
} BsRequeueExit;

typedef struct {
	char *name;                     /* QUEUE_NAME */
	int line;                       /* Begin Queue line */
	int priority;                   /* 1 */
	int nice;                       /* 0, -20..19 */
	char *description;              /* <= 512 chars */
	GPtrArray *hosts;               /* BsHostRef*, NULL = all */
	char **users;                   /* words as written (all, ~x, groups), NULL = all */
	char **administrators;
	int qjob_limit, ujob_limit, hjob_limit; /* BS_CONF_UNLIMITED */
	double pjob_limit;              /* BS_CONF_UNLIMITED */
	BsLimit runlimit, cpulimit;     /* minutes */
	BsLimit memlimit, corelimit, datalimit, filelimit, stacklimit, swaplimit; /* KB */
	int processlimit;
	int threadlimit;                /* THREADLIMIT, BS_CONF_UNLIMITED = none */
	BsProcLimit proclimit;          /* PROCLIMIT or TASKLIMIT */
	BsPreemption preemption;
	char *slot_pool;                /* <= 60 chars */
	int slot_share;                 /* 1-100, 0 = not set */
	int max_slots_in_pool;          /* BS_CONF_UNLIMITED */
	gboolean use_priority_in_pool;  /* N */
	GPtrArray *fairshare;           /* USER_SHARES: BsShare*, NULL = no fairshare */
	char **fairshare_queues;
	char **rcvjobs_from, **sndjobs_to;
	int max_job_preempt;            /* >0, BS_CONF_UNLIMITED = lsb.params value */
	int local_max_preexec_retry_action; /* BsPreexecAction, UNSET = lsb.params' */
	guint terminate_when;           /* BsTerminateWhen bits */
	BsRequeueExit requeue_exit_values;
	char *job_starter, *pre_exec, *post_exec;
	/* JOB_WARNING_ACTION (a signal, NULL: none) and
	 * JOB_ACTION_WARNING_TIME (seconds, 0: not set): conf_warning.c. */
	char *job_warning_action;
	int job_action_warning_time;
	GArray *run_window;             /* BsTimeWindow, NULL = always open */
	GArray *dispatch_window;
	BsJobControls job_controls;
	char *stop_cond, *resume_cond, *res_req;
	GPtrArray *load_thresholds;     /* BsLoadThreshold*, NULL = none */
	int slot_reserve_time;          /* MAX_RESERVE_TIME[n], BS_CONF_UNLIMITED = no reservation */
	gboolean backfill;
	BsInteractive interactive;
	BsExclusive exclusive;          /* EXCLUSIVE = Y | N | CU[...] */
	char *chkpnt;
	gboolean rerunnable;
	int mig;                        /* minutes, BS_CONF_UNLIMITED */
	int job_accept_interval;        /* BS_CONF_UNLIMITED = lsb.params */
	int new_job_sched_delay;        /* BS_CONF_UNLIMITED */
	char *default_host_spec;
	int hist_hours;                 /* BS_CONF_UNLIMITED = lsb.params */
	double cpu_time_factor, run_time_factor, run_job_factor; /* -1 = lsb.params */
	gboolean dispatch_order_queue;  /* DISPATCH_ORDER = QUEUE */
	gboolean ignore_deadline;
	char *consumer;                 /* CONSUMER = /path (lsb.consumers leaf), NULL */
	GHashTable *key_lines;          /* KEY -> line */
} BsQueueConf;

/* ---- lsb.applications -------------------------------------------------- */

/* One `Begin Application` section (bsub -app).  Every field means "not set,
 * the queue's value applies" in its unset state: BS_CONF_UNLIMITED, a limit
 * whose max is BS_CONF_UNLIMITED, NULL, or BsOptInt.set FALSE. */
typedef struct {
	char *name;                     /* NAME */
	int line;                       /* Begin Application line */
	char *description;              /* <= 512 chars */
	int max_job_preempt;            /* >0; overrides the queue and lsb.params */
	int max_preexec_retry;          /* >0; overrides lsb.params */
	int local_max_preexec_retry;    /* >0; overrides lsb.params */
	int local_max_preexec_retry_action; /* BsPreexecAction; overrides queue, lsb.params */
	int job_preproc_timeout;        /* minutes; overrides lsb.params */
	int job_postproc_timeout;       /* minutes; overrides lsb.params */
	BsLimit runlimit, cpulimit;     /* minutes */
	BsLimit runtime;                /* RUNTIME: estimated run time, minutes
	                                 * (the default for bsub -We) */
	BsLimit memlimit, corelimit, datalimit, filelimit, stacklimit, swaplimit; /* KB */
	int processlimit;
	int threadlimit;                /* THREADLIMIT, BS_CONF_UNLIMITED = not set */
	BsProcLimit proclimit;          /* TASKLIMIT or PROCLIMIT */
	char *res_req, *job_starter, *pre_exec, *post_exec;
	char *job_warning_action;       /* as lsb.queues' */
	int job_action_warning_time;
	BsRequeueExit requeue_exit_values; /* codes and exclude NULL = not set */
	BsOptInt rerunnable;            /* value TRUE or FALSE */
	GArray *success_exit_values;    /* int exit codes counted as DONE, NULL = not set */
	BsOptInt nice;                  /* -20..19 */
	BsJobControls job_controls;
	char *chkpnt_dir;               /* parsed, not acted on */
	int chkpnt_period;              /* minutes; parsed, not acted on */
	GArray *job_size_list;          /* int slots, [0] the default size; parsed, not acted on */
	char **env_vars;                /* "NAME=value", file order */
	GHashTable *key_lines;          /* KEY -> line */
} BsAppConf;

/* ---- lsb.hosts --------------------------------------------------------- */

typedef struct {
	char *name;             /* host, model, type or `default` */
	int line;
	int mxj;                /* BS_CONF_UNLIMITED, or BS_CONF_MXJ_NCPUS for `!` */
	int jl_u;               /* BS_CONF_UNLIMITED */
	GArray *dispatch_window;/* NULL = always open */
	int mig;                /* minutes, BS_CONF_UNLIMITED */
	GPtrArray *load_thresholds; /* BsLoadThreshold*, NULL = none */
} BsHostConf;

typedef struct {
	char *name;
	int line;
	char **members;         /* as written: hosts, groups, ~x, all, allremote */
	gboolean allremote;
	gboolean egroup;        /* `(!)`: membership from an egroup program */
} BsHostGroupConf;

typedef struct {
	GPtrArray *hosts;       /* BsHostConf*, file order; `default` row included */
	GHashTable *host_by_name;
	GPtrArray *groups;      /* BsHostGroupConf*, file order */
	GHashTable *group_by_name;
} BsHostsConf;

/* ---- lsb.users --------------------------------------------------------- */

typedef struct {
	char *name;
	int line;
	char **members;         /* users and groups; NULL = all users */
	GPtrArray *shares;      /* USER_SHARES BsShare*, NULL if `()` */
} BsUserGroupConf;

typedef struct {
	char *name;             /* user, group, group@ stripped of @, or `default` */
	gboolean per_member;    /* written as group@ */
	int line;
	int max_jobs;           /* BS_CONF_UNLIMITED */
	double jl_p;            /* BS_CONF_UNLIMITED */
	int max_pend_jobs;
	int max_pend_slots;
} BsUserConf;

typedef struct {
	GPtrArray *groups;      /* BsUserGroupConf* */
	GHashTable *group_by_name;
	GPtrArray *users;       /* BsUserConf* */
} BsUsersConf;

/* ---- lsb.resources ------------------------------------------------------ */

typedef struct {        /* one key of a horizontal section */
	char *key;
	char *value;
	int line;
} BsConfPair;

typedef struct {
	char *kind;             /* Limit, HostExport, SharedResourceExport, ... */
	int line;
	GPtrArray *pairs;       /* BsConfPair*, horizontal sections */
	GPtrArray *columns;     /* char*, vertical sections */
	GPtrArray *rows;        /* GPtrArray* of char* (cells; `-` kept), vertical */
	GPtrArray *row_lines;   /* GINT_TO_POINTER(line) per row */
} BsResourceSection;

/*
 * A Limit section, typed (conf_limits.c).  Each consumer keyword is kept
 * as written; the scheduler's builder resolves names and groups against
 * the cluster (mbatchd/limits-input.c).
 */
typedef enum {
	BS_LIMIT_USERS = 0,     /* USERS / PER_USER */
	BS_LIMIT_QUEUES,        /* QUEUES / PER_QUEUE */
	BS_LIMIT_HOSTS,         /* HOSTS / PER_HOST */
	BS_LIMIT_PROJECTS,      /* PROJECTS / PER_PROJECT */
	BS_LIMIT_APPS,          /* APPS / PER_APP */
	BS_LIMIT_NCONS
} BsLimitConsKind;

typedef struct {
	gboolean set;           /* the keyword was written with a value */
	gboolean per;           /* the PER_ form: each member apart */
	gboolean all;           /* `all` was listed */
	char **names;           /* other names, NULL-terminated; a group written
	                         * `name/` keeps the slash (group as a whole) */
	char **excluded;        /* `~name`, the ~ stripped */
} BsLimitCons;

typedef struct {
	double value;           /* < 0: not set */
	gboolean percent;       /* `N%`: of the hosts' memory (PER_HOST only) */
} BsLimitAmount;

typedef struct {
	char *name;             /* a numeric resource of lsf.shared */
	double value;
} BsLimitResource;

typedef struct {
	char *name;             /* NAME, or NONAMEnnn when none was given */
	int line;
	BsLimitCons cons[BS_LIMIT_NCONS];
	int slots;              /* BS_CONF_UNLIMITED */
	double slots_per_processor; /* < 0: not set */
	int jobs;               /* BS_CONF_UNLIMITED */
	BsLimitAmount mem, swp, tmp; /* MB or percent */
	GPtrArray *resources;   /* BsLimitResource*: RESOURCE = [name,n] ... */
} BsLimitConf;

/*
 * A HostExport section, typed (conf_export.c): the provider side of the
 * MultiCluster lease model, one lease agreement per consumer cluster named
 * in DISTRIBUTION (lsf-reference.md 3.4, seeds/lsf-multicluster-shared-
 * lease.txt).  Checked at its `file:line`: exactly one of PER_HOST and
 * RES_SELECT, SLOTS with PER_HOST, NHOSTS with RES_SELECT, a DISTRIBUTION
 * of clusters from lsf.shared, TYPE = shared with PER_HOST naming one
 * consumer only, and a host exported by a shared lease to one consumer
 * only.  (No check against advance reservations: Basalt has none.)
 */
typedef enum {
	BS_EXPORT_PER_HOST = 0, /* PER_HOST = host ... with SLOTS on each */
	BS_EXPORT_RES_SELECT,   /* RES_SELECT = expr with NHOSTS whole hosts */
} BsExportKind;

typedef struct {
	char *name;             /* NAME (Basalt), else "export<N>" (N from 1, file order) */
	int line;               /* Begin HostExport */
	BsExportKind kind;
	char **per_host;        /* PER_HOST hosts as written, NULL with RES_SELECT */
	char *res_select;       /* RES_SELECT, NULL with PER_HOST */
	int nhosts;             /* NHOSTS with RES_SELECT, else 0 */
	int slots;              /* SLOTS per host with PER_HOST, else 0 (whole hosts) */
	GPtrArray *distribution;/* BsShare*, file order, the local cluster dropped */
	int mem, swp;           /* MEM / SWP MB per host, BS_CONF_UNLIMITED = `-` */
	gboolean shared;        /* TYPE = shared; FALSE: an exclusive lease */
	GHashTable *key_lines;  /* KEY -> line */
} BsHostExport;

/*
 * The consumer side, as LSF configures it: no section of its own, but a
 * queue whose HOSTS names borrowed hosts (`allremote`, `all@cluster`,
 * `host@cluster`, or a host group holding `allremote`).  One entry per such
 * word, gathered by the cross-file checks (conf_check.c).
 */
typedef struct {
	char *queue;            /* the consumer queue */
	char *cluster;          /* provider cluster, NULL = allremote (every provider) */
	char *host;             /* provider host, NULL = all hosts leased from cluster */
	int line;               /* line of the queue's HOSTS */
} BsHostImport;

typedef struct {
	GPtrArray *sections;    /* BsResourceSection*, file order */
	GPtrArray *limits;      /* BsLimitConf*, file order (rows in order) */
	GPtrArray *exports;     /* BsHostExport*, file order */
	GPtrArray *imports;     /* BsHostImport*, lsb.queues order */
} BsResourcesConf;

/* ---- lsb.consumers: conf_consumers.h ----------------------------------- */

typedef struct BsConsumersConf BsConsumersConf;

/* ---- the whole configuration ------------------------------------------- */

typedef struct {
	char *envdir;
	char *lsb_dir;          /* the directory lsb.* were read from */
	BsLsfConf *lsf;
	BsClusterConf *cluster;
	BsParamsConf *params;
	GPtrArray *queues;      /* BsQueueConf*, lsb.queues order */
	GHashTable *queue_by_name;
	BsHostsConf *hosts;
	BsUsersConf *users;
	BsResourcesConf *resources;
	GPtrArray *apps;        /* BsAppConf*, lsb.applications order; empty if no file */
	GHashTable *app_by_name;
	BsConsumersConf *consumers;     /* lsb.consumers; NULL: no such file */
} BsConfig;

/* Load everything; NULL if any error.  `now` (Unix seconds) decides the
 * `#if time(...)` branches.  `diags` may be NULL. */
BsConfig *bs_config_load(const char *envdir, gint64 now, BsDiags *diags);
void bs_config_free(BsConfig *cfg);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsConfig, bs_config_free)

/* Lookups. */
const BsQueueConf *bs_config_queue(const BsConfig *cfg, const char *name);
/* An application profile by NAME, or NULL. */
const BsAppConf *bs_config_app(const BsConfig *cfg, const char *name);
/* The profile of a job submitted without -app: DEFAULT_APPLICATION, or NULL. */
const BsAppConf *bs_config_default_app(const BsConfig *cfg);

/* Effective MAX_JOB_PREEMPT for a job of queue `q` (may be NULL) and profile
 * `app` (may be NULL): application, else queue, else lsb.params;
 * BS_CONF_UNLIMITED = no bound. */
int bs_config_max_job_preempt(const BsConfig *cfg, const BsQueueConf *q, const BsAppConf *app);
/* Effective LOCAL_MAX_PREEXEC_RETRY of a job: the profile's, else
 * lsb.params'; BS_CONF_UNLIMITED = no bound. */
int bs_config_local_preexec_retry(const BsConfig *cfg, const BsAppConf *app);
/* Effective LOCAL_MAX_PREEXEC_RETRY_ACTION: profile > queue > lsb.params;
 * never UNSET (SUSPEND by default). */
BsPreexecAction bs_config_preexec_action(const BsConfig *cfg,
    const BsQueueConf *q, const BsAppConf *app);
/* Effective JOB_PREPROC_TIMEOUT (post FALSE) or JOB_POSTPROC_TIMEOUT, in
 * minutes: the profile's, else lsb.params'; BS_CONF_UNLIMITED = none. */
int bs_config_prepost_timeout(const BsConfig *cfg, const BsAppConf *app,
    gboolean post);
const BsClusterHost *bs_config_cluster_host(const BsConfig *cfg, const char *name);
const BsHostConf *bs_config_host(const BsConfig *cfg, const char *name); /* lsb.hosts row, then `default` */
const BsHostGroupConf *bs_config_host_group(const BsConfig *cfg, const char *name);
const BsUserGroupConf *bs_config_user_group(const BsConfig *cfg, const char *name);
/* A HostExport section of lsb.resources by its name, or NULL. */
const BsHostExport *bs_config_host_export(const BsConfig *cfg, const char *name);
/* A Limit section of lsb.resources by NAME, or NULL. */
const BsLimitConf *bs_config_limit(const BsConfig *cfg, const char *name);
/* The keyword of a consumer kind, "USERS" or "PER_USER" by per. */
const char *bs_limit_cons_keyword(BsLimitConsKind k, gboolean per);
/* Local hosts of a host group, nested groups and `~` resolved, in cluster
 * order; NULL if no such group.  g_strfreev() the result. */
char **bs_config_host_group_expand(const BsConfig *cfg, const char *group);
/* Local candidate hosts of a queue (HOSTS resolved; `all` when unset). */
char **bs_config_queue_hosts(const BsConfig *cfg, const BsQueueConf *q);
/* Users of a user group, nested groups resolved; NULL if no such group. */
char **bs_config_user_group_expand(const BsConfig *cfg, const char *group);
/* Effective DEFAULT_QUEUE list (never NULL; "default" when unset). */
const char *const *bs_config_default_queues(const BsConfig *cfg);
/* Line of KEY in a horizontal section (key_lines), or 0. */
int bs_conf_key_line(GHashTable *key_lines, const char *key);

/* Single-file entry points, for tests, fuzzing and `badmin ckconfig`:
 * parse text as the named file into the given config (which must have
 * cluster and params filled if cross-checks are wanted). */
void bs_conf_queues_load_text(BsConfig *cfg, const char *name, const char *text,
    gsize len, gint64 now, BsDiags *diags);
/* An empty config with defaults (no cluster hosts), to load files into. */
BsConfig *bs_config_new_empty(void);

/*
 * The lsf.conf parameters a daemon runs with, as showconf prints them:
 * lsf.conf's values and the resolved directories (envdir, and sharedir
 * when not NULL, for LSF_ENVDIR and LSB_SHAREDIR), each passed to fn as
 * (key, value, data) in key order.  The strings are lsf's or the caller's.
 */
void bs_conf_lsf_shown_foreach(const BsLsfConf *lsf, const char *envdir,
    const char *sharedir, GHFunc fn, gpointer data);

#endif
