/*
 * One scheduling pass: queues by PRIORITY (highest first), jobs within a
 * queue in the order the snapshot gives (first come, first served, as
 * btop/bbot and requeues left it), and for each job the first hosts that
 * every limit allows.  Jobs of queues with equal priority are taken in the
 * order they appear in the snapshot, as LSF schedules equal-priority FCFS
 * queues together.
 *
 * Limits are checked in two layers: job-level headroom (queue, user, group
 * and array limits, which no host choice can change) and host-level free
 * slots (MXJ, HJOB_LIMIT, PJOB_LIMIT, JL/U, JL/P).  A job that fails names
 * the layer that said no, which is what `bjobs -p` shows.
 *
 * Counters only grow during a pass, except when a preemption suspends
 * jobs, so once a job of a given shape (queue, user, slots, span) finds no
 * host and nothing to preempt, every later job of that shape would find
 * none either: the pass remembers that and copies the host reasons instead
 * of scanning every host again, and forgets it after each preemption.
 * For other jobs, hosts that give every job of the queue the same reason
 * (down, MXJ reached, the queue's own host limits reached) are counted
 * wholesale and only the rest looked at one by one (open.c).
 *
 * Preempted jobs are resumed first (resume.c); a job that finds no slots
 * in a queue that may preempt tries preemption (preempt.c).  Queues in a
 * SLOT_POOL take their turn together and only up to their shares (pool.c).
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

typedef struct {
	guint queue, user;
	int min_slots, ptile;
	gboolean one_host;
} Shape;

static guint
shape_hash(gconstpointer p)
{
	const Shape *s = p;

	return (s->queue * 31u + s->user) * 31u + (guint)s->min_slots * 7u +
	    (guint)s->ptile * 3u + (guint)s->one_host;
}

static gboolean
shape_equal(gconstpointer a, gconstpointer b)
{
	const Shape *x = a, *y = b;

	return x->queue == y->queue && x->user == y->user &&
	    x->min_slots == y->min_slots && x->ptile == y->ptile &&
	    x->one_host == y->one_host;
}

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

static GArray *
candidate_hosts(const SchedSnapshot *snap, const SchedQueue *q,
    const guint *by_load, const guint *rank)
{
	GArray *out;
	RankedHost *tmp;

	if (q->hosts == NULL) {
		out = g_array_sized_new(FALSE, FALSE, sizeof(guint), snap->n_hosts);
		g_array_append_vals(out, by_load, snap->n_hosts);
		return out;
	}
	out = g_array_sized_new(FALSE, FALSE, sizeof(guint), q->n_hosts);
	tmp = g_new(RankedHost, MAX(q->n_hosts, 1u));
	for (guint i = 0; i < q->n_hosts; i++) {
		tmp[i].pref = q->hosts[i].pref;
		tmp[i].host = q->hosts[i].host;
		tmp[i].rank = rank[q->hosts[i].host];
	}
	qsort(tmp, q->n_hosts, sizeof *tmp, cmp_ranked);
	for (guint i = 0; i < q->n_hosts; i++)
		g_array_append_val(out, tmp[i].host);
	g_free(tmp);
	return out;
}

static int
headroom(int limit, int used)
{
	return limit < 0 ? INT_MAX : limit - used;
}

int
sched_cpu_cap(double per_cpu, int ncpus)
{
	return per_cpu < 0 ? INT_MAX : (int)ceil(per_cpu * (ncpus > 0 ? ncpus : 1));
}

int
sched_job_headroom(Pass *p, const SchedJob *j, SchedPendReason *why)
{
	const SchedSnapshot *s = p->snap;
	const SchedQueue *q = &s->queues[j->queue];
	const SchedUser *u = &s->users[j->user];
	int room = INT_MAX, r;

	*why = SCHED_PEND_NONE;
	r = headroom(q->qjob_limit, p->count.queue[j->queue]);
	if (r < j->min_slots && *why == SCHED_PEND_NONE)
		*why = SCHED_PEND_QUEUE_LIMIT;
	room = MIN(room, r);
	r = headroom(q->ujob_limit,
	    sched_count_pair(p->count.queue_user, j->queue, j->user));
	if (r < j->min_slots && *why == SCHED_PEND_NONE)
		*why = SCHED_PEND_QUEUE_USER_LIMIT;
	room = MIN(room, r);
	r = headroom(u->max_jobs, sched_count_user(&p->count, j->user));
	if (r < j->min_slots && *why == SCHED_PEND_NONE)
		*why = SCHED_PEND_USER_LIMIT;
	room = MIN(room, r);
	for (guint g = 0; g < u->n_groups; g++) {
		r = headroom(s->groups[u->groups[g]].max_jobs,
		    sched_count_group(&p->count, u->groups[g]));
		if (r < j->min_slots && *why == SCHED_PEND_NONE)
			*why = SCHED_PEND_GROUP_LIMIT;
		room = MIN(room, r);
	}
	return room;
}

/* A user group's JL/P on host h, as the smallest room among the groups. */
static int
group_cpu_room(Pass *p, const SchedJob *j, guint h)
{
	const SchedSnapshot *s = p->snap;
	const SchedUser *u = &s->users[j->user];
	int room = INT_MAX;

	for (guint i = 0; i < u->n_groups; i++) {
		const SchedGroup *g = &s->groups[u->groups[i]];

		if (g->jl_p <= 0)
			continue;
		room = MIN(room, sched_cpu_cap(g->jl_p, s->hosts[h].ncpus) -
		    sched_count_group_host(&p->count, u->groups[i], h));
	}
	return room;
}

/* One host bound: FALSE with its reason when it leaves no room. */
static gboolean
bound(int room, SchedHostReason r, int *free, SchedHostReason *why)
{
	if (room <= 0) {
		*why = r;
		return FALSE;
	}
	*free = MIN(*free, room);
	return TRUE;
}

/*
 * The bounds in a fixed order, the first that leaves no room naming the
 * reason.  A bound whose limit is not set is not looked up: its counters
 * are hash lookups, most of what placing a job costs, and an unset limit
 * never stops a job (it would offer INT_MAX less what is used, more than
 * any job asks).
 */
int
sched_host_room(Pass *p, const SchedJob *j, guint h, SchedHostReason *why)
{
	const SchedSnapshot *s = p->snap;
	const SchedHost *host = &s->hosts[h];
	const SchedQueue *q = &s->queues[j->queue];
	const SchedUser *u = &s->users[j->user];
	int free = INT_MAX, qh = 0;

	if (host->max_slots >= 0 && !bound(host->max_slots -
	    sched_count_host(&p->count, h), SCHED_HR_SLOTS, &free, why))
		return 0;
	if (q->hjob_limit >= 0 || q->pjob_limit >= 0)
		qh = sched_count_pair(p->count.queue_host, j->queue, h);
	if (q->hjob_limit >= 0 && !bound(q->hjob_limit - qh,
	    SCHED_HR_QUEUE_HOST, &free, why))
		return 0;
	if (q->pjob_limit >= 0 && !bound(sched_cpu_cap(q->pjob_limit,
	    host->ncpus) - qh,
	    SCHED_HR_QUEUE_CPU, &free, why))
		return 0;
	if (host->jl_u >= 0 && !bound(host->jl_u -
	    sched_count_user_host_jlu(&p->count, j->user, h),
	    SCHED_HR_USER_HOST, &free, why))
		return 0;
	if (u->jl_p >= 0 && !bound(sched_cpu_cap(u->jl_p, host->ncpus) -
	    sched_count_user_host_cpu(&p->count, j->user, h),
	    SCHED_HR_USER_CPU, &free, why))
		return 0;
	if (u->n_groups > 0 && !bound(group_cpu_room(p, j, h),
	    SCHED_HR_GROUP_CPU, &free, why))
		return 0;
	if (j->ptile > 0)
		free = MIN(free, j->ptile);
	return free;
}

static gboolean
host_up(const SchedHost *host, SchedHostReason *why)
{
	switch (host->state) {
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
	return sched_resreq_host_ok(j->resreq, &p->snap->hosts[h]);
}

/* Free slots for this job on host h, or 0 with the host reason in *why. */
static int
host_free(Pass *p, const SchedJob *j, guint h, SchedHostReason *why)
{
	int free;

	if (!host_up(&p->snap->hosts[h], why))
		return 0;
	free = sched_host_room(p, j, h, why);
	if (free <= 0)
		return 0;
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

	return asked_for(j, h) && host_up(&p->snap->hosts[h], &why) &&
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
	int free = host_free(p, j, h, &why);

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

/*
 * Choose hosts for up to `want` slots (at least min_slots), the first in
 * the queue's order that have room.  On success the allocations are
 * appended to the plan and their number returned; on failure nothing is
 * appended and pend holds the host reasons, one per candidate host.
 */
static guint
place(Pass *p, const SchedJob *j, int want, SchedPending *pend)
{
	GArray *allocs = p->plan->allocs;
	guint first = allocs->len;
	int got = 0;

	if (j->asked_hosts != NULL)
		place_asked(p, j, want, &got, pend);
	else
		place_open(p, j, want, &got, pend);
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

SchedPendReason
sched_job_gate(Pass *p, const SchedJob *j)
{
	const SchedQueue *q = &p->snap->queues[j->queue];

	if (j->held)
		return SCHED_PEND_HELD;
	if (j->begin_time > p->snap->now)
		return SCHED_PEND_BEGIN_TIME;
	if (j->dep == SCHED_DEP_WAIT)
		return SCHED_PEND_DEP_WAIT;
	if (j->dep == SCHED_DEP_NEVER)
		return SCHED_PEND_DEP_NEVER;
	if (!q->dispatch_ok)
		return q->inactive_by_admin ? SCHED_PEND_QUEUE_INACTIVE_ADM :
		    SCHED_PEND_QUEUE_INACTIVE_WIN;
	if (j->array_id != 0 && j->array_limit > 0 &&
	    sched_count_array(&p->count, j->array_id) >= j->array_limit)
		return SCHED_PEND_ARRAY_LIMIT;
	return SCHED_PEND_NONE;
}

void
sched_commit(Pass *p, guint idx, guint first, guint n, guint first_pre,
    guint n_pre)
{
	const SchedJob *j = &p->snap->pending[idx];
	SchedDispatch d = {
		.job = idx, .first_alloc = first, .n_allocs = n,
		.first_preemption = first_pre, .n_preemptions = n_pre,
	};

	for (guint i = first; i < first + n; i++) {
		const SchedAlloc *a = &g_array_index(p->plan->allocs, SchedAlloc, i);

		gboolean was_full = sched_host_full(p, a->host);

		sched_count_add(&p->count, p->snap, j->queue, j->user, a->host,
		    a->slots);
		if (!was_full && sched_host_full(p, a->host))
			open_host_filled(p, a->host);
	}
	if (j->array_id != 0)
		sched_count_add_array(&p->count, j->array_id);
	g_array_append_val(p->plan->dispatches, d);
}

/* Limits that suspending running jobs can relieve (rule 1 of preempt.c). */
static gboolean
relievable(SchedPendReason r)
{
	return r == SCHED_PEND_USER_LIMIT || r == SCHED_PEND_GROUP_LIMIT;
}

static gboolean
try_preempt(Pass *p, guint idx, gboolean placed_none)
{
	const SchedJob *j = &p->snap->pending[idx];

	const SchedDispatch *d;

	if (p->preempt == NULL || !preempt_queue_can(p->preempt, j->queue) ||
	    !preempt_try(p, idx, placed_none))
		return FALSE;
	memset(&p->plan->pending[idx], 0, sizeof p->plan->pending[idx]);
	/* The victims' hosts may have free slots again. */
	d = &g_array_index(p->plan->dispatches, SchedDispatch,
	    p->plan->dispatches->len - 1);
	for (guint i = d->first_preemption;
	    i < d->first_preemption + d->n_preemptions; i++) {
		const SchedRunning *r = &p->snap->running[g_array_index(
		    p->plan->preemptions, SchedPreemption, i).victim];

		for (guint a = 0; a < r->n_allocs; a++)
			open_reopen(p, r->allocs[a].host);
	}
	/* Suspending victims lowered counters: blocked shapes may fit now. */
	g_hash_table_remove_all(p->blocked);
	g_hash_table_remove_all(p->no_victims);
	return TRUE;
}

/* A job held by MAX_JOBS: preempt, unless its shape already failed to. */
static void
try_preempt_for_limit(Pass *p, guint idx, const Shape *shape, gboolean memo)
{
	if (memo && g_hash_table_contains(p->no_victims, shape))
		return;
	if (!try_preempt(p, idx, FALSE) && memo)
		g_hash_table_add(p->no_victims, g_memdup2(shape, sizeof *shape));
}

void
sched_consider(Pass *p, guint idx)
{
	const SchedJob *j = &p->snap->pending[idx];
	SchedPending *pend = &p->plan->pending[idx];
	Shape shape = { j->queue, j->user, j->min_slots, j->ptile, j->one_host };
	gboolean memo = j->asked_hosts == NULL &&
	    !sched_resreq_constrains(j->resreq);
	const SchedPending *known;
	guint first, n;
	int want, room;

	pend->pool = NULL;
	pend->reason = sched_job_gate(p, j);
	if (pend->reason != SCHED_PEND_NONE)
		return;
	want = MIN(j->max_slots, sched_job_headroom(p, j, &pend->reason));
	if (pend->reason != SCHED_PEND_NONE) {
		if (relievable(pend->reason))
			try_preempt_for_limit(p, idx, &shape, memo);
		return;
	}
	/* After the queue's own limits, so a queue held by QJOB_LIMIT says
	 * so rather than blaming its pool. */
	room = pools_queue_room(p, j->queue);
	want = MIN(want, room);
	if (room < j->min_slots) {
		pend->reason = SCHED_PEND_POOL_SHARE;
		pend->pool = p->snap->pools[p->snap->queues[j->queue].pool].name;
		return;
	}
	if (memo && (known = g_hash_table_lookup(p->blocked, &shape)) != NULL) {
		*pend = *known;
		return;
	}
	first = p->plan->allocs->len;
	n = place(p, j, want, pend);
	if (n > 0) {
		/* The hosts passed over on the way say nothing: it started. */
		memset(pend, 0, sizeof *pend);
		sched_commit(p, idx, first, n, 0, 0);
		return;
	}
	pend->reason = SCHED_PEND_NO_HOSTS;
	if (try_preempt(p, idx, TRUE))
		return;
	/* A shape that could neither fit nor preempt cannot later in the
	 * pass either, until a preemption lowers the counters again. */
	if (memo)
		g_hash_table_insert(p->blocked, g_memdup2(&shape, sizeof shape),
		    g_memdup2(pend, sizeof *pend));
}

static int
cmp_int_desc(gconstpointer a, gconstpointer b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x > y ? -1 : x < y;
}

/*
 * The pass order: pending jobs by their queue's sort priority (pools
 * merged, pool.c), highest first, the snapshot's order kept within a
 * priority.  Priorities are few, so a stable bucket sort: count each
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

SchedPlan *
sched_run(const SchedSnapshot *snap)
{
	SchedPlan *plan = g_new0(SchedPlan, 1);
	Pass p = { .snap = snap, .plan = plan };
	guint *order, *by_load, *rank;
	int *prio;

	plan->dispatches = g_array_new(FALSE, FALSE, sizeof(SchedDispatch));
	plan->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	plan->preemptions = g_array_new(FALSE, FALSE, sizeof(SchedPreemption));
	plan->resumes = g_array_new(FALSE, FALSE, sizeof(SchedResume));
	plan->pending = g_new0(SchedPending, snap->n_pending);
	plan->n_pending = snap->n_pending;
	sched_count_init(&p.count, snap);
	by_load = rank_by_load(snap, &rank);
	p.queue_hosts = g_new0(GArray *, snap->n_queues);
	for (guint q = 0; q < snap->n_queues; q++)
		p.queue_hosts[q] = candidate_hosts(snap, &snap->queues[q], by_load,
		    rank);
	g_free(by_load);
	g_free(rank);
	p.open = open_new(snap);
	p.blocked = g_hash_table_new_full(shape_hash, shape_equal, g_free, g_free);
	p.no_victims = g_hash_table_new_full(shape_hash, shape_equal, g_free, NULL);
	p.preempt = preempt_new(snap);
	p.pools = pools_new(&p);
	/* Preempted jobs take their slots back before anything new starts. */
	sched_resume(&p);

	prio = pools_sort_priority(snap);
	order = pass_order(snap, prio);
	pools_set_order(p.pools, snap, order, snap->n_pending);
	for (guint i = 0; i < snap->n_pending; i++)
		if (!pools_take_turn(&p, order[i]))
			sched_consider(&p, order[i]);
	pools_finish(&p);

	g_free(order);
	g_free(prio);
	pools_free(p.pools);
	preempt_free(p.preempt);
	g_hash_table_destroy(p.blocked);
	g_hash_table_destroy(p.no_victims);
	open_free(p.open, snap->n_queues);
	for (guint q = 0; q < snap->n_queues; q++)
		g_array_free(p.queue_hosts[q], TRUE);
	g_free(p.queue_hosts);
	sched_count_clear(&p.count);
	return plan;
}

void
sched_plan_free(SchedPlan *plan)
{
	if (plan == NULL)
		return;
	g_array_free(plan->dispatches, TRUE);
	g_array_free(plan->allocs, TRUE);
	g_array_free(plan->preemptions, TRUE);
	g_array_free(plan->resumes, TRUE);
	g_free(plan->pending);
	g_free(plan->queue_deserved);
	g_free(plan->pool_slots);
	g_free(plan);
}
