/*
 * Which queue may preempt which, and in what order its victims' queues
 * come: rules 1 and 4a of preempt.c, after lsf-reference.md 1.2 and 4.1
 * and reference/decisions.md ("Preemption").  Computed once per pass into
 * a queue x queue matrix; queues are few, so it is small.
 */
#include "config.h"

#include "pass.h"
#include "preempt.h"

/* ---- rule 1: the queue relation ---------------------------------------- */

static const SchedQueueRef *
find_ref(const SchedQueueRef *refs, guint n, guint q)
{
	for (guint i = 0; i < n; i++)
		if (refs[i].queue == q)
			return &refs[i];
	return NULL;
}

static Rel
relation(const SchedSnapshot *s, guint a, guint b)
{
	const SchedQueue *qa = &s->queues[a], *qb = &s->queues[b];
	const SchedQueueRef *ref = find_ref(qa->preemptive_queues,
	    qa->n_preemptive_queues, b);
	gboolean by_a = qa->preemptive &&
	    (qa->n_preemptive_queues == 0 || ref != NULL);
	gboolean by_b = qb->preemptable && (qb->n_preemptable_queues == 0 ||
	    find_ref(qb->preemptable_queues, qb->n_preemptable_queues, a) != NULL);
	Rel r = { 0 };

	/* Queues of a slot pool are never preempted, and never preempt: a
	 * bare PREEMPTIVE does not reach into a pool (lsb.queues(5)). */
	if (qa->priority <= qb->priority || !(by_a || by_b) ||
	    qa->in_pool || qb->in_pool)
		return r;
	r.may = TRUE;
	if (ref != NULL && ref->has_pref) {
		r.has_pref = TRUE;
		r.pref = ref->pref;
	}
	return r;
}

/*
 * Each host's RUN jobs, in SchedSnapshot.running order, in one array:
 * counted first, then filled in place, since a list per host with an
 * append per allocation (40,000 on a 10,000-host cluster) cost more than
 * the walk.
 */
static void
index_running(Preempt *pre)
{
	const SchedSnapshot *s = pre->snap;
	guint n = s->n_hosts, total = 0;
	guint *fill = g_new0(guint, MAX(n, 1u));

	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if (r->state != SCHED_RUN_RUN)
			continue;
		for (guint a = 0; a < r->n_allocs; a++)
			fill[r->allocs[a].host]++;
	}
	/* The counts become each list's fill position. */
	pre->on_host.first = g_new(guint, n + 1);
	for (guint h = 0; h < n; h++) {
		pre->on_host.first[h] = total;
		total += fill[h];
		fill[h] = pre->on_host.first[h];
	}
	pre->on_host.first[n] = total;
	pre->on_host.runs = g_new(guint, MAX(total, 1u));
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if (r->state != SCHED_RUN_RUN)
			continue;
		for (guint a = 0; a < r->n_allocs; a++)
			pre->on_host.runs[fill[r->allocs[a].host]++] = i;
	}
	g_free(fill);
}

Preempt *
preempt_new(const SchedSnapshot *s)
{
	guint nq = s->n_queues;
	Preempt *pre;
	gboolean any = FALSE;

	if (!sched_preemption_configured(s))
		return NULL;
	pre = g_new0(Preempt, 1);
	pre->snap = s;
	pre->rel = g_new0(Rel, (gsize)nq * nq);
	pre->can = g_new0(gboolean, nq);
	for (guint a = 0; a < nq; a++)
		for (guint b = 0; b < nq; b++) {
			pre->rel[a * nq + b] = relation(s, a, b);
			pre->can[a] |= pre->rel[a * nq + b].may;
		}
	for (guint a = 0; a < nq; a++)
		any |= pre->can[a];
	if (!any) {
		preempt_free(pre);
		return NULL;
	}
	index_running(pre);
	pre->qrank = g_new0(guint *, nq);
	pre->n_ranks = g_new0(guint, nq);
	pre->done = g_new0(gboolean, s->n_running);
	pre->seen = g_new0(guint, s->n_running);
	pre->victims = g_array_new(FALSE, FALSE, sizeof(Victim));
	pre->one = g_array_new(FALSE, FALSE, sizeof(Victim));
	pre->bucket = g_new0(GArray *, nq);
	for (guint q = 0; q < nq; q++)
		pre->bucket[q] = g_array_new(FALSE, FALSE, sizeof(Victim));
	pre->taken = g_new0(gboolean, s->n_running);
	return pre;
}

void
preempt_free(Preempt *pre)
{
	if (pre == NULL)
		return;
	g_free(pre->on_host.first);
	g_free(pre->on_host.runs);
	g_free(pre->rel);
	g_free(pre->can);
	g_free(pre->pos);
	g_free(pre->cand);
	g_free(pre->cand2);
	prehosts_free(pre);
	for (guint q = 0; pre->qrank != NULL && q < pre->snap->n_queues; q++)
		g_free(pre->qrank[q]);
	g_free(pre->qrank);
	g_free(pre->n_ranks);
	g_free(pre->done);
	g_free(pre->seen);
	g_free(pre->plan_mark);
	if (pre->victims != NULL) {
		for (guint q = 0; q < pre->snap->n_queues; q++)
			g_array_free(pre->bucket[q], TRUE);
		g_free(pre->bucket);
		g_array_free(pre->victims, TRUE);
		g_array_free(pre->one, TRUE);
		g_free(pre->taken);
	}
	g_free(pre);
}

gboolean
preempt_queue_can(const Preempt *pre, guint q)
{
	return pre->can[q];
}

/* Queue rank: a preference beats none, higher first, then lower PRIORITY. */
typedef struct {
	const Preempt *pre;
	guint a;
} RankCtx;

static int
cmp_queue_rank(gconstpointer x, gconstpointer y, gpointer data)
{
	const RankCtx *c = data;
	guint qx = *(const guint *)x, qy = *(const guint *)y;
	guint nq = c->pre->snap->n_queues;
	const Rel *rx = &c->pre->rel[c->a * nq + qx];
	const Rel *ry = &c->pre->rel[c->a * nq + qy];
	int px = c->pre->snap->queues[qx].priority;
	int py = c->pre->snap->queues[qy].priority;

	if (rx->has_pref != ry->has_pref)
		return rx->has_pref ? -1 : 1;
	if (rx->has_pref && rx->pref != ry->pref)
		return rx->pref > ry->pref ? -1 : 1;
	if (px != py)
		return px < py ? -1 : 1;
	return 0;
}

/* Rank every queue a may preempt, once per pass; equal keys share a rank. */
const guint *
preempt_queue_ranks(Preempt *pre, guint a)
{
	guint nq = pre->snap->n_queues;
	RankCtx ctx = { pre, a };
	GArray *qs;

	if (pre->qrank[a] != NULL)
		return pre->qrank[a];
	qs = g_array_new(FALSE, FALSE, sizeof(guint));
	for (guint b = 0; b < nq; b++)
		if (pre->rel[a * nq + b].may)
			g_array_append_val(qs, b);
	g_array_sort_with_data(qs, cmp_queue_rank, &ctx);
	pre->qrank[a] = g_new0(guint, nq);
	for (guint i = 0, rank = 0; i < qs->len; i++) {
		if (i > 0 && cmp_queue_rank(&g_array_index(qs, guint, i - 1),
		    &g_array_index(qs, guint, i), &ctx) != 0)
			rank++;
		pre->qrank[a][g_array_index(qs, guint, i)] = rank;
		pre->n_ranks[a] = rank + 1;
	}
	g_array_free(qs, TRUE);
	return pre->qrank[a];
}
