/*
 * The hosts a preemptor looks at, in the least-loaded-first order of
 * preempt.c (rule 4b: r15s, r1m, slots in use, name).
 *
 * A usable candidate host that offers the job no slot and holds no victim
 * it may take plays no part in a preemption: it adds nothing to the slots
 * offered, no victim is found on it, and a span[hosts=1] job cannot run
 * there alone.  Leaving such hosts out does not change any decision, and
 * on a full cluster it leaves out most hosts.  What remains:
 *
 * - hosts holding victims: per preempting queue, a count per host of the
 *   allocations of running jobs it may preempt that are not preempted yet
 *   (kept as victims are taken);
 * - hosts that may offer slots: the queue's open list (open.c), since a
 *   host outside it has reached MXJ or a limit of the queue.
 *
 * Both are kept per preempting queue as bits over the hosts ranked once
 * per pass by the load order's fixed keys (r15s, r1m, name): reading the
 * set bits gives the candidates in that order, and only "slots in use"
 * is left to sort within hosts of equal load (a class: hosts of equal
 * r15s and r1m, next to each other in the rank).  The candidates come a
 * class at a time, so a preemptor that finds its victim on the first
 * hosts does not order the others.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "preempt-try.h"
#include "preempt.h"

static int
cmp_fixed_load(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *s = data;
	const SchedHost *x = &s->hosts[*(const guint *)a];
	const SchedHost *y = &s->hosts[*(const guint *)b];
	int c;

	if (x->r15s != y->r15s)
		return x->r15s < y->r15s ? -1 : 1;
	if (x->r1m != y->r1m)
		return x->r1m < y->r1m ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return *(const guint *)a < *(const guint *)b ? -1 : 1;
}

static void
rank_hosts(Preempt *pre)
{
	const SchedSnapshot *s = pre->snap;
	guint n = s->n_hosts;

	pre->by_load = g_new(guint, MAX(n, 1u));
	pre->load_pos = g_new(guint, MAX(n, 1u));
	pre->load_class = g_new(guint, MAX(n, 1u));
	pre->class_start = g_new(guint, MAX(n, 1u));
	for (guint h = 0; h < n; h++)
		pre->by_load[h] = h;
	g_qsort_with_data(pre->by_load, (gint)n, sizeof(guint), cmp_fixed_load,
	    (gpointer)s);
	for (guint i = 0, cls = 0; i < n; i++) {
		const SchedHost *h = &s->hosts[pre->by_load[i]];

		if (i > 0) {
			const SchedHost *prev = &s->hosts[pre->by_load[i - 1]];

			if (prev->r15s != h->r15s || prev->r1m != h->r1m)
				cls++;
		}
		pre->load_pos[pre->by_load[i]] = i;
		pre->load_class[pre->by_load[i]] = cls;
		if (i == 0 || pre->load_class[pre->by_load[i - 1]] != cls)
			pre->class_start[cls] = i;
	}
}

static void
count_victims(Preempt *pre, guint a)
{
	const SchedSnapshot *s = pre->snap;
	const guint *rank = preempt_queue_ranks(pre, a);
	guint nh = s->n_hosts;
	int *vc = g_new0(int, MAX(nh, 1u));
	int *rc = g_new0(int, MAX((gsize)nh * pre->n_ranks[a], 1u));
	int *sc = g_new0(int, MAX(nh, 1u));

	for (guint r = 0; r < s->n_running; r++) {
		const SchedRunning *run = &s->running[r];

		if (pre->done[r] || !preempt_victim_for(pre, a, run))
			continue;
		for (guint i = 0; i < run->n_allocs; i++) {
			vc[run->allocs[i].host]++;
			rc[(gsize)rank[run->queue] * nh + run->allocs[i].host]++;
			sc[run->allocs[i].host] += run->allocs[i].slots;
		}
	}
	pre->vcount[a] = vc;
	pre->rcount[a] = rc;
	pre->scount[a] = sc;
}

static void
set_bit(guint64 *bits, guint i, gboolean on)
{
	if (on)
		bits[i / 64] |= G_GUINT64_CONSTANT(1) << (i % 64);
	else
		bits[i / 64] &= ~(G_GUINT64_CONSTANT(1) << (i % 64));
}

static void
set_wanted(Preempt *pre, guint a, guint h, gboolean on)
{
	set_bit(pre->wanted[a], pre->load_pos[h], on);
}

void
prehosts_taken(Pass *p, guint r)
{
	Preempt *pre = p->preempt;
	const SchedSnapshot *s = pre->snap;
	const SchedRunning *run = &s->running[r];

	for (guint a = 0; pre->vcount != NULL && a < s->n_queues; a++) {
		const OpenHosts *oh = &p->open[a];

		if (pre->vcount[a] == NULL || !preempt_victim_for(pre, a, run))
			continue;
		for (guint i = 0; i < run->n_allocs; i++) {
			guint h = run->allocs[i].host;

			if (--pre->rcount[a][(gsize)pre->qrank[a][run->queue] *
			    s->n_hosts + h] == 0)
				set_bit(pre->rbits[a] + (gsize)pre->qrank[a][run->queue] *
				    pre->words, pre->load_pos[h], FALSE);
			pre->scount[a][h] -= run->allocs[i].slots;
			if (--pre->vcount[a][h] == 0 && oh->pos[h] != 0 &&
			    !open_listed(oh, oh->pos[h] - 1))
				set_wanted(pre, a, h, FALSE);
		}
	}
}

void
prehosts_listed(Pass *p, guint q, guint h, gboolean listed)
{
	Preempt *pre = p->preempt;

	if (pre == NULL || pre->wanted == NULL || pre->wanted[q] == NULL ||
	    (!listed && pre->vcount[q][h] > 0))
		return;
	set_wanted(pre, q, h, listed);
}

/* Queue a's candidates that hold victims or are listed open, as bits in
 * the fixed load rank. */
static void
mark_wanted(Pass *p, guint a)
{
	Preempt *pre = p->preempt;
	const OpenHosts *oh = open_hosts(p, a);

	guint nh = p->snap->n_hosts, nr = pre->n_ranks[a];

	pre->wanted[a] = g_new0(guint64, pre->words);
	pre->rbits[a] = g_new0(guint64, MAX((gsize)pre->words * nr, 1u));
	for (guint c = 0; c < oh->cand->len; c++) {
		guint h = g_array_index(oh->cand, guint, c);

		if (pre->vcount[a][h] > 0 || open_listed(oh, c))
			set_wanted(pre, a, h, TRUE);
		for (guint r = 0; pre->vcount[a][h] > 0 && r < nr; r++)
			if (pre->rcount[a][(gsize)r * nh + h] > 0)
				set_bit(pre->rbits[a] + (gsize)r * pre->words,
				    pre->load_pos[h], TRUE);
	}
}

/* An index of n lists whose lengths are count[0, n): count becomes each
 * list's fill position. */
static RunIndex *
index_new(guint *count, guint n)
{
	RunIndex *ix = g_new(RunIndex, 1);
	guint total = 0;

	ix->first = g_new(guint, n + 1);
	for (guint i = 0; i < n; i++) {
		ix->first[i] = total;
		total += count[i];
		count[i] = ix->first[i];
	}
	ix->first[n] = total;
	ix->runs = g_new(guint, MAX(total, 1u));
	return ix;
}

static void
index_free(RunIndex *ix)
{
	if (ix == NULL)
		return;
	g_free(ix->first);
	g_free(ix->runs);
	g_free(ix);
}

/*
 * Counted first, then filled in place: the lists hold tens of thousands
 * of entries in all, and an append per entry (with the growth it brings)
 * cost more than the walk itself.  Each list keeps the order of
 * SchedSnapshot.running.
 */
void
preempt_index_users(Preempt *pre, guint a)
{
	const SchedSnapshot *s = pre->snap;
	RunIndex *users, *groups;
	guint *ucount, *gcount, *elig, n = 0;

	if (pre->by_user == NULL) {
		pre->by_user = g_new0(RunIndex *, MAX(s->n_queues, 1u));
		pre->by_group = g_new0(RunIndex *, MAX(s->n_queues, 1u));
	}
	if (pre->by_user[a] != NULL)
		return;
	ucount = g_new0(guint, MAX(s->n_users, 1u));
	gcount = g_new0(guint, MAX(s->n_groups, 1u));
	elig = g_new(guint, MAX(s->n_running, 1u));
	for (guint r = 0; r < s->n_running; r++) {
		const SchedRunning *run = &s->running[r];
		const SchedUser *u = &s->users[run->user];

		if (!preempt_victim_for(pre, a, run))
			continue;
		elig[n++] = r;
		ucount[run->user]++;
		for (guint g = 0; g < u->n_groups; g++)
			gcount[u->groups[g]]++;
	}
	users = pre->by_user[a] = index_new(ucount, s->n_users);
	groups = pre->by_group[a] = index_new(gcount, s->n_groups);
	for (guint k = 0; k < n; k++) {
		guint r = elig[k];
		const SchedRunning *run = &s->running[r];
		const SchedUser *u = &s->users[run->user];

		users->runs[ucount[run->user]++] = r;
		for (guint g = 0; g < u->n_groups; g++)
			groups->runs[gcount[u->groups[g]]++] = r;
	}
	g_free(ucount);
	g_free(gcount);
	g_free(elig);
}

void
prehosts_free(Preempt *pre)
{
	for (guint a = 0; pre->by_user != NULL && a < pre->snap->n_queues; a++) {
		index_free(pre->by_user[a]);
		index_free(pre->by_group[a]);
	}
	g_free(pre->by_user);
	g_free(pre->by_group);
	pt_relief_free(pre);
	for (guint a = 0; pre->vcount != NULL && a < pre->snap->n_queues; a++) {
		g_free(pre->vcount[a]);
		g_free(pre->rcount[a]);
		g_free(pre->scount[a]);
		g_free(pre->wanted[a]);
		g_free(pre->rbits[a]);
	}
	g_free(pre->vcount);
	g_free(pre->rcount);
	g_free(pre->scount);
	g_free(pre->wanted);
	g_free(pre->rbits);
	g_free(pre->class_start);
	g_free(pre->plain_usable);
	g_free(pre->by_load);
	g_free(pre->load_pos);
	g_free(pre->load_class);
}

/*
 * sched_host_usable, remembered per host for jobs without -m or a filter
 * argument of their own: for those the answer depends on the host alone
 * (the filter is pure), and the same hosts come up for every preemptor.
 */
static inline gboolean
usable(Pass *p, const SchedJob *j, gboolean plain, guint h)
{
	guint8 *known = p->preempt->plain_usable;

	if (!plain)
		return sched_host_usable(p, j, h);
	if (known[h] == 0)
		known[h] = sched_host_usable(p, j, h) ? 1 : 2;
	return known[h] == 1;
}

/* Each class of equal (r15s, r1m) by slots in use, stably, so the names'
 * rank still orders equals.  Classes are a few hosts: insertion sort, on
 * keys read once. */
static void
sort_classes(Pass *p, guint *o, guint n)
{
	const guint *cls = p->preempt->load_class;
	int small[32];
	int *u = n <= G_N_ELEMENTS(small) ? small : g_new(int, n);

	for (guint i = 0; i < n; i++)
		u[i] = sched_count_host(&p->count, o[i]);
	for (guint i = 1; i < n; i++) {
		guint h = o[i], k = i;
		int uh = u[i];

		while (k > 0 && cls[o[k - 1]] == cls[h] && u[k - 1] > uh) {
			o[k] = o[k - 1];
			u[k] = u[k - 1];
			k--;
		}
		o[k] = h;
		u[k] = uh;
	}
	if (u != small)
		g_free(u);
}

void
preempt_cand_begin(Pass *p, const SchedJob *j, CandGen *g)
{
	Preempt *pre = p->preempt;
	const SchedSnapshot *s = p->snap;
	guint q = j->queue;

	if (pre->by_load == NULL) {
		rank_hosts(pre);
		pre->vcount = g_new0(int *, s->n_queues);
		pre->rcount = g_new0(int *, s->n_queues);
		pre->scount = g_new0(int *, s->n_queues);
		pre->wanted = g_new0(guint64 *, s->n_queues);
		pre->rbits = g_new0(guint64 *, s->n_queues);
		pre->words = s->n_hosts / 64 + 1;
		pre->plain_usable = g_new0(guint8, MAX(s->n_hosts, 1u));
	}
	if (pre->vcount[q] == NULL) {
		count_victims(pre, q);
		mark_wanted(p, q);
	}
	g->q = q;
	g->plain = j->asked_hosts == NULL &&
	    !sched_resreq_constrains(j->resreq);
	g->next = 0;
	g->limit = s->n_hosts;
}

/* The next set bit of a row over the load rank at position >= i, or
 * n_hosts. */
static guint
next_set(const Preempt *pre, const guint64 *bits, guint i)
{
	guint nh = pre->snap->n_hosts;

	while (i < nh) {
		guint64 word = bits[i / 64] >> (i % 64);

		if (word != 0)
			return MIN(i + (guint)__builtin_ctzll(word), nh);
		i = (i / 64 + 1) * 64;
	}
	return nh;
}

/* The next set bit of queue q's candidates at load position >= i. */
static guint
next_wanted(const Preempt *pre, guint q, guint i)
{
	return next_set(pre, pre->wanted[q], i);
}

gboolean
preempt_cand_next(Pass *p, const SchedJob *j, CandGen *g, guint *out,
    guint *n_out)
{
	Preempt *pre = p->preempt;
	guint nh = p->snap->n_hosts, first = *n_out, n = first;

	/* Classes whose hosts the job cannot use add nothing: go on. */
	while (n == first) {
		guint i = next_wanted(pre, g->q, g->next), cls;

		if (i >= g->limit) {
			g->next = i;
			return FALSE;
		}
		cls = pre->load_class[pre->by_load[i]];
		for (; i < nh && pre->load_class[pre->by_load[i]] == cls;
		    i = next_wanted(pre, g->q, i + 1)) {
			guint h = pre->by_load[i];

			if (usable(p, j, g->plain, h))
				out[n++] = h;
		}
		g->next = i;
	}
	*n_out = n;
	sort_classes(p, out + first, n - first);
	return TRUE;
}

gboolean
preempt_cand_skip(Pass *p, CandGen *g, guint rank, guint *from, guint *to)
{
	Preempt *pre = p->preempt;
	guint nh = p->snap->n_hosts;
	guint i = next_set(pre, pre->rbits[g->q] + (gsize)rank * pre->words,
	    g->next);
	guint start = i >= nh ? nh : pre->class_start[pre->load_class[
	    pre->by_load[i]]];

	if (start <= g->next)
		return FALSE;
	*from = g->next;
	*to = g->next = start;
	return TRUE;
}

void
preempt_cand_range(Pass *p, const SchedJob *j, const CandGen *g,
    guint from, guint to, guint *out, guint *n_out)
{
	CandGen r = *g;

	r.next = from;
	r.limit = to;
	while (preempt_cand_next(p, j, &r, out, n_out))
		;
}

gboolean
preempt_cand_is(Pass *p, const SchedJob *j, const CandGen *g, guint h)
{
	Preempt *pre = p->preempt;
	const OpenHosts *oh = open_hosts(p, g->q);
	guint i = pre->load_pos[h];

	return oh->pos[h] != 0 &&
	    (pre->wanted[g->q][i / 64] >> (i % 64) & 1) != 0 &&
	    usable(p, j, g->plain, h);
}
