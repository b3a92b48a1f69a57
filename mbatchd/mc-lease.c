/*
 * MultiCluster leases on live links (issue 19 items 2-5): the daemon side
 * of the pure lease stage (sched/stage-lease.c).
 *
 * Provider: for every HostExport whose DISTRIBUTION names a cluster, the
 * lease is made (EvLeaseNew) when the link to that cluster first comes
 * up.  The stage runs when its next evaluation is due (a GLib timer at
 * the stage's wake time, MC_RECLAIM_DELAY apart), when the consumer's
 * Demand or acknowledgement arrives, and when a link changes; its inputs
 * are this cluster's running slots on the exported hosts and pending
 * jobs that could use them, and the consumer's figures from its last
 * Demand since the link came up (none yet: the stage waits for them).
 * The consumer's running slots are at least those of the runs this side
 * relays for it (its own journaled records), whatever the Demand says.
 * Every outcome is journaled (state_lease_outcome_events) and the lease
 * is sent to the consumer (ClusterService.Lease) whenever it changed, at
 * every evaluation and when the link comes (back) up.
 *
 * Consumer (mc-lease-consumer.c): a LeaseState is believed only from
 * the link of the lease's provider (mc-links.c checks the sender and the
 * names), only for a provider this cluster imports from (lsb.queues
 * HOSTS = allremote, all@cluster, host@cluster), and only within its bounds
 * (lease_from_wire); it is journaled when it differs from what is held
 * (the provider's state wins; the same state twice journals nothing), and
 * the leased hosts are rebuilt (mc-leased.c).  The consumer sends Demand
 * (its running slots per host of the lease, its pending slots that could
 * use it, the generation it holds) when those change, checked every
 * second, and at least every MC_RECLAIM_DELAY / 2.
 *
 * Faults: a link that goes down marks its leases disconnected on both
 * sides (journaled); the provider's stage turns them back when the link
 * has returned and the consumer has reported over it, and resends.
 * Restarts restore the leases from the journal.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd.h"
#include "mbatchd/mbd-snapshot.h"
#include "mbatchd/sched/pass.h"
#include "resreq/resreq.h"
#include "mbatchd/mc-lease.h"
#include "mbatchd/mc-lease-int.h"
#include "mbatchd/mc-jobs.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/mc-links.h"
#include "mbatchd/state/lease-wire.h"
#include "mbatchd/state/state.h"
#include "util/log.h"

/* The consumer's figures for one lease, from its last Demand.  Kept in
 * memory only, and dropped when the link to the consumer goes down: a
 * lease is decided on figures sent over the link that is up now. */
typedef struct {
	int *used;                /* per lease host */
	guint n;
	int pending;
	guint64 generation;       /* the consumer holds this one */
	gboolean reported;        /* a Demand arrived (not only a LeaseState answer) */
} Demand;


static void
demand_free(gpointer p)
{
	Demand *d = p;

	g_free(d->used);
	g_free(d);
}

const char *
mcl_local(Manager *m)
{
	return m->cfg->cluster->name;
}

char *
mcl_key_of(const char *policy, const char *provider, const char *consumer)
{
	return g_strconcat(policy, "\n", provider, "\n", consumer, NULL);
}

gboolean
mcl_linked(Manager *m, const char *cluster)
{
	const McLink *l = mc_link_find(m, cluster);

	return l != NULL && l->status == MC_LINK_OK;
}

gboolean
mcl_commit_events(Manager *m, GPtrArray *events, const char *what)
{
	gboolean ok = TRUE;

	for (guint i = 0; i < events->len; i++) {
		g_autoptr(GError) err = NULL;

		if (!manager_commit(m, events->pdata[i], &err)) {
			log_warning("lease %s: not journaled: %s", what,
			    err != NULL ? err->message : "refused");
			ok = FALSE;
			break;
		}
	}
	mc_leased_refresh(m);
	return ok;
}

/* ---- slots in use ------------------------------------------------------- */

/* Slots of this cluster's own started jobs on `host` (exec_hosts holds
 * one entry per slot).  A run relayed from a consumer is left out: its
 * slot is the consumer's, counted once, from the consumer's Demand. */
int
mcl_slots_on(Manager *m, const char *host)
{
	GHashTable *set = g_hash_table_lookup(m->st->by_host, host);
	GHashTableIter it;
	gpointer k;
	int n = 0;

	if (set == NULL)
		return 0;
	g_hash_table_iter_init(&it, set);
	while (g_hash_table_iter_next(&it, &k, NULL)) {
		const Job *j = k;

		if (!job_is_started(j) || j->exec_hosts == NULL ||
		    mc_jobs_origin(j) != NULL)
			continue;
		for (guint i = 0; j->exec_hosts[i] != NULL; i++)
			n += strcmp(j->exec_hosts[i], host) == 0;
	}
	return n;
}

/* What a local host can run at all: lsb.hosts MXJ, else its CPUs. */
static int
capacity(Manager *m, const char *host)
{
	const BsHostConf *hc = bs_config_host(m->cfg, host);
	const HostLink *l = manager_link(m, host);
	int ncpus = l != NULL && l->ncpus > 0 ? (int)l->ncpus : 1;

	if (hc == NULL || hc->mxj == BS_CONF_MXJ_NCPUS)
		return ncpus;
	return hc->mxj < 0 ? G_MAXINT / 2 : hc->mxj;
}

/* ---- provider: making leases --------------------------------------------- */

static int
host_slots(Manager *m, const char *host)
{
	int c = capacity(m, host);

	return c >= G_MAXINT / 2 ? 1 : MAX(c, 1);
}

/* Whether a local host matches a selection now, as the scheduler reads it. */
static gboolean
selected(Manager *m, const BsResReq *rr, const char *host)
{
	const HostLink *hl = manager_link(m, host);
	SchedHost h = { .name = host, .ncpus = hl != NULL && hl->ncpus > 0 ? (int)hl->ncpus : 1 };

	snapshot_host_resources(m, &h);
	return sched_resreq_host_ok(rr, &h);
}

/* Each local host a lease of this cluster lends now -> the policy of that
 * lease. */
static GHashTable *
lent_hosts(Manager *m)
{
	GHashTable *lent = g_hash_table_new(g_str_hash, g_str_equal);
	const GPtrArray *all = state_leases(m->st);

	for (guint i = 0; all != NULL && i < all->len; i++) {
		const Lease *l = all->pdata[i];

		if (strcmp(l->provider, mcl_local(m)) != 0)
			continue;
		for (guint h = 0; h < l->hosts->len; h++)
			g_hash_table_insert(lent, ((const LeaseHost *)l->hosts->pdata[h])->name,
			    l->policy);
	}
	return lent;
}

/* The hosts RES_SELECT export ex chooses now: the first NHOSTS server
 * hosts of lsf.cluster, in its order, that the selection matches (as
 * bsub -R select[] reads a host: its type, model, resources and last
 * load), that are not in taken, and that no lease of another export
 * lends now. */
static void
choose_hosts(Manager *m, const BsHostExport *ex, GHashTable *taken, GHashTable *lent,
    GPtrArray *names, GArray *slots)
{
	g_autofree char *text = g_strdup_printf("select[%s]", ex->res_select);
	g_autoptr(GError) err = NULL;
	g_autoptr(BsResReq) rr = bs_resreq_parse(text, &err);

	if (rr == NULL) {
		log_warning("HostExport %s: RES_SELECT cannot be read: %s", ex->name,
		    err->message);
		return;
	}
	for (guint i = 0; i < m->cfg->cluster->hosts->len &&
	    (int)names->len < ex->nhosts; i++) {
		const BsClusterHost *ch = m->cfg->cluster->hosts->pdata[i];
		const char *holder = g_hash_table_lookup(lent, ch->name);
		int s;

		if (!ch->server || g_hash_table_contains(taken, ch->name) ||
		    (holder != NULL && strcmp(holder, ex->name) != 0) ||
		    !selected(m, rr, ch->name))
			continue;
		s = host_slots(m, ch->name);
		g_ptr_array_add(names, ch->name);
		g_array_append_val(slots, s);
	}
}

/* RES_SELECT exports whole hosts, and a host is lent by one export only:
 * a RES_SELECT export skips the hosts PER_HOST sections name, the hosts
 * the leases of other exports lend now (a lease is not taken from under
 * its jobs), and the hosts the RES_SELECT sections before it in the file
 * choose (the first section wins, whichever consumer links first). */
static void
select_hosts(Manager *m, const BsHostExport *ex, GPtrArray *names, GArray *slots)
{
	const GPtrArray *exports = m->cfg->resources->exports;
	g_autoptr(GHashTable) taken = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) lent = lent_hosts(m);

	for (guint k = 0; k < exports->len; k++) {
		const BsHostExport *o = exports->pdata[k];

		for (guint h = 0; o->per_host != NULL && o->per_host[h] != NULL; h++)
			g_hash_table_add(taken, o->per_host[h]);
	}
	for (guint k = 0; k < exports->len && exports->pdata[k] != ex; k++) {
		const BsHostExport *o = exports->pdata[k];
		g_autoptr(GPtrArray) theirs = NULL;
		g_autoptr(GArray) their_slots = NULL;

		/* A section with no consumer lends nothing. */
		if (o->kind != BS_EXPORT_RES_SELECT || o->distribution == NULL ||
		    o->distribution->len == 0)
			continue;
		theirs = g_ptr_array_new();
		their_slots = g_array_new(FALSE, FALSE, sizeof(int));
		choose_hosts(m, o, taken, lent, theirs, their_slots);
		for (guint h = 0; h < theirs->len; h++)
			g_hash_table_add(taken, theirs->pdata[h]);
	}
	choose_hosts(m, ex, taken, lent, names, slots);
}

/* What export ex gives its me-th DISTRIBUTION cluster now: hosts and
 * slots (the names borrowed from the configuration). */
static void
intended(Manager *m, const BsHostExport *ex, guint me, GPtrArray *mine, GArray *my_slots)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_autoptr(GArray) slots = g_array_new(FALSE, FALSE, sizeof(int));
	g_autofree int *shares = g_new0(int, MAX(ex->distribution->len, 1));
	g_autofree int *parts = NULL;

	for (guint i = 0; i < ex->distribution->len; i++)
		shares[i] = MAX(((const BsShare *)ex->distribution->pdata[i])->shares, 1);
	if (ex->kind == BS_EXPORT_PER_HOST) {
		for (guint i = 0; ex->per_host != NULL && ex->per_host[i] != NULL; i++) {
			int s = ex->slots > 0 ? ex->slots : host_slots(m, ex->per_host[i]);

			g_ptr_array_add(names, ex->per_host[i]);
			g_array_append_val(slots, s);
		}
	} else {
		select_hosts(m, ex, names, slots);
	}
	if (names->len == 0)
		return;
	parts = g_new0(int, ex->distribution->len * names->len);
	lease_divide(shares, ex->distribution->len, (const int *)(void *)slots->data,
	    names->len, ex->kind == BS_EXPORT_RES_SELECT, parts);
	for (guint h = 0; h < names->len; h++)
		if (parts[me * names->len + h] > 0) {
			g_ptr_array_add(mine, names->pdata[h]);
			g_array_append_val(my_slots, parts[me * names->len + h]);
		}
}

/* A new lease of export ex to its me-th cluster; generation > 0 carries
 * on from the lease it replaces (a reconfiguration changed its hosts). */
static void
make_lease(Manager *m, const BsHostExport *ex, guint me, guint64 generation)
{
	g_autoptr(GPtrArray) mine = g_ptr_array_new();
	g_autoptr(GArray) my_slots = g_array_new(FALSE, FALSE, sizeof(int));
	g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) blocks = g_ptr_array_new_with_free_func(g_free);
	const char *consumer = ((const BsShare *)ex->distribution->pdata[me])->name;
	g_autoptr(Lease) l = NULL;

	intended(m, ex, me, mine, my_slots);
	if (mine->len == 0)
		return;
	l = lease_new(ex->name, mcl_local(m), consumer, ex->shared,
	    (const char *const *)mine->pdata, (const int *)(void *)my_slots->data, mine->len);
	if (generation > 0)
		l->generation = generation;
	state_lease_new_event(l, manager_now(), events, blocks);
	if (mcl_commit_events(m, events, ex->name))
		log_info("lease %s to cluster %s made: %d slots on %u hosts, %s", ex->name,
		    consumer, lease_consumer_slots(l) + lease_provider_slots(l), mine->len,
		    ex->shared ? "shared" : "exclusive");
}

/* The leases of this cluster's exports to `consumer` that do not exist
 * yet (the link to it came up for the first time, or a reconfig). */
static void
ensure_leases(Manager *m, const char *consumer)
{
	const BsResourcesConf *rc = m->cfg->resources;

	for (guint i = 0; rc != NULL && i < rc->exports->len; i++) {
		const BsHostExport *ex = rc->exports->pdata[i];

		for (guint k = 0; ex->distribution != NULL && k < ex->distribution->len; k++) {
			const BsShare *sh = ex->distribution->pdata[k];

			if (strcmp(sh->name, consumer) != 0 ||
			    state_lease_of(m->st, ex->name, mcl_local(m), consumer) != NULL)
				continue;
			make_lease(m, ex, k, 0);
		}
	}
}

/* ---- provider: sending ---------------------------------------------------- */

static void
lease_replied(BsRpcConn *conn, Basalt__RpcStatus status, const ProtobufCMessage *reply,
    const GError *error, void *data);

typedef struct {
	Manager *m;
	char *key;
	guint64 generation;       /* what was sent */
} Sent;

static void
add_facts(Manager *m, const Lease *l, Basalt__LeaseState *w, GPtrArray *blocks)
{
	w->facts = g_new0(Basalt__LeasedHostFacts *, MAX(l->hosts->len, 1));
	g_ptr_array_add(blocks, w->facts);
	for (guint i = 0; i < l->hosts->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];
		const BsClusterHost *ch = bs_config_cluster_host(m->cfg, h->name);
		const HostLink *hl = manager_link(m, h->name);
		Basalt__LeasedHostFacts *f = g_new(Basalt__LeasedHostFacts, 1);

		basalt__leased_host_facts__init(f);
		g_ptr_array_add(blocks, f);
		f->host_name = h->name;
		f->ncpus = hl != NULL && hl->ncpus > 0 ? (int)hl->ncpus : h->slots;
		f->type = ch != NULL && ch->type != NULL ? ch->type : (char *)"";
		f->model = ch != NULL && ch->model != NULL ? ch->model : (char *)"";
		f->maxmem = hl != NULL ? (double)hl->mem_kb / 1024.0 : 0;
		f->resources = ch != NULL ? ch->resources : NULL;
		f->n_resources = ch != NULL && ch->resources != NULL ?
		    MIN(g_strv_length(ch->resources), MAX_FACT_RESOURCES) : 0;
		w->facts[w->n_facts++] = f;
	}
}

static void
send_lease_ended(Manager *m, const Lease *l, gboolean ended)
{
	McLease *ml = m->lease;
	g_autoptr(GPtrArray) blocks = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) err = NULL;
	Basalt__LeaseState *w = lease_to_wire(l, blocks);
	Sent *s = g_new0(Sent, 1);

	add_facts(m, l, w, blocks);
	w->ended = ended;
	s->m = m;
	s->key = mcl_key_of(l->policy, l->provider, l->consumer);
	s->generation = l->generation;
	if (!mc_link_call(m, l->consumer, ml->lease_method, &w->base, CALL_TIMEOUT_MS,
	    lease_replied, s, &err)) {
		log_debug("lease %s to %s: not sent: %s", l->policy, l->consumer, err->message);
		g_free(s->key);
		g_free(s);
	}
}

static void
send_lease(Manager *m, const Lease *l)
{
	send_lease_ended(m, l, FALSE);
}

/* ---- provider: the stage -------------------------------------------------- */

static void provider_run(Manager *m);

static gboolean
run_soon_cb(gpointer data)
{
	Manager *m = data;

	m->lease->soon = 0;
	provider_run(m);
	return G_SOURCE_REMOVE;
}

static void
run_soon(Manager *m)
{
	if (m->lease != NULL && m->lease->soon == 0)
		m->lease->soon = g_idle_add(run_soon_cb, m);
}

static void
lease_replied(BsRpcConn *conn, Basalt__RpcStatus status, const ProtobufCMessage *reply,
    const GError *error, void *data)
{
	Sent *s = data;
	const Basalt__LeaseStateReply *r = (const Basalt__LeaseStateReply *)reply;
	Manager *m = s->m;

	(void)conn;
	if (m->lease == NULL) {
		/* shutting down */
	} else if (status != BASALT__RPC_STATUS__RPC_STATUS_OK || r == NULL) {
		log_debug("lease %s: no answer: %s", s->key,
		    error != NULL ? error->message : "no reply");
	} else if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		log_warning("lease refused by the consumer: %.200s",
		    r->error->message != NULL ? r->error->message : "");
	} else {
		Demand *d = g_hash_table_lookup(m->lease->demand, s->key);

		if (d == NULL) {
			d = g_new0(Demand, 1);
			g_hash_table_insert(m->lease->demand, g_strdup(s->key), d);
		}
		/* The consumer cannot have applied more than was sent. */
		if (r->generation > d->generation) {
			d->generation = MIN(r->generation, s->generation);
			run_soon(m);
		}
	}
	g_free(s->key);
	g_free(s);
}

/* Pending jobs of this cluster in queues that may use one of the hosts. */
static gboolean
provider_pending(Manager *m, const Lease *l)
{
	for (guint q = 0; q < m->cfg->queues->len; q++) {
		const BsQueueConf *qc = m->cfg->queues->pdata[q];
		QueueRt *rt = state_queue(m->st, qc->name);
		g_auto(GStrv) hosts = NULL;

		if (rt == NULL || rt->pending.length == 0)
			continue;
		hosts = bs_config_queue_hosts(m->cfg, qc);
		for (guint h = 0; hosts != NULL && h < l->hosts->len; h++)
			if (g_strv_contains((const char *const *)hosts,
			    ((const LeaseHost *)l->hosts->pdata[h])->name))
				return TRUE;
	}
	return FALSE;
}

/* relayed: mc_jobs_relayed_slots() of the lease's consumer. */
static void
fill_use(Manager *m, const Lease *l, const Demand *d, GHashTable *relayed, LeaseHostUse *use)
{
	for (guint h = 0; h < l->hosts->len; h++) {
		const LeaseHost *lh = l->hosts->pdata[h];
		int cap = capacity(m, lh->name);
		/* This cluster's jobs fill the slots it did not export first. */
		int mine = mcl_slots_on(m, lh->name) - MAX(cap - lh->slots, 0);
		/* The consumer's runs this side relays are on its slots
		 * whether or not its report (late, or a start not seen here
		 * yet) says so. */
		int theirs = MAX(d != NULL && h < d->n ? d->used[h] : 0,
		    GPOINTER_TO_INT(g_hash_table_lookup(relayed, lh->name)));

		use[h].consumer_used = CLAMP(theirs, 0, lh->slots);
		use[h].provider_used = CLAMP(mine, 0, lh->slots - use[h].consumer_used);
	}
}

static gboolean
stage_timer_cb(gpointer data)
{
	Manager *m = data;

	m->lease->stage_timer = 0;
	provider_run(m);
	return G_SOURCE_REMOVE;
}

static void
arm_timer(Manager *m, gint64 wake)
{
	McLease *ml = m->lease;
	gint64 now = manager_now();
	guint secs;

	if (ml->stage_timer != 0 && ml->stage_at == wake)
		return;
	if (ml->stage_timer != 0)
		g_source_remove(ml->stage_timer);
	ml->stage_timer = 0;
	if (wake == G_MAXINT64)
		return;
	secs = (guint)CLAMP(wake - now, 0, 86400);
	ml->stage_at = wake;
	ml->stage_timer = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT,
	    secs > 0 ? secs : 1, stage_timer_cb, m, NULL);
	if (secs == 0) {
		g_source_remove(ml->stage_timer);
		ml->stage_timer = g_timeout_add_full(G_PRIORITY_DEFAULT, 200,
		    stage_timer_cb, m, NULL);
	}
}

static void
provider_run(Manager *m)
{
	McLease *ml = m->lease;
	const GPtrArray *all = state_leases(m->st);
	g_autoptr(GPtrArray) mine = g_ptr_array_new();
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) uses = g_ptr_array_new_with_free_func(g_free);
	/* consumer -> mc_jobs_relayed_slots(), once per consumer */
	g_autoptr(GHashTable) relayed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    (GDestroyNotify)g_hash_table_unref);
	g_autofree LeaseInput *in = NULL;
	LeaseStageIn si = { 0 };
	LeaseStageOut so = { 0 };
	g_autoptr(GError) err = NULL;
	gint64 now = manager_now();
	gboolean journaled = FALSE;

	if (ml == NULL)
		return;
	for (guint i = 0; all != NULL && i < all->len; i++) {
		const Lease *l = all->pdata[i];

		if (strcmp(l->provider, mcl_local(m)) == 0 && strcmp(l->consumer, mcl_local(m)) != 0)
			g_ptr_array_add(mine, (gpointer)l);
	}
	if (mine->len == 0) {
		arm_timer(m, G_MAXINT64);
		return;
	}
	in = g_new0(LeaseInput, mine->len);
	for (guint i = 0; i < mine->len; i++) {
		const Lease *l = mine->pdata[i];
		char *k = mcl_key_of(l->policy, l->provider, l->consumer);
		const Demand *d = g_hash_table_lookup(ml->demand, k);
		LeaseHostUse *use = g_new0(LeaseHostUse, MAX(l->hosts->len, 1));
		GHashTable *r = g_hash_table_lookup(relayed, l->consumer);

		if (r == NULL) {
			r = mc_jobs_relayed_slots(m, l->consumer);
			g_hash_table_insert(relayed, g_strdup(l->consumer), r);
		}
		g_ptr_array_add(keys, k);
		g_ptr_array_add(uses, use);
		fill_use(m, l, d, r, use);
		in[i].lease = l;
		in[i].use = use;
		in[i].provider_pending = provider_pending(m, l);
		in[i].consumer_pending = d != NULL && d->pending > 0;
		in[i].linked = mcl_linked(m, l->consumer);
		in[i].acked_generation = d != NULL ? d->generation : 0;
		in[i].unreported = d == NULL || !d->reported;
	}
	si.now = now;
	si.reclaim_delay = MAX(m->cfg->params->mc_reclaim_delay, 1);
	si.leases = in;
	si.nleases = mine->len;
	if (!lease_stage_run(&si, &so, &err)) {
		log_warning("lease stage: %s", err->message);
		return;
	}
	for (guint i = 0; i < so.n; i++) {
		const LeaseOutcome *o = &so.out[i];
		g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GPtrArray) blocks = g_ptr_array_new_with_free_func(g_free);
		gboolean changed = o->split_changed || o->status_changed || o->made_now;
		const Lease *now_l;

		state_lease_outcome_events(o, now, events, blocks);
		if (events->len > 0) {
			mcl_commit_events(m, events, o->lease->policy);
			journaled = TRUE;
			if (changed)
				log_info("lease %s to %s: %s (generation %" G_GUINT64_FORMAT
				    ", %d slots the consumer's, %s)", o->lease->policy,
				    o->lease->consumer, o->why, o->lease->generation,
				    lease_consumer_slots(o->lease),
				    lease_status_name(o->lease->status));
		}
		now_l = state_lease_of(m->st, o->lease->policy, o->lease->provider,
		    o->lease->consumer);
		if (now_l != NULL && (changed || o->evaluated ||
		    g_hash_table_contains(ml->resend, now_l->consumer)))
			send_lease(m, now_l);
	}
	g_hash_table_remove_all(ml->resend);
	arm_timer(m, so.wake);
	lease_stage_out_clear(&so);
	/* The slots lent changed: the local hosts' room did. */
	if (journaled)
		manager_schedule_soon(m);
}

/* ---- provider: the consumer's Demand -------------------------------------- */

static void
on_demand(Manager *m, const char *cluster, const ProtobufCMessage *msg,
    ProtobufCClosure closure, void *call, void *data)
{
	const Basalt__LeaseDemand *req = (const Basalt__LeaseDemand *)msg;
	Basalt__LeaseDemandReply r = BASALT__LEASE_DEMAND_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	const char *provider = req->provider != NULL && *req->provider != '\0' ?
	    req->provider : mcl_local(m);
	const Lease *l = state_lease_of(m->st, req->policy, mcl_local(m), cluster);
	g_autofree char *why = NULL;

	(void)data;
	/* mc-links.c saw to it that req->consumer is the link's cluster. */
	if (strcmp(provider, mcl_local(m)) != 0 || l == NULL)
		why = g_strdup_printf("cluster %s lends no lease %s to %s", mcl_local(m),
		    req->policy, cluster);
	else if (req->n_hosts != 0 && req->n_hosts != l->hosts->len)
		why = g_strdup_printf("lease %s has %u hosts, the demand %zu", req->policy,
		    l->hosts->len, req->n_hosts);
	for (size_t i = 0; why == NULL && i < req->n_hosts; i++)
		if (req->hosts[i] == NULL || req->hosts[i]->used > 1000000 ||
		    g_strcmp0(req->hosts[i]->host_name,
		    ((const LeaseHost *)l->hosts->pdata[i])->name) != 0)
			why = g_strdup_printf("lease %s: demand entry %zu is not its host",
			    req->policy, i);
	if (why != NULL) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
		e.message = why;
		r.error = &e;
	} else {
		g_autofree char *k = mcl_key_of(l->policy, l->provider, l->consumer);
		Demand *d = g_new0(Demand, 1);
		const Demand *old = g_hash_table_lookup(m->lease->demand, k);
		gboolean differs = old == NULL || !old->reported ||
		    old->pending != (int)MIN(req->pending_slots, 1000000u) ||
		    old->n != req->n_hosts;

		d->n = (guint)req->n_hosts;
		d->used = g_new0(int, MAX(d->n, 1));
		for (guint i = 0; i < d->n; i++) {
			d->used[i] = (int)req->hosts[i]->used;
			differs |= old != NULL && i < old->n && old->used[i] != d->used[i];
		}
		d->pending = (int)MIN(req->pending_slots, 1000000u);
		d->reported = TRUE;
		/* A generation the consumer does not have yet is not acked,
		 * and a report older than its last answer takes none back. */
		d->generation = MIN(MAX(req->generation, old != NULL ? old->generation : 0),
		    l->generation);
		differs |= old == NULL || old->generation != d->generation;
		g_hash_table_replace(m->lease->demand, g_steal_pointer(&k), d);
		if (differs)
			run_soon(m);
	}
	closure(&r.base, call);
}

/* ---- links ------------------------------------------------------------------ */

static gboolean
demand_is_of(gpointer key, gpointer value, gpointer consumer)
{
	const char *c = strrchr(key, '\n');

	(void)value;
	return c != NULL && strcmp(c + 1, consumer) == 0;
}

static void
link_changed(Manager *m, const McLink *l, void *data)
{
	(void)data;
	if (l->status == MC_LINK_OK) {
		ensure_leases(m, l->cluster);
		g_hash_table_add(m->lease->resend, g_strdup(l->cluster));
		mc_lease_consumer_demand(m, TRUE);
	} else {
		mc_lease_consumer_lost(m, l->cluster);
		/* Provider: that consumer's figures are of the old link. */
		g_hash_table_foreach_remove(m->lease->demand, demand_is_of,
		    (gpointer)l->cluster);
	}
	mc_leased_refresh(m);
	run_soon(m);
	manager_schedule_soon(m);
}

static gboolean
same_hosts(const Lease *l, const GPtrArray *names, const GArray *slots)
{
	if (l->hosts->len != names->len)
		return FALSE;
	for (guint i = 0; i < names->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];

		if (strcmp(h->name, names->pdata[i]) != 0 ||
		    h->slots != g_array_index(slots, int, i))
			return FALSE;
	}
	return TRUE;
}

/* Where cluster is in export ex's DISTRIBUTION; -1: not there (or no ex). */
static int
consumer_index(const BsHostExport *ex, const char *cluster)
{
	for (guint k = 0; ex != NULL && ex->distribution != NULL && k < ex->distribution->len; k++)
		if (strcmp(((const BsShare *)ex->distribution->pdata[k])->name, cluster) == 0)
			return (int)k;
	return -1;
}

void
mc_lease_reconfigured(Manager *m)
{
	const GPtrArray *all = state_leases(m->st);
	g_autoptr(GPtrArray) mine = g_ptr_array_new_with_free_func((GDestroyNotify)lease_free);

	if (m->lease == NULL)
		return;
	/* Copies: ending and replacing change the state's table. */
	for (guint i = 0; all != NULL && i < all->len; i++) {
		const Lease *l = all->pdata[i];

		if (strcmp(l->provider, mcl_local(m)) == 0 && strcmp(l->consumer, mcl_local(m)) != 0)
			g_ptr_array_add(mine, lease_copy(l));
	}
	/* First the leases whose section or DISTRIBUTION entry is gone: their
	 * hosts are free for the others' selections below. */
	for (guint i = 0; i < mine->len;) {
		const Lease *l = mine->pdata[i];

		if (consumer_index(bs_config_host_export(m->cfg, l->policy), l->consumer) >= 0) {
			i++;
			continue;
		}
		mcl_end_lease(m, l);
		send_lease_ended(m, l, TRUE);
		g_ptr_array_remove_index(mine, i);
	}
	for (guint i = 0; i < mine->len; i++) {
		const Lease *l = mine->pdata[i];
		const BsHostExport *ex = bs_config_host_export(m->cfg, l->policy);
		g_autoptr(GPtrArray) names = g_ptr_array_new();
		g_autoptr(GArray) slots = g_array_new(FALSE, FALSE, sizeof(int));
		int me = consumer_index(ex, l->consumer);

		intended(m, ex, (guint)me, names, slots);
		if (names->len > 0 && ex->shared == l->shared && same_hosts(l, names, slots))
			continue;
		if (names->len == 0) {
			mcl_end_lease(m, l);
			send_lease_ended(m, l, TRUE);
			continue;
		}
		/* Its hosts or type changed: a new start, the generation
		 * carrying on so the consumer takes it as newer. */
		make_lease(m, ex, (guint)me, l->generation + 1);
		g_hash_table_add(m->lease->resend, g_strdup(l->consumer));
	}
	for (guint i = 0; i < mc_links_count(m); i++) {
		const McLink *k = mc_link_nth(m, i);

		if (k->status == MC_LINK_OK)
			ensure_leases(m, k->cluster);
		g_hash_table_add(m->lease->resend, g_strdup(k->cluster));
	}
	mc_leased_refresh(m);
	run_soon(m);
}

static guint
method_of(const char *name)
{
	const ProtobufCMethodDescriptor *d = protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__cluster_service__descriptor, name);

	return (guint)(d - basalt__cluster_service__descriptor.methods);
}

void
mc_lease_init(Manager *m)
{
	McLease *ml = g_new0(McLease, 1);

	ml->m = m;
	ml->demand = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, demand_free);
	ml->resend = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	ml->sent = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	ml->sent_at = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	ml->lease_method = method_of("Lease");
	ml->demand_method = method_of("Demand");
	m->lease = ml;
	mc_links_on_change(m, link_changed, NULL);
	mc_links_on_method(m, ml->lease_method, mc_lease_on_lease, NULL);
	mc_links_on_method(m, ml->demand_method, on_demand, NULL);
}

void
mc_lease_start(Manager *m)
{
	if (m->lease == NULL || mc_links_count(m) == 0)
		return;
	m->lease->demand_timer = g_timeout_add_seconds(1, mc_lease_demand_tick, m);
	/* Leases this cluster borrows, restored from the journal: no link
	 * yet, so disconnected until their provider speaks again. */
	for (guint i = 0; i < mc_links_count(m); i++) {
		const McLink *l = mc_link_nth(m, i);

		if (l->status != MC_LINK_OK)
			mc_lease_consumer_lost(m, l->cluster);
	}
	/* Leases restored from the journal: the link is not up yet, so the
	 * stage marks them disconnected until it is. */
	run_soon(m);
}

void
mc_lease_free(Manager *m)
{
	McLease *ml = m->lease;

	if (ml == NULL)
		return;
	if (ml->stage_timer != 0)
		g_source_remove(ml->stage_timer);
	if (ml->soon != 0)
		g_source_remove(ml->soon);
	if (ml->demand_timer != 0)
		g_source_remove(ml->demand_timer);
	g_hash_table_destroy(ml->demand);
	g_hash_table_destroy(ml->resend);
	g_hash_table_destroy(ml->sent);
	g_hash_table_destroy(ml->sent_at);
	g_free(ml);
	m->lease = NULL;
}
