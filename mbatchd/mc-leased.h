/*
 * Leased hosts on the consumer side (issue 19 item 3): every host a
 * provider cluster lends this cluster by a lease exists here as a record
 * named "host@cluster" (cluster: the provider), with the slots the lease
 * gives this cluster now, the lease's status, and the facts of the host
 * the provider reported (type, model, CPUs, memory, resources).  bhosts
 * shows them, the scheduler's snapshot holds them (SchedHost.remote and
 * .cluster, from SchedInputFacts.leased), and the job relay routes a job
 * placed on one to its provider.
 *
 * The records are derived from the journaled leases (mbatchd/state,
 * consumer = this cluster) whenever those change: mc_leased_refresh().
 * A restart therefore has them back from the journal at once; the facts
 * the provider reported are not journaled and fall back to a documented
 * minimum until its next LeaseState: no type or model (the scheduler's
 * default), as many CPUs as the policy exports slots there, no memory
 * figure, no resources.
 *
 * The name is always qualified: a peer can never make a leased host
 * shadow a local one, since no local host name holds an '@' (lsf.cluster
 * host names are checked) and every record carries "@provider".
 */
#ifndef BS_MBD_MC_LEASED_H
#define BS_MBD_MC_LEASED_H

#include <glib.h>

#include "mbatchd/sched-input.h"
#include "mbatchd/sched/lease.h"

struct Manager;

/* The most bytes of a leased host's name, "host@cluster" included. */
#define MC_LEASED_NAME_MAX 256

typedef struct McLeasedHost {
	char *name;               /* "host@cluster": what bhosts and bjobs show */
	char *host;               /* the provider's own name for it */
	char *provider;           /* the provider cluster */
	char *policy;             /* the HostExport section lending it */
	int slots;                /* the consumer's slots on it now (the lease) */
	int exported;             /* slots the policy exports on it */
	LeaseStatus status;       /* the lease's: ok, inactive, disconnected */
	/* Jobs may be placed on it now: the lease is ok and the link to the
	 * provider is up.  Else bhosts shows it closed and the snapshot
	 * holds it closed. */
	gboolean usable;
	/* The provider's facts, as its last LeaseState said (the minimum
	 * above until then). */
	int ncpus;
	char *type;               /* NULL: unknown */
	char *model;              /* NULL: unknown */
	double maxmem;            /* MB, 0 unknown */
	char **resources;         /* boolean resources, NULL-terminated; never NULL */
} McLeasedHost;

/* Build the (empty) table at start and free it at exit. */
void mc_leased_init(struct Manager *m);
void mc_leased_free(struct Manager *m);

/* The records again from the state's leases and the links: after a lease
 * event was applied or replayed, or a link went ok or disc. */
void mc_leased_refresh(struct Manager *m);

/* A leased host by its qualified name "host@cluster"; NULL: none. */
const McLeasedHost *mc_leased_host_find(struct Manager *m, const char *name);
/* Leased hosts, by provider then policy then the policy's host order. */
guint mc_leased_host_count(struct Manager *m);
const McLeasedHost *mc_leased_host_nth(struct Manager *m, guint i);

/* What mbd-snapshot.c hands the scheduler: every leased host as
 * SchedInputLeased (the table's own array, valid until the next
 * refresh), and on the provider side the slots of local host `host`
 * another cluster holds now (SchedInputHost.leased_out). */
const SchedInputLeased *mc_leased_snapshot(struct Manager *m, guint *n);
int mc_leased_out(struct Manager *m, const char *host);

/* The consumer side heard the provider's facts of a leased host (its
 * LeaseState): kept until the next, shown by bhosts -l and given to the
 * scheduler.  Bounded by the caller, who calls mc_leased_refresh()
 * before anything reads the records again (they borrow the facts). */
void mc_leased_set_facts(struct Manager *m, const char *name, int ncpus,
    const char *type, const char *model, double maxmem,
    const char *const *resources);

/* Whether `name` is written as a leased remote host ("host@cluster"),
 * whether or not such a lease exists now.  Pure: no Manager needed. */
gboolean mc_host_is_remote_name(const char *name);
/* Splits "host@cluster"; FALSE when name is not one (both left NULL). */
gboolean mc_host_split(const char *name, char **host, char **cluster);

#endif
