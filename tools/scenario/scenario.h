/*
 * Policy scenarios (basalt-scenario(5)): a text file that describes a
 * cluster, its jobs and the decisions the scheduler is expected to take.
 * This header is the small library shared by the bscenario tool and the
 * `make check` runner (tests/sched/run-scenarios.c):
 *
 *   scn_load()      parse a file, load its configuration fragments with
 *                   the real lib/conf readers, build the SchedSnapshot
 *                   through mbatchd's own builder (sched-input.h);
 *   scn_plan_lines() run-free rendering of a SchedPlan as expectation
 *                   lines (scn-plan.c, the one place that reads a plan);
 *   scn_check()     compare those lines with the file's expectations.
 *
 * Errors carry "file:line: message" in the GError.
 */
#ifndef BS_SCENARIO_H
#define BS_SCENARIO_H

#include <glib.h>

#include "conf/conf.h"
#include "mbatchd/sched-input.h"
#include "mbatchd/sched/sched.h"

#define SCN_ERROR (scn_error_quark())
GQuark scn_error_quark(void);

/* What an expectation line says; also what scn-plan.c produces.  The
 * decisions come first, in the scheduler's kinds. */
typedef enum {
	SCN_DISPATCH,             /* dispatch ID on HOSTS */
	SCN_PREEMPT,              /* preempt VICTIM for ID (suspend) */
	SCN_TERMINATE,            /* terminate VICTIM for ID */
	SCN_RESUME,               /* resume ID */
	SCN_WINDOW_SUSPEND,       /* window-suspend ID: its run window closed */
	SCN_WINDOW_RESUME,        /* window-resume ID: the window opened */
	SCN_WINDOW_TERMINATE,     /* window-terminate ID: TERMINATE_WHEN=WINDOW */
	SCN_DEADLINE_TERMINATE,   /* deadline-terminate ID: its -t passed */
	SCN_DEADLINE_EXIT,        /* deadline-exit ID: -t passed while pending */
	SCN_RESERVE,              /* reserve ID on HOSTS start +DURATION|now|unknown */
	SCN_RESERVE_BAN,          /* reserve-ban ID until +DURATION */
	SCN_PENDING,              /* pending ID "reason text" */
	SCN_DESERVED,             /* deserved QUEUE N */
	SCN_POOL,                 /* pool POOL N: its size T this pass */
	SCN_SLOTS,                /* slots QUEUE N: held once the plan is applied */
	SCN_WAKE,                 /* wake +DURATION | none: the next pass */
	SCN_QUOTA,                /* quota CONSUMER GROUP N: lsb.consumers */
	SCN_ALLOC,                /* alloc CONSUMER GROUP N: held after the pass */
	/* Reclaim (scn-reclaim.c): decisions too. */
	SCN_RECLAIM,              /* reclaim ID from C for C KIND grace DURATION */
	SCN_RECLAIM_REQUEUE,      /* reclaim-requeue ID: its grace passed */
} ScnKind;

static inline gboolean
scn_kind_is_decision(ScnKind k)
{
	return k <= SCN_RESERVE_BAN || k == SCN_RECLAIM || k == SCN_RECLAIM_REQUEUE;
}

typedef struct ScnLeases ScnLeases;

typedef struct {
	ScnKind kind;
	char *text;               /* the line after "expect ", normalised */
	int line;                 /* in the scenario file; 0 for actual lines */
	guint queue;              /* dispatch and slots lines: the queue */
} ScnLine;

typedef struct {
	char *path;
	char *title;
	BsConfig *cfg;
	SchedInput in;
	SchedSnapshot snap;
	GArray *running;          /* SchedRunning */
	GArray *run_index;        /* guint32, parallel to running: array index */
	GArray *pending;          /* SchedJob */
	GArray *allocs;           /* SchedAlloc storage */
	GArray *ints;             /* guint storage: -m hosts */
	GPtrArray *resreqs;       /* BsResReq*, the jobs' -R */
	GPtrArray *strings;       /* names owned by the scenario */
	GPtrArray *expect;        /* ScnLine*, in file order */
	gboolean ordered;         /* "expect order": decision order matters */
	int nothing_line;         /* "expect nothing": no decision at all */
	GDateTime *now;
	/* `previous TIME`: when the pass before this one ran (NULL: none);
	 * `reconfig`: the plans were reloaded since.  Plan transitions
	 * (stage-reclaim.c) are read from these. */
	GDateTime *previous;
	gboolean reconfig;
	/* `reconfig GROUP [/PATH=POLICY ...] ...`: the groups the reload
	 * changed (none named: every group) and the POLICY each consumer had
	 * under the previous plan; reconfig_line for errors. */
	char **reconfig_args;
	int reconfig_line;
	GPtrArray *prev_policies; /* int arrays the snapshot points to */
	ScnLeases *leases;        /* the lease timeline (scn-lease.c), NULL if none */
	GPtrArray *reclaim_steps; /* `at` steps without leases (scn-reclaim-time.c) */
} Scenario;

/* Parse and build; NULL with *error set ("file:line: message"). */
Scenario *scn_load(const char *path, GError **error);
void scn_free(Scenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Scenario, scn_free)

/* The plan as ScnLine* (decisions in plan order, then pending reasons
 * in snapshot order, deserved, pool sizes, slots, the wake time).
 * scn-plan.c. */
GPtrArray *scn_plan_lines(const Scenario *s, const SchedPlan *plan);

/*
 * Compare expectations with the plan's lines.  Every decision (dispatch,
 * preempt, terminate, resume, window-*) must be expected, in any order unless the
 * file says "expect order"; a dispatch is also expected when the file
 * counts its queue's slots ("expect slots QUEUE N").  Pending, deserved,
 * pool, slots and wake lines are checked only for what the file names.  TRUE when all agree; otherwise `report`
 * gets a diff ("-" expected and missing, "+" done and not expected).
 */
gboolean scn_check(const Scenario *s, GPtrArray *actual, GString *report);

/*
 * Run the lease timeline (basalt-scenario(5) "Leases"), once: each `at`
 * step runs the lease stage and checks the step's expectations.  TRUE
 * when all agree; `report` gets one line per disagreement, `trace` (may
 * be NULL) every lease after every step.  TRUE at once without leases.
 */
gboolean scn_lease_run(Scenario *s, GString *report, GString *trace);
void scn_leases_free(ScnLeases *ls);

/*
 * Run the reclaim timeline (basalt-scenario(5) "Reclaim": `at` steps in a
 * file without leases): apply each pass's decisions, move the clock,
 * check each step's expectations.  TRUE when all agree, or without steps;
 * `trace` (may be NULL) gets every step's lines.  Changes the scenario's
 * jobs and clock: run it after the first pass was checked.
 */
gboolean scn_reclaim_run(Scenario *s, GString *report, GString *trace);

/* "dispatch", "preempt", ... */
const char *scn_kind_name(ScnKind k);

#endif
