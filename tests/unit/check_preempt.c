/*
 * Preemptive scheduling in the pure pass (mbatchd/sched/preempt.c,
 * resume.c, count.c): the acceptance scenarios P1-P7 of lsf-reference.md
 * 4.1, the three PREEMPTION forms, victim order, PREEMPT_FOR, MAX_JOB_PREEMPT,
 * TERMINATE_WHEN=PREEMPT and resume.  Each test builds a small snapshot by
 * hand and checks the plan as strings:
 *   dispatched()  "job@host*slots ..."
 *   preempted()   "victim>preemptor ..." ("victim!>..." when terminated)
 *   resumed()     "job ..."
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched/sched.h"
#include "tap.h"

typedef struct {
	SchedHost hosts[16];
	SchedQueue queues[8];
	SchedQueueRef refs[8][4];       /* PREEMPTIVE lists */
	SchedQueueRef refs_by[8][4];    /* PREEMPTABLE lists */
	SchedUser users[8];
	SchedGroup groups[4];
	guint user_groups[8][2];
	SchedJob jobs[32];
	SchedRunning running[32];
	SchedAlloc run_allocs[32][2];
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
	t.snap.running = t.running;
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

/* PREEMPTIVE[target+pref ...]; pref < 0 writes no "+N". */
static void
preemptive(guint q, guint target, int pref)
{
	SchedQueue *sq = &t.queues[q];
	SchedQueueRef *r = &t.refs[q][sq->n_preemptive_queues++];

	sq->preemptive = TRUE;
	sq->preemptive_queues = t.refs[q];
	r->queue = target;
	r->pref = pref < 0 ? 0 : pref;
	r->has_pref = pref >= 0;
}

/* PREEMPTABLE[by ...] */
static void
preemptable_by(guint q, guint by)
{
	SchedQueue *sq = &t.queues[q];
	SchedQueueRef *r = &t.refs_by[q][sq->n_preemptable_queues++];

	sq->preemptable = TRUE;
	sq->preemptable_queues = t.refs_by[q];
	r->queue = by;
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

static guint
group(const char *name, guint a, guint b)
{
	guint g = t.snap.n_groups++;
	guint members[] = { a, b };

	t.groups[g].name = name;
	t.groups[g].max_jobs = SCHED_UNLIMITED;
	for (guint i = 0; i < 2; i++) {
		SchedUser *u = &t.users[members[i]];

		t.user_groups[members[i]][u->n_groups++] = g;
		u->groups = t.user_groups[members[i]];
	}
	return g;
}

static SchedJob *
job(guint64 id, guint q, guint u, int slots)
{
	SchedJob *j = &t.jobs[t.snap.n_pending++];

	j->id = id;
	j->queue = q;
	j->user = u;
	j->min_slots = j->max_slots = slots;
	return j;
}

static SchedRunning *
running(guint64 id, guint q, guint u, guint h, int slots, gint64 start)
{
	guint i = t.snap.n_running++;
	SchedRunning *r = &t.running[i];

	t.run_allocs[i][0].host = h;
	t.run_allocs[i][0].slots = slots;
	r->id = id;
	r->queue = q;
	r->user = u;
	r->allocs = t.run_allocs[i];
	r->n_allocs = 1;
	r->start_time = start;
	return r;
}

static void
run(void)
{
	sched_plan_free(t.plan);
	t.plan = sched_run(&t.snap);
}

static char *
dispatched(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->dispatches->len; i++) {
		SchedDispatch *d = &g_array_index(t.plan->dispatches, SchedDispatch, i);

		for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++) {
			SchedAlloc *al = &g_array_index(t.plan->allocs, SchedAlloc, a);

			g_string_append_printf(s, "%s%" G_GUINT64_FORMAT "@%s*%d",
			    s->len ? " " : "", t.jobs[d->job].id,
			    t.hosts[al->host].name, al->slots);
		}
	}
	return g_string_free(s, FALSE);
}

/* Preemptions, checking each is referenced by its preemptor's dispatch. */
static char *
preempted(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->dispatches->len; i++) {
		SchedDispatch *d = &g_array_index(t.plan->dispatches, SchedDispatch, i);

		for (guint k = d->first_preemption;
		    k < d->first_preemption + d->n_preemptions; k++) {
			SchedPreemption *pr =
			    &g_array_index(t.plan->preemptions, SchedPreemption, k);

			ck_assert_uint_eq(pr->preemptor, d->job);
			g_string_append_printf(s, "%s%" G_GUINT64_FORMAT "%s>%"
			    G_GUINT64_FORMAT, s->len ? " " : "",
			    t.running[pr->victim].id, pr->terminate ? "!" : "",
			    t.jobs[pr->preemptor].id);
		}
	}
	return g_string_free(s, FALSE);
}

static char *
resumed(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->resumes->len; i++) {
		SchedResume *r = &g_array_index(t.plan->resumes, SchedResume, i);

		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, s->len ? " " : "",
		    t.running[r->job].id);
	}
	return g_string_free(s, FALSE);
}

static void
expect_all(const char *want_disp, const char *want_pre, const char *want_res)
{
	char *d = dispatched(), *p = preempted(), *r = resumed();

	ck_assert_str_eq(d, want_disp);
	ck_assert_str_eq(p, want_pre);
	ck_assert_str_eq(r, want_res);
	g_free(d);
	g_free(p);
	g_free(r);
}

/* Preempt and dispatch only (no resume expected). */
static void
expect(const char *want_disp, const char *want_pre)
{
	expect_all(want_disp, want_pre, "");
}

static void
expect_reason(guint job_index, const char *want)
{
	char *got = sched_pending_format(&t.plan->pending[job_index]);

	ck_assert_str_eq(got, want);
	g_free(got);
}

/*
 * The reference configuration of lsf-reference 4.1: high 99 PREEMPTIVE,
 * medium 10 PREEMPTIVE[normal low+1], normal 5, low 1; h1, h2 MXJ 2.
 */
enum { HIGH, MEDIUM, NORMAL, LOW };
enum { H1, H2 };

static void
reference_cluster(void)
{
	queue("high", 99);
	queue("medium", 10);
	queue("normal", 5);
	queue("low", 1);
	t.queues[HIGH].preemptive = TRUE;
	preemptive(MEDIUM, NORMAL, -1);
	preemptive(MEDIUM, LOW, 1);
	host("h1", 2);
	host("h2", 2);
	user("alice");
}

/* P1/P2 running set: low j1, j2 @h1, j3, j4 @h2, later ids started later. */
static void
low_everywhere(void)
{
	running(1, LOW, 0, H1, 1, 100);
	running(2, LOW, 0, H1, 1, 200);
	running(3, LOW, 0, H2, 1, 300);
	running(4, LOW, 0, H2, 1, 400);
}

/* Drop running and pending jobs, keeping queues, hosts and users. */
static void
reset_jobs(void)
{
	memset(t.running, 0, sizeof t.running);
	memset(t.jobs, 0, sizeof t.jobs);
	t.snap.n_running = t.snap.n_pending = 0;
}

/* ---- acceptance scenarios P1-P7 ---------------------------------------- */

START_TEST(test_p1_normal_cannot_preempt_low)
{
	reference_cluster();
	low_everywhere();
	job(10, NORMAL, 0, 1);
	run();
	expect("", "");
	expect_reason(0, "Job slot limit reached: 2 hosts;");
}
END_TEST

START_TEST(test_p2_high_preempts_on_least_loaded_host)
{
	reference_cluster();
	low_everywhere();
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	job(10, HIGH, 0, 1);
	run();
	/* j4 started last, but h1 is the less loaded host. */
	expect("10@h1*1", "2>10");
}
END_TEST

START_TEST(test_p3_preference_beats_priority_and_load)
{
	reference_cluster();
	running(1, NORMAL, 0, H1, 1, 100);
	running(2, NORMAL, 0, H1, 1, 200);
	running(3, LOW, 0, H2, 1, 300);
	running(4, LOW, 0, H2, 1, 400);
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	job(10, MEDIUM, 0, 1);
	run();
	expect("10@h2*1", "4>10");
}
END_TEST

START_TEST(test_p4_least_run_time)
{
	reference_cluster();
	low_everywhere();
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	job(10, HIGH, 0, 1);
	t.snap.preempt_for = SCHED_PREEMPT_FOR_LEAST_RUN_TIME;
	run();
	/* The shortest run time wins over the host's load. */
	expect("10@h2*1", "4>10");
}
END_TEST

/* After P2: j2 SSUSP by job 10, which runs on h1; j1 ended if freed. */
static void
after_p2(gboolean j1_ended)
{
	SchedRunning *r;

	reference_cluster();
	if (!j1_ended)
		running(1, LOW, 0, H1, 1, 100);
	r = running(2, LOW, 0, H1, 1, 200);
	r->state = SCHED_RUN_SSUSP;
	r->preempted = TRUE;
	r->preempt_count = 1;
	running(3, LOW, 0, H2, 1, 300);
	running(4, LOW, 0, H2, 1, 400);
	running(10, HIGH, 0, H1, 1, 900);
}

START_TEST(test_p5_resume_when_a_slot_frees)
{
	after_p2(FALSE);
	run();
	expect_all("", "", "");
	teardown();
	setup();
	after_p2(TRUE);
	run();
	/* The high job still runs: j2 does not wait for it. */
	expect_all("", "", "2");
}
END_TEST

START_TEST(test_p6_max_job_preempt)
{
	reference_cluster();
	low_everywhere();
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	job(10, HIGH, 0, 1);
	t.running[1].preempt_count = 1;
	t.running[1].max_preempt = 2;
	run();
	expect("10@h1*1", "2>10");   /* below its limit */
	t.running[1].max_preempt = 1;
	run();
	expect("10@h1*1", "1>10");   /* at its limit: skipped */
	t.running[0].preempt_count = t.running[0].max_preempt = 3;
	run();
	expect("10@h2*1", "4>10");
	for (guint i = 0; i < 4; i++)
		t.running[i].preempt_count = t.running[i].max_preempt = 1;
	run();
	expect("", "");
	expect_reason(0, "Job slot limit reached: 2 hosts;");
}
END_TEST

START_TEST(test_p7_four_slots_preempt_four_jobs)
{
	reference_cluster();
	low_everywhere();
	job(10, HIGH, 0, 4);
	run();
	/* Equal loads and slots in use: h1 by name, then h2. */
	expect("10@h1*2 10@h2*2", "2>10 1>10 4>10 3>10");
}
END_TEST

/* ---- the three PREEMPTION forms ---------------------------------------- */

enum { QA, QB, QC };

static void
three_queues(void)
{
	queue("a", 30);
	queue("b", 20);
	queue("c", 10);
	host("h1", 1);
	user("alice");
}

/* Whether a job of queue `by` preempts a running job of queue `victim`. */
static gboolean
preempts(guint by, guint victim)
{
	reset_jobs();
	running(1, victim, 0, 0, 1, 100);
	job(10, by, 0, 1);
	run();
	return t.plan->preemptions->len == 1 && t.plan->dispatches->len == 1;
}

START_TEST(test_form_by_priority)
{
	three_queues();
	t.queues[QC].preemptable = TRUE;        /* by every higher queue */
	ck_assert(preempts(QB, QC));
	ck_assert(preempts(QA, QC));
	ck_assert(!preempts(QA, QB));           /* neither side allows it */
	ck_assert(!preempts(QC, QC));
	t.queues[QA].preemptive = TRUE;         /* every lower queue */
	ck_assert(preempts(QA, QB));
	ck_assert(!preempts(QB, QA));           /* never upwards */
}
END_TEST

START_TEST(test_form_explicit_preemptable_list)
{
	three_queues();
	preemptable_by(QC, QA);
	ck_assert(preempts(QA, QC));
	ck_assert(!preempts(QB, QC));
}
END_TEST

START_TEST(test_form_preemptive_list)
{
	three_queues();
	preemptive(QA, QC, -1);
	ck_assert(preempts(QA, QC));
	ck_assert(!preempts(QA, QB));
	/* Any higher queue may preempt a bare PREEMPTABLE one. */
	t.queues[QB].preemptable = TRUE;
	ck_assert(preempts(QA, QB));
}
END_TEST

START_TEST(test_form_combinations)
{
	three_queues();
	preemptive(QA, QC, -1);
	preemptable_by(QB, QA);
	ck_assert(preempts(QA, QB));
	ck_assert(preempts(QA, QC));
	ck_assert(!preempts(QB, QC));
	/* Both jobs running: no preference, so the lower priority goes. */
	reset_jobs();
	running(1, QB, 0, 0, 1, 200);
	running(2, QC, 0, 0, 1, 100);
	t.hosts[0].max_slots = 2;
	job(10, QA, 0, 1);
	run();
	expect("10@h1*1", "2>10");
}
END_TEST

START_TEST(test_no_preemption_between_equal_priorities)
{
	queue("a", 10);
	queue("b", 10);
	queue("c", 5);
	host("h1", 1);
	user("alice");
	t.queues[QA].preemptive = TRUE;
	t.queues[QB].preemptable = TRUE;
	ck_assert(!preempts(QA, QB));
	/* A list naming a higher queue does not make it preemptable. */
	preemptive(QC, QA, 1);
	ck_assert(!preempts(QC, QA));
	ck_assert(preempts(QA, QC));
}
END_TEST

/* ---- victim order ------------------------------------------------------ */

START_TEST(test_preference_order)
{
	guint top = queue("top", 50), x = queue("x", 10), y = queue("y", 20);
	guint z = queue("z", 5), w = queue("w", 3);
	guint qs[] = { x, y, z, w };

	user("alice");
	preemptive(top, x, 1);
	preemptive(top, y, 2);
	preemptive(top, z, -1);
	preemptive(top, w, -1);
	host("h1", 4);
	for (guint i = 0; i < 4; i++)
		running(i + 1, qs[i], 0, 0, 1, 100 * (i + 1));
	job(10, top, 0, 1);
	run();
	expect("10@h1*1", "2>10");          /* y: +2 */
	t.running[1].preempt_count = t.running[1].max_preempt = 1;
	run();
	expect("10@h1*1", "1>10");          /* x: +1 */
	t.running[0].preempt_count = t.running[0].max_preempt = 1;
	run();
	expect("10@h1*1", "4>10");          /* no pref: lower PRIORITY, w */
	t.running[3].preempt_count = t.running[3].max_preempt = 1;
	run();
	expect("10@h1*1", "3>10");
	/* Equal preferences: lower PRIORITY first. */
	t.refs[top][1].pref = 1;
	for (guint i = 0; i < 4; i++)
		t.running[i].preempt_count = t.running[i].max_preempt = 0;
	run();
	expect("10@h1*1", "1>10");
}
END_TEST

START_TEST(test_least_loaded_host_order)
{
	guint low = queue("low", 1), high = queue("high", 9);
	guint a = host("hA", 2), b = host("hB", 2);

	user("alice");
	t.queues[high].preemptive = TRUE;
	running(1, low, 0, a, 2, 100);
	running(2, low, 0, b, 2, 100);
	job(10, high, 0, 1);
	t.hosts[a].r15s = 0.5;
	t.hosts[b].r15s = 0.2;
	run();
	expect("10@hB*1", "2>10");          /* r15s */
	t.hosts[a].r15s = 0.2;
	t.hosts[a].r1m = 0.1;
	t.hosts[b].r1m = 0.3;
	run();
	expect("10@hA*1", "1>10");          /* then r1m */
	t.hosts[a].r1m = t.hosts[b].r1m = 0.3;
	t.hosts[a].max_slots = 3;
	running(3, low, 0, a, 1, 100);
	run();
	expect("10@hB*1", "2>10");          /* then fewest slots in use */
	t.snap.n_running = 2;
	t.hosts[a].max_slots = 2;
	run();
	expect("10@hA*1", "1>10");          /* then name */
}
END_TEST

START_TEST(test_only_hosts_the_job_can_use)
{
	static SchedQueueHost only_h2[] = { { .host = H2 } };
	static guint want_h2[] = { H2 };
	SchedJob *j;

	reference_cluster();
	low_everywhere();
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	j = job(10, HIGH, 0, 1);
	t.queues[HIGH].hosts = only_h2;
	t.queues[HIGH].n_hosts = 1;
	run();
	expect("10@h2*1", "4>10");          /* queue HOSTS */
	t.queues[HIGH].hosts = NULL;
	j->asked_hosts = want_h2;
	j->n_asked_hosts = 1;
	run();
	expect("10@h2*1", "4>10");          /* bsub -m */
	j->asked_hosts = NULL;
	t.hosts[H1].state = SCHED_HOST_UNAVAIL;
	run();
	expect("10@h2*1", "4>10");
}
END_TEST

START_TEST(test_suspended_jobs_are_not_victims)
{
	reference_cluster();
	running(1, LOW, 0, H1, 2, 100)->state = SCHED_RUN_USUSP;
	running(2, LOW, 0, H2, 2, 200);
	t.hosts[H1].max_slots = 1;          /* the USUSP job is over it */
	t.hosts[H1].r15s = 0.1;
	job(10, HIGH, 0, 2);
	run();
	expect("10@h2*2", "2>10");
}
END_TEST

START_TEST(test_several_preemptors_in_one_pass)
{
	reference_cluster();
	low_everywhere();
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	job(10, HIGH, 0, 1);
	job(11, HIGH, 0, 1);
	job(12, NORMAL, 0, 1);
	run();
	expect("10@h1*1 11@h1*1", "2>10 1>11");
	expect_reason(2, "Job slot limit reached: 2 hosts;");
}
END_TEST

START_TEST(test_queue_limit_is_never_relieved)
{
	reference_cluster();
	low_everywhere();
	t.hosts[H2].max_slots = 3;
	running(9, HIGH, 0, H2, 1, 500);
	t.queues[HIGH].qjob_limit = 1;
	job(10, HIGH, 0, 1);
	run();
	expect("", "");
	expect_reason(0, "The queue has reached its job slot limit;");
}
END_TEST

/* ---- multi-slot preemptors --------------------------------------------- */

START_TEST(test_span_one_host)
{
	SchedJob *j;

	reference_cluster();
	low_everywhere();
	t.hosts[H2].r15s = 0.1;
	t.hosts[H1].r15s = 0.5;
	j = job(10, HIGH, 0, 2);
	j->one_host = TRUE;
	run();
	expect("10@h2*2", "4>10 3>10");
	/* Four slots on one host of two: not even after preemption. */
	j->min_slots = j->max_slots = 4;
	run();
	expect("", "");
	expect_reason(0, "Job slot limit reached: 2 hosts;");
}
END_TEST

START_TEST(test_span_one_host_prefers_best_queue)
{
	SchedJob *j;

	reference_cluster();
	running(1, NORMAL, 0, H1, 1, 100);
	running(2, NORMAL, 0, H1, 1, 200);
	running(3, LOW, 0, H2, 1, 300);
	running(4, LOW, 0, H2, 1, 400);
	t.hosts[H1].r15s = 0.1;             /* h1 less loaded, but holds normal */
	t.hosts[H2].r15s = 0.5;
	j = job(10, MEDIUM, 0, 2);
	j->one_host = TRUE;
	run();
	expect("10@h2*2", "4>10 3>10");
}
END_TEST

START_TEST(test_multislot_cannot_fit)
{
	reference_cluster();
	low_everywhere();
	t.hosts[H2].max_slots = 1;
	t.snap.n_running = 3;               /* h1: j1, j2; h2: j3 */
	job(10, HIGH, 0, 4);
	run();
	expect("", "");
	expect_reason(0, "Job slot limit reached: 2 hosts;");
}
END_TEST

START_TEST(test_multislot_uses_free_slots_first)
{
	reference_cluster();
	running(1, LOW, 0, H1, 1, 100);
	running(2, LOW, 0, H2, 1, 200);
	running(3, LOW, 0, H2, 1, 300);
	job(10, HIGH, 0, 2);
	run();
	/* h1 has one slot free and one in use: one victim is enough. */
	expect("10@h1*2", "1>10");
}
END_TEST

START_TEST(test_ptile_bounds_each_host)
{
	SchedJob *j;

	reference_cluster();
	t.hosts[H1].max_slots = t.hosts[H2].max_slots = 4;
	running(1, LOW, 0, H1, 4, 100);
	running(2, LOW, 0, H2, 4, 200);
	j = job(10, HIGH, 0, 4);
	j->ptile = 2;
	t.hosts[H2].r15s = 0.1;
	t.hosts[H1].r15s = 0.5;
	run();
	expect("10@h2*2 10@h1*2", "2>10 1>10");
}
END_TEST

/* ---- PREEMPT_FOR and slot counting ------------------------------------- */

START_TEST(test_user_max_jobs_counts_running_only)
{
	guint alice, bob;

	reference_cluster();
	alice = 0;
	bob = user("bob");
	t.hosts[H1].max_slots = 4;
	t.hosts[H2].max_slots = 1;
	t.users[alice].max_jobs = 2;
	running(1, LOW, alice, H1, 1, 100);
	running(2, LOW, alice, H1, 1, 200);
	running(3, LOW, bob, H2, 1, 300);
	job(10, HIGH, alice, 1);
	t.queues[HIGH].preemptive = FALSE;
	t.queues[MEDIUM].preemptive = FALSE;   /* no PREEMPTION at all */
	run();
	expect("", "");
	expect_reason(0, "The user has reached his/her job slot limit;");
	t.queues[HIGH].preemptive = TRUE;
	run();
	/* Only alice's own job relieves her limit; bob's is left alone. */
	expect("10@h1*1", "2>10");
}
END_TEST

/* alice and bob in group eng; bob runs j1, j2 of low on h1 (MXJ 4). */
static guint
group_case(void)
{
	guint bob, g;

	reference_cluster();
	bob = user("bob");
	g = group("eng", 0, bob);
	t.snap.n_hosts = 1;
	t.hosts[H1].max_slots = 4;
	running(1, LOW, bob, H1, 1, 100);
	running(2, LOW, bob, H1, 1, 200);
	job(10, HIGH, 0, 1);
	return g;
}

START_TEST(test_group_max)
{
	guint g = group_case();

	t.groups[g].max_jobs = 2;
	run();
	expect("", "");
	expect_reason(0, "One of the user's groups has reached its job slot limit;");
	t.snap.preempt_for = SCHED_PREEMPT_FOR_GROUP_MAX;
	run();
	expect("10@h1*1", "2>10");
}
END_TEST

START_TEST(test_group_jlp)
{
	guint g = group_case();

	t.groups[g].jl_p = 0.5;             /* two slots on a 4-CPU host */
	run();
	expect("", "");
	expect_reason(0, "User group's per-CPU job slot limit reached: 1 host;");
	t.snap.preempt_for = SCHED_PREEMPT_FOR_GROUP_JLP;
	run();
	expect("10@h1*1", "2>10");
}
END_TEST

/* alice's low j1 and bob's later low j2 on h1 (MXJ 4); alice's high job. */
static void
user_host_case(void)
{
	reference_cluster();
	user("bob");
	t.snap.n_hosts = 1;
	t.hosts[H1].max_slots = 4;
	running(1, LOW, 0, H1, 1, 100);
	running(2, LOW, 1, H1, 1, 200);
	job(10, HIGH, 0, 1);
}

START_TEST(test_host_jlu)
{
	user_host_case();
	t.hosts[H1].jl_u = 1;
	run();
	expect("", "");
	expect_reason(0, "Host's per-user job slot limit reached: 1 host;");
	t.snap.preempt_for = SCHED_PREEMPT_FOR_HOST_JLU;
	run();
	expect("10@h1*1", "1>10");          /* alice's, not bob's later one */
}
END_TEST

START_TEST(test_user_jlp)
{
	user_host_case();
	t.users[0].jl_p = 0.25;             /* one slot on a 4-CPU host */
	run();
	expect("", "");
	expect_reason(0, "User's per-CPU job slot limit reached: 1 host;");
	t.snap.preempt_for = SCHED_PREEMPT_FOR_USER_JLP;
	run();
	expect("10@h1*1", "1>10");
}
END_TEST

START_TEST(test_suspended_slots_and_mxj)
{
	guint q = queue("normal", 5), u = user("alice");
	guint h = host("h1", 1);

	running(1, q, u, h, 1, 100)->state = SCHED_RUN_SSUSP;
	job(10, q, u, 1);
	run();
	expect("", "");                     /* no preemption: SUSP counts */
	expect_reason(0, "Job slot limit reached: 1 host;");
	t.queues[q].preemptable = TRUE;     /* preemption configured */
	run();
	expect("10@h1*1", "");
	t.queues[q].qjob_limit = 1;         /* queue limits still count it */
	run();
	expect("", "");
	expect_reason(0, "The queue has reached its job slot limit;");
}
END_TEST

/* ---- MINI_JOB, OPTIMAL_MINI_JOB ---------------------------------------- */

START_TEST(test_mini_job)
{
	reference_cluster();
	t.snap.n_hosts = 1;
	t.hosts[H1].max_slots = 3;
	running(1, LOW, 0, H1, 2, 100);     /* parallel, older */
	running(2, LOW, 0, H1, 1, 200);
	job(10, HIGH, 0, 2);
	run();
	/* Default: the recent job first, then the parallel one: both. */
	expect("10@h1*2", "2>10 1>10");
	t.snap.preempt_for = SCHED_PREEMPT_FOR_MINI_JOB;
	run();
	expect("10@h1*2", "1>10");
	/* No effect on a one-slot preemptor. */
	t.jobs[0].min_slots = t.jobs[0].max_slots = 1;
	run();
	expect("10@h1*1", "2>10");
}
END_TEST

START_TEST(test_optimal_mini_job)
{
	reference_cluster();
	t.snap.n_hosts = 1;
	t.hosts[H1].max_slots = 4;
	running(1, LOW, 0, H1, 2, 100);     /* parallel, oldest */
	running(2, LOW, 0, H1, 1, 200);
	running(3, LOW, 0, H1, 1, 300);
	job(10, HIGH, 0, 2);
	run();
	expect("10@h1*2", "3>10 2>10");
	t.snap.preempt_for = SCHED_PREEMPT_FOR_MINI_JOB;
	run();
	expect("10@h1*2", "3>10 2>10");     /* both needed: already enough */
	t.snap.preempt_for = SCHED_PREEMPT_FOR_OPTIMAL_MINI_JOB;
	run();
	expect("10@h1*2", "1>10");          /* the fewest jobs */
}
END_TEST

/* ---- TERMINATE_WHEN=PREEMPT -------------------------------------------- */

START_TEST(test_terminate_when_preempt)
{
	guint g;

	reference_cluster();
	low_everywhere();
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = 0.5;
	t.queues[LOW].terminate_on_preempt = TRUE;
	job(10, HIGH, 0, 1);
	run();
	expect("10@h1*1", "2!>10");
	teardown();
	setup();
	/* A killed victim stops counting everywhere, even for a group limit
	 * that counts suspended jobs. */
	g = group_case();
	t.groups[g].max_jobs = 2;
	t.queues[LOW].terminate_on_preempt = TRUE;
	run();
	expect("10@h1*1", "2!>10");
}
END_TEST

/* ---- resume ------------------------------------------------------------ */

static SchedRunning *
preempted_job(guint64 id, guint q, guint h)
{
	SchedRunning *r = running(id, q, 0, h, 1, 100);

	r->state = SCHED_RUN_SSUSP;
	r->preempted = TRUE;
	return r;
}

START_TEST(test_resume_higher_priority_queue_first)
{
	reference_cluster();
	t.hosts[H1].max_slots = 1;
	preempted_job(1, LOW, H1);
	preempted_job(2, NORMAL, H1);
	run();
	expect_all("", "", "2");
}
END_TEST

START_TEST(test_resume_one_per_host_per_pass)
{
	reference_cluster();
	preempted_job(1, LOW, H1);
	preempted_job(2, LOW, H1);
	preempted_job(3, LOW, H2);
	run();
	expect_all("", "", "1 3");
}
END_TEST

START_TEST(test_resume_only_preempted_jobs)
{
	reference_cluster();
	preempted_job(1, LOW, H1)->preempted = FALSE;   /* load-suspended */
	running(2, LOW, 0, H2, 1, 100)->state = SCHED_RUN_USUSP;
	run();
	expect_all("", "", "");
}
END_TEST

START_TEST(test_resume_respects_running_only_limits)
{
	reference_cluster();
	t.users[0].max_jobs = 1;
	running(1, LOW, 0, H1, 1, 100);
	preempted_job(2, LOW, H2);
	run();
	expect_all("", "", "");
	t.users[0].max_jobs = 2;
	run();
	expect_all("", "", "2");
}
END_TEST

START_TEST(test_resume_before_dispatch_not_same_pass)
{
	guint h3;

	reference_cluster();
	low_everywhere();
	h3 = host("h3", 1);
	t.hosts[H1].r15s = 0.1;
	t.hosts[H2].r15s = t.hosts[h3].r15s = 0.5;
	preempted_job(5, LOW, h3);
	job(10, HIGH, 0, 1);
	run();
	/* j5 takes h3 back first, so job 10 preempts; its victim j2 is not
	 * resumed in the same pass. */
	expect_all("10@h1*1", "2>10", "5");
}
END_TEST

START_TEST(test_resume_without_preemption_configured)
{
	reference_cluster();
	t.queues[HIGH].preemptive = t.queues[MEDIUM].preemptive = FALSE;
	t.snap.n_hosts = 1;
	t.hosts[H1].max_slots = 1;
	preempted_job(1, LOW, H1);
	run();
	/* Its slot was never released, so it can always take it back. */
	expect_all("", "", "1");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("preempt");
	TCase *tc = tcase_create("preempt");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_p1_normal_cannot_preempt_low);
	tcase_add_test(tc, test_p2_high_preempts_on_least_loaded_host);
	tcase_add_test(tc, test_p3_preference_beats_priority_and_load);
	tcase_add_test(tc, test_p4_least_run_time);
	tcase_add_test(tc, test_p5_resume_when_a_slot_frees);
	tcase_add_test(tc, test_p6_max_job_preempt);
	tcase_add_test(tc, test_p7_four_slots_preempt_four_jobs);
	tcase_add_test(tc, test_form_by_priority);
	tcase_add_test(tc, test_form_explicit_preemptable_list);
	tcase_add_test(tc, test_form_preemptive_list);
	tcase_add_test(tc, test_form_combinations);
	tcase_add_test(tc, test_no_preemption_between_equal_priorities);
	tcase_add_test(tc, test_preference_order);
	tcase_add_test(tc, test_least_loaded_host_order);
	tcase_add_test(tc, test_only_hosts_the_job_can_use);
	tcase_add_test(tc, test_suspended_jobs_are_not_victims);
	tcase_add_test(tc, test_several_preemptors_in_one_pass);
	tcase_add_test(tc, test_queue_limit_is_never_relieved);
	tcase_add_test(tc, test_span_one_host);
	tcase_add_test(tc, test_span_one_host_prefers_best_queue);
	tcase_add_test(tc, test_multislot_cannot_fit);
	tcase_add_test(tc, test_multislot_uses_free_slots_first);
	tcase_add_test(tc, test_ptile_bounds_each_host);
	tcase_add_test(tc, test_user_max_jobs_counts_running_only);
	tcase_add_test(tc, test_group_max);
	tcase_add_test(tc, test_group_jlp);
	tcase_add_test(tc, test_host_jlu);
	tcase_add_test(tc, test_user_jlp);
	tcase_add_test(tc, test_suspended_slots_and_mxj);
	tcase_add_test(tc, test_mini_job);
	tcase_add_test(tc, test_optimal_mini_job);
	tcase_add_test(tc, test_terminate_when_preempt);
	tcase_add_test(tc, test_resume_higher_priority_queue_first);
	tcase_add_test(tc, test_resume_one_per_host_per_pass);
	tcase_add_test(tc, test_resume_only_preempted_jobs);
	tcase_add_test(tc, test_resume_respects_running_only_limits);
	tcase_add_test(tc, test_resume_before_dispatch_not_same_pass);
	tcase_add_test(tc, test_resume_without_preemption_configured);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
