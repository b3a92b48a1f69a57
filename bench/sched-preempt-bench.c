/*
 * sched-preempt-bench: what one scheduling pass costs when it must preempt.
 *
 * A full cluster of 1,000 hosts (MXJ 10) runs 10,000 one-slot jobs of a
 * low queue, from 100 users; 100 one-slot jobs are pending in a PREEMPTIVE
 * high queue, so every one of them preempts.  Host loads differ, so the
 * least-loaded order has work to do.  A second figure adds 100 pending
 * 4-slot span[hosts=1] jobs (each one host's worth of victims).
 *
 * A pass with nothing pending gives the fixed cost (counters for 10,000
 * running jobs) to subtract.
 *
 * Prints the median and the best of 7 passes of sched_run(), each on the
 * same snapshot (the policy is pure, so every pass decides the same).
 * Not part of `make check`: the numbers depend on the machine.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-pass.h"
#include "mbatchd/sched/sched.h"

#define N_HOSTS 1000
#define MXJ 10
#define N_USERS 100
#define N_HIGH 100
#define RUNS 7

typedef struct {
	SchedSnapshot snap;
	GPtrArray *names;
} Bench;

static void
add_hosts(Bench *b)
{
	SchedHost *hosts = g_new0(SchedHost, N_HOSTS);

	for (guint i = 0; i < N_HOSTS; i++) {
		char *name = g_strdup_printf("node%04u", i);

		g_ptr_array_add(b->names, name);
		hosts[i].name = name;
		hosts[i].max_slots = MXJ;
		hosts[i].ncpus = MXJ;
		hosts[i].jl_u = SCHED_UNLIMITED;
		/* Spread loads, with ties, so every key of the order is used. */
		hosts[i].r15s = (double)((i * 7919u) % 50) / 10.0;
		hosts[i].r1m = (double)((i * 104729u) % 30) / 10.0;
	}
	b->snap.hosts = hosts;
	b->snap.n_hosts = N_HOSTS;
}

static void
add_queues_users(Bench *b)
{
	SchedQueue *q = g_new0(SchedQueue, 2);
	SchedUser *u = g_new0(SchedUser, N_USERS);

	for (guint i = 0; i < 2; i++) {
		q[i].name = i == 0 ? "high" : "low";
		q[i].priority = i == 0 ? 99 : 1;
		q[i].dispatch_ok = TRUE;
		q[i].qjob_limit = q[i].ujob_limit = q[i].hjob_limit = SCHED_UNLIMITED;
		q[i].pjob_limit = -1;
	}
	q[0].preemptive = TRUE;
	for (guint i = 0; i < N_USERS; i++) {
		char *name = g_strdup_printf("user%03u", i);

		g_ptr_array_add(b->names, name);
		u[i].name = name;
		u[i].max_jobs = SCHED_UNLIMITED;
		u[i].jl_p = -1;
	}
	b->snap.queues = q;
	b->snap.n_queues = 2;
	b->snap.users = u;
	b->snap.n_users = N_USERS;
}

static void
add_running(Bench *b)
{
	guint n = N_HOSTS * MXJ;
	SchedRunning *r = g_new0(SchedRunning, n);
	SchedAlloc *a = g_new0(SchedAlloc, n);

	for (guint i = 0; i < n; i++) {
		a[i].host = i / MXJ;
		a[i].slots = 1;
		r[i].id = i + 1;
		r[i].queue = 1;
		r[i].user = i % N_USERS;
		r[i].allocs = &a[i];
		r[i].n_allocs = 1;
		r[i].start_time = (gint64)((i * 2654435761u) % 100000);
	}
	b->snap.running = r;
	b->snap.n_running = n;
}

static void
add_pending(Bench *b, guint n_parallel)
{
	SchedJob *j = g_new0(SchedJob, N_HIGH + n_parallel);

	for (guint i = 0; i < N_HIGH + n_parallel; i++) {
		j[i].id = 1000000 + i;
		j[i].queue = 0;
		j[i].user = i % N_USERS;
		j[i].min_slots = j[i].max_slots = i < N_HIGH ? 1 : 4;
		j[i].one_host = i >= N_HIGH;
	}
	g_free(b->snap.pending);
	b->snap.pending = j;
	b->snap.n_pending = N_HIGH + n_parallel;
}

static void
measure(Bench *b, const char *what)
{
	BenchPassTimes t;
	SchedPlan *plan = bench_passes(&b->snap, RUNS, &t);

	printf("%s: %u started, %u preempted; pass median %.2f ms, best %.2f ms\n",
	    what, sched_plan_count(plan, SCHED_DO_DISPATCH),
	    sched_plan_count(plan, SCHED_DO_PREEMPT_SUSPEND) +
	    sched_plan_count(plan, SCHED_DO_PREEMPT_TERMINATE), t.median_ms,
	    t.best_ms);
	sched_plan_free(plan);
}

int
main(void)
{
	Bench b = { .names = g_ptr_array_new_with_free_func(g_free) };

	add_hosts(&b);
	add_queues_users(&b);
	add_running(&b);
	printf("%u hosts, %u running jobs\n", b.snap.n_hosts, b.snap.n_running);
	b.snap.n_pending = 0;
	measure(&b, "nothing pending (the pass's fixed cost)");
	add_pending(&b, 0);
	measure(&b, "100 one-slot high jobs");
	add_pending(&b, 100);
	measure(&b, "+100 4-slot span[hosts=1] jobs");
	g_free(b.snap.pending);
	g_free(b.snap.running[0].allocs);
	g_free(b.snap.running);
	g_free(b.snap.users);
	g_free(b.snap.queues);
	g_free((gpointer)b.snap.hosts);
	g_ptr_array_free(b.names, TRUE);
	return 0;
}
