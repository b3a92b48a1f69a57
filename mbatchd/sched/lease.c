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

gboolean
lease_status_parse(const char *s, LeaseStatus *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(status_names); i++)
		if (g_ascii_strcasecmp(s, status_names[i]) == 0) {
			*out = (LeaseStatus)i;
			return TRUE;
		}
	if (g_ascii_strcasecmp(s, "disc") == 0) {
		*out = LEASE_DISCONNECTED;
		return TRUE;
	}
	return FALSE;
}
