#!/bin/sh
# preview-cost: what `bconsumers -at` costs the master (mbd-preview-cache.c).
# Two virtual hosts of 4 slots, two consumers flooded with BENCH_JOBS jobs
# each, a plan with a TIME_WINDOW of 10:00-11:00: the first ask for 10:30
# runs a scheduling pass over every pending job; the asks that follow in
# the same scheduling cycle for a time with the same plans in force
# (10:45) are answered from the cache, at the cost of a plain
# `bconsumers`, which is timed last for comparison.  The times include the
# commands' own start.  Not part of `make check`.
#
#   bench/preview-cost.sh [BUILDDIR]     (default: the current directory)
set -u

build=$(cd "${1:-.}" && pwd)
top_builddir=$build
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
export top_builddir top_srcdir
. "$top_srcdir/tests/lib.sh"

n=${BENCH_JOBS:-2000}
BS_MXJ=4
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
{
	printf 'Begin ResourceGroup\nNAME  = rg1\nHOSTS = all\nEnd ResourceGroup\n\n'
	printf 'Begin Consumer\nNAME = /a\nEnd Consumer\n\nBegin Consumer\nNAME = /b\nEnd Consumer\n\n'
	printf 'Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER  OWNED\n/a        6\n/b        2\nEnd Plan\n\n'
	printf 'Begin Plan\nRESOURCE_GROUP = rg1\nTIME_WINDOW = 10:00-11:00\n'
	printf 'CONSUMER  OWNED\n/a        2\n/b        6\nEnd Plan\n'
} >"$lsb/lsb.consumers"
consumer_queues a b
start_mbd || exit 1
for h in vh1 vh2; do start_sbd "$h" || exit 1; done
badmin qinact qa qb >/dev/null
submit_n qa "$n" && submit_n qb "$n" || exit 1
badmin qact qa qb >/dev/null
eight_run() { [ "$(bjobs -r -u all -noheader 2>/dev/null | wc -l)" -eq 8 ]; }
wait_for 60 eight_run || exit 1
ms() { echo $(( ($2 - $1) / 1000000 )); }
t0=$(date +%s%N); bconsumers -at 10:30 >/dev/null; t1=$(date +%s%N)
echo "first bconsumers -at (a pass over $((2 * n - 8)) pending jobs): $(ms "$t0" "$t1") ms"
t0=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do bconsumers -at 10:45 >/dev/null; done
t1=$(date +%s%N)
echo "10 more, same plans in force (the cache): $(( $(ms "$t0" "$t1") / 10 )) ms each"
t0=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do bconsumers >/dev/null; done
t1=$(date +%s%N)
echo "10 plain bconsumers: $(( $(ms "$t0" "$t1") / 10 )) ms each"
bkill -u all 0 >/dev/null 2>&1
