/*
 * sched-pool-bench: what one scheduling pass costs with queue-based
 * fairshare (mbatchd/sched/pool.c).
 *
 * 10,000 hosts (MXJ 4) in 10 slices of 1,000; each slice is one SLOT_POOL
 * of 10 queues at 10 % each, with different priorities so the pools
 * interleave in the dispatch order.  Every queue has 500 one-slot jobs
 * pending (50,000 in all), more than the 400 slots each deserves, so the
 * shares bind.  The same snapshot with the pools switched off
 * (plain queue priority) gives the cost of everything but the pools.
 *
 * Prints the median and the best of 7 passes of sched_run().  Not part of
 * `make check`: the numbers depend on the machine.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-pass.h"
#include "mbatchd/sched/sched.h"

#define N_HOSTS 10000
#define MXJ 4
#define N_POOLS 10
#define QUEUES_PER_POOL 10
#define N_QUEUES (N_POOLS * QUEUES_PER_POOL)
#define JOBS_PER_QUEUE 500
#define RUNS 7

typedef struct {
	SchedSnapshot snap;
	GPtrArray *names;
	SchedQueueHost *qhosts;
} Bench;

static void
add_hosts(Bench *b)
{
	SchedHost *hosts = g_new0(SchedHost, N_HOSTS);

	for (guint i = 0; i < N_HOSTS; i++) {
		char *name = g_strdup_printf("node%05u", i);

		g_ptr_array_add(b->names, name);
		hosts[i].name = name;
		hosts[i].max_slots = MXJ;
		hosts[i].ncpus = MXJ;
		hosts[i].jl_u = SCHED_UNLIMITED;
		hosts[i].r15s = (double)((i * 7919u) % 50) / 10.0;
	}
	b->snap.hosts = hosts;
	b->snap.n_hosts = N_HOSTS;
}

static void
add_pools_queues(Bench *b)
{
	SchedPool *pools = g_new0(SchedPool, N_POOLS);
	SchedQueue *queues = g_new0(SchedQueue, N_QUEUES);
	guint per_pool = N_HOSTS / N_POOLS;

	b->qhosts = g_new0(SchedQueueHost, N_HOSTS);
	for (guint h = 0; h < N_HOSTS; h++)
		b->qhosts[h].host = h;
	for (guint k = 0; k < N_POOLS; k++) {
		char *name = g_strdup_printf("pool%u", k);

		g_ptr_array_add(b->names, name);
		pools[k].name = name;
	}
	for (guint q = 0; q < N_QUEUES; q++) {
		char *name = g_strdup_printf("queue%03u", q);
		guint k = q % N_POOLS;

		g_ptr_array_add(b->names, name);
		queues[q].name = name;
		queues[q].priority = (int)(N_QUEUES - q);
		queues[q].dispatch_ok = TRUE;
		queues[q].qjob_limit = queues[q].ujob_limit = SCHED_UNLIMITED;
		queues[q].hjob_limit = SCHED_UNLIMITED;
		queues[q].pjob_limit = -1;
		queues[q].hosts = b->qhosts + k * per_pool;
		queues[q].n_hosts = per_pool;
		queues[q].in_pool = TRUE;
		queues[q].pool = k;
		queues[q].slot_share = 100 / QUEUES_PER_POOL;
		queues[q].pool_usage = (double)((q * 31u) % 17);
	}
	b->snap.pools = pools;
	b->snap.n_pools = N_POOLS;
	b->snap.queues = queues;
	b->snap.n_queues = N_QUEUES;
}

static void
add_users_jobs(Bench *b)
{
	SchedUser *u = g_new0(SchedUser, 1);
	SchedJob *jobs = g_new0(SchedJob, N_QUEUES * JOBS_PER_QUEUE);
	guint n = 0;

	u->name = "user";
	u->max_jobs = SCHED_UNLIMITED;
	u->jl_p = -1;
	b->snap.users = u;
	b->snap.n_users = 1;
	/* Submitted round-robin over the queues, so the sort has work. */
	for (guint i = 0; i < JOBS_PER_QUEUE; i++)
		for (guint q = 0; q < N_QUEUES; q++, n++) {
			jobs[n].id = n + 1;
			jobs[n].queue = q;
			jobs[n].min_slots = jobs[n].max_slots = 1;
		}
	b->snap.pending = jobs;
	b->snap.n_pending = n;
	b->snap.now = 1000;
}

static void
measure(Bench *b, const char *what)
{
	BenchPassTimes t;
	SchedPlan *plan = bench_passes(&b->snap, RUNS, &t);

	printf("%s: %u started; pass median %.2f ms, best %.2f ms\n",
	    what, sched_plan_count(plan, SCHED_DO_DISPATCH), t.median_ms,
	    t.best_ms);
	sched_plan_free(plan);
}

int
main(void)
{
	Bench b = { .names = g_ptr_array_new_with_free_func(g_free) };

	add_hosts(&b);
	add_pools_queues(&b);
	add_users_jobs(&b);
	printf("%u hosts, %u queues in %u pools, %u pending jobs\n",
	    b.snap.n_hosts, b.snap.n_queues, b.snap.n_pools, b.snap.n_pending);
	measure(&b, "pools");
	for (guint q = 0; q < N_QUEUES; q++)
		b.snap.queues[q].in_pool = FALSE;
	measure(&b, "same queues, no pools");
	g_free(b.snap.pending);
	g_free(b.snap.users);
	g_free(b.snap.queues);
	g_free(b.snap.pools);
	g_free(b.qhosts);
	g_free((gpointer)b.snap.hosts);
	g_ptr_array_free(b.names, TRUE);
	return 0;
}
