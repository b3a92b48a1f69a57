/*
 * Preemption and limits (mbatchd/sched/count.c, preempt.c, resume.c): slot
 * counting under preemption and each PREEMPT_FOR keyword, MINI_JOB and
 * OPTIMAL_MINI_JOB, TERMINATE_WHEN=PREEMPT, and resuming preempted jobs.
 */
#include "config.h"

#include "preempt-test.h"

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

START_TEST(test_max_jobs_without_victims)
{
	guint top = queue("top", 200);

	reference_cluster();
	t.users[0].max_jobs = 2;
	running(1, top, 0, H1, 1, 100);     /* top is above every queue */
	running(2, LOW, 0, H2, 1, 200);
	job(10, HIGH, 0, 1);
	job(11, HIGH, 0, 1);
	job(12, HIGH, 0, 1);
	run();
	/* 10 preempts alice's low job; 11 and 12 find nothing left to take
	 * (12 by the memo of 11's shape) and keep their reason. */
	expect("10@h2*1", "2>10");
	expect_reason(1, "The user has reached his/her job slot limit;");
	expect_reason(2, "The user has reached his/her job slot limit;");
}
END_TEST

START_TEST(test_user_suspended_jobs_free_host_slots)
{
	reference_cluster();
	t.snap.n_hosts = 1;
	t.hosts[H1].max_slots = 1;
	running(1, NORMAL, 0, H1, 1, 100)->state = SCHED_RUN_USUSP;
	job(10, NORMAL, 0, 1);
	run();
	/* With preemption configured a user-suspended job frees MXJ too. */
	expect("10@h1*1", "");
}
END_TEST

START_TEST(test_unlimited_hosts)
{
	reference_cluster();
	host("h3", SCHED_UNLIMITED);
	t.hosts[H1].max_slots = t.hosts[H2].max_slots = SCHED_UNLIMITED;
	t.users[0].max_jobs = 2;
	running(1, LOW, 0, H2, 1, 100);
	job(10, HIGH, 0, 2);
	run();
	/* Hosts without MXJ offer all the job needs; only MAX_JOBS stops it. */
	expect("10@h2*2", "1>10");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("preempt_limits");
	TCase *tc = tcase_create("preempt_limits");

	tcase_add_checked_fixture(tc, setup, teardown);
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
	tcase_add_test(tc, test_max_jobs_without_victims);
	tcase_add_test(tc, test_user_suspended_jobs_free_host_slots);
	tcase_add_test(tc, test_unlimited_hosts);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
