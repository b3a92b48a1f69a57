/*
 * MultiCluster leases, the consumer side (see mc-lease.c for both sides):
 * a LeaseState is believed only from the link of the lease's provider,
 * only for a provider this cluster imports from, and only within its
 * bounds; it is journaled when it differs from what is held, and the
 * leased hosts are rebuilt.  Demand (running slots per leased host,
 * pending slots that could use the lease, the generation held) goes
 * back when it changes, checked every second, and at least every
 * MC_RECLAIM_DELAY / 2.  A lost link marks the leases disconnected.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_queue_values.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mc-lease-int.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/mc-links.h"
#include "mbatchd/state/lease-wire.h"
#include "mbatchd/state/state.h"
#include "util/log.h"

/* ---- consumer: the provider's LeaseState ---------------------------------- */

static gboolean
imports_from(Manager *m, const char *provider)
{
	const BsResourcesConf *rc = m->cfg->resources;

	for (guint i = 0; rc != NULL && i < rc->imports->len; i++) {
		const BsHostImport *im = rc->imports->pdata[i];

		if (im->cluster == NULL || strcmp(im->cluster, provider) == 0)
			return TRUE;
	}
	return FALSE;
}

static gboolean
same_lease(const Lease *a, const Lease *b)
{
	if (a->generation != b->generation || a->status != b->status ||
	    a->made != b->made || a->shared != b->shared || a->last_eval != b->last_eval ||
	    a->next_eval != b->next_eval || a->hosts->len != b->hosts->len ||
	    a->last_idle_provider != b->last_idle_provider ||
	    a->last_idle_consumer != b->last_idle_consumer)
		return FALSE;
	for (guint i = 0; i < a->hosts->len; i++) {
		const LeaseHost *x = a->hosts->pdata[i], *y = b->hosts->pdata[i];

		if (strcmp(x->name, y->name) != 0 || x->slots != y->slots ||
		    x->consumer_slots != y->consumer_slots)
			return FALSE;
	}
	return TRUE;
}

/* A host type, model or resource name from the provider: the characters of
 * a host name (an empty type or model means "not known"). */
static gboolean
fact_name_ok(const char *s)
{
	if (s == NULL || strlen(s) > MAX_FACT_NAME)
		return FALSE;
	return s[0] == '\0' || bs_conf_valid_name(s, TRUE);
}

static void
take_facts(Manager *m, const Lease *l, const Basalt__LeaseState *w)
{
	for (size_t i = 0; i < w->n_facts && i < l->hosts->len; i++) {
		const Basalt__LeasedHostFacts *f = w->facts[i];
		g_autoptr(GPtrArray) res = g_ptr_array_new();
		g_autofree char *name = NULL;
		gboolean ours = FALSE;

		if (f == NULL)
			continue;
		for (guint h = 0; h < l->hosts->len && !ours; h++)
			ours = g_strcmp0(f->host_name,
			    ((const LeaseHost *)l->hosts->pdata[h])->name) == 0;
		if (!ours || !fact_name_ok(f->type) || !fact_name_ok(f->model))
			continue;
		for (size_t r = 0; r < f->n_resources && r < MAX_FACT_RESOURCES; r++)
			if (fact_name_ok(f->resources[r]))
				g_ptr_array_add(res, f->resources[r]);
		g_ptr_array_add(res, NULL);
		name = g_strconcat(f->host_name, "@", l->provider, NULL);
		mc_leased_set_facts(m, name, CLAMP(f->ncpus, 0, 100000), f->type, f->model,
		    f->maxmem > 0 && f->maxmem < 1e12 ? f->maxmem : 0,
		    (const char *const *)res->pdata);
	}
}

/* The lease is over (its policy is gone): journaled, and gone from the
 * state and the leased hosts. */
void
mcl_end_lease(Manager *m, const Lease *l)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvLeaseStatus e = BASALT__EV_LEASE_STATUS__INIT;
	g_autoptr(GError) err = NULL;
	g_autofree char *policy = g_strdup(l->policy);
	g_autofree char *provider = g_strdup(l->provider);
	g_autofree char *consumer = g_strdup(l->consumer);

	e.policy = policy;
	e.provider = provider;
	e.consumer = consumer;
	e.status = (guint32)l->status;
	e.generation = l->generation;
	e.ended = TRUE;
	ev.time = manager_now();
	ev.body_case = BASALT__EVENT__BODY_LEASE_STATUS;
	ev.lease_status = &e;
	if (!manager_commit(m, &ev, &err))
		log_warning("lease %s: its end is not journaled: %s", policy,
		    err != NULL ? err->message : "refused");
	else
		log_info("lease %s of cluster %s to cluster %s ended", policy, provider, consumer);
	mc_leased_refresh(m);
}

static int
leases_from(Manager *m, const char *provider)
{
	const GPtrArray *all = state_leases(m->st);
	int n = 0;

	for (guint i = 0; all != NULL && i < all->len; i++)
		n += strcmp(((const Lease *)all->pdata[i])->provider, provider) == 0;
	return n;
}

void
mc_lease_on_lease(Manager *m, const char *cluster, const ProtobufCMessage *msg,
    ProtobufCClosure closure, void *call, void *data)
{
	const Basalt__LeaseState *w = (const Basalt__LeaseState *)msg;
	Basalt__LeaseStateReply r = BASALT__LEASE_STATE_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	g_autoptr(GError) err = NULL;
	g_autoptr(Lease) nl = NULL;
	g_autofree char *why = NULL;
	gboolean changed;
	const Lease *old;

	(void)data;
	/* mc-links.c checked: provider = the link's cluster, consumer =
	 * this cluster, names plain and bounded. */
	if (strcmp(cluster, mcl_local(m)) == 0 || !imports_from(m, cluster))
		why = g_strdup_printf("cluster %s imports no hosts from %s", mcl_local(m), cluster);
	else if ((nl = lease_from_wire(w, &err)) == NULL)
		why = g_strdup(err->message);
	else if (state_lease_of(m->st, nl->policy, nl->provider, nl->consumer) == NULL &&
	    leases_from(m, cluster) >= MAX_LEASES_PER_PROVIDER)
		why = g_strdup_printf("cluster %s already lends %d leases here", cluster,
		    MAX_LEASES_PER_PROVIDER);
	if (why != NULL) {
		log_warning("lease from cluster %s refused: %s", cluster, why);
		e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
		e.message = why;
		r.error = &e;
		closure(&r.base, call);
		return;
	}
	old = state_lease_of(m->st, nl->policy, nl->provider, nl->consumer);
	if (w->ended) {
		if (old != NULL)
			mcl_end_lease(m, old);
		closure(&r.base, call);
		manager_schedule_soon(m);
		return;
	}
	changed = old == NULL || !same_lease(old, nl);
	if (changed) {
		g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GPtrArray) blocks = g_ptr_array_new_with_free_func(g_free);

		state_lease_events(nl, manager_now(), events, blocks);
		if (mcl_commit_events(m, events, nl->policy))
			log_info("lease %s from cluster %s: generation %" G_GUINT64_FORMAT
			    ", %d slots ours, %s", nl->policy, cluster, nl->generation,
			    lease_consumer_slots(nl), lease_status_name(nl->status));
	}
	take_facts(m, nl, w);
	mc_leased_refresh(m);
	old = state_lease_of(m->st, nl->policy, nl->provider, nl->consumer);
	r.generation = old != NULL ? old->generation : 0;
	closure(&r.base, call);
	if (changed)
		manager_schedule_soon(m);
	mc_lease_consumer_demand(m, FALSE);
}

/* ---- consumer: Demand ----------------------------------------------------- */

/* The consumer's pending slots in queues that import from the lease's
 * provider (allremote, all@provider, or one of the lease's hosts). */
static int
consumer_pending(Manager *m, const Lease *l)
{
	const BsResourcesConf *rc = m->cfg->resources;
	int n = 0;

	for (guint q = 0; q < m->cfg->queues->len; q++) {
		const BsQueueConf *qc = m->cfg->queues->pdata[q];
		QueueRt *rt = state_queue(m->st, qc->name);
		gboolean uses = FALSE;

		if (rt == NULL || rt->pending.length == 0)
			continue;
		for (guint i = 0; rc != NULL && i < rc->imports->len && !uses; i++) {
			const BsHostImport *im = rc->imports->pdata[i];

			if (strcmp(im->queue, qc->name) != 0)
				continue;
			if (im->cluster == NULL)
				uses = TRUE;
			else if (strcmp(im->cluster, l->provider) == 0)
				for (guint h = 0; h < l->hosts->len && !uses; h++)
					uses = im->host == NULL || strcmp(im->host, "all") == 0 ||
					    strcmp(im->host,
					    ((const LeaseHost *)l->hosts->pdata[h])->name) == 0;
		}
		for (GList *j = uses ? rt->pending.head : NULL; j != NULL && n < 1000000;
		    j = j->next)
			n += MAX((int)job_spec(j->data)->min_slots, 1);
	}
	return n;
}

static void
demand_replied(BsRpcConn *conn, Basalt__RpcStatus status, const ProtobufCMessage *reply,
    const GError *error, void *data)
{
	const Basalt__LeaseDemandReply *r = (const Basalt__LeaseDemandReply *)reply;

	(void)conn;
	(void)data;
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK)
		log_debug("demand: no answer: %s", error != NULL ? error->message : "");
	else if (r != NULL && r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK)
		log_warning("demand refused: %.200s", r->error->message);
}

static void
send_demand(Manager *m, const Lease *l, gboolean force)
{
	McLease *ml = m->lease;
	g_autofree Basalt__LeasedHost *hs = g_new0(Basalt__LeasedHost, MAX(l->hosts->len, 1));
	g_autofree Basalt__LeasedHost **hp = g_new0(Basalt__LeasedHost *, MAX(l->hosts->len, 1));
	g_autofree char *k = mcl_key_of(l->policy, l->provider, l->consumer);
	g_autoptr(GString) text = g_string_new(NULL);
	g_autofree char **names = g_new0(char *, l->hosts->len + 1);
	Basalt__LeaseDemand d = BASALT__LEASE_DEMAND__INIT;
	g_autoptr(GError) err = NULL;
	gint64 now = g_get_monotonic_time() / G_USEC_PER_SEC;
	const char *last = g_hash_table_lookup(ml->sent, k);
	gint64 last_at = GPOINTER_TO_SIZE(g_hash_table_lookup(ml->sent_at, k));
	int idle = 0, every = CLAMP(m->cfg->params->mc_reclaim_delay / 2, 1, 60);
	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < l->hosts->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];
		char *qual = g_strconcat(h->name, "@", l->provider, NULL);
		int used = mcl_slots_on(m, qual);

		g_ptr_array_add(owned, qual);
		basalt__leased_host__init(&hs[i]);
		hs[i].host_name = h->name;
		hs[i].slots = (guint32)h->consumer_slots;
		hs[i].used = (guint32)MIN(used, h->slots);
		hp[i] = &hs[i];
		idle += MAX(h->consumer_slots - used, 0);
		g_string_append_printf(text, "%u,", hs[i].used);
	}
	d.policy = l->policy;
	d.consumer = l->consumer;
	d.provider = l->provider;
	d.idle_slots = (guint32)idle;
	d.pending_slots = (guint32)consumer_pending(m, l);
	d.hosts = hp;
	d.n_hosts = l->hosts->len;
	d.generation = l->generation;
	g_string_append_printf(text, "%u,%" G_GUINT64_FORMAT, d.pending_slots > 0, d.generation);
	if (!force && g_strcmp0(last, text->str) == 0 && now - last_at < every)
		return;
	if (!mcl_linked(m, l->provider))
		return;
	if (!mc_link_call(m, l->provider, ml->demand_method, &d.base, CALL_TIMEOUT_MS,
	    demand_replied, NULL, &err)) {
		log_debug("demand %s: not sent: %s", l->policy, err->message);
		return;
	}
	g_hash_table_replace(ml->sent, g_strdup(k), g_strdup(text->str));
	g_hash_table_replace(ml->sent_at, g_steal_pointer(&k), GSIZE_TO_POINTER((gsize)now));
}

void
mc_lease_consumer_demand(Manager *m, gboolean force)
{
	const GPtrArray *all = state_leases(m->st);

	for (guint i = 0; all != NULL && i < all->len; i++) {
		const Lease *l = all->pdata[i];

		if (strcmp(l->consumer, mcl_local(m)) == 0 && strcmp(l->provider, mcl_local(m)) != 0)
			send_demand(m, l, force);
	}
}

gboolean
mc_lease_demand_tick(gpointer data)
{
	mc_lease_consumer_demand(data, FALSE);
	return G_SOURCE_CONTINUE;
}

/* The consumer's leases from a provider it lost: disconnected. */
void
mc_lease_consumer_lost(Manager *m, const char *provider)
{
	const GPtrArray *all = state_leases(m->st);
	g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) blocks = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) copies = g_ptr_array_new_with_free_func((GDestroyNotify)lease_free);

	for (guint i = 0; all != NULL && i < all->len; i++) {
		const Lease *l = all->pdata[i];
		Lease *c;

		if (strcmp(l->consumer, mcl_local(m)) != 0 || strcmp(l->provider, provider) != 0 ||
		    l->status == LEASE_DISCONNECTED)
			continue;
		c = lease_copy(l);
		c->status = LEASE_DISCONNECTED;
		g_ptr_array_add(copies, c);
		state_lease_status_event(c, manager_now(), events, blocks);
	}
	if (events->len > 0) {
		mcl_commit_events(m, events, provider);
		log_info("leases from cluster %s: disconnected", provider);
	}
}

