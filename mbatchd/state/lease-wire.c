/*
 * A lease on the wire: Lease (mbatchd/sched/lease.h) to and from the
 * ClusterService LeaseState a provider sends its consumer (proto/
 * cluster.proto), so both clusters hold the same lease state.
 *
 * What comes from the other cluster is checked before it becomes a
 * Lease: names present and without newlines, at least one host and no
 * more than LEASE_WIRE_MAX_HOSTS, the consumer's slots within what the
 * policy exports on each host, a status this side knows.  The link is
 * MUNGE-authenticated, but a peer is still only trusted with its own
 * leases; which cluster may speak for which lease is the link's check.
 */
#include "config.h"

#include <string.h>

#include "lease-wire.h"
#include "util/error.h"

static Basalt__LeaseStatus
to_status(LeaseStatus s)
{
	switch (s) {
	case LEASE_OK: return BASALT__LEASE_STATUS__LEASE_STATUS_OK;
	case LEASE_INACTIVE: return BASALT__LEASE_STATUS__LEASE_STATUS_INACTIVE;
	case LEASE_DISCONNECTED: return BASALT__LEASE_STATUS__LEASE_STATUS_DISC;
	}
	return BASALT__LEASE_STATUS__LEASE_STATUS_UNSPECIFIED;
}

static gboolean
from_status(Basalt__LeaseStatus s, LeaseStatus *out)
{
	switch (s) {
	case BASALT__LEASE_STATUS__LEASE_STATUS_OK: *out = LEASE_OK; return TRUE;
	case BASALT__LEASE_STATUS__LEASE_STATUS_INACTIVE: *out = LEASE_INACTIVE; return TRUE;
	case BASALT__LEASE_STATUS__LEASE_STATUS_DISC: *out = LEASE_DISCONNECTED; return TRUE;
	default: return FALSE;
	}
}

static gpointer
keep(GPtrArray *blocks, gpointer p)
{
	g_ptr_array_add(blocks, p);
	return p;
}

Basalt__LeaseState *
lease_to_wire(const Lease *l, GPtrArray *blocks)
{
	Basalt__LeaseState *w = keep(blocks, g_new(Basalt__LeaseState, 1));
	guint n = l->hosts->len;

	basalt__lease_state__init(w);
	w->policy = l->policy;
	w->provider = l->provider;
	w->consumer = l->consumer;
	w->status = to_status(l->status);
	w->generation = l->generation;
	w->shared = l->shared;
	w->made = l->made;
	w->last_eval = l->last_eval;
	w->idle_provider = l->last_idle_provider;
	w->idle_consumer = l->last_idle_consumer;
	w->next_eval = l->next_eval == G_MAXINT64 ? 0 : l->next_eval;
	w->n_hosts = n;
	w->hosts = keep(blocks, g_new0(Basalt__LeasedHost *, MAX(n, 1)));
	w->n_exported_slots = n;
	w->exported_slots = keep(blocks, g_new0(uint32_t, MAX(n, 1)));
	for (guint i = 0; i < n; i++) {
		const LeaseHost *h = l->hosts->pdata[i];
		Basalt__LeasedHost *o = keep(blocks, g_new(Basalt__LeasedHost, 1));

		basalt__leased_host__init(o);
		o->host_name = h->name;
		o->slots = (uint32_t)h->consumer_slots;
		w->hosts[i] = o;
		w->exported_slots[i] = (uint32_t)h->slots;
	}
	return w;
}

static gboolean
good_name(const char *s)
{
	return s != NULL && *s != '\0' && strlen(s) <= 256 && strchr(s, '\n') == NULL;
}

Lease *
lease_from_wire(const Basalt__LeaseState *w, GError **err)
{
	g_autoptr(GPtrArray) names = NULL;
	g_autofree int *slots = NULL;
	LeaseStatus status;
	Lease *l;

	if (!good_name(w->policy) || !good_name(w->provider) || !good_name(w->consumer)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "a lease without a policy, provider "
		    "or consumer name");
		return NULL;
	}
	if (w->n_hosts == 0 || w->n_hosts > LEASE_WIRE_MAX_HOSTS ||
	    w->n_exported_slots != w->n_hosts) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: %zu hosts and %zu "
		    "exported slot counts (1 to %d hosts, one count each)", w->policy, w->consumer,
		    w->n_hosts, w->n_exported_slots, LEASE_WIRE_MAX_HOSTS);
		return NULL;
	}
	if (!from_status(w->status, &status)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: unknown status %d",
		    w->policy, w->consumer, (int)w->status);
		return NULL;
	}
	names = g_ptr_array_new();
	slots = g_new(int, w->n_hosts);
	for (gsize i = 0; i < w->n_hosts; i++) {
		const Basalt__LeasedHost *h = w->hosts[i];

		if (h == NULL || !good_name(h->host_name) || w->exported_slots[i] == 0 ||
		    w->exported_slots[i] > 1000000 || h->slots > w->exported_slots[i]) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: host entry %zu "
			    "is not a host with the consumer's slots within those exported",
			    w->policy, w->consumer, i);
			return NULL;
		}
		g_ptr_array_add(names, h->host_name);
		slots[i] = (int)w->exported_slots[i];
	}
	l = lease_new(w->policy, w->provider, w->consumer, w->shared,
	    (const char *const *)names->pdata, slots, (guint)w->n_hosts);
	for (gsize i = 0; i < w->n_hosts; i++)
		((LeaseHost *)l->hosts->pdata[i])->consumer_slots = (int)w->hosts[i]->slots;
	l->status = status;
	l->made = w->made || !w->shared;
	l->generation = MAX(w->generation, 1);
	l->last_eval = MAX(w->last_eval, 0);
	l->last_idle_provider = MAX(w->idle_provider, 0);
	l->last_idle_consumer = MAX(w->idle_consumer, 0);
	l->next_eval = w->next_eval > 0 ? w->next_eval : G_MAXINT64;
	return l;
}
