/*
 * The history model of bhist and bacct: the journal's events folded into
 * one history per job (an array element is a job of its own), with the
 * seconds spent in each of LSF's states and the steps that bhist -l and
 * -t print.  It does no I/O and takes `now` from its caller, so the same
 * event sequence always gives the same numbers, in tests as in the tools.
 *
 * The meaning of each event is mbatchd's (mbatchd/state/apply.c); this
 * model only records it.  Events for a job whose submission is not in the
 * files read (older segments pruned, bhist -n) are counted and dropped, as
 * LSF's bhist does not know a job it has not seen submitted.
 *
 * Filters (hist_filter_*) and LSF's time ranges are here too, since both
 * programs select jobs the same way.
 */
#ifndef BS_CMD_HIST_MODEL_H
#define BS_CMD_HIST_MODEL_H

#include <glib.h>

#include "pb.h"
#include "event.pb-c.h"

/* The bhist columns, in LSF's order. */
typedef enum {
	HIST_PEND,
	HIST_PSUSP,
	HIST_RUN,
	HIST_USUSP,
	HIST_SSUSP,
	HIST_UNKWN,
	HIST_NCOLS,
} HistCol;

typedef enum {
	HIST_STEP_SUBMIT,
	HIST_STEP_DISPATCH,
	HIST_STEP_START,
	HIST_STEP_STATUS,
	HIST_STEP_REQUEUE,
	HIST_STEP_SWITCH,
	HIST_STEP_MODIFY,
	HIST_STEP_MOVE,
	HIST_STEP_SIGNAL,
	HIST_STEP_MESSAGE,          /* bpost: position = index, text = user */
	HIST_STEP_QUOTA_PEND,       /* EvJobConsumerPend: text = the reason
	                             * (pending), or NULL; state unchanged */
	HIST_STEP_RECLAIM,          /* EvJobReclaim: text = the line's words
	                             * after the time; state unchanged */
	HIST_STEP_LEASE,            /* a change of the lease of the job's
	                             * host (hist-lease.c): text = the line's
	                             * words after the time; state unchanged */
} HistStepKind;

/* One line of a job's history. */
typedef struct {
	guint64 seq;                /* the event's, for -t's merge */
	gint64 time;
	HistStepKind kind;
	Basalt__JobState state;     /* STATUS, REQUEUE: the state entered */
	int exit_status;            /* STATUS DONE/EXIT */
	int term_signal;
	int pid;                    /* START; SIGNAL: the signal, 0 = kill */
	guint64 cpu_us;             /* STATUS DONE/EXIT */
	guint position;             /* MOVE */
	gboolean to_bottom;         /* MOVE */
	/* SUBMIT: the queue; DISPATCH: the hosts, one per slot, blank
	 * separated; STATUS, REQUEUE: the reason; SWITCH: the queue;
	 * SIGNAL: the user who asked;
	 * MODIFY: the changes, one per line. */
	char *text;
	char *term_reason;          /* STATUS DONE/EXIT: TERM_*, or NULL */
	/* DISPATCH: what the job started with (mbatchd's stamp); NULL in
	 * journals written before dispatches carried one. */
	Basalt__JobEffective *effective;
} HistStep;

typedef struct HistSpec HistSpec;

typedef struct {
	guint64 id;
	guint32 index;              /* 0: not an array element */
	char *user;
	char *name;                 /* "name[3]" for an element */
	char *base_name;            /* the name without the index */
	char *queue;
	char *from_host;
	HistSpec *spec;             /* shared by the elements of an array */
	gint64 submit_time;         /* first submission */
	gint64 dispatch_time;       /* latest dispatch, 0: never */
	gint64 end_time;            /* latest finish, 0: not finished */
	Basalt__JobState state;
	gint64 since;               /* when the state was entered */
	gint64 secs[HIST_NCOLS];    /* closed intervals only */
	int exit_status;
	int term_signal;
	guint64 cpu_us;             /* utime + stime of the latest run */
	guint64 max_rss_kb;
	/* Accounting of the latest run (sbatchd's samples), in the form the
	 * commands print it (usage-format.h). */
	Basalt__ResourceUsage acct;
	char **exec_hosts;          /* latest dispatch */
	gboolean cleaned;           /* left mbatchd's memory */
	GPtrArray *steps;           /* HistStep*, in event order */
} HistJob;

typedef struct HistLeases HistLeases;

typedef struct {
	GHashTable *by_key;         /* (id, index) -> HistJob* */
	GPtrArray *jobs;            /* HistJob*, in submission order, owning */
	guint64 orphans;            /* events of jobs submitted before the files */
	guint64 events;             /* events fed */
	HistLeases *leases;         /* the leases read so far (hist-lease.c) */
} HistModel;

HistModel *hist_model_new(void);
void hist_model_free(HistModel *m);
void hist_model_feed(HistModel *m, const Basalt__Event *ev);
HistJob *hist_model_job(const HistModel *m, guint64 id, guint32 index);

/* hist-lease.c: lease records become lines of the jobs on leased hosts. */
HistLeases *hist_leases_new(void);
void hist_leases_free(HistLeases *h);
void hist_leases_job_placed(HistLeases *h, HistJob *j);
void hist_leases_feed(HistLeases *h, const Basalt__Event *ev);

/* The job's spec (never NULL) and its project ("default" when unset). */
const Basalt__JobSpec *hist_job_spec(const HistJob *j);
const char *hist_job_project(const HistJob *j);
gboolean hist_job_finished(const HistJob *j);

/*
 * Seconds in each column up to now (an unfinished job's current state
 * counts until now; a finished job stops at its end).  Returns the total.
 */
gint64 hist_job_times(const HistJob *j, gint64 now, gint64 secs[HIST_NCOLS]);

/* ---- selection ---------------------------------------------------------- */

/* A closed interval of unix seconds; set FALSE: no condition. */
typedef struct {
	gboolean set;
	gint64 from;
	gint64 to;
} HistRange;

typedef struct {
	guint64 id;
	guint32 index;
	gboolean has_index;
} HistJobRef;

/* Bits of HistFilter.states. */
#define HIST_SEL_PEND     (1u << 0)   /* PEND, PSUSP */
#define HIST_SEL_RUN      (1u << 1)
#define HIST_SEL_SUSP     (1u << 2)   /* USUSP, SSUSP, PSUSP */
#define HIST_SEL_DONE     (1u << 3)   /* DONE, EXIT */
#define HIST_SEL_UNKWN    (1u << 4)
#define HIST_SEL_UNFINISHED \
	(HIST_SEL_PEND | HIST_SEL_RUN | HIST_SEL_SUSP | HIST_SEL_UNKWN)
#define HIST_SEL_ALL      (HIST_SEL_UNFINISHED | HIST_SEL_DONE)

typedef struct {
	guint states;               /* HIST_SEL_* */
	const char *user;           /* NULL: every user */
	const char *queue;          /* NULL: every queue */
	const char *name;           /* -J, glob ('*'); NULL: any */
	GArray *jobs;               /* HistJobRef; empty: any job */
	HistRange submit;           /* -S */
	HistRange dispatch;         /* -D */
	HistRange complete;         /* -C */
} HistFilter;

void hist_filter_init(HistFilter *f);
void hist_filter_clear(HistFilter *f);
gboolean hist_filter_match(const HistFilter *f, const HistJob *j);
/* The matching jobs, in submission order (a view: the model owns them). */
GPtrArray *hist_filter_select(const HistFilter *f, const HistModel *m);

/*
 * LSF's time forms: [[[year/]month/]day/]hour:minute, [year/]month/day
 * (a whole day), or "." for now; missing fields come from now, in local
 * time.  A form names a span (a minute, a day); end picks its last second.
 */
gboolean hist_parse_time(const char *s, gint64 now, gboolean end,
    gint64 *t, GError **err);
/*
 * "start,end", "start," (until now), ",end" (since the beginning) or one
 * form alone (that form's span to now).
 */
gboolean hist_parse_range(const char *s, gint64 now, HistRange *r,
    GError **err);

#endif
