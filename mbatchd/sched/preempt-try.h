/*
 * Internal to preempt.c and preempt-onehost.c: one preemptor's attempt
 * and the steps both files use.  preempt.c holds the general search
 * (candidates, victim lists, sweeps); preempt-onehost.c the span[hosts=1]
 * search, which tries each candidate host alone.
 */
#ifndef BS_SCHED_PREEMPT_TRY_H
#define BS_SCHED_PREEMPT_TRY_H

#include "preempt.h"

/* One preemptor's attempt. */
typedef struct {
	Pass *p;
	Preempt *pre;
	guint idx;                /* the preemptor, in SchedSnapshot.pending */
	const SchedJob *job;
	int need;
	guint *cand;              /* candidate hosts, least loaded first */
	guint n_cand;
	guint *pos;               /* [n_hosts]: position in cand + 1, 0 = none */
	int *offer;               /* [cand->len]: slots each offers the job */
	int total;                /* sum of offer */
	guint only;               /* span[hosts=1]: the one cand position */
	GArray *victims;          /* Victim, in the order of rule 4 */
	GArray **by_host;         /* span[hosts=1]: [cand]: positions in victims */
	int *vslots;              /* span[hosts=1]: [cand]: slots victims hold */
	guint min_rank;           /* span[hosts=1]: best rank of any victim */
	gboolean fitting;         /* span[hosts=1]: list_host_victims lists */
	gboolean *taken;          /* [victims->len] */
	GArray *order;            /* positions in victims, in the order taken */
	/* Listing victims lazily (default order only): the next rank and
	 * candidate position to list, until every rank was listed. */
	gboolean lazy;
	gboolean all_listed;
	guint next_rank, next_c;
	const guint *rank;        /* [n_queues]: queue ranks for this job */
	guint n_ranks;
	/* Candidates come a class of equally loaded hosts at a time; with
	 * lazy_cand only as far as the victims listed need them. */
	CandGen gen;
	gboolean lazy_cand;
	/* With lazy_cand, the classes more_victims passed over, holding no
	 * victim of the rank it was listing: pairs of load positions [from,
	 * to), listed in their place once a later rank or every candidate is
	 * needed (unskip). */
	GArray *skips;
	/* Resource plans: only hosts with Preempt.plan_mark at plan_stamp
	 * hold victims (preempt.c, rule 8). */
	gboolean plan_hosts;
	guint offer_cap;          /* room in offer */
} Try;

#define NO_HOST G_MAXUINT

/* preempt-cand.c: the candidate hosts of a try. */
int pt_host_offer(const Try *t, guint h);
gboolean pt_grow_cand(Try *t);
void pt_reach_host(Try *t, guint h);
void pt_find_candidates(Try *t);
void pt_unskip(Try *t);
void pt_all_candidates(Try *t);

/* preempt.c */
/* The slots the job may take cluster-wide (its user's, groups', queue's
 * limits and the job-level lsb.resources limits and resource plans). */
int pt_job_room(Try *t);
/* The victim order of rule 4 (qsort-style, data is the Try). */
gint pt_cmp_victim(gconstpointer a, gconstpointer b, gpointer data);
/* Whether running job r may be a victim of this try. */
gboolean pt_eligible(const Try *t, guint r);
/* Slots r holds on the candidate hosts. */
int pt_slots_on_candidates(const Try *t, const SchedRunning *r);
/* Victims listed from position `from` on are not taken yet. */
void pt_untaken_from(Try *t, guint from);
/* Take back every victim taken. */
void pt_release_all(Try *t);
/* Choose victims for the current host scope (t->only); TRUE when the job
 * then fits. */
gboolean pt_choose(Try *t);

/* preempt-onehost.c: span[hosts=1]. */
/* Slots the eligible victims hold on each candidate host. */
void pt_count_host_victims(Try *t);
/* Each candidate host alone; TRUE when one lets the job run. */
gboolean pt_choose_one_host(Try *t);

/* preempt-relief.c: whether relieving every victim the job could take
 * gives it the room it needs (*ok), from sums kept per queue and user or
 * group; FALSE when the job is not one those sums answer for. */
gboolean pt_relief_reachable(Try *t, gboolean *ok);
/* Running job r was taken as a victim: the sums no longer count it. */
void pt_relief_taken(Pass *p, guint r);
void pt_relief_free(Preempt *pre);

#endif
