/*
 * Preemptive scheduling in the pure pass (mbatchd/sched/preempt.c,
 * relation.c): the acceptance scenarios P1-P7 of lsf-reference.md 4.1, the
 * three PREEMPTION forms, victim order and multi-slot preemptors.  Limits,
 * PREEMPT_FOR, TERMINATE_WHEN and resume are in check_preempt_limits.c.
 */
#include "config.h"

#include "preempt-test.h"

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

/* Nothing runs, the host is closed: the preemptive job looks for victims
 * among none and stays pending (found by UBSan in the daemon). */
START_TEST(test_no_running_jobs_no_victims)
{
	reference_cluster();
	t.hosts[H1].state = SCHED_HOST_CLOSED_ADM;
	t.hosts[H2].state = SCHED_HOST_CLOSED_ADM;
	job(10, HIGH, 0, 1);
	run();
	expect("", "");
	expect_reason(0, "Closed by LSF administrator: 2 hosts;");
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
	return (sched_plan_count(t.plan, SCHED_DO_PREEMPT_SUSPEND) + sched_plan_count(t.plan, SCHED_DO_PREEMPT_TERMINATE)) == 1 && sched_plan_count(t.plan, SCHED_DO_DISPATCH) == 1;
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

START_TEST(test_preemption_refreshes_blocked_shapes)
{
	guint a = queue("a", 50), b = queue("b", 50), low = queue("low", 1);
	guint u = user("alice");

	host("h1", 2);
	t.queues[a].preemptive = TRUE;
	running(1, low, u, 0, 2, 100);
	job(20, b, u, 1);
	job(10, a, u, 1);
	job(21, b, u, 1);
	run();
	/* 20 found the host full; 10 freed two slots and took one; 21, of
	 * 20's shape, must see the slot left rather than 20's old verdict. */
	expect("10@h1*1 21@h1*1", "1>10");
	expect_reason(0, "Job slot limit reached: 1 host;");
}
END_TEST

START_TEST(test_multi_host_victim)
{
	SchedRunning *r;

	reference_cluster();
	r = running(1, LOW, 0, H1, 2, 100);
	t.run_allocs[0][1].host = H2;
	t.run_allocs[0][1].slots = 2;
	r->n_allocs = 2;
	job(10, HIGH, 0, 3);
	run();
	/* One victim frees both hosts. */
	expect("10@h1*2 10@h2*1", "1>10");
}
END_TEST

START_TEST(test_min_slots_when_preempting)
{
	SchedJob *j;

	reference_cluster();
	low_everywhere();
	j = job(10, HIGH, 0, 1);
	j->max_slots = 4;
	run();
	expect("10@h1*1", "2>10");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("preempt");
	TCase *tc = tcase_create("preempt");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_p1_normal_cannot_preempt_low);
	tcase_add_test(tc, test_no_running_jobs_no_victims);
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
	tcase_add_test(tc, test_preemption_refreshes_blocked_shapes);
	tcase_add_test(tc, test_multi_host_victim);
	tcase_add_test(tc, test_min_slots_when_preempting);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
