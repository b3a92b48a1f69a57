/*
 * Stage: slot reservation and backfill.  Rule (lsf-reference.md rows
 * SLOT_RESERVE and BACKFILL; lsb.queues(5)):
 *
 * - In a queue with SLOT_RESERVE = MAX_RESERVE_TIME[n], a parallel job
 *   (-n > 1) that cannot start reserves the free slots it can get on
 *   hosts that fit it, and keeps collecting them pass after pass as they
 *   free, its old hosts first, so later, smaller jobs cannot take them;
 *   no more than its queue, user and pool limits leave it.  Reserved
 *   slots count as used for every other job and every limit, like the
 *   slots of a running job of its queue and user, from right after the
 *   window stage on (sched.c).
 * - It holds a reservation for at most n x MBD_SLEEP_TIME seconds
 *   (SchedQueue.reserve_time); then it lets the slots go and may not
 *   reserve again for one session (SchedSnapshot.session_time).  A job
 *   held by anything that freeing slots cannot end (PSUSP, a dependency,
 *   a begin time, an inactive queue, its array's limit) lets its
 *   reservation go at once.
 * - The reservation's expected start is when enough jobs running on its
 *   hosts will have reached their run limits to give it its -n (jobs
 *   without a run limit never count as ending: if the slots cannot be
 *   found, the start is unknown).
 * - In a BACKFILL queue, a job with a run limit may use reserved slots
 *   when now + its run limit is at or before that start, and only across
 *   host-based limits (MXJ, HJOB_LIMIT, PJOB_LIMIT, JL/U, JL/P): the
 *   borrowed slots are given back to the host limits only, so QJOB_LIMIT,
 *   UJOB_LIMIT and MAX_JOBS hold it as usual.  Where the queue has
 *   MAX_SLOTS_IN_POOL, SLOT_RESERVE and BACKFILL together, its jobs do
 *   not backfill into slots reserved by jobs of the same queue (the
 *   queue-based fairshare seed).
 * - A -x job's reservation closes its hosts to every other job while it
 *   is counted, as a running exclusive job's hosts are (exclusive.c).
 *
 * The scheduler stays pure: the reservations come in the snapshot
 * (SchedJob.reserved, reserve_since, reserve_banned_until) and go out in
 * the plan (SchedPlan.reserves), which the daemon keeps for the next pass.
 */
#include "config.h"

#include <stdlib.h>

#include "reserve.h"
#include "shape-memo.h"

typedef struct {
	guint job;                /* pending index */
	guint first, n;           /* into Reserve.allocs */
	gint64 since;
	gboolean counted;         /* held: its slots are in the counters */
	gboolean start_done;
	gint64 start;             /* 0: unknown */
} Held;

struct Reserve {
	GArray *held;             /* Held */
	GArray *allocs;           /* SchedAlloc of the held reservations */
	GArray *owner;            /* guint per alloc: its index in held */
	gboolean collecting;      /* a job's own collection: borrows nothing */
	guint *held_of;           /* [n_pending]: index + 1 into held, 0 none */
	gint64 *banned;           /* [n_pending]: may not reserve before */
	gboolean *started;        /* [n_pending]: dispatched this pass */
	/* The allocs on each host, as lists through `on_host`: looked up
	 * for every host a backfill candidate considers. */
	guint *host_head;         /* [n_hosts]: last alloc on it + 1, 0 none */
	GArray *on_host;          /* guint per alloc: previous on its host + 1 */
	/* Hosts holding a reservation with a known start, the only ones a
	 * backfill candidate may use (each listed once). */
	GArray *hosts;
	guint8 *listed;           /* [n_hosts]: in hosts */
	GArray **queue_hosts;     /* [n_queues]: those, in the queue's order */
	guint *queue_hosts_len;   /* [n_queues]: hosts->len when sorted */
	GArray **host_run;        /* [n_hosts]: running job indexes, lazily */
	guint n_counted;          /* held reservations counted now */
	guint gen;                /* bumped whenever a reservation is counted */
	guint latest_gen;         /* gen when latest_start was computed + 1 */
	gint64 latest_start;      /* the latest known start of those counted */
	guint decisions_before;   /* plan length at the turn's start */
	guint n_hosts, n_queues;
};

static const SchedQueue *
queue_of(const Pass *p, guint idx)
{
	return &p->snap->queues[p->snap->pending[idx].queue];
}

/* Whether job idx reserves at all: a parallel job of a SLOT_RESERVE
 * queue, not in the session after an expired reservation. */
static gboolean
may_reserve(const Pass *p, guint idx)
{
	const SchedJob *j = &p->snap->pending[idx];

	return queue_of(p, idx)->reserve_time > 0 && j->min_slots > 1 &&
	    p->reserve->banned[idx] <= p->snap->now;
}

static void
count_held(Pass *p, Held *h, int sign)
{
	const SchedJob *j = &p->snap->pending[h->job];

	for (guint i = h->first; i < h->first + h->n; i++) {
		const SchedAlloc *a = &g_array_index(p->reserve->allocs, SchedAlloc, i);
		gboolean was_full = sched_host_full(p, a->host);

		sched_count_add(&p->count, p->snap, j->queue, j->user, a->host,
		    sign * a->slots);
		excl_reserved(p, j, a->host, sign);
		if (p->open == NULL)
			continue;
		if (sign > 0 && !was_full && sched_host_full(p, a->host))
			open_host_filled(p, a->host);
		else if (sign < 0)
			open_reopen(p, a->host);
	}
	h->counted = sign > 0;
	p->reserve->gen++;
	if (sign > 0)
		p->reserve->n_counted++;
	else
		p->reserve->n_counted--;
}

static void
index_alloc(Reserve *r, guint i)
{
	guint host = g_array_index(r->allocs, SchedAlloc, i).host;

	g_array_set_size(r->on_host, i + 1);
	g_array_index(r->on_host, guint, i) = r->host_head[host];
	r->host_head[host] = i + 1;
}

static gint64 estimate(Pass *p, Held *h);

/* A new held reservation over allocs [first, end of r->allocs). */
static Held *
add_held(Pass *p, guint job, guint first, gint64 since)
{
	Reserve *r = p->reserve;
	Held h = { .job = job, .first = first, .since = since };
	Held *out;

	h.n = r->allocs->len - first;
	g_array_set_size(r->owner, r->allocs->len);
	for (guint i = first; i < r->allocs->len; i++) {
		g_array_index(r->owner, guint, i) = r->held->len;
		index_alloc(r, i);
	}
	g_array_append_val(r->held, h);
	r->held_of[job] = r->held->len;
	out = &g_array_index(r->held, Held, r->held->len - 1);
	/* Backfill needs a known start: list the hosts where there is one. */
	if (estimate(p, out) == 0)
		return out;
	for (guint i = first; i < r->allocs->len; i++) {
		guint host = g_array_index(r->allocs, SchedAlloc, i).host;

		if (!r->listed[host]) {
			r->listed[host] = 1;
			g_array_append_val(r->hosts, host);
		}
	}
	return out;
}

/* The snapshot's reservation of job i, if it is still one to keep. */
static void
take_over(Pass *p, guint i)
{
	const SchedSnapshot *s = p->snap;
	const SchedJob *j = &s->pending[i];
	Reserve *r = p->reserve;
	const SchedQueue *q = &s->queues[j->queue];
	guint first = r->allocs->len;

	if (j->n_reserved == 0 || q->reserve_time <= 0 || j->min_slots <= 1)
		return;
	if (j->reserve_since + q->reserve_time <= s->now) {
		/* Expired: let the slots go, and no reserving for a session. */
		r->banned[i] = s->now + MAX(s->session_time, 1);
		return;
	}
	for (guint k = 0; k < j->n_reserved; k++) {
		const SchedAlloc *a = &j->reserved[k];

		if (a->host < s->n_hosts && a->slots > 0 &&
		    sched_host_state(p, a->host) == SCHED_HOST_OK)
			g_array_append_val(r->allocs, *a);
	}
	if (r->allocs->len > first)
		count_held(p, add_held(p, i, first, j->reserve_since), 1);
}

Reserve *
reserve_new(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	gboolean any = FALSE;
	Reserve *r;

	for (guint q = 0; q < s->n_queues && !any; q++)
		any = s->queues[q].reserve_time > 0;
	if (!any)
		return NULL;
	r = g_new0(Reserve, 1);
	r->held = g_array_new(FALSE, FALSE, sizeof(Held));
	r->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	r->owner = g_array_new(FALSE, FALSE, sizeof(guint));
	r->held_of = g_new0(guint, s->n_pending + 1);
	r->banned = g_new0(gint64, s->n_pending + 1);
	r->started = g_new0(gboolean, s->n_pending + 1);
	r->n_hosts = s->n_hosts;
	r->n_queues = s->n_queues;
	r->host_head = g_new0(guint, s->n_hosts + 1);
	r->on_host = g_array_new(FALSE, FALSE, sizeof(guint));
	r->hosts = g_array_new(FALSE, FALSE, sizeof(guint));
	r->listed = g_new0(guint8, s->n_hosts + 1);
	r->queue_hosts = g_new0(GArray *, s->n_queues + 1);
	r->queue_hosts_len = g_new0(guint, s->n_queues + 1);
	p->reserve = r;
	for (guint i = 0; i < s->n_pending; i++) {
		if (s->pending[i].reserve_banned_until > s->now)
			r->banned[i] = s->pending[i].reserve_banned_until;
		take_over(p, i);
	}
	return r;
}

void
reserve_free(Reserve *r)
{
	if (r == NULL)
		return;
	g_array_free(r->held, TRUE);
	g_array_free(r->allocs, TRUE);
	g_array_free(r->owner, TRUE);
	g_free(r->held_of);
	g_free(r->banned);
	g_free(r->started);
	g_free(r->host_head);
	g_array_free(r->on_host, TRUE);
	g_array_free(r->hosts, TRUE);
	g_free(r->listed);
	for (guint q = 0; q < r->n_queues; q++)
		if (r->queue_hosts[q] != NULL)
			g_array_free(r->queue_hosts[q], TRUE);
	g_free(r->queue_hosts);
	g_free(r->queue_hosts_len);
	for (guint h = 0; r->host_run != NULL && h < r->n_hosts; h++)
		if (r->host_run[h] != NULL)
			g_array_free(r->host_run[h], TRUE);
	g_free(r->host_run);
	g_free(r);
}

static Held *
held_of(const Reserve *r, guint idx)
{
	return r->held_of[idx] == 0 ? NULL :
	    &g_array_index(r->held, Held, r->held_of[idx] - 1);
}

void
reserve_turn_begin(Pass *p, guint idx)
{
	Reserve *r = p->reserve;
	Held *h;

	if (r == NULL)
		return;
	r->decisions_before = p->plan->decisions->len;
	h = held_of(r, idx);
	if (h != NULL && h->counted)
		count_held(p, h, -1);
}

/* Take up to `want` slots on host h for job j; returns how many. */
static int
take(Pass *p, const SchedJob *j, guint h, int want)
{
	SchedHostReason why;
	SchedAlloc a;
	int room;

	if (want <= 0 || !sched_host_usable(p, j, h))
		return 0;
	room = sched_host_room(p, j, h, &why);
	if (room <= 0)
		return 0;
	a.host = h;
	a.slots = MIN(room, want);
	g_array_append_val(p->reserve->allocs, a);
	/* Counted at once, so a later look at the same host sees it used. */
	sched_count_add(&p->count, p->snap, j->queue, j->user, h, a.slots);
	return a.slots;
}

/* Collect free slots for job idx: its old hosts first, then the queue's
 * open hosts in order, up to its -n (on one host for span[hosts=1]). */
static void
collect(Pass *p, guint idx, const Held *old)
{
	const SchedJob *j = &p->snap->pending[idx];
	Reserve *r = p->reserve;
	OpenHosts *oh = open_hosts(p, j->queue);
	guint first = r->allocs->len;
	SchedPendReason why;
	int got = 0, need;
	Held *h;

	/* Reserved slots count against every limit: no more than the job's
	 * queue, user and pool leave it. */
	need = MIN(j->min_slots, sched_job_headroom(p, j, &why));
	need = MIN(need, pools_queue_room(p, j->queue));
	if (need <= 0) {
		if (old != NULL)
			shape_memo_clear(p->blocked);
		return;
	}
	r->collecting = TRUE;
	for (guint k = 0; old != NULL && k < old->n && got < need; k++) {
		guint host = g_array_index(r->allocs, SchedAlloc, old->first + k).host;

		if (oh->pos[host] != 0)
			got += take(p, j, host, need - got);
		if (j->one_host && got > 0)
			break;
	}
	for (guint c = open_first(oh), nx; c != G_MAXUINT && got < need &&
	    !(j->one_host && got > 0); c = nx) {
		nx = open_next(oh, c);
		if (open_take(p, oh, c))
			got += take(p, j, g_array_index(oh->cand, guint, c),
			    need - got);
	}
	r->collecting = FALSE;
	if (got == 0) {
		/* Its old slots went elsewhere or went down: freed for all. */
		if (old != NULL)
			shape_memo_clear(p->blocked);
		return;
	}
	/* Already counted host by host in take(): only close full hosts,
	 * and a -x job's hosts (exclusive.c). */
	for (guint i = first; i < r->allocs->len; i++) {
		guint host = g_array_index(r->allocs, SchedAlloc, i).host;

		excl_reserved(p, j, host, 1);
		if (sched_host_full(p, host))
			open_host_filled(p, host);
	}
	h = add_held(p, idx, first, old != NULL ? old->since : p->snap->now);
	h->counted = TRUE;
	r->n_counted++;
	r->gen++;
}

/* Reasons that slots freeing can end: no host has room, its pool queue's
 * share is used, or a slot limit of its queue or user is reached.  Any
 * other reason (held, a dependency, an inactive queue) holds the job
 * whatever the hosts do, and it holds no slots meanwhile. */
static gboolean
waits_for_slots(SchedPendReason r)
{
	switch (r) {
	case SCHED_PEND_NO_HOSTS:
	case SCHED_PEND_POOL_SHARE:
	case SCHED_PEND_QUEUE_LIMIT:
	case SCHED_PEND_QUEUE_USER_LIMIT:
	case SCHED_PEND_USER_LIMIT:
	case SCHED_PEND_GROUP_LIMIT:
		return TRUE;
	default:
		return FALSE;
	}
}

void
reserve_turn_end(Pass *p, guint idx)
{
	Reserve *r = p->reserve;
	const GArray *d = p->plan->decisions;
	SchedPending *pend = &p->plan->pending[idx];
	Held *old;
	Held copy;

	if (r == NULL)
		return;
	pend->reserved = pend->reserve_need = 0;
	old = held_of(r, idx);
	if (old != NULL) {
		copy = *old;
		old = &copy;
		r->held_of[idx] = 0;
	}
	if (d->len > r->decisions_before &&
	    g_array_index(d, SchedDecision, d->len - 1).kind == SCHED_DO_DISPATCH &&
	    g_array_index(d, SchedDecision, d->len - 1).job == idx) {
		r->started[idx] = TRUE;
		/* Its reserved slots it did not use are free for later jobs. */
		if (old != NULL)
			shape_memo_clear(p->blocked);
		return;
	}
	if (!waits_for_slots(pend->reason) || !may_reserve(p, idx)) {
		if (old != NULL)
			shape_memo_clear(p->blocked);
		return;
	}
	collect(p, idx, old);
}

/* The latest known start among the reservations counted now: a job that
 * would run past it cannot backfill anywhere. */
static gint64
latest_start(Pass *p)
{
	Reserve *r = p->reserve;

	if (r->latest_gen == r->gen + 1)
		return r->latest_start;
	r->latest_start = 0;
	for (guint k = 0; k < r->held->len; k++) {
		Held *h = &g_array_index(r->held, Held, k);

		if (h->counted)
			r->latest_start = MAX(r->latest_start, estimate(p, h));
	}
	r->latest_gen = r->gen + 1;
	return r->latest_start;
}

gboolean
reserve_backfill_candidate(Pass *p, const SchedJob *j)
{
	return p->reserve != NULL && p->reserve->n_counted > 0 &&
	    !p->reserve->collecting &&
	    p->snap->queues[j->queue].backfill &&
	    sched_expected_duration(j->run_limit, j->est_runtime) > 0 &&
	    p->snap->now + sched_expected_duration(j->run_limit,
	    j->est_runtime) <= latest_start(p);
}

gboolean
reserve_holds(const Pass *p, guint idx)
{
	return p->reserve != NULL && p->reserve->held_of[idx] != 0;
}

static int
cmp_end(const void *a, const void *b)
{
	const gint64 *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Running jobs by host, built at the first estimate. */
static void
build_host_run(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	Reserve *r = p->reserve;

	r->host_run = g_new0(GArray *, s->n_hosts + 1);
	for (guint i = 0; i < s->n_running; i++)
		for (guint a = 0; a < s->running[i].n_allocs; a++) {
			guint h = s->running[i].allocs[a].host;

			if (h >= s->n_hosts)
				continue;
			if (r->host_run[h] == NULL)
				r->host_run[h] = g_array_new(FALSE, FALSE, sizeof(guint64));
			{
				guint64 v = ((guint64)i << 32) | a;

				g_array_append_val(r->host_run[h], v);
			}
		}
}

/* When the held reservation can expect its -n: the reserved slots plus
 * those freed as running jobs on its hosts reach their run limits. */
static gint64
estimate(Pass *p, Held *h)
{
	const SchedSnapshot *s = p->snap;
	const SchedJob *j = &s->pending[h->job];
	Reserve *r = p->reserve;
	g_autoptr(GArray) ends = NULL;
	int have = 0;

	if (h->start_done)
		return h->start;
	h->start_done = TRUE;
	ends = g_array_new(FALSE, FALSE, 2 * sizeof(gint64));
	if (r->host_run == NULL)
		build_host_run(p);
	for (guint k = h->first; k < h->first + h->n; k++) {
		const SchedAlloc *a = &g_array_index(r->allocs, SchedAlloc, k);
		const GArray *on = r->host_run[a->host];

		have += a->slots;
		for (guint i = 0; on != NULL && i < on->len; i++) {
			guint64 v = g_array_index(on, guint64, i);
			const SchedRunning *run = &s->running[v >> 32];
			gint64 e[2];

			/* Suspended jobs and jobs without a limit or an
			 * estimate: no known end. */
			if (run->state != SCHED_RUN_RUN ||
			    (e[0] = sched_expected_end(run, s->now)) == 0)
				continue;
			e[1] = run->allocs[v & 0xffffffffu].slots;
			g_array_append_vals(ends, e, 1);
		}
	}
	if (have >= j->min_slots)
		return h->start = s->now;
	if (ends->len > 1)
		qsort(ends->data, ends->len, 2 * sizeof(gint64), cmp_end);
	for (guint i = 0; i < ends->len; i++) {
		const gint64 *e = &((const gint64 *)(void *)ends->data)[2 * i];

		have += (int)e[1];
		if (have >= j->min_slots)
			return h->start = MAX(e[0], s->now);
	}
	return h->start = 0;
}

/* MAX_SLOTS_IN_POOL + SLOT_RESERVE + BACKFILL on j's queue: not into
 * slots its own queue reserved. */
static gboolean
pool_forbids(const Pass *p, const SchedJob *j, guint reserving_queue)
{
	const SchedQueue *q = &p->snap->queues[j->queue];

	return reserving_queue == j->queue && q->in_pool && q->reserve_time > 0 &&
	    p->snap->pools[q->pool].max_slots > 0;
}

void
reserve_borrow(Pass *p, const SchedJob *j, guint h, int *all, int *queue,
    int *user)
{
	Reserve *r = p->reserve;

	*all = *queue = *user = 0;
	if (r == NULL || r->host_head[h] == 0 || !reserve_backfill_candidate(p, j))
		return;
	for (guint ai = r->host_head[h] - 1, nx = 1; nx != 0; ai = nx - 1) {
		Held *hd = &g_array_index(r->held, Held,
		    g_array_index(r->owner, guint, ai));
		const SchedJob *rj;
		gint64 start;

		nx = g_array_index(r->on_host, guint, ai);
		if (!hd->counted)
			continue;
		rj = &p->snap->pending[hd->job];
		if (pool_forbids(p, j, rj->queue))
			continue;
		start = estimate(p, hd);
		if (start == 0 || p->snap->now +
		    sched_expected_duration(j->run_limit, j->est_runtime) > start)
			continue;
		*all += g_array_index(r->allocs, SchedAlloc, ai).slots;
		if (rj->queue == j->queue)
			*queue += g_array_index(r->allocs, SchedAlloc, ai).slots;
		if (rj->user == j->user)
			*user += g_array_index(r->allocs, SchedAlloc, ai).slots;
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

const GArray *
reserve_hosts(Pass *p, guint q)
{
	Reserve *r = p->reserve;
	OpenHosts *oh = open_hosts(p, q);
	GArray *out = r->queue_hosts[q];
	guint64 *keys;
	guint n = 0;

	/* Hosts only join the list: sorted again when it grew. */
	if (out != NULL && r->queue_hosts_len[q] == r->hosts->len)
		return out;
	if (out == NULL)
		out = r->queue_hosts[q] = g_array_new(FALSE, FALSE, sizeof(guint));
	g_array_set_size(out, 0);
	r->queue_hosts_len[q] = r->hosts->len;
	/* Sorted by position in the queue's order: (position, host) pairs. */
	keys = g_new(guint64, r->hosts->len + 1);
	for (guint i = 0; i < r->hosts->len; i++) {
		guint h = g_array_index(r->hosts, guint, i);

		if (oh->pos[h] != 0)
			keys[n++] = ((guint64)oh->pos[h] << 32) | h;
	}
	if (n > 1)
		qsort(keys, n, sizeof *keys, cmp_u64);
	for (guint i = 0; i < n; i++) {
		guint h = (guint)(keys[i] & 0xffffffffu);

		g_array_append_val(out, h);
	}
	g_free(keys);
	return out;
}

void
reserve_finish(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	Reserve *r = p->reserve;

	if (r == NULL)
		return;
	for (guint k = 0; k < r->held->len; k++) {
		Held *h = &g_array_index(r->held, Held, k);
		SchedReserve out = { .job = h->job, .since = h->since };
		SchedPending *pend = &p->plan->pending[h->job];

		if (!h->counted || r->held_of[h->job] != k + 1 || r->started[h->job])
			continue;
		out.first_alloc = p->plan->allocs->len;
		out.n_allocs = h->n;
		out.start = estimate(p, h);
		for (guint i = h->first; i < h->first + h->n; i++) {
			const SchedAlloc *a = &g_array_index(r->allocs, SchedAlloc, i);

			g_array_append_val(p->plan->allocs, *a);
			pend->reserved += a->slots;
		}
		pend->reserve_need = s->pending[h->job].min_slots;
		g_array_append_val(p->plan->reserves, out);
		plan_wake_at(p->plan, h->since + s->queues[s->pending[h->job].queue]
		    .reserve_time);
	}
	for (guint i = 0; i < s->n_pending; i++) {
		SchedReserve out = { .job = i, .banned_until = r->banned[i] };

		if (r->banned[i] <= s->now || r->started[i])
			continue;
		g_array_append_val(p->plan->reserves, out);
		plan_wake_at(p->plan, r->banned[i]);
	}
}
