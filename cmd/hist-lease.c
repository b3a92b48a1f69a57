/*
 * Lease changes in a job's history: bhist -l of a job running on a leased
 * host (host@cluster) shows the changes of that host's lease during the
 * run, among its other records.  Nothing is journaled per job for them:
 * the consumer journals each lease as its provider tells it (EvLeaseNew,
 * EvLeaseSplit, EvLeaseStatus, mbatchd/state/leases.c), and this file
 * derives the job's lines from those records as they are read.
 *
 * Cost: the leases are indexed once by (provider, policy), each with its
 * hosts as the consumer names them (host@provider) and the slots the
 * lease gives the consumer there; the jobs are indexed by the leased
 * hosts they were dispatched to.  A lease record touches only the jobs
 * on its own hosts; no record scans every job.  A job that left its host
 * (finished, requeued, dispatched elsewhere) is dropped from the host's
 * list the first time a lease record finds it there.
 *
 * Only changes are shown: a consumer journals the whole lease each time
 * its provider resends it, so the same status or the same slots twice is
 * no line.  A lease first seen in the files read counts as ok with the
 * slots it has then, so a lease already disconnected when the journal
 * read begins shows that, and one ok shows nothing.
 */
#include "config.h"

#include <string.h>

#include "hist-model.h"

/* The values of LeaseStatus (mbatchd/sched/lease.h), as journaled. */
enum { H_OK = 0, H_INACTIVE = 1, H_DISCONNECTED = 2 };

typedef struct {
	char *provider;
	char *policy;
	guint32 status;
	gboolean ended;
	GHashTable *slots;          /* "host@provider" -> consumer slots + 1 */
} Lease;

struct HistLeases {
	GHashTable *leases;         /* "provider\npolicy" -> Lease* */
	GHashTable *on_host;        /* "host@provider" -> GPtrArray of HistJob* */
};

static void
lease_free(gpointer p)
{
	Lease *l = p;

	g_free(l->provider);
	g_free(l->policy);
	g_hash_table_unref(l->slots);
	g_free(l);
}

HistLeases *
hist_leases_new(void)
{
	HistLeases *h = g_new0(HistLeases, 1);

	h->leases = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    lease_free);
	h->on_host = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    (GDestroyNotify)g_ptr_array_unref);
	return h;
}

void
hist_leases_free(HistLeases *h)
{
	if (h == NULL)
		return;
	g_hash_table_unref(h->leases);
	g_hash_table_unref(h->on_host);
	g_free(h);
}

void
hist_leases_job_placed(HistLeases *h, HistJob *j)
{
	for (guint i = 0; j->exec_hosts != NULL && j->exec_hosts[i] != NULL; i++) {
		const char *host = j->exec_hosts[i];
		GPtrArray *jobs;

		if (strchr(host, '@') == NULL)
			continue;
		jobs = g_hash_table_lookup(h->on_host, host);
		if (jobs == NULL) {
			jobs = g_ptr_array_new();
			g_hash_table_insert(h->on_host, g_strdup(host), jobs);
		}
		/* One entry per job and host, however many slots. */
		if (jobs->len == 0 || jobs->pdata[jobs->len - 1] != j)
			g_ptr_array_add(jobs, j);
	}
}

static gboolean
runs_on(const HistJob *j, const char *host)
{
	switch (j->state) {
	case BASALT__JOB_STATE__JOB_STATE_PEND:
	case BASALT__JOB_STATE__JOB_STATE_PSUSP:
	case BASALT__JOB_STATE__JOB_STATE_DONE:
	case BASALT__JOB_STATE__JOB_STATE_EXIT:
		return FALSE;
	default:
		break;
	}
	for (guint i = 0; j->exec_hosts != NULL && j->exec_hosts[i] != NULL; i++)
		if (strcmp(j->exec_hosts[i], host) == 0)
			return TRUE;
	return FALSE;
}

static void
add_line(HistJob *j, const Basalt__Event *ev, char *text)
{
	HistStep *s;

	/* A job on several hosts of one lease gets a status line once. */
	if (j->steps->len > 0) {
		s = j->steps->pdata[j->steps->len - 1];
		if (s->seq == ev->seq && s->kind == HIST_STEP_LEASE &&
		    g_strcmp0(s->text, text) == 0) {
			g_free(text);
			return;
		}
	}
	s = g_new0(HistStep, 1);
	s->seq = ev->seq;
	s->time = ev->time;
	s->kind = HIST_STEP_LEASE;
	s->state = j->state;
	s->text = text;
	g_ptr_array_add(j->steps, s);
}

/* Each job running on `host` gets the line (a copy of `text`). */
static void
tell_host(HistLeases *h, const char *host, const Basalt__Event *ev,
    const char *text)
{
	GPtrArray *jobs = g_hash_table_lookup(h->on_host, host);

	for (guint i = 0; jobs != NULL && i < jobs->len; ) {
		HistJob *j = jobs->pdata[i];

		if (!runs_on(j, host)) {
			g_ptr_array_remove_index(jobs, i);
			continue;
		}
		add_line(j, ev, g_strdup(text));
		i++;
	}
}

static Lease *
lease_of(HistLeases *h, const char *provider, const char *policy)
{
	g_autofree char *key = g_strdup_printf("%s\n%s", provider, policy);
	Lease *l = g_hash_table_lookup(h->leases, key);

	if (l == NULL) {
		l = g_new0(Lease, 1);
		l->provider = g_strdup(provider);
		l->policy = g_strdup(policy);
		l->status = H_OK;
		l->slots = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		    NULL);
		g_hash_table_insert(h->leases, g_steal_pointer(&key), l);
	}
	return l;
}

/*
 * The lease's hosts and slots become `hosts`; a job on a host whose slots
 * changed is told.  A host the lease no longer has gives 0 slots.  `known`
 * FALSE: the lease's first record, which sets the slots silently.
 */
static void
set_hosts(HistLeases *h, Lease *l, Basalt__EvLeaseHost **hosts, size_t n,
    gboolean known, const Basalt__Event *ev)
{
	g_autoptr(GHashTable) now = g_hash_table_new_full(g_str_hash,
	    g_str_equal, g_free, NULL);
	GHashTableIter it;
	gpointer k, v;

	for (size_t i = 0; i < n; i++)
		g_hash_table_insert(now, g_strdup_printf("%s@%s", hosts[i]->host,
		    l->provider), GUINT_TO_POINTER(hosts[i]->consumer_slots + 1));
	if (known) {
		g_hash_table_iter_init(&it, now);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			gpointer was = g_hash_table_lookup(l->slots, k);
			g_autofree char *text = NULL;

			if (was == NULL || was == v)
				continue;
			guint now_n = GPOINTER_TO_UINT(v) - 1;

			text = g_strdup_printf("The lease <%s> from cluster <%s> "
			    "gives this cluster %u slot%s on host <%s> (%u before);",
			    l->policy, l->provider, now_n, now_n == 1 ? "" : "s",
			    (const char *)k, GPOINTER_TO_UINT(was) - 1);
			tell_host(h, k, ev, text);
		}
		g_hash_table_iter_init(&it, l->slots);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			g_autofree char *text = NULL;

			if (g_hash_table_contains(now, k))
				continue;
			text = g_strdup_printf("The lease <%s> from cluster <%s> "
			    "no longer includes host <%s>;", l->policy,
			    l->provider, (const char *)k);
			tell_host(h, k, ev, text);
		}
	}
	g_hash_table_unref(l->slots);
	l->slots = g_steal_pointer(&now);
}

static char *
status_text(const Lease *l, guint32 was)
{
	if (l->ended)
		return g_strdup_printf("The lease <%s> from cluster <%s> has "
		    "ended: its policy is gone;", l->policy, l->provider);
	switch (l->status) {
	case H_DISCONNECTED:
		return g_strdup_printf("The lease <%s> from cluster <%s> is "
		    "disconnected; the job's status is not known until the "
		    "cluster returns;", l->policy, l->provider);
	case H_INACTIVE:
		return g_strdup_printf("The lease <%s> from cluster <%s> is "
		    "inactive while a change of its slots is applied;",
		    l->policy, l->provider);
	default:
		return g_strdup_printf(was == H_DISCONNECTED ?
		    "The lease <%s> from cluster <%s> is connected again: ok;" :
		    "The lease <%s> from cluster <%s> is ok;", l->policy,
		    l->provider);
	}
}

static void
set_status(HistLeases *h, Lease *l, guint32 status, gboolean ended,
    const Basalt__Event *ev)
{
	guint32 was = l->status;
	g_autofree char *text = NULL;
	GHashTableIter it;
	gpointer k;

	if (status == was && ended == l->ended)
		return;
	l->status = status;
	l->ended = ended;
	text = status_text(l, was);
	g_hash_table_iter_init(&it, l->slots);
	while (g_hash_table_iter_next(&it, &k, NULL))
		tell_host(h, k, ev, text);
}

void
hist_leases_feed(HistLeases *h, const Basalt__Event *ev)
{
	Lease *l;
	gboolean known;
	g_autofree char *key = NULL;

	switch (ev->body_case) {
	case BASALT__EVENT__BODY_LEASE_NEW: {
		const Basalt__EvLeaseNew *e = ev->lease_new;

		if (e->provider == NULL || e->policy == NULL)
			return;
		key = g_strdup_printf("%s\n%s", e->provider, e->policy);
		known = g_hash_table_contains(h->leases, key);
		l = lease_of(h, e->provider, e->policy);
		l->ended = FALSE;
		set_hosts(h, l, e->hosts, e->n_hosts, known, ev);
		return;
	}
	case BASALT__EVENT__BODY_LEASE_SPLIT: {
		const Basalt__EvLeaseSplit *e = ev->lease_split;

		/* A journal from before the provider was recorded cannot
		 * name the hosts' cluster: nothing to show. */
		if (e->provider == NULL || *e->provider == '\0' ||
		    e->policy == NULL || e->n_hosts == 0)
			return;
		key = g_strdup_printf("%s\n%s", e->provider, e->policy);
		known = g_hash_table_contains(h->leases, key);
		l = lease_of(h, e->provider, e->policy);
		set_hosts(h, l, e->hosts, e->n_hosts, known, ev);
		return;
	}
	case BASALT__EVENT__BODY_LEASE_STATUS: {
		const Basalt__EvLeaseStatus *e = ev->lease_status;

		if (e->provider == NULL || *e->provider == '\0' ||
		    e->policy == NULL)
			return;
		l = lease_of(h, e->provider, e->policy);
		set_status(h, l, e->ended ? l->status : e->status, e->ended, ev);
		return;
	}
	default:
		return;
	}
}
