/*
 * bclusters: the MultiCluster view of this cluster, in LSF's layout: the
 * "[Job Forwarding Information ]" section (queues with SNDJOBS_TO or
 * RCVJOBS_FROM and the status of their cluster's link) and the
 * "[Resource Lease Information ]" section (one row per remote cluster we
 * lease to or from).  -app lists the application profiles each remote
 * cluster said it has; -w does not cut long names; -l (Basalt's) shows
 * every remote cluster of lsf.shared with its link: status and since when,
 * master, address, who dials, links made, the last error, the next dial.
 *
 * Any user may run it: LSF shows the same to everyone.  The layouts are
 * in bclusters-format.c.
 */
#include "config.h"

#include "bclusters-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BCLUSTERS_USAGE "bclusters [-h] [-V] [-app] [-w] [-l]"

enum { OPT_APP = 1 << 0, OPT_W = 1 << 1, OPT_L = 1 << 2 };

static const char *const flags[] = { "-app", "-w", "-l", NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) ops = NULL;
	Basalt__ClustersRequest q = BASALT__CLUSTERS_REQUEST__INIT;
	Basalt__ClustersReply *r;
	guint seen = 0;
	int code;
	CmdFit fit;

	if (cmd_main_hv(argc, argv, BCLUSTERS_USAGE, &code))
		return code;
	ops = cmd_main_flags("bclusters", argc, argv, flags, &seen,
	    BCLUSTERS_USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	if (ops[0] != NULL) {
		g_string_append_printf(out, "bclusters: extra argument %s\n"
		    "Usage: %s\n", ops[0], BCLUSTERS_USAGE);
		cmd_main_err(out);
		return CMD_EXIT_FAIL;
	}
	r = (Basalt__ClustersReply *)cmd_main_call(LSB_CLUSTERS, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused("bclusters", r->error)) {
		basalt__clusters_reply__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	fit = (seen & OPT_W) ? CMD_FIT_WIDE : CMD_FIT_HEAD;
	if (seen & OPT_L) {
		bclusters_format_long(out, r);
	} else if (seen & OPT_APP) {
		bclusters_format_apps(out, r, fit);
	} else {
		bclusters_format_forwarding(out, r, fit);
		g_string_append_c(out, '\n');
		bclusters_format_leases(out, r, fit);
	}
	cmd_main_out(out);
	basalt__clusters_reply__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}
