/*
 * Queue-based fairshare over time: the real scheduler (sched_run) run
 * pass after pass on a simulated cluster where every pool queue is
 * flooded with short jobs, decayed usage kept the way mbatchd keeps it
 * (mbatchd/mbd-usage.c: halve every half-life, add slots x seconds run).
 * decisions.md: over a few half-lives each queue's slot-time must come
 * within one slot of its share of the pool.  A single pass cannot show
 * that (7 slots at 50/30/20 give 4/3/0 each time usage is balanced), so
 * this is a loop, not a scenario file.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mbatchd/sched/sched.h"
#include "tap.h"

#define MAX_Q 10
#define JOBS_PER_Q 30       /* pending per queue per pass: always flooded */
#define JOB_SECONDS 2
#define HALF_LIFE 20.0      /* seconds */
#define WARMUP 200          /* passes (seconds), 10 half-lives */
#define MEASURE 200

typedef struct {
	guint queue;
	gint64 end;
	SchedAlloc alloc;
} Job;

typedef struct {
	SchedHost host;
	SchedQueue queues[MAX_Q];
	SchedPool pool;
	SchedUser user;
	SchedJob pending[MAX_Q * JOBS_PER_Q];
	GArray *jobs;             /* Job, running */
	guint n_queues;
	double usage[MAX_Q];
	double held_time[MAX_Q];  /* slots x seconds over the measured passes */
	guint64 next_id;
} Sim;

static const char *const names[MAX_Q] = {
	"q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9",
};

static void
sim_init(Sim *s, int slots, const int *shares, const int *prios, guint n)
{
	memset(s, 0, sizeof *s);
	s->host.name = "h1";
	s->host.max_slots = slots;
	s->host.ncpus = slots;
	s->host.jl_u = SCHED_UNLIMITED;
	s->pool.name = "p";
	s->user.name = "u";
	s->user.max_jobs = SCHED_UNLIMITED;
	s->user.jl_p = -1;
	s->n_queues = n;
	for (guint q = 0; q < n; q++) {
		SchedQueue *sq = &s->queues[q];

		sq->name = names[q];
		sq->priority = prios[q];
		sq->dispatch_ok = TRUE;
		sq->qjob_limit = sq->ujob_limit = sq->hjob_limit = SCHED_UNLIMITED;
		sq->pjob_limit = -1;
		sq->in_pool = TRUE;
		sq->pool = 0;
		sq->slot_share = shares[q];
	}
	s->jobs = g_array_new(FALSE, FALSE, sizeof(Job));
	s->next_id = 1;
}

/* One second: jobs end, usage decays, one pass starts jobs, and what runs
 * then adds to usage. */
static void
sim_tick(Sim *s, gint64 now, gboolean measure)
{
	double f = pow(0.5, 1.0 / HALF_LIFE);
	SchedRunning *run = g_new0(SchedRunning, s->jobs->len + 1);
	SchedSnapshot snap = { 0 };
	SchedPlan *plan;
	guint n = 0;

	for (guint i = 0; i < s->jobs->len;) {
		if (g_array_index(s->jobs, Job, i).end <= now) {
			g_array_remove_index_fast(s->jobs, i);
			continue;
		}
		i++;
	}
	for (guint q = 0; q < s->n_queues; q++)
		s->usage[q] *= f;
	for (guint i = 0; i < s->jobs->len; i++) {
		Job *j = &g_array_index(s->jobs, Job, i);

		run[i].id = s->next_id++;
		run[i].queue = j->queue;
		run[i].allocs = &j->alloc;
		run[i].n_allocs = 1;
		run[i].start_time = j->end - JOB_SECONDS;
	}
	for (guint q = 0; q < s->n_queues; q++) {
		s->queues[q].pool_usage = s->usage[q];
		for (guint k = 0; k < JOBS_PER_Q; k++, n++) {
			memset(&s->pending[n], 0, sizeof s->pending[n]);
			s->pending[n].id = s->next_id++;
			s->pending[n].queue = q;
			s->pending[n].min_slots = s->pending[n].max_slots = 1;
		}
	}
	snap.hosts = &s->host;
	snap.n_hosts = 1;
	snap.queues = s->queues;
	snap.n_queues = s->n_queues;
	snap.users = &s->user;
	snap.n_users = 1;
	snap.running = run;
	snap.n_running = s->jobs->len;
	snap.pending = s->pending;
	snap.n_pending = n;
	snap.now = now;
	snap.pools = &s->pool;
	snap.n_pools = 1;
	plan = sched_run(&snap);
	for (guint i = 0; i < plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(plan, i);
		Job j;

		if (d->kind != SCHED_DO_DISPATCH)
			continue;
		ck_assert_uint_eq(d->n_allocs, 1);
		j.queue = s->pending[d->job].queue;
		j.end = now + JOB_SECONDS;
		j.alloc = g_array_index(plan->allocs, SchedAlloc, d->first_alloc);
		g_array_append_val(s->jobs, j);
	}
	sched_plan_free(plan);
	g_free(run);
	/* What runs now runs for the coming second. */
	for (guint i = 0; i < s->jobs->len; i++) {
		const Job *j = &g_array_index(s->jobs, Job, i);

		s->usage[j->queue] += j->alloc.slots;
		if (measure)
			s->held_time[j->queue] += j->alloc.slots;
	}
}

static void
check_shares(int slots, const int *shares, const int *prios, guint n)
{
	Sim s;
	gint64 now = 1000;

	sim_init(&s, slots, shares, prios, n);
	for (int i = 0; i < WARMUP; i++)
		sim_tick(&s, now++, FALSE);
	for (int i = 0; i < MEASURE; i++)
		sim_tick(&s, now++, TRUE);
	for (guint q = 0; q < n; q++) {
		double got = s.held_time[q] / MEASURE;
		double want = slots * shares[q] / 100.0;

		ck_assert_msg(fabs(got - want) <= 1.0,
		    "%d slots: queue %u of share %d held %.2f slots on average, "
		    "its share is %.2f", slots, q, shares[q], got, want);
	}
	g_array_free(s.jobs, TRUE);
}

/* The case: at 7 slots the ceil rule gives 4/3/0 on every
 * balanced pass; queue3 ran nothing in 30 s. */
START_TEST(test_7_slots_no_queue_starves)
{
	static const int shares[] = { 50, 30, 20 }, prios[] = { 50, 40, 30 };

	check_shares(7, shares, prios, 3);
}
END_TEST

START_TEST(test_12_slots_fractional_shares)
{
	static const int shares[] = { 50, 30, 20 }, prios[] = { 50, 40, 30 };

	check_shares(12, shares, prios, 3);
}
END_TEST

/* 3 slots at 60/30/10: queue3's share is a third of a slot. */
START_TEST(test_3_slots_small_share)
{
	static const int shares[] = { 60, 30, 10 }, prios[] = { 50, 40, 30 };

	check_shares(3, shares, prios, 3);
}
END_TEST

/* Ten queues of 10 % on 21 slots: the ceil rule gives seven of them 3
 * and three none on a balanced pass. */
START_TEST(test_21_slots_ten_queues)
{
	static const int shares[] = { 10, 10, 10, 10, 10, 10, 10, 10, 10, 10 };
	static const int prios[] = { 40, 40, 40, 40, 40, 40, 40, 40, 40, 40 };

	check_shares(21, shares, prios, 10);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("pool_usage");
	TCase *tc = tcase_create("over_time");

	tcase_add_test(tc, test_7_slots_no_queue_starves);
	tcase_add_test(tc, test_12_slots_fractional_shares);
	tcase_add_test(tc, test_3_slots_small_share);
	tcase_add_test(tc, test_21_slots_ten_queues);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
