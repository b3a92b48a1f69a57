/*
 * bgadd, bgmod and bgdel: one program under three names (the name it is
 * run as picks the action), since all three send one JobGroupRequest and
 * print mbatchd's lines.  Paths are checked and normalized here so a typo
 * fails before anything is sent; mbatchd checks them again.
 *
 *   bgadd [-L limit] job_group_name
 *   bgmod [-L limit | -Ln] job_group_name
 *   bgdel [-u user_name | -u all] job_group_name | 0
 *   bgdel -c job_group_name
 *
 * Service classes (-sla, bgadd/bgmod) and idle-time deletion (bgdel -d)
 * do not exist in Basalt: they are refused with a message, so a script
 * that relies on them fails loudly.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "job/jobgroup.h"

#define ACT(a) BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_##a

static const char *prog = "bgadd";

static const char *
usage_text(void)
{
	if (strcmp(prog, "bgmod") == 0)
		return "bgmod [-L limit | -Ln] job_group_name\n       bgmod -h | -V";
	if (strcmp(prog, "bgdel") == 0)
		return "bgdel [-u user_name | -u all] job_group_name | 0\n"
		    "       bgdel -c job_group_name\n       bgdel -h | -V";
	return "bgadd [-L limit] job_group_name\n       bgadd -h | -V";
}

static int
usage_fail(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "%s: %s\n", prog, why);
	fprintf(stderr, "Usage: %s\n", usage_text());
	return CMD_EXIT_FAIL;
}

static gboolean
parse_limit(const char *v, gint32 *out)
{
	guint64 n;

	if (!cmd_parse_uint(v, &n) || n > G_MAXINT32)
		return FALSE;
	*out = (gint32)n;
	return TRUE;
}

int
main(int argc, char **argv)
{
	Basalt__JobGroupRequest q = BASALT__JOB_GROUP_REQUEST__INIT;
	Basalt__JobGroupReply *r;
	const char *name = NULL;
	g_autofree char *base = g_path_get_basename(argv[0]);
	g_autofree char *norm = NULL;
	g_autoptr(GError) err = NULL;
	int code;

	if (strcmp(base, "bgmod") == 0 || strcmp(base, "bgdel") == 0)
		prog = strcmp(base, "bgmod") == 0 ? "bgmod" : "bgdel";
	if (cmd_main_hv(argc, argv, usage_text(), &code))
		return code;
	q.action = strcmp(prog, "bgadd") == 0 ? ACT(ADD) :
	    strcmp(prog, "bgmod") == 0 ? ACT(MODIFY) : ACT(DELETE);
	q.limit = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-L") == 0 && q.action != ACT(DELETE)) {
			if (i + 1 >= argc || !parse_limit(argv[++i], &q.limit))
				return usage_fail("-L: the limit is a number from "
				    "0 to 2147483647");
			q.set_limit = TRUE;
		} else if (strcmp(a, "-Ln") == 0 && q.action == ACT(MODIFY)) {
			q.limit = -1;
			q.set_limit = TRUE;
		} else if (strcmp(a, "-sla") == 0 && q.action != ACT(DELETE)) {
			fprintf(stderr, "%s: -sla: service classes are not "
			    "supported\n", prog);
			return CMD_EXIT_FAIL;
		} else if (strcmp(a, "-d") == 0 && q.action == ACT(DELETE)) {
			fprintf(stderr, "%s: -d: deleting groups by idle time "
			    "is not supported\n", prog);
			return CMD_EXIT_FAIL;
		} else if (strcmp(a, "-u") == 0 && q.action == ACT(DELETE) &&
		    i + 1 < argc) {
			q.owner = argv[++i];
		} else if (strcmp(a, "-c") == 0 && q.action == ACT(DELETE)) {
			q.empty_below = TRUE;
		} else if (a[0] != '-' && name == NULL) {
			name = a;
		} else {
			return usage_fail(NULL);
		}
	}
	if (name == NULL && q.owner == NULL)
		return usage_fail("a job group name is required");
	if (q.action == ACT(DELETE) && !q.empty_below &&
	    (name == NULL || strcmp(name, "0") == 0)) {
		q.clean_all = TRUE;
	} else if (name == NULL) {
		return usage_fail("a job group name is required");
	} else if (!bs_jobgroup_normalize(name, &norm, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err->message);
		return CMD_EXIT_FAIL;
	} else {
		q.path = norm;
		/* LSF: a name given with -u wins over it. */
		if (q.action == ACT(DELETE) && !q.empty_below)
			q.owner = NULL;
	}
	if (q.action == ACT(MODIFY) && !q.set_limit)
		return usage_fail("give -L limit or -Ln");
	r = (Basalt__JobGroupReply *)cmd_main_call(LSB_JOB_GROUP_CONTROL,
	    &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	for (size_t i = 0; i < r->n_messages; i++)
		printf("%s\n", r->messages[i]);
	if (cmd_main_refused(prog, r->error)) {
		basalt__job_group_reply__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	basalt__job_group_reply__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}
