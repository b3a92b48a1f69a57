#!/bin/sh
# Figure sched.cycle_limits / sched.decisions_limits: the scheduling cycle
# of fig/sched.sh with 8 lsb.resources Limit sections switched on, one of
# each kind bench/sched-cycle-bench.c generates (--limits 8).
set -e
: "${top_srcdir:?top_srcdir must be set}"
. "$top_srcdir/bench/fig/sched-lib.sh"
cycle_bench "--smoke --limits 8" "--runs 3 --limits 8"
