/*
 * MultiCluster leases: the state of one lease and the pure stage that
 * moves its slots (DESIGN.md pipeline step 6, stage-lease.c).
 *
 * A lease is one HostExport section (the policy) lent by one provider
 * cluster to one consumer cluster.  Its hosts each export some slots; of
 * those, `consumer_slots` are the consumer's now and the rest the
 * provider's.  An exclusive lease gives every slot to the consumer for
 * good; a shared lease (TYPE = shared) starts with all slots but one on
 * the provider's side and moves idle slots every MC_RECLAIM_DELAY.
 *
 * The same Lease struct is mbatchd's journaled state (mbatchd/state,
 * events EvLeaseNew, EvLeaseSplit, EvLeaseStatus), what `bclusters -l`
 * shows (policy, provider, consumer, hosts, slots per side, status, the
 * last evaluation and its idle-slot figures), and the stage's input and
 * output.  Everything here owns its memory and touches no clock, socket
 * or global.
 */
#ifndef BS_SCHED_LEASE_H
#define BS_SCHED_LEASE_H

#include <glib.h>

typedef enum {
	LEASE_OK = 0,             /* jobs may be dispatched into the lease */
	LEASE_INACTIVE,           /* an update is being applied: nothing is
	                           * dispatched into the lease's idle slots */
	LEASE_DISCONNECTED,       /* no link between the two clusters */
} LeaseStatus;

typedef struct {
	char *name;               /* the provider's host */
	int slots;                /* slots the policy exports on it */
	int consumer_slots;       /* of those, the consumer's now (0..slots) */
} LeaseHost;

typedef struct Lease {
	char *policy;             /* HostExport name (BsHostExport.name) */
	char *provider;           /* cluster that lends */
	char *consumer;           /* cluster that borrows */
	gboolean shared;          /* TYPE = shared; FALSE: exclusive */
	/* Shared: the consumer has run its first job on the lease (the seed:
	 * "the lease is made when the consumer schedules a job" on its one
	 * slot); before that nothing is redistributed.  Exclusive: always. */
	gboolean made;
	LeaseStatus status;
	guint64 generation;       /* 1 when made, one more at every change of split */
	GPtrArray *hosts;         /* LeaseHost*, in the policy's host order */
	/* The last evaluation (0: none yet) and the idle slots each side had
	 * then; next_eval is when the next one is due (G_MAXINT64: never: an
	 * exclusive lease, or a shared one not made yet). */
	gint64 last_eval;
	int last_idle_provider;
	int last_idle_consumer;
	gint64 next_eval;
} Lease;

/* Slots per side, summed over the hosts. */
int lease_provider_slots(const Lease *l);
int lease_consumer_slots(const Lease *l);
const char *lease_status_name(LeaseStatus s);   /* "ok", "inactive", "disconnected" */

/* A new lease as it starts: exclusive, every slot the consumer's and made;
 * shared, one slot (on the first host) the consumer's and the rest the
 * provider's, not made, no evaluation due until it is.  hosts[i] exports
 * slots[i] (> 0); n >= 1. */
Lease *lease_new(const char *policy, const char *provider, const char *consumer,
    gboolean shared, const char *const *hosts, const int *slots, guint n);
Lease *lease_copy(const Lease *l);

/*
 * How one export policy divides among its consumer clusters
 * (lsf-reference.md 3.4: "shares relative to total").  hosts[h] exports
 * slots[h]; shares[c] > 0 is consumer c's DISTRIBUTION share.  Fills
 * out[c * nhosts + h] with consumer c's slots on host h.
 *  - whole_hosts FALSE (PER_HOST): every host's slots are split; each
 *    consumer gets the floor of its share, and the slots left over go one
 *    each to the largest remainders (the earlier consumer on a tie).
 *  - whole_hosts TRUE (RES_SELECT): each host goes wholly to one consumer,
 *    in host order, to the one furthest below its share of the hosts
 *    given so far (the earlier consumer on a tie).
 */
void lease_divide(const int *shares, guint nshares, const int *slots, guint nhosts,
    gboolean whole_hosts, int *out);
void lease_free(Lease *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Lease, lease_free)

/*
 * The slots of lease host h that new jobs of one side (consumer or
 * provider) may be dispatched into now, given the slots each side's jobs
 * run on there: the side's slots less its running ones, but none at all
 * while the lease is inactive (the seed: nothing is dispatched into the
 * lease's idle slots while an update is applied), and none for the
 * consumer while disconnected (it cannot reach the host).
 */
struct LeaseHostUse;
int lease_open_slots(const Lease *l, guint h, const struct LeaseHostUse *use,
    gboolean consumer);

/* ---- the stage ---------------------------------------------------------- */

typedef struct LeaseHostUse {  /* slots of one lease host running jobs now */
	int provider_used;
	int consumer_used;
} LeaseHostUse;

typedef struct {
	const Lease *lease;
	const LeaseHostUse *use;  /* one per lease host, same order */
	/* Pending jobs on that side that could run on the lease's hosts
	 * (decisions.md: no demand on either side leaves the lease as is). */
	gboolean provider_pending;
	gboolean consumer_pending;
	gboolean linked;          /* the two clusters are connected now */
	/* The consumer has applied this generation of the lease: an inactive
	 * lease whose generation it has applied is ok again. */
	guint64 acked_generation;
	/* The link is up but the consumer has not reported since it came up
	 * (after a restart of the provider its figures are not known at all):
	 * consumer_used, consumer_pending and acked_generation are not its
	 * word, so the lease waits for the report as it is. */
	gboolean unreported;
} LeaseInput;

typedef struct {
	gint64 now;
	int reclaim_delay;        /* MC_RECLAIM_DELAY, seconds (> 0) */
	const LeaseInput *leases;
	guint nleases;
} LeaseStageIn;

typedef struct LeaseOutcome {
	Lease *lease;             /* the new state (owned) */
	gboolean made_now;        /* the consumer's first job made the lease */
	gboolean split_changed;   /* consumer_slots changed on some host */
	gboolean status_changed;
	gboolean evaluated;       /* an MC_RECLAIM_DELAY evaluation ran */
	const char *why;          /* short text: what the stage did and why */
} LeaseOutcome;

typedef struct {
	LeaseOutcome *out;        /* nleases entries, in input order */
	guint n;
	gint64 wake;              /* when the stage must run again; G_MAXINT64: never */
} LeaseStageOut;

/* Run the rule over every lease; each export policy is decided apart.
 * FALSE with err on inconsistent input (a host count that does not match,
 * more slots used than exported); out is then empty. */
gboolean lease_stage_run(const LeaseStageIn *in, LeaseStageOut *out, GError **err);
void lease_stage_out_clear(LeaseStageOut *out);

#endif
