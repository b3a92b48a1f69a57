/*
 * bclusters' layouts as pure functions of the Clusters reply, so they are
 * tested without a cluster (tests/unit/check_cmd_bclusters.c): LSF's two
 * sections, -app, and Basalt's -l with each link and each lease.
 */
#include "config.h"

#include <string.h>

#include "bclusters-format.h"
#include "cmd-util.h"

static const char *
status_name(Basalt__LinkStatus s)
{
	return s == BASALT__LINK_STATUS__LINK_STATUS_OK ? "ok" : "disc";
}

static void
row(GString *out, const char *const *cells, const guint *widths, guint n,
    CmdFit fit)
{
	for (guint i = 0; i < n; i++) {
		if (i + 1 < n) {
			cmd_cell(out, cells[i], widths[i], fit, FALSE);
			g_string_append_c(out, ' ');
		} else {
			g_string_append(out, cells[i]);
		}
	}
	g_string_append_c(out, '\n');
}

void
bclusters_format_forwarding(GString *out, const Basalt__ClustersReply *r, CmdFit fit)
{
	static const char *const head[] = { "LOCAL_QUEUE", "JOB_FLOW",
	    "REMOTE", "CLUSTER", "STATUS" };
	static const guint w[] = { 15, 10, 10, 10, 6 };

	g_string_append(out, "[Job Forwarding Information ]\n");
	if (r->n_queues == 0) {
		g_string_append(out, "No local queue sending/receiving jobs "
		    "from remote clusters\n");
		return;
	}
	row(out, head, w, 5, CMD_FIT_WIDE);
	for (size_t i = 0; i < r->n_queues; i++) {
		const Basalt__ForwardQueue *q = r->queues[i];
		const char *cells[] = { q->local_queue, q->job_flow, q->remote,
		    q->cluster, status_name(q->status) };

		row(out, cells, w, 5, fit);
	}
}

void
bclusters_format_leases(GString *out, const Basalt__ClustersReply *r, CmdFit fit)
{
	static const char *const head[] = { "REMOTE_CLUSTER", "RESOURCE_FLOW",
	    "STATUS" };
	static const guint w[] = { 15, 15, 6 };

	g_string_append(out, "[Resource Lease Information ]\n");
	if (r->n_flows == 0) {
		g_string_append(out, "No resources have been exported or "
		    "borrowed\n");
		return;
	}
	row(out, head, w, 3, CMD_FIT_WIDE);
	for (size_t i = 0; i < r->n_flows; i++) {
		const Basalt__LeaseFlow *f = r->flows[i];
		const char *cells[] = { f->remote_cluster, f->resource_flow,
		    f->status };

		row(out, cells, w, 3, fit);
	}
}

void
bclusters_format_apps(GString *out, const Basalt__ClustersReply *r, CmdFit fit)
{
	static const char *const head[] = { "REMOTE_CLUSTER", "APP_NAME",
	    "DESCRIPTION" };
	static const guint w[] = { 15, 15, 0 };
	gboolean any = FALSE;

	g_string_append(out, "[Remote Batch Application Profile Information ]\n");
	for (size_t i = 0; i < r->n_links; i++)
		any |= r->links[i]->n_apps > 0;
	if (!any) {
		g_string_append(out, "No application profiles in remote "
		    "clusters\n");
		return;
	}
	row(out, head, w, 3, CMD_FIT_WIDE);
	for (size_t i = 0; i < r->n_links; i++) {
		const Basalt__RemoteClusterLink *l = r->links[i];

		for (size_t k = 0; k < l->n_apps; k++) {
			const char *cells[] = { l->cluster_name,
			    l->apps[k]->name, l->apps[k]->description };

			row(out, cells, w, 3, fit);
		}
	}
}

static void
long_link(GString *out, const Basalt__RemoteClusterLink *l)
{
	g_string_append_printf(out, "REMOTE CLUSTER: %s\n", l->cluster_name);
	g_string_append_printf(out, "  STATUS:      %s since ",
	    status_name(l->status));
	cmd_time_long(out, l->since);
	g_string_append_printf(out, "\n  MASTER:      %s\n",
	    l->master_host[0] != '\0' ? l->master_host : "-");
	g_string_append(out, "  SERVERS:    ");
	for (size_t i = 0; i < l->n_servers; i++)
		g_string_append_printf(out, " %s", l->servers[i]);
	g_string_append_printf(out, "\n  LINK:        %s %s\n",
	    l->dialer ? "dialed by this cluster at" : "dialed by that cluster from",
	    l->address[0] != '\0' ? l->address : "-");
	g_string_append_printf(out, "  CONNECTS:    %u\n", l->connects);
	g_string_append_printf(out, "  LAST_ERROR:  %s\n",
	    l->last_error[0] != '\0' ? l->last_error : "-");
	if (l->status != BASALT__LINK_STATUS__LINK_STATUS_OK && l->next_dial > 0) {
		g_string_append(out, "  NEXT_DIAL:   ");
		cmd_time_long(out, l->next_dial);
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
}

static void
long_lease(GString *out, const Basalt__LeaseInfo *l)
{
	g_string_append_printf(out, "LEASE: %s (%s)\n", l->policy,
	    l->shared ? "shared" : "exclusive");
	g_string_append_printf(out, "  PROVIDER:    %s\n  CONSUMER:    %s\n",
	    l->provider, l->consumer);
	g_string_append_printf(out, "  STATUS:      %s%s\n", l->status,
	    l->made ? "" : " (not made: no consumer job yet)");
	g_string_append_printf(out, "  GENERATION:  %" G_GUINT64_FORMAT "\n",
	    l->generation);
	g_string_append_printf(out, "  SLOTS:       provider %d, consumer %d\n",
	    l->provider_slots, l->consumer_slots);
	g_string_append(out, "  HOSTS:      ");
	for (size_t i = 0; i < l->n_hosts; i++)
		g_string_append_printf(out, " %s(%d/%d)", l->hosts[i]->host_name,
		    l->hosts[i]->consumer_slots, l->hosts[i]->slots);
	g_string_append(out, "\n  LAST_EVAL:   ");
	if (l->last_eval > 0) {
		cmd_time_long(out, l->last_eval);
		g_string_append_printf(out, ", idle slots: provider %d, "
		    "consumer %d", l->last_idle_provider, l->last_idle_consumer);
	} else {
		g_string_append_c(out, '-');
	}
	if (l->next_eval > 0) {
		g_string_append(out, "\n  NEXT_EVAL:   ");
		cmd_time_long(out, l->next_eval);
	}
	g_string_append(out, "\n\n");
}

void
bclusters_format_long(GString *out, const Basalt__ClustersReply *r)
{
	g_string_append_printf(out, "LOCAL CLUSTER: %s\n\n", r->cluster_name);
	if (r->n_links == 0)
		g_string_append(out, "No remote clusters in lsf.shared\n\n");
	for (size_t i = 0; i < r->n_links; i++)
		long_link(out, r->links[i]);
	if (r->n_leases == 0)
		g_string_append(out, "LEASES: none\n");
	for (size_t i = 0; i < r->n_leases; i++)
		long_lease(out, r->leases[i]);
}

