#!/bin/sh
# Figure sched.cycle_plans / sched.decisions_plans: the scheduling cycle
# of fig/sched.sh with an lsb.consumers resource plan of 200 consumers in
# three levels over all 10,000 hosts (--consumers 200, stage-hybrid.c).
# BENCH_SMOKE=1: a tiny cluster, only to show the program still works.
set -e
: "${top_builddir:?top_builddir must be set}"
bin="$top_builddir/bench/sched-cycle-bench"
if [ ! -x "$bin" ]; then
	make -C "$top_builddir" bench/sched-cycle-bench >&2
fi
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	exec "$bin" --smoke --consumers 20
fi
exec "$bin" --runs 3 --consumers 200
