/*
 * Stage: queue order.  Rule (lsf-reference.md, queues; DESIGN.md
 * "The scheduling pipeline" 2): queues are taken by PRIORITY, highest
 * first, and within a queue jobs in the order the snapshot gives (first
 * come, first served, as btop/bbot and requeues left it, then by -sp
 * user priority, highest first, when MAX_USER_PRIORITY is set).  Queues of equal
 * priority are taken together in snapshot order, as LSF schedules
 * equal-priority FCFS queues.  Queues in a SLOT_POOL keep their own
 * PRIORITY, merged with every other queue (the ordered list of
 * seeds/lsf-queue-based-fairshare.txt, decisions.md "Queue-based
 * fairshare"); pool.c gives each queue its sort key, which also orders a
 * pool's queues of equal priority by their entitlement order.
 *
 * Hosts, for each queue: HOSTS "+N" preference first, then least loaded
 * (r15s), then name.
 *
 * Output: Pass.order (pending jobs in pass order) and Pass.queue_hosts
 * (each queue's candidate hosts, best first).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pass.h"

/*
 * Host order within a queue: HOSTS preference, then least loaded, then
 * name.  The load and name part is the same for every queue, so it is
 * sorted once per pass (rank_by_load) and each queue sorts integers.
 */
static int
cmp_load_name(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *snap = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	const SchedHost *hx = &snap->hosts[x], *hy = &snap->hosts[y];
	int c;

	if (hx->r15s != hy->r15s)
		return hx->r15s < hy->r15s ? -1 : 1;
	if ((c = strcmp(hx->name, hy->name)) != 0)
		return c;
	return x < y ? -1 : x > y;
}

/* All hosts in load-then-name order; *rank_out[h] is h's place in it. */
static guint *
rank_by_load(const SchedSnapshot *snap, guint **rank_out)
{
	guint *order = g_new(guint, MAX(snap->n_hosts, 1u));
	guint *rank = g_new(guint, MAX(snap->n_hosts, 1u));

	for (guint h = 0; h < snap->n_hosts; h++)
		order[h] = h;
	g_qsort_with_data(order, (gint)snap->n_hosts, sizeof(guint),
	    cmp_load_name, (gpointer)snap);
	for (guint i = 0; i < snap->n_hosts; i++)
		rank[order[i]] = i;
	*rank_out = rank;
	return order;
}

static int
cmp_int_desc(gconstpointer a, gconstpointer b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x > y ? -1 : x < y;
}

typedef struct {
	int pref;
	guint rank;
	guint host;
} RankedHost;

static int
cmp_ranked(gconstpointer a, gconstpointer b)
{
	const RankedHost *x = a, *y = b;

	if (x->pref != y->pref)
		return x->pref > y->pref ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Many preference levels: sort the queue's hosts. */
static void
sort_hosts(const SchedQueue *q, const guint *rank, guint *out)
{
	RankedHost *tmp = g_new(RankedHost, MAX(q->n_hosts, 1u));

	for (guint i = 0; i < q->n_hosts; i++) {
		tmp[i].pref = q->hosts[i].pref;
		tmp[i].host = q->hosts[i].host;
		tmp[i].rank = rank[q->hosts[i].host];
	}
	qsort(tmp, q->n_hosts, sizeof *tmp, cmp_ranked);
	for (guint i = 0; i < q->n_hosts; i++)
		out[i] = tmp[i].host;
	g_free(tmp);
}

#define FEW_PREFS 16

/*
 * A queue's HOSTS in preference order, highest "+N" first, then by their
 * rank in the load order.  The ranks are a permutation of the hosts and
 * a queue has few preference levels, so rather than sort each queue's
 * list, each level counts its hosts by rank and reads them back in rank
 * order: a pass over the ranks the level spans.  A host listed twice
 * comes out twice, as the sort leaves it.  count is [n_hosts] zeroes, and
 * is left so.
 */
static GArray *
candidate_hosts(const SchedSnapshot *snap, const SchedQueue *q,
    const guint *by_load, const guint *rank, guint *count)
{
	int prefs[FEW_PREFS];
	guint n_prefs = 0, k = 0, *dst;
	GArray *out;

	if (q->hosts == NULL) {
		out = g_array_sized_new(FALSE, FALSE, sizeof(guint), snap->n_hosts);
		g_array_append_vals(out, by_load, snap->n_hosts);
		return out;
	}
	out = g_array_sized_new(FALSE, FALSE, sizeof(guint), q->n_hosts);
	g_array_set_size(out, q->n_hosts);
	dst = &g_array_index(out, guint, 0);
	for (guint i = 0; i < q->n_hosts; i++) {
		guint l = 0;

		while (l < n_prefs && prefs[l] != q->hosts[i].pref)
			l++;
		if (l < n_prefs)
			continue;
		if (n_prefs == FEW_PREFS) {
			sort_hosts(q, rank, dst);
			return out;
		}
		prefs[n_prefs++] = q->hosts[i].pref;
	}
	qsort(prefs, n_prefs, sizeof *prefs, cmp_int_desc);
	for (guint l = 0; l < n_prefs; l++) {
		guint lo = G_MAXUINT, hi = 0;

		for (guint i = 0; i < q->n_hosts; i++) {
			guint r = rank[q->hosts[i].host];

			if (q->hosts[i].pref != prefs[l])
				continue;
			count[r]++;
			lo = MIN(lo, r);
			hi = MAX(hi, r);
		}
		for (guint r = lo; r <= hi && lo != G_MAXUINT; r++)
			for (; count[r] > 0; count[r]--)
				dst[k++] = by_load[r];
	}
	return out;
}

/*
 * The pass order: pending jobs by their queue's sort key (pool.c),
 * highest first, the snapshot's order kept within a key.  Priorities are few, so a stable bucket sort: count each
 * priority's jobs, then place every job after those of higher priority.
 */
static guint *
pass_order(const SchedSnapshot *snap, const int *prio)
{
	guint n = snap->n_pending, nq = snap->n_queues, nlev = 0;
	guint *order = g_new(guint, MAX(n, 1u));
	int *levels = g_new(int, MAX(nq, 1u));
	guint *level_of = g_new(guint, MAX(nq, 1u));
	guint *start = g_new0(guint, nq + 1);

	for (guint q = 0; q < nq; q++)
		levels[q] = prio[q];
	qsort(levels, nq, sizeof *levels, cmp_int_desc);
	for (guint q = 0; q < nq; q++)
		if (nlev == 0 || levels[nlev - 1] != levels[q])
			levels[nlev++] = levels[q];
	for (guint q = 0; q < nq; q++) {
		guint lo = 0, hi = nlev;

		/* Levels are descending: find prio[q] by bisection. */
		while (hi - lo > 1) {
			guint mid = (lo + hi) / 2;

			if (levels[mid] >= prio[q])
				lo = mid;
			else
				hi = mid;
		}
		level_of[q] = lo;
	}
	for (guint i = 0; i < n; i++)
		start[level_of[snap->pending[i].queue] + 1]++;
	for (guint l = 0; l < nlev; l++)
		start[l + 1] += start[l];
	for (guint i = 0; i < n; i++)
		order[start[level_of[snap->pending[i].queue]]++] = i;
	g_free(levels);
	g_free(level_of);
	g_free(start);
	return order;
}

static int
cmp_user_priority(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *snap = data;
	int x = snap->pending[*(const guint *)a].user_priority;
	int y = snap->pending[*(const guint *)b].user_priority;

	return x > y ? -1 : x < y;
}

/*
 * bsub -sp (MAX_USER_PRIORITY): within each queue, jobs of higher user
 * priority first, the given order kept among equal ones, so btop and bbot
 * move a job within its priority as LSF's do.  Each queue's jobs keep the
 * places in the pass order they had: queues of equal PRIORITY stay
 * interleaved first come, first served.
 */
void
order_by_user_priority(const SchedSnapshot *snap, guint *order)
{
	guint n = snap->n_pending, nq = snap->n_queues;
	guint *start, *fill, *jobs, *slots;
	gboolean differ = FALSE;

	for (guint i = 1; i < n && !differ; i++)
		differ = snap->pending[i].user_priority !=
		    snap->pending[0].user_priority;
	if (!differ)
		return;
	/* Group the positions of order by queue, keeping their order. */
	start = g_new0(guint, nq + 1);
	fill = g_new(guint, nq + 1);
	jobs = g_new(guint, n);
	slots = g_new(guint, n);
	for (guint i = 0; i < n; i++)
		start[snap->pending[order[i]].queue + 1]++;
	for (guint q = 0; q < nq; q++)
		start[q + 1] += start[q];
	memcpy(fill, start, (nq + 1) * sizeof *fill);
	for (guint i = 0; i < n; i++) {
		guint q = snap->pending[order[i]].queue;

		slots[fill[q]] = i;
		jobs[fill[q]++] = order[i];
	}
	for (guint q = 0; q < nq; q++) {
		guint lo = start[q], cnt = start[q + 1] - start[q];

		/* Stable (GLib >= 2.32): equals keep the queue's order. */
		g_qsort_with_data(jobs + lo, (gint)cnt, sizeof *jobs,
		    cmp_user_priority, (gpointer)snap);
		for (guint k = lo; k < lo + cnt; k++)
			order[slots[k]] = jobs[k];
	}
	g_free(start);
	g_free(fill);
	g_free(jobs);
	g_free(slots);
}

void
stage_order(Pass *p)
{
	const SchedSnapshot *snap = p->snap;
	guint *by_load, *rank, *count;
	int *prio;

	by_load = rank_by_load(snap, &rank);
	count = g_new0(guint, MAX(snap->n_hosts, 1u));
	p->queue_hosts = g_new0(GArray *, snap->n_queues);
	for (guint q = 0; q < snap->n_queues; q++)
		p->queue_hosts[q] = candidate_hosts(snap, &snap->queues[q], by_load,
		    rank, count);
	g_free(count);
	g_free(by_load);
	g_free(rank);
	prio = pools_sort_key(p->pools, snap);
	p->order = pass_order(snap, prio);
	order_by_user_priority(snap, p->order);
	pools_set_order(p->pools, snap, p->order, snap->n_pending);
	g_free(prio);
}
