/*
 * Queue-based fairshare (mbatchd/sched/pool.c): every worked example of
 * lsf-reference 4.2 and decisions.md ("Queue-based fairshare") as its own
 * test, then redistribution, limits, MAX_SLOTS_IN_POOL, the decayed-usage
 * tie-break, USE_PRIORITY_IN_POOL, the dispatch order with queues outside
 * any pool, the pending reason and preemption next to pools.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched/sched.h"
#include "tap.h"

#define MAX_JOBS 512

typedef struct {
	SchedHost hosts[16];
	SchedQueue queues[16];
	SchedUser users[2];
	SchedPool pools[4];
	SchedJob jobs[MAX_JOBS];
	SchedRunning running[64];
	SchedAlloc run_allocs[64];
	SchedQueueHost qhosts[16][16];
	SchedQueueRef refs[4];
	SchedSnapshot snap;
	SchedPlan *plan;
	guint64 next_id;
} T;

static T t;

static void
setup(void)
{
	memset(&t, 0, sizeof t);
	t.snap.hosts = t.hosts;
	t.snap.queues = t.queues;
	t.snap.users = t.users;
	t.snap.pending = t.jobs;
	t.snap.running = t.running;
	t.snap.pools = t.pools;
	t.snap.now = 1000;
	t.users[0].name = "alice";
	t.users[0].max_jobs = SCHED_UNLIMITED;
	t.users[0].jl_p = -1;
	t.snap.n_users = 1;
	t.next_id = 1;
}

static void
teardown(void)
{
	sched_plan_free(t.plan);
}

static guint
host(const char *name, int mxj)
{
	SchedHost *h = &t.hosts[t.snap.n_hosts];

	h->name = name;
	h->max_slots = mxj;
	h->ncpus = 4;
	h->jl_u = SCHED_UNLIMITED;
	return t.snap.n_hosts++;
}

static guint
pool(const char *name)
{
	t.pools[t.snap.n_pools].name = name;
	return t.snap.n_pools++;
}

static guint
queue(const char *name, int prio)
{
	SchedQueue *q = &t.queues[t.snap.n_queues];

	q->name = name;
	q->priority = prio;
	q->dispatch_ok = TRUE;
	q->qjob_limit = q->ujob_limit = q->hjob_limit = SCHED_UNLIMITED;
	q->pjob_limit = -1;
	return t.snap.n_queues++;
}

static guint
pool_queue(const char *name, int prio, guint pl, int share)
{
	guint q = queue(name, prio);

	t.queues[q].in_pool = TRUE;
	t.queues[q].pool = pl;
	t.queues[q].slot_share = share;
	return q;
}

/* Restrict queue q to hosts [first, first + n). */
static void
queue_hosts(guint q, guint first, guint n)
{
	for (guint i = 0; i < n; i++)
		t.qhosts[q][i].host = first + i;
	t.queues[q].hosts = t.qhosts[q];
	t.queues[q].n_hosts = n;
}

static SchedJob *
job(guint q, int slots)
{
	SchedJob *j = &t.jobs[t.snap.n_pending++];

	ck_assert_uint_le(t.snap.n_pending, MAX_JOBS);
	j->id = t.next_id++;
	j->queue = q;
	j->min_slots = j->max_slots = slots;
	return j;
}

static void
jobs(guint q, int n)
{
	for (int i = 0; i < n; i++)
		job(q, 1);
}

static SchedRunning *
running(guint q, guint h, int slots)
{
	guint i = t.snap.n_running++;
	SchedRunning *r = &t.running[i];

	t.run_allocs[i].host = h;
	t.run_allocs[i].slots = slots;
	r->id = 10000 + i;
	r->queue = q;
	r->allocs = &t.run_allocs[i];
	r->n_allocs = 1;
	return r;
}

static void
run(void)
{
	sched_plan_free(t.plan);
	t.plan = sched_run(&t.snap);
}

/* Slots queue q holds after the plan: running before plus dispatched. */
static int
slots_of(guint q)
{
	int n = 0;

	for (guint i = 0; i < t.snap.n_running; i++)
		if (t.running[i].queue == q)
			for (guint a = 0; a < t.running[i].n_allocs; a++)
				n += t.running[i].allocs[a].slots;
	for (guint i = 0; i < t.plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(t.plan, i);

		if (d->kind != SCHED_DO_DISPATCH)
			continue;

		if (t.jobs[d->job].queue != q)
			continue;
		for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++)
			n += g_array_index(t.plan->allocs, SchedAlloc, a).slots;
	}
	return n;
}

/* "n1/n2/..." slots held by queues [0, n). */
static char *
held(guint n)
{
	GString *s = g_string_new(NULL);

	for (guint q = 0; q < n; q++)
		g_string_append_printf(s, "%s%d", q ? "/" : "", slots_of(q));
	return g_string_free(s, FALSE);
}

static char *
deserved(guint n)
{
	GString *s = g_string_new(NULL);

	ck_assert_uint_eq(t.plan->n_queues, t.snap.n_queues);
	for (guint q = 0; q < n; q++)
		g_string_append_printf(s, "%s%d", q ? "/" : "",
		    t.plan->queue_deserved[q]);
	return g_string_free(s, FALSE);
}

static void
expect_held(guint n, const char *want)
{
	char *got = held(n);

	ck_assert_str_eq(got, want);
	g_free(got);
}

static void
expect_deserved(guint n, const char *want)
{
	char *got = deserved(n);

	ck_assert_str_eq(got, want);
	g_free(got);
}

/* Queue names of the dispatches, in decision order, runs collapsed:
 * "q1 q2 q1" for q1 q1 q2 q1. */
static void
expect_order(const char *want)
{
	GString *s = g_string_new(NULL);
	const char *last = NULL;

	for (guint i = 0; i < t.plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(t.plan, i);

		if (d->kind != SCHED_DO_DISPATCH)
			continue;
		const char *name = t.queues[t.jobs[d->job].queue].name;

		if (name == last)
			continue;
		g_string_append_printf(s, "%s%s", s->len ? " " : "", name);
		last = name;
	}
	ck_assert_str_eq(s->str, want);
	g_string_free(s, TRUE);
}

static void
expect_reason(guint job_index, const char *want)
{
	char *got = sched_pending_format(&t.plan->pending[job_index]);

	ck_assert_str_eq(got, want);
	g_free(got);
}

/* The document's pool: queue1..3 at 50/30/20 on two hosts of 6 slots. */
static guint
three_queues_on_12(void)
{
	guint p = pool("poolA");

	host("hostA", 6);
	host("hostB", 6);
	pool_queue("queue1", 50, p, 50);
	pool_queue("queue2", 48, p, 30);
	pool_queue("queue3", 46, p, 20);
	return p;
}

/* Example 1: 6 (6.0), 4 (3.6 up), 2 (2.4 up to 3, but only 2 left). */
START_TEST(test_12_slots_50_30_20)
{
	three_queues_on_12();
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_held(3, "6/4/2");
	expect_deserved(3, "6/4/2");
	ck_assert_int_eq(t.plan->pool_slots[0], 12);
}
END_TEST

/* Example 2: queue4 outside the pool, lower priority, on the same hosts:
 * the pool still gets 6/4/2 and queue4 nothing. */
START_TEST(test_12_slots_with_queue4_outside)
{
	guint q4;

	three_queues_on_12();
	q4 = queue("queue4", 30);
	for (guint q = 0; q < 4; q++)
		jobs(q, 20);
	run();
	expect_held(4, "6/4/2/0");
	expect_deserved(4, "6/4/2/-1");
	expect_reason(3 * 20, "Job slot limit reached: 2 hosts;");
	(void)q4;
}
END_TEST

/* queue4's running slots shrink T: 10 slots give 5/3/2. */
START_TEST(test_queue4_running_shrinks_pool)
{
	guint q4;

	three_queues_on_12();
	q4 = queue("queue4", 30);
	running(q4, 0, 2);
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_held(4, "5/3/2/2");
	ck_assert_int_eq(t.plan->pool_slots[0], 10);
}
END_TEST

/* A higher-priority queue outside the pool dispatches all it can first;
 * the pool shares what it left (8: 4, 3, 1). */
START_TEST(test_outside_queue_of_higher_priority_first)
{
	guint q4;

	three_queues_on_12();
	q4 = queue("queue4", 60);
	jobs(q4, 4);
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_order("queue4 queue1 queue2 queue3");
	expect_held(4, "4/3/1/4");
	ck_assert_int_eq(t.plan->pool_slots[0], 8);
}
END_TEST

/* ... and when it takes everything, the pool queues stay pending. */
START_TEST(test_outside_queue_takes_everything)
{
	guint q4;

	three_queues_on_12();
	q4 = queue("queue4", 60);
	jobs(q4, 20);
	jobs(0, 1);
	run();
	expect_held(4, "0/0/0/12");
	expect_reason(20, "Queue's slot-pool share reached (pool poolA);");
}
END_TEST

static void
roma_verona_genova(int roma, int verona, int genova)
{
	guint p = pool("italy");

	for (int i = 0; i < 3; i++)
		host(i == 0 ? "h1" : i == 1 ? "h2" : "h3", 5);
	jobs(pool_queue("Roma", 50, p, 50), roma);
	jobs(pool_queue("Verona", 40, p, 30), verona);
	jobs(pool_queue("Genova", 30, p, 20), genova);
}

START_TEST(test_15_slots_all_busy)
{
	roma_verona_genova(30, 30, 30);
	run();
	expect_held(3, "8/5/2");
}
END_TEST

/* Roma 8 + Genova 3, leftover 4: Roma +2, Genova +1 (0.8 up), last 1 to
 * Roma: 11/4. */
START_TEST(test_15_slots_verona_idle)
{
	roma_verona_genova(30, 0, 30);
	run();
	expect_held(3, "11/0/4");
	expect_deserved(3, "11/0/4");
}
END_TEST

START_TEST(test_15_slots_only_genova)
{
	roma_verona_genova(0, 0, 30);
	run();
	expect_held(3, "0/0/15");
}
END_TEST

START_TEST(test_21_slots_50_30_20)
{
	guint p = pool("big");

	host("h1", 7);
	host("h2", 7);
	host("h3", 7);
	jobs(pool_queue("Livorno", 50, p, 50), 30);
	jobs(pool_queue("Palermo", 40, p, 30), 30);
	jobs(pool_queue("Pisa", 30, p, 20), 30);
	run();
	expect_held(3, "11/7/3");
}
END_TEST

static const char *const ten[] = {
	"q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9",
};

static void
ten_queues_of_21(void)
{
	guint p = pool("ten");

	host("h1", 7);
	host("h2", 7);
	host("h3", 7);
	for (guint i = 0; i < 10; i++)
		jobs(pool_queue(ten[i], 40, p, 10), 5);
}

/* 10 queues x 10 % of 21: 2.1 rounds up to 3, so seven queues get 3. */
START_TEST(test_10_queues_10_percent_of_21)
{
	ten_queues_of_21();
	run();
	expect_held(10, "3/3/3/3/3/3/3/0/0/0");
	expect_reason(7 * 5, "Queue's slot-pool share reached (pool ten);");
}
END_TEST

/* The decayed usage rotates them: queues that used more wait. */
START_TEST(test_decayed_usage_rotates_equal_queues)
{
	ten_queues_of_21();
	for (guint q = 0; q < 3; q++)
		t.queues[q].pool_usage = 100.0;
	run();
	expect_held(10, "0/0/0/3/3/3/3/3/3/3");
}
END_TEST

/* decisions.md: not largest remainder; 7 slots give 4, 3, 0. */
START_TEST(test_7_slots_ceil_not_largest_remainder)
{
	guint p = pool("seven");

	host("h1", 7);
	jobs(pool_queue("queue1", 50, p, 50), 10);
	jobs(pool_queue("queue2", 40, p, 30), 10);
	jobs(pool_queue("queue3", 30, p, 20), 10);
	run();
	expect_held(3, "4/3/0");
	expect_reason(20, "Queue's slot-pool share reached (pool seven);");
	expect_reason(4, "Queue's slot-pool share reached (pool seven);");
}
END_TEST

/* queue1 has nothing: queue2 4 + queue3 3, leftover 5 by shares (2, 1),
 * the last 2 to queue2: 8/4. */
START_TEST(test_drained_queue_leaves_its_share)
{
	three_queues_on_12();
	jobs(1, 20);
	jobs(2, 20);
	run();
	expect_held(3, "0/8/4");
}
END_TEST

/* After a pass at 6/4/2, queue1 drains: the next pass, from the jobs
 * still running, gives its 6 slots to queue2 and queue3 (8/4). */
START_TEST(test_drain_between_passes)
{
	three_queues_on_12();
	for (int i = 0; i < 4; i++)
		running(1, (guint)i % 2, 1);
	for (int i = 0; i < 2; i++)
		running(2, (guint)i % 2, 1);
	jobs(1, 20);
	jobs(2, 20);
	run();
	expect_deserved(3, "0/8/4");
	expect_held(3, "0/8/4");
}
END_TEST

/* QJOB_LIMIT 2 on queue1: 2, then queue2 4 and queue3 3 (10 were left),
 * the leftover 3 by shares (1, 1) and the last to queue2: 2/6/4. */
START_TEST(test_queue_limit_redistributes)
{
	three_queues_on_12();
	t.queues[0].qjob_limit = 2;
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_held(3, "2/6/4");
	expect_reason(2, "The queue has reached its job slot limit;");
}
END_TEST

/* HJOB_LIMIT 1 on queue1's two hosts caps its entitlement at 2 the same
 * way.  (Which hosts the other queues fill first is placement, not
 * entitlement, so only the entitlement is checked.) */
START_TEST(test_host_limit_redistributes)
{
	three_queues_on_12();
	t.queues[0].hjob_limit = 1;
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_deserved(3, "2/6/4");
}
END_TEST

START_TEST(test_max_slots_in_pool_bounds_t)
{
	guint p = three_queues_on_12();

	t.pools[p].max_slots = 10;
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_held(3, "5/3/2");
	ck_assert_int_eq(t.plan->pool_slots[p], 10);
}
END_TEST

/* Queues over their share keep their jobs (no preemption) and get no
 * more; a queue below it gets only up to it. */
START_TEST(test_soft_share_no_preemption)
{
	three_queues_on_12();
	for (int i = 0; i < 10; i++)
		running(2, (guint)i % 2, 1);
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_deserved(3, "6/4/2");
	expect_held(3, "2/0/10");
	ck_assert_uint_eq((sched_plan_count(t.plan, SCHED_DO_PREEMPT_SUSPEND) + sched_plan_count(t.plan, SCHED_DO_PREEMPT_TERMINATE)), 0);
}
END_TEST

/* Inside a pool the queue furthest below its entitlement goes first. */
START_TEST(test_deficit_orders_pool_queues)
{
	three_queues_on_12();
	for (int i = 0; i < 4; i++)
		running(0, 0, 1);
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	/* Deficits: queue1 6-4 = 2, queue2 4, queue3 2 (tie: priority). */
	expect_order("queue2 queue1 queue3");
	expect_held(3, "6/4/2");
}
END_TEST

/* Equal deficits: lower decayed usage per share first. */
START_TEST(test_usage_breaks_deficit_ties)
{
	guint p = pool("even");

	host("h1", 4);
	jobs(pool_queue("a", 40, p, 50), 5);
	jobs(pool_queue("b", 40, p, 50), 5);
	t.queues[0].pool_usage = 30.0;
	t.queues[1].pool_usage = 10.0;
	run();
	expect_order("b a");
	expect_held(2, "2/2");
}
END_TEST

/* Usage per share: 30 used of 60 % is less than 20 of 20 %. */
START_TEST(test_usage_is_per_share)
{
	guint p = pool("even");

	host("h1", 3);
	jobs(pool_queue("a", 40, p, 20), 5);
	jobs(pool_queue("b", 40, p, 60), 5);
	t.queues[0].pool_usage = 20.0;
	t.queues[1].pool_usage = 30.0;
	run();
	/* b first: ceil(1.8) = 2; a: ceil(0.6) = 1. */
	expect_deserved(2, "1/2");
	expect_order("b a");
}
END_TEST

/* USE_PRIORITY_IN_POOL: slots no share could use go to pending pool jobs
 * by priority.  queue1's 3-slot job does not fit its 2; queue2 takes the
 * 2 slots left over. */
static void
priority_in_pool(gboolean use)
{
	guint p = pool("prio");

	host("h1", 4);
	t.pools[p].use_priority = use;
	job(pool_queue("queue1", 50, p, 50), 3);
	jobs(pool_queue("queue2", 40, p, 50), 10);
	run();
}

START_TEST(test_without_use_priority_slots_stay_free)
{
	priority_in_pool(FALSE);
	expect_deserved(2, "2/2");
	expect_held(2, "0/2");
	expect_reason(0, "Queue's slot-pool share reached (pool prio);");
}
END_TEST

START_TEST(test_use_priority_in_pool)
{
	priority_in_pool(TRUE);
	expect_held(2, "0/4");
	expect_reason(0, "Queue's slot-pool share reached (pool prio);");
	expect_reason(5, "Queue's slot-pool share reached (pool prio);");
}
END_TEST

/* ... and the leftover goes by priority, not by share. */
START_TEST(test_use_priority_goes_by_priority)
{
	guint p = pool("prio"), a, b;

	host("h1", 6);
	t.pools[p].use_priority = TRUE;
	t.pools[p].max_slots = 0;
	a = pool_queue("low", 10, p, 50);
	b = pool_queue("high", 50, p, 50);
	job(a, 4);      /* share 3: does not fit */
	job(b, 4);      /* share 3: does not fit */
	jobs(a, 1);
	jobs(b, 1);
	run();
	/* Share round: each queue's 1-slot job; then by priority the 4-slot
	 * job of "high" takes the 4 slots left. */
	expect_held(2, "1/5");
}
END_TEST

/* The document's order: q1 -> q2 -> q3 -> q4 -> q5 -> q6 -> q7 -> q8 with
 * q4 and q5 outside the two pools. */
START_TEST(test_dispatch_order_merges_outside_queues)
{
	guint a = pool("A"), b = pool("B");
	static const char *const names[] = {
		"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8",
	};

	host("h1", 100);
	for (guint i = 0; i < 8; i++) {
		int prio = 80 - 5 * (int)i;
		guint q = i < 3 ? pool_queue(names[i], prio, a, 30) :
		    i < 5 ? queue(names[i], prio) :
		    pool_queue(names[i], prio, b, 30);

		(void)q;
	}
	/* Submitted lowest first, so the order is not the snapshot's. */
	for (gint i = 7; i >= 0; i--)
		jobs((guint)i, 1);
	run();
	expect_order("q1 q2 q3 q4 q5 q6 q7 q8");
}
END_TEST

/* A pool takes its turn where its highest-priority queue is, even for
 * its low queue's jobs. */
START_TEST(test_pool_placed_at_its_highest_queue)
{
	guint p = pool("A"), hi, lo, mid;

	host("h1", 10);
	hi = pool_queue("hi", 60, p, 50);
	lo = pool_queue("lo", 10, p, 50);
	mid = queue("mid", 50);
	jobs(mid, 2);
	jobs(lo, 2);
	jobs(hi, 2);
	run();
	expect_order("hi lo mid");
	expect_held(3, "2/2/2");
}
END_TEST

/* A non-pool queue of lower priority gets what the pool leaves, all of
 * it. */
START_TEST(test_outside_queue_dispatches_all_it_can)
{
	guint q4;

	three_queues_on_12();
	t.hosts[0].max_slots = 20;
	q4 = queue("queue4", 10);
	jobs(0, 3);
	jobs(q4, 30);
	run();
	expect_held(4, "3/0/0/23");
}
END_TEST

/* Parallel jobs count their slots against the share. */
START_TEST(test_parallel_jobs_fit_the_share)
{
	three_queues_on_12();
	job(0, 4);
	job(0, 4);
	job(1, 2);
	job(1, 2);
	job(1, 2);
	jobs(2, 5);
	run();
	/* Demand 8/6/5: 6, 4, 2 by share; queue1's second 4-slot job does
	 * not fit its 6. */
	expect_held(3, "4/4/2");
	expect_reason(1, "Queue's slot-pool share reached (pool poolA);");
}
END_TEST

/* Held and waiting jobs are no demand: their share goes to the others. */
START_TEST(test_held_jobs_are_not_demand)
{
	three_queues_on_12();
	for (int i = 0; i < 5; i++)
		job(0, 1)->held = TRUE;
	jobs(1, 20);
	jobs(2, 20);
	run();
	expect_held(3, "0/8/4");
	expect_reason(0, "The job was suspended by the user while pending;");
}
END_TEST

/* Two pools on their own hosts are independent. */
START_TEST(test_two_pools)
{
	guint a = pool("A"), b = pool("B"), q;

	host("h1", 10);
	host("h2", 4);
	q = pool_queue("a1", 50, a, 70);
	queue_hosts(q, 0, 1);
	jobs(q, 20);
	q = pool_queue("a2", 40, a, 30);
	queue_hosts(q, 0, 1);
	jobs(q, 20);
	q = pool_queue("b1", 45, b, 50);
	queue_hosts(q, 1, 1);
	jobs(q, 20);
	q = pool_queue("b2", 35, b, 50);
	queue_hosts(q, 1, 1);
	jobs(q, 20);
	run();
	expect_held(4, "7/3/2/2");
	ck_assert_int_eq(t.plan->pool_slots[a], 10);
	ck_assert_int_eq(t.plan->pool_slots[b], 4);
}
END_TEST

/* A closed host brings no free slots to T. */
START_TEST(test_closed_host_not_in_t)
{
	three_queues_on_12();
	t.hosts[1].state = SCHED_HOST_CLOSED_ADM;
	for (guint q = 0; q < 3; q++)
		jobs(q, 20);
	run();
	expect_held(3, "3/2/1");
	ck_assert_int_eq(t.plan->pool_slots[0], 6);
}
END_TEST

/* Shares under 100 % leave leftover, handed out by the same rule. */
START_TEST(test_shares_under_100)
{
	guint p = pool("part");

	host("h1", 10);
	jobs(pool_queue("a", 50, p, 40), 20);
	jobs(pool_queue("b", 40, p, 20), 20);
	run();
	/* 4 + 2, leftover 4: a ceil(1.6) = 2, b ceil(0.8) = 1, last 1 to a. */
	expect_held(2, "7/3");
}
END_TEST

/* No pools: deserved is -1 everywhere and nothing changes. */
START_TEST(test_no_pools_no_change)
{
	guint q1, q2;

	host("h1", 3);
	q1 = queue("low", 10);
	q2 = queue("high", 50);
	jobs(q1, 3);
	jobs(q2, 2);
	run();
	expect_held(2, "1/2");
	expect_order("high low");
	expect_deserved(2, "-1/-1");
	ck_assert_uint_eq(t.plan->n_pools, 0);
}
END_TEST

/* A pool with nothing pending still shows its entitlements. */
START_TEST(test_deserved_without_pending)
{
	three_queues_on_12();
	running(0, 0, 3);
	run();
	expect_deserved(3, "3/0/0");
	ck_assert_int_eq(t.plan->pool_slots[0], 12);
}
END_TEST

/* Preemption between queues outside the pool works beside a pool. */
START_TEST(test_preemption_beside_a_pool)
{
	guint p = pool("A"), hi, lo, q;

	host("h1", 6);
	host("h2", 2);
	hi = queue("urgent", 90);
	lo = queue("idle", 5);
	queue_hosts(hi, 1, 1);
	queue_hosts(lo, 1, 1);
	t.refs[0].queue = lo;
	t.queues[hi].preemptive = TRUE;
	t.queues[hi].preemptive_queues = t.refs;
	t.queues[hi].n_preemptive_queues = 1;
	t.queues[lo].preemptable = TRUE;
	running(lo, 1, 1);
	running(lo, 1, 1);
	q = pool_queue("p1", 50, p, 50);
	queue_hosts(q, 0, 1);
	jobs(q, 10);
	q = pool_queue("p2", 40, p, 50);
	queue_hosts(q, 0, 1);
	jobs(q, 10);
	jobs(hi, 1);
	run();
	ck_assert_uint_eq((sched_plan_count(t.plan, SCHED_DO_PREEMPT_SUSPEND) + sched_plan_count(t.plan, SCHED_DO_PREEMPT_TERMINATE)), 1);
	ck_assert_int_eq(slots_of(2), 3);
	ck_assert_int_eq(slots_of(3), 3);
}
END_TEST

/* A bare PREEMPTIVE queue does not reach into a pool: its job waits
 * rather than suspend a pool queue's job. */
START_TEST(test_bare_preemptive_spares_pool_queues)
{
	guint p = pool("A"), hi, q;

	host("h1", 2);
	hi = queue("urgent", 90);
	queue_hosts(hi, 0, 1);
	t.queues[hi].preemptive = TRUE;
	q = pool_queue("p1", 50, p, 100);
	queue_hosts(q, 0, 1);
	running(q, 0, 1);
	running(q, 0, 1);
	jobs(hi, 1);
	run();
	ck_assert_uint_eq((sched_plan_count(t.plan, SCHED_DO_PREEMPT_SUSPEND) + sched_plan_count(t.plan, SCHED_DO_PREEMPT_TERMINATE)), 0);
	ck_assert_uint_eq(sched_plan_count(t.plan, SCHED_DO_DISPATCH), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("pool");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_12_slots_50_30_20);
	tcase_add_test(tc, test_bare_preemptive_spares_pool_queues);
	tcase_add_test(tc, test_12_slots_with_queue4_outside);
	tcase_add_test(tc, test_queue4_running_shrinks_pool);
	tcase_add_test(tc, test_outside_queue_of_higher_priority_first);
	tcase_add_test(tc, test_outside_queue_takes_everything);
	tcase_add_test(tc, test_15_slots_all_busy);
	tcase_add_test(tc, test_15_slots_verona_idle);
	tcase_add_test(tc, test_15_slots_only_genova);
	tcase_add_test(tc, test_21_slots_50_30_20);
	tcase_add_test(tc, test_10_queues_10_percent_of_21);
	tcase_add_test(tc, test_decayed_usage_rotates_equal_queues);
	tcase_add_test(tc, test_7_slots_ceil_not_largest_remainder);
	tcase_add_test(tc, test_drained_queue_leaves_its_share);
	tcase_add_test(tc, test_drain_between_passes);
	tcase_add_test(tc, test_queue_limit_redistributes);
	tcase_add_test(tc, test_host_limit_redistributes);
	tcase_add_test(tc, test_max_slots_in_pool_bounds_t);
	tcase_add_test(tc, test_soft_share_no_preemption);
	tcase_add_test(tc, test_deficit_orders_pool_queues);
	tcase_add_test(tc, test_usage_breaks_deficit_ties);
	tcase_add_test(tc, test_usage_is_per_share);
	tcase_add_test(tc, test_without_use_priority_slots_stay_free);
	tcase_add_test(tc, test_use_priority_in_pool);
	tcase_add_test(tc, test_use_priority_goes_by_priority);
	tcase_add_test(tc, test_dispatch_order_merges_outside_queues);
	tcase_add_test(tc, test_pool_placed_at_its_highest_queue);
	tcase_add_test(tc, test_outside_queue_dispatches_all_it_can);
	tcase_add_test(tc, test_parallel_jobs_fit_the_share);
	tcase_add_test(tc, test_held_jobs_are_not_demand);
	tcase_add_test(tc, test_two_pools);
	tcase_add_test(tc, test_closed_host_not_in_t);
	tcase_add_test(tc, test_shares_under_100);
	tcase_add_test(tc, test_no_pools_no_change);
	tcase_add_test(tc, test_deserved_without_pending);
	tcase_add_test(tc, test_preemption_beside_a_pool);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
