/*
 * Preemptive scheduling inside the pure pass.  Follows the product
 * definition seeds/lsf-preemptive-scheduling.txt, with the readings of
 * reference/decisions.md ("Preemption") and lsf-reference.md 1.2 (PREEMPTION
 * syntax) and 4.1 (victim selection, slot counting, scenarios P1-P7).
 *
 * Rules implemented here (counting rules are in count.c, resume in resume.c):
 *
 * 1. Who may preempt whom.  Queue A may preempt queue B only when
 *    PRIORITY(A) > PRIORITY(B) and A is PREEMPTIVE (bare, or listing B) or
 *    B is PREEMPTABLE (bare, or listing A).  Never between equal priorities;
 *    list entries naming a queue of equal or higher priority do nothing.
 *
 * 2. When.  A pending job that finds no slots (or is stopped by its user's
 *    or a user group's MAX_JOBS, which suspending jobs can relieve) in a
 *    queue that may preempt.  Queue limits always count suspended jobs, so
 *    a job they stop never preempts.
 *
 * 3. Victims.  RUN jobs (not SSUSP/USUSP, not already preempted in this
 *    pass) of queues A may preempt, holding slots on a candidate host: one
 *    of the queue's HOSTS that is up, asked for with -m and passes the
 *    host filter.  A job preempted MAX_JOB_PREEMPT times (the daemon's
 *    effective value, SchedRunning.max_preempt) is skipped.
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
 *    make earlier ones unnecessary.  That is LSF's documented default.
 *    - MINI_JOB ("preempt only enough parallel jobs"): for a parallel
 *      preemptor, once it fits, every victim it does not need is dropped
 *      again, the last taken first, so the set left is irredundant and
 *      keeps the victims earliest in the order.
 *    - OPTIMAL_MINI_JOB ("the least number of jobs"): for a parallel
 *      preemptor, within one queue rank victims holding more slots on the
 *      candidate hosts come first, then MINI_JOB's dropping.  That gives
 *      the fewest victims when slots on one host are what is missing; with
 *      user or group limits it is a heuristic, as LSF warns.
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
 */
#include "config.h"

#include <string.h>

#include "pass.h"

typedef struct {
	gboolean may;
	gboolean has_pref;
	int pref;
} Rel;

struct Preempt {
	const SchedSnapshot *snap;
	Rel *rel;                 /* [a * n_queues + b]: may a preempt b */
	gboolean *can;            /* [n_queues]: may preempt some queue */
	GArray **on_host;         /* [n_hosts]: RUN jobs holding slots there */
	gboolean *done;           /* [n_running]: preempted in this pass */
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
};

/* The sort keys are copied in, so the order is a few integer compares. */
typedef struct {
	guint run;                /* index into SchedSnapshot.running */
	guint rank;               /* its queue's rank, 0 best (rule 4a) */
	guint host_rank;          /* its best candidate host, in load order */
	int slots;                /* slots it holds on candidate hosts */
	gint64 start;
	guint64 id;
} Victim;

typedef struct {
	Pass *p;
	Preempt *pre;
	guint idx;                /* the preemptor, in SchedSnapshot.pending */
	const SchedJob *job;
	int need;
	GArray *cand;             /* candidate hosts (guint), least loaded first */
	guint *pos;               /* [n_hosts]: position in cand + 1, 0 = none */
	int *offer;               /* [cand->len]: slots each offers the job */
	int total;                /* sum of offer */
	guint only;               /* span[hosts=1]: the one cand position */
	GArray *victims;          /* Victim, in the order of rule 4 */
	GArray **by_host;         /* span[hosts=1]: [cand]: positions in victims */
	gboolean *taken;          /* [victims->len] */
	GArray *order;            /* positions in victims, in the order taken */
} Try;

#define NO_HOST G_MAXUINT

/* ---- rule 1: the queue relation ---------------------------------------- */

static const SchedQueueRef *
find_ref(const SchedQueueRef *refs, guint n, guint q)
{
	for (guint i = 0; i < n; i++)
		if (refs[i].queue == q)
			return &refs[i];
	return NULL;
}

static Rel
relation(const SchedSnapshot *s, guint a, guint b)
{
	const SchedQueue *qa = &s->queues[a], *qb = &s->queues[b];
	const SchedQueueRef *ref = find_ref(qa->preemptive_queues,
	    qa->n_preemptive_queues, b);
	gboolean by_a = qa->preemptive &&
	    (qa->n_preemptive_queues == 0 || ref != NULL);
	gboolean by_b = qb->preemptable && (qb->n_preemptable_queues == 0 ||
	    find_ref(qb->preemptable_queues, qb->n_preemptable_queues, a) != NULL);
	Rel r = { 0 };

	if (qa->priority <= qb->priority || !(by_a || by_b))
		return r;
	r.may = TRUE;
	if (ref != NULL && ref->has_pref) {
		r.has_pref = TRUE;
		r.pref = ref->pref;
	}
	return r;
}

static void
index_running(Preempt *pre)
{
	const SchedSnapshot *s = pre->snap;

	pre->on_host = g_new0(GArray *, s->n_hosts);
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if (r->state != SCHED_RUN_RUN)
			continue;
		for (guint a = 0; a < r->n_allocs; a++) {
			guint h = r->allocs[a].host;

			if (pre->on_host[h] == NULL)
				pre->on_host[h] = g_array_new(FALSE, FALSE, sizeof(guint));
			g_array_append_val(pre->on_host[h], i);
		}
	}
}

Preempt *
preempt_new(const SchedSnapshot *s)
{
	guint nq = s->n_queues;
	Preempt *pre;
	gboolean any = FALSE;

	if (!sched_preemption_configured(s))
		return NULL;
	pre = g_new0(Preempt, 1);
	pre->snap = s;
	pre->rel = g_new0(Rel, (gsize)nq * nq);
	pre->can = g_new0(gboolean, nq);
	for (guint a = 0; a < nq; a++)
		for (guint b = 0; b < nq; b++) {
			pre->rel[a * nq + b] = relation(s, a, b);
			pre->can[a] |= pre->rel[a * nq + b].may;
		}
	for (guint a = 0; a < nq; a++)
		any |= pre->can[a];
	if (!any) {
		preempt_free(pre);
		return NULL;
	}
	index_running(pre);
	pre->qrank = g_new0(guint *, nq);
	pre->n_ranks = g_new0(guint, nq);
	pre->done = g_new0(gboolean, s->n_running);
	pre->seen = g_new0(guint, s->n_running);
	pre->victims = g_array_new(FALSE, FALSE, sizeof(Victim));
	pre->one = g_array_new(FALSE, FALSE, sizeof(Victim));
	pre->bucket = g_new0(GArray *, nq);
	for (guint q = 0; q < nq; q++)
		pre->bucket[q] = g_array_new(FALSE, FALSE, sizeof(Victim));
	pre->taken = g_new0(gboolean, s->n_running);
	return pre;
}

void
preempt_free(Preempt *pre)
{
	if (pre == NULL)
		return;
	for (guint h = 0; pre->on_host != NULL && h < pre->snap->n_hosts; h++)
		if (pre->on_host[h] != NULL)
			g_array_free(pre->on_host[h], TRUE);
	g_free(pre->on_host);
	g_free(pre->rel);
	g_free(pre->can);
	for (guint q = 0; pre->qrank != NULL && q < pre->snap->n_queues; q++)
		g_free(pre->qrank[q]);
	g_free(pre->qrank);
	g_free(pre->n_ranks);
	g_free(pre->done);
	g_free(pre->seen);
	if (pre->victims != NULL) {
		for (guint q = 0; q < pre->snap->n_queues; q++)
			g_array_free(pre->bucket[q], TRUE);
		g_free(pre->bucket);
		g_array_free(pre->victims, TRUE);
		g_array_free(pre->one, TRUE);
		g_free(pre->taken);
	}
	g_free(pre);
}

gboolean
preempt_queue_can(const Preempt *pre, guint q)
{
	return pre->can[q];
}

static const Rel *
rel_of(const Try *t, guint victim_queue)
{
	return &t->pre->rel[t->job->queue * t->p->snap->n_queues + victim_queue];
}

/* ---- rule 4: orders ---------------------------------------------------- */

/* Least loaded first: r15s, r1m, slots in use, name (decisions.md). */
static int
cmp_load(gconstpointer a, gconstpointer b, gpointer data)
{
	const Pass *p = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	const SchedHost *hx = &p->snap->hosts[x], *hy = &p->snap->hosts[y];
	int ux = sched_count_host(&p->count, x), uy = sched_count_host(&p->count, y);

	if (hx->r15s != hy->r15s)
		return hx->r15s < hy->r15s ? -1 : 1;
	if (hx->r1m != hy->r1m)
		return hx->r1m < hy->r1m ? -1 : 1;
	if (ux != uy)
		return ux < uy ? -1 : 1;
	return strcmp(hx->name, hy->name);
}

/* Queue rank: a preference beats none, higher first, then lower PRIORITY. */
typedef struct {
	const Preempt *pre;
	guint a;
} RankCtx;

static int
cmp_queue_rank(gconstpointer x, gconstpointer y, gpointer data)
{
	const RankCtx *c = data;
	guint qx = *(const guint *)x, qy = *(const guint *)y;
	guint nq = c->pre->snap->n_queues;
	const Rel *rx = &c->pre->rel[c->a * nq + qx];
	const Rel *ry = &c->pre->rel[c->a * nq + qy];
	int px = c->pre->snap->queues[qx].priority;
	int py = c->pre->snap->queues[qy].priority;

	if (rx->has_pref != ry->has_pref)
		return rx->has_pref ? -1 : 1;
	if (rx->has_pref && rx->pref != ry->pref)
		return rx->pref > ry->pref ? -1 : 1;
	if (px != py)
		return px < py ? -1 : 1;
	return 0;
}

/* Rank every queue a may preempt, once per pass; equal keys share a rank. */
static const guint *
queue_ranks(Preempt *pre, guint a)
{
	guint nq = pre->snap->n_queues;
	RankCtx ctx = { pre, a };
	GArray *qs;

	if (pre->qrank[a] != NULL)
		return pre->qrank[a];
	qs = g_array_new(FALSE, FALSE, sizeof(guint));
	for (guint b = 0; b < nq; b++)
		if (pre->rel[a * nq + b].may)
			g_array_append_val(qs, b);
	g_array_sort_with_data(qs, cmp_queue_rank, &ctx);
	pre->qrank[a] = g_new0(guint, nq);
	for (guint i = 0, rank = 0; i < qs->len; i++) {
		if (i > 0 && cmp_queue_rank(&g_array_index(qs, guint, i - 1),
		    &g_array_index(qs, guint, i), &ctx) != 0)
			rank++;
		pre->qrank[a][g_array_index(qs, guint, i)] = rank;
		pre->n_ranks[a] = rank + 1;
	}
	g_array_free(qs, TRUE);
	return pre->qrank[a];
}

static int
cmp_start(const Victim *x, const Victim *y)
{
	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	return 0;
}

static int
cmp_victim(gconstpointer a, gconstpointer b, gpointer data)
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

/* ---- candidates -------------------------------------------------------- */

static void
find_candidates(Try *t)
{
	GArray *qh = t->p->queue_hosts[t->job->queue];

	for (guint i = 0; i < qh->len; i++) {
		guint h = g_array_index(qh, guint, i);

		if (sched_host_usable(t->p, t->job, h))
			g_array_append_val(t->cand, h);
	}
	g_array_sort_with_data(t->cand, cmp_load, t->p);
	for (guint i = 0; i < t->cand->len; i++) {
		SchedHostReason why;
		guint h = g_array_index(t->cand, guint, i);

		t->pos[h] = i + 1;
		t->offer[i] = sched_host_room(t->p, t->job, h, &why);
		t->total += t->offer[i];
	}
}

static gboolean
eligible(const Try *t, guint r)
{
	const SchedRunning *run = &t->p->snap->running[r];

	return run->state == SCHED_RUN_RUN && !t->pre->done[r] &&
	    rel_of(t, run->queue)->may &&
	    (run->max_preempt <= 0 || run->preempt_count < run->max_preempt);
}

static int
slots_on_candidates(const Try *t, const SchedRunning *r)
{
	int n = 0;

	for (guint a = 0; a < r->n_allocs; a++)
		if (t->pos[r->allocs[a].host] != 0)
			n += r->allocs[a].slots;
	return n;
}

/* The eligible victims on candidate host c not listed yet, in rule 4 order. */
static void
host_victims(Try *t, guint c, const guint *rank, GArray *out)
{
	Preempt *pre = t->pre;
	GArray *on = pre->on_host[g_array_index(t->cand, guint, c)];

	g_array_set_size(out, 0);
	for (guint i = 0; on != NULL && i < on->len; i++) {
		guint r = g_array_index(on, guint, i);
		const SchedRunning *run = &t->p->snap->running[r];
		Victim v = {
			.run = r, .rank = rank[run->queue], .host_rank = c,
			.start = run->start_time, .id = run->id,
		};

		if (pre->seen[r] == pre->stamp || !eligible(t, r))
			continue;
		pre->seen[r] = pre->stamp;
		v.slots = slots_on_candidates(t, run);
		g_array_append_val(out, v);
	}
	g_array_sort_with_data(out, cmp_victim, t);
}

/*
 * Hosts come in load order and each host's victims sorted, so the default
 * order (rank, host, recency) needs only a stable split by rank, not a sort
 * of every victim for each preemptor.  LEAST_RUN_TIME and OPTIMAL_MINI_JOB
 * put other keys before the host: those sort the whole list.
 */
static void
find_victims(Try *t)
{
	const guint *rank = queue_ranks(t->pre, t->job->queue);
	guint n_ranks = t->pre->n_ranks[t->job->queue];
	GArray **bucket = t->pre->bucket;
	GArray *one = t->pre->one;
	guint pf = t->p->snap->preempt_for;

	t->pre->stamp++;
	for (guint r = 0; r < n_ranks; r++)
		g_array_set_size(bucket[r], 0);
	for (guint c = 0; c < t->cand->len; c++) {
		host_victims(t, c, rank, one);
		for (guint i = 0; i < one->len; i++) {
			Victim *v = &g_array_index(one, Victim, i);

			g_array_append_val(bucket[v->rank], *v);
		}
	}
	for (guint r = 0; r < n_ranks; r++)
		g_array_append_vals(t->victims, bucket[r]->data, bucket[r]->len);
	if ((pf & SCHED_PREEMPT_FOR_LEAST_RUN_TIME) ||
	    ((pf & SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB) && t->need > 1))
		g_array_sort_with_data(t->victims, cmp_victim, t);
}

/* span[hosts=1]: which victims hold slots on each candidate host. */
static void
index_by_host(Try *t)
{
	const SchedSnapshot *s = t->p->snap;

	t->by_host = g_new0(GArray *, t->cand->len);
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

static int
job_room(Try *t)
{
	SchedPendReason why;

	return sched_job_headroom(t->p, t->job, &why);
}

static int
slots_offered(const Try *t)
{
	return t->only == NO_HOST ? t->total : t->offer[t->only];
}

static gboolean
fits(Try *t)
{
	return slots_offered(t) >= t->need && job_room(t) >= t->need;
}

static void
refresh_offer(Try *t, guint h)
{
	SchedHostReason why;
	guint c = t->pos[h];
	int now;

	if (c == 0)
		return;
	now = sched_host_room(t->p, t->job, h, &why);
	t->total += now - t->offer[c - 1];
	t->offer[c - 1] = now;
}

/* Suspend (sign 1) or take back (-1) a victim in the pass's counters; a
 * victim its queue terminates releases its slots altogether. */
static void
apply(Try *t, guint v, int sign)
{
	const SchedSnapshot *s = t->p->snap;
	const SchedRunning *r = &s->running[g_array_index(t->victims, Victim, v).run];
	gboolean kill = s->queues[r->queue].terminate_on_preempt;

	for (guint a = 0; a < r->n_allocs; a++) {
		const SchedAlloc *al = &r->allocs[a];

		if (kill)
			sched_count_add(&t->p->count, s, r->queue, r->user, al->host,
			    -sign * al->slots);
		else
			sched_count_suspend(&t->p->count, s, r->user, al->host,
			    sign * al->slots);
	}
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
	return g == GOAL_ROOM ? job_room(t) : slots_offered(t);
}

/*
 * The victims a step may look at: all, or for a span[hosts=1] try only
 * those on its host (elsewhere a victim can relieve MAX_JOBS, not slots).
 */
static guint
scope_len(const Try *t, gboolean all)
{
	GArray *l;

	if (all || t->only == NO_HOST)
		return t->victims->len;
	l = t->by_host[t->only];
	return l != NULL ? l->len : 0;
}

static guint
scope_at(const Try *t, gboolean all, guint i)
{
	if (all || t->only == NO_HOST)
		return i;
	return g_array_index(t->by_host[t->only], guint, i);
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
		for (guint i = 0; i < scope_len(t, g == GOAL_ROOM); i++) {
			guint v = scope_at(t, g == GOAL_ROOM, i);
			int before = measure(t, g);

			if (before >= t->need)
				break;
			if (t->taken[v])
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

static void
release_all(Try *t)
{
	for (guint i = t->order->len; i-- > 0;)
		apply(t, g_array_index(t->order, guint, i), -1);
	g_array_set_size(t->order, 0);
}

/*
 * Choose victims for the current host scope (t->only).  TRUE with the
 * victims taken (in t->order, applied to the counters); FALSE with none.
 */
static gboolean
choose(Try *t)
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
	short_room = job_room(t) < t->need;
	for (guint i = 0; i < scope_len(t, short_room); i++) {
		guint v = scope_at(t, short_room, i);

		if (!t->taken[v])
			take(t, v);
	}
	if (!fits(t)) {
		release_all(t);
		return FALSE;
	}
	drop_unneeded(t);
	return TRUE;
}

/* ---- span[hosts=1]: one host at a time --------------------------------- */

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
	return (int)(g_array_index(t->victims, Victim, v).rank -
	    g_array_index(t->victims, Victim, 0).rank);
}

/*
 * Each candidate host alone; keep the one whose worst victim ranks best in
 * queue order, the least loaded among equals (cand is in load order).
 */
static gboolean
choose_one_host(Try *t)
{
	guint best = NO_HOST;
	int best_rank = G_MAXINT;

	for (guint c = 0; c < t->cand->len && best_rank > 0; c++) {
		int rank;

		t->only = c;
		if (!choose(t))
			continue;
		rank = t->order->len > 0 ? rank_of(t, worst_taken(t)) : 0;
		if (rank < best_rank) {
			best_rank = rank;
			best = c;
		}
		release_all(t);
	}
	if (best == NO_HOST)
		return FALSE;
	t->only = best;
	return choose(t);
}

/* ---- the preemptor's dispatch ------------------------------------------ */

/* Slots on the victims' hosts first, least loaded first, then the rest. */
static guint
place_after(Try *t)
{
	GArray *allocs = t->p->plan->allocs;
	gboolean *freed = g_new0(gboolean, t->cand->len);
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
		for (guint c = 0; c < t->cand->len && got < t->need; c++) {
			SchedAlloc al = { .host = g_array_index(t->cand, guint, c) };

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
	GArray *pre = t->p->plan->preemptions;
	guint first_pre = pre->len, first = t->p->plan->allocs->len, n;

	for (guint i = 0; i < t->order->len; i++) {
		guint v = g_array_index(t->order, guint, i);
		SchedPreemption d = {
			.victim = g_array_index(t->victims, Victim, v).run,
			.preemptor = t->idx,
		};

		d.terminate = s->queues[s->running[d.victim].queue].terminate_on_preempt;
		t->pre->done[d.victim] = TRUE;
		g_array_append_val(pre, d);
	}
	n = place_after(t);
	sched_commit(t->p, t->idx, first, n, first_pre, pre->len - first_pre);
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
	t->cand = g_array_new(FALSE, FALSE, sizeof(guint));
	t->pos = g_new0(guint, s->n_hosts);
	t->offer = g_new0(int, s->n_hosts);
	t->victims = t->pre->victims;
	g_array_set_size(t->victims, 0);
	t->order = g_array_new(FALSE, FALSE, sizeof(guint));
}

static void
try_clear(Try *t)
{
	for (guint c = 0; t->by_host != NULL && c < t->cand->len; c++)
		if (t->by_host[c] != NULL)
			g_array_free(t->by_host[c], TRUE);
	g_free(t->by_host);
	g_array_free(t->cand, TRUE);
	g_free(t->pos);
	g_free(t->offer);

	g_array_free(t->order, TRUE);
}

gboolean
preempt_try(Pass *p, guint idx)
{
	Try t;
	gboolean ok = FALSE;

	try_init(&t, p, idx);
	find_candidates(&t);
	find_victims(&t);
	t.taken = p->preempt->taken;
	memset(t.taken, 0, t.victims->len * sizeof *t.taken);
	if (t.job->one_host)
		index_by_host(&t);
	if (t.victims->len > 0)
		ok = t.job->one_host ? choose_one_host(&t) : choose(&t);
	/* A job that fits without victims did not need preemption: whatever
	 * stopped it is not something a victim can change. */
	if (ok && t.order->len > 0)
		commit_try(&t);
	else
		release_all(&t);
	ok = ok && t.order->len > 0;
	try_clear(&t);
	return ok;
}
