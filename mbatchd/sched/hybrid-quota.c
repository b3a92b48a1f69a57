/*
 * Dividing a parent's slots among its children (or a resource group's
 * among its first-level consumers).  Rule: seeds/symphony-hybrid-policy.txt,
 * "How many slots can the consumer borrow?", "Calculating the quota with
 * reserve and limit", "Calculating the quota with rank", and "Configure
 * the even distribution of free slots", with decisions.md ("Hybrid
 * policy"): fractional quotas are rounded down and the leftover whole
 * slots go one at a time, at most one per consumer, in rank order (equal
 * ranks: order in the plan); a consumer owning nothing waits only for
 * siblings that own slots and still have demand.
 *
 * The steps, each a water-filling (shares in proportion to a weight, a
 * share above its cap is cut to it and the excess shared again):
 *   1. floors: reserves (and an owner's unlent slots), in proportion to
 *      themselves when even they do not fit;
 *   2. owned parts, up to min(demand, owned), in proportion to owned;
 *   3. borrowing: in proportion to owned (or SHARE) among owners still in
 *      need, then evenly among consumers owning nothing; with the
 *      even-distribution option, evenly among all still in need.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "hybrid.h"

#define EPS 1e-9

/* Give out `amount` in proportion to w[i] among i with need[i] > 0, none
 * above its need; returns what is left. */
static double
fill(double *got, const double *w, double *need, guint n, double amount)
{
	gboolean *done = g_new0(gboolean, n);

	for (;;) {
		double sw = 0;
		gboolean capped = FALSE;

		for (guint i = 0; i < n; i++)
			if (!done[i] && w[i] > 0 && need[i] > EPS)
				sw += w[i];
			else
				done[i] = TRUE;
		if (sw <= 0 || amount <= EPS)
			break;
		for (guint i = 0; i < n; i++) {
			if (done[i] || amount * w[i] / sw < need[i] - EPS)
				continue;
			capped = TRUE;
		}
		if (!capped) {
			for (guint i = 0; i < n; i++) {
				double s;

				if (done[i])
					continue;
				s = amount * w[i] / sw;
				got[i] += s;
				need[i] -= s;
			}
			amount = 0;
			break;
		}
		/* Those capped take their need; the rest is shared again. */
		double share_base = amount;

		for (guint i = 0; i < n; i++) {
			if (done[i] || share_base * w[i] / sw < need[i] - EPS)
				continue;
			got[i] += need[i];
			amount -= need[i];
			need[i] = 0;
			done[i] = TRUE;
		}
	}
	g_free(done);
	return amount > 0 ? amount : 0;
}

static int
by_rank(const void *a, const void *b, void *data)
{
	const QuotaShare *c = data;
	guint x = *(const guint *)a, y = *(const guint *)b;

	if (c[x].rank != c[y].rank)
		return c[x].rank < c[y].rank ? -1 : 1;
	return c[x].order < c[y].order ? -1 : c[x].order > c[y].order;
}

static void
round_shares(QuotaShare *c, const double *got, guint n)
{
	double total = 0;
	int whole = 0, left;
	guint *idx = g_new(guint, n);
	guint m = 0;

	for (guint i = 0; i < n; i++) {
		total += got[i];
		c[i].quota = (int)floor(got[i] + EPS);
		whole += c[i].quota;
		if (got[i] - c[i].quota > EPS)
			idx[m++] = i;
	}
	left = (int)floor(total + 0.5) - whole;
	g_qsort_with_data(idx, m, sizeof *idx, by_rank, c);
	for (guint k = 0; k < m && left > 0; k++, left--)
		c[idx[k]].quota++;
	g_free(idx);
}

void
hybrid_divide(QuotaShare *c, guint n, int total, gboolean evenly)
{
	double *got, *need, *w;
	double amount = total > 0 ? total : 0;

	if (n == 0)
		return;
	got = g_new0(double, n);
	need = g_new(double, n);
	w = g_new(double, n);
	/* 1. floors */
	for (guint i = 0; i < n; i++) {
		c[i].floor = MIN(c[i].floor, c[i].cap);
		c[i].base = MAX(MIN(c[i].base, c[i].cap), c[i].floor);
		need[i] = c[i].floor;
		w[i] = c[i].floor;
	}
	amount = fill(got, w, need, n, amount);
	/* 2. owned parts, in proportion to owned */
	for (guint i = 0; i < n; i++) {
		need[i] = c[i].base - got[i];
		w[i] = c[i].weight > 0 ? c[i].weight : 0;
	}
	amount = fill(got, w, need, n, amount);
	/* 3. borrowing */
	for (guint i = 0; i < n; i++) {
		need[i] = c[i].cap - got[i];
		w[i] = evenly ? 1 : c[i].weight;
	}
	amount = fill(got, w, need, n, amount);
	if (!evenly) {
		for (guint i = 0; i < n; i++)
			w[i] = c[i].weight > 0 ? 0 : 1;
		(void)fill(got, w, need, n, amount);
	}
	round_shares(c, got, n);
	g_free(got);
	g_free(need);
	g_free(w);
}
