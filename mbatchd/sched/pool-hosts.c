/*
 * Slots a pool keeps on its hosts for its queues with per-host limits.
 *
 * A queue with HJOB_LIMIT or PJOB_LIMIT can use only a few slots on each
 * host, so its entitlement is spread over many hosts.  When other queues
 * of its pool fill those hosts first (higher priority, or simply earlier
 * in the pass), it runs below its entitlement while its share is used by
 * nobody: the seed's "unused entitlement goes to the other queues" in
 * reverse.  So at the pool's turn such a queue's unmet entitlement is
 * marked on the hosts where its own limits let it run, in its host order,
 * and the other queues of the same pool leave those slots alone; the
 * queue takes them back as it places its jobs, and what it has not taken
 * when its own last job had its place (a job's -R or -m may rule a kept
 * host out) is released for the queues after it; all are released when
 * the pool's last job had its place (the USE_PRIORITY_IN_POOL round then
 * sees every free slot).  Queues outside
 * the pool do not see the marks: they dispatch all they can, as the seed
 * says.
 */
#include "config.h"

#include <limits.h>

#include "pass.h"
#include "pool-hosts.h"

struct PoolHolds {
	guint n_hosts;
	int **total;              /* [n_pools] -> [n_hosts] marked, or NULL */
	GHashTable *of_queue;     /* queue + 1 -> int[n_hosts] */
};

PoolHolds *
pool_holds_new(guint n_pools, guint n_hosts)
{
	PoolHolds *ph = g_new0(PoolHolds, 1);

	ph->n_hosts = n_hosts;
	ph->total = g_new0(int *, MAX(n_pools, 1u));
	ph->of_queue = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	return ph;
}

void
pool_holds_free(PoolHolds *ph, guint n_pools)
{
	if (ph == NULL)
		return;
	for (guint k = 0; k < n_pools; k++)
		g_free(ph->total[k]);
	g_free(ph->total);
	g_hash_table_destroy(ph->of_queue);
	g_free(ph);
}

static int *
queue_marks(PoolHolds *ph, guint q, gboolean create)
{
	int *m = g_hash_table_lookup(ph->of_queue, GUINT_TO_POINTER(q + 1));

	if (m == NULL && create) {
		m = g_new0(int, MAX(ph->n_hosts, 1u));
		g_hash_table_insert(ph->of_queue, GUINT_TO_POINTER(q + 1), m);
	}
	return m;
}

/* Free slots of host h under MXJ, INT_MAX without one. */
static int
host_free(Pass *p, guint h)
{
	const SchedHost *host = &p->snap->hosts[h];

	if (host->max_slots < 0)
		return INT_MAX;
	return host->max_slots - sched_count_host(&p->count, h);
}

/* What queue q's own per-host limits leave it on host h. */
static int
queue_host_room(Pass *p, guint q, guint h)
{
	const SchedQueue *sq = &p->snap->queues[q];
	int used = sched_count_pair(p->count.queue_host, q, h), room = INT_MAX;

	if (sq->hjob_limit >= 0)
		room = MIN(room, sq->hjob_limit - used);
	if (sq->pjob_limit >= 0)
		room = MIN(room, sched_cpu_cap(sq->pjob_limit,
		    p->snap->hosts[h].ncpus) - used);
	return room;
}

void
pool_holds_mark(PoolHolds *ph, Pass *p, guint k, guint q, int want)
{
	const SchedQueue *sq = &p->snap->queues[q];
	GArray *cand = p->queue_hosts[q];
	int *marks;

	if (want <= 0 || (sq->hjob_limit < 0 && sq->pjob_limit < 0))
		return;
	if (ph->total[k] == NULL)
		ph->total[k] = g_new0(int, MAX(ph->n_hosts, 1u));
	marks = queue_marks(ph, q, TRUE);
	for (guint c = 0; c < cand->len && want > 0; c++) {
		guint h = g_array_index(cand, guint, c);
		int free, n;

		if (sched_host_state(p, h) != SCHED_HOST_OK)
			continue;
		free = host_free(p, h);
		if (free != INT_MAX)
			free -= ph->total[k][h];
		n = MIN(MIN(queue_host_room(p, q, h), free), want);
		if (n <= 0)
			continue;
		marks[h] += n;
		ph->total[k][h] += n;
		want -= n;
	}
}

int
pool_holds_room(PoolHolds *ph, Pass *p, guint k, guint q, guint h)
{
	const int *marks;
	int others, free;

	if (ph->total[k] == NULL || ph->total[k][h] == 0)
		return INT_MAX;
	marks = queue_marks(ph, q, FALSE);
	others = ph->total[k][h] - (marks != NULL ? marks[h] : 0);
	free = host_free(p, h);
	if (others == 0 || free == INT_MAX)
		return INT_MAX;
	return free - others;
}

void
pool_holds_take(PoolHolds *ph, guint k, guint q, guint h, int slots)
{
	int *marks = queue_marks(ph, q, FALSE);
	int n;

	if (marks == NULL || ph->total[k] == NULL)
		return;
	n = MIN(marks[h], slots);
	marks[h] -= n;
	ph->total[k][h] -= n;
}

void
pool_holds_release_queue(PoolHolds *ph, guint k, guint q)
{
	int *marks = queue_marks(ph, q, FALSE);

	if (marks == NULL)
		return;
	for (guint h = 0; ph->total[k] != NULL && h < ph->n_hosts; h++)
		ph->total[k][h] -= marks[h];
	g_hash_table_remove(ph->of_queue, GUINT_TO_POINTER(q + 1));
}

void
pool_holds_release(PoolHolds *ph, guint k)
{
	g_clear_pointer(&ph->total[k], g_free);
}
