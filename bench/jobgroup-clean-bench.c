/*
 * jobgroup-clean-bench: what JOB_GROUP_CLEAN's question "which groups
 * hold an unfinished job?" costs mbatchd's tick, asked by a walk over every
 * job (as the tick did each second before) and from the per-group counts
 * state_apply keeps (mbatchd/state/jobgroups.c).  Both run over the same
 * state, built through state_apply: 100,000 jobs (-j) in 1,110 implicit
 * groups three levels deep, half of them finished.  They must give the
 * same set; the program fails if they do not.  A tick with no change
 * since the last look does not ask at all (State.jobgroups_serial).
 *
 *   jobgroup-clean-bench [-j jobs] [-r runs]
 *
 * Prints "result jobgroup.busy_walk" and "result jobgroup.busy_counts",
 * median ms per question.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "job/jobgroup.h"
#include "mbatchd/state/state.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
apply(State *st, Basalt__Event *ev, guint64 *seq)
{
	GError *err = NULL;

	ev->seq = ++*seq;
	ev->time = 1000 + (gint64)*seq;
	if (!state_apply(st, ev, &err)) {
		fprintf(stderr, "jobgroup-clean-bench: %s\n", err->message);
		exit(1);
	}
}

/* The walk the tick made: every unfinished job's group and ancestors. */
static GHashTable *
busy_walk(const State *st)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal,
	    g_free, NULL);
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const char *path = job_spec(v)->job_group;
		char *p;

		if (job_is_finished(v) || path == NULL || *path == '\0')
			continue;
		for (p = g_strdup(path); p != NULL && !g_hash_table_contains(set, p);) {
			char *up = bs_jobgroup_parent(p);

			g_hash_table_add(set, p);
			p = up;
		}
		g_free(p);
	}
	return set;
}

static gboolean
same_set(GHashTable *a, GHashTable *b)
{
	GHashTableIter it;
	gpointer k;

	if (g_hash_table_size(a) != g_hash_table_size(b))
		return FALSE;
	g_hash_table_iter_init(&it, a);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (!g_hash_table_contains(b, k))
			return FALSE;
	return TRUE;
}

static int
by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median_ms(GHashTable *(*ask)(const State *), const State *st, guint runs,
    GHashTable **last)
{
	double *t = g_new(double, runs), med;

	for (guint r = 0; r < runs; r++) {
		double t0 = now_ms();
		GHashTable *set = ask(st);

		t[r] = now_ms() - t0;
		if (*last != NULL)
			g_hash_table_unref(*last);
		*last = set;
	}
	qsort(t, runs, sizeof *t, by_double);
	med = t[runs / 2];
	g_free(t);
	return med;
}

int
main(int argc, char **argv)
{
	guint n_jobs = 100000, runs = 11;
	State *st = state_new();
	guint64 seq = 0;
	GHashTable *walk = NULL, *counts = NULL;
	double t_walk, t_counts;
	gboolean same;
	int opt;

	while ((opt = getopt(argc, argv, "j:r:")) != -1) {
		switch (opt) {
		case 'j':
			n_jobs = (guint)MAX(1, atoi(optarg));
			break;
		case 'r':
			runs = (guint)MAX(1, atoi(optarg));
			break;
		default:
			fprintf(stderr, "usage: jobgroup-clean-bench [-j jobs] [-r runs]\n");
			return 2;
		}
	}
	for (guint i = 0; i < n_jobs; i++) {
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
		Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
		/* 10 x 10 x 10 leaves under 10 + 100 inner groups: 1,110. */
		guint leaf = i % 1000;
		g_autofree char *group = g_strdup_printf("/p%u/q%u/r%u", leaf / 100,
		    leaf / 10 % 10, leaf % 10);

		spec.command = "sleep 10";
		spec.job_group = group;
		e.job_id = i + 1;
		e.spec = &spec;
		e.user = "bench";
		e.queue = "normal";
		e.from_host = "h0";
		e.job_name = "";
		ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
		ev.job_new = &e;
		apply(st, &ev, &seq);
	}
	/* Half of them end; every job of the groups r0..r4 ends, so those
	 * groups are empty and only the others are busy. */
	for (guint i = 0; i < n_jobs; i++) {
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobStatus e = BASALT__EV_JOB_STATUS__INIT;

		if (i % 10 >= 5)
			continue;
		e.job_id = i + 1;
		e.state = JS_DONE;
		ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
		ev.job_status = &e;
		apply(st, &ev, &seq);
	}
	t_walk = median_ms(busy_walk, st, runs, &walk);
	t_counts = median_ms(state_jobgroups_busy, st, runs, &counts);
	same = same_set(walk, counts);
	fprintf(stderr, "  %u jobs in %u groups, %u busy: walk %.3f ms, counts "
	    "%.3f ms (%s)\n", n_jobs, g_hash_table_size(st->jobgroups),
	    g_hash_table_size(counts), t_walk, t_counts, same ? "same set" :
	    "SETS DIFFER");
	printf("result\tjobgroup.busy_walk\t%.3f\tms\n", t_walk);
	printf("result\tjobgroup.busy_counts\t%.3f\tms\n", t_counts);
	g_hash_table_unref(walk);
	g_hash_table_unref(counts);
	state_free(st);
	return same ? 0 : 1;
}
