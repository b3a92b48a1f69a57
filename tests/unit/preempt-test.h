/*
 * The fixture of the preemption tests (check_preempt.c,
 * check_preempt_limits.c): a small snapshot built by hand, run through
 * sched_run(), and the plan read back as strings:
 *   dispatched()  "job@host*slots ..."
 *   preempted()   "victim>preemptor ..." ("victim!>..." when terminated)
 *   resumed()     "job ..."
 */
#ifndef BS_TEST_PREEMPT_TEST_H
#define BS_TEST_PREEMPT_TEST_H

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

static inline void
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

static inline void
teardown(void)
{
	sched_plan_free(t.plan);
}

static inline guint
host(const char *name, int mxj)
{
	SchedHost *h = &t.hosts[t.snap.n_hosts];

	h->name = name;
	h->max_slots = mxj;
	h->ncpus = 4;
	h->jl_u = SCHED_UNLIMITED;
	return t.snap.n_hosts++;
}

static inline guint
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
static inline void
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
static inline void
preemptable_by(guint q, guint by)
{
	SchedQueue *sq = &t.queues[q];
	SchedQueueRef *r = &t.refs_by[q][sq->n_preemptable_queues++];

	sq->preemptable = TRUE;
	sq->preemptable_queues = t.refs_by[q];
	r->queue = by;
}

static inline guint
user(const char *name)
{
	SchedUser *u = &t.users[t.snap.n_users];

	u->name = name;
	u->max_jobs = SCHED_UNLIMITED;
	u->jl_p = -1;
	return t.snap.n_users++;
}

static inline guint
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

static inline SchedJob *
job(guint64 id, guint q, guint u, int slots)
{
	SchedJob *j = &t.jobs[t.snap.n_pending++];

	j->id = id;
	j->queue = q;
	j->user = u;
	j->min_slots = j->max_slots = slots;
	return j;
}

static inline SchedRunning *
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

static inline void
run(void)
{
	sched_plan_free(t.plan);
	t.plan = sched_run(&t.snap);
}

static inline char *
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

/* Preemptions, checking each comes right before its preemptor's
 * dispatch (other preemptions for the same preemptor between). */
static inline char *
preempted(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->decisions->len; i++) {
		const SchedDecision *pr = sched_plan_decision(t.plan, i);
		guint k = i + 1;

		if (!sched_kind_preempts(pr->kind))
			continue;
		while (k < t.plan->decisions->len &&
		    sched_kind_preempts(sched_plan_decision(t.plan, k)->kind))
			k++;
		ck_assert_uint_lt(k, t.plan->decisions->len);
		ck_assert_int_eq(sched_plan_decision(t.plan, k)->kind, SCHED_DO_DISPATCH);
		ck_assert_uint_eq(sched_plan_decision(t.plan, k)->job, pr->by);
		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT "%s>%"
		    G_GUINT64_FORMAT, s->len ? " " : "",
		    t.running[pr->job].id,
		    pr->kind == SCHED_DO_PREEMPT_TERMINATE ? "!" : "",
		    t.jobs[pr->by].id);
	}
	return g_string_free(s, FALSE);
}

static inline char *
resumed(void)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < t.plan->decisions->len; i++) {
		const SchedDecision *r = sched_plan_decision(t.plan, i);

		if (r->kind != SCHED_DO_RESUME)
			continue;
		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, s->len ? " " : "",
		    t.running[r->job].id);
	}
	return g_string_free(s, FALSE);
}

static inline void
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
static inline void
expect(const char *want_disp, const char *want_pre)
{
	expect_all(want_disp, want_pre, "");
}

static inline void
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

static inline void
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
static inline void
low_everywhere(void)
{
	running(1, LOW, 0, H1, 1, 100);
	running(2, LOW, 0, H1, 1, 200);
	running(3, LOW, 0, H2, 1, 300);
	running(4, LOW, 0, H2, 1, 400);
}

/* Drop running and pending jobs, keeping queues, hosts and users. */
static inline void
reset_jobs(void)
{
	memset(t.running, 0, sizeof t.running);
	memset(t.jobs, 0, sizeof t.jobs);
	t.snap.n_running = t.snap.n_pending = 0;
}

#endif
