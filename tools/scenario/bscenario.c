/*
 * bscenario(8): "what would the scheduler do here?" without a cluster.
 * Reads a policy scenario (basalt-scenario(5)), runs the scheduler over
 * it once, and prints the plan as `expect` lines an administrator can
 * paste back into the file; with -c, checks the file's expectations
 * instead and says what differs.
 *
 * Exit status: 0 done (and, with -c, every expectation met), 1 with -c
 * when some scenario's expectations are not met, 2 on bad input.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/scenario/scenario.h"

static void
usage(FILE *f)
{
	fputs("usage: bscenario [-c] [-a] FILE...\n"
	    "  Run the scheduler once over each policy scenario and print its plan\n"
	    "  as expect lines.\n"
	    "  -c  check the file's expectations; exit 1 if any is not met\n"
	    "  -a  print every pending job's reason and every queue's slots, not\n"
	    "      only those the file names\n"
	    "  -h  this help\n", f);
}

/* "pending 13" of "pending 13 \"...\"": what a keyed line is about. */
static gboolean
same_key(const char *a, const char *b)
{
	const char *sp = strchr(a, ' ');

	sp = sp != NULL ? strchr(sp + 1, ' ') : NULL;
	return sp != NULL && strncmp(a, b, (size_t)(sp - a + 1)) == 0;
}

/* Print the plan.  Pending reasons and slot counts only for what the file
 * names, unless all: the rest would bury the decisions. */
static void
print_plan(const Scenario *s, GPtrArray *lines, gboolean all)
{
	if (s->title != NULL)
		printf("# %s\n", s->title);
	for (guint i = 0; i < lines->len; i++) {
		const ScnLine *l = g_ptr_array_index(lines, i);
		gboolean named = all || (l->kind != SCN_PENDING && l->kind != SCN_SLOTS);

		for (guint k = 0; !named && k < s->expect->len; k++) {
			const ScnLine *e = g_ptr_array_index(s->expect, k);

			named = e->kind == l->kind && same_key(e->text, l->text);
		}
		if (named)
			printf("expect %s\n", l->text);
	}
}

static int
one(const char *path, gboolean check, gboolean all)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(Scenario) s = scn_load(path, &err);
	g_autoptr(GPtrArray) lines = NULL;
	g_autoptr(GString) report = g_string_new(NULL);
	SchedPlan *plan;
	gboolean ok = TRUE;

	if (s == NULL) {
		fprintf(stderr, "bscenario: %s\n", err->message);
		return 2;
	}
	plan = sched_run(&s->snap);
	lines = scn_plan_lines(s, plan);
	if (check) {
		ok = scn_check(s, lines, report);
		ok = scn_lease_run(s, report, NULL) && ok;
		ok = scn_reclaim_run(s, report, NULL) && ok;
		if (ok)
			printf("ok %s\n", path);
		else
			printf("FAIL %s%s%s\n%s", path, s->title != NULL ? ": " : "",
			    s->title != NULL ? s->title : "", report->str);
	} else {
		g_autoptr(GString) trace = g_string_new(NULL);

		print_plan(s, lines, all);
		if (!scn_lease_run(s, report, trace))
			fputs(report->str, stdout);
		(void)scn_reclaim_run(s, report, trace);
		fputs(trace->str, stdout);
	}
	sched_plan_free(plan);
	return ok ? 0 : 1;
}

int
main(int argc, char **argv)
{
	gboolean check = FALSE, all = FALSE;
	int i, worst = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		for (const char *c = argv[i] + 1; *c != '\0'; c++) {
			switch (*c) {
			case 'c': check = TRUE; break;
			case 'a': all = TRUE; break;
			case 'h': usage(stdout); return 0;
			default:
				fprintf(stderr, "bscenario: unknown option -%c\n", *c);
				usage(stderr);
				return 2;
			}
		}
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}
	for (; i < argc; i++) {
		int rc = one(argv[i], check, all);

		worst = MAX(worst, rc);
		if (!check && i + 1 < argc)
			putchar('\n');
	}
	return worst;
}
