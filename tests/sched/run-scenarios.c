/*
 * The policy scenarios in `make check`: every tests/sched/NAME.scn is one
 * TAP test case (the scheduler's plan against the file's expectations,
 * with the diff on failure), and every tests/sched/bad/NAME.scn must be refused
 * with the error its "# error: TEXT" line names, so bad input keeps
 * getting a clear "file:line: message".
 *
 * Usage: run-scenarios [DIR]; DIR defaults to $top_srcdir/tests/sched.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/scenario/scenario.h"

static GPtrArray *
list(const char *dir)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d != NULL && (n = g_dir_read_name(d)) != NULL)
		if (g_str_has_suffix(n, ".scn"))
			g_ptr_array_add(out, g_build_filename(dir, n, NULL));
	return out;
}

static gint
by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
diag(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++)
		if (*lines[i] != '\0')
			printf("# %s\n", lines[i]);
}

static gboolean
good(const char *path, guint n)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(Scenario) s = scn_load(path, &err);
	g_autoptr(GPtrArray) lines = NULL;
	g_autoptr(GString) report = g_string_new(NULL);
	g_autofree char *base = g_path_get_basename(path);
	SchedPlan *plan;
	gboolean ok;

	if (s == NULL) {
		printf("not ok %u - %s\n", n, base);
		diag(err->message);
		return FALSE;
	}
	if (s->expect->len == 0 && s->nothing_line == 0 && s->leases == NULL) {
		printf("not ok %u - %s: no expectations\n", n, base);
		return FALSE;
	}
	plan = sched_run(&s->snap);
	lines = scn_plan_lines(s, plan);
	ok = scn_check(s, lines, report);
	ok = scn_lease_run(s, report, NULL) && ok;
	ok = scn_reclaim_run(s, report, NULL) && ok;
	sched_plan_free(plan);
	printf("%s %u - %s: %s\n", ok ? "ok" : "not ok", n, base,
	    s->title != NULL ? s->title : "(no title)");
	if (!ok)
		diag(report->str);
	return ok;
}

/* The text after "# error: " in the file, or NULL. */
static char *
wanted_error(const char *path)
{
	g_autofree char *text = NULL;
	const char *p, *e;

	if (!g_file_get_contents(path, &text, NULL, NULL) ||
	    (p = strstr(text, "# error: ")) == NULL)
		return NULL;
	p += strlen("# error: ");
	e = strchr(p, '\n');
	return e != NULL ? g_strndup(p, (gsize)(e - p)) : g_strdup(p);
}

static gboolean
bad(const char *path, guint n)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(Scenario) s = scn_load(path, &err);
	g_autofree char *want = wanted_error(path);
	g_autofree char *base = g_path_get_basename(path);
	gboolean ok = s == NULL && want != NULL && strstr(err->message, want) != NULL;

	printf("%s %u - bad/%s is refused: %s\n", ok ? "ok" : "not ok", n, base,
	    want != NULL ? want : "(no # error: line)");
	if (!ok)
		diag(s == NULL ? err->message : "it loaded");
	return ok;
}

int
main(int argc, char **argv)
{
	const char *top = g_getenv("top_srcdir");
	g_autofree char *dir = argc > 1 ? g_strdup(argv[1]) :
	    g_build_filename(top != NULL ? top : ".", "tests", "sched", NULL);
	g_autofree char *bad_dir = g_build_filename(dir, "bad", NULL);
	g_autoptr(GPtrArray) goods = list(dir);
	g_autoptr(GPtrArray) bads = list(bad_dir);
	guint n = 0, failed = 0;

	g_ptr_array_sort(goods, by_name);
	g_ptr_array_sort(bads, by_name);
	if (goods->len == 0) {
		printf("1..0 # SKIP no scenarios in %s\n", dir);
		return 1;
	}
	printf("1..%u\n", goods->len + bads->len);
	for (guint i = 0; i < goods->len; i++)
		failed += !good(g_ptr_array_index(goods, i), ++n);
	for (guint i = 0; i < bads->len; i++)
		failed += !bad(g_ptr_array_index(bads, i), ++n);
	return failed > 0;
}
