/*
 * Preemptive scheduling inside the pure pass.  Follows the product
 * definition seeds/lsf-preemptive-scheduling.txt, with the readings of
 * reference/decisions.md ("Preemption") and lsf-reference.md 1.2 (PREEMPTION
 * syntax) and 4.1 (victim selection, slot counting, scenarios P1-P7).
 *
 * Rules implemented here (the queue relation and ranks of rules 1 and 4a
 * are computed in relation.c, the counting rules in count.c, resume in
 * resume.c):
 *
 * 1. Who may preempt whom.  Queue A may preempt queue B only when
 *    PRIORITY(A) > PRIORITY(B) and A is PREEMPTIVE (bare, or listing B) or
 *    B is PREEMPTABLE (bare, or listing A).  Never between equal priorities;
 *    list entries naming a queue of equal or higher priority do nothing.
 *
 * 2. When.  A pending job that finds no slots (or is stopped by its user's
 *    or a user group's MAX_JOBS, or by an lsb.resources limit whose
 *    PREEMPT_FOR rule exempts suspended jobs, which suspending jobs can
 *    relieve) in a queue that may preempt.  Queue limits always count suspended jobs, so
 *    a job they stop never preempts.
 *
 * 3. Victims.  RUN jobs (not SSUSP/USUSP, not already preempted in this
 *    pass) of queues A may preempt, holding slots on a candidate host: one
 *    of the queue's HOSTS that is up, asked for with -m and passes the
 *    host filter.  A job preempted MAX_JOB_PREEMPT times (the daemon's
 *    effective value, SchedRunning.max_preempt) is skipped.  A job resumed
 *    in this pass is still SSUSP in the snapshot, so it is not a victim
 *    before the next pass: no resume and suspend in one breath.
 *
 * 4. Order.  Victims are taken in this order:
 *    a. by queue, as lsf-reference 4.1: queues with a PREEMPTIVE[q+N]
 *       preference before those without, higher N first, then lower
 *       PRIORITY first.  Queue order comes before host order, so that P3
 *       (medium preempts low, not normal, on equally loaded hosts) holds;
 *    b. by host, least loaded first (decisions.md): lowest r15s, then r1m,
 *       then fewest slots in use, then host name;
 *    c. among equals the most recently started job first.
 *    With PREEMPT_FOR=LEAST_RUN_TIME, (c) comes before (b): within the
 *    chosen queue the job with the shortest wall-clock run time (latest
 *    start) wins whatever its host's load, as the reference words it.
 *
 * 5. How many.  Victims are taken in that order, each only if it helps:
 *    first while a job-level limit (MAX_JOBS) still stops the job, victims
 *    that relieve it; then, while the job lacks slots, victims whose
 *    suspension gives it more slots on a candidate host.  The job then
 *    needs its min_slots; a parallel job preempts "until sufficient slots
 *    are available", which can over-preempt: a later, larger victim may
 *    make earlier ones unnecessary.  That is LSF's default ("By default,
 *    LSF can over-preempt parallel jobs", LSF 6.2 Administration Guide,
 *    "Optimized Preemption of Parallel Jobs").
 *    - MINI_JOB ("preempt only enough parallel jobs"): for a parallel
 *      preemptor, once it fits, every victim it does not need is dropped
 *      again, the last taken first, so the set left is irredundant and
 *      keeps the victims earliest in the order.
 *    - OPTIMAL_MINI_JOB ("the least number of jobs"): for a parallel
 *      preemptor, within one queue rank victims holding more slots on the
 *      candidate hosts come first, then MINI_JOB's dropping.  Queue ranks
 *      still come first.  Within a rank that is the fewest victims when
 *      host slots alone are missing (no ptile); with user or group limits
 *      it is a heuristic, which is why LSF advises against combining them.
 *    Neither changes anything for a one-slot preemptor.
 *    span[hosts=1]: each candidate host is tried alone (job-level limits
 *    may still take victims from any candidate host); the host whose
 *    victims are best in queue order wins, ties to the least loaded.
 *    ptile bounds what a host offers.
 *
 * 6. All or nothing.  If the job cannot run even after suspending every
 *    victim, nothing is preempted and its pending reason stays.  (Should
 *    the one-by-one choice miss a set that only works together, all
 *    victims are taken and the unneeded ones dropped as MINI_JOB does.)
 *
 * 7. Output.  Victims are suspended for the rest of the pass (counted as
 *    count.c says), or released entirely when their queue has
 *    TERMINATE_WHEN=PREEMPT; the plan lists them with the preemptor, whose
 *    dispatch follows on the hosts of its victims first (least loaded
 *    first), then any other candidate host with room.  A job with
 *    max_slots > min_slots gets min_slots when it had to preempt.
 *
 * 8. Resource plans (hybrid-place.c): on a resource group's hosts only
 *    jobs of the preemptor's own consumer are victims (for a job outside
 *    every consumer, only jobs outside every consumer), their slots count
 *    back to that consumer, and the preemptor takes no more than its
 *    consumer may then start.
 */
#include "config.h"

#include <string.h>

#include "hybrid.h"
#include "pass.h"
#include "preempt.h"
#include "preempt-try.h"


static gboolean plan_skips(const Try *t, guint h);

static const Rel *
rel_of(const Try *t, guint victim_queue)
{
	return preempt_rel(t->pre, t->job->queue, victim_queue);
}

/* ---- rule 4: orders ---------------------------------------------------- */

static int
cmp_start(const Victim *x, const Victim *y)
{
	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	return 0;
}

int
pt_cmp_victim(gconstpointer a, gconstpointer b, gpointer data)
{
	const Try *t = data;
	const Victim *x = a, *y = b;
	guint pf = t->p->snap->preempt_for;
	int c;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((pf & SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB) && t->need > 1 &&
	    x->slots != y->slots)
		return x->slots > y->slots ? -1 : 1;
	if ((pf & SCHED_PREEMPT_FOR_LEAST_RUN_TIME) && (c = cmp_start(x, y)) != 0)
		return c;
	if (x->host_rank != y->host_rank)
		return x->host_rank < y->host_rank ? -1 : 1;
	if ((c = cmp_start(x, y)) != 0)
		return c;
	/* Later job ids were submitted later: the "most recent" of a tie. */
	return x->id > y->id ? -1 : x->id < y->id;
}

gboolean
pt_eligible(const Try *t, guint r)
{
	const SchedRunning *run = &t->p->snap->running[r];

	return run->state == SCHED_RUN_RUN && !t->pre->done[r] && !t->pre->held[r] &&
	    rel_of(t, run->queue)->may && hybrid_may_preempt(t->p, t->job, run) &&
	    (run->max_preempt <= 0 || run->preempt_count < run->max_preempt);
}

int
pt_slots_on_candidates(const Try *t, const SchedRunning *r)
{
	int n = 0;

	for (guint a = 0; a < r->n_allocs; a++)
		if (t->pos[r->allocs[a].host] != 0)
			n += r->allocs[a].slots;
	return n;
}

/* The pt_eligible victims on candidate host c not listed yet, in rule 4 order. */
static void
host_victims(Try *t, guint c, const guint *rank, guint only_rank, GArray *out)
{
	Preempt *pre = t->pre;
	guint n_on;
	const guint *on = run_index_list(&pre->on_host, t->cand[c], &n_on);

	g_array_set_size(out, 0);
	for (guint i = 0; i < n_on; i++) {
		guint r = on[i];
		const SchedRunning *run = &t->p->snap->running[r];
		Victim v = {
			.run = r, .rank = rank[run->queue], .host_rank = c,
			.start = run->start_time, .id = run->id,
		};

		if (pre->seen[r] == pre->stamp ||
		    (only_rank != G_MAXUINT && v.rank != only_rank) ||
		    !pt_eligible(t, r))
			continue;
		pre->seen[r] = pre->stamp;
		/* Its other hosts must be listed before it is counted on. */
		for (guint a = 0; t->lazy_cand && a < run->n_allocs; a++)
			pt_reach_host(t, run->allocs[a].host);
		v.slots = pt_slots_on_candidates(t, run);
		g_array_append_val(out, v);
	}
	if (out->len > 1)
		g_array_sort_with_data(out, pt_cmp_victim, t);
}

/* Victims listed from position `from` on are not taken yet. */
void
pt_untaken_from(Try *t, guint from)
{
	for (guint v = from; v < t->victims->len; v++)
		t->taken[v] = FALSE;
}

/*
 * Hosts come in load order and each host's victims sorted, so the default
 * order (rank, host, recency) needs only a stable split by rank, not a sort
 * of every victim for each preemptor.  LEAST_RUN_TIME and OPTIMAL_MINI_JOB
 * put other keys before the host: those sort the whole list.
 *
 * Listing every victim is what a failing try needs; a try that succeeds
 * usually needs the first few.  So with the default order and no
 * span[hosts=1] the list is made lazily (more_victims): rank by rank,
 * host by host, which gives the same list, each victim at its first
 * candidate host.  list_all_victims lists everything at once, keeping the
 * part already listed where it is.
 */
static void
list_all_victims(Try *t)
{
	GArray **bucket = t->pre->bucket;
	GArray *one = t->pre->one;
	guint pf = t->p->snap->preempt_for, had = t->victims->len;

	pt_all_candidates(t);
	if (t->all_listed)
		return;
	t->lazy = FALSE;
	t->all_listed = TRUE;
	t->pre->stamp++;
	g_array_set_size(t->victims, 0);
	for (guint r = 0; r < t->n_ranks; r++)
		g_array_set_size(bucket[r], 0);
	for (guint c = 0; c < t->n_cand; c++) {
		if (plan_skips(t, t->cand[c]))
			continue;
		host_victims(t, c, t->rank, G_MAXUINT, one);
		for (guint i = 0; i < one->len; i++) {
			Victim *v = &g_array_index(one, Victim, i);

			g_array_append_val(bucket[v->rank], *v);
		}
	}
	for (guint r = 0; r < t->n_ranks; r++)
		g_array_append_vals(t->victims, bucket[r]->data, bucket[r]->len);
	if ((pf & SCHED_PREEMPT_FOR_LEAST_RUN_TIME) ||
	    ((pf & SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB) && t->need > 1))
		g_array_sort_with_data(t->victims, pt_cmp_victim, t);
	pt_untaken_from(t, had);
}

/* List the next host's victims of the rank being listed; FALSE when every
 * victim is listed. */
static gboolean
more_victims(Try *t)
{
	GArray *one = t->pre->one;

	if (!t->lazy || t->all_listed)
		return FALSE;
	while (t->next_rank < t->n_ranks) {
		guint had = t->victims->len;

		if (t->next_c >= t->n_cand) {
			guint from, to;

			/* Classes without a victim of this rank add nothing to
			 * it: their turn comes with the next rank. */
			if (t->lazy_cand && preempt_cand_skip(t->p, &t->gen,
			    t->next_rank, &from, &to)) {
				if (t->skips == NULL)
					t->skips = g_array_new(FALSE, FALSE,
					    sizeof(guint));
				g_array_append_val(t->skips, from);
				g_array_append_val(t->skips, to);
			}
			if (t->lazy_cand && pt_grow_cand(t))
				continue;
			pt_unskip(t);
			t->next_rank++;
			t->next_c = 0;
			/* Each rank lists its victims at their first host. */
			t->pre->stamp++;
			continue;
		}
		/* No victim of this rank left there: nothing to list. */
		if (t->pre->rcount[t->job->queue][(gsize)t->next_rank *
		    t->p->snap->n_hosts + t->cand[t->next_c]] == 0 ||
		    plan_skips(t, t->cand[t->next_c])) {
			t->next_c++;
			continue;
		}
		host_victims(t, t->next_c++, t->rank, t->next_rank, one);
		g_array_append_vals(t->victims, one->data, one->len);
		pt_untaken_from(t, had);
		if (one->len > 0)
			return TRUE;
	}
	t->all_listed = TRUE;
	return FALSE;
}

static void
find_victims(Try *t)
{
	guint pf = t->p->snap->preempt_for;

	t->rank = preempt_queue_ranks(t->pre, t->job->queue);
	t->n_ranks = t->pre->n_ranks[t->job->queue];
	t->taken = t->pre->taken;
	t->pre->stamp++;
	t->lazy = !t->job->one_host && !(pf & SCHED_PREEMPT_FOR_LEAST_RUN_TIME) &&
	    !((pf & SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB) && t->need > 1);
	/* span[hosts=1] with room enough: list_host_victims does. */
	if (t->job->one_host && pt_job_room(t) >= t->need)
		t->all_listed = t->fitting = TRUE;
	else if (!t->lazy)
		list_all_victims(t);
}

/* Whether victim i exists, listing more if needed. */
static gboolean
have_victim(Try *t, guint i)
{
	while (i >= t->victims->len && more_victims(t))
		;
	return i < t->victims->len;
}

/* span[hosts=1]: which victims hold slots on each candidate host. */
static void
index_by_host(Try *t)
{
	const SchedSnapshot *s = t->p->snap;

	t->by_host = g_new0(GArray *, MAX(t->n_cand, 1u));
	for (guint v = 0; v < t->victims->len; v++) {
		const SchedRunning *r =
		    &s->running[g_array_index(t->victims, Victim, v).run];

		for (guint a = 0; a < r->n_allocs; a++) {
			guint c = t->pos[r->allocs[a].host];

			if (c == 0)
				continue;
			if (t->by_host[c - 1] == NULL)
				t->by_host[c - 1] = g_array_new(FALSE, FALSE,
				    sizeof(guint));
			g_array_append_val(t->by_host[c - 1], v);
		}
	}
}

/* ---- trying victims ---------------------------------------------------- */

int
pt_job_room(Try *t)
{
	SchedPendReason why;
	SchedPending scratch = { 0 };

	/* lsb.resources limits without hosts hold the whole job too, and
	 * so do the resource plans (rule 8). */
	return MIN(MIN(sched_job_headroom(t->p, t->job, &why),
	    limits_job_room(t->p->limits, t->job, &scratch)),
	    hybrid_preempt_room(t->p, t->job));
}

static int
slots_offered(const Try *t)
{
	return t->only == NO_HOST ? t->total : t->offer[t->only];
}

static gboolean
fits(Try *t)
{
	return slots_offered(t) >= t->need && pt_job_room(t) >= t->need;
}

static void
refresh_offer(Try *t, guint h)
{
	guint c = t->pos[h];
	int now;

	if (c == 0)
		return;
	now = pt_host_offer(t, h);
	t->total += now - t->offer[c - 1];
	t->offer[c - 1] = now;
}

/* Suspend (sign 1) or take back (-1) a victim in the pass's counters; a
 * victim its queue terminates releases its slots altogether. */
static void
suspend_run(Pass *p, const SchedRunning *r, int sign)
{
	const SchedSnapshot *s = p->snap;
	gboolean kill = s->queues[r->queue].terminate_on_preempt;

	for (guint a = 0; a < r->n_allocs; a++) {
		const SchedAlloc *al = &r->allocs[a];

		if (kill)
			sched_count_add(&p->count, s, r->queue, r->user, al->host,
			    -sign * al->slots);
		else
			sched_count_suspend(&p->count, s, r->user, al->host,
			    sign * al->slots);
	}
	if (kill)
		limits_kill(p->limits, r, sign);
	else
		limits_suspend(p->limits, r, sign);
	hybrid_released(p, r, sign);
}

static void
apply(Try *t, guint v, int sign)
{
	const SchedSnapshot *s = t->p->snap;
	const SchedRunning *r = &s->running[g_array_index(t->victims, Victim, v).run];

	suspend_run(t->p, r, sign);
	for (guint a = 0; a < r->n_allocs; a++)
		refresh_offer(t, r->allocs[a].host);
	t->taken[v] = sign > 0;
}

static void
take(Try *t, guint v)
{
	apply(t, v, 1);
	g_array_append_val(t->order, v);
}

typedef enum { GOAL_ROOM, GOAL_SLOTS } Goal;

static int
measure(Try *t, Goal g)
{
	return g == GOAL_ROOM ? pt_job_room(t) : slots_offered(t);
}

/*
 * The victims a step may look at: all, or for a span[hosts=1] try only
 * those on its host (elsewhere a victim can relieve MAX_JOBS, not slots).
 */
static gboolean
in_scope(Try *t, gboolean all, guint i)
{
	GArray *l;

	if (all || t->only == NO_HOST)
		return have_victim(t, i);
	l = t->by_host[t->only];
	return l != NULL && i < l->len;
}

static guint
scope_at(const Try *t, gboolean all, guint i)
{
	if (all || t->only == NO_HOST)
		return i;
	return g_array_index(t->by_host[t->only], guint, i);
}

/* Only a job of the preemptor's user or of a fellow group member can
 * change its job-level room: tell them apart before touching counters. */
static gboolean
may_relieve_room(const Try *t, guint v)
{
	const SchedSnapshot *s = t->p->snap;
	guint vu = s->running[g_array_index(t->victims, Victim, v).run].user;
	const SchedUser *ju = &s->users[t->job->user], *u = &s->users[vu];

	/* A victim on a group's host gives its slots back to the job's own
	 * consumer (rule 8). */
	if (vu == t->job->user || hybrid_in_groups(t->p,
	    &s->running[g_array_index(t->victims, Victim, v).run]))
		return TRUE;
	for (guint i = 0; i < ju->n_groups; i++)
		for (guint k = 0; k < u->n_groups; k++)
			if (ju->groups[i] == u->groups[k])
				return TRUE;
	return FALSE;
}

/*
 * Take, in order, the victims that bring goal g closer, until it is met.
 * Sweeps again while a sweep took something: a victim can start to help
 * only once another relieved a different limit on its host.
 */
static void
sweep(Try *t, Goal g)
{
	gboolean progress = TRUE;

	while (progress && measure(t, g) < t->need) {
		progress = FALSE;
		for (guint i = 0; in_scope(t, g == GOAL_ROOM, i); i++) {
			guint v = scope_at(t, g == GOAL_ROOM, i);
			int before = measure(t, g);

			if (before >= t->need)
				break;
			if (t->taken[v] || (g == GOAL_ROOM && !may_relieve_room(t, v)))
				continue;
			apply(t, v, 1);
			if (measure(t, g) > before) {
				g_array_append_val(t->order, v);
				progress = TRUE;
			} else {
				apply(t, v, -1);
			}
		}
	}
}

/* Drop victims the job does not need, the last taken first. */
static void
drop_unneeded(Try *t)
{
	for (guint i = t->order->len; i-- > 0;) {
		guint v = g_array_index(t->order, guint, i);

		apply(t, v, -1);
		if (fits(t))
			g_array_remove_index(t->order, i);
		else
			apply(t, v, 1);
	}
}

void
pt_release_all(Try *t)
{
	for (guint i = t->order->len; i-- > 0;)
		apply(t, g_array_index(t->order, guint, i), -1);
	g_array_set_size(t->order, 0);
}

/*
 * Choose victims for the current host scope (t->only).  TRUE with the
 * victims taken (in t->order, applied to the counters); FALSE with none.
 */
gboolean
pt_choose(Try *t)
{
	guint pf = t->p->snap->preempt_for;
	gboolean mini = t->need > 1 && (pf & (SCHED_PREEMPT_FOR_MINI_JOB |
	    SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB));
	gboolean short_room;

	/* Job-level limits first: a slot freed on a host is no use while the
	 * job's user is still at MAX_JOBS. */
	sweep(t, GOAL_ROOM);
	sweep(t, GOAL_SLOTS);
	if (fits(t)) {
		if (mini)
			drop_unneeded(t);
		return TRUE;
	}
	short_room = pt_job_room(t) < t->need;
	list_all_victims(t);
	for (guint i = 0; in_scope(t, short_room, i); i++) {
		guint v = scope_at(t, short_room, i);

		if (!t->taken[v])
			take(t, v);
	}
	if (!fits(t)) {
		pt_release_all(t);
		return FALSE;
	}
	drop_unneeded(t);
	return TRUE;
}

/*
 * Whether the job-level limits can let the job run at all.  Suspending or
 * killing a victim only lowers counters, so the room is largest with every
 * victim that can change it taken: the pt_eligible jobs of the job's user and
 * of its groups' members holding slots on a host the job can use.  If that
 * is still short, every choice of victims fails rule 6 and there is no
 * need to list victims, or to try them host by host for span[hosts=1],
 * each time taking all of them before giving up.  The running jobs the
 * job's queue may preempt are indexed by user and group once per pass
 * (prehosts.c), so this looks at those jobs only.
 */
static gboolean
on_usable_host(Try *t, const SchedRunning *run)
{
	const OpenHosts *oh = open_hosts(t->p, t->job->queue);

	for (guint a = 0; a < run->n_allocs; a++) {
		guint h = run->allocs[a].host;

		if (oh->pos[h] != 0 && sched_host_usable(t->p, t->job, h))
			return TRUE;
	}
	return FALSE;
}

/* What suspending (or killing) run does to the counters the job-level
 * room reads (sched_job_headroom: the user's and the groups' totals; the
 * victim's queue is never the job's), sign -1 to undo.  The per-host
 * counters sched_count_suspend also keeps do not matter here. */
static void
relieve_room(Pass *p, const SchedRunning *run, int sign)
{
	const SchedSnapshot *s = p->snap;
	const SchedUser *u = &s->users[run->user];
	SchedCount *c = &p->count;
	gboolean kill = s->queues[run->queue].terminate_on_preempt;
	int slots = 0;

	for (guint a = 0; a < run->n_allocs; a++)
		slots += run->allocs[a].slots;
	slots *= sign;
	if (kill) {
		c->user[run->user] -= slots;
		for (guint g = 0; g < u->n_groups; g++)
			c->group[u->groups[g]] -= slots;
		limits_kill(p->limits, run, sign);
	} else {
		c->susp_user[run->user] += slots;
		for (guint g = 0; g < u->n_groups; g++)
			c->susp_group[u->groups[g]] += slots;
		limits_suspend(p->limits, run, sign);
	}
}

/*
 * Take every job of `jobs` that could be a victim.  For a fellow group
 * member's job (`member`), suspending it changes only the group's count,
 * and that only when the group limits ignore suspended jobs
 * (PREEMPT_FOR=GROUP_MAX); otherwise only killing it (TERMINATE_WHEN)
 * can help, so the others are left alone.
 */
static void
relieve_with(Try *t, const RunIndex *ix, guint list, gboolean member,
    GArray *took)
{
	Preempt *pre = t->pre;
	const SchedSnapshot *s = t->p->snap;
	gboolean suspend_helps = !member || t->p->count.run_only.group;
	guint len;
	const guint *jobs = run_index_list(ix, list, &len);

	for (guint i = 0; i < len; i++) {
		guint r = jobs[i];

		if (pre->seen[r] == pre->stamp)
			continue;
		if (!suspend_helps &&
		    !s->queues[s->running[r].queue].terminate_on_preempt)
			continue;
		pre->seen[r] = pre->stamp;
		if (!pt_eligible(t, r) || !on_usable_host(t, &t->p->snap->running[r]))
			continue;
		relieve_room(t->p, &t->p->snap->running[r], 1);
		g_array_append_val(took, r);
	}
}

static gboolean
room_reachable(Try *t)
{
	const SchedSnapshot *s = t->p->snap;
	const SchedUser *u = &s->users[t->job->user];
	GArray *took, *plan_took;
	gboolean ok;

	if (pt_job_room(t) >= t->need)
		return TRUE;
	if (pt_relief_reachable(t, &ok))
		return ok;
	took = g_array_new(FALSE, FALSE, sizeof(guint));
	plan_took = g_array_new(FALSE, FALSE, sizeof(guint));
	preempt_index_users(t->pre, t->job->queue);
	t->pre->stamp++;
	relieve_with(t, t->pre->by_user[t->job->queue], t->job->user, FALSE,
	    took);
	/* Relief only raises the room, so once it suffices the rest cannot
	 * change the answer.  A group without MAX_JOBS is walked only for
	 * what its members' jobs do to lsb.resources limits: the job's other
	 * groups, when limited, take the same jobs in their own walk. */
	for (guint g = 0; g < u->n_groups && pt_job_room(t) < t->need; g++)
		if (t->p->limits != NULL ||
		    s->groups[u->groups[g]].max_jobs >= 0)
			relieve_with(t, t->pre->by_group[t->job->queue],
			    u->groups[g], TRUE, took);
	/* Under resource plans (rule 8) every victim on a group's host gives
	 * its slots back to the job's side of the plan: count them all. */
	if (t->p->hybrid != NULL && hybrid_preempt_room(t->p, t->job) < t->need) {
		guint n;
		const guint *beside = hybrid_running_beside(t->p, t->job, &n);

		for (guint k = 0; k < n &&
		    hybrid_preempt_room(t->p, t->job) < t->need; k++) {
			guint r = beside[k];
			const SchedRunning *run = &t->p->snap->running[r];

			if (pt_eligible(t, r) && on_usable_host(t, run)) {
				hybrid_released(t->p, run, 1);
				g_array_append_val(plan_took, r);
			}
		}
	}
	ok = pt_job_room(t) >= t->need;
	for (guint i = plan_took->len; i-- > 0;)
		hybrid_released(t->p,
		    &t->p->snap->running[g_array_index(plan_took, guint, i)], -1);
	for (guint i = took->len; i-- > 0;)
		relieve_room(t->p, &t->p->snap->running[g_array_index(took, guint, i)],
		    -1);
	g_array_free(took, TRUE);
	g_array_free(plan_took, TRUE);
	return ok;
}

/*
 * Under resource plans (rule 8), a job whose queue's hosts all lie in one
 * resource group has victims only among the running jobs of its own side
 * of the plan there: when none of them could be a victim on a host it can
 * use, there is nothing to list host by host; else only the hosts they
 * hold need listing (the others would list nothing).
 */
static gboolean
plan_victims_exist(Try *t)
{
	Preempt *pre = t->pre;
	gboolean any = FALSE;
	guint n;
	const guint *beside;

	if (!hybrid_queue_in_group(t->p, t->job->queue))
		return TRUE;
	if (pre->plan_mark == NULL)
		pre->plan_mark = g_new0(guint, MAX(t->p->snap->n_hosts, 1u));
	pre->plan_stamp++;
	beside = hybrid_running_beside(t->p, t->job, &n);
	for (guint k = 0; k < n; k++) {
		const SchedRunning *run = &t->p->snap->running[beside[k]];

		if (!pt_eligible(t, beside[k]) || !on_usable_host(t, run))
			continue;
		any = TRUE;
		for (guint a = 0; a < run->n_allocs; a++)
			pre->plan_mark[run->allocs[a].host] = pre->plan_stamp;
	}
	t->plan_hosts = any;
	return any;
}

static gboolean
plan_skips(const Try *t, guint h)
{
	return t->plan_hosts && t->pre->plan_mark[h] != t->pre->plan_stamp;
}

/* ---- the preemptor's dispatch ------------------------------------------ */

/* Slots on the victims' hosts first, least loaded first, then the rest. */
static guint
place_after(Try *t)
{
	GArray *allocs = t->p->plan->allocs;
	gboolean *freed = g_new0(gboolean, t->n_cand);
	int got = 0;
	guint first = allocs->len;

	for (guint i = 0; i < t->order->len; i++) {
		const SchedRunning *r = &t->p->snap->running[g_array_index(
		    t->victims, Victim, g_array_index(t->order, guint, i)).run];

		for (guint a = 0; a < r->n_allocs; a++)
			if (t->pos[r->allocs[a].host] != 0)
				freed[t->pos[r->allocs[a].host] - 1] = TRUE;
	}
	for (int round = 0; round < 2; round++)
		for (guint c = 0; c < t->n_cand && got < t->need; c++) {
			SchedAlloc al = { .host = t->cand[c] };

			if (freed[c] != (round == 0) ||
			    (t->only != NO_HOST && c != t->only))
				continue;
			al.slots = MIN(t->offer[c], t->need - got);
			if (al.slots <= 0)
				continue;
			g_array_append_val(allocs, al);
			got += al.slots;
		}
	g_free(freed);
	return allocs->len - first;
}

static void
commit_try(Try *t)
{
	const SchedSnapshot *s = t->p->snap;
	guint first = t->p->plan->allocs->len, n;

	/* The victims go into the plan right before their preemptor. */
	for (guint i = 0; i < t->order->len; i++) {
		guint v = g_array_index(t->order, guint, i);
		guint victim = g_array_index(t->victims, Victim, v).run;

		t->pre->done[victim] = TRUE;
		prehosts_taken(t->p, victim);
		pt_relief_taken(t->p, victim);
		plan_add(t->p->plan, s->queues[s->running[victim].queue].terminate_on_preempt ?
		    SCHED_DO_PREEMPT_TERMINATE : SCHED_DO_PREEMPT_SUSPEND, victim, t->idx);
	}
	n = place_after(t);
	sched_commit(t->p, t->idx, first, n);
}

static void
try_init(Try *t, Pass *p, guint idx)
{
	const SchedSnapshot *s = p->snap;

	memset(t, 0, sizeof *t);
	t->p = p;
	t->pre = p->preempt;
	t->idx = idx;
	t->job = &s->pending[idx];
	t->need = t->job->min_slots;
	t->only = NO_HOST;
	/* Each host is listed once at most: room for all of them, kept for
	 * the whole pass. */
	if (t->pre->cand == NULL)
		t->pre->cand = g_new(guint, MAX(s->n_hosts, 1u));
	t->cand = t->pre->cand;
	if (t->pre->pos == NULL)
		t->pre->pos = g_new0(guint, MAX(s->n_hosts, 1u));
	t->pos = t->pre->pos;
	t->victims = t->pre->victims;
	g_array_set_size(t->victims, 0);
	t->order = g_array_new(FALSE, FALSE, sizeof(guint));
}

static void
try_clear(Try *t)
{
	for (guint c = 0; t->by_host != NULL && c < t->n_cand; c++)
		if (t->by_host[c] != NULL)
			g_array_free(t->by_host[c], TRUE);
	g_free(t->by_host);
	g_free(t->vslots);
	if (t->skips != NULL)
		g_array_free(t->skips, TRUE);
	/* pos is shared by every try of the pass: leave it all zero. */
	for (guint c = 0; c < t->n_cand; c++)
		t->pos[t->cand[c]] = 0;
	g_free(t->offer);

	g_array_free(t->order, TRUE);
}

gboolean
preempt_try(Pass *p, guint idx, gboolean placed_none)
{
	Try t;
	gboolean ok = FALSE;
	guint pf = p->snap->preempt_for;

	try_init(&t, p, idx);
	/*
	 * A one-slot job that placement just found no slot for: no candidate
	 * offers it anything before victims are taken, and it takes the first
	 * victim that frees a slot.  Candidates are then listed only as far
	 * as the victims looked at need, the rest never ordered.  (Taking a
	 * victim changes the slots in use, which order equally loaded hosts:
	 * every host of a listed victim is listed before it is taken.)
	 */
	t.lazy_cand = placed_none && t.need == 1 && !t.job->one_host &&
	    !(pf & SCHED_PREEMPT_FOR_LEAST_RUN_TIME);
	if (!plan_victims_exist(&t) || !room_reachable(&t)) {
		try_clear(&t);
		return FALSE;
	}
	pt_find_candidates(&t);
	find_victims(&t);
	if (t.job->one_host) {
		pt_count_host_victims(&t);
		if (t.fitting)
			t.by_host = g_new0(GArray *, MAX(t.n_cand, 1u));
		else
			index_by_host(&t);
	}
	/* Listed host by host, a span[hosts=1] try knows from the count. */
	if (t.fitting ? t.min_rank != G_MAXUINT : have_victim(&t, 0))
		ok = t.job->one_host ? pt_choose_one_host(&t) : pt_choose(&t);
	/* A job that fits without victims did not need preemption: whatever
	 * stopped it is not something a victim can change. */
	if (ok && t.order->len > 0)
		commit_try(&t);
	else
		pt_release_all(&t);
	ok = ok && t.order->len > 0;
	try_clear(&t);
	return ok;
}
