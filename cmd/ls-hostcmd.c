/*
 * lsclusters, lshosts and lsload: one program body, three layouts.  Each
 * asks mbatchd for its hosts (and lsclusters for the cluster too) and
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
	Basalt__ClusterInfo *c = (Basalt__ClusterInfo *)cmd_main_call(LSB_CLUSTER,
	    &cq.base);

	if (c == NULL)
		return CMD_EXIT_FAIL;
	for (size_t i = 0; ops[i] != NULL; i++)
		if (strcmp(ops[i], c->cluster_name) != 0) {
			fprintf(stderr, "%s: Cluster name not found\n", ops[i]);
			basalt__cluster_info__free_unpacked(c, NULL);
			return CMD_EXIT_FAIL;
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
		ls_format_clusters(out, c, hl, seen & F_WIDE, seen & F_LONG);
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
#endif
	return code;
}
