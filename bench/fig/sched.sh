#!/bin/sh
# Figure sched.cycle / sched.decisions: one full scheduling cycle of the
# real policy code (mbatchd/sched), in-process, over a simulated cluster of
# 10,000 hosts, 50 queues and 100,000 pending jobs (bench/sched-cycle-bench.c).
# One invocation = one run: the median of a few cycles on the same snapshot.
set -e
: "${top_srcdir:?top_srcdir must be set}"
. "$top_srcdir/bench/fig/sched-lib.sh"
cycle_bench "--smoke" "--runs 3"
