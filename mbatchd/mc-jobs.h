/*
 * MultiCluster job relay (issue 19 items 3 and 5): a consumer cluster's
 * job placed on a host it leases, "host@provider", runs through the
 * provider's mbatchd, which owns that host's link (lsf-reference.md 3.6:
 * the consumer's mbatchd sends the job to the provider's mbatchd, which
 * starts it through its sbatchd).
 *
 * Consumer (mc-jobs-consumer.c): mbd-orders.c hands a remote host's start
 * and signal orders here instead of to an sbatchd; they leave as
 * RemoteStart and RemoteSignal over the ClusterService link.  The
 * provider's RemoteStatus reports are applied as the job's host reports
 * are (mbd-hosts.c), as from host "host@provider".
 *
 * Provider (mc-jobs-provider.c): a RemoteStart from the link of a cluster
 * that leases the host becomes a job record of its own (journaled: a
 * restart knows it), its spec carrying RemoteOrigin (the consumer's
 * cluster, job, index and run), dispatched through mbd-orders.c to the
 * host's sbatchd.  Every change of that record is sent back as
 * RemoteStatus until the consumer answers, and all of them again each
 * time the link comes up, so an end during a cut or a restart of either
 * side is reported when the link returns.  A repeated RemoteStart of the
 * same run is answered with the record it already made: never run twice.
 * These records are the consumer's: the provider's scheduler never sees
 * them (the lease's consumer slots are taken from the host's capacity).
 * Nor does the provider retry a run whose pre-exec failed: the record
 * ends and RemoteStatus.preexec_failed lets the consumer decide
 * (mbd-prepost.c).
 */
#ifndef BS_MBD_MC_JOBS_H
#define BS_MBD_MC_JOBS_H

#include "mbatchd/mbd.h"

/* Register the relay's ClusterService handlers and link watchers. */
void mc_jobs_init(Manager *m);
void mc_jobs_free(Manager *m);

/* Is host a leased remote host ("host@cluster")?  *cluster (when not
 * NULL) points into host, after the '@'. */
gboolean mc_jobs_remote_host(const char *host, const char **cluster);

/* ---- consumer -------------------------------------------------------------- */

/* Can a start order reach host@cluster's provider now (its link is ok)? */
gboolean mc_jobs_reachable(Manager *m, const char *host);
/* Send j's start order (already committed as its dispatch) to the
 * provider of exec_hosts[0].  FALSE with err when it cannot leave. */
gboolean mc_jobs_send_start(Manager *m, const Job *j,
    const Basalt__StartJobRequest *start, GError **err);
/* Send an action on run req->instance of j (consumer's numbering). */
gboolean mc_jobs_send_signal(Manager *m, const char *host,
    const Basalt__SignalJobRequest *req);

/* ---- provider -------------------------------------------------------------- */

/* The consumer's run this job record stands for; NULL: a local job. */
const Basalt__RemoteOrigin *mc_jobs_origin(const Job *j);
/* The slots cluster's relayed runs hold now on each host, from this
 * side's own (journaled) records of them: host name -> GINT_TO_POINTER
 * (slots); a new table, g_hash_table_unref() it. */
GHashTable *mc_jobs_relayed_slots(Manager *m, const char *cluster);
/* An event was committed: a relayed job's change goes back to its
 * consumer (manager_commit calls this). */
void mc_jobs_note(Manager *m, const Basalt__Event *ev);

/* mbd-hosts.c: what a host says of one job, applied (reports and
 * registrations); the consumer applies RemoteStatus through it. */
void hosts_apply_host_job(Manager *m, const char *host,
    const Basalt__HostJob *hj, const char *reason);

#endif
