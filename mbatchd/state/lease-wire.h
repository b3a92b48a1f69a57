/*
 * A lease on the wire (lease-wire.c): the Lease a provider's mbatchd
 * holds, as the ClusterService LeaseState it sends the consumer, and back,
 * checked, on the consumer's side.
 */
#ifndef BS_STATE_LEASE_WIRE_H
#define BS_STATE_LEASE_WIRE_H

#include <glib.h>

#include "cluster.pb-c.h"
#include "../sched/lease.h"

/* The most hosts one lease may carry from another cluster. */
#define LEASE_WIRE_MAX_HOSTS 100000

/* The message borrows the lease's strings; blocks gets what to g_free. */
Basalt__LeaseState *lease_to_wire(const Lease *l, GPtrArray *blocks);
/* A new Lease from a peer's message, or NULL with err when it does not
 * hold together (names, host count, slots, status). */
Lease *lease_from_wire(const Basalt__LeaseState *w, GError **err);

#endif
