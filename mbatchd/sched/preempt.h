/*
 * Internal to mbatchd/sched: the per-pass preemption state shared by
 * relation.c (who may preempt whom, queue ranks) and preempt.c (victims).
 */
#ifndef BS_SCHED_PREEMPT_H
#define BS_SCHED_PREEMPT_H

#include "pass.h"

/* The sort keys are copied in, so the order is a few integer compares. */
typedef struct {
	guint run;                /* index into SchedSnapshot.running */
	guint rank;               /* its queue's rank, 0 best (rule 4a) */
	guint host_rank;          /* its best candidate host, in load order */
	int slots;                /* slots it holds on candidate hosts */
	gint64 start;
	guint64 id;
} Victim;

typedef struct Relief Relief;

/* Running jobs listed per user or per group: list i is
 * runs[first[i] .. first[i + 1]), in SchedSnapshot.running order. */
typedef struct {
	guint *first;             /* [n + 1] */
	guint *runs;
} RunIndex;

/* List i of an index: its length in *n. */
static inline const guint *
run_index_list(const RunIndex *ix, guint i, guint *n)
{
	*n = ix->first[i + 1] - ix->first[i];
	return ix->runs + ix->first[i];
}

typedef struct {
	gboolean may;
	gboolean has_pref;
	int pref;
} Rel;

struct Preempt {
	const SchedSnapshot *snap;
	Rel *rel;                 /* [a * n_queues + b]: may a preempt b */
	gboolean *can;            /* [n_queues]: may preempt some queue */
	RunIndex on_host;         /* over hosts: RUN jobs holding slots there */
	gboolean *done;           /* [n_running]: preempted in this pass */
	const gboolean *held;     /* [n_running]: the window stage suspends or
	                           * kills it this pass: no victim (Pass.run_held) */
	guint *seen;              /* [n_running]: stamp of the last listing */
	guint stamp;
	guint **qrank;            /* [a]: NULL, or [b]: rank of b for a (4a) */
	guint *n_ranks;           /* [a]: distinct ranks in qrank[a] */
	/* Scratch reused by every preemptor of the pass: victim lists run to
	 * thousands of entries, too many to allocate afresh each time. */
	GArray *victims;          /* Victim */
	GArray **bucket;          /* [n_queues]: Victim, one per queue rank */
	GArray *one;              /* Victim, one host's */
	gboolean *taken;          /* [n_running] */
	guint *pos;               /* [n_hosts]: Try.pos, all zero between tries */
	guint *cand;              /* [n_hosts]: Try.cand */
	guint *cand2;             /* [n_hosts]: scratch for preempt.c */
	/* prehosts.c, built at the first preemptor of the pass. */
	guint *by_load;           /* hosts by r15s, r1m, name */
	guint *load_pos;          /* [n_hosts]: position in by_load */
	guint *load_class;        /* [n_hosts]: rank of its (r15s, r1m) */
	int **vcount;             /* [a]: NULL or [n_hosts]: allocations of
	                           * victims a may still take, per host */
	int **rcount;             /* [a]: NULL or [rank * n_hosts + host]: the
	                           * same per rank of the victim's queue */
	int **scount;             /* [a]: NULL or [n_hosts]: the slots those
	                           * allocations hold */
	guint64 **wanted;         /* [a]: NULL or bits over by_load: a's
	                           * candidates holding victims or listed open */
	guint64 **rbits;          /* [a]: NULL or [rank * words + w]: the same
	                           * holding victims of each rank */
	guint words;              /* of one bit row over by_load */
	guint *class_start;       /* [load class]: its first by_load position */
	guint8 *plain_usable;     /* [n_hosts]: 0 not known yet, 1 usable, 2 not,
	                           * for jobs without -m or filter data */
	RunIndex **by_user;       /* [a]: NULL or, over users, the user's RUN
	                           * jobs a may preempt */
	RunIndex **by_group;      /* [a]: the same per group, for its members */
	Relief **ucache;          /* [a]: NULL or [n_users]: preempt-relief.c */
	Relief **gcache;          /* [a]: NULL or [n_groups]: the same */
	/* Resource plans (preempt.c, rule 8): hosts holding victims of the
	 * current try's side of the plan carry plan_stamp; NULL until a try
	 * needs it. */
	guint *plan_mark;         /* [n_hosts] */
	guint plan_stamp;
};

static inline const Rel *
preempt_rel(const Preempt *pre, guint a, guint b)
{
	return &pre->rel[a * pre->snap->n_queues + b];
}

/* Whether queue a may take running job r as a victim this pass, as long
 * as no other preemptor took it (Preempt.done). */
static inline gboolean
preempt_victim_for(const Preempt *pre, guint a, const SchedRunning *run)
{
	return run->state == SCHED_RUN_RUN &&
	    !pre->held[run - pre->snap->running] &&
	    preempt_rel(pre, a, run->queue)->may &&
	    (run->max_preempt <= 0 || run->preempt_count < run->max_preempt);
}

/* prehosts.c.  The usable candidate hosts of job j's queue that offer it
 * a slot or hold a victim it may take, least loaded first (rule 4b), a
 * class of equally loaded hosts at a time. */
typedef struct {
	guint q;
	gboolean plain;           /* no -m, no filter data: usable per host */
	guint next;               /* next position in the load rank */
	guint limit;              /* no class from this position on */
} CandGen;

void preempt_cand_begin(Pass *p, const SchedJob *j, CandGen *g);
/* Append the next class's candidates to out, which holds *n_out of them
 * and has room for every host; FALSE when none are left. */
gboolean preempt_cand_next(Pass *p, const SchedJob *j, CandGen *g,
    guint *out, guint *n_out);
/* Pass over the classes before the first one holding victims of `rank`
 * the job's queue may take: TRUE with their positions [*from, *to) when
 * there are such classes, which the next preempt_cand_next leaves out. */
gboolean preempt_cand_skip(Pass *p, CandGen *g, guint rank, guint *from,
    guint *to);
/* Append the candidates of the classes at positions [from, to), as
 * preempt_cand_next would have. */
void preempt_cand_range(Pass *p, const SchedJob *j, const CandGen *g,
    guint from, guint to, guint *out, guint *n_out);
/* Whether host h is one of the candidates (listed yet or not). */
gboolean preempt_cand_is(Pass *p, const SchedJob *j, const CandGen *g,
    guint h);
/* Running job r was taken as a victim: its hosts hold one fewer. */
void prehosts_taken(Pass *p, guint r);
void prehosts_free(Preempt *pre);
/* Fill by_user[a] and by_group[a], once per pass. */
void preempt_index_users(Preempt *pre, guint a);

/* [b]: the rank of queue b among those a may preempt, 0 first (rule 4a);
 * pre->n_ranks[a] tells how many distinct ranks there are. */
const guint *preempt_queue_ranks(Preempt *pre, guint a);

#endif
