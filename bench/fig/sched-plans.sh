#!/bin/sh
# Figure sched.cycle_plans / sched.decisions_plans: the scheduling cycle
# of fig/sched.sh with an lsb.consumers resource plan of 200 consumers in
# three levels over all 10,000 hosts (--consumers 200, stage-hybrid.c).
set -e
: "${top_srcdir:?top_srcdir must be set}"
. "$top_srcdir/bench/fig/sched-lib.sh"
cycle_bench "--smoke --consumers 20" "--runs 3 --consumers 200"
