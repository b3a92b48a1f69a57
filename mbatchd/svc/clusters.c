/*
 * bclusters: what this mbatchd knows of the other clusters: each remote
 * cluster's link (status, since when, master, address, last error, the
 * peer's application profiles) and the job-forwarding queues of
 * lsb.queues with the status of their cluster's link.  Nothing here is
 * secret (LSF shows it to every user), so any caller may ask.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mc-links.h"
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
		ptrs[i] = r;
	}
	forward_queues(m, queues);
	reply.cluster_name = m->cfg->cluster->name;
	reply.links = ptrs;
	reply.n_links = n;
	reply.queues = (Basalt__ForwardQueue **)queues->pdata;
	reply.n_queues = queues->len;
	closure(&reply, call);
}
