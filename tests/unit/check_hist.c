/*
 * bhist, bacct and `badmin journal`: the history model fed with
 * hand-built event sequences (seconds per state must come out exact), the
 * layouts compared byte for byte (TZ=UTC, a fixed now), and the programs
 * run as subprocesses on a journal written here with lib/journal, as a
 * user would run them: LSF_ENVDIR, argv, exit code, stdout, stderr.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "hist-format.h"
#include "hist-model.h"
#include "journal/evlog.h"
#include "journal/readback.h"

#include "cmd-run.h"
#include "journal-fixture.h"

#define T0 1795255320           /* Sat Nov 21 10:02:00 2026 UTC */
#define ST(x) BASALT__JOB_STATE__JOB_STATE_ ## x

/* ---- building events ------------------------------------------------------- */

static GPtrArray *story;        /* Basalt__Event*, the events of one test */
static guint64 story_seq;

static void
ev_free(gpointer p)
{
	basalt__event__free_unpacked(p, NULL);
}

static void
story_reset(void)
{
	g_clear_pointer(&story, g_ptr_array_unref);
	story = g_ptr_array_new_with_free_func(ev_free);
	story_seq = 0;
}

/* Appends a deep copy of ev, with the next seq and the time t0 + dt. */
static void
add(Basalt__Event *ev, gint64 dt)
{
	gsize len;
	guint8 *buf;

	ev->seq = ++story_seq;
	ev->time = T0 + dt;
	len = basalt__event__get_packed_size(ev);
	buf = g_malloc(len);
	basalt__event__pack(ev, buf);
	g_ptr_array_add(story, basalt__event__unpack(NULL, len, buf));
	g_free(buf);
}

static void
submit_full(gint64 dt, guint64 id, const char *user, const char *name,
    gboolean hold, guint32 *idx, size_t nidx)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec s = BASALT__JOB_SPEC__INIT;

	s.command = "sleep 100";
	s.job_name = (char *)name;
	s.cwd = "/home/alice";
	s.hold = hold;
	s.min_slots = 1;
	e.job_id = id;
	e.spec = &s;
	e.user = (char *)user;
	e.queue = "normal";
	e.from_host = "hostA";
	e.job_name = (char *)name;
	e.array_indexes = idx;
	e.n_array_indexes = nidx;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	add(&ev, dt);
}

static void
submit(gint64 dt, guint64 id, const char *user)
{
	submit_full(dt, id, user, "", FALSE, NULL, 0);
}

static void
dispatch(gint64 dt, guint64 id, guint32 index, const char *host, guint n)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;
	char *hosts[8];

	for (guint i = 0; i < n; i++)
		hosts[i] = (char *)host;
	e.job_id = id;
	e.array_index = index;
	e.exec_hosts = hosts;
	e.n_exec_hosts = n;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	add(&ev, dt);
}

static void
start(gint64 dt, guint64 id, int pid)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStart e = BASALT__EV_JOB_START__INIT;

	e.job_id = id;
	e.pgid = pid;
	ev.body_case = BASALT__EVENT__BODY_JOB_START;
	ev.job_start = &e;
	add(&ev, dt);
}

static void
status_full(gint64 dt, guint64 id, guint32 index, Basalt__JobState st,
    int code, guint64 cpu_us, const char *reason)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;
	Basalt__ResourceUsage ru = BASALT__RESOURCE_USAGE__INIT;

	e.job_id = id;
	e.array_index = index;
	e.state = st;
	e.exit_status = code;
	e.reason = (char *)(reason != NULL ? reason : "");
	if (cpu_us > 0) {
		ru.utime_us = cpu_us;
		ru.max_rss_kb = 2048;
		e.usage = &ru;
	}
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &e;
	add(&ev, dt);
}

static void
status(gint64 dt, guint64 id, Basalt__JobState st, const char *reason)
{
	status_full(dt, id, 0, st, 0, 0, reason);
}

static void
requeue(gint64 dt, guint64 id, gboolean hold)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue e = BASALT__EV_JOB_REQUEUE__INIT;

	e.job_id = id;
	e.hold = hold;
	e.reason = "";
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &e;
	add(&ev, dt);
}

static void
switch_to(gint64 dt, guint64 id, const char *queue)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobSwitch e = BASALT__EV_JOB_SWITCH__INIT;

	e.job_id = id;
	e.queue = (char *)queue;
	ev.body_case = BASALT__EVENT__BODY_JOB_SWITCH;
	ev.job_switch = &e;
	add(&ev, dt);
}

static void
modify_name(gint64 dt, guint64 id, const char *name)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobModify e = BASALT__EV_JOB_MODIFY__INIT;
	Basalt__JobSpec s = BASALT__JOB_SPEC__INIT;

	s.command = "sleep 100";
	s.job_name = (char *)name;
	s.cwd = "/home/alice";
	s.min_slots = 1;
	e.job_id = id;
	e.spec = &s;
	ev.body_case = BASALT__EVENT__BODY_JOB_MODIFY;
	ev.job_modify = &e;
	add(&ev, dt);
}

static HistModel *
fold(void)
{
	HistModel *m = hist_model_new();

	for (guint i = 0; i < story->len; i++)
		hist_model_feed(m, g_ptr_array_index(story, i));
	return m;
}

/* The seconds of one job, as "PEND PSUSP RUN USUSP SSUSP UNKWN = TOTAL". */
static char *
times_of(const HistModel *m, guint64 id, guint32 index, gint64 now)
{
	HistJob *j = hist_model_job(m, id, index);
	gint64 s[HIST_NCOLS], total;

	ck_assert_ptr_nonnull(j);
	total = hist_job_times(j, now, s);
	return g_strdup_printf("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %"
	    G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %"
	    G_GINT64_FORMAT " = %" G_GINT64_FORMAT, s[0], s[1], s[2], s[3],
	    s[4], s[5], total);
}

#define assert_times(m, id, idx, now, expect) do { \
	g_autofree char *got_ = times_of((m), (id), (idx), (now)); \
	ck_assert_str_eq(got_, (expect)); \
} while (0)

static void
setup(void)
{
	story_reset();
}

static void
teardown(void)
{
	g_clear_pointer(&story, g_ptr_array_unref);
}

/* ---- the model -------------------------------------------------------------- */

/* Submit, dispatch, start, user suspend, resume, system suspend, resume,
 * done: every interval lands in its column. */
static void
full_life(void)
{
	submit(0, 1, "alice");
	dispatch(10, 1, 0, "hostB", 1);
	start(11, 1, 4242);
	status(50, 1, ST(USUSP), NULL);
	status(70, 1, ST(RUN), NULL);
	status(80, 1, ST(SSUSP), "The run windows of the queue are closed;");
	status(100, 1, ST(RUN), NULL);
	status_full(200, 1, 0, ST(DONE), 0, 1500000, NULL);
}

START_TEST(test_model_full_life)
{
	HistModel *m;
	HistJob *j;

	full_life();
	m = fold();
	j = hist_model_job(m, 1, 0);
	assert_times(m, 1, 0, T0 + 5000, "10 0 150 20 20 0 = 200");
	ck_assert(hist_job_finished(j));
	ck_assert_int_eq(j->end_time, T0 + 200);
	ck_assert_int_eq(j->dispatch_time, T0 + 10);
	ck_assert_uint_eq(j->cpu_us, 1500000);
	ck_assert_uint_eq(j->steps->len, 8);
	ck_assert_str_eq(j->name, "sleep 100");
	hist_model_free(m);
}
END_TEST

/* A requeued job keeps its first wait and run; the gap after an exit and
 * before brequeue counts nowhere. */
START_TEST(test_model_requeue)
{
	HistModel *m;

	submit(0, 2, "alice");
	dispatch(5, 2, 0, "hostB", 1);
	requeue(25, 2, FALSE);
	dispatch(40, 2, 0, "hostC", 1);
	status_full(100, 2, 0, ST(EXIT), 3, 0, NULL);
	requeue(130, 2, TRUE);
	status(150, 2, ST(PEND), NULL);
	dispatch(160, 2, 0, "hostC", 1);
	status_full(170, 2, 0, ST(EXIT), 1, 0, NULL);
	m = fold();
	assert_times(m, 2, 0, T0 + 999, "30 20 90 0 0 0 = 140");
	ck_assert_int_eq(hist_model_job(m, 2, 0)->exit_status, 1);
	hist_model_free(m);
}
END_TEST

/* Held at submission, switched, released, then still running at now. */
START_TEST(test_model_hold_switch_running)
{
	HistModel *m;
	HistJob *j;

	submit_full(0, 3, "bob", "big", TRUE, NULL, 0);
	switch_to(10, 3, "short");
	status(30, 3, ST(PEND), NULL);
	modify_name(35, 3, "bigger");
	dispatch(45, 3, 0, "hostB", 4);
	m = fold();
	j = hist_model_job(m, 3, 0);
	assert_times(m, 3, 0, T0 + 100, "15 30 55 0 0 0 = 100");
	ck_assert_str_eq(j->queue, "short");
	ck_assert_str_eq(j->name, "bigger");
	ck_assert(!hist_job_finished(j));
	ck_assert_str_eq(((HistStep *)g_ptr_array_index(j->steps, 3))->text,
	    "Job name changes to : bigger;");
	hist_model_free(m);
}
END_TEST

/* Array elements are jobs of their own, named name[i]. */
START_TEST(test_model_array)
{
	guint32 idx[] = { 1, 2 };
	HistModel *m;

	submit_full(0, 4, "alice", "arr", FALSE, idx, 2);
	dispatch(10, 4, 1, "hostB", 1);
	status_full(20, 4, 1, ST(DONE), 0, 0, NULL);
	dispatch(30, 4, 2, "hostB", 1);
	status_full(35, 4, 2, ST(UNKWN), 0, 0, NULL);
	m = fold();
	ck_assert_uint_eq(m->jobs->len, 2);
	assert_times(m, 4, 1, T0 + 50, "10 0 10 0 0 0 = 20");
	assert_times(m, 4, 2, T0 + 50, "30 0 5 0 0 15 = 50");
	ck_assert_str_eq(hist_model_job(m, 4, 2)->name, "arr[2]");
	ck_assert_str_eq(hist_model_job(m, 4, 2)->base_name, "arr");
	hist_model_free(m);
}
END_TEST

/* Events of a job submitted before the files read are dropped, counted. */
START_TEST(test_model_orphans)
{
	HistModel *m;

	dispatch(10, 77, 0, "hostB", 1);
	status(20, 77, ST(DONE), NULL);
	m = fold();
	ck_assert_uint_eq(m->jobs->len, 0);
	ck_assert_uint_eq(m->orphans, 2);
	hist_model_free(m);
}
END_TEST

/* ---- selection and time forms ----------------------------------------------- */

static guint
count(const HistFilter *f, const HistModel *m)
{
	g_autoptr(GPtrArray) sel = hist_filter_select(f, m);

	return sel->len;
}

START_TEST(test_filter)
{
	guint32 idx[] = { 1, 2 };
	HistModel *m;
	HistFilter f;
	HistJobRef r = { 4, 2, TRUE };

	full_life();                                /* 1: alice, DONE */
	submit_full(300, 3, "bob", "big", TRUE, NULL, 0);   /* PSUSP */
	submit_full(310, 4, "alice", "arr", FALSE, idx, 2); /* PEND */
	dispatch(320, 4, 1, "hostB", 1);            /* 4[1] RUN */
	m = fold();
	hist_filter_init(&f);
	ck_assert_uint_eq(count(&f, m), 3);         /* unfinished */
	f.user = "alice";
	ck_assert_uint_eq(count(&f, m), 2);
	f.states = HIST_SEL_DONE;
	ck_assert_uint_eq(count(&f, m), 1);
	f.states = HIST_SEL_ALL;
	f.user = NULL;
	f.name = "arr";
	ck_assert_uint_eq(count(&f, m), 2);
	f.name = "b*";
	ck_assert_uint_eq(count(&f, m), 1);
	f.name = NULL;
	g_array_append_val(f.jobs, r);
	ck_assert_uint_eq(count(&f, m), 1);
	g_array_set_size(f.jobs, 0);
	f.complete = (HistRange){ TRUE, T0 + 100, T0 + 200 };
	ck_assert_uint_eq(count(&f, m), 1);
	f.complete = (HistRange){ TRUE, T0 + 201, T0 + 900 };
	ck_assert_uint_eq(count(&f, m), 0);
	f.complete.set = FALSE;
	f.dispatch = (HistRange){ TRUE, T0 + 300, T0 + 900 };
	ck_assert_uint_eq(count(&f, m), 1);
	f.dispatch.set = FALSE;
	f.submit = (HistRange){ TRUE, T0 + 300, T0 + 305 };
	f.states = HIST_SEL_SUSP;
	ck_assert_uint_eq(count(&f, m), 1);
	hist_filter_clear(&f);
	hist_model_free(m);
}
END_TEST

START_TEST(test_time_forms)
{
	gint64 t;
	HistRange r;
	GError *err = NULL;

	ck_assert(hist_parse_time("10:00", T0, FALSE, &t, NULL));
	ck_assert_int_eq(t, T0 - 120);
	ck_assert(hist_parse_time("10:00", T0, TRUE, &t, NULL));
	ck_assert_int_eq(t, T0 - 61);
	ck_assert(hist_parse_time("11/20/9:00", T0, FALSE, &t, NULL));
	ck_assert_int_eq(t, 1795165200);
	ck_assert(hist_parse_time("2025/1/2/3:04", T0, FALSE, &t, NULL));
	ck_assert_int_eq(t, 1735787040);
	ck_assert(hist_parse_time("21/0:00", T0, FALSE, &t, NULL));
	ck_assert_int_eq(t, 1795219200);
	ck_assert(hist_parse_time("11/21", T0, TRUE, &t, NULL));
	ck_assert_int_eq(t, 1795219200 + 86399);
	ck_assert(hist_parse_time(".", T0, FALSE, &t, NULL));
	ck_assert_int_eq(t, T0);
	ck_assert(!hist_parse_time("25:00", T0, FALSE, &t, NULL));
	ck_assert(!hist_parse_time("5", T0, FALSE, &t, NULL));
	ck_assert(!hist_parse_time("2/30/1:00", T0, FALSE, &t, NULL));
	ck_assert(!hist_parse_time("x/1:00", T0, FALSE, &t, &err));
	ck_assert(strstr(err->message, "x/1:00") != NULL);
	g_clear_error(&err);
	ck_assert(hist_parse_range("9:00,", T0, &r, NULL));
	ck_assert(r.set && r.from == T0 - 3720 && r.to == T0);
	ck_assert(hist_parse_range(",9:00", T0, &r, NULL));
	ck_assert(r.from == 0 && r.to == T0 - 3720 + 59);
	ck_assert(hist_parse_range("9:00,10:00", T0, &r, NULL));
	ck_assert(!hist_parse_range(",", T0, &r, NULL));
	ck_assert(!hist_parse_range("10:00,9:00", T0, &r, NULL));
}
END_TEST

/* ---- layouts ------------------------------------------------------------------ */

START_TEST(test_format_summary)
{
	g_autoptr(GString) out = g_string_new(NULL);
	HistModel *m;

	full_life();
	submit_full(300, 12345678, "averyverylonguser", "a_rather_long_name",
	    FALSE, NULL, 0);
	m = fold();
	hist_format_summary(out, m->jobs, T0 + 400, FALSE);
	ck_assert_str_eq(out->str,
	    "Summary of time in seconds spent in various states:\n"
	    "JOBID   USER    JOB_NAME  PEND    PSUSP   RUN     USUSP   SSUSP   UNKWN   TOTAL\n"
	    "1       alice   sleep 100 10      0       150     20      20      0       200\n"
	    "12345678 averyv* *ong_name 100     0       0       0       0       0       100\n");
	hist_model_free(m);
}
END_TEST

START_TEST(test_format_long)
{
	g_autoptr(GString) out = g_string_new(NULL);
	HistModel *m;

	full_life();
	requeue(210, 1, FALSE);
	switch_to(220, 1, "short");
	modify_name(230, 1, "renamed");
	m = fold();
	hist_format_long(out, m->jobs, T0 + 300);
	ck_assert_str_eq(out->str,
	    "\n"
	    "Job <1>, Job Name <renamed>, User <alice>, Project <default>, Command <sleep 100\n"
	    "                     >\n"
	    "Sat Nov 21 10:02:00: Submitted from host <hostA>, to Queue <normal>, CWD </home/\n"
	    "                     alice>;\n"
	    "Sat Nov 21 10:02:10: Dispatched to <hostB>;\n"
	    "Sat Nov 21 10:02:11: Starting (Pid 4242);\n"
	    "Sat Nov 21 10:02:50: Suspended by the user or administrator;\n"
	    "Sat Nov 21 10:03:10: Running;\n"
	    "Sat Nov 21 10:03:20: Suspended: The run windows of the queue are closed;\n"
	    "Sat Nov 21 10:03:40: Running;\n"
	    "Sat Nov 21 10:05:20: Done successfully. The CPU time used is 1.5 seconds;\n"
	    "Sat Nov 21 10:05:30: Requeued;\n"
	    "Sat Nov 21 10:05:40: Switched to Queue <short>;\n"
	    "Sat Nov 21 10:05:50: Parameters of Job are changed:\n"
	    "    Job name changes to : renamed;\n"
	    "\n"
	    "Summary of time in seconds spent in various states by  Sat Nov 21 10:07:00\n"
	    "  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL\n"
	    "  100      0        150      20       20       0        290\n"
	    "\n");
	hist_model_free(m);
}
END_TEST

static void
consumer_pend(gint64 dt, guint64 id, gboolean pending)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobConsumerPend e = BASALT__EV_JOB_CONSUMER_PEND__INIT;

	e.job_id = id;
	e.pending = pending;
	e.consumer = "/eng/a";
	e.resource_group = "rg1";
	e.reason = "The consumer's quota in resource group rg1 is reached;";
	ev.body_case = BASALT__EVENT__BODY_JOB_CONSUMER_PEND;
	ev.job_consumer_pend = &e;
	add(&ev, dt);
}

/* Quota-driven pending: bhist -l says when the consumer's quota began
 * and stopped holding the job; the job's state times do not change. */
START_TEST(test_format_long_consumer_pend)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *times = NULL;
	HistModel *m;

	submit(0, 1, "alice");
	consumer_pend(5, 1, TRUE);
	consumer_pend(8, 1, FALSE);
	consumer_pend(9, 1, TRUE);
	dispatch(10, 1, 0, "hostB", 1);
	m = fold();
	hist_format_long(out, m->jobs, T0 + 20);
	ck_assert_msg(strstr(out->str,
	    "Sat Nov 21 10:02:05: Pending: The consumer's quota in resource group rg1 is reac\n"
	    "                     hed;\n"
	    "Sat Nov 21 10:02:08: No longer pending for its consumer's quota;\n"
	    "Sat Nov 21 10:02:09: Pending: The consumer's quota in resource group rg1 is reac\n") != NULL,
	    "%s", out->str);
	times = times_of(m, 1, 0, T0 + 20);
	ck_assert_str_eq(times, "10 0 10 0 0 0 = 20");
	hist_model_free(m);
}
END_TEST

/* Lease records as the consumer journals them (mbatchd/state/leases.c). */
static void
lease_new(gint64 dt, const char *provider, const char *policy,
    const char *host, guint32 slots)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvLeaseNew e = BASALT__EV_LEASE_NEW__INIT;
	Basalt__EvLeaseHost h = BASALT__EV_LEASE_HOST__INIT;
	Basalt__EvLeaseHost *hp = &h;

	h.host = (char *)host;
	h.slots = 4;
	h.consumer_slots = slots;
	e.policy = (char *)policy;
	e.provider = (char *)provider;
	e.consumer = "alpha";
	e.hosts = &hp;
	e.n_hosts = 1;
	ev.body_case = BASALT__EVENT__BODY_LEASE_NEW;
	ev.lease_new = &e;
	add(&ev, dt);
}

static void
lease_status(gint64 dt, const char *provider, const char *policy,
    guint32 st)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvLeaseStatus e = BASALT__EV_LEASE_STATUS__INIT;

	e.policy = (char *)policy;
	e.provider = (char *)provider;
	e.consumer = "alpha";
	e.status = st;
	ev.body_case = BASALT__EVENT__BODY_LEASE_STATUS;
	ev.lease_status = &e;
	add(&ev, dt);
}

/* A job on a leased host gets the changes of that host's lease during its
 * run, in order among its records; the same status twice, another
 * lease's changes, and changes before the dispatch or after the end are
 * no line of it; its state times do not change. */
START_TEST(test_format_long_lease)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *times = NULL;
	HistModel *m;
	HistJob *j;

	submit(0, 1, "alice");
	lease_new(1, "beta", "toalpha", "pv1", 2);
	lease_status(1, "beta", "toalpha", 0);
	lease_new(1, "gamma", "other", "pv1", 2);
	lease_status(2, "beta", "toalpha", 2);       /* before the run */
	lease_status(3, "beta", "toalpha", 0);
	dispatch(10, 1, 0, "pv1@beta", 2);
	start(11, 1, 77);
	lease_status(20, "gamma", "other", 2);       /* not its host's lease */
	lease_status(30, "beta", "toalpha", 2);
	lease_status(31, "beta", "toalpha", 2);      /* the same again */
	lease_new(40, "beta", "toalpha", "pv1", 2);  /* resent, unchanged */
	lease_status(40, "beta", "toalpha", 0);
	lease_new(45, "beta", "toalpha", "pv1", 1);
	status_full(50, 1, 0, ST(DONE), 0, 0, NULL);
	lease_status(60, "beta", "toalpha", 2);      /* after the end */
	m = fold();
	j = hist_model_job(m, 1, 0);
	ck_assert_uint_eq(j->steps->len, 7);
	hist_format_long(out, m->jobs, T0 + 100);
	ck_assert_msg(strstr(out->str,
	    "Sat Nov 21 10:02:11: Starting (Pid 77);\n"
	    "Sat Nov 21 10:02:30: The lease <toalpha> from cluster <beta> is disconnected; th\n"
	    "                     e job's status is not known until the cluster returns;\n"
	    "Sat Nov 21 10:02:40: The lease <toalpha> from cluster <beta> is connected again:\n"
	    "                      ok;\n"
	    "Sat Nov 21 10:02:45: The lease <toalpha> from cluster <beta> gives this cluster \n"
	    "                     1 slot on host <pv1@beta> (2 before);\n"
	    "Sat Nov 21 10:02:50: Done successfully.") != NULL, "%s", out->str);
	times = times_of(m, 1, 0, T0 + 100);
	ck_assert_str_eq(times, "10 0 40 0 0 0 = 50");
	hist_model_free(m);
}
END_TEST

/* A dispatch stamped with what the job started with: bhist -l prints it
 * under that dispatch, LSF's limit blocks first, then the settings; each
 * run shows its own (the rerun here started under a lower RUNLIMIT), and
 * bacct -l, which tells what a job used, does not repeat them. */
static void
dispatch_stamped(gint64 dt, guint64 id, guint64 runlimit_s, gboolean full)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;
	Basalt__JobEffective eff = BASALT__JOB_EFFECTIVE__INIT;
	Basalt__JobLimit run = BASALT__JOB_LIMIT__INIT, mem = BASALT__JOB_LIMIT__INIT;
	Basalt__JobLimit core = BASALT__JOB_LIMIT__INIT, proc = BASALT__JOB_LIMIT__INIT;
	char *hosts[] = { "hostB" };
	char *env[] = { "A=1", "B=two words" };

	run.value = runlimit_s;
	eff.runlimit_s = &run;
	if (full) {
		mem.value = 2048;
		core.value = 0;
		proc.value = 4;
		eff.memlimit_kb = &mem;
		eff.corelimit_kb = &core;
		eff.processlimit = &proc;
		eff.nice = -2;
		eff.job_starter = "astart %USRCMD";
		eff.pre_exec = "/bin/apre";
		eff.env = env;
		eff.n_env = 2;
		eff.max_preempt = 1;
	}
	e.job_id = id;
	e.exec_hosts = hosts;
	e.n_exec_hosts = 1;
	e.effective = &eff;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	add(&ev, dt);
}

START_TEST(test_format_long_effective)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) acct = g_string_new(NULL);
	HistAcctHeader h = { 0 };
	HistModel *m;

	submit(0, 1, "alice");
	dispatch_stamped(10, 1, 1200, TRUE);
	requeue(20, 1, FALSE);
	dispatch_stamped(30, 1, 600, FALSE);
	status_full(40, 1, 0, ST(DONE), 0, 0, NULL);
	m = fold();
	hist_format_long(out, m->jobs, T0 + 100);
	ck_assert_str_eq(out->str,
	    "\n"
	    "Job <1>, Job Name <sleep 100>, User <alice>, Project <default>, Command <sleep 1\n"
	    "                     00>\n"
	    "Sat Nov 21 10:02:00: Submitted from host <hostA>, to Queue <normal>, CWD </home/\n"
	    "                     alice>;\n"
	    "Sat Nov 21 10:02:10: Dispatched to <hostB>;\n"
	    "\n"
	    " RUNLIMIT\n"
	    " 20.0 min\n"
	    "\n"
	    " MEMLIMIT\n"
	    " 2048 K\n"
	    "\n"
	    " CORELIMIT\n"
	    " 0 K\n"
	    "\n"
	    " PROCESSLIMIT\n"
	    " 4\n"
	    "\n"
	    " NICE\n"
	    " -2\n"
	    "\n"
	    " JOB_STARTER\n"
	    " astart %USRCMD\n"
	    "\n"
	    " PRE_EXEC\n"
	    " /bin/apre\n"
	    "\n"
	    " ENV_VARS\n"
	    " <A=1> <B=two words>\n"
	    "\n"
	    " MAX_JOB_PREEMPT\n"
	    " 1\n"
	    "Sat Nov 21 10:02:20: Requeued;\n"
	    "Sat Nov 21 10:02:30: Dispatched to <hostB>;\n"
	    "\n"
	    " RUNLIMIT\n"
	    " 10.0 min\n"
	    "Sat Nov 21 10:02:40: Done successfully. The CPU time used is 0.0 seconds;\n"
	    "\n"
	    "Summary of time in seconds spent in various states by  Sat Nov 21 10:02:40\n"
	    "  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL\n"
	    "  20       0        20       0        0        0        40\n"
	    "\n");
	hist_format_acct(acct, m->jobs, &h, TRUE);
	ck_assert_ptr_null(strstr(acct->str, "RUNLIMIT"));
	hist_model_free(m);
}
END_TEST

START_TEST(test_format_timeline)
{
	g_autoptr(GString) out = g_string_new(NULL);
	guint32 idx[] = { 1, 2 };
	HistModel *m;

	submit(0, 5, "alice");
	submit_full(1, 6, "bob", "arr", FALSE, idx, 2);
	dispatch(2, 6, 2, "hostB", 2);
	dispatch(3, 5, 0, "hostC", 1);
	status_full(4, 5, 0, ST(EXIT), 2, 0, NULL);
	m = fold();
	hist_format_timeline(out, m->jobs);
	ck_assert_str_eq(out->str,
	    "Nov 21 10:02:00 2026: Job <5> submitted from host <hostA> to queue <normal>, CWD </home/alice>;\n"
	    "Nov 21 10:02:01 2026: Job <6[1]> submitted from host <hostA> to queue <normal>, CWD </home/alice>;\n"
	    "Nov 21 10:02:01 2026: Job <6[2]> submitted from host <hostA> to queue <normal>, CWD </home/alice>;\n"
	    "Nov 21 10:02:02 2026: Job <6[2]> dispatched to 2 Hosts/Processors <2*hostB>;\n"
	    "Nov 21 10:02:03 2026: Job <5> dispatched to <hostC>;\n"
	    "Nov 21 10:02:04 2026: Job <5> exited with exit code 2. The CPU time used is 0.0 seconds;\n");
	hist_model_free(m);
}
END_TEST

START_TEST(test_format_acct)
{
	g_autoptr(GString) out = g_string_new(NULL);
	HistAcctHeader h = { .user = "alice" };
	HistModel *m;

	full_life();                    /* cpu 1.5, wait 10, turnaround 200 */
	submit(300, 2, "alice");
	dispatch(330, 2, 0, "hostB", 1);
	status_full(400, 2, 0, ST(EXIT), 1, 500000, NULL);
	m = fold();
	hist_format_acct(out, m->jobs, &h, FALSE);
	ck_assert_str_eq(out->str,
	    "Accounting information about jobs that are: \n"
	    "  - submitted by users alice,\n"
	    "  - accounted on all projects.\n"
	    "  - completed normally or exited\n"
	    "  - executed on all hosts.\n"
	    "  - submitted to all queues.\n"
	    HIST_RULE
	    "\n"
	    "SUMMARY:      ( time unit: second ) \n"
	    " Total number of done jobs:       1      Total number of exited jobs:     1\n"
	    " Total CPU time consumed:       2.0      Average CPU time consumed:     1.0\n"
	    " Maximum CPU time of a job:     1.5      Minimum CPU time of a job:     0.5\n"
	    " Total wait time in queues:    40.0\n"
	    " Average wait time in queue:   20.0\n"
	    " Maximum wait time in queue:   30.0      Minimum wait time in queue:   10.0\n"
	    " Average turnaround time:       150 (seconds/job)\n"
	    " Maximum turnaround time:       200      Minimum turnaround time:       100\n"
	    " Average hog factor of a job:  0.01 ( cpu time / turnaround time )\n"
	    " Maximum hog factor of a job:  0.01      Minimum hog factor of a job:  0.01\n");
	g_string_truncate(out, 0);
	g_ptr_array_remove_index(m->jobs, 0);
	hist_format_acct(out, m->jobs, &h, TRUE);
	ck_assert_msg(strstr(out->str, HIST_RULE
	    "\n"
	    "Job <2>, Job Name <sleep 100>, User <alice>, Project <default>, Status <EXIT>, Q\n"
	    "                     ueue <normal>, Command <sleep 100>\n"
	    "Sat Nov 21 10:07:00: Submitted from host <hostA>, to Queue <normal>, CWD </home/\n"
	    "                     alice>;\n"
	    "Sat Nov 21 10:07:30: Dispatched to <hostB>;\n"
	    "Sat Nov 21 10:08:40: Exited with exit code 1. The CPU time used is 0.5 seconds;\n"
	    "\n"
	    "Accounting information about this job:\n"
	    "     CPU_T     WAIT     TURNAROUND   STATUS     HOG_FACTOR    MEM    SWAP\n"
	    "      0.50       30            100     exit         0.0050     2M       -\n"
	    HIST_RULE
	    "\n"
	    "SUMMARY:") != NULL, "%s", out->str);
	hist_model_free(m);
}
END_TEST

/* ---- the programs, on a journal written here ------------------------------- */

static char *envdir;            /* LSF_ENVDIR of the current test */
static char *evdir;             /* its $LSB_SHAREDIR/events */

/* Runs a program of the build's cmd/ with LSF_ENVDIR and TZ=UTC. */
static Run
run(const char *line)
{
	return run_full(line, FALSE, envdir);
}

#define assert_has(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) != NULL, \
	    "'%s' not found in '%s'", (needle), (hay))

/* Writes the story to the journal, rotating before event rotate_at. */
static void
write_journal(guint64 rotate_at)
{
	BsEvlogOptions o;
	BsEvlog *log;
	GError *err = NULL;

	bs_evlog_options_init(&o);
	o.sync_mode = BS_EVLOG_SYNC_NONE;
	log = bs_evlog_open(evdir, &o, &err);
	ck_assert_msg(log != NULL, "%s", err ? err->message : "");
	for (guint i = 0; i < story->len; i++) {
		Basalt__Event *ev = g_ptr_array_index(story, i);

		if (ev->seq == rotate_at)
			ck_assert(bs_evlog_rotate(log, &err));
		ck_assert(bs_evlog_append(log, ev, &err));
		ck_assert(bs_evlog_sync(log, &err));
	}
	bs_evlog_free(log);
}

static void
prog_setup(void)
{
	g_autofree char *conf = NULL;

	story_reset();
	envdir = jt_new_dir();
	conf = g_build_filename(envdir, "lsf.conf", NULL);
	ck_assert(g_file_set_contents(conf, "LSB_SHAREDIR=share\n", -1, NULL));
	evdir = g_build_filename(envdir, "share", "events", NULL);
	ck_assert_int_eq(g_mkdir_with_parents(evdir, 0755), 0);
}

static void
prog_teardown(void)
{
	g_clear_pointer(&envdir, g_free);
	g_clear_pointer(&evdir, g_free);
	teardown();
}

/* Job 1 done (alice), 2 exited (bob, rotated into the second file),
 * 3 still pending (the caller). */
static void
three_jobs(void)
{
	full_life();
	submit(300, 2, "bob");
	dispatch(330, 2, 0, "hostB", 1);
	status_full(400, 2, 0, ST(EXIT), 1, 500000, NULL);
	submit(500, 3, g_get_user_name());
	write_journal(9);
}

START_TEST(test_bhist_default_and_all)
{
	Run r;

	three_jobs();
	r = run("bhist");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "Summary of time in seconds spent in various states:\n"
	    "JOBID   USER    JOB_NAME  PEND    PSUSP   RUN     USUSP   SSUSP   "
	    "UNKWN   TOTAL\n3       ");
	ck_assert(strstr(r.out, "alice") == NULL);
	run_clear(&r);
	r = run("bhist -a -u all");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "\n1       alice   sleep 100 10      0       150     "
	    "20      20      0       200\n2       bob     sleep 100 30      0"
	    "       70      0       0       0       100\n3       ");
	run_clear(&r);
	r = run("bhist -d -u bob");
	assert_has(r.out, "\n2       bob ");
	ck_assert(strstr(r.out, "alice") == NULL);
	run_clear(&r);
	r = run("bhist -n 1 -a -u all");     /* job 1 is in the older file */
	ck_assert(strstr(r.out, "alice") == NULL);
	assert_has(r.out, "\n2       bob ");
	run_clear(&r);
	r = run("bhist -u nobody_here");
	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "No matching job found\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_bhist_long_time_ranges)
{
	Run r;

	three_jobs();
	r = run("bhist -l 2");
	ck_assert_int_eq(r.code, 0);
	ck_assert_str_eq(r.out, "\n"
	    "Job <2>, Job Name <sleep 100>, User <bob>, Project <default>, Command <sleep 100\n"
	    "                     >\n"
	    "Sat Nov 21 10:07:00: Submitted from host <hostA>, to Queue <normal>, CWD </home/\n"
	    "                     alice>;\n"
	    "Sat Nov 21 10:07:30: Dispatched to <hostB>;\n"
	    "Sat Nov 21 10:08:40: Exited with exit code 1. The CPU time used is 0.5 seconds;\n"
	    "\n"
	    "Summary of time in seconds spent in various states by  Sat Nov 21 10:08:40\n"
	    "  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL\n"
	    "  30       0        70       0        0        0        100\n"
	    "\n");
	run_clear(&r);
	r = run("bhist -t -u all -a");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "Nov 21 10:02:00 2026: Job <1> submitted from host "
	    "<hostA> to queue <normal>, CWD </home/alice>;\n"
	    "Nov 21 10:02:10 2026: Job <1> dispatched to <hostB>;\n");
	assert_has(r.out, "Nov 21 10:08:40 2026: Job <2> exited with exit code 1.");
	run_clear(&r);
	r = run("bhist -u all -C 2026/11/21/10:05,2026/11/21/10:06");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "\n1       alice ");
	ck_assert(strstr(r.out, "bob") == NULL);
	run_clear(&r);
	r = run("bhist -u all -S 2026/11/21/10:07,2026/11/21/10:07");
	assert_has(r.out, "\n2       bob ");
	ck_assert(strstr(r.out, "alice") == NULL);
	run_clear(&r);
	r = run("bhist -u all -C 25:00");
	ck_assert_int_eq(r.code, 255);
	assert_has(r.err, "25:00: Bad time specification");
	run_clear(&r);
	r = run("bhist -x");
	ck_assert_int_eq(r.code, 255);
	assert_has(r.err, "bhist: illegal option -- x\nUsage: bhist");
	run_clear(&r);
}
END_TEST

START_TEST(test_bacct)
{
	Run r;

	three_jobs();
	r = run("bacct -u all");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "  - submitted by all users.\n");
	assert_has(r.out, " Total number of done jobs:       1      "
	    "Total number of exited jobs:     1\n");
	assert_has(r.out, " Average turnaround time:       150 "
	    "(seconds/job)\n");
	run_clear(&r);
	r = run("bacct -l -u bob");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "  - submitted by users bob,\n");
	assert_has(r.out, "      0.50       30            100     exit         "
	    "0.0050     2M       -\n");
	run_clear(&r);
	r = run("bacct");                   /* the caller has no finished job */
	ck_assert_int_eq(r.code, 255);
	ck_assert_str_eq(r.err, "No matching job found\n");
	run_clear(&r);
}
END_TEST

START_TEST(test_badmin_journal)
{
	g_autofree char *seg = NULL;
	g_autoptr(GArray) offs = NULL;
	g_autofree char *expect = NULL;
	Run r;

	three_jobs();
	r = run("badmin journal check");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "Segments:           2\n");
	assert_has(r.out, "Records:            12 (seq 1 to 12)\n");
	assert_has(r.out, "Problems:           0\nBytes a load would drop: 0\n"
	    "The journal loads.\n");
	run_clear(&r);
	/* A torn tail loads, minus the bytes it holds. */
	seg = jt_segment(evdir, -1);
	jt_truncate(seg, jt_file_size(seg) - 3);
	offs = jt_record_offsets(seg);
	r = run("badmin journal check");
	ck_assert_int_eq(r.code, 0);
	expect = g_strdup_printf("Bytes a load would drop: %" G_GUINT64_FORMAT
	    "\n", jt_file_size(seg) - g_array_index(offs, guint64, offs->len - 1));
	assert_has(r.out, expect);
	run_clear(&r);
	/* A flipped byte in the middle does not load: file and offset. */
	g_clear_pointer(&seg, g_free);
	seg = jt_segment(evdir, 0);
	g_clear_pointer(&offs, g_array_unref);
	offs = jt_record_offsets(seg);
	jt_flip_byte(seg, g_array_index(offs, guint64, 3) + 12);
	r = run("badmin journal check");
	ck_assert_int_eq(r.code, 255);
	g_free(expect);
	expect = g_strdup_printf("%s: offset %" G_GUINT64_FORMAT ":", seg,
	    g_array_index(offs, guint64, 3));
	assert_has(r.out, expect);
	assert_has(r.out, "The journal does not load: ");
	run_clear(&r);
	r = run("badmin journal salvage");
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, ".damaged");
	assert_has(r.out, "The journal loads.\n");
	run_clear(&r);
	r = run("badmin journal check");
	ck_assert_int_eq(r.code, 0);
	run_clear(&r);
	r = run("bhist -a -u all");         /* history still readable */
	ck_assert_int_eq(r.code, 0);
	assert_has(r.out, "\n2       bob ");
	run_clear(&r);
	r = run("badmin journal fix");
	ck_assert_int_eq(r.code, 255);
	run_clear(&r);
}
END_TEST

static Suite *
hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("model");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_model_full_life);
	tcase_add_test(tc, test_model_requeue);
	tcase_add_test(tc, test_model_hold_switch_running);
	tcase_add_test(tc, test_model_array);
	tcase_add_test(tc, test_model_orphans);
	tcase_add_test(tc, test_filter);
	tcase_add_test(tc, test_time_forms);
	tcase_add_test(tc, test_format_summary);
	tcase_add_test(tc, test_format_long);
	tcase_add_test(tc, test_format_long_consumer_pend);
	tcase_add_test(tc, test_format_long_effective);
	tcase_add_test(tc, test_format_long_lease);
	tcase_add_test(tc, test_format_timeline);
	tcase_add_test(tc, test_format_acct);
	suite_add_tcase(s, tc);
	tc = tcase_create("programs");
	tcase_add_unchecked_fixture(tc, jt_suite_setup, jt_suite_teardown);
	tcase_add_checked_fixture(tc, prog_setup, prog_teardown);
	tcase_add_test(tc, test_bhist_default_and_all);
	tcase_add_test(tc, test_bhist_long_time_ranges);
	tcase_add_test(tc, test_bacct);
	tcase_add_test(tc, test_badmin_journal);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	/* Local time is part of the layouts: fix it, here and in children. */
	g_setenv("TZ", "UTC", TRUE);
	tzset();
	return bs_run_suite(hist_suite());
}
