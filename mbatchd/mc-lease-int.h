/*
 * What the two sides of MultiCluster leases share (mc-lease.c, the
 * provider, and mc-lease-consumer.c, the consumer): their state on the
 * Manager and a few helpers.  Private to those two files.
 */
#ifndef BS_MBD_MC_LEASE_INT_H
#define BS_MBD_MC_LEASE_INT_H

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

#include "mbatchd/mbd.h"
#include "mbatchd/mc-links.h"
#include "mbatchd/sched/lease.h"

#define CALL_TIMEOUT_MS 10000
#define MAX_FACT_RESOURCES 64
#define MAX_FACT_NAME 64
/* The most leases one provider may hold open with this cluster: a peer
 * that invents policy names fills no journal. */
#define MAX_LEASES_PER_PROVIDER 256

typedef struct McLease {
	Manager *m;
	guint stage_timer;        /* provider: the stage's next wake */
	gint64 stage_at;
	guint soon;               /* provider: a run asked for, coalesced */
	guint demand_timer;       /* consumer: the one-second check */
	GHashTable *demand;       /* provider: lease key -> Demand */
	GHashTable *resend;       /* provider: consumers owed a LeaseState */
	GHashTable *sent;         /* consumer: lease key -> last Demand text */
	GHashTable *sent_at;      /* consumer: lease key -> monotonic s */
	guint lease_method, demand_method;
} McLease;

/* This cluster's name. */
const char *mcl_local(Manager *m);
/* The key of a lease in McLease's tables. */
char *mcl_key_of(const char *policy, const char *provider, const char *consumer);
/* The link to cluster is up. */
gboolean mcl_linked(Manager *m, const char *cluster);
/* Journal the events in order, stopping at the first refused; then the
 * leased hosts are rebuilt.  FALSE when one was refused (logged). */
gboolean mcl_commit_events(Manager *m, GPtrArray *events, const char *what);
/* Slots of this cluster's own started jobs on host. */
int mcl_slots_on(Manager *m, const char *host);
/* The lease is over (its policy is gone): journaled, and gone from the
 * state and the leased hosts (mc-lease-consumer.c). */
void mcl_end_lease(Manager *m, const Lease *l);

/* Consumer side (mc-lease-consumer.c). */
/* ClusterService.Lease from the provider's link: believed, journaled. */
void mc_lease_on_lease(Manager *m, const char *cluster, const ProtobufCMessage *msg,
    ProtobufCClosure closure, void *call, void *data);
/* Send Demand for every lease this cluster borrows, when it changed or
 * is due (force: now). */
void mc_lease_consumer_demand(Manager *m, gboolean force);
/* The one-second Demand check (a GLib timeout; data is the Manager). */
gboolean mc_lease_demand_tick(gpointer data);
/* The leases borrowed from a provider whose link is lost: disconnected. */
void mc_lease_consumer_lost(Manager *m, const char *provider);

#endif
