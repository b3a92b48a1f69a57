/*
 * The candidate hosts of a preemption try (preempt.c), in classes by load
 * so the victim search can stop at the nearest class that frees enough:
 * listed class by class (lazy_cand) or all at once, skipped classes filled
 * back in order when a later rank needs them.
 */
#include "config.h"

#include <string.h>

#include "hybrid.h"
#include "pass.h"
#include "preempt.h"
#include "preempt-try.h"

/* What host h offers the job, capped at its need: more is no use, and an
 * unlimited host (INT_MAX) must not overflow the total. */
int
pt_host_offer(const Try *t, guint h)
{
	SchedHostReason why;
	int room = sched_host_room(t->p, t->job, h, &why);

	if (t->p->hybrid != NULL)
		room = MIN(room, hybrid_host_room(t->p, t->job, h));
	return MIN(room, t->need);
}

/* List the next class of candidates, each offering what it offered when
 * the try began: nothing with lazy_cand (see preempt_try), else what its
 * host room says if it is in the open list (a host out of it has reached
 * MXJ or a queue limit, so it offers 0).  FALSE when none are left. */
gboolean
pt_grow_cand(Try *t)
{
	const OpenHosts *oh = open_hosts(t->p, t->job->queue);
	guint had = t->n_cand;

	if (!preempt_cand_next(t->p, t->job, &t->gen, t->cand, &t->n_cand))
		return FALSE;
	if (t->n_cand > t->offer_cap) {
		guint cap = MAX(t->offer_cap * 2, t->n_cand);

		t->offer = g_renew(int, t->offer, cap);
		memset(t->offer + t->offer_cap, 0,
		    (cap - t->offer_cap) * sizeof *t->offer);
		t->offer_cap = cap;
	}
	for (guint i = had; i < t->n_cand; i++) {
		guint h = t->cand[i];

		t->pos[h] = i + 1;
		if (t->lazy_cand || !open_listed(oh, oh->pos[h] - 1))
			continue;
		t->offer[i] = pt_host_offer(t, h);
		t->total += t->offer[i];
	}
	return TRUE;
}

/* Make sure host h is listed if it is a candidate at all. */
void
pt_reach_host(Try *t, guint h)
{
	if (t->pos[h] != 0 || !preempt_cand_is(t->p, t->job, &t->gen, h))
		return;
	while (t->pos[h] == 0 && pt_grow_cand(t))
		;
}

/* The usable candidate hosts that matter, least loaded first (rule 4b,
 * prehosts.c), with what each offers: all of them, or with lazy_cand
 * none yet. */
void
pt_find_candidates(Try *t)
{
	preempt_cand_begin(t->p, t->job, &t->gen);
	if (t->lazy_cand)
		return;
	while (pt_grow_cand(t))
		;
}

/*
 * List the classes more_victims passed over in their place, as growing
 * class by class would have: with nothing offered (lazy_cand).  Their
 * order within a class is the same as then, since only taking a victim
 * changes the slots in use that order a class, and every host of a victim
 * is listed before it is taken.
 */
void
pt_unskip(Try *t)
{
	Preempt *pre = t->pre;
	guint *out = pre->cand2, n = 0, k = 0, ns, next_h = NO_HOST;
	guint *moved;
	int *offer;

	if (t->skips == NULL || t->skips->len == 0)
		return;
	if (pre->cand2 == NULL)
		out = pre->cand2 = g_new(guint, MAX(t->p->snap->n_hosts, 1u));
	if (t->next_c < t->n_cand)
		next_h = t->cand[t->next_c];
	ns = t->skips->len / 2;
	moved = g_new(guint, MAX(t->n_cand, 1u));
	for (guint c = 0; c <= t->n_cand; c++) {
		guint lp = c < t->n_cand ? pre->load_pos[t->cand[c]] : G_MAXUINT;

		for (; k < ns && g_array_index(t->skips, guint, 2 * k + 1) <= lp; k++)
			preempt_cand_range(t->p, t->job, &t->gen,
			    g_array_index(t->skips, guint, 2 * k),
			    g_array_index(t->skips, guint, 2 * k + 1), out, &n);
		if (c == t->n_cand)
			break;
		moved[c] = n;
		out[n++] = t->cand[c];
	}
	g_array_set_size(t->skips, 0);
	/* The hosts listed before keep their offers; the others offer 0. */
	offer = g_new0(int, MAX(n, 1u));
	for (guint c = 0; c < t->n_cand; c++)
		offer[moved[c]] = t->offer[c];
	g_free(moved);
	g_free(t->offer);
	t->offer = offer;
	t->offer_cap = MAX(n, 1u);
	memcpy(t->cand, out, n * sizeof *out);
	t->n_cand = n;
	for (guint c = 0; c < n; c++)
		t->pos[t->cand[c]] = c + 1;
	t->next_c = next_h == NO_HOST ? n : t->pos[next_h] - 1;
}

/* Every candidate, from now on. */
void
pt_all_candidates(Try *t)
{
	if (!t->lazy_cand)
		return;
	pt_unskip(t);
	while (pt_grow_cand(t))
		;
	t->lazy_cand = FALSE;
}
