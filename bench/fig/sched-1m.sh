#!/bin/sh
# Figure sched.cycle_1m / sched.decisions_1m: the cycle of fig/sched.sh at
# ten times the scale, 1,000,000 pending jobs over 50,000 hosts (same 50
# queues and 1,000 users): what grows faster than the cluster shows here.
# Generating the snapshot takes a few seconds and ~450 MB, so one
# invocation times one cycle; make bench takes the median of its runs.
set -e
: "${top_srcdir:?top_srcdir must be set}"
. "$top_srcdir/bench/fig/sched-lib.sh"
cycle_bench "--smoke --suffix _1m" "--runs 1 --pending 1000000 --hosts 50000 --suffix _1m"
