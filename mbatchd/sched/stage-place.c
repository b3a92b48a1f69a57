/*
 * Stage: placement.  Rule (lsf-reference.md, job placement; DESIGN.md
 * "The scheduling pipeline" 3): each pending job in pass order
 * (stage-order.c) gets the first hosts, in its queue's host order, that
 * every limit allows (limits.c) and that meet its -R (resreq-host.c): up
 * to max_slots, at least min_slots, span[hosts=1] on one host, span[ptile]
 * per host, only -m hosts when it names some.  A job that cannot start
 * keeps a pending reason naming the layer that said no, host by host as
 * `bjobs -p` counts them; one that a queue allowed to preempt could start
 * over victims goes to the preemption stage (stage-preempt.c), also when
 * its resource plan holds it (victims then of its own consumer only:
 * hybrid-place.c).  Queues in
 * a SLOT_POOL dispatch at their own place in the order, only up to their
 * shares, computed when the pool's first job comes (pool.c).
 *
 * Counters only grow during a pass, except when a preemption suspends
 * jobs, so once a job of a given shape (queue, user, slots, span) finds no
 * host and nothing to preempt, every later job of that shape would find
 * none either: the pass remembers that and copies the host reasons instead
 * of scanning every host again, and forgets it after each preemption.
 * For other jobs, hosts that give every job of the queue the same reason
 * (down, MXJ reached, the queue's own host limits reached) are counted
 * wholesale and only the rest looked at one by one (open.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hybrid.h"
#include "pass.h"
#include "reserve.h"
#include "shape-memo.h"

static gboolean
host_up(SchedHostState state, SchedHostReason *why)
{
	switch (state) {
	case SCHED_HOST_OK:
		return TRUE;
	case SCHED_HOST_CLOSED_ADM:
		*why = SCHED_HR_CLOSED_ADM;
		break;
	case SCHED_HOST_CLOSED_WIND:
		*why = SCHED_HR_CLOSED_WIND;
		break;
	case SCHED_HOST_UNAVAIL:
		*why = SCHED_HR_UNAVAIL;
		break;
	}
	return FALSE;
}

static gboolean
host_meets_resreq(Pass *p, const SchedJob *j, guint h)
{
	return sched_resreq_host_ok_memo(p->resreq_memo, j->resreq, p->snap, h);
}

/* Free slots for this job on host h, or 0 with the host reason in *why. */
static int
host_free(Pass *p, const SchedJob *j, guint h, SchedHostReason *why)
{
	int free;

	if (!host_up(sched_host_state(p, h), why))
		return 0;
	free = sched_host_room(p, j, h, why);
	if (free <= 0)
		return 0;
	/* Slots its pool keeps here for a host-limited queue (pool-hosts.c)
	 * are as good as taken for the pool's other queues. */
	free = MIN(free, pools_host_room(p, j->queue, h));
	/* A resource group's idle slots go as its plan grants them. */
	if (p->hybrid != NULL)
		free = MIN(free, hybrid_host_room(p, j, h));
	if (free <= 0) {
		*why = SCHED_HR_SLOTS;
		return 0;
	}
	if (!host_meets_resreq(p, j, h)) {
		*why = SCHED_HR_RESREQ;
		return 0;
	}
	return free;
}

static gboolean
asked_for(const SchedJob *j, guint h)
{
	if (j->asked_hosts == NULL)
		return TRUE;
	for (guint i = 0; i < j->n_asked_hosts; i++)
		if (j->asked_hosts[i] == h)
			return TRUE;
	return FALSE;
}

gboolean
sched_host_usable(Pass *p, const SchedJob *j, guint h)
{
	SchedHostReason why;

	return asked_for(j, h) && host_up(sched_host_state(p, h), &why) &&
	    host_meets_resreq(p, j, h);
}

/* Take host h for the job if it offers what the job needs: TRUE when it
 * was taken, else its reason is counted. */
static gboolean
try_host(Pass *p, const SchedJob *j, guint h, int want, int *got,
    SchedPending *pend)
{
	SchedHostReason why = SCHED_HR_NOT_ENOUGH;
	SchedAlloc a;
	int free;

	for (guint i = 0; i < j->n_refused_hosts; i++)
		if (j->refused_hosts[i] == h) {
			pend->host_counts[SCHED_HR_REFUSED]++;
			return FALSE;
		}
	if (p->avoiding == j) {
		for (guint i = 0; i < j->n_avoid_hosts; i++)
			if (j->avoid_hosts[i] == h) {
				pend->host_counts[SCHED_HR_NOT_USABLE]++;
				return FALSE;
			}
	}
	free = host_free(p, j, h, &why);

	if (free <= 0 || (j->one_host && free < j->min_slots)) {
		pend->host_counts[free <= 0 ? why : SCHED_HR_NOT_ENOUGH]++;
		return FALSE;
	}
	a.host = h;
	a.slots = MIN(free, want - *got);
	g_array_append_val(p->plan->allocs, a);
	*got += a.slots;
	return TRUE;
}

static int
cmp_guint(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x < y ? -1 : x > y;
}

/*
 * bsub -m: only the asked hosts the queue can use, in the queue's order;
 * every other candidate is "not asked", every asked host that is not a
 * candidate "not usable" (once per time it is named).
 */
static void
place_asked(Pass *p, const SchedJob *j, int want, int *got, SchedPending *pend)
{
	OpenHosts *oh = open_hosts(p, j->queue);
	guint *at = g_new(guint, j->n_asked_hosts + 1), n = 0, distinct = 0;

	for (guint i = 0; i < j->n_asked_hosts; i++) {
		guint c = oh->pos[j->asked_hosts[i]];

		if (c != 0)
			at[n++] = c - 1;
	}
	qsort(at, n, sizeof *at, cmp_guint);
	for (guint i = 0; i < n; i++)
		if (i == 0 || at[i] != at[i - 1])
			at[distinct++] = at[i];
	pend->host_counts[SCHED_HR_NOT_ASKED] += oh->cand->len - distinct;
	for (guint i = 0; i < distinct && *got < want; i++)
		if (try_host(p, j, g_array_index(oh->cand, guint, at[i]), want, got,
		    pend) && j->one_host)
			break;
	g_free(at);
}

/* Any other job: the hosts still listed for its queue, in the queue's
 * order; the others are counted by their reason wholesale. */
static void
place_open(Pass *p, const SchedJob *j, int want, int *got, SchedPending *pend)
{
	OpenHosts *oh = open_hosts(p, j->queue);

	for (guint c = open_first(oh), nx; c != G_MAXUINT && *got < want; c = nx) {
		nx = open_next(oh, c);
		if (!open_take(p, oh, c))
			continue;
		if (try_host(p, j, g_array_index(oh->cand, guint, c), want, got,
		    pend) && j->one_host)
			break;
	}
	/* After the walk: it may have closed some. */
	for (guint r = 0; r < _SCHED_HR_MAX; r++)
		pend->host_counts[r] += oh->closed[r];
}

/* A backfill candidate (stage-reserve.c): hosts whose reserved slots
 * filled them are out of the open lists; look at those too.  Their
 * reasons were counted with the open list's. */
static void
place_reserved(Pass *p, const SchedJob *j, int want, int *got, guint first)
{
	const GArray *hosts = reserve_hosts(p, j->queue);
	SchedPending ignored = { 0 };

	for (guint i = 0; i < hosts->len && *got < want; i++) {
		guint h = g_array_index(hosts, guint, i);
		gboolean taken = FALSE;

		for (guint a = first; a < p->plan->allocs->len && !taken; a++)
			taken = g_array_index(p->plan->allocs, SchedAlloc, a).host == h;
		if (taken || !sched_host_usable(p, j, h))
			continue;
		if (try_host(p, j, h, want, got, &ignored) && j->one_host)
			break;
	}
}

/*
 * Choose hosts for up to `want` slots (at least min_slots), the first in
 * the queue's order that have room.  On success the allocations are
 * appended to the plan and their number returned; on failure nothing is
 * appended and pend holds the host reasons, one per candidate host.
 */
static guint
place_once(Pass *p, const SchedJob *j, int want, SchedPending *pend)
{
	GArray *allocs = p->plan->allocs;
	guint first = allocs->len;
	int got = 0;

	limits_place_begin(p->limits, j, first, pend);
	if (j->asked_hosts != NULL)
		place_asked(p, j, want, &got, pend);
	else
		place_open(p, j, want, &got, pend);
	if (got < want && !(j->one_host && got > 0) &&
	    reserve_backfill_candidate(p, j))
		place_reserved(p, j, want, &got, first);
	if (got >= j->min_slots)
		return allocs->len - first;
	/* Hosts that offered some slots were not enough together. */
	pend->host_counts[SCHED_HR_NOT_ENOUGH] += allocs->len - first;
	g_array_set_size(allocs, first);
	if (j->asked_hosts != NULL) {
		OpenHosts *oh = open_hosts(p, j->queue);

		for (guint i = 0; i < j->n_asked_hosts; i++)
			if (oh->pos[j->asked_hosts[i]] == 0)
				pend->host_counts[SCHED_HR_NOT_USABLE]++;
	}
	return 0;
}

/*
 * A job with hosts to avoid (its pre-exec failed there) is placed first
 * without them; only when that fails may it go back to them, and the
 * reasons it then pends with are those of the full attempt.
 */
static guint
place(Pass *p, const SchedJob *j, int want, SchedPending *pend)
{
	if (j->n_avoid_hosts > 0) {
		SchedPending before = *pend;
		guint n;

		p->avoiding = j;
		n = place_once(p, j, want, pend);
		p->avoiding = NULL;
		if (n > 0)
			return n;
		*pend = before;
	}
	return place_once(p, j, want, pend);
}

void
sched_commit(Pass *p, guint idx, guint first, guint n)
{
	const SchedJob *j = &p->snap->pending[idx];
	SchedDecision d = {
		.kind = SCHED_DO_DISPATCH, .job = idx, .first_alloc = first,
		.n_allocs = n,
	};

	for (guint i = first; i < first + n; i++) {
		const SchedAlloc *a = &g_array_index(p->plan->allocs, SchedAlloc, i);

		gboolean was_full = sched_host_full(p, a->host);

		sched_count_add(&p->count, p->snap, j->queue, j->user, a->host,
		    a->slots);
		pools_placed(p, j->queue, a->host, a->slots);
		excl_placed(p, j, a->host);
		if (p->hybrid != NULL)
			hybrid_placed(p, j, a->host, a->slots);
		if (!was_full && sched_host_full(p, a->host))
			open_host_filled(p, a->host);
	}
	if (j->array_id != 0)
		sched_count_add_array(&p->count, j->array_id);
	sched_count_add_jobgroup(&p->count, p->snap, j->jobgroup);
	limits_commit(p->limits, p->plan->allocs, j, first, n);
	g_array_append_val(p->plan->decisions, d);
}

/* Limits that suspending running jobs can relieve (rule 1 of preempt.c). */
static gboolean
relievable(SchedPendReason r)
{
	return r == SCHED_PEND_USER_LIMIT || r == SCHED_PEND_GROUP_LIMIT;
}

/* A job held by MAX_JOBS: preempt, unless its shape already failed to. */
static void
try_preempt_for_limit(Pass *p, guint idx, const Shape *shape, gboolean memo)
{
	if (memo && shape_memo_lookup(p->no_victims, shape) != NULL)
		return;
	if (!stage_preempt(p, idx, FALSE) && memo)
		shape_memo_insert(p->no_victims, shape, NULL);
}

static void
pool_share_reached(Pass *p, const SchedJob *j, SchedPending *pend)
{
	memset(pend, 0, sizeof *pend);
	pend->reason = SCHED_PEND_POOL_SHARE;
	pend->pool = p->snap->pools[p->snap->queues[j->queue].pool].name;
}

/* A consumer's job may start no more than its quota allows this pass
 * (stage-hybrid.c); FALSE with the reason when not even min_slots. */
static gboolean
consumer_room(Pass *p, const SchedJob *j, SchedPending *pend, int *want)
{
	guint g = 0, n_hosts = 0;
	int room = hybrid_job_room(p, j, &g);

	/* Outside every consumer, on a group's hosts alone: when the plan
	 * leaves it no idle slot there, every host would say so. */
	if (hybrid_outside_room(p, j, &n_hosts) < j->min_slots) {
		memset(pend, 0, sizeof *pend);
		pend->reason = SCHED_PEND_NO_HOSTS;
		pend->host_counts[SCHED_HR_SLOTS] = n_hosts;
		return FALSE;
	}
	if (room >= j->min_slots) {
		*want = MIN(*want, room);
		return TRUE;
	}
	memset(pend, 0, sizeof *pend);
	pend->reason = SCHED_PEND_CONSUMER_QUOTA;
	pend->rgroup = p->snap->rgroups[g].name;
	return FALSE;
}

static void
consider(Pass *p, guint idx)
{
	const SchedJob *j = &p->snap->pending[idx];
	SchedPending *pend = &p->plan->pending[idx];
	gboolean pa = limits_hosts_read_job(p->limits);
	Shape shape = { j->queue, j->user, j->min_slots, j->ptile, j->one_host,
		pa ? j->project : 0, pa ? j->app : 0,
		reserve_backfill_candidate(p, j) ?
		sched_expected_duration(j->run_limit, j->est_runtime) : 0,
		j->exclusive, j->consumer };
	/* A job that came with a reservation has its own slots back this
	 * turn: what its shape found before does not hold for it. */
	gboolean memo = j->asked_hosts == NULL && j->n_avoid_hosts == 0 &&
	    j->n_refused_hosts == 0 &&
	    !sched_resreq_constrains(j->resreq) &&
	    !limits_job_varies(p->limits, j) && !reserve_holds(p, idx);
	const SchedPending *known;
	guint first, n;
	int want, room;

	pend->pool = NULL;
	pend->limit = NULL;
	pend->reason = sched_job_gate(p, j);
	if (pend->reason != SCHED_PEND_NONE)
		return;
	want = MIN(j->max_slots, sched_job_headroom(p, j, &pend->reason));
	if (pend->reason != SCHED_PEND_NONE) {
		if (relievable(pend->reason))
			try_preempt_for_limit(p, idx, &shape, memo);
		return;
	}
	/* lsb.resources limits that name no hosts hold the whole job. */
	want = MIN(want, limits_job_room(p->limits, j, pend));
	if (pend->reason != SCHED_PEND_NONE) {
		if (limits_held_relievable(p->limits))
			try_preempt_for_limit(p, idx, &shape, memo);
		return;
	}
	/* After the queue's own limits, so a queue held by QJOB_LIMIT says
	 * so rather than blaming its pool; and when the pool's hosts were
	 * full at its turn, the hosts say why (placement counts them). */
	room = pools_queue_room(p, j->queue);
	if (room < j->min_slots && !pools_hosts_full(p, j->queue)) {
		pool_share_reached(p, j, pend);
		return;
	}
	if (room >= j->min_slots)
		want = MIN(want, room);
	/* Held by its plan, a job of a queue that may preempt can still
	 * take the slots of its own side's lower jobs (hybrid-place.c). */
	if (p->hybrid != NULL && !consumer_room(p, j, pend, &want)) {
		try_preempt_for_limit(p, idx, &shape, memo);
		return;
	}
	if (memo && (known = shape_memo_lookup(p->blocked, &shape)) != NULL) {
		*pend = *known;
		return;
	}
	first = p->plan->allocs->len;
	n = place(p, j, want, pend);
	if (n > 0 && room < j->min_slots) {
		/* A slot the pool did not count: still its share's to give. */
		g_array_set_size(p->plan->allocs, first);
		pool_share_reached(p, j, pend);
		return;
	}
	if (n > 0) {
		/* The hosts passed over on the way say nothing: it started. */
		memset(pend, 0, sizeof *pend);
		sched_commit(p, idx, first, n);
		return;
	}
	pend->reason = SCHED_PEND_NO_HOSTS;
	if (stage_preempt(p, idx, TRUE))
		return;
	/* A shape that could neither fit nor preempt cannot later in the
	 * pass either, until a preemption lowers the counters again. */
	if (memo)
		shape_memo_insert(p->blocked, &shape, pend);
}

/* One job's turn; a job of a SLOT_RESERVE queue gets its reserved slots
 * back before and collects more after (stage-reserve.c). */
void
sched_consider(Pass *p, guint idx)
{
	reserve_turn_begin(p, idx);
	consider(p, idx);
	reserve_turn_end(p, idx);
}

void
stage_place(Pass *p)
{
	const SchedSnapshot *snap = p->snap;

	p->open = open_new(snap);
	p->resreq_memo = resreq_memo_new(snap->n_hosts);
	p->blocked = shape_memo_new(sizeof(SchedPending));
	p->no_victims = shape_memo_new(0);
	for (guint i = 0; i < snap->n_pending; i++) {
		gboolean pooled = pools_take_turn(p, p->order[i]);

		sched_consider(p, p->order[i]);
		if (pooled)
			pools_considered(p, p->order[i]);
	}
	pools_finish(p);
	reserve_finish(p);
}

void
stage_place_clear(Pass *p)
{
	shape_memo_free(p->blocked);
	shape_memo_free(p->no_victims);
	if (p->open != NULL)
		open_free(p->open, p->snap->n_queues);
	resreq_memo_free(p->resreq_memo);
	p->resreq_memo = NULL;
}
