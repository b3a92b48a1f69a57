/*
 * Queue-based fairshare: queues in one SLOT_POOL share the pool's slots by
 * SLOT_SHARE instead of draining by absolute priority.  The rules follow
 * seeds/lsf-queue-based-fairshare.txt as decisions.md ("Queue-based
 * fairshare") and lsf-reference 4.2 settle them:
 *
 * - Pool size T: the slots the pool's queues hold (suspended included, as
 *   queue limits count them) plus the free slots, up to MXJ, of the usable
 *   hosts of the pool (the union of its queues' candidate hosts), bounded
 *   by MAX_SLOTS_IN_POOL.  Free slots are what every queue left, so slots
 *   taken by queues outside the pool shrink T.  T is taken when the pool's
 *   turn comes, so a higher-priority queue outside the pool that
 *   dispatched earlier in the pass has already taken its slots.
 * - Entitlement: queues by PRIORITY (ties: lower decayed usage per share,
 *   then lsb.queues order), each gets ceil(T x SLOT_SHARE / 100) clamped
 *   to what is left, to its demand (pending + held slots) and to what its
 *   own limits allow (QJOB_LIMIT, HJOB_LIMIT on its hosts).  Not largest
 *   remainder: 7 slots at 50/30/20 give 4, 3, 0.
 * - Leftover, from queues without demand or held by their own limits,
 *   goes once more by the same rule applied to the leftover to queues with
 *   unmet demand, then whatever is still left to the first of them in the
 *   same order, then the next.
 * - Dispatch: the pool takes its turn where its highest-priority queue
 *   would; inside it queues go by deficit (entitlement minus slots held),
 *   largest first, ties by lower decayed usage per share, then priority,
 *   then lsb.queues order, and each only up to its entitlement.  With
 *   USE_PRIORITY_IN_POOL the slots of the pool still free after that go to
 *   pending jobs of the pool's queues in priority order.
 *
 * Pool queues are neither preemptive nor preemptable (lib/conf checks
 * that), so nothing here preempts.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "pass.h"

struct Pools {
	/* Members of pool k, in entitlement order, are
	 * members[first[k] .. first[k + 1]). */
	guint *members;
	guint *first;
	GArray **jobs;            /* per queue: its pending jobs, in pass order */
	gboolean *done;           /* [n_pools] the pool had its turn */
	gboolean *by_priority;    /* [n_pools] in its USE_PRIORITY_IN_POOL round */
	guint8 *mark;             /* [n_hosts] scratch for a pool's host set */
	guint n_queues;
};

static gboolean
queue_pooled(const SchedSnapshot *s, guint q)
{
	return s->queues[q].in_pool && s->queues[q].pool < s->n_pools;
}

/* Decayed usage per share: the queue that used less of what it deserves
 * comes first. */
static double
usage_per_share(const SchedQueue *q)
{
	return q->slot_share > 0 ? q->pool_usage / q->slot_share : INFINITY;
}

static int
cmp_entitlement_order(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *s = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	const SchedQueue *qx = &s->queues[x], *qy = &s->queues[y];
	double ux = usage_per_share(qx), uy = usage_per_share(qy);

	if (qx->priority != qy->priority)
		return qx->priority > qy->priority ? -1 : 1;
	if (ux != uy)
		return ux < uy ? -1 : 1;
	return x < y ? -1 : x > y;
}

Pools *
pools_new(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	Pools *pl;
	guint n = 0;

	p->plan->n_queues = s->n_queues;
	p->plan->queue_deserved = g_new(int, s->n_queues);
	for (guint q = 0; q < s->n_queues; q++) {
		p->plan->queue_deserved[q] = -1;
		n += queue_pooled(s, q);
	}
	p->plan->n_pools = s->n_pools;
	p->plan->pool_slots = g_new0(int, s->n_pools);
	if (n == 0)
		return NULL;
	pl = g_new0(Pools, 1);
	pl->members = g_new(guint, n);
	pl->first = g_new0(guint, s->n_pools + 1);
	for (guint q = 0; q < s->n_queues; q++)
		if (queue_pooled(s, q))
			pl->first[s->queues[q].pool + 1]++;
	for (guint k = 0; k < s->n_pools; k++)
		pl->first[k + 1] += pl->first[k];
	{
		guint *fill = g_memdup2(pl->first, sizeof(guint) * s->n_pools);

		for (guint q = 0; q < s->n_queues; q++)
			if (queue_pooled(s, q))
				pl->members[fill[s->queues[q].pool]++] = q;
		g_free(fill);
	}
	for (guint k = 0; k < s->n_pools; k++)
		g_qsort_with_data(pl->members + pl->first[k],
		    (gint)(pl->first[k + 1] - pl->first[k]), sizeof(guint),
		    cmp_entitlement_order, (gpointer)s);
	pl->n_queues = s->n_queues;
	pl->jobs = g_new0(GArray *, s->n_queues);
	pl->done = g_new0(gboolean, s->n_pools);
	pl->by_priority = g_new0(gboolean, s->n_pools);
	pl->mark = g_new0(guint8, s->n_hosts);
	return pl;
}

void
pools_free(Pools *pl)
{
	if (pl == NULL)
		return;
	g_free(pl->members);
	g_free(pl->first);
	g_free(pl->done);
	g_free(pl->by_priority);
	g_free(pl->mark);
	for (guint q = 0; q < pl->n_queues; q++)
		if (pl->jobs[q] != NULL)
			g_array_free(pl->jobs[q], TRUE);
	g_free(pl->jobs);
	g_free(pl);
}

int *
pools_sort_priority(const SchedSnapshot *snap)
{
	int *prio = g_new(int, snap->n_queues);
	int *top = g_new(int, snap->n_pools);

	for (guint k = 0; k < snap->n_pools; k++)
		top[k] = INT_MIN;
	for (guint q = 0; q < snap->n_queues; q++)
		if (queue_pooled(snap, q))
			top[snap->queues[q].pool] = MAX(top[snap->queues[q].pool],
			    snap->queues[q].priority);
	for (guint q = 0; q < snap->n_queues; q++)
		prio[q] = queue_pooled(snap, q) ? top[snap->queues[q].pool] :
		    snap->queues[q].priority;
	g_free(top);
	return prio;
}

void
pools_set_order(Pools *pl, const SchedSnapshot *snap, const guint *order,
    guint n)
{
	if (pl == NULL)
		return;
	for (guint i = 0; i < n; i++) {
		guint q = snap->pending[order[i]].queue;

		if (!queue_pooled(snap, q))
			continue;
		if (pl->jobs[q] == NULL)
			pl->jobs[q] = g_array_new(FALSE, FALSE, sizeof(guint));
		g_array_append_val(pl->jobs[q], order[i]);
	}
}

/* Free slots of one host for the pool: nothing on a host that is down or
 * closed, everything on one without MXJ. */
static gint64
host_free(Pass *p, guint h)
{
	const SchedHost *host = &p->snap->hosts[h];

	if (sched_host_state(p, h) != SCHED_HOST_OK)
		return 0;
	if (host->max_slots < 0)
		return G_MAXINT;
	return MAX(0, host->max_slots - sched_count_host(&p->count, h));
}

static gint64
pool_used(Pass *p, guint k)
{
	const Pools *pl = p->pools;
	gint64 used = 0;

	for (guint m = pl->first[k]; m < pl->first[k + 1]; m++)
		used += p->count.queue[pl->members[m]];
	return used;
}

/* T: slots held by the pool's queues plus the free slots of its hosts,
 * bounded by MAX_SLOTS_IN_POOL. */
static int
pool_size(Pass *p, guint k)
{
	Pools *pl = p->pools;
	const SchedPool *pool = &p->snap->pools[k];
	gint64 t = pool_used(p, k);

	memset(pl->mark, 0, p->snap->n_hosts);
	for (guint m = pl->first[k]; m < pl->first[k + 1]; m++) {
		GArray *cand = p->queue_hosts[pl->members[m]];

		for (guint c = 0; c < cand->len; c++) {
			guint h = g_array_index(cand, guint, c);

			if (pl->mark[h])
				continue;
			pl->mark[h] = 1;
			t = MIN(t + host_free(p, h), G_MAXINT);
		}
	}
	if (pool->max_slots > 0)
		t = MIN(t, pool->max_slots);
	return (int)t;
}

/* Slots queue q can use this pass: what it holds plus what its pending
 * jobs ask for, bounded by its own limits. */
static gint64
queue_need(Pass *p, guint q)
{
	const SchedQueue *sq = &p->snap->queues[q];
	GArray *jobs = p->pools->jobs[q];
	gint64 need = p->count.queue[q];

	for (guint i = 0; jobs != NULL && i < jobs->len; i++) {
		const SchedJob *j = &p->snap->pending[g_array_index(jobs, guint, i)];

		if (sched_job_gate(p, j) == SCHED_PEND_NONE)
			need = MIN(need + j->max_slots, G_MAXINT);
	}
	if (sq->qjob_limit >= 0)
		need = MIN(need, sq->qjob_limit);
	if (sq->hjob_limit >= 0)
		need = MIN(need, (gint64)sq->hjob_limit * p->queue_hosts[q]->len);
	return need;
}

static gint64
share_of(gint64 slots, int share)
{
	/* ceil(slots x share / 100) in integers: no rounding surprises. */
	return (slots * MAX(share, 0) + 99) / 100;
}

/* decisions.md's rule: shares in entitlement order, the leftover once more
 * by shares, then the rest in order. */
static void
entitle(Pass *p, guint k, int total)
{
	const Pools *pl = p->pools;
	guint first = pl->first[k], n = pl->first[k + 1] - first;
	gint64 *need = g_new(gint64, n), *got = g_new0(gint64, n);
	gint64 left = total, spare;

	for (guint i = 0; i < n; i++) {
		guint q = pl->members[first + i];

		need[i] = queue_need(p, q);
		got[i] = MIN(MIN(share_of(total, p->snap->queues[q].slot_share),
		    left), need[i]);
		left -= got[i];
	}
	spare = left;
	for (guint i = 0; i < n && left > 0; i++) {
		gint64 add = MIN(MIN(share_of(spare,
		    p->snap->queues[pl->members[first + i]].slot_share), left),
		    need[i] - got[i]);

		got[i] += add;
		left -= add;
	}
	for (guint i = 0; i < n && left > 0; i++) {
		gint64 add = MIN(left, need[i] - got[i]);

		got[i] += add;
		left -= add;
	}
	for (guint i = 0; i < n; i++)
		p->plan->queue_deserved[pl->members[first + i]] = (int)got[i];
	g_free(need);
	g_free(got);
}

static void
compute(Pass *p, guint k)
{
	int total = pool_size(p, k);

	p->plan->pool_slots[k] = total;
	entitle(p, k, total);
}

static int
cmp_dispatch_order(gconstpointer a, gconstpointer b, gpointer data)
{
	const Pass *p = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	int dx = p->plan->queue_deserved[x] - p->count.queue[x];
	int dy = p->plan->queue_deserved[y] - p->count.queue[y];

	if (dx != dy)
		return dx > dy ? -1 : 1;
	/* Same deficit: the entitlement order decides. */
	return cmp_entitlement_order(a, b, (gpointer)p->snap);
}

static void
consider_queue(Pass *p, guint q, gboolean only_share_held)
{
	GArray *jobs = p->pools->jobs[q];

	for (guint i = 0; jobs != NULL && i < jobs->len; i++) {
		guint idx = g_array_index(jobs, guint, i);

		if (only_share_held &&
		    p->plan->pending[idx].reason != SCHED_PEND_POOL_SHARE)
			continue;
		sched_consider(p, idx);
	}
}

static void
pool_turn(Pass *p, guint k)
{
	Pools *pl = p->pools;
	guint first = pl->first[k], n = pl->first[k + 1] - first;
	guint *order = g_memdup2(pl->members + first, sizeof(guint) * n);

	pl->done[k] = TRUE;
	compute(p, k);
	g_qsort_with_data(order, (gint)n, sizeof(guint), cmp_dispatch_order, p);
	for (guint i = 0; i < n; i++)
		consider_queue(p, order[i], FALSE);
	if (p->snap->pools[k].use_priority) {
		pl->by_priority[k] = TRUE;
		for (guint i = 0; i < n; i++)
			consider_queue(p, pl->members[first + i], TRUE);
	}
	g_free(order);
}

gboolean
pools_take_turn(Pass *p, guint idx)
{
	guint q = p->snap->pending[idx].queue;
	guint k;

	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return FALSE;
	k = p->snap->queues[q].pool;
	if (!p->pools->done[k])
		pool_turn(p, k);
	return TRUE;
}

int
pools_queue_room(Pass *p, guint q)
{
	guint k;
	gint64 room;

	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return INT_MAX;
	k = p->snap->queues[q].pool;
	if (p->pools->by_priority[k])
		room = p->plan->pool_slots[k] - pool_used(p, k);
	else
		room = p->plan->queue_deserved[q] - p->count.queue[q];
	return (int)MAX(room, 0);
}

void
pools_finish(Pass *p)
{
	Pools *pl = p->pools;

	if (pl == NULL)
		return;
	for (guint k = 0; k < p->snap->n_pools; k++)
		if (!pl->done[k])
			compute(p, k);
}
