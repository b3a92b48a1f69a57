/*
 * bjgroup [-N] [-s] [-w] [job_group_name]: LSF's job group listing
 * (BatchService JobGroups).  Counts cover each group's whole subtree, as
 * mbatchd computes them.  Without -s the groups come level by level (all
 * top-level groups, then their children), with -s in hierarchy order; a
 * name lists that group and its subgroups, a name ending in '/' that
 * group alone.  -N counts slots instead of jobs.  -w prints names whole.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "job/jobgroup.h"

#define USAGE "bjgroup [-N] [-s] [-w] [job_group_name]\n       bjgroup -h | -V"

static int
usage_fail(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "bjgroup: %s\n", why);
	fprintf(stderr, "Usage: %s\n", USAGE);
	return CMD_EXIT_FAIL;
}

/* Component by component, so "/A/B" comes right after "/A" (before "/AB"). */
static gint
by_hierarchy(gconstpointer a, gconstpointer b)
{
	const char *x = (*(Basalt__JobGroupInfo *const *)a)->path;
	const char *y = (*(Basalt__JobGroupInfo *const *)b)->path;

	for (; *x && *x == *y; x++, y++)
		;
	if (*x == *y)
		return 0;
	if (*x == '/' || *x == '\0')
		return *x == '\0' ? -1 : (*y == '\0' ? 1 : -1);
	if (*y == '/' || *y == '\0')
		return 1;
	return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
}

static const char *
shown(const char *s, gboolean wide, int width, char *buf, size_t n)
{
	if (wide || (int)strlen(s) <= width)
		return s;
	g_snprintf(buf, n, "%.*s*", width - 1, s);
	return buf;
}

static void
print_jobs(const Basalt__JobGroupInfo *g, gboolean wide)
{
	char nb[64], ob[64], lim[32];

	if (g->limit >= 0)
		g_snprintf(lim, sizeof lim, "%u/%d", g->started, g->limit);
	else
		g_snprintf(lim, sizeof lim, "%u/-", g->started);
	printf("%-18s %-7u %-7u %-6u %-6u %-6u %-7u %-5s %7s  %s\n",
	    shown(g->path, wide, 18, nb, sizeof nb), g->njobs, g->pend, g->run,
	    g->ssusp, g->ususp, g->finish, "()", lim,
	    shown(g->owner, wide, 10, ob, sizeof ob));
}

static void
print_slots(const Basalt__JobGroupInfo *g, gboolean wide)
{
	char nb[64], ob[64];

	printf("%-18s %-7u %-7u %-6u %-6u %-6u %-6u %-5s %s\n",
	    shown(g->path, wide, 18, nb, sizeof nb), g->nslots, g->pend_slots,
	    g->run_slots, g->ssusp_slots, g->ususp_slots, g->rsv_slots, "()",
	    shown(g->owner, wide, 10, ob, sizeof ob));
}

int
main(int argc, char **argv)
{
	Basalt__JobGroupQuery q = BASALT__JOB_GROUP_QUERY__INIT;
	Basalt__JobGroupList *r;
	gboolean slots = FALSE, sorted = FALSE, wide = FALSE;
	const char *name = NULL;
	g_autofree char *norm = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) list = g_ptr_array_new();
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-N") == 0)
			slots = TRUE;
		else if (strcmp(argv[i], "-s") == 0)
			sorted = TRUE;
		else if (strcmp(argv[i], "-w") == 0)
			wide = TRUE;
		else if (argv[i][0] != '-' && name == NULL)
			name = argv[i];
		else
			return usage_fail(NULL);
	}
	if (name != NULL) {
		if (!bs_jobgroup_normalize(name, &norm, &err)) {
			fprintf(stderr, "bjgroup: %s\n", err->message);
			return CMD_EXIT_FAIL;
		}
		q.path = norm;
		q.top_only = strlen(name) > 1 && name[strlen(name) - 1] == '/';
	}
	r = (Basalt__JobGroupList *)cmd_main_call(LSB_JOB_GROUPS, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused("bjgroup", r->error)) {
		basalt__job_group_list__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	if (r->n_groups == 0) {
		printf("No job group found\n");
		basalt__job_group_list__free_unpacked(r, NULL);
		return CMD_EXIT_OK;
	}
	for (size_t i = 0; i < r->n_groups; i++)
		g_ptr_array_add(list, r->groups[i]);
	if (sorted)
		g_ptr_array_sort(list, by_hierarchy);
	if (slots)
		printf("GROUP_NAME         NSLOTS  PEND    RUN    SSUSP  USUSP  "
		    "RSV    SLA   OWNER\n");
	else
		printf("GROUP_NAME         NJOBS   PEND    RUN    SSUSP  USUSP  "
		    "FINISH  SLA    JLIMIT  OWNER\n");
	for (guint i = 0; i < list->len; i++) {
		if (slots)
			print_slots(list->pdata[i], wide);
		else
			print_jobs(list->pdata[i], wide);
	}
	basalt__job_group_list__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}
