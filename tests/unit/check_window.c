/*
 * The time-driven stage (mbatchd/sched/window.c): a closed run window
 * suspends running jobs (or kills them with TERMINATE_WHEN=WINDOW), an
 * open one resumes the jobs it suspended and no others, closed dispatch
 * windows of queues and hosts start nothing, and the plan's next_wake is
 * the next window boundary (or begin time).  Time is snap.now alone.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_time.h"
#include "mbatchd/sched/sched.h"
#include "tap.h"

/* Tuesday 24 November 2026, 10:30:00 UTC. */
#define TUE_1030 G_GINT64_CONSTANT(1795516200)

typedef struct {
	SchedHost hosts[4];
	SchedQueue queues[4];
	SchedUser users[2];
	SchedJob jobs[8];
	SchedRunning running[8];
	SchedAlloc run_allocs[8];
	SchedSnapshot snap;
	SchedPlan *plan;
	GPtrArray *windows;
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
	t.snap.now = TUE_1030;
	t.windows = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
}

static void
teardown(void)
{
	sched_plan_free(t.plan);
	g_ptr_array_free(t.windows, TRUE);
}

static const GArray *
win(const char *text)
{
	GString *why = g_string_new(NULL);
	GArray *w = NULL;

	ck_assert_msg(bs_conf_windows_parse(text, &w, why), "%s", why->str);
	g_string_free(why, TRUE);
	g_ptr_array_add(t.windows, w);
	return w;
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
job(guint64 id, guint q, guint u)
{
	SchedJob *j = &t.jobs[t.snap.n_pending++];

	j->id = id;
	j->queue = q;
	j->user = u;
	j->min_slots = j->max_slots = 1;
	return j;
}

static SchedRunning *
running(guint64 id, guint q, guint u, guint h, SchedRunState state)
{
	SchedRunning *r = &t.running[t.snap.n_running];
	SchedAlloc *a = &t.run_allocs[t.snap.n_running];

	a->host = h;
	a->slots = 1;
	r->id = id;
	r->queue = q;
	r->user = u;
	r->state = state;
	r->allocs = a;
	r->n_allocs = 1;
	t.snap.n_running++;
	return r;
}

static void
run(void)
{
	sched_plan_free(t.plan);
	t.plan = sched_run(&t.snap);
}

/* "kind:id ..." for every decision, in plan order. */
static void
expect_decisions(const char *want)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(t.plan, i);
		guint64 id = d->kind == SCHED_DO_DISPATCH ? t.jobs[d->job].id :
		    t.running[d->job].id;

		g_string_append_printf(s, "%s%s:%" G_GUINT64_FORMAT,
		    s->len ? " " : "", sched_kind_name(d->kind), id);
	}
	ck_assert_str_eq(s->str, want);
	g_string_free(s, TRUE);
}

static void
expect_reason(guint idx, const char *want)
{
	char *got = sched_pending_format(&t.plan->pending[idx]);

	g_strchomp(got);
	ck_assert_str_eq(got, want);
	g_free(got);
}

/* 10:30 is outside 8:00-10:00: the running job is suspended, the waiting
 * one stays (Inact_Win), and the pass must come back at 8:00 tomorrow. */
START_TEST(test_closed_run_window_suspends)
{
	guint q = queue("night", 30), u = user("alice"), h = host("h1", 4);

	t.queues[q].run_window = win("8:00-10:00");
	running(100, q, u, h, SCHED_RUN_RUN);
	running(101, q, u, h, SCHED_RUN_USUSP);   /* the user's: left alone */
	job(1, q, u);
	run();
	expect_decisions("window-suspend:100");
	expect_reason(0, "The queue is inactivated by its time windows;");
	ck_assert_int_eq(t.plan->next_wake, TUE_1030 + (21 * 60 + 30) * 60);
}
END_TEST

/* The window reopens: the job it suspended resumes, one suspended by
 * preemption or by its user does not (the window is not why they wait),
 * and the queue dispatches again.  next_wake: the window closes at 11:00. */
START_TEST(test_reopened_run_window_resumes)
{
	guint q = queue("day", 30), u = user("alice"), h = host("h1", 4);
	SchedRunning *r;

	t.queues[q].run_window = win("10:00-11:00");
	r = running(100, q, u, h, SCHED_RUN_SSUSP);
	r->window_held = TRUE;
	running(101, q, u, h, SCHED_RUN_USUSP);
	job(1, q, u);
	run();
	expect_decisions("window-resume:100 dispatch:1");
	ck_assert_int_eq(t.plan->next_wake, TUE_1030 + 30 * 60);
}
END_TEST

/* TERMINATE_WHEN=WINDOW kills instead, once: a job already being killed
 * gets no second order, and neither is a victim for preemption. */
START_TEST(test_terminate_when_window)
{
	guint low = queue("low", 10), high = queue("high", 50);
	guint u = user("alice"), h = host("h1", 2);
	SchedRunning *r;

	t.queues[low].run_window = win("8:00-10:00");
	t.queues[low].terminate_on_window = TRUE;
	t.queues[high].preemptive = TRUE;
	running(100, low, u, h, SCHED_RUN_RUN);
	r = running(101, low, u, h, SCHED_RUN_RUN);
	r->terminating = TRUE;
	job(1, high, u);
	run();
	expect_decisions("window-terminate:100");
	expect_reason(0, "Job slot limit reached: 1 host;");
}
END_TEST

/* A preempted job whose queue's run window is closed waits for the
 * window, not for slots: the resume stage leaves it. */
START_TEST(test_preempted_waits_for_window)
{
	guint q = queue("night", 30), u = user("alice"), h = host("h1", 4);
	SchedRunning *r;

	t.queues[q].run_window = win("20:00-6:00");
	r = running(100, q, u, h, SCHED_RUN_SSUSP);
	r->preempted = TRUE;
	run();
	expect_decisions("");
	t.snap.now += 10 * 3600;   /* 20:30 */
	run();
	expect_decisions("resume:100");
	ck_assert_int_eq(t.plan->next_wake, TUE_1030 + (19 * 60 + 30) * 60);
}
END_TEST

/* DISPATCH_WINDOW of a queue and of a host start nothing outside them;
 * running jobs are not touched.  Windows are local time: utc_offset
 * moves the wall clock to 11:30, inside the queue's 11:00-12:00. */
START_TEST(test_dispatch_windows)
{
	guint q = queue("normal", 30), u = user("alice");
	guint h1 = host("h1", 1), h2 = host("h2", 1);

	t.queues[q].dispatch_window = win("11:00-12:00");
	t.hosts[h1].dispatch_window = win("1:0:00-1:10:00");   /* Monday only */
	running(100, q, u, h2, SCHED_RUN_RUN);
	job(1, q, u);
	run();
	expect_decisions("");
	expect_reason(0, "The queue is inactivated by its time windows;");
	ck_assert_int_eq(t.plan->next_wake, TUE_1030 + 30 * 60);

	t.snap.utc_offset = 3600;
	run();
	expect_decisions("");
	expect_reason(0, "Dispatch windows closed: 1 host;\n"
	    "Job slot limit reached: 1 host;");
	t.hosts[h2].max_slots = 2;
	run();
	expect_decisions("dispatch:1");
}
END_TEST

/* Nothing timed: no wake-up.  A begin time is one. */
START_TEST(test_next_wake_begin_time)
{
	guint q = queue("normal", 30), u = user("alice");

	host("h1", 1);
	job(1, q, u);
	run();
	ck_assert_int_eq(t.plan->next_wake, 0);
	job(2, q, u)->begin_time = TUE_1030 + 90;
	job(3, q, u)->begin_time = TUE_1030 + 60;
	run();
	ck_assert_int_eq(t.plan->next_wake, TUE_1030 + 60);
}
END_TEST

/* Mid-minute the wake-up is the boundary itself, not a minute later;
 * weekly windows count in minutes of the week. */
START_TEST(test_next_wake_seconds_and_weeks)
{
	guint q = queue("normal", 30);

	host("h1", 1);
	t.queues[q].dispatch_window = win("5:18:00-1:8:00");   /* Fri 18h - Mon 8h */
	t.snap.now = TUE_1030 + 17;
	run();
	ck_assert_int_eq(t.plan->next_wake,
	    TUE_1030 + ((3 * 24 + 7) * 60 + 30) * 60);
	t.queues[q].dispatch_window = win("0:00-24:00");       /* always open */
	run();
	ck_assert_int_eq(t.plan->next_wake, 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("stage");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_closed_run_window_suspends);
	tcase_add_test(tc, test_reopened_run_window_resumes);
	tcase_add_test(tc, test_terminate_when_window);
	tcase_add_test(tc, test_preempted_waits_for_window);
	tcase_add_test(tc, test_dispatch_windows);
	tcase_add_test(tc, test_next_wake_begin_time);
	tcase_add_test(tc, test_next_wake_seconds_and_weeks);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
