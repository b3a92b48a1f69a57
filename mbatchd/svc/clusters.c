/*
 * bclusters: what this mbatchd knows of the other clusters: each remote
 * cluster's link (status, since when, master, address, last error, the
 * peer's application profiles) and the job-forwarding queues of
 * lsb.queues with the status of their cluster's link), the leases this
 * mbatchd holds, and LSF's lease rows: EXPORT to every consumer a
 * HostExport DISTRIBUTION names or a lease has, IMPORT from every provider
 * a queue's HOSTS names (host@cluster, all@cluster) or a lease has; each
 * ok (linked, lease made and ok), conn (linked, no lease working yet) or
 * disc (no link).  Nothing here is
 * secret (LSF shows it to every user), so any caller may ask.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mc-links.h"
#include "mbatchd/sched/lease.h"
#include "mbatchd/svc/svc.h"

static Basalt__LinkStatus
link_status(Manager *m, const char *cluster)
{
	const McLink *l = mc_link_find(m, cluster);

	return l != NULL && l->status == MC_LINK_OK ?
	    BASALT__LINK_STATUS__LINK_STATUS_OK :
	    BASALT__LINK_STATUS__LINK_STATUS_DISC;
}

static void
add_queue(Manager *m, GPtrArray *rows, const char *queue, const char *flow,
    const char *remote, const char *cluster)
{
	Basalt__ForwardQueue *q = g_new(Basalt__ForwardQueue, 1);

	basalt__forward_queue__init(q);
	q->local_queue = g_strdup(queue);
	q->job_flow = g_strdup(flow);
	q->remote = g_strdup(remote);
	q->cluster = g_strdup(cluster);
	q->status = link_status(m, cluster);
	g_ptr_array_add(rows, q);
}

/* SNDJOBS_TO = queue@cluster ...; RCVJOBS_FROM = cluster ... | allclusters. */
static void
forward_queues(Manager *m, GPtrArray *rows)
{
	for (guint i = 0; i < m->cfg->queues->len; i++) {
		const BsQueueConf *q = m->cfg->queues->pdata[i];

		for (char **s = q->sndjobs_to; s != NULL && *s != NULL; s++) {
			const char *at = strchr(*s, '@');
			g_autofree char *rq = at != NULL ?
			    g_strndup(*s, (gsize)(at - *s)) : g_strdup(*s);

			add_queue(m, rows, q->name, "send", rq,
			    at != NULL ? at + 1 : "-");
		}
		for (char **r = q->rcvjobs_from; r != NULL && *r != NULL; r++) {
			if (g_ascii_strcasecmp(*r, "allclusters") != 0) {
				add_queue(m, rows, q->name, "recv", "-", *r);
				continue;
			}
			for (guint k = 0; k < mc_links_count(m); k++)
				add_queue(m, rows, q->name, "recv", "-",
				    mc_link_nth(m, k)->cluster);
		}
	}
}

static void
queue_free(gpointer p)
{
	Basalt__ForwardQueue *q = p;

	g_free(q->local_queue);
	g_free(q->job_flow);
	g_free(q->remote);
	g_free(q->cluster);
	g_free(q);
}

static const char *
flow_status(Manager *m, const GPtrArray *leases, const char *cluster,
    gboolean export)
{
	const char *local = m->cfg->cluster->name;

	if (link_status(m, cluster) != BASALT__LINK_STATUS__LINK_STATUS_OK)
		return "disc";
	for (guint i = 0; leases != NULL && i < leases->len; i++) {
		const Lease *l = leases->pdata[i];

		if (strcmp(export ? l->provider : l->consumer, local) == 0 &&
		    strcmp(export ? l->consumer : l->provider, cluster) == 0 &&
		    l->made && l->status == LEASE_OK)
			return "ok";
	}
	return "conn";
}

static void
add_flow(Manager *m, const GPtrArray *leases, GPtrArray *rows,
    GHashTable *seen, const char *cluster, gboolean export)
{
	Basalt__LeaseFlow *f;
	char *key;

	if (cluster == NULL || strcmp(cluster, m->cfg->cluster->name) == 0)
		return;
	key = g_strconcat(export ? "E" : "I", cluster, NULL);
	if (!g_hash_table_add(seen, key))
		return;
	f = g_new(Basalt__LeaseFlow, 1);
	basalt__lease_flow__init(f);
	f->remote_cluster = g_strdup(cluster);
	f->resource_flow = g_strdup(export ? "EXPORT" : "IMPORT");
	f->status = (char *)flow_status(m, leases, cluster, export);
	g_ptr_array_add(rows, f);
}

static void
flow_free(gpointer p)
{
	Basalt__LeaseFlow *f = p;

	g_free(f->remote_cluster);
	g_free(f->resource_flow);
	g_free(f);
}

static void
lease_flows(Manager *m, const GPtrArray *leases, GPtrArray *rows)
{
	const BsResourcesConf *res = m->cfg->resources;
	const char *local = m->cfg->cluster->name;
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash,
	    g_str_equal, g_free, NULL);

	for (guint i = 0; res != NULL && res->imports != NULL &&
	    i < res->imports->len; i++) {
		const BsHostImport *im = res->imports->pdata[i];

		add_flow(m, leases, rows, seen, im->cluster, FALSE);
	}
	for (guint i = 0; res != NULL && res->exports != NULL &&
	    i < res->exports->len; i++) {
		const BsHostExport *ex = res->exports->pdata[i];

		for (guint k = 0; ex->distribution != NULL &&
		    k < ex->distribution->len; k++)
			add_flow(m, leases, rows, seen,
			    ((const BsShare *)ex->distribution->pdata[k])->name,
			    TRUE);
	}
	for (guint i = 0; leases != NULL && i < leases->len; i++) {
		const Lease *l = leases->pdata[i];

		if (strcmp(l->consumer, local) == 0)
			add_flow(m, leases, rows, seen, l->provider, FALSE);
		else if (strcmp(l->provider, local) == 0)
			add_flow(m, leases, rows, seen, l->consumer, TRUE);
	}
}

static Basalt__LeaseInfo *
lease_info(const Lease *l)
{
	Basalt__LeaseInfo *i = g_new(Basalt__LeaseInfo, 1);

	basalt__lease_info__init(i);
	i->policy = l->policy;
	i->provider = l->provider;
	i->consumer = l->consumer;
	i->shared = l->shared;
	i->made = l->made;
	i->status = (char *)lease_status_name(l->status);
	i->generation = l->generation;
	i->n_hosts = l->hosts->len;
	i->hosts = g_new0(Basalt__LeaseHostInfo *, l->hosts->len + 1);
	for (guint k = 0; k < l->hosts->len; k++) {
		const LeaseHost *h = l->hosts->pdata[k];
		Basalt__LeaseHostInfo *o = g_new(Basalt__LeaseHostInfo, 1);

		basalt__lease_host_info__init(o);
		o->host_name = h->name;
		o->slots = h->slots;
		o->consumer_slots = h->consumer_slots;
		i->hosts[k] = o;
	}
	i->provider_slots = lease_provider_slots(l);
	i->consumer_slots = lease_consumer_slots(l);
	i->last_eval = l->last_eval;
	i->last_idle_provider = l->last_idle_provider;
	i->last_idle_consumer = l->last_idle_consumer;
	i->next_eval = l->next_eval == G_MAXINT64 ? 0 : l->next_eval;
	return i;
}

static void
lease_info_free(gpointer p)
{
	Basalt__LeaseInfo *i = p;

	for (size_t k = 0; k < i->n_hosts; k++)
		g_free(i->hosts[k]);
	g_free(i->hosts);
	g_free(i);
}

void
svc_clusters(Basalt__BatchService_Service *svc,
    const Basalt__ClustersRequest *req, Basalt__ClustersReply_Closure closure,
    void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__ClustersReply reply = BASALT__CLUSTERS_REPLY__INIT;
	guint n = mc_links_count(m);
	g_autofree Basalt__RemoteClusterLink *items =
	    g_new0(Basalt__RemoteClusterLink, n + 1);
	g_autofree Basalt__RemoteClusterLink **ptrs =
	    g_new0(Basalt__RemoteClusterLink *, n + 1);
	g_autoptr(GPtrArray) queues = g_ptr_array_new_with_free_func(queue_free);
	g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(flow_free);
	g_autoptr(GPtrArray) infos =
	    g_ptr_array_new_with_free_func(lease_info_free);
	const GPtrArray *leases = state_leases(m->st);

	(void)req;
	for (guint i = 0; i < n; i++) {
		const McLink *l = mc_link_nth(m, i);
		Basalt__RemoteClusterLink *r = &items[i];

		basalt__remote_cluster_link__init(r);
		r->cluster_name = l->cluster;
		r->status = l->status == MC_LINK_OK ?
		    BASALT__LINK_STATUS__LINK_STATUS_OK :
		    BASALT__LINK_STATUS__LINK_STATUS_DISC;
		r->since = l->since;
		r->master_host = l->master != NULL ? l->master : (char *)"";
		r->address = l->address != NULL ? l->address : (char *)"";
		r->dialer = l->dialer;
		r->last_error = l->last_error != NULL ? l->last_error : (char *)"";
		r->connects = l->connects;
		r->next_dial = l->status == MC_LINK_OK ? 0 : l->next_dial;
		r->apps = (Basalt__RemoteApp **)l->apps->pdata;
		r->n_apps = l->apps->len;
		r->servers = l->servers;
		r->n_servers = g_strv_length(l->servers);
		r->admin = l->admin != NULL ? l->admin : (char *)"";
		r->hosts = l->hosts;
		r->server_hosts = l->server_hosts;
		ptrs[i] = r;
	}
	forward_queues(m, queues);
	lease_flows(m, leases, flows);
	for (guint i = 0; leases != NULL && i < leases->len; i++)
		g_ptr_array_add(infos, lease_info(leases->pdata[i]));
	reply.cluster_name = m->cfg->cluster->name;
	reply.links = ptrs;
	reply.n_links = n;
	reply.queues = (Basalt__ForwardQueue **)queues->pdata;
	reply.n_queues = queues->len;
	reply.flows = (Basalt__LeaseFlow **)flows->pdata;
	reply.n_flows = flows->len;
	reply.leases = (Basalt__LeaseInfo **)infos->pdata;
	reply.n_leases = infos->len;
	closure(&reply, call);
}
