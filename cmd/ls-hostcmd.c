/*
 * lsclusters, lshosts and lsload: one program body, three layouts.  Each
 * asks mbatchd for its hosts (and lsclusters for the cluster, and for the
 * other clusters its MultiCluster links reach, too) and
 * prints them as LSF's LIM-based command does (ls-format.c).  The three
 * programs are this file built with LS_CMD set to which one it is.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "ls-format.h"

enum { F_WIDE = 1, F_LONG = 2 };
static const char *const flags[] = { "-w", "-l", NULL };

#if LS_CMD == 1
#define PROG "lsclusters"
#define USAGE "lsclusters [-h] [-V] [-w | -l] [cluster_name ...]"
#elif LS_CMD == 2
#define PROG "lshosts"
#define USAGE "lshosts [-h] [-V] [-w | -l] [host_name ... | host_group ...]"
#else
#define PROG "lsload"
#define USAGE "lsload [-h] [-V] [-w | -l] [host_name ... | host_group ...]"
#endif

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) ops = NULL;
	Basalt__HostQuery q = BASALT__HOST_QUERY__INIT;
	Basalt__HostList *hl;
	guint seen;
	int code = CMD_EXIT_OK;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	ops = cmd_main_flags(PROG, argc, argv, flags, &seen, USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	if ((seen & F_WIDE) && (seen & F_LONG)) {
		fprintf(stderr, PROG ": -w and -l cannot be used together\n"
		    "Usage: %s\n", USAGE);
		return CMD_EXIT_FAIL;
	}
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
#endif
	hl = (Basalt__HostList *)cmd_main_call(LSB_HOSTS, &q.base);
	if (hl == NULL)
		code = CMD_EXIT_FAIL;
	else if (cmd_main_refused(PROG, hl->error))
		code = CMD_EXIT_FAIL;
	else {
#if LS_CMD == 1
		if (ops[0] == NULL || g_strv_contains((const char *const *)ops,
		    c->cluster_name))
			ls_format_clusters(out, c, hl, seen & F_WIDE, seen & F_LONG);
		else if (!(seen & F_LONG))
			ls_format_clusters_head(out);
		for (size_t k = 0; k < rc->n_links; k++)
			if (ops[0] == NULL || g_strv_contains(
			    (const char *const *)ops, rc->links[k]->cluster_name))
				ls_format_remote_cluster(out, rc->links[k],
				    seen & F_LONG);
#elif LS_CMD == 2
		ls_format_hosts(out, hl, seen & F_WIDE, seen & F_LONG);
#else
		ls_format_load(out, hl, seen & F_WIDE, seen & F_LONG);
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
