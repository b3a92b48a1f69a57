/*
 * MultiCluster leases in mbatchd's state (issue 19): each lease's state
 * (mbatchd/sched/lease.h) is journaled as EvLeaseNew, EvLeaseSplit and
 * EvLeaseStatus and rebuilt from them by state_apply(), live and on
 * replay, so a restart of either cluster comes back with the split, the
 * status and the evaluation schedule it had.  A checkpoint carries each
 * lease as the same three events (state_export_leases()).
 *
 * The lease stage's outcomes become events here too
 * (state_lease_outcome_events()), so the daemon journals exactly what the
 * stage decided.
 *
 * What a hostile journal can hold is bounded: a split names the lease's
 * own hosts, slots never exceed a host's exported slots, a status is one
 * of LeaseStatus; anything else is refused with an error and changes
 * nothing.
 */
#include "config.h"

#include <string.h>

#include "../sched/lease.h"
#include "state.h"
#include "util/error.h"

static void
host_free(gpointer p)
{
	LeaseHost *h = p;

	g_free(h->name);
	g_free(h);
}

static void
lease_value_free(gpointer p)
{
	Lease *l = p;

	g_free(l->policy);
	g_free(l->provider);
	g_free(l->consumer);
	g_ptr_array_unref(l->hosts);
	g_free(l);
}

/* A consumer may hold leases of two providers whose policies share a
 * name: the provider is part of the key. */
static char *
lease_key(const char *policy, const char *provider, const char *consumer)
{
	return g_strconcat(policy, "\n", consumer, "\n", provider, NULL);
}

void
state_leases_init(State *st)
{
	st->leases = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, lease_value_free);
	st->lease_list = g_ptr_array_new();
}

void
state_leases_free(State *st)
{
	g_ptr_array_unref(st->lease_list);
	g_hash_table_destroy(st->leases);
}

/* The ordered list again, after a lease came or went (rare: a reconfig). */
static void
relist(State *st)
{
	g_autoptr(GList) keys = g_list_sort(g_hash_table_get_keys(st->leases),
	    (GCompareFunc)strcmp);

	g_ptr_array_set_size(st->lease_list, 0);
	for (GList *k = keys; k != NULL; k = k->next)
		g_ptr_array_add(st->lease_list, g_hash_table_lookup(st->leases, k->data));
}

const GPtrArray *
state_leases(const State *st)
{
	return st->lease_list;
}

/* The first lease of (policy, consumer) of any provider: journals from
 * before events named the provider had one lease of a name. */
static Lease *
any_provider(const State *st, const char *policy, const char *consumer)
{
	for (guint i = 0; i < st->lease_list->len; i++) {
		Lease *l = st->lease_list->pdata[i];

		if (strcmp(l->policy, policy) == 0 && strcmp(l->consumer, consumer) == 0)
			return l;
	}
	return NULL;
}

const Lease *
state_lease(const State *st, const char *policy, const char *consumer)
{
	return any_provider(st, policy, consumer);
}

const Lease *
state_lease_of(const State *st, const char *policy, const char *provider,
    const char *consumer)
{
	g_autofree char *k = lease_key(policy, provider, consumer);

	return g_hash_table_lookup(st->leases, k);
}

static gboolean
named(const char *s)
{
	return s != NULL && *s != '\0' && strchr(s, '\n') == NULL;
}

static Lease *
find(State *st, const char *policy, const char *provider, const char *consumer,
    GError **err)
{
	Lease *l = NULL;

	if (named(policy) && named(consumer) && named(provider)) {
		g_autofree char *k = lease_key(policy, provider, consumer);

		l = g_hash_table_lookup(st->leases, k);
	} else if (named(policy) && named(consumer)) {
		l = any_provider(st, policy, consumer);
	}
	if (l == NULL)
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "no lease %s to %s",
		    policy != NULL ? policy : "?", consumer != NULL ? consumer : "?");
	return l;
}

static gboolean
apply_new(State *st, const Basalt__EvLeaseNew *e, GError **err)
{
	Lease *l;

	if (!named(e->policy) || !named(e->provider) || !named(e->consumer) || e->n_hosts == 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "lease event without a policy, provider, consumer or hosts");
		return FALSE;
	}
	for (gsize i = 0; i < e->n_hosts; i++)
		if (!named(e->hosts[i]->host) || e->hosts[i]->slots > G_MAXINT ||
		    e->hosts[i]->consumer_slots > e->hosts[i]->slots) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: bad host entry",
			    e->policy, e->consumer);
			return FALSE;
		}
	l = g_new0(Lease, 1);
	l->policy = g_strdup(e->policy);
	l->provider = g_strdup(e->provider);
	l->consumer = g_strdup(e->consumer);
	l->shared = e->shared;
	l->made = e->made;
	l->status = LEASE_OK;
	l->generation = MAX(e->generation, 1);
	l->next_eval = e->next_eval > 0 ? e->next_eval : G_MAXINT64;
	l->hosts = g_ptr_array_new_with_free_func(host_free);
	for (gsize i = 0; i < e->n_hosts; i++) {
		LeaseHost *h = g_new0(LeaseHost, 1);

		h->name = g_strdup(e->hosts[i]->host);
		h->slots = (int)e->hosts[i]->slots;
		h->consumer_slots = (int)e->hosts[i]->consumer_slots;
		g_ptr_array_add(l->hosts, h);
	}
	g_hash_table_replace(st->leases, lease_key(e->policy, e->provider, e->consumer), l);
	relist(st);
	return TRUE;
}

static gboolean
apply_split(State *st, const Basalt__EvLeaseSplit *e, GError **err)
{
	Lease *l = find(st, e->policy, e->provider, e->consumer, err);

	if (l == NULL)
		return FALSE;
	if (e->n_hosts != 0 && e->n_hosts != l->hosts->len) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: a split of %zu "
		    "hosts for a lease of %u", e->policy, e->consumer, e->n_hosts, l->hosts->len);
		return FALSE;
	}
	for (gsize i = 0; i < e->n_hosts; i++) {
		const LeaseHost *h = l->hosts->pdata[i];

		if (g_strcmp0(e->hosts[i]->host, h->name) != 0 ||
		    e->hosts[i]->consumer_slots > (guint32)h->slots) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: the split "
			    "does not fit host %s", e->policy, e->consumer, h->name);
			return FALSE;
		}
	}
	for (gsize i = 0; i < e->n_hosts; i++)
		((LeaseHost *)l->hosts->pdata[i])->consumer_slots = (int)e->hosts[i]->consumer_slots;
	if (e->generation > 0)
		l->generation = e->generation;
	if (e->eval_time > 0) {
		l->last_eval = e->eval_time;
		l->last_idle_provider = MAX(e->idle_provider, 0);
		l->last_idle_consumer = MAX(e->idle_consumer, 0);
	}
	l->next_eval = e->next_eval > 0 ? e->next_eval : G_MAXINT64;
	return TRUE;
}

static gboolean
apply_status(State *st, const Basalt__EvLeaseStatus *e, GError **err)
{
	Lease *l = find(st, e->policy, e->provider, e->consumer, err);

	if (l == NULL)
		return FALSE;
	if (e->ended) {
		g_autofree char *k = lease_key(l->policy, l->provider, l->consumer);

		g_hash_table_remove(st->leases, k);
		relist(st);
		return TRUE;
	}
	if (e->status > LEASE_DISCONNECTED) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "lease %s to %s: unknown status %u",
		    e->policy, e->consumer, e->status);
		return FALSE;
	}
	l->status = (LeaseStatus)e->status;
	l->made = l->made || e->made;
	if (e->generation > 0)
		l->generation = e->generation;
	return TRUE;
}

gboolean
state_apply_lease(State *st, const Basalt__Event *ev, GError **err)
{
	switch (ev->body_case) {
	case BASALT__EVENT__BODY_LEASE_NEW:
		return apply_new(st, ev->lease_new, err);
	case BASALT__EVENT__BODY_LEASE_SPLIT:
		return apply_split(st, ev->lease_split, err);
	case BASALT__EVENT__BODY_LEASE_STATUS:
		return apply_status(st, ev->lease_status, err);
	default:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "not a lease event");
		return FALSE;
	}
}

/* ---- leases as events: checkpoints and the stage's outcomes ------------ */

static Basalt__Event *
new_event(GPtrArray *events, gint64 time)
{
	Basalt__Event *ev = g_new(Basalt__Event, 1);

	basalt__event__init(ev);
	ev->time = time;
	g_ptr_array_add(events, ev);
	return ev;
}

static gpointer
keep(GPtrArray *blocks, gpointer p)
{
	g_ptr_array_add(blocks, p);
	return p;
}

static Basalt__EvLeaseHost **
hosts_of(const Lease *l, GPtrArray *blocks)
{
	Basalt__EvLeaseHost **v = keep(blocks, g_new0(Basalt__EvLeaseHost *, MAX(l->hosts->len, 1)));

	for (guint i = 0; i < l->hosts->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];
		Basalt__EvLeaseHost *e = keep(blocks, g_new(Basalt__EvLeaseHost, 1));

		basalt__ev_lease_host__init(e);
		e->host = h->name;
		e->slots = (guint32)h->slots;
		e->consumer_slots = (guint32)h->consumer_slots;
		v[i] = e;
	}
	return v;
}

static gint64
when(gint64 t)
{
	return t == G_MAXINT64 ? 0 : t;
}

void
state_lease_new_event(const Lease *l, gint64 now, GPtrArray *events, GPtrArray *blocks)
{
	Basalt__Event *ev = new_event(events, now);
	Basalt__EvLeaseNew *n = keep(blocks, g_new(Basalt__EvLeaseNew, 1));

	basalt__ev_lease_new__init(n);
	n->policy = l->policy;
	n->provider = l->provider;
	n->consumer = l->consumer;
	n->shared = l->shared;
	n->made = l->made;
	n->generation = l->generation;
	n->next_eval = when(l->next_eval);
	n->n_hosts = l->hosts->len;
	n->hosts = hosts_of(l, blocks);
	ev->body_case = BASALT__EVENT__BODY_LEASE_NEW;
	ev->lease_new = n;
}

static void
split_event(const Lease *l, gboolean with_hosts, gint64 eval_time, gint64 now,
    GPtrArray *events, GPtrArray *blocks)
{
	Basalt__Event *ev = new_event(events, now);
	Basalt__EvLeaseSplit *s = keep(blocks, g_new(Basalt__EvLeaseSplit, 1));

	basalt__ev_lease_split__init(s);
	s->policy = l->policy;
	s->provider = l->provider;
	s->consumer = l->consumer;
	s->generation = l->generation;
	if (with_hosts) {
		s->n_hosts = l->hosts->len;
		s->hosts = hosts_of(l, blocks);
	}
	s->eval_time = eval_time;
	s->idle_provider = l->last_idle_provider;
	s->idle_consumer = l->last_idle_consumer;
	s->next_eval = when(l->next_eval);
	ev->body_case = BASALT__EVENT__BODY_LEASE_SPLIT;
	ev->lease_split = s;
}

static void
status_event(const Lease *l, gint64 now, GPtrArray *events, GPtrArray *blocks)
{
	Basalt__Event *ev = new_event(events, now);
	Basalt__EvLeaseStatus *s = keep(blocks, g_new(Basalt__EvLeaseStatus, 1));

	basalt__ev_lease_status__init(s);
	s->policy = l->policy;
	s->provider = l->provider;
	s->consumer = l->consumer;
	s->status = (guint32)l->status;
	s->generation = l->generation;
	s->made = l->made;
	ev->body_case = BASALT__EVENT__BODY_LEASE_STATUS;
	ev->lease_status = s;
}

void
state_lease_outcome_events(const LeaseOutcome *o, gint64 now, GPtrArray *events,
    GPtrArray *blocks)
{
	const Lease *l = o->lease;

	/* A made lease starts its evaluation schedule: that is a split
	 * event without hosts (next_eval), then the status carries made. */
	if (o->split_changed || o->evaluated || o->made_now)
		split_event(l, o->split_changed, o->evaluated ? l->last_eval : 0, now,
		    events, blocks);
	if (o->status_changed || o->made_now)
		status_event(l, now, events, blocks);
}

void
state_lease_events(const Lease *l, gint64 now, GPtrArray *events, GPtrArray *blocks)
{
	state_lease_new_event(l, now, events, blocks);
	if (l->last_eval > 0)
		split_event(l, FALSE, l->last_eval, now, events, blocks);
	status_event(l, now, events, blocks);
}

void
state_lease_status_event(const Lease *l, gint64 now, GPtrArray *events, GPtrArray *blocks)
{
	status_event(l, now, events, blocks);
}

void
state_export_leases(const State *st, GPtrArray *events, GPtrArray *blocks)
{
	/* In key order, so a checkpoint of the same state is the same bytes. */
	for (guint i = 0; i < st->lease_list->len; i++)
		state_lease_events(st->lease_list->pdata[i], 0, events, blocks);
}
