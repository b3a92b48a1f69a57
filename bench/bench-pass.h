/*
 * Timing of scheduler passes, shared by the in-process scheduling
 * benchmarks (sched-pool-bench, sched-jobgroup-bench,
 * sched-preempt-bench): the same pass run several times on one snapshot,
 * reported as the median and the best, so each program says only what
 * it builds and what it counts.
 */
#ifndef BS_BENCH_PASS_H
#define BS_BENCH_PASS_H

#include "mbatchd/sched/sched.h"

typedef struct {
	double median_ms;
	double best_ms;
} BenchPassTimes;

/* qsort() order of doubles, ascending. */
int bench_cmp_double(const void *a, const void *b);
/* Run sched_run() `runs` times (at least 1) on snap; the last run's plan,
 * for the caller to count from and free. */
SchedPlan *bench_passes(const SchedSnapshot *snap, int runs, BenchPassTimes *t);

#endif
