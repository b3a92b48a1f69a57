/*
 * What the policy scenarios (tests/sched) cannot see: the plan's internal
 * records.  Queue priority, FCFS, limits, spans, host choice, -R select[]
 * and the pending reasons are scenario files now; here a snapshot is built
 * by hand to check that a started job's pending entry stays clear.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched/sched.h"
#include "tap.h"

typedef struct {
	SchedHost hosts[16];
	SchedQueue queues[8];
	SchedUser users[8];
	SchedGroup groups[4];
	SchedJob jobs[64];
	SchedSnapshot snap;
	SchedPlan *plan;
} T;

static T t;

static void
setup(void)
{
	memset(&t, 0, sizeof t);
	t.snap.hosts = t.hosts;
	t.snap.queues = t.queues;
	t.snap.users = t.users;
	t.snap.groups = t.groups;
	t.snap.pending = t.jobs;
	t.snap.now = 1000;
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
user(const char *name)
{
	SchedUser *u = &t.users[t.snap.n_users];

	u->name = name;
	u->max_jobs = SCHED_UNLIMITED;
	u->jl_p = -1;
	return t.snap.n_users++;
}

static SchedJob *
job(guint64 id, guint q, guint u, int slots)
{
	SchedJob *j = &t.jobs[t.snap.n_pending++];

	memset(j, 0, sizeof *j);
	j->id = id;
	j->queue = q;
	j->user = u;
	j->min_slots = j->max_slots = slots;
	return j;
}

static void
run(void)
{
	sched_plan_free(t.plan);
	t.plan = sched_run(&t.snap);
}

/* "id@host*slots ..." for every dispatch, in decision order. */
static char *
dispatched(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(t.plan, i);

		if (d->kind != SCHED_DO_DISPATCH)
			continue;
		for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++) {
			SchedAlloc *al = &g_array_index(t.plan->allocs, SchedAlloc, a);

			g_string_append_printf(s, "%s%" G_GUINT64_FORMAT "@%s*%d",
			    s->len ? " " : "", t.jobs[d->job].id,
			    t.hosts[al->host].name, al->slots);
		}
	}
	return g_string_free(s, FALSE);
}

static void
expect(const char *want)
{
	char *got = dispatched();

	ck_assert_str_eq(got, want);
	g_free(got);
}

static void
expect_reason(guint job_index, const char *want)
{
	char *got = sched_pending_format(&t.plan->pending[job_index]);

	ck_assert_str_eq(got, want);
	g_free(got);
}

/*
 * The pass looks host by host only at the hosts still open for a queue
 * (mbatchd/sched/open.c); hosts that are down, full, or at the queue's own
 * host limit are counted by reason wholesale.  These check that the counts
 * stay those of a host-by-host look as hosts close during the pass.
 */
START_TEST(test_host_fills_mid_pass)
{
	guint q = queue("normal", 30), a = user("alice"), b = user("bob");
	guint c = user("carol"), ha = host("hA", 1);
	guint hb = host("hB", 2), hc = host("hC", 4), hd = host("hD", 4);

	t.hosts[hb].r15s = 1.0;
	t.hosts[hc].state = SCHED_HOST_CLOSED_ADM;
	t.hosts[hd].state = SCHED_HOST_UNAVAIL;
	(void)ha;
	job(1, q, a, 1);    /* fills hA */
	job(2, q, b, 2);    /* fills hB */
	job(3, q, c, 1);    /* another shape: looks again */
	job(4, q, a, 1);
	run();
	expect("1@hA*1 2@hB*2");
	expect_reason(2, "Closed by LSF administrator: 1 host;\n"
	    "Host is unavailable: 1 host;\n"
	    "Job slot limit reached: 2 hosts;");
	expect_reason(3, "Closed by LSF administrator: 1 host;\n"
	    "Host is unavailable: 1 host;\n"
	    "Job slot limit reached: 2 hosts;");
	/* A started job's entry says nothing of the hosts passed over. */
	ck_assert_int_eq(t.plan->pending[1].reason, SCHED_PEND_NONE);
	for (guint r = 0; r < _SCHED_HR_MAX; r++)
		ck_assert_uint_eq(t.plan->pending[1].host_counts[r], 0);
}
END_TEST

/*
 * lsb.resources limits outside a pass: sched_limits_usage() (blimits)
 * and sched_limits_queue_room() (the slot-pool count) read what the
 * running jobs hold, by the stage's own counting.
 */
START_TEST(test_limits_usage_and_queue_room)
{
	guint qn = queue("normal", 30), qs = queue("short", 20);
	guint a = user("alice"), b = user("bob"), h = host("hA", 8);
	static guint per_queue[2] = { 1, 2 };    /* PER_QUEUE = all */
	static guint users_ab[2] = { 1, 1 };     /* USERS = alice bob */
	static const char *qnames[3] = { "", "normal", "short" };
	SchedAlloc al[3] = { { h, 2 }, { h, 1 }, { h, 1 } };
	SchedRunning r[3] = { { 0 } };
	SchedLimit lim[2] = { { 0 } };
	GArray *rows;

	for (guint i = 0; i < 3; i++) {
		r[i].id = 100 + i;
		r[i].queue = i == 2 ? qs : qn;
		r[i].user = i == 0 ? a : b;
		r[i].allocs = &al[i];
		r[i].n_allocs = 1;
	}
	r[2].state = SCHED_RUN_USUSP;
	t.snap.running = r;
	t.snap.n_running = 3;
	for (guint i = 0; i < 2; i++) {
		lim[i].slots = SCHED_UNLIMITED;
		lim[i].jobs = SCHED_UNLIMITED;
		lim[i].slots_per_proc = lim[i].mem = lim[i].swp = lim[i].tmp = -1;
	}
	lim[0].name = "perq";
	lim[0].bucket[SCHED_LIM_QUEUE] = per_queue;
	lim[0].n_buckets[SCHED_LIM_QUEUE] = 2;
	lim[0].per[SCHED_LIM_QUEUE] = TRUE;
	lim[0].bucket_names[SCHED_LIM_QUEUE] = qnames;
	lim[0].slots = 5;
	lim[1].name = "ab";
	lim[1].bucket[SCHED_LIM_USER] = users_ab;
	lim[1].n_buckets[SCHED_LIM_USER] = 1;
	lim[1].jobs = 4;
	t.snap.limits = lim;
	t.snap.n_limits = 2;

	rows = sched_limits_usage(&t.snap);
	ck_assert_uint_eq(rows->len, 3);
	for (guint i = 0; i < rows->len; i++) {
		const SchedLimitUsage *u = &g_array_index(rows, SchedLimitUsage, i);

		if (u->limit == 1) {
			/* Suspended jobs count: no preemption configured. */
			ck_assert_int_eq(u->jobs_used, 3);
			ck_assert_int_eq(u->jobs_max, 4);
			ck_assert_int_eq(u->slots_used, -1);
			ck_assert_ptr_null(u->member[SCHED_LIM_USER]);
		} else if (strcmp(u->member[SCHED_LIM_QUEUE], "normal") == 0) {
			ck_assert_int_eq(u->slots_used, 3);
			ck_assert_int_eq(u->slots_max, 5);
		} else {
			ck_assert_str_eq(u->member[SCHED_LIM_QUEUE], "short");
			ck_assert_int_eq(u->slots_used, 1);
		}
	}
	sched_limits_usage_free(rows);
	/* "ab" names users, so it binds no whole queue; perq does. */
	ck_assert_int_eq(sched_limits_queue_room(&t.snap, qn), 2);
	ck_assert_int_eq(sched_limits_queue_room(&t.snap, qs), 4);
	t.snap.n_limits = 0;
	ck_assert_int_eq(sched_limits_queue_room(&t.snap, qn), G_MAXINT);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("open");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_host_fills_mid_pass);
	tcase_add_test(tc, test_limits_usage_and_queue_room);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
