#!/bin/sh
# Figure sched.cycle / sched.decisions: one full scheduling cycle of the
# real policy code (mbatchd/sched), in-process, over a simulated cluster of
# 10,000 hosts, 50 queues and 100,000 pending jobs (bench/sched-cycle-bench.c).
# One invocation = one run: the median of a few cycles on the same snapshot.
# BENCH_SMOKE=1: a tiny cluster, only to show the program still works.
set -e
: "${top_builddir:?top_builddir must be set}"
bin="$top_builddir/bench/sched-cycle-bench"
if [ ! -x "$bin" ]; then
	make -C "$top_builddir" bench/sched-cycle-bench >&2
fi
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	exec "$bin" --smoke
fi
exec "$bin" --runs 3
