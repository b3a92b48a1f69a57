/*
 * MultiCluster leases on live links (mc-lease.c): the provider runs the
 * lease stage on its timer and sends LeaseState to the consumer; the
 * consumer holds and journals it and sends Demand back; a lost link
 * marks the leases disconnected on both sides.
 */
#ifndef BS_MBD_MC_LEASE_H
#define BS_MBD_MC_LEASE_H

struct Manager;

/* After mc_links_init: register the Lease and Demand handlers and the
 * link watcher.  mc_lease_start once the journal is replayed and the
 * server listens; mc_lease_free after mc_links_free. */
void mc_lease_init(struct Manager *m);
void mc_lease_start(struct Manager *m);
void mc_lease_free(struct Manager *m);
/* After badmin reconfig: leases of new exports are made for linked
 * consumers, leases whose policy is gone end (the consumer is told), and
 * a lease whose hosts or type changed starts again with the next
 * generation. */
void mc_lease_reconfigured(struct Manager *m);

#endif
