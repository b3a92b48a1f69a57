#!/bin/sh
# Figure sched.cycle_1m / sched.decisions_1m: the cycle of fig/sched.sh at
# ten times the scale, 1,000,000 pending jobs over 50,000 hosts (same 50
# queues and 1,000 users): what grows faster than the cluster shows here.
# Generating the snapshot takes a few seconds and ~450 MB, so one
# invocation times one cycle; make bench takes the median of its runs.
# BENCH_SMOKE=1: a tiny cluster, only to show the program still works.
set -e
: "${top_builddir:?top_builddir must be set}"
bin="$top_builddir/bench/sched-cycle-bench"
if [ ! -x "$bin" ]; then
	make -C "$top_builddir" bench/sched-cycle-bench >&2
fi
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	exec "$bin" --smoke --suffix _1m
fi
exec "$bin" --runs 1 --pending 1000000 --hosts 50000 --suffix _1m
