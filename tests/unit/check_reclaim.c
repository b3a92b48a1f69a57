/*
 * Resource reclaim's selection (mbatchd/sched/stage-reclaim.c), on
 * snapshots built by hand: which jobs go first (importance, then the
 * criteria), and invariants over thousands of generated flat plans
 * (issue 18, items 1-3):
 *
 *   - nothing is reclaimed unless some consumer is under its quota with
 *     demand and the group has no idle slot for it;
 *   - no slot is reclaimed beyond what others need, and no consumer is
 *     brought below its quota (the jobs hold one slot each here);
 *   - every job reclaimed belongs to a consumer above its quota and is
 *     not already under reclaim; it is reclaimed once;
 *   - the selection is a pure function: called again on the same
 *     snapshot and plan it chooses the same jobs in the same order, and
 *     sched_run's plan lists exactly those, each with a notice decision;
 *   - a job whose grace ended is requeued, one within its grace is not,
 *     and the plan wakes at the earliest deadline;
 *   - at a plan change every leaf gives back exactly its excess over its
 *     quota, whether or not anyone asks; after a reconfig that left the
 *     group's plan alone (plan_changed unset) nothing is reclaimed for no
 *     consumer, and never more than had the plan changed.
 *
 * The seed is fixed (RECLAIM_SEED overrides it) so a failure repeats.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mbatchd/sched/sched.h"
#include "tap.h"

#define MAX_C 8
#define MAX_J 96

typedef struct {
	SchedHost hosts[4];
	SchedQueue queues[MAX_C];
	SchedUser users[1];
	SchedJob pending[MAX_J];
	SchedRunning running[MAX_J];
	SchedAlloc allocs[MAX_J];
	SchedConsumer consumers[MAX_C];
	SchedPlanTerms terms[MAX_C];
	SchedResourceGroup rg;
	guint rg_hosts[4];
	char names[MAX_C][8];
	SchedSnapshot snap;
} Gen;

static GRand *rnd;

static int
pick(int lo, int hi)
{
	return g_rand_int_range(rnd, lo, hi + 1);
}

static void
base(Gen *g, guint n_c, guint n_h, int slots_per_host)
{
	SchedSnapshot *s = &g->snap;

	memset(g, 0, sizeof *g);
	s->hosts = g->hosts;
	s->queues = g->queues;
	s->users = g->users;
	s->pending = g->pending;
	s->running = g->running;
	s->consumers = g->consumers;
	s->rgroups = &g->rg;
	s->n_rgroups = 1;
	s->now = 100000;
	g->users[0].name = "u";
	g->users[0].max_jobs = SCHED_UNLIMITED;
	g->users[0].jl_p = -1;
	s->n_users = 1;
	for (guint h = 0; h < n_h; h++) {
		g->hosts[h].name = "h";
		g->hosts[h].max_slots = slots_per_host;
		g->hosts[h].ncpus = slots_per_host;
		g->hosts[h].jl_u = SCHED_UNLIMITED;
		g->rg_hosts[h] = h;
	}
	s->n_hosts = n_h;
	for (guint c = 0; c < n_c; c++) {
		SchedPlanTerms *t = &g->terms[c];

		t->consumer = c;
		t->limit = t->lend_limit = t->borrow_limit = t->share_limit =
		    SCHED_UNLIMITED;
		t->share = 1;
		g_snprintf(g->names[c], sizeof g->names[c], "/c%u", c);
		g->consumers[c].path = g->names[c];
		g->consumers[c].parent = -1;
		g->queues[c].name = g->names[c];
		g->queues[c].priority = 10;
		g->queues[c].dispatch_ok = TRUE;
		g->queues[c].qjob_limit = g->queues[c].ujob_limit = SCHED_UNLIMITED;
		g->queues[c].hjob_limit = SCHED_UNLIMITED;
		g->queues[c].pjob_limit = -1;
	}
	s->n_consumers = n_c;
	s->n_queues = n_c;
	g->rg.name = "rg";
	g->rg.hosts = g->rg_hosts;
	g->rg.n_hosts = n_h;
	g->rg.terms = g->terms;
	g->rg.n_terms = n_c;
	g->rg.plan_slots = (int)n_h * slots_per_host;
}

static SchedRunning *
run(Gen *g, guint c, guint h, gint64 start)
{
	SchedSnapshot *s = &g->snap;
	SchedRunning *r = &g->running[s->n_running];

	r->id = 1000 + s->n_running;
	r->queue = c;
	r->consumer = c + 1;
	g->allocs[s->n_running].host = h;
	g->allocs[s->n_running].slots = 1;
	r->allocs = &g->allocs[s->n_running];
	r->n_allocs = 1;
	r->start_time = start;
	s->n_running++;
	return r;
}

static void
pend(Gen *g, guint c)
{
	SchedSnapshot *s = &g->snap;
	SchedJob *j = &g->pending[s->n_pending];

	j->id = 1 + s->n_pending;
	j->queue = c;
	j->consumer = c + 1;
	j->min_slots = j->max_slots = 1;
	s->n_pending++;
}

static const SchedReclaim *
nth(const SchedPlan *p, guint k)
{
	return &g_array_index(p->reclaims, SchedReclaim, k);
}

/* /c0 owns 4 slots that /c1 borrowed; /c0 wants 2.  Job importance goes
 * first, the start time only breaks ties. */
START_TEST(test_importance_then_recent)
{
	Gen g;
	SchedPlan *p;

	base(&g, 2, 1, 4);
	g.terms[0].owned = 4;
	g.queues[1].priority = 10;
	run(&g, 1, 0, 100);                     /* old, least important */
	run(&g, 1, 0, 400)->user_priority = 50; /* newest, important */
	run(&g, 1, 0, 300);
	run(&g, 1, 0, 200);
	pend(&g, 0);
	pend(&g, 0);
	p = sched_run(&g.snap);
	ck_assert_uint_eq(p->reclaims->len, 2);
	ck_assert_uint_eq(nth(p, 0)->job, 2);   /* importance 0: newest first */
	ck_assert_uint_eq(nth(p, 1)->job, 3);
	ck_assert_int_eq(nth(p, 0)->from, 1);
	ck_assert_int_eq(nth(p, 0)->to, 0);
	ck_assert_int_eq(nth(p, 0)->kind, SCHED_RECLAIM_BORROWED);
	sched_plan_free(p);
	/* MostRecentTask: the same, within one queue. */
	g.snap.reclaim.criteria = SCHED_RECLAIM_MOST_RECENT_TASK;
	p = sched_run(&g.snap);
	ck_assert_uint_eq(nth(p, 0)->job, 2);
	sched_plan_free(p);
}
END_TEST

/* Grace: the deadline is now + the over-allocated consumer's grace; a
 * passed deadline is requeued, a coming one is waited for. */
START_TEST(test_grace_and_deadlines)
{
	Gen g;
	SchedPlan *p;

	base(&g, 2, 1, 4);
	g.terms[0].owned = 4;
	g.terms[1].grace_period = 45;
	run(&g, 1, 0, 100);
	run(&g, 1, 0, 200);
	run(&g, 1, 0, 300)->reclaim_deadline = g.snap.now - 1;
	run(&g, 1, 0, 400)->reclaim_deadline = g.snap.now + 30;
	pend(&g, 0);
	pend(&g, 0);
	pend(&g, 0);
	p = sched_run(&g.snap);
	/* Two slots are coming back; one more is needed. */
	ck_assert_uint_eq(p->reclaims->len, 1);
	ck_assert_uint_eq(nth(p, 0)->job, 1);
	ck_assert_int_eq(nth(p, 0)->grace, 45);
	ck_assert_int_eq(nth(p, 0)->deadline, g.snap.now + 45);
	ck_assert_uint_eq(sched_plan_count(p, SCHED_DO_RECLAIM_REQUEUE), 1);
	ck_assert_uint_eq(sched_plan_count(p, SCHED_DO_RECLAIM_NOTICE), 1);
	ck_assert_int_eq(p->next_wake, g.snap.now + 30);
	for (guint i = 0; i < p->decisions->len; i++)
		if (sched_plan_decision(p, i)->kind == SCHED_DO_RECLAIM_REQUEUE)
			ck_assert_uint_eq(sched_plan_decision(p, i)->job, 2);
	sched_plan_free(p);
}
END_TEST

/* Generated flat plans: the invariants of the file's comment. */
START_TEST(test_invariants)
{
	const char *env = getenv("RECLAIM_SEED");
	guint32 seed = env != NULL ? (guint32)strtoul(env, NULL, 10) : 18;
	int runs = 0, with_reclaim = 0;

	rnd = g_rand_new_with_seed(seed);
	for (int iter = 0; iter < 3000; iter++) {
		Gen g;
		guint n_c = (guint)pick(2, MAX_C), n_h = (guint)pick(1, 4);
		int per = pick(1, 8), left[4];
		SchedPlan *p;
		g_autoptr(GArray) again = g_array_new(FALSE, FALSE, sizeof(SchedReclaim));
		int taken[MAX_C] = { 0 }, need = 0, idle = 0;
		gboolean seen[MAX_J] = { FALSE };

		base(&g, n_c, n_h, per);
		g.snap.reclaim.disable_hybrid_own = FALSE;
		g.snap.reclaim.criteria = (SchedReclaimCriteria)pick(0, 1);
		for (guint c = 0; c < n_c; c++) {
			g.terms[c].owned = pick(0, 6);
			g.terms[c].rank = pick(0, 3);
			g.terms[c].grace_period = pick(0, 2) * 30;
			g.queues[c].priority = pick(1, 3);
		}
		/* The group as large as the plan, or not. */
		g.rg.plan_slots = pick(0, 1) ? (int)n_h * per : pick(1, 30);
		for (guint h = 0; h < n_h; h++)
			left[h] = per;
		for (guint c = 0; c < n_c; c++) {
			int nr = pick(0, 6), np = pick(0, 5);

			for (int k = 0; k < nr && g.snap.n_running < MAX_J; k++) {
				guint h = (guint)pick(0, (int)n_h - 1);
				SchedRunning *r;

				if (left[h] == 0)
					continue;
				left[h]--;
				r = run(&g, c, h, pick(1, 5000));
				r->user_priority = pick(0, 2);
				if (pick(0, 9) == 0)
					r->reclaim_deadline = g.snap.now + pick(-200, 100);
			}
			for (int k = 0; k < np && g.snap.n_pending < MAX_J; k++)
				pend(&g, c);
		}
		p = sched_run(&g.snap);
		runs++;
		if (p->quotas == NULL) {
			sched_plan_free(p);
			continue;
		}
		for (guint k = 0; k < p->reclaims->len; k++) {
			const SchedReclaim *rc = nth(p, k);
			const SchedRunning *r = &g.snap.running[rc->job];

			ck_assert_msg(!seen[rc->job], "seed %u iter %d: job reclaimed twice",
			    seed, iter);
			seen[rc->job] = TRUE;
			ck_assert_msg(r->reclaim_deadline == 0, "seed %u iter %d: job "
			    "already under reclaim chosen again", seed, iter);
			ck_assert_int_eq(rc->from, (int)r->consumer - 1);
			ck_assert_int_eq(rc->slots, 1);
			ck_assert_int_eq(rc->deadline, g.snap.now + rc->grace);
			ck_assert_int_eq(rc->grace, g.terms[rc->from].grace_period);
			taken[rc->from]++;
		}
		for (guint c = 0; c < n_c; c++) {
			const SchedConsumerQuota *q = &p->quotas[c];
			int coming = 0;

			ck_assert_uint_eq(q->consumer, c);
			for (guint i = 0; i < g.snap.n_running; i++)
				if (g.snap.running[i].consumer == c + 1 &&
				    g.snap.running[i].reclaim_deadline != 0 &&
				    g.snap.now <= g.snap.running[i].reclaim_deadline +
				    SCHED_RECLAIM_LEEWAY)
					coming++;
			need += MAX(0, MIN(q->quota, q->demand) - q->alloc);
			ck_assert_msg(taken[c] <= MAX(0, q->alloc - q->quota - coming),
			    "seed %u iter %d: /c%u brought below its quota "
			    "(alloc %d quota %d coming %d taken %d)", seed, iter, c,
			    q->alloc, q->quota, coming, taken[c]);
		}
		{
			int used = 0, total = 0, coming = 0;

			for (guint i = 0; i < g.snap.n_running; i++) {
				used++;
				if (g.snap.running[i].reclaim_deadline != 0 &&
				    g.snap.now <= g.snap.running[i].reclaim_deadline +
				    SCHED_RECLAIM_LEEWAY)
					coming++;
			}
			for (guint i = 0; i < p->decisions->len; i++)
				if (sched_plan_decision(p, i)->kind == SCHED_DO_DISPATCH)
					used += (int)sched_plan_decision(p, i)->n_allocs;
			total = (int)n_h * per;
			idle = MAX(0, total - used);
			ck_assert_msg((int)p->reclaims->len <= MAX(0, need - idle - coming),
			    "seed %u iter %d: %u reclaimed, need %d idle %d coming %d",
			    seed, iter, p->reclaims->len, need, idle, coming);
		}
		ck_assert_uint_eq(sched_plan_count(p, SCHED_DO_RECLAIM_NOTICE),
		    p->reclaims->len);
		sched_reclaim_select(&g.snap, p, again);
		ck_assert_uint_eq(again->len, p->reclaims->len);
		for (guint k = 0; k < again->len; k++)
			ck_assert(memcmp(&g_array_index(again, SchedReclaim, k), nth(p, k),
			    sizeof(SchedReclaim)) == 0);
		with_reclaim += p->reclaims->len > 0;
		sched_plan_free(p);
	}
	/* The generator must exercise reclaim, not only its absence. */
	ck_assert_int_gt(with_reclaim, runs / 20);
	g_rand_free(rnd);
}
END_TEST

/* Generated flat plans on the first pass after a reconfig: a plan change
 * takes back every leaf's excess over its quota whether or not another
 * consumer asks (stage-reclaim.c, "At a plan transition"), never more,
 * and only jobs not already under reclaim. */
START_TEST(test_transition_invariants)
{
	const char *env = getenv("RECLAIM_SEED");
	guint32 seed = env != NULL ? (guint32)strtoul(env, NULL, 10) : 18;
	int with_excess = 0;

	rnd = g_rand_new_with_seed(seed);
	for (int iter = 0; iter < 2000; iter++) {
		Gen g;
		guint n_c = (guint)pick(2, MAX_C), n_h = (guint)pick(1, 4);
		int per = pick(1, 8), left[4];
		int taken[MAX_C] = { 0 }, free_jobs[MAX_C] = { 0 };
		SchedPlan *p;

		base(&g, n_c, n_h, per);
		g.snap.plan_reloaded = TRUE;
		g.rg.plan_changed = TRUE;
		g.snap.reclaim.disable_hybrid_own = FALSE;
		g.snap.reclaim.criteria = (SchedReclaimCriteria)pick(0, 1);
		for (guint c = 0; c < n_c; c++) {
			g.terms[c].owned = pick(0, 6);
			g.terms[c].rank = pick(0, 3);
			g.queues[c].priority = pick(1, 3);
		}
		g.rg.plan_slots = pick(0, 1) ? (int)n_h * per : pick(1, 30);
		for (guint h = 0; h < n_h; h++)
			left[h] = per;
		for (guint c = 0; c < n_c; c++) {
			int nr = pick(0, 6), np = pick(0, 2);

			for (int k = 0; k < nr && g.snap.n_running < MAX_J; k++) {
				guint h = (guint)pick(0, (int)n_h - 1);
				SchedRunning *r;

				if (left[h] == 0)
					continue;
				left[h]--;
				r = run(&g, c, h, pick(1, 5000));
				if (pick(0, 9) == 0)
					r->reclaim_deadline = g.snap.now + pick(-200, 100);
				else
					free_jobs[c]++;
			}
			for (int k = 0; k < np && g.snap.n_pending < MAX_J; k++)
				pend(&g, c);
		}
		p = sched_run(&g.snap);
		if (p->quotas == NULL) {
			sched_plan_free(p);
			continue;
		}
		for (guint k = 0; k < p->reclaims->len; k++) {
			ck_assert(g.snap.running[nth(p, k)->job].reclaim_deadline == 0);
			taken[nth(p, k)->from]++;
		}
		for (guint c = 0; c < n_c; c++) {
			const SchedConsumerQuota *q = &p->quotas[c];
			int coming = 0, excess;

			for (guint i = 0; i < g.snap.n_running; i++)
				if (g.snap.running[i].consumer == c + 1 &&
				    g.snap.running[i].reclaim_deadline != 0 &&
				    g.snap.now <= g.snap.running[i].reclaim_deadline +
				    SCHED_RECLAIM_LEEWAY)
					coming++;
			excess = MIN(free_jobs[c], MAX(0, q->alloc - q->quota - coming));
			with_excess += excess > 0;
			ck_assert_msg(taken[c] == excess, "seed %u iter %d: /c%u gave %d "
			    "back, its excess is %d (alloc %d quota %d coming %d)", seed,
			    iter, c, taken[c], excess, q->alloc, q->quota, coming);
		}
		sched_plan_free(p);
	}
	ck_assert_int_gt(with_excess, 100);
	g_rand_free(rnd);
}
END_TEST

/* The same plans after a reconfig that did not change the group's plan
 * (plan-reload.c: a queue's description, say): no plan change, so the
 * group keeps the demand-driven reclaim: never a job reclaimed for no
 * consumer, and never more than on the same pass had the plan changed,
 * which takes back strictly more in many of these. */
START_TEST(test_reconfig_unchanged_group)
{
	int fewer = 0;

	rnd = g_rand_new_with_seed(18);
	for (int iter = 0; iter < 1000; iter++) {
		Gen g;
		guint n_c = (guint)pick(2, MAX_C), n_h = (guint)pick(1, 4);
		int per = pick(1, 8), left[4];
		SchedPlan *same, *changed;

		base(&g, n_c, n_h, per);
		g.snap.plan_reloaded = TRUE;
		for (guint c = 0; c < n_c; c++) {
			g.terms[c].owned = pick(0, 6);
			g.terms[c].rank = pick(0, 3);
			/* Ownership without borrowing: a quota of at most its
			 * owned, whoever asks, so the excess is plain. */
			if (pick(0, 1)) {
				g.consumers[c].policy = g.terms[c].policy =
				    SCHED_POLICY_OWNERSHIP;
				g.terms[c].borrow_limit = 0;
			}
		}
		g.rg.plan_slots = pick(0, 1) ? (int)n_h * per : pick(1, 30);
		for (guint h = 0; h < n_h; h++)
			left[h] = per;
		for (guint c = 0; c < n_c; c++) {
			for (int k = 0, nr = pick(0, 6); k < nr && g.snap.n_running < MAX_J; k++) {
				guint h = (guint)pick(0, (int)n_h - 1);

				if (left[h] == 0)
					continue;
				left[h]--;
				run(&g, c, h, pick(1, 5000));
			}
			for (int k = 0, np = pick(0, 2); k < np && g.snap.n_pending < MAX_J; k++)
				pend(&g, c);
		}
		g.rg.plan_changed = FALSE;
		same = sched_run(&g.snap);
		g.rg.plan_changed = TRUE;
		changed = sched_run(&g.snap);
		for (guint k = 0; same->reclaims != NULL && k < same->reclaims->len; k++)
			ck_assert_msg(nth(same, k)->to >= 0, "iter %d: job %u reclaimed "
			    "for no one by a reconfig that left the plan alone", iter,
			    nth(same, k)->job);
		ck_assert_uint_le(same->reclaims != NULL ? same->reclaims->len : 0,
		    changed->reclaims != NULL ? changed->reclaims->len : 0);
		fewer += (same->reclaims != NULL ? same->reclaims->len : 0) <
		    (changed->reclaims != NULL ? changed->reclaims->len : 0);
		sched_plan_free(same);
		sched_plan_free(changed);
	}
	ck_assert_int_gt(fewer, 100);
	g_rand_free(rnd);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("reclaim");
	TCase *tc = tcase_create("selection");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_importance_then_recent);
	tcase_add_test(tc, test_grace_and_deadlines);
	tcase_add_test(tc, test_invariants);
	tcase_add_test(tc, test_transition_invariants);
	tcase_add_test(tc, test_reconfig_unchanged_group);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
