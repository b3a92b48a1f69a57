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
 * - Entitlement: each queue gets ceil(T x SLOT_SHARE / 100) clamped to
 *   what is left, to its demand (pending + held slots) and to what its
 *   own limits allow (pool-need.c: queue, per-user, per-host and lsb.users
 *   limits).  Not largest remainder: 7 slots at 50/30/20 give 4, 3, 0.
 *   Queues are taken lowest decayed usage per share first, then by
 *   PRIORITY, then lsb.queues order: with balanced usage that is the
 *   PRIORITY order of the seed's examples; with a queue behind its share
 *   it gets the rounding slots first, so no queue starves.
 * - Leftover, from queues without demand or held by their own limits,
 *   goes once more by the same rule applied to the leftover to queues with
 *   unmet demand, then whatever is still left to the first of them in the
 *   same order, then the next.
 * - Dispatch: each queue at its own PRIORITY in the pass order, merged
 *   with the queues outside the pool and other pools (stage-order.c), each
 *   only up to its entitlement.  The other queues of the pool leave alone
 *   the slots a queue with per-host limits needs for its entitlement
 *   (pool-hosts.c).  With USE_PRIORITY_IN_POOL, once every
 *   queue of the pool had its place, the slots of the pool still free go
 *   to pending jobs of the pool's queues in priority order.
 *
 * Pool queues are neither preemptive nor preemptable (lib/conf checks
 * that), so nothing here preempts.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "pass.h"
#include "pool-hosts.h"
#include "pool-need.h"

struct Pools {
	/* Members of pool k, in entitlement order, are
	 * members[first[k] .. first[k + 1]). */
	guint *members;
	guint *first;
	GArray **jobs;            /* per queue: its pending jobs, in pass order */
	gboolean *done;           /* [n_pools] the pool had its turn */
	guint *left;              /* [n_pools] its pending jobs not yet considered */
	guint *queue_left;        /* [n_queues] the same per queue */
	gboolean *full;           /* [n_pools] no free slot on its hosts at its turn */
	gboolean *outside;        /* [n_pools] and queues outside it hold some */
	PoolHolds *holds;         /* slots kept for host-limited queues */
	guint *rank;              /* [n_queues] place in its pool's entitlement order */
	gboolean *by_priority;    /* [n_pools] in its USE_PRIORITY_IN_POOL round */
	guint8 *mark;             /* [n_hosts] scratch for a pool's host set */
	guint n_queues;
	guint n_pools;
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

/*
 * The order shares are handed out in: the queue furthest below its share
 * by decayed usage first (decisions.md), so the slots the ceil rule
 * leaves over (7 slots at 50/30/20: 4/3/0) rotate to the queues that had
 * fewer and, over a few half-lives, every flooded queue's slot-time comes
 * to its share.  With balanced usage (none yet, or usage in proportion to
 * the shares) this is PRIORITY order, then lsb.queues order: the rule of
 * the seed's examples.
 */
static int
cmp_entitlement_order(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *s = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	const SchedQueue *qx = &s->queues[x], *qy = &s->queues[y];
	double ux = usage_per_share(qx), uy = usage_per_share(qy);

	if (ux != uy)
		return ux < uy ? -1 : 1;
	if (qx->priority != qy->priority)
		return qx->priority > qy->priority ? -1 : 1;
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
	pl->n_pools = s->n_pools;
	pl->rank = g_new0(guint, s->n_queues);
	for (guint k = 0; k < s->n_pools; k++)
		for (guint m = pl->first[k]; m < pl->first[k + 1]; m++)
			pl->rank[pl->members[m]] = m - pl->first[k];
	pl->jobs = g_new0(GArray *, s->n_queues);
	pl->done = g_new0(gboolean, s->n_pools);
	pl->left = g_new0(guint, s->n_pools);
	pl->queue_left = g_new0(guint, s->n_queues);
	pl->full = g_new0(gboolean, s->n_pools);
	pl->outside = g_new0(gboolean, s->n_pools);
	pl->holds = pool_holds_new(s->n_pools, s->n_hosts);
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
	g_free(pl->left);
	g_free(pl->queue_left);
	g_free(pl->full);
	g_free(pl->outside);
	pool_holds_free(pl->holds, pl->n_pools);
	g_free(pl->rank);
	g_free(pl->by_priority);
	g_free(pl->mark);
	for (guint q = 0; q < pl->n_queues; q++)
		if (pl->jobs[q] != NULL)
			g_array_free(pl->jobs[q], TRUE);
	g_free(pl->jobs);
	g_free(pl);
}

static int
cmp_sort_key(gconstpointer a, gconstpointer b, gpointer data)
{
	const int *const *k = data;
	guint x = *(const guint *)a, y = *(const guint *)b;

	if (k[0][x] != k[0][y])
		return k[0][x] > k[0][y] ? -1 : 1;
	if (k[1][x] != k[1][y])
		return k[1][x] < k[1][y] ? -1 : 1;
	return 0;
}

/*
 * Each queue's own PRIORITY, whichever pool it is in (decisions.md: the
 * seed's ordered list); queues of one pool at the same priority in the
 * entitlement order, so the one furthest below its share goes first.
 * The key is dense: equal keys are taken together, in snapshot order.
 */
int *
pools_sort_key(const Pools *pl, const SchedSnapshot *snap)
{
	guint n = snap->n_queues;
	int *key = g_new(int, MAX(n, 1u));
	int *prio = g_new(int, MAX(n, 1u)), *rank = g_new0(int, MAX(n, 1u));
	guint *by = g_new(guint, MAX(n, 1u));
	const int *keys[2] = { prio, rank };
	int level = (int)n;

	for (guint q = 0; q < n; q++) {
		prio[q] = snap->queues[q].priority;
		if (pl != NULL && queue_pooled(snap, q))
			rank[q] = (int)pl->rank[q];
		by[q] = q;
	}
	g_qsort_with_data(by, (gint)n, sizeof(guint), cmp_sort_key, keys);
	for (guint i = 0; i < n; i++) {
		if (i > 0 && cmp_sort_key(&by[i - 1], &by[i], keys) != 0)
			level--;
		key[by[i]] = level;
	}
	g_free(prio);
	g_free(rank);
	g_free(by);
	return key;
}

/* Each pooled queue's jobs in pass order: counted first, then filled in
 * place, rather than an append per job (tens of thousands of them). */
void
pools_set_order(Pools *pl, const SchedSnapshot *snap, const guint *order,
    guint n)
{
	guint *fill;

	if (pl == NULL)
		return;
	fill = g_new0(guint, MAX(snap->n_queues, 1u));
	for (guint i = 0; i < n; i++) {
		guint q = snap->pending[order[i]].queue;

		if (!queue_pooled(snap, q))
			continue;
		fill[q]++;
		pl->left[snap->queues[q].pool]++;
		pl->queue_left[q]++;
	}
	/* The counts become each list's fill position. */
	for (guint q = 0; q < snap->n_queues; q++) {
		guint had;

		if (fill[q] == 0)
			continue;
		if (pl->jobs[q] == NULL)
			pl->jobs[q] = g_array_sized_new(FALSE, FALSE, sizeof(guint),
			    fill[q]);
		had = pl->jobs[q]->len;
		g_array_set_size(pl->jobs[q], had + fill[q]);
		fill[q] = had;
	}
	for (guint i = 0; i < n; i++) {
		guint q = snap->pending[order[i]].queue;

		if (queue_pooled(snap, q))
			g_array_index(pl->jobs[q], guint, fill[q]++) = order[i];
	}
	g_free(fill);
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
 * bounded by MAX_SLOTS_IN_POOL.  Whether no host had a free slot is
 * noted for the pending reasons. */
static int
pool_size(Pass *p, guint k)
{
	Pools *pl = p->pools;
	const SchedPool *pool = &p->snap->pools[k];
	gint64 used = pool_used(p, k), t = used, held = 0;

	memset(pl->mark, 0, p->snap->n_hosts);
	for (guint m = pl->first[k]; m < pl->first[k + 1]; m++) {
		GArray *cand = p->queue_hosts[pl->members[m]];

		for (guint c = 0; c < cand->len; c++) {
			guint h = g_array_index(cand, guint, c);

			if (pl->mark[h])
				continue;
			pl->mark[h] = 1;
			t = MIN(t + host_free(p, h), G_MAXINT);
			held += sched_count_host(&p->count, h);
		}
	}
	pl->full[k] = t == used;
	pl->outside[k] = held > used;
	if (pool->max_slots > 0)
		t = MIN(t, pool->max_slots);
	return (int)t;
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

		need[i] = pool_queue_need(p, q, pl->jobs[q]);
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

/* A pool's turn comes with its first pending job in the pass order: T
 * is measured and the entitlements computed then.  Its queues then
 * dispatch each at its own place in the order, up to its entitlement. */
gboolean
pools_take_turn(Pass *p, guint idx)
{
	guint q = p->snap->pending[idx].queue;
	guint k;

	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return FALSE;
	k = p->snap->queues[q].pool;
	if (!p->pools->done[k]) {
		Pools *pl = p->pools;

		pl->done[k] = TRUE;
		compute(p, k);
		for (guint m = pl->first[k]; m < pl->first[k + 1]; m++) {
			guint mq = pl->members[m];

			pool_holds_mark(pl->holds, p, k, mq,
			    p->plan->queue_deserved[mq] - p->count.queue[mq]);
		}
	}
	return TRUE;
}

int
pools_host_room(Pass *p, guint q, guint h)
{
	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return INT_MAX;
	return pool_holds_room(p->pools->holds, p, p->snap->queues[q].pool, q, h);
}

void
pools_placed(Pass *p, guint q, guint h, int slots)
{
	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return;
	pool_holds_take(p->pools->holds, p->snap->queues[q].pool, q, h, slots);
}

static int
cmp_priority(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *s = data;
	guint x = *(const guint *)a, y = *(const guint *)b;

	if (s->queues[x].priority != s->queues[y].priority)
		return s->queues[x].priority > s->queues[y].priority ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* USE_PRIORITY_IN_POOL: once every queue of the pool had its place, the
 * slots of the pool still free go to the jobs its share held, by queue
 * priority. */
static void
priority_round(Pass *p, guint k)
{
	Pools *pl = p->pools;
	guint first = pl->first[k], n = pl->first[k + 1] - first;
	guint *order = g_memdup2(pl->members + first, sizeof(guint) * n);

	pl->by_priority[k] = TRUE;
	g_qsort_with_data(order, (gint)n, sizeof(guint), cmp_priority,
	    (gpointer)p->snap);
	for (guint i = 0; i < n; i++) {
		GArray *jobs = pl->jobs[order[i]];

		for (guint x = 0; jobs != NULL && x < jobs->len; x++) {
			guint idx = g_array_index(jobs, guint, x);

			if (p->plan->pending[idx].reason == SCHED_PEND_POOL_SHARE)
				sched_consider(p, idx);
		}
	}
	g_free(order);
}

void
pools_considered(Pass *p, guint idx)
{
	guint q = p->snap->pending[idx].queue;
	guint k;

	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return;
	k = p->snap->queues[q].pool;
	/* Slots kept for a queue whose jobs all had their place (some could
	 * not use them: -R, -m) go back to the queues after it. */
	if (--p->pools->queue_left[q] == 0)
		pool_holds_release_queue(p->pools->holds, k, q);
	if (--p->pools->left[k] > 0)
		return;
	pool_holds_release(p->pools->holds, k);
	if (p->snap->pools[k].use_priority)
		priority_round(p, k);
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

/*
 * The share holds a queue that has its entitlement while its pool's own
 * queues fill the hosts.  The hosts hold it when they had no free slot at
 * the pool's turn and either queues outside the pool hold some of them
 * (its T shrank to what the pool holds, so its "share" says nothing), or
 * the queue is below its entitlement (over-share queues of the pool hold
 * the slots and nothing is preempted inside a pool).
 */
gboolean
pools_hosts_full(Pass *p, guint q)
{
	guint k;

	if (p->pools == NULL || !queue_pooled(p->snap, q))
		return FALSE;
	k = p->snap->queues[q].pool;
	if (!p->pools->full[k])
		return FALSE;
	return p->pools->outside[k] ||
	    p->count.queue[q] < p->plan->queue_deserved[q];
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
