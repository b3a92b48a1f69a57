/* Timing of scheduler passes for the benchmarks (bench-pass.h). */
#include "config.h"

#include <stdlib.h>

#include "bench-pass.h"

int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

SchedPlan *
bench_passes(const SchedSnapshot *snap, int runs, BenchPassTimes *t)
{
	double *ms = g_new(double, MAX(runs, 1));
	SchedPlan *plan = NULL;

	for (int i = 0; i < MAX(runs, 1); i++) {
		gint64 t0 = g_get_monotonic_time();

		if (plan != NULL)
			sched_plan_free(plan);
		plan = sched_run(snap);
		ms[i] = (double)(g_get_monotonic_time() - t0) / 1000.0;
	}
	qsort(ms, (size_t)MAX(runs, 1), sizeof ms[0], bench_cmp_double);
	t->median_ms = ms[MAX(runs, 1) / 2];
	t->best_ms = ms[0];
	g_free(ms);
	return plan;
}
