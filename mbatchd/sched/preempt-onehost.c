/*
 * Preemption for a span[hosts=1] job: the victims must all be on the one
 * host the job will run on, so each candidate host is tried alone and the
 * one whose worst victim ranks best in rule 4's order is kept.
 */
#include "config.h"

#include "preempt-try.h"

/* The least preferred victim taken: its place in the victim order. */
static guint
worst_taken(const Try *t)
{
	guint worst = 0;

	for (guint i = 0; i < t->order->len; i++)
		worst = MAX(worst, g_array_index(t->order, guint, i));
	return worst;
}

static int
rank_of(const Try *t, guint v)
{
	/* 0 when v's queue ranks with the best victim's, > 0 when after. */
	return (int)(g_array_index(t->victims, Victim, v).rank - t->min_rank);
}

/*
 * Whether candidate c could offer the job enough alone.  Victims lower its
 * slots in use by at most the slots they hold there, so when MXJ would
 * still leave too little, pt_choose() is sure to fail on it: no need to try.
 */
static gboolean
may_fit_alone(const Try *t, guint c)
{
	guint h = t->cand[c];
	const SchedHost *host = &t->p->snap->hosts[h];

	if (t->offer[c] >= t->need || host->max_slots < 0)
		return TRUE;
	return host->max_slots - sched_count_host(&t->p->count, h) +
	    t->vslots[c] >= t->need;
}

/*
 * Slots the pt_eligible victims hold on each candidate host, and the best
 * rank among them all.  Without a resource plan pt_eligible is what
 * prehosts.c counts per host for the job's queue (victim_for, less the
 * jobs preempted so far), so the counts are read from there: a look at
 * each candidate rather than at every job running on it, which on a
 * large cluster is most of the running jobs for every span[hosts=1] try.
 * Under a plan, hybrid_may_preempt also depends on the preemptor's side:
 * the jobs are looked at one by one.
 */
void
pt_count_host_victims(Try *t)
{
	Preempt *pre = t->pre;
	guint q = t->job->queue, nh = t->p->snap->n_hosts;

	t->vslots = g_new0(int, MAX(t->n_cand, 1u));
	t->min_rank = G_MAXUINT;
	if (t->p->hybrid == NULL) {
		for (guint c = 0; c < t->n_cand; c++) {
			guint h = t->cand[c];

			t->vslots[c] = pre->scount[q][h];
			for (guint r = 0; r < t->n_ranks && r < t->min_rank; r++)
				if (pre->rcount[q][(gsize)r * nh + h] > 0)
					t->min_rank = r;
		}
		return;
	}
	for (guint c = 0; c < t->n_cand; c++) {
		guint h = t->cand[c];
		guint n_on;
		const guint *on = run_index_list(&pre->on_host, h, &n_on);

		pre->stamp++;
		for (guint i = 0; i < n_on; i++) {
			guint r = on[i];
			const SchedRunning *run = &t->p->snap->running[r];

			if (pre->seen[r] == pre->stamp || !pt_eligible(t, r))
				continue;
			pre->seen[r] = pre->stamp;
			for (guint a = 0; a < run->n_allocs; a++)
				if (run->allocs[a].host == h)
					t->vslots[c] += run->allocs[a].slots;
			t->min_rank = MIN(t->min_rank, t->rank[run->queue]);
		}
	}
}

/*
 * span[hosts=1] when the job-level room is already enough: pt_choose() on a
 * host then looks only at that host's victims, so each host's victims are
 * listed when its turn comes, alone.  Each gets the keys the whole list
 * would give it (its first candidate host, its slots on candidates), so
 * sorting them by those keys keeps the order they have in the whole list;
 * the positions differ, but they are only compared within one host.
 */
static void
list_host_victims(Try *t, guint c)
{
	Preempt *pre = t->pre;
	guint n_on;
	const guint *on = run_index_list(&pre->on_host, t->cand[c], &n_on);

	g_array_set_size(t->victims, 0);
	pre->stamp++;
	for (guint i = 0; i < n_on; i++) {
		guint r = on[i];
		const SchedRunning *run = &t->p->snap->running[r];
		Victim v = {
			.run = r, .rank = t->rank[run->queue],
			.host_rank = G_MAXUINT, .start = run->start_time,
			.id = run->id,
		};

		if (pre->seen[r] == pre->stamp || !pt_eligible(t, r))
			continue;
		pre->seen[r] = pre->stamp;
		for (guint a = 0; a < run->n_allocs; a++)
			if (t->pos[run->allocs[a].host] != 0)
				v.host_rank = MIN(v.host_rank,
				    t->pos[run->allocs[a].host] - 1);
		v.slots = pt_slots_on_candidates(t, run);
		g_array_append_val(t->victims, v);
	}
	if (t->victims->len > 1)
		g_array_sort_with_data(t->victims, pt_cmp_victim, t);
	pt_untaken_from(t, 0);
	if (t->by_host[c] == NULL)
		t->by_host[c] = g_array_new(FALSE, FALSE, sizeof(guint));
	g_array_set_size(t->by_host[c], 0);
	for (guint v = 0; v < t->victims->len; v++)
		g_array_append_val(t->by_host[c], v);
}

/*
 * The rank (as rank_of counts it) of the best victim the job may take on
 * candidate c, G_MAXINT when there is none; read from prehosts.c's counts
 * per rank and host.  0 where they do not tell: under a resource plan
 * (eligibility then depends on the preemptor's side) or lsb.resources
 * limits (a victim elsewhere may raise what c offers).
 */
static int
best_rank_on(const Try *t, guint c)
{
	const Preempt *pre = t->pre;
	guint nh = t->p->snap->n_hosts, q = t->job->queue;

	if (t->p->hybrid != NULL || t->p->limits != NULL)
		return 0;
	for (guint r = t->min_rank; r < t->n_ranks; r++)
		if (pre->rcount[q][(gsize)r * nh + t->cand[c]] > 0)
			return (int)(r - t->min_rank);
	return G_MAXINT;
}

/*
 * Each candidate host alone; keep the one whose worst victim ranks best in
 * queue order, the least loaded among equals (cand is in load order).  A
 * host offering too few slots must give up a victim of its own, so when
 * its best one ranks no better than the worst of the host kept, it cannot
 * replace that host: it is not tried.
 */
gboolean
pt_choose_one_host(Try *t)
{
	guint best = NO_HOST;
	int best_rank = G_MAXINT;

	for (guint c = 0; c < t->n_cand && best_rank > 0; c++) {
		int rank;

		if (!may_fit_alone(t, c))
			continue;
		if (best != NO_HOST && t->offer[c] < t->need &&
		    best_rank_on(t, c) >= best_rank)
			continue;
		if (t->fitting)
			list_host_victims(t, c);
		t->only = c;
		if (!pt_choose(t))
			continue;
		rank = t->order->len > 0 ? rank_of(t, worst_taken(t)) : 0;
		if (rank < best_rank) {
			best_rank = rank;
			best = c;
		}
		pt_release_all(t);
	}
	if (best == NO_HOST)
		return FALSE;
	if (t->fitting)
		list_host_victims(t, best);
	t->only = best;
	return pt_choose(t);
}
