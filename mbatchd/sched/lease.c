/*
 * The Lease value (lease.h): how one starts, copies and its figures.
 * The start state is the seed's: "all but one slot is initially available
 * to the provider cluster, and one slot could be available to the
 * consumer" (shared); an exclusive lease is the consumer's whole.
 */
#include "config.h"

#include <string.h>

#include "lease.h"

static void
host_free(gpointer p)
{
	LeaseHost *h = p;

	g_free(h->name);
	g_free(h);
}

static Lease *
lease_alloc(const char *policy, const char *provider, const char *consumer, gboolean shared)
{
	Lease *l = g_new0(Lease, 1);

	l->policy = g_strdup(policy);
	l->provider = g_strdup(provider);
	l->consumer = g_strdup(consumer);
	l->shared = shared;
	l->status = LEASE_OK;
	l->hosts = g_ptr_array_new_with_free_func(host_free);
	l->next_eval = G_MAXINT64;
	return l;
}

Lease *
lease_new(const char *policy, const char *provider, const char *consumer,
    gboolean shared, const char *const *hosts, const int *slots, guint n)
{
	Lease *l = lease_alloc(policy, provider, consumer, shared);

	for (guint i = 0; i < n; i++) {
		LeaseHost *h = g_new0(LeaseHost, 1);

		h->name = g_strdup(hosts[i]);
		h->slots = MAX(slots[i], 0);
		if (!shared)
			h->consumer_slots = h->slots;
		g_ptr_array_add(l->hosts, h);
	}
	/* Shared: the one slot the consumer can make the lease on. */
	for (guint i = 0; shared && i < l->hosts->len; i++) {
		LeaseHost *h = l->hosts->pdata[i];

		if (h->slots > 0) {
			h->consumer_slots = 1;
			break;
		}
	}
	l->made = !shared;
	l->generation = 1;
	return l;
}

Lease *
lease_copy(const Lease *l)
{
	Lease *c = lease_alloc(l->policy, l->provider, l->consumer, l->shared);

	c->made = l->made;
	c->status = l->status;
	c->generation = l->generation;
	c->last_eval = l->last_eval;
	c->last_idle_provider = l->last_idle_provider;
	c->last_idle_consumer = l->last_idle_consumer;
	c->next_eval = l->next_eval;
	for (guint i = 0; i < l->hosts->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];
		LeaseHost *n = g_new0(LeaseHost, 1);

		n->name = g_strdup(h->name);
		n->slots = h->slots;
		n->consumer_slots = h->consumer_slots;
		g_ptr_array_add(c->hosts, n);
	}
	return c;
}

int
lease_open_slots(const Lease *l, guint h, const LeaseHostUse *use, gboolean consumer)
{
	const LeaseHost *lh;

	if (h >= l->hosts->len || l->status == LEASE_INACTIVE ||
	    (consumer && l->status == LEASE_DISCONNECTED))
		return 0;
	lh = l->hosts->pdata[h];
	if (consumer)
		return MAX(lh->consumer_slots - use->consumer_used, 0);
	return MAX(lh->slots - lh->consumer_slots - use->provider_used, 0);
}

void
lease_divide(const int *shares, guint nshares, const int *slots, guint nhosts,
    gboolean whole_hosts, int *out)
{
	gint64 total = 0;

	memset(out, 0, sizeof(int) * nshares * nhosts);
	for (guint c = 0; c < nshares; c++)
		total += MAX(shares[c], 0);
	if (total == 0)
		return;
	for (guint h = 0; h < nhosts; h++) {
		gint64 left = MAX(slots[h], 0);
		guint best = 0;

		if (whole_hosts) {
			/* Compare (share_c * (h + 1) - given_c * total) across c:
			 * how far c is below its share once this host is given. */
			gint64 best_gap = G_MININT64;

			for (guint c = 0; c < nshares; c++) {
				gint64 given = 0, gap;

				for (guint k = 0; k < h; k++)
					given += out[c * nhosts + k] > 0;
				gap = (gint64)MAX(shares[c], 0) * (h + 1) - given * total;
				if (gap > best_gap) {
					best_gap = gap;
					best = c;
				}
			}
			out[best * nhosts + h] = (int)left;
			continue;
		}
		for (guint c = 0; c < nshares; c++) {
			out[c * nhosts + h] = (int)(left * MAX(shares[c], 0) / total);
		}
		for (guint c = 0; c < nshares; c++)
			left -= out[c * nhosts + h];
		/* Leftovers to the largest remainders, at most one each. */
		for (; left > 0; left--) {
			gint64 best_rem = -1;
			gboolean found = FALSE;

			for (guint c = 0; c < nshares; c++) {
				gint64 rem = (gint64)MAX(slots[h], 0) * MAX(shares[c], 0) % total;

				if (rem > best_rem && out[c * nhosts + h] * total <
				    (gint64)MAX(slots[h], 0) * MAX(shares[c], 0)) {
					best_rem = rem;
					best = c;
					found = TRUE;
				}
			}
			if (!found)
				break;
			out[best * nhosts + h]++;
		}
	}
}

void
lease_free(Lease *l)
{
	if (l == NULL)
		return;
	g_free(l->policy);
	g_free(l->provider);
	g_free(l->consumer);
	g_ptr_array_unref(l->hosts);
	g_free(l);
}

int
lease_consumer_slots(const Lease *l)
{
	int n = 0;

	for (guint i = 0; i < l->hosts->len; i++)
		n += ((const LeaseHost *)l->hosts->pdata[i])->consumer_slots;
	return n;
}

int
lease_provider_slots(const Lease *l)
{
	int n = 0;

	for (guint i = 0; i < l->hosts->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];

		n += h->slots - h->consumer_slots;
	}
	return n;
}

static const char *const status_names[] = { "ok", "inactive", "disconnected" };

const char *
lease_status_name(LeaseStatus s)
{
	return (guint)s < G_N_ELEMENTS(status_names) ? status_names[s] : "?";
}
