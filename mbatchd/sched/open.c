/*
 * Per queue, the candidate hosts that may still take one of its jobs: the
 * hosts placement has to look at one by one.
 *
 * Some hosts give every job of a queue the same reason, whatever the job:
 * a host that is down (closed, outside its window, unavailable), one an
 * exclusive job holds (bsub -x), one whose MXJ is reached
 * (sched_host_room checks these first), and one where the
 * queue's own HJOB_LIMIT or PJOB_LIMIT is reached (checked next).  Those
 * leave the list and are counted per reason; a job that finds no host
 * adds the counts wholesale and looks only at the hosts still listed.
 * Without this, each job of a new shape looked at all 10,000 hosts of a
 * full cluster, and a queue at its HJOB_LIMIT everywhere at all of them.
 *
 * The list is doubly linked over positions in the queue's candidate order,
 * so walking it keeps the best-first order, and a host is unlinked in O(1)
 * when a walk finds it closed.  A host found closed only lazily is still
 * listed until the next walk reaches it, so the invariant is one-way: a
 * host outside the list gives its recorded reason, a host inside may or
 * may not take jobs.  The recorded reasons follow the counters:
 *
 * - counters grow when a job starts: a host closed by a queue limit that
 *   reaches MXJ now says "Job slot limit reached" (open_host_filled);
 * - they shrink only when a preemption suspends or kills its victims: the
 *   victims' hosts are looked at again (open_reopen).  (Resume runs before
 *   any list is built.)
 *
 * Built lazily per queue, at first use: queues with nothing pending cost
 * nothing.
 */
#include "config.h"

#include <string.h>

#include "pass.h"

#define NIL G_MAXUINT

/* Inline: closed_for asks it for every host a walk passes. */
static inline gboolean
host_full(const Pass *p, guint h)
{
	int max = p->snap->hosts[h].max_slots;

	return max >= 0 && sched_count_host(&p->count, h) >= max;
}

gboolean
sched_host_full(Pass *p, guint h)
{
	return host_full(p, h);
}

static gboolean
host_is_up(SchedHostState state)
{
	return state == SCHED_HOST_OK;
}

static SchedHostReason
down_reason(SchedHostState state)
{
	switch (state) {
	case SCHED_HOST_CLOSED_ADM:
		return SCHED_HR_CLOSED_ADM;
	case SCHED_HOST_CLOSED_WIND:
		return SCHED_HR_CLOSED_WIND;
	default:
		return SCHED_HR_UNAVAIL;
	}
}

/* Why host h gives every job of queue q the same "no", in the order
 * sched_host_room checks, or OPEN when it may take some. */
#define OPEN _SCHED_HR_MAX

static inline guint8
closed_for(Pass *p, guint q, guint h)
{
	const SchedHost *host = &p->snap->hosts[h];
	const SchedQueue *sq = &p->snap->queues[q];
	int qh;

	/* An exclusive job holds it, or reserves it (exclusive.c), as
	 * sched_host_room says first: no job of any queue goes there. */
	if (excl_closed(p, h))
		return SCHED_HR_EXCL_RUNNING;
	if (host_full(p, h))
		return SCHED_HR_SLOTS;
	if (sq->hjob_limit < 0 && sq->pjob_limit < 0)
		return OPEN;
	qh = sched_count_pair(p->count.queue_host, q, h);
	if (sq->hjob_limit >= 0 && sq->hjob_limit - qh <= 0)
		return SCHED_HR_QUEUE_HOST;
	if (sq->pjob_limit >= 0 && sched_cpu_cap(sq->pjob_limit, host->ncpus) -
	    qh <= 0)
		return SCHED_HR_QUEUE_CPU;
	return OPEN;
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
	oh->state[c] = OPEN;
}

static void
unlink_pos(OpenHosts *oh, guint c)
{
	guint pv = oh->prev[c], nx = oh->next[c];

	if (pv == NIL)
		oh->head = nx;
	else
		oh->next[pv] = nx;
	if (nx != NIL)
		oh->prev[nx] = pv;
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
	oh->state = g_new0(guint8, MAX(n, 1u));
	oh->pos = g_new0(guint, s->n_hosts);
	oh->head = NIL;
	for (guint c = 0; c < n; c++) {
		guint h = g_array_index(cand, guint, c);
		guint8 why = host_is_up(sched_host_state(p, h)) ? closed_for(p, q, h) :
		    (guint8)down_reason(sched_host_state(p, h));

		oh->pos[h] = c + 1;
		if (why != OPEN) {
			oh->state[c] = why;
			oh->closed[why]++;
			continue;
		}
		link_after(oh, last, c);
		last = c;
	}
	oh->q = q;
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

gboolean
open_take(Pass *p, OpenHosts *oh, guint c)
{
	guint8 why = closed_for(p, oh->q, g_array_index(oh->cand, guint, c));

	if (why == OPEN)
		return TRUE;
	unlink_pos(oh, c);
	oh->state[c] = why;
	oh->closed[why]++;
	prehosts_listed(p, oh->q, g_array_index(oh->cand, guint, c), FALSE);
	return FALSE;
}

void
open_host_filled(Pass *p, guint h)
{
	for (guint q = 0; q < p->snap->n_queues; q++) {
		OpenHosts *oh = &p->open[q];
		guint c;

		if (!oh->built || oh->pos[h] == 0)
			continue;
		c = oh->pos[h] - 1;
		if (oh->state[c] != SCHED_HR_QUEUE_HOST &&
		    oh->state[c] != SCHED_HR_QUEUE_CPU)
			continue;
		oh->closed[oh->state[c]]--;
		oh->closed[SCHED_HR_SLOTS]++;
		oh->state[c] = SCHED_HR_SLOTS;
	}
}

void
open_reopen(Pass *p, guint h)
{
	const SchedSnapshot *s = p->snap;

	if (!host_is_up(sched_host_state(p, h)))
		return;
	for (guint q = 0; q < s->n_queues; q++) {
		OpenHosts *oh = &p->open[q];
		guint c, before;
		guint8 why;

		if (!oh->built || oh->pos[h] == 0 || oh->state[oh->pos[h] - 1] == OPEN)
			continue;
		c = oh->pos[h] - 1;
		why = closed_for(p, q, h);
		if (why == oh->state[c])
			continue;
		oh->closed[oh->state[c]]--;
		if (why != OPEN) {
			oh->state[c] = why;
			oh->closed[why]++;
			continue;
		}
		/* The nearest listed position before c keeps the order. */
		for (before = c; before > 0 && oh->state[before - 1] != OPEN; before--)
			;
		link_after(oh, before == 0 ? NIL : before - 1, c);
		prehosts_listed(p, q, h, TRUE);
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
		g_free(open[q].state);
		g_free(open[q].pos);
	}
	g_free(open);
}
