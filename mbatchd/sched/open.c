/*
 * Per queue, the candidate hosts that may still have a free slot: the
 * hosts placement has to look at.
 *
 * A host that is down (closed, outside its window, unavailable) or whose
 * MXJ is reached gives every job the same reason, whatever the job: the
 * state, or "Job slot limit reached" (sched_host_room checks MXJ first).
 * So a job that finds no host needs to look only at the other hosts one
 * by one; the down ones are counted per state once per pass, and the full
 * ones are "every up host not in the list".  Without this, each job of a
 * new shape looked at all 10,000 hosts of a full cluster.
 *
 * The list is doubly linked over positions in the queue's candidate order,
 * so walking it keeps the best-first order, and a host is unlinked in
 * O(1) when placement finds it full.  Counters only grow in a pass except
 * when a preemption suspends or kills its victims; then their hosts are
 * linked back in (open_reopen).  A host found full lazily is still in the
 * list until the next walk reaches it, so the invariant is one-way: a host
 * outside the list is full, a host inside may be.
 *
 * Built lazily per queue, at first use: queues with nothing pending cost
 * nothing.
 */
#include "config.h"

#include <string.h>

#include "pass.h"

#define NIL G_MAXUINT

gboolean
sched_host_full(Pass *p, guint h)
{
	const SchedHost *host = &p->snap->hosts[h];

	return host->max_slots >= 0 &&
	    sched_count_host(&p->count, h) >= host->max_slots;
}

static gboolean
host_is_up(const SchedHost *host)
{
	return host->state == SCHED_HOST_OK;
}

static SchedHostReason
down_reason(const SchedHost *host)
{
	switch (host->state) {
	case SCHED_HOST_CLOSED_ADM:
		return SCHED_HR_CLOSED_ADM;
	case SCHED_HOST_CLOSED_WIND:
		return SCHED_HR_CLOSED_WIND;
	default:
		return SCHED_HR_UNAVAIL;
	}
}

/* Link position c after position `after` (NIL: at the head). */
static void
link_after(OpenHosts *oh, guint after, guint c)
{
	guint nxt = after == NIL ? oh->head : oh->next[after];

	oh->prev[c] = after;
	oh->next[c] = nxt;
	if (after == NIL)
		oh->head = c;
	else
		oh->next[after] = c;
	if (nxt != NIL)
		oh->prev[nxt] = c;
	oh->in[c] = TRUE;
	oh->n_open++;
}

static void
build(Pass *p, OpenHosts *oh, guint q)
{
	const SchedSnapshot *s = p->snap;
	GArray *cand = p->queue_hosts[q];
	guint n = cand->len, last = NIL;

	oh->cand = cand;
	oh->next = g_new(guint, MAX(n, 1u));
	oh->prev = g_new(guint, MAX(n, 1u));
	oh->in = g_new0(gboolean, MAX(n, 1u));
	oh->pos = g_new0(guint, s->n_hosts);
	oh->head = NIL;
	for (guint c = 0; c < n; c++) {
		guint h = g_array_index(cand, guint, c);

		oh->pos[h] = c + 1;
		if (!host_is_up(&s->hosts[h])) {
			oh->down[down_reason(&s->hosts[h])]++;
			continue;
		}
		oh->n_up++;
		if (sched_host_full(p, h))
			continue;
		link_after(oh, last, c);
		last = c;
	}
	oh->built = TRUE;
}

OpenHosts *
open_hosts(Pass *p, guint q)
{
	OpenHosts *oh = &p->open[q];

	if (!oh->built)
		build(p, oh, q);
	return oh;
}

guint
open_first(const OpenHosts *oh)
{
	return oh->head;
}

guint
open_next(const OpenHosts *oh, guint c)
{
	return oh->next[c];
}

void
open_remove(OpenHosts *oh, guint c)
{
	guint pv = oh->prev[c], nx = oh->next[c];

	if (pv == NIL)
		oh->head = nx;
	else
		oh->next[pv] = nx;
	if (nx != NIL)
		oh->prev[nx] = pv;
	oh->in[c] = FALSE;
	oh->n_open--;
}

void
open_reopen(Pass *p, guint h)
{
	const SchedSnapshot *s = p->snap;

	if (!host_is_up(&s->hosts[h]) || sched_host_full(p, h))
		return;
	for (guint q = 0; q < s->n_queues; q++) {
		OpenHosts *oh = &p->open[q];
		guint c, before;

		if (!oh->built || oh->pos[h] == 0 || oh->in[oh->pos[h] - 1])
			continue;
		c = oh->pos[h] - 1;
		/* The nearest listed position before c keeps the order. */
		for (before = c; before > 0 && !oh->in[before - 1]; before--)
			;
		link_after(oh, before == 0 ? NIL : before - 1, c);
	}
}

OpenHosts *
open_new(const SchedSnapshot *s)
{
	return g_new0(OpenHosts, MAX(s->n_queues, 1u));
}

void
open_free(OpenHosts *open, guint n_queues)
{
	for (guint q = 0; q < n_queues; q++) {
		g_free(open[q].next);
		g_free(open[q].prev);
		g_free(open[q].in);
		g_free(open[q].pos);
	}
	g_free(open);
}
