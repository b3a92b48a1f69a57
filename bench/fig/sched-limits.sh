#!/bin/sh
# Figure sched.cycle_limits / sched.decisions_limits: the scheduling cycle
# of fig/sched.sh with 8 lsb.resources Limit sections switched on, one of
# each kind bench/sched-cycle-bench.c generates (--limits 8).
# BENCH_SMOKE=1: a tiny cluster, only to show the program still works.
set -e
: "${top_builddir:?top_builddir must be set}"
bin="$top_builddir/bench/sched-cycle-bench"
if [ ! -x "$bin" ]; then
	make -C "$top_builddir" bench/sched-cycle-bench >&2
fi
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	exec "$bin" --smoke --limits 8
fi
exec "$bin" --runs 3 --limits 8
