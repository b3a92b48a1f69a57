/*
 * The pure scheduling pass: queue priority, FCFS, every slot limit, spans,
 * host choice and the pending reasons bjobs -p shows.  Each test builds a
 * small snapshot by hand and checks the plan.
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
	SchedRunning running[16];
	SchedAlloc run_allocs[16];
	SchedSnapshot snap;
	SchedPlan *plan;
	GPtrArray *resreqs;       /* BsResReq the jobs point to */
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
	t.resreqs = g_ptr_array_new_with_free_func((GDestroyNotify)bs_resreq_free);
}

static void
teardown(void)
{
	sched_plan_free(t.plan);
	g_ptr_array_free(t.resreqs, TRUE);
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
running(guint64 id, guint q, guint u, guint h, int slots)
{
	SchedRunning *r = &t.running[t.snap.n_running];
	SchedAlloc *a = &t.run_allocs[t.snap.n_running];

	a->host = h;
	a->slots = slots;
	r->id = id;
	r->queue = q;
	r->user = u;
	r->allocs = a;
	r->n_allocs = 1;
	t.snap.n_running++;
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

START_TEST(test_priority_before_fcfs)
{
	guint h = host("hA", 2), low = queue("low", 10), high = queue("high", 50);
	guint u = user("alice");

	(void)h;
	job(1, low, u, 1);
	job(2, high, u, 1);
	job(3, high, u, 1);
	run();
	expect("2@hA*1 3@hA*1");
	expect_reason(0, "Job slot limit reached: 1 host;");
}
END_TEST

START_TEST(test_fcfs_within_queue_and_running_jobs_count)
{
	guint h = host("hA", 3), q = queue("normal", 30), u = user("alice");

	running(9, q, u, h, 1);
	job(1, q, u, 1);
	job(2, q, u, 1);
	job(3, q, u, 1);
	run();
	expect("1@hA*1 2@hA*1");
	expect_reason(2, "Job slot limit reached: 1 host;");
}
END_TEST

START_TEST(test_equal_priority_queues_share_fcfs_order)
{
	guint q1, q2, u = user("alice");

	host("hA", 2);
	q1 = queue("a", 30);
	q2 = queue("b", 30);
	job(1, q2, u, 1);
	job(2, q1, u, 1);
	job(3, q2, u, 1);
	run();
	expect("1@hA*1 2@hA*1");
}
END_TEST

START_TEST(test_queue_limits)
{
	guint q = queue("normal", 30), a = user("alice"), b = user("bob");

	host("hA", 10);
	t.queues[q].qjob_limit = 3;
	t.queues[q].ujob_limit = 2;
	job(1, q, a, 1);
	job(2, q, a, 1);
	job(3, q, a, 1);
	job(4, q, b, 1);
	job(5, q, b, 1);
	run();
	expect("1@hA*1 2@hA*1 4@hA*1");
	expect_reason(2, "User has reached the per-user job slot limit of the queue;");
	expect_reason(4, "The queue has reached its job slot limit;");
}
END_TEST

START_TEST(test_per_host_queue_limits)
{
	guint q = queue("normal", 30), u = user("alice");

	host("hA", 8);
	host("hB", 8);
	t.queues[q].hjob_limit = 1;
	job(1, q, u, 1);
	job(2, q, u, 1);
	job(3, q, u, 1);
	run();
	expect("1@hA*1 2@hB*1");
	expect_reason(2, "Queue's per-host job slot limit reached: 2 hosts;");

	/* PJOB_LIMIT 0.5 on 4 CPUs: two slots per host. */
	t.queues[q].hjob_limit = SCHED_UNLIMITED;
	t.queues[q].pjob_limit = 0.5;
	job(4, q, u, 1);
	job(5, q, u, 1);
	run();
	expect("1@hA*1 2@hA*1 3@hB*1 4@hB*1");
	expect_reason(4, "Queue's per-CPU job slot limit reached: 2 hosts;");
}
END_TEST

START_TEST(test_user_limits)
{
	guint q = queue("normal", 30), a = user("alice"), b = user("bob");
	guint h = host("hA", 10);

	t.hosts[h].jl_u = 1;
	job(1, q, a, 1);
	job(2, q, a, 1);
	job(3, q, b, 1);
	run();
	/* The shape memo must not let alice's block hold bob back. */
	expect("1@hA*1 3@hA*1");
	expect_reason(1, "Host's per-user job slot limit reached: 1 host;");

	t.hosts[h].jl_u = SCHED_UNLIMITED;
	t.users[a].max_jobs = 1;
	run();
	expect("1@hA*1 3@hA*1");
	expect_reason(1, "The user has reached his/her job slot limit;");

	t.users[a].max_jobs = SCHED_UNLIMITED;
	t.users[a].jl_p = 0.25;   /* one slot on a 4-CPU host */
	run();
	expect("1@hA*1 3@hA*1");
	expect_reason(1, "User's per-CPU job slot limit reached: 1 host;");
}
END_TEST

START_TEST(test_group_limit)
{
	static guint in_group[] = { 0 };
	guint q = queue("normal", 30), a = user("alice"), b = user("bob");

	host("hA", 10);
	t.groups[0].name = "eng";
	t.groups[0].max_jobs = 2;
	t.snap.n_groups = 1;
	t.users[a].groups = t.users[b].groups = in_group;
	t.users[a].n_groups = t.users[b].n_groups = 1;
	job(1, q, a, 1);
	job(2, q, b, 1);
	job(3, q, b, 1);
	run();
	expect("1@hA*1 2@hA*1");
	expect_reason(2, "One of the user's groups has reached its job slot limit;");
}
END_TEST

START_TEST(test_parallel_jobs_and_span)
{
	guint q = queue("normal", 30), u = user("alice");
	SchedJob *j;

	host("hA", 2);
	host("hB", 2);
	j = job(1, q, u, 3);
	j->one_host = TRUE;
	job(2, q, u, 3);
	run();
	expect("2@hA*2 2@hB*1");
	expect_reason(0, "Not enough job slot(s): 2 hosts;");
}
END_TEST

START_TEST(test_min_max_slots_and_ptile)
{
	guint q = queue("normal", 30), u = user("alice");
	SchedJob *j;

	host("hA", 4);
	host("hB", 4);
	j = job(1, q, u, 2);
	j->max_slots = 6;
	j->ptile = 3;
	run();
	expect("1@hA*3 1@hB*3");

	t.snap.n_pending = 0;
	j = job(2, q, u, 2);
	j->max_slots = 16;
	run();
	expect("2@hA*4 2@hB*4");
}
END_TEST

START_TEST(test_asked_hosts)
{
	guint q = queue("normal", 30), u = user("alice");
	guint ha = host("hA", 4), hb = host("hB", 4), hc = host("hC", 4);
	static SchedQueueHost qhosts[2];
	static guint want_b[1], want_c[1];
	SchedJob *j;

	(void)ha;
	qhosts[0].host = 0;
	qhosts[1].host = hb;
	t.queues[q].hosts = qhosts;
	t.queues[q].n_hosts = 2;
	want_b[0] = hb;
	want_c[0] = hc;
	j = job(1, q, u, 1);
	j->asked_hosts = want_b;
	j->n_asked_hosts = 1;
	j = job(2, q, u, 1);
	j->asked_hosts = want_c;
	j->n_asked_hosts = 1;
	run();
	expect("1@hB*1");
	expect_reason(1, "Not usable to the queue: 1 host;\n"
	    "Not specified in job submission: 2 hosts;");
}
END_TEST

START_TEST(test_job_gates)
{
	guint q = queue("normal", 30), off = queue("off", 40), u = user("alice");
	SchedJob *j;

	host("hA", 8);
	job(1, q, u, 1)->held = TRUE;
	job(2, q, u, 1)->begin_time = 2000;
	job(3, q, u, 1)->dep = SCHED_DEP_WAIT;
	job(4, q, u, 1)->dep = SCHED_DEP_NEVER;
	t.queues[off].dispatch_ok = FALSE;
	t.queues[off].inactive_by_admin = TRUE;
	job(5, off, u, 1);
	j = job(6, q, u, 1);
	j->begin_time = 500;
	run();
	expect("6@hA*1");
	expect_reason(0, "The job was suspended by the user while pending;");
	expect_reason(1, "The job has a specified start time;");
	expect_reason(2, "Job dependency condition not satisfied;");
	expect_reason(3, "Dependency condition invalid or never satisfied;");
	expect_reason(4, "The queue is inactivated by the administrator;");
	t.queues[off].inactive_by_admin = FALSE;
	run();
	expect_reason(4, "The queue is inactivated by its time windows;");
}
END_TEST

START_TEST(test_array_running_limit)
{
	guint q = queue("normal", 30), u = user("alice");

	host("hA", 8);
	for (int i = 0; i < 4; i++) {
		SchedJob *j = job(100, q, u, 1);

		j->array_index = (guint32)i + 1;
		j->array_id = 100;
		j->array_limit = 2;
	}
	run();
	ck_assert_uint_eq(sched_plan_count(t.plan, SCHED_DO_DISPATCH), 2);
	expect_reason(2, "The job array has reached its running element limit;");
}
END_TEST

START_TEST(test_host_states_and_order)
{
	guint q = queue("normal", 30), u = user("alice");
	guint a = host("hA", 4), b = host("hB", 4), c = host("hC", 4), d = host("hD", 4);
	static SchedQueueHost qhosts[4];

	t.hosts[a].state = SCHED_HOST_CLOSED_ADM;
	t.hosts[b].state = SCHED_HOST_UNAVAIL;
	t.hosts[c].r15s = 2.0;
	t.hosts[d].r15s = 0.5;
	job(1, q, u, 1);
	run();
	expect("1@hD*1");   /* least loaded of the usable hosts */

	/* A HOSTS preference beats load. */
	for (guint i = 0; i < 4; i++)
		qhosts[i].host = i;
	qhosts[2].pref = 1;
	t.queues[q].hosts = qhosts;
	t.queues[q].n_hosts = 4;
	run();
	expect("1@hC*1");

	t.hosts[c].state = SCHED_HOST_CLOSED_WIND;
	t.hosts[d].max_slots = 0;
	run();
	expect("");
	expect_reason(0, "Closed by LSF administrator: 1 host;\n"
	    "Dispatch windows closed: 1 host;\n"
	    "Host is unavailable: 1 host;\n"
	    "Job slot limit reached: 1 host;");
}
END_TEST

static BsResReq *
resreq(const char *text)
{
	BsResReq *rr = bs_resreq_parse(text, NULL);

	ck_assert_ptr_nonnull(rr);
	g_ptr_array_add(t.resreqs, rr);
	return rr;
}

/* -R select[] is evaluated in the pass from the hosts' figures in the
 * snapshot: names, ncpus, load indices, memory; no callback. */
START_TEST(test_resreq_select_from_snapshot)
{
	guint q = queue("normal", 30), u = user("alice");
	guint h1 = host("h1", 1), h2 = host("h2", 1), h3 = host("h3", 4);

	t.hosts[h1].ncpus = 8;
	t.hosts[h2].ncpus = 8;
	t.hosts[h3].ncpus = 2;
	t.hosts[h1].load_known = t.hosts[h2].load_known = TRUE;
	t.hosts[h1].mem = 100;
	t.hosts[h2].mem = 4000;
	t.hosts[h1].ut = 0.9;
	t.hosts[h2].ut = 0.1;
	job(1, q, u, 1)->resreq = resreq("select[ncpus>=8 && mem>1000]");
	job(2, q, u, 1)->resreq = resreq("select[hname==h3]");
	/* h3 never reported its load: a select on a load index fails there. */
	job(3, q, u, 1)->resreq = resreq("select[ut<0.5]");
	job(4, q, u, 1)->resreq = resreq("select[ncpus>=8] rusage[mem=2000]");
	run();
	expect("1@h2*1 2@h3*1");
	expect_reason(2, "Job slot limit reached: 1 host;\n"
	    "Job's resource requirements not satisfied: 2 hosts;");
	/* h1 has 100 MB free, h2 is taken, h3 has 2 CPUs. */
	expect_reason(3, "Job slot limit reached: 1 host;\n"
	    "Job's resource requirements not satisfied: 2 hosts;");
}
END_TEST

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

START_TEST(test_queue_host_limit_then_mxj)
{
	/* Equal priorities: the two queues' jobs interleave in the pass. */
	guint qa = queue("qa", 30), qb = queue("qb", 30);
	guint a = user("alice"), b = user("bob"), c = user("carol");

	host("hA", 2);
	t.queues[qa].hjob_limit = 1;
	job(1, qa, a, 1);   /* hA: qa's HJOB_LIMIT reached there */
	job(2, qa, b, 1);   /* the queue limit says no */
	job(3, qb, a, 1);   /* hA: MXJ reached */
	job(4, qa, c, 1);   /* MXJ is checked first: it says no now */
	run();
	expect("1@hA*1 3@hA*1");
	expect_reason(1, "Queue's per-host job slot limit reached: 1 host;");
	expect_reason(3, "Job slot limit reached: 1 host;");

	/* The same with PJOB_LIMIT (0.25 x 4 CPUs = 1 slot). */
	t.queues[qa].hjob_limit = SCHED_UNLIMITED;
	t.queues[qa].pjob_limit = 0.25;
	run();
	expect("1@hA*1 3@hA*1");
	expect_reason(1, "Queue's per-CPU job slot limit reached: 1 host;");
	expect_reason(3, "Job slot limit reached: 1 host;");
}
END_TEST

START_TEST(test_preemption_reopens_a_full_host)
{
	/* normal and high share a priority; high may preempt low. */
	guint normal = queue("normal", 50), high = queue("high", 50);
	guint low = queue("low", 10), a = user("alice"), b = user("bob");
	guint ha = host("hA", 2);

	t.queues[high].preemptive = TRUE;
	running(100, low, a, ha, 2);
	job(1, normal, a, 1);   /* hA full: closed for normal */
	job(2, high, b, 1);     /* suspends job 100: one of hA's slots is left */
	job(3, normal, b, 1);   /* takes it: hA is open again for normal */
	run();
	expect("2@hA*1 3@hA*1");
	expect_reason(0, "Job slot limit reached: 1 host;");
	ck_assert_uint_eq((sched_plan_count(t.plan, SCHED_DO_PREEMPT_SUSPEND) + sched_plan_count(t.plan, SCHED_DO_PREEMPT_TERMINATE)), 1);
}
END_TEST

START_TEST(test_asked_hosts_named_twice)
{
	guint q = queue("normal", 30), u = user("alice");
	guint ha = host("hA", 4), hb = host("hB", 1), hx = host("hX", 4);
	static SchedQueueHost qhosts[2];
	static guint want[3];
	SchedJob *j;

	qhosts[0].host = ha;
	qhosts[1].host = hb;
	t.queues[q].hosts = qhosts;
	t.queues[q].n_hosts = 2;
	running(100, q, u, hb, 1);
	want[0] = hb;
	want[1] = hx;
	want[2] = hb;
	j = job(1, q, u, 1);
	j->asked_hosts = want;
	j->n_asked_hosts = 3;
	run();
	expect("");
	expect_reason(0, "Not usable to the queue: 1 host;\n"
	    "Not specified in job submission: 1 host;\n"
	    "Job slot limit reached: 1 host;");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("pass");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_priority_before_fcfs);
	tcase_add_test(tc, test_fcfs_within_queue_and_running_jobs_count);
	tcase_add_test(tc, test_equal_priority_queues_share_fcfs_order);
	tcase_add_test(tc, test_queue_limits);
	tcase_add_test(tc, test_per_host_queue_limits);
	tcase_add_test(tc, test_user_limits);
	tcase_add_test(tc, test_group_limit);
	tcase_add_test(tc, test_parallel_jobs_and_span);
	tcase_add_test(tc, test_min_max_slots_and_ptile);
	tcase_add_test(tc, test_asked_hosts);
	tcase_add_test(tc, test_job_gates);
	tcase_add_test(tc, test_array_running_limit);
	tcase_add_test(tc, test_host_states_and_order);
	tcase_add_test(tc, test_resreq_select_from_snapshot);
	suite_add_tcase(s, tc);
	tc = tcase_create("open");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_host_fills_mid_pass);
	tcase_add_test(tc, test_queue_host_limit_then_mxj);
	tcase_add_test(tc, test_preemption_reopens_a_full_host);
	tcase_add_test(tc, test_asked_hosts_named_twice);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
