/*
 * Stage: entitlement by resource plan.  Rule: seeds/symphony-hybrid-policy.txt
 * (every paragraph) as read in decisions.md ("Hybrid policy"); run by
 * stage_entitlement.  For each resource group:
 *
 *   size     the slots of its OK hosts now; owned slots scale by
 *            size / PLAN_SLOTS ("How many slots does the consumer own?"),
 *            except under the ownership policy, whose consumers own
 *            exactly what is configured while the hybrid ones share what
 *            is left in proportion ("Mixing ownership and hybrid
 *            policies"); with HYBRID_EVENLY_DISTRIBUTE_SLOTS the
 *            configured owned slots are used as they are (decisions.md).
 *   demand   a leaf's running slots in the group (its allocation; a job
 *            suspended by preemption holds none and counts as demand
 *            only) plus the slots of its pending jobs that could start
 *            now (not held, not waiting on a dependency, a begin time or
 *            a closed queue), counted in each group their queue's hosts
 *            reach; a parent's demand is its children's sum.
 *   quota    top down: the group's size is divided among the first-level
 *            consumers, each parent's quota among its children
 *            (hybrid-quota.c): reserve as a floor (capped at the scaled
 *            owned), limit as a ceiling (never scaled), never above
 *            demand unless reserved, borrowing in proportion to owned,
 *            rounding by rank then plan order.  Siblings borrow from one
 *            another first because a parent's quota is computed from its
 *            whole subtree's demand.
 *   ownership  owned slots are kept for the consumer (its quota even
 *            without demand) except LEND_LIMIT of them, and it borrows at
 *            most BORROW_LIMIT; both default to 0 ("Sharing by default:
 *            No").  share: slots in proportion to SHARE among consumers
 *            with demand, at most SHARE_LIMIT.
 *   window   a group's plan is the one whose TIME_WINDOW is open now, else
 *            its plan without one (plan-window.c); the pass asks to run
 *            again at the next boundary (issue 18 item 4).
 *   grant    "Slot distribution": the group's idle slots go to
 *            under-allocated consumers (alloc below quota) top down in
 *            rank order, each parent's passed to its children in rank
 *            order; a consumer may start at most its grant this pass.
 *            Reserved slots without demand are granted like any other,
 *            so they stay idle for their owner and are its at once.  The
 *            rest of the idle slots is what jobs outside every consumer
 *            may take on the group's hosts ("Free slots": reserved slots
 *            are not lent).
 *   exclusive  bsub -x jobs are placed by their own rule first: the quota
 *            does not hold them back, and their slots count against it
 *            once placed.
 *
 * Reclaim (over-allocated consumers, grace periods) is the next stage's
 * work; the table this stage leaves in the plan (SchedPlan.quotas) says
 * who is over and who is under.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hybrid.h"

const char *
sched_consumer_policy_name(SchedConsumerPolicy p)
{
	switch (p) {
	case SCHED_POLICY_OWNERSHIP:
		return "ownership";
	case SCHED_POLICY_SHARE:
		return "share";
	default:
		return "hybrid";
	}
}

#define AT(hy, g, c) ((g) * (hy)->n_c + (c))

static void
build_tree(Hybrid *hy, const SchedSnapshot *s)
{
	guint *n = g_new0(guint, hy->n_c + 1);
	guint *fill = g_new0(guint, hy->n_c + 1);

	for (guint c = 0; c < hy->n_c; c++)
		n[s->consumers[c].parent >= 0 ? (guint)s->consumers[c].parent : hy->n_c]++;
	hy->children = g_new(guint *, hy->n_c + 1);
	for (guint c = 0; c <= hy->n_c; c++) {
		hy->children[c] = g_new(guint, n[c] + 1);
		hy->children[c][n[c]] = G_MAXUINT;
	}
	for (guint c = 0; c < hy->n_c; c++) {
		guint par = s->consumers[c].parent >= 0 ? (guint)s->consumers[c].parent : hy->n_c;

		hy->children[par][fill[par]++] = c;
	}
	g_free(n);
	g_free(fill);
}

static void
measure_groups(Pass *p, Hybrid *hy)
{
	const SchedSnapshot *s = p->snap;

	sched_rgroup_host_map(s, hy->host_group);
	for (guint g = 0; g < hy->n_g; g++) {
		const SchedResourceGroup *rg = &s->rgroups[g];

		for (guint i = 0; i < rg->n_hosts; i++) {
			guint h = rg->hosts[i];
			int slots = sched_rgroup_host_slots(&s->hosts[h]);

			if (sched_host_state(p, h) != SCHED_HOST_OK)
				continue;
			hy->size[g] += slots;
			hy->idle[g] += sched_host_idle(p, h);
		}
		const SchedPlanInForce *f = &hy->force[g];
		gint64 next;

		/* The plan of this group in force now (TIME_WINDOW), and a
		 * pass when that can change (plan-window.c). */
		hy->force[g] = sched_plan_in_force(s, g, &next);
		if (next > 0)
			plan_wake_at(p->plan, s->now + next);
		for (guint t = 0; t < f->n_terms; t++) {
			guint c = f->terms[t].consumer;

			if (c < hy->n_c) {
				hy->terms[AT(hy, g, c)] = &f->terms[t];
				hy->pos[AT(hy, g, c)] = t;
			}
		}
	}
	for (guint q = 0; q < s->n_queues; q++) {
		const SchedQueue *sq = &s->queues[q];
		gboolean all = sq->hosts == NULL || sq->n_hosts == 0;
		guint n = all ? s->n_hosts : sq->n_hosts;
		guint only = n > 0 ? hy->host_group[all ? 0 : sq->hosts[0].host] : 0;

		for (guint i = 0; i < n && only != 0; i++)
			if (hy->host_group[all ? i : sq->hosts[i].host] != only)
				only = 0;
		hy->queue_only[q] = only;
		hy->queue_n_hosts[q] = n;
		for (guint i = 0; i < n; i++) {
			guint g = hy->host_group[all ? i : sq->hosts[i].host];

			if (g != 0)
				hy->queue_groups[q * hy->n_g + g - 1] = 1;
		}
	}
}

/* Leaves' running and pending slots, then each parent's sums. */
static void
count_demand(Pass *p, Hybrid *hy)
{
	const SchedSnapshot *s = p->snap;

	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if (r->consumer == 0 || r->consumer > hy->n_c || !hybrid_holds_slots(r))
			continue;
		for (guint a = 0; a < r->n_allocs; a++) {
			guint g = hy->host_group[r->allocs[a].host];

			if (g != 0)
				hy->alloc[AT(hy, g - 1, r->consumer - 1)] += r->allocs[a].slots;
		}
	}
	for (guint i = 0; i < hy->n_g * hy->n_c; i++)
		hy->demand[i] = hy->alloc[i];
	/* A job suspended by preemption holds no slot (its host's slot is
	 * free): it asks for its slots back, as demand (hybrid-place.c). */
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if (r->consumer == 0 || r->consumer > hy->n_c || hybrid_holds_slots(r))
			continue;
		for (guint a = 0; a < r->n_allocs; a++) {
			guint g = hy->host_group[r->allocs[a].host];

			if (g != 0)
				hy->demand[AT(hy, g - 1, r->consumer - 1)] += r->allocs[a].slots;
		}
	}
	/* A pending job asks in every group its queue's hosts reach: it may
	 * start in any of them, and each plan holds it there alone. */
	for (guint i = 0; i < s->n_pending; i++) {
		const SchedJob *j = &s->pending[i];
		const guint8 *in = &hy->queue_groups[j->queue * hy->n_g];

		if (j->consumer == 0 || j->consumer > hy->n_c ||
		    sched_job_gate(p, j) != SCHED_PEND_NONE)
			continue;
		for (guint g = 0; g < hy->n_g; g++)
			if (in[g])
				hy->demand[AT(hy, g, j->consumer - 1)] += j->min_slots;
	}
	for (guint g = 0; g < hy->n_g; g++)
		for (guint c = hy->n_c; c-- > 0;) {
			int par = s->consumers[c].parent;

			if (par < 0)
				continue;
			hy->demand[AT(hy, g, par)] += hy->demand[AT(hy, g, c)];
			hy->alloc[AT(hy, g, par)] += hy->alloc[AT(hy, g, c)];
		}
}

static double
cap_of(int limit, double v)
{
	return limit >= 0 ? MIN((double)limit, v) : v;
}

/* One sibling's terms in the division, by its policy. */
static void
share_terms(const Hybrid *hy, guint g, guint c, QuotaShare *q)
{
	const SchedPlanTerms *t = hy->terms[AT(hy, g, c)];
	double owned = hy->owned[AT(hy, g, c)];
	int d = hy->need[AT(hy, g, c)];

	memset(q, 0, sizeof *q);
	q->rank = t->rank;
	q->order = hy->pos[AT(hy, g, c)];
	switch (hy->terms[AT(hy, g, c)]->policy) {
	case SCHED_POLICY_OWNERSHIP: {
		double lend = t->lend_limit >= 0 ? t->lend_limit : 0;
		double borrow = t->borrow_limit >= 0 ? t->borrow_limit : 0;
		double keep = MAX(0, owned - lend);

		q->cap = cap_of(t->limit, MAX(MIN(d, owned + borrow), keep));
		q->floor = MAX(keep, hy->floor[AT(hy, g, c)]);
		q->base = MIN(q->cap, owned);
		q->weight = owned;
		break;
	}
	case SCHED_POLICY_SHARE:
		q->cap = cap_of(t->share_limit, cap_of(t->limit, d));
		q->weight = t->share > 0 ? t->share : 0;
		break;
	default: {
		double r = hy->floor[AT(hy, g, c)];

		q->cap = cap_of(t->limit, MAX((double)d, r));
		q->floor = r;
		q->base = MIN(q->cap, owned);
		q->weight = owned;
		break;
	}
	}
}

/* Each consumer's owned slots in group g, scaled. */
static void
scale_owned(Pass *p, Hybrid *hy, guint g)
{
	const SchedSnapshot *s = p->snap;
	const SchedPlanInForce *rg = &hy->force[g];
	double own_fixed = 0, factor;

	for (guint c = 0; c < hy->n_c; c++) {
		guint top = c;

		while (s->consumers[top].parent >= 0)
			top = (guint)s->consumers[top].parent;
		if (top == c && hy->terms[AT(hy, g, c)]->policy == SCHED_POLICY_OWNERSHIP)
			own_fixed += hy->terms[AT(hy, g, c)]->owned;
	}
	if (s->hybrid_evenly)
		factor = 1;
	else if (rg->plan_slots - own_fixed > 0)
		factor = MAX(0.0, (hy->size[g] - own_fixed) / (rg->plan_slots - own_fixed));
	else
		factor = 0;
	for (guint c = 0; c < hy->n_c; c++) {
		const SchedPlanTerms *t = hy->terms[AT(hy, g, c)];

		hy->owned[AT(hy, g, c)] = hy->terms[AT(hy, g, c)]->policy == SCHED_POLICY_OWNERSHIP ?
		    t->owned : t->owned * factor;
	}
	/* A reserve is kept whole, capped at the scaled owned slots; a parent
	 * keeps at least what its children reserve, or it could not give
	 * them their floors. */
	for (guint c = 0; c < hy->n_c; c++)
		hy->floor[AT(hy, g, c)] = hy->terms[AT(hy, g, c)]->policy == SCHED_POLICY_SHARE ? 0 :
		    MIN((double)hy->terms[AT(hy, g, c)]->reserved,
		    floor(hy->owned[AT(hy, g, c)] + 1e-9));
	/* Children come after their parents: backwards, each is complete
	 * before its parent adds it. */
	for (guint c = hy->n_c; c-- > 0;) {
		int par = s->consumers[c].parent;

		hy->floor[AT(hy, g, c)] = MAX(hy->floor[AT(hy, g, c)],
		    hy->kids_floor[AT(hy, g, c)]);
		if (par >= 0)
			hy->kids_floor[AT(hy, g, par)] += hy->floor[AT(hy, g, c)];
	}
}

/*
 * What each consumer asks for in the division: a leaf its demand; a
 * parent what its children may be given at most (their reserves count,
 * since they are kept idle), so a child's reserve does not eat its
 * sibling's owned slots.  Bottom up: children come after their parents.
 */
static void
count_need(const Pass *p, Hybrid *hy, guint g)
{
	const SchedSnapshot *s = p->snap;

	for (guint c = 0; c < hy->n_c; c++)
		hy->need[AT(hy, g, c)] = hy->children[c][0] == G_MAXUINT ?
		    hy->demand[AT(hy, g, c)] : 0;
	for (guint c = hy->n_c; c-- > 0;) {
		int par = s->consumers[c].parent;
		QuotaShare q;

		if (par < 0)
			continue;
		share_terms(hy, g, c, &q);
		hy->need[AT(hy, g, par)] += (int)MIN(q.cap, (double)G_MAXINT / 4);
	}
}

static void
divide(Pass *p, Hybrid *hy, guint g, guint parent, int total)
{
	const guint *kids = hy->children[parent];
	guint n = 0;
	QuotaShare *q;

	while (kids[n] != G_MAXUINT)
		n++;
	if (n == 0)
		return;
	q = g_new(QuotaShare, n);
	for (guint i = 0; i < n; i++)
		share_terms(hy, g, kids[i], &q[i]);
	hybrid_divide(q, n, total, p->snap->hybrid_evenly);
	for (guint i = 0; i < n; i++) {
		hy->quota[AT(hy, g, kids[i])] = q[i].quota;
		divide(p, hy, g, kids[i], q[i].quota);
	}
	g_free(q);
}

typedef struct {
	const Hybrid *hy;
	guint g;
} RankKey;

static int
by_rank(const void *a, const void *b, void *data)
{
	const RankKey *k = data;
	const Hybrid *hy = k->hy;
	guint x = *(const guint *)a, y = *(const guint *)b;
	const SchedPlanTerms *tx = hy->terms[AT(hy, k->g, x)];
	const SchedPlanTerms *ty = hy->terms[AT(hy, k->g, y)];

	if (tx->rank != ty->rank)
		return tx->rank < ty->rank ? -1 : 1;
	return hy->pos[AT(hy, k->g, x)] < hy->pos[AT(hy, k->g, y)] ? -1 : 1;
}

static int
by_pos_cmp(const void *a, const void *b, void *data)
{
	const RankKey *k = data;
	guint x = k->hy->pos[AT(k->hy, k->g, *(const guint *)a)];
	guint y = k->hy->pos[AT(k->hy, k->g, *(const guint *)b)];

	return x < y ? -1 : x > y;
}

/* A consumer's own reserve (its RESERVED, capped at its scaled owned). */
static int
own_reserve(const Hybrid *hy, guint g, guint c)
{
	return (int)MIN((double)hy->terms[AT(hy, g, c)]->reserved,
	    floor(hy->owned[AT(hy, g, c)] + 1e-9));
}

/* Idle slots to under-allocated consumers, top down in rank order. */
static int
grant(Hybrid *hy, guint g, guint parent, int idle)
{
	const guint *kids = hy->children[parent];
	guint n = 0, *order;
	int given = 0;
	RankKey k = { hy, g };

	while (kids[n] != G_MAXUINT)
		n++;
	order = g_memdup2(kids, n * sizeof *kids);
	g_qsort_with_data(order, n, sizeof *order, by_rank, &k);
	for (guint i = 0; i < n && idle > 0; i++) {
		guint c = order[i];
		int want = MIN(idle, hy->quota[AT(hy, g, c)] - hy->alloc[AT(hy, g, c)]);

		if (want <= 0)
			continue;
		/* "Free slots": a parent holds the larger of what its children
		 * take and its own reserve less what it holds, so a reserve set
		 * on a parent stays idle for its subtree too. */
		if (hy->children[c][0] != G_MAXUINT)
			want = MIN(want, MAX(grant(hy, g, c, want),
			    own_reserve(hy, g, c) - hy->alloc[AT(hy, g, c)]));
		hy->grant[AT(hy, g, c)] = want;
		idle -= want;
		given += want;
	}
	g_free(order);
	return given;
}

void
stage_hybrid(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	Hybrid *hy;
	guint n;

	if (s->n_consumers == 0 || s->n_rgroups == 0)
		return;
	hy = g_new0(Hybrid, 1);
	hy->n_c = s->n_consumers;
	hy->n_g = s->n_rgroups;
	n = hy->n_c * hy->n_g;
	hy->host_group = g_new0(guint, s->n_hosts);
	hy->queue_groups = g_new0(guint8, s->n_queues * hy->n_g);
	hy->queue_only = g_new0(guint, s->n_queues);
	hy->queue_n_hosts = g_new0(guint, s->n_queues);
	hy->terms = g_new0(const SchedPlanTerms *, n);
	hy->pos = g_new0(guint, n);
	hy->owned = g_new0(double, n);
	hy->floor = g_new0(double, n);
	hy->need = g_new0(int, n);
	hy->kids_floor = g_new0(double, n);
	hy->demand = g_new0(int, n);
	hy->alloc = g_new0(int, n);
	hy->quota = g_new0(int, n);
	hy->grant = g_new0(int, n);
	hy->placed = g_new0(int, n);
	hy->size = g_new0(int, hy->n_g);
	hy->idle = g_new0(int, hy->n_g);
	hy->outside_left = g_new0(int, hy->n_g);
	hy->outside_placed = g_new0(int, hy->n_g);
	hy->force = g_new0(SchedPlanInForce, hy->n_g);
	build_tree(hy, s);
	measure_groups(p, hy);
	count_demand(p, hy);
	for (guint g = 0; g < hy->n_g; g++) {
		scale_owned(p, hy, g);
		count_need(p, hy, g);
		divide(p, hy, g, hy->n_c, hy->size[g]);
		hy->outside_left[g] = hy->idle[g] - grant(hy, g, hy->n_c, hy->idle[g]);
	}
	p->hybrid = hy;
}

/* Why a row's quota is what it is, in a few words. */
static void
reason(const Hybrid *hy, guint g, guint c, const SchedConsumerQuota *r, char *out)
{
	const char *why;

	(void)hy;
	(void)g;
	(void)c;
	if (r->demand == 0 && r->quota == 0)
		why = "no demand";
	else if (r->quota > r->demand)
		why = "reserved slots kept idle for it";
	else if (r->limit >= 0 && r->quota == r->limit && r->demand > r->limit)
		why = "at its limit";
	else if (r->quota == r->demand)
		why = "demand met";
	else if (r->owned == 0 && r->quota == 0)
		why = "owns nothing: waits for owners with demand";
	else if (r->quota < MIN(r->demand, r->owned))
		why = "the group or the parent is short of slots";
	else if (r->quota > r->owned)
		why = "owned slots and a share of the idle ones";
	else
		why = "its owned slots";
	g_snprintf(out, SCHED_QUOTA_REASON_MAX, "%s", why);
}

void
hybrid_finish(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	Hybrid *hy = p->hybrid;
	SchedPlan *plan = p->plan;
	guint k = 0;

	if (hy == NULL)
		return;
	/* What placement started counts as allocated; parents sum it. */
	for (guint g = 0; g < hy->n_g; g++)
		for (guint c = hy->n_c; c-- > 0;) {
			int par = s->consumers[c].parent;

			hy->alloc[AT(hy, g, c)] += hy->placed[AT(hy, g, c)];
			if (par >= 0)
				hy->placed[AT(hy, g, par)] += hy->placed[AT(hy, g, c)];
		}
	plan->n_quotas = hy->n_g * hy->n_c;
	plan->quotas = g_new0(SchedConsumerQuota, plan->n_quotas);
	for (guint g = 0; g < hy->n_g; g++) {
		g_autofree guint *by_pos = g_new(guint, hy->n_c);

		/* Plan order: the group's terms as written, then the rest. */
		for (guint c = 0; c < hy->n_c; c++)
			by_pos[c] = c;
		g_qsort_with_data(by_pos, hy->n_c, sizeof *by_pos, by_pos_cmp,
		    &(RankKey){ hy, g });
		for (guint i = 0; i < hy->n_c; i++) {
			guint c = by_pos[i];
			const SchedPlanTerms *pt = hy->terms[AT(hy, g, c)];
			SchedConsumerQuota *r = &plan->quotas[k++];
			int owned = (int)(hy->owned[AT(hy, g, c)] + 0.5);

			r->consumer = c;
			r->group = g;
			r->owned_conf = pt->owned;
			r->owned = owned;
			/* A parent keeps what its children reserve. */
			r->reserved = (int)hy->floor[AT(hy, g, c)];
			r->limit = pt->limit;
			r->rank = pt->rank;
			r->share = hy->terms[AT(hy, g, c)]->policy == SCHED_POLICY_SHARE ? pt->share : 0;
			r->demand = hy->demand[AT(hy, g, c)];
			r->quota = hy->quota[AT(hy, g, c)];
			r->alloc = hy->alloc[AT(hy, g, c)];
			r->borrowed = MAX(0, r->alloc - owned);
			r->lent = 0;
			reason(hy, g, c, r, r->reason);
		}
	}
	/* Lent: an owner's unused owned slots, as far as its siblings borrow. */
	for (guint g = 0; g < hy->n_g; g++) {
		SchedConsumerQuota *base = &plan->quotas[g * hy->n_c];
		g_autofree guint *row = g_new(guint, hy->n_c);

		for (guint t = 0; t < hy->n_c; t++)
			row[base[t].consumer] = t;
		for (guint par = 0; par <= hy->n_c; par++) {
			const guint *kids = hy->children[par];
			int borrowed = 0;

			for (guint i = 0; kids[i] != G_MAXUINT; i++)
				borrowed += base[row[kids[i]]].borrowed;
			for (guint i = 0; kids[i] != G_MAXUINT && borrowed > 0; i++) {
				SchedConsumerQuota *r = &base[row[kids[i]]];

				r->lent = MIN(borrowed, MAX(0, r->owned - r->alloc));
				borrowed -= r->lent;
			}
		}
	}
}

void
hybrid_free(Hybrid *hy)
{
	if (hy == NULL)
		return;
	for (guint c = 0; c <= hy->n_c; c++)
		g_free(hy->children[c]);
	g_free(hy->children);
	g_free(hy->host_group);
	g_free(hy->queue_groups);
	g_free(hy->queue_only);
	g_free(hy->queue_n_hosts);
	g_free(hy->terms);
	g_free(hy->force);
	g_free(hy->pos);
	g_free(hy->owned);
	g_free(hy->floor);
	g_free(hy->need);
	g_free(hy->kids_floor);
	g_free(hy->demand);
	g_free(hy->alloc);
	g_free(hy->quota);
	g_free(hy->grant);
	g_free(hy->placed);
	g_free(hy->size);
	g_free(hy->idle);
	g_free(hy->outside_left);
	g_free(hy->outside_placed);
	g_free(hy->run_first);
	g_free(hy->run_by);
	g_free(hy);
}
