/*
 * sched-jobgroup-bench: what job group limits (bgadd -L,
 * mbatchd/sched/jobgroup-limit.c) cost one scheduling pass.
 *
 * 10,000 hosts (MXJ 4, 40,000 slots) and 100,000 one-slot pending jobs
 * in one queue, spread over 1,000 leaf groups /rI/pJ/gK (10 roots of 10
 * parents of 10 leaves).  Every level has a limit and every level binds:
 * 30 per leaf (300 per parent) under 250 per parent (2,500 per root)
 * under 2,000 per root, so 20,000 jobs start and 80,000 are held by a
 * group, each held job walking its three ancestors.  The same snapshot
 * without groups gives the cost of everything else.
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
#define ROOTS 10
#define PARENTS 10          /* per root */
#define LEAVES 10           /* per parent */
#define N_JOBS 100000
#define RUNS 7

typedef struct {
	SchedSnapshot snap;
	GPtrArray *names;
	SchedJobGroup *groups;
	guint n_groups;
	guint *leaf;            /* [ROOTS * PARENTS * LEAVES]: group index + 1 */
} Bench;

static const char *
keep(Bench *b, char *s)
{
	g_ptr_array_add(b->names, s);
	return s;
}

static void
add_hosts_queue_user(Bench *b)
{
	SchedHost *hosts = g_new0(SchedHost, N_HOSTS);
	SchedQueue *q = g_new0(SchedQueue, 1);
	SchedUser *u = g_new0(SchedUser, 1);

	for (guint i = 0; i < N_HOSTS; i++) {
		hosts[i].name = keep(b, g_strdup_printf("node%05u", i));
		hosts[i].max_slots = MXJ;
		hosts[i].ncpus = MXJ;
		hosts[i].jl_u = SCHED_UNLIMITED;
		hosts[i].r15s = (double)((i * 7919u) % 50) / 10.0;
	}
	q->name = "normal";
	q->priority = 30;
	q->dispatch_ok = TRUE;
	q->qjob_limit = q->ujob_limit = q->hjob_limit = SCHED_UNLIMITED;
	q->pjob_limit = -1;
	u->name = "user";
	u->max_jobs = SCHED_UNLIMITED;
	u->jl_p = -1;
	b->snap.hosts = hosts;
	b->snap.n_hosts = N_HOSTS;
	b->snap.queues = q;
	b->snap.n_queues = 1;
	b->snap.users = u;
	b->snap.n_users = 1;
	b->snap.now = 1000;
}

/* Parents before children, as the snapshot requires. */
static guint
add_group(Bench *b, char *path, int parent, int limit)
{
	SchedJobGroup *g = &b->groups[b->n_groups];

	g->path = keep(b, path);
	g->parent = parent;
	g->limit = limit;
	return ++b->n_groups;
}

static void
add_groups(Bench *b)
{
	guint n = 0;

	b->groups = g_new0(SchedJobGroup,
	    ROOTS * (1 + PARENTS * (1 + LEAVES)));
	b->leaf = g_new0(guint, ROOTS * PARENTS * LEAVES);
	for (guint r = 0; r < ROOTS; r++) {
		guint gr = add_group(b, g_strdup_printf("/r%u", r), -1, 2000);

		for (guint p = 0; p < PARENTS; p++) {
			guint gp = add_group(b, g_strdup_printf("/r%u/p%u", r, p),
			    (int)gr - 1, 250);

			for (guint l = 0; l < LEAVES; l++)
				b->leaf[n++] = add_group(b, g_strdup_printf(
				    "/r%u/p%u/g%u", r, p, l), (int)gp - 1, 30);
		}
	}
}

static void
add_jobs(Bench *b)
{
	SchedJob *jobs = g_new0(SchedJob, N_JOBS);
	guint n_leaves = ROOTS * PARENTS * LEAVES;

	/* Round-robin over the leaves, as many users' workflows would. */
	for (guint i = 0; i < N_JOBS; i++) {
		jobs[i].id = i + 1;
		jobs[i].min_slots = jobs[i].max_slots = 1;
		jobs[i].jobgroup = b->leaf[(i * 7u) % n_leaves];
	}
	b->snap.pending = jobs;
	b->snap.n_pending = N_JOBS;
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

	add_hosts_queue_user(&b);
	add_groups(&b);
	add_jobs(&b);
	b.snap.jobgroups = b.groups;
	b.snap.n_jobgroups = b.n_groups;
	printf("%u hosts, %u pending jobs in %u job groups (3 levels, all "
	    "limited)\n", b.snap.n_hosts, b.snap.n_pending, b.n_groups);
	measure(&b, "job group limits");
	for (guint i = 0; i < b.snap.n_pending; i++)
		b.snap.pending[i].jobgroup = 0;
	b.snap.jobgroups = NULL;
	b.snap.n_jobgroups = 0;
	measure(&b, "same jobs, no groups");
	g_free(b.snap.pending);
	g_free(b.leaf);
	g_free(b.groups);
	g_free(b.snap.users);
	g_free(b.snap.queues);
	g_free(b.snap.hosts);
	g_ptr_array_free(b.names, TRUE);
	return 0;
}
