/*
 * Resource plans (mbatchd/sched/stage-hybrid.c) checked over thousands of
 * generated plans, snapshots built by hand: consumer trees up to three
 * levels, random owned/reserved/limit/rank terms, hosts of random sizes
 * (the group larger or smaller than its plan), random running and
 * pending work.  Whatever the plan, these hold (issue 17, "Tests"):
 *
 *   - no slot is given twice: no host holds more than its slots;
 *   - each consumer's demand is its running plus pending slots;
 *   - every quota is within [reserve, limit] and not above demand unless
 *     reserved;
 *   - siblings' quotas add up to no more than their parent's, the first
 *     level's to no more than the group;
 *   - siblings with the same terms and demand get quotas within one slot
 *     (leaves, and parents with no limit below them);
 *   - in a plan that adds up (the first level owns PLAN_SLOTS, children
 *     no more than their parent together), on a group at least the
 *     plan's size, every leaf gets at least its reserve, whatever the
 *     policies (hybrid-only plans: on any group);
 *   - in a hybrid plan that adds up, a consumer with owned slots and
 *     demand, and no limit below it, gets at least min(demand, scaled
 *     owned, limit): to the slot on a group of exactly the plan's size
 *     (owned slots whole; also with HYBRID_EVENLY_DISTRIBUTE_SLOTS), else
 *     less one slot per level above it, for the fractions its ancestors
 *     rounded away (not checked with even distribution);
 *   - placement never takes a consumer above its quota (unless it was
 *     above already, which only reclaim undoes).
 *
 * The seed is fixed (HYBRID_SEED overrides it) so a failure repeats.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbatchd/sched/sched.h"
#include "tap.h"

#define MAX_C 14
#define MAX_H 8
#define MAX_J 160

typedef struct {
	SchedHost hosts[MAX_H];
	SchedQueue queues[MAX_C];
	SchedUser users[1];
	SchedJob pending[MAX_J];
	SchedRunning running[MAX_J];
	SchedAlloc allocs[MAX_J];
	SchedConsumer consumers[MAX_C];
	SchedPlanTerms terms[MAX_C];
	SchedResourceGroup rg;
	guint rg_hosts[MAX_H];
	char names[MAX_C][16];
	SchedSnapshot snap;
	int demand[MAX_C];
	int held_before[MAX_C];
	int root_owned;
} Gen;

static GRand *rnd;

static int
pick(int lo, int hi)
{
	return g_rand_int_range(rnd, lo, hi + 1);
}

/* A tree, parents first; children own no more than their parent in all
 * (so owned slots add up as a balanced plan would). */
static void
gen_tree(Gen *g, gboolean hybrid_only)
{
	SchedSnapshot *s = &g->snap;
	guint n = (guint)pick(2, MAX_C);
	int left_root = pick(4, 40);

	s->n_consumers = 0;
	for (guint c = 0; c < n; c++) {
		SchedConsumer *sc = &g->consumers[c];
		SchedPlanTerms *t = &g->terms[c];
		int parent = c == 0 || pick(0, 2) == 0 ? -1 : pick(-1, (int)c - 1);

		/* at most three levels */
		if (parent >= 0 && g->consumers[parent].parent >= 0 &&
		    g->consumers[g->consumers[parent].parent].parent >= 0)
			parent = g->consumers[parent].parent;
		memset(t, 0, sizeof *t);
		t->consumer = c;
		t->limit = SCHED_UNLIMITED;
		t->share = pick(1, 4);
		t->lend_limit = t->borrow_limit = t->share_limit = SCHED_UNLIMITED;
		t->rank = pick(0, 2);
		sc->parent = parent;
		if (parent < 0) {
			sc->policy = hybrid_only ? SCHED_POLICY_HYBRID : (SchedConsumerPolicy)pick(0, 2);
			t->policy = sc->policy;
			t->owned = pick(0, 1) ? pick(0, left_root) : 0;
			left_root = MAX(0, left_root - t->owned);
		} else {
			SchedPlanTerms *pt = &g->terms[parent];
			int given = 0;

			sc->policy = g->consumers[parent].policy;
			t->policy = sc->policy;
			for (guint k = 0; k < c; k++)
				if (g->consumers[k].parent == parent)
					given += g->terms[k].owned;
			t->owned = pick(0, MAX(0, pt->owned - given));
		}
		t->reserved = pick(0, 3) == 0 ? pick(0, t->owned) : 0;
		/* parents without a limit, so their children's floors fit */
		if (pick(0, 3) == 0)
			t->limit = pick(t->reserved, t->reserved + 20);
		/* a sibling cloned now and then: equal terms must mean equal shares */
		if (c > 0 && pick(0, 4) == 0 && g->consumers[c - 1].parent == parent) {
			*t = g->terms[c - 1];
			t->consumer = c;
			sc->policy = g->consumers[c - 1].policy;
		}
		g_snprintf(g->names[c], sizeof g->names[c], "/c%u", c);
		sc->path = g->names[c];
		s->n_consumers++;
	}
	/* Limits only on leaves. */
	for (guint c = 0; c < n; c++)
		if (g->consumers[c].parent >= 0)
			g->terms[g->consumers[c].parent].limit = SCHED_UNLIMITED;
}

static gboolean
is_leaf(const Gen *g, guint c)
{
	for (guint k = 0; k < g->snap.n_consumers; k++)
		if (g->consumers[k].parent == (int)c)
			return FALSE;
	return TRUE;
}

static void
gen(Gen *g, gboolean hybrid_only)
{
	SchedSnapshot *s = &g->snap;
	int root_owned = 0, reserved = 0, size = 0;
	gboolean exact;
	guint nh = (guint)pick(1, MAX_H);
	int host_left[MAX_H];

	memset(g, 0, sizeof *g);
	s->hosts = g->hosts;
	s->queues = g->queues;
	s->users = g->users;
	s->pending = g->pending;
	s->running = g->running;
	s->consumers = g->consumers;
	s->rgroups = &g->rg;
	s->n_rgroups = 1;
	s->now = 1000;
	s->hybrid_evenly = pick(0, 3) == 0;
	g->users[0].name = "u";
	g->users[0].max_jobs = SCHED_UNLIMITED;
	g->users[0].jl_p = -1;
	s->n_users = 1;
	gen_tree(g, hybrid_only);
	for (guint c = 0; c < s->n_consumers; c++) {
		if (g->consumers[c].parent < 0)
			root_owned += g->terms[c].owned;
		reserved += g->terms[c].reserved;
	}
	for (guint h = 0; h < nh; h++) {
		g->hosts[h].name = "h";
		g->hosts[h].max_slots = pick(1, 12);
		g->hosts[h].ncpus = g->hosts[h].max_slots;
		g->hosts[h].jl_u = SCHED_UNLIMITED;
		g->rg_hosts[h] = h;
		host_left[h] = g->hosts[h].max_slots;
		size += g->hosts[h].max_slots;
	}
	/* Now and then a group of exactly the plan's size: owned slots are
	 * then whole, and guaranteed to the slot. */
	exact = root_owned >= (int)nh && pick(0, 2) == 0;
	if (exact) {
		size = 0;
		for (guint h = 0; h < nh; h++) {
			g->hosts[h].max_slots = root_owned / (int)nh +
			    (h < (guint)(root_owned % (int)nh) ? 1 : 0);
			g->hosts[h].ncpus = g->hosts[h].max_slots;
			host_left[h] = g->hosts[h].max_slots;
			size += g->hosts[h].max_slots;
		}
	}
	s->n_hosts = nh;
	/* The reserves fit the group (else floors are cut in proportion). */
	if (reserved > size) {
		g->hosts[0].max_slots += reserved - size;
		host_left[0] += reserved - size;
		size = reserved;
	}
	g->rg.name = "rg";
	g->rg.hosts = g->rg_hosts;
	g->rg.n_hosts = nh;
	g->rg.plan_slots = exact ? root_owned :
	    pick(0, 2) == 0 ? pick(1, 60) : MAX(root_owned, 1);
	g->root_owned = root_owned;
	g->rg.terms = g->terms;
	g->rg.n_terms = s->n_consumers;
	/* One queue per consumer; jobs on leaves. */
	for (guint c = 0; c < s->n_consumers; c++) {
		g->queues[c].name = g->names[c];
		g->queues[c].priority = pick(1, 50);
		g->queues[c].dispatch_ok = TRUE;
		g->queues[c].qjob_limit = g->queues[c].ujob_limit = SCHED_UNLIMITED;
		g->queues[c].hjob_limit = SCHED_UNLIMITED;
		g->queues[c].pjob_limit = -1;
	}
	s->n_queues = s->n_consumers;
	for (guint c = 0; c < s->n_consumers; c++) {
		int nrun, npend;

		if (!is_leaf(g, c) || pick(0, 3) == 0)
			continue;
		nrun = pick(0, 6);
		npend = pick(0, 12);
		for (int k = 0; k < nrun && s->n_running < MAX_J; k++) {
			guint h = (guint)pick(0, (int)nh - 1);
			SchedRunning *r = &g->running[s->n_running];

			if (host_left[h] <= 0)
				continue;
			host_left[h]--;
			r->id = 10000 + s->n_running;
			r->queue = c;
			r->consumer = c + 1;
			g->allocs[s->n_running].host = h;
			g->allocs[s->n_running].slots = 1;
			r->allocs = &g->allocs[s->n_running];
			r->n_allocs = 1;
			r->start_time = 500;
			g->demand[c]++;
			g->held_before[c]++;
			s->n_running++;
		}
		for (int k = 0; k < npend && s->n_pending < MAX_J; k++) {
			SchedJob *j = &g->pending[s->n_pending];

			j->id = 1 + s->n_pending;
			j->queue = c;
			j->consumer = c + 1;
			j->min_slots = j->max_slots = pick(0, 4) == 0 ? 2 : 1;
			g->demand[c] += j->min_slots;
			s->n_pending++;
		}
	}
	/* Parents' demand and holdings are their children's sums. */
	for (guint c = s->n_consumers; c-- > 0;)
		if (g->consumers[c].parent >= 0) {
			g->demand[g->consumers[c].parent] += g->demand[c];
			g->held_before[g->consumers[c].parent] += g->held_before[c];
		}
}

static int
depth(const Gen *g, guint c)
{
	int d = 1;

	for (int a = g->consumers[c].parent; a >= 0; a = g->consumers[a].parent)
		d++;
	return d;
}

/* Whether every parent owns at least what its children own together
 * (a cloned sibling may break that). */
static gboolean
balanced(const Gen *g)
{
	int kids[MAX_C] = { 0 };

	for (guint c = 0; c < g->snap.n_consumers; c++)
		if (g->consumers[c].parent >= 0)
			kids[g->consumers[c].parent] += g->terms[c].owned;
	for (guint c = 0; c < g->snap.n_consumers; c++)
		if (kids[c] > g->terms[c].owned)
			return FALSE;
	return TRUE;
}

/* Whether a descendant has a limit: a parent then asks only for what its
 * children may take, less than its demand. */
static gboolean
limited_below(const Gen *g, guint c)
{
	for (guint k = c + 1; k < g->snap.n_consumers; k++) {
		int a = g->consumers[k].parent;

		while (a >= 0 && a != (int)c)
			a = g->consumers[a].parent;
		if (a == (int)c && g->terms[k].limit >= 0)
			return TRUE;
	}
	return FALSE;
}

static int
group_size(const Gen *g)
{
	int size = 0;

	for (guint h = 0; h < g->snap.n_hosts; h++)
		size += g->hosts[h].max_slots;
	return size;
}

static const SchedConsumerQuota *
row(const SchedPlan *plan, guint c)
{
	for (guint i = 0; i < plan->n_quotas; i++)
		if (plan->quotas[i].consumer == c)
			return &plan->quotas[i];
	return NULL;
}

/* Every invariant; a message naming the first broken one, or NULL. */
static char *
check(const Gen *g, const SchedPlan *plan, gboolean hybrid_only)
{
	const SchedSnapshot *s = &g->snap;
	int used[MAX_H] = { 0 };
	int size = group_size(g), root_sum = 0;
	int child_sum[MAX_C] = { 0 };
	double factor = (double)size / g->rg.plan_slots;
	gboolean adds_up = g->rg.plan_slots == g->root_owned && balanced(g);
	gboolean whole = size == g->rg.plan_slots;

	for (guint i = 0; i < s->n_running; i++)
		used[g->running[i].allocs[0].host] += g->running[i].allocs[0].slots;
	for (guint i = 0; i < plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(plan, i);

		for (guint a = 0; d->kind == SCHED_DO_DISPATCH && a < d->n_allocs; a++) {
			const SchedAlloc *al = &g_array_index(plan->allocs, SchedAlloc,
			    d->first_alloc + a);

			used[al->host] += al->slots;
		}
	}
	for (guint h = 0; h < s->n_hosts; h++)
		if (used[h] > g->hosts[h].max_slots)
			return g_strdup_printf("host %u holds %d of %d slots", h, used[h],
			    g->hosts[h].max_slots);
	if (plan->n_quotas != s->n_consumers)
		return g_strdup_printf("%u rows for %u consumers", plan->n_quotas, s->n_consumers);
	for (guint c = 0; c < s->n_consumers; c++) {
		const SchedConsumerQuota *r = row(plan, c);
		const SchedPlanTerms *t = &g->terms[c];

		if (r->demand != g->demand[c])
			return g_strdup_printf("%s: demand %d, not %d", g->names[c], r->demand,
			    g->demand[c]);
		if (t->limit >= 0 && r->quota > t->limit)
			return g_strdup_printf("%s: quota %d above its limit %d", g->names[c],
			    r->quota, t->limit);
		/* (A parent's quota also keeps its children's idle reserves.) */
		if (r->quota > MAX(r->demand, r->reserved) && is_leaf(g, c) &&
		    g->consumers[c].policy == SCHED_POLICY_HYBRID)
			return g_strdup_printf("%s: quota %d above demand %d and reserve %d",
			    g->names[c], r->quota, r->demand, r->reserved);
		if (is_leaf(g, c) && r->quota < r->reserved && (hybrid_only ||
		    (adds_up && size >= g->rg.plan_slots)))
			return g_strdup_printf("%s: quota %d below its reserve %d", g->names[c],
			    r->quota, r->reserved);
		if (r->alloc > MAX(g->held_before[c], r->quota))
			return g_strdup_printf("%s: holds %d, quota %d, held %d before",
			    g->names[c], r->alloc, r->quota, g->held_before[c]);
		if (g->consumers[c].parent < 0)
			root_sum += r->quota;
		else
			child_sum[g->consumers[c].parent] += r->quota;
		/* Owned slots are guaranteed when the plan adds up (its first
		 * level owns PLAN_SLOTS; else lib/conf warns). */
		if (hybrid_only && (!s->hybrid_evenly || whole) && adds_up &&
		    !limited_below(g, c)) {
			int owned = (int)floor(t->owned * factor + 1e-9);
			int want = MIN(r->demand, owned);

			if (t->limit >= 0)
				want = MIN(want, t->limit);
			/* Each level above may have rounded a fraction of its
			 * owned share away (floor, leftovers by rank). */
			if (!whole)
				want -= depth(g, c) - 1;
			if (r->quota < want)
				return g_strdup_printf("%s: quota %d below min(demand %d, owned %d)",
				    g->names[c], r->quota, r->demand, owned);
		}
	}
	if (root_sum > size)
		return g_strdup_printf("first-level quotas %d above the group's %d", root_sum, size);
	for (guint c = 0; c < s->n_consumers; c++)
		if (!is_leaf(g, c) && child_sum[c] > row(plan, c)->quota)
			return g_strdup_printf("%s: children's quotas %d above its %d", g->names[c],
			    child_sum[c], row(plan, c)->quota);
	for (guint a = 0; a < s->n_consumers; a++)
		for (guint b = a + 1; b < s->n_consumers; b++) {
			const SchedPlanTerms *x = &g->terms[a], *y = &g->terms[b];
			const SchedConsumerQuota *ra = row(plan, a), *rb = row(plan, b);

			if (is_leaf(g, a) != is_leaf(g, b) || limited_below(g, a) ||
			    limited_below(g, b) ||
			    g->consumers[a].parent != g->consumers[b].parent ||
			    g->consumers[a].policy != g->consumers[b].policy ||
			    x->owned != y->owned || x->reserved != y->reserved ||
			    x->limit != y->limit || x->rank != y->rank || x->share != y->share ||
			    ra->demand != rb->demand || ra->reserved != rb->reserved)
				continue;
			if (abs(ra->quota - rb->quota) > 1)
				return g_strdup_printf("%s and %s alike, quotas %d and %d",
				    g->names[a], g->names[b], ra->quota, rb->quota);
		}
	return NULL;
}

static void
run_many(gboolean hybrid_only, int n)
{
	const char *seed = g_getenv("HYBRID_SEED");
	Gen *g = g_new0(Gen, 1);

	rnd = g_rand_new_with_seed(seed != NULL ? (guint32)atoi(seed) : 17u);
	for (int i = 0; i < n; i++) {
		SchedPlan *plan;
		g_autofree char *why = NULL;

		gen(g, hybrid_only);
		plan = sched_run(&g->snap);
		why = check(g, plan, hybrid_only);
		if (why != NULL) {
			for (guint c = 0; c < g->snap.n_consumers; c++) {
				const SchedConsumerQuota *r = row(plan, c);

				fprintf(stderr, "# %s parent %d policy %d owned %d reserved %d "
				    "limit %d rank %d share %g | demand %d quota %d alloc %d\n",
				    g->names[c], g->consumers[c].parent, g->consumers[c].policy,
				    g->terms[c].owned, g->terms[c].reserved, g->terms[c].limit,
				    g->terms[c].rank, g->terms[c].share, r->demand, r->quota,
				    r->alloc);
			}
			fprintf(stderr, "# size %d plan %d\n", group_size(g), g->rg.plan_slots);
		}
		if (why != NULL)
			ck_abort_msg("plan %d (%s%s): %s", i, hybrid_only ? "hybrid" : "mixed",
			    g->snap.hybrid_evenly ? ", evenly" : "", why);
		sched_plan_free(plan);
	}
	g_rand_free(rnd);
	g_free(g);
}

START_TEST(test_hybrid_plans)
{
	run_many(TRUE, 4000);
}
END_TEST

START_TEST(test_mixed_plans)
{
	run_many(FALSE, 4000);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hybrid_invariants");
	TCase *tc = tcase_create("invariants");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hybrid_plans);
	tcase_add_test(tc, test_mixed_plans);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
