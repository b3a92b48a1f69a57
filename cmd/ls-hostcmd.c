/*
 * lsclusters, lshosts and lsload: one program body, three layouts.  Each
 * asks mbatchd for its hosts (and lsclusters for the cluster, and for the
 * other clusters its MultiCluster links reach, too) and
 * prints them as LSF's LIM-based command does (ls-format.c); lshosts and
 * lsload -R keep the hosts that satisfy a resource requirement, evaluated
 * by mbatchd as for bhosts -R.  The three
 * programs are this file built with LS_CMD set to which one it is.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "ls-format.h"

#if LS_CMD == 1
#define PROG "lsclusters"
#define USAGE "lsclusters [-h] [-V] [-w | -l] [cluster_name ...]"
#elif LS_CMD == 2
#define PROG "lshosts"
#define USAGE "lshosts [-h] [-V] [-w | -l] [-R res_req] " \
	"[host_name ... | host_group ...]\n       lshosts -s [resource_name ...]"
#else
#define PROG "lsload"
#define USAGE "lsload [-h] [-V] [-w | -l] [-I load_index[:load_index]...] " \
	"[-n num_hosts] [-R res_req] [host_name ... | host_group ...]\n" \
	"       lsload -s [resource_name ...]"
#endif

enum { O_W, O_L, O_R, O_S, O_I, O_NUM, O_N };
static const CmdOpt opts[] = {
	[O_W] = { "-w", FALSE }, [O_L] = { "-l", FALSE },
#if LS_CMD == 1
	[O_R] = { NULL, FALSE },
#else
	[O_R] = { "-R", TRUE }, [O_S] = { "-s", FALSE },
#if LS_CMD == 3
	[O_I] = { "-I", TRUE }, [O_NUM] = { "-n", TRUE },
#else
	[O_I] = { NULL, FALSE },
#endif
#endif
	[O_N] = { NULL, FALSE },
};

#if LS_CMD == 3
/* -I r1m:ut:mem: the index names, each one lsload knows. */
static char **
index_list(const char *arg)
{
	g_auto(GStrv) v = g_strsplit(arg, ":", -1);

	if (v[0] == NULL || *arg == '\0') {
		fprintf(stderr, PROG ": -I needs a load index list\nUsage: %s\n",
		    USAGE);
		return NULL;
	}
	for (size_t i = 0; v[i] != NULL; i++)
		if (!ls_load_index_known(v[i])) {
			fprintf(stderr, "%s: Unknown load index name\n", v[i]);
			return NULL;
		}
	return g_steal_pointer(&v);
}
#endif

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) ops = NULL;
	g_auto(GStrv) indices = NULL;
	Basalt__HostQuery q = BASALT__HOST_QUERY__INIT;
	Basalt__HostList *hl;
	const char *v[O_N] = { NULL };
	gboolean wide, lng;
#if LS_CMD == 3
	guint64 max_hosts = G_MAXUINT64;
#endif
	int code = CMD_EXIT_OK;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	ops = cmd_main_opts(PROG, argc, argv, opts, v, USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	wide = v[O_W] != NULL;
	lng = v[O_L] != NULL;
	if (wide && lng) {
		fprintf(stderr, PROG ": -w and -l cannot be used together\n"
		    "Usage: %s\n", USAGE);
		return CMD_EXIT_FAIL;
	}
	if (v[O_S] != NULL) {
		/* Basalt defines no shared resources (no ResourceMap in
		 * lsf.cluster): nothing for -s to list, as bhosts -s. */
		fprintf(stderr, "No resource found\n");
		return CMD_EXIT_FAIL;
	}
#if LS_CMD == 3
	if (v[O_I] != NULL && (indices = index_list(v[O_I])) == NULL)
		return CMD_EXIT_FAIL;
	if (v[O_NUM] != NULL && (!cmd_parse_uint(v[O_NUM], &max_hosts) ||
	    max_hosts == 0)) {
		fprintf(stderr, PROG ": -n needs a positive number of hosts, "
		    "not '%s'\nUsage: %s\n", v[O_NUM], USAGE);
		return CMD_EXIT_FAIL;
	}
#endif
#if LS_CMD == 1
	Basalt__ClusterInfoRequest cq = BASALT__CLUSTER_INFO_REQUEST__INIT;
	Basalt__ClustersRequest rq = BASALT__CLUSTERS_REQUEST__INIT;
	Basalt__ClusterInfo *c = (Basalt__ClusterInfo *)cmd_main_call(LSB_CLUSTER,
	    &cq.base);
	Basalt__ClustersReply *rc;

	if (c == NULL)
		return CMD_EXIT_FAIL;
	/* MultiCluster: the other clusters this master links to. */
	rc = (Basalt__ClustersReply *)cmd_main_call(LSB_CLUSTERS, &rq.base);
	if (rc == NULL) {
		basalt__cluster_info__free_unpacked(c, NULL);
		return CMD_EXIT_FAIL;
	}
	for (size_t i = 0; ops[i] != NULL; i++) {
		gboolean known = strcmp(ops[i], c->cluster_name) == 0;

		for (size_t k = 0; !known && k < rc->n_links; k++)
			known = strcmp(ops[i], rc->links[k]->cluster_name) == 0;
		if (!known) {
			fprintf(stderr, "%s: Cluster name not found\n", ops[i]);
			basalt__cluster_info__free_unpacked(c, NULL);
			basalt__clusters_reply__free_unpacked(rc, NULL);
			return CMD_EXIT_FAIL;
		}
	}
#else
	q.names = ops;
	q.n_names = g_strv_length(ops);
	/* mbatchd keeps the hosts that satisfy it, as for bhosts -R. */
	q.res_req = (char *)(v[O_R] != NULL ? v[O_R] : "");
#endif
	hl = (Basalt__HostList *)cmd_main_call(LSB_HOSTS, &q.base);
	if (hl == NULL)
		code = CMD_EXIT_FAIL;
	else if (cmd_main_refused(PROG, hl->error))
		code = CMD_EXIT_FAIL;
#if LS_CMD != 1
	else if (hl->n_hosts == 0 && v[O_R] != NULL) {
		fprintf(stderr, PROG ": No matching host found\n");
		code = CMD_EXIT_FAIL;
	}
#endif
	else {
#if LS_CMD == 1
		if (ops[0] == NULL || g_strv_contains((const char *const *)ops,
		    c->cluster_name))
			ls_format_clusters(out, c, hl, wide, lng);
		else if (!lng)
			ls_format_clusters_head(out);
		for (size_t k = 0; k < rc->n_links; k++)
			if (ops[0] == NULL || g_strv_contains(
			    (const char *const *)ops, rc->links[k]->cluster_name))
				ls_format_remote_cluster(out, rc->links[k],
				    lng);
#elif LS_CMD == 2
		ls_format_hosts(out, hl, wide, lng);
#else
		/* -n: the first num_hosts of the listing. */
		Basalt__HostList view = *hl;

		view.n_hosts = (size_t)MIN((guint64)hl->n_hosts, max_hosts);
		ls_format_load(out, &view, wide, lng, indices);
#endif
		cmd_main_out(out);
	}
	if (hl != NULL)
		basalt__host_list__free_unpacked(hl, NULL);
#if LS_CMD == 1
	basalt__cluster_info__free_unpacked(c, NULL);
	basalt__clusters_reply__free_unpacked(rc, NULL);
#endif
	return code;
}
