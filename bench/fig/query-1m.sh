#!/bin/sh
# Figure query.bjobs_1m: wall time of `bjobs -u all` with 1,000,000 jobs
# in the system.
#
# One mbatchd and no sbatchd, so every job stays pending: the figure is
# about listing a million jobs, and the running ones of query.bjobs cost
# minutes of emulated hosts' setup that this size would multiply.  The
# jobs go in as 100 arrays of 10,000 elements, submitted by loadgen's
# client mode (4 users' connections): a million single submissions would
# take half an hour on a two-core machine, 100 arrays take seconds, and
# mbatchd holds each element as a job of its own all the same.  The
# output's line count is checked, so a broken command cannot make a fast
# wrong figure.  BENCH_SMOKE=1: 2 arrays of 50.
#
# Output: result<TAB>query.bjobs_1m<TAB>SECONDS<TAB>s
set -u
: "${top_builddir:?}" "${top_srcdir:?}"

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	NARRAYS=2
	ARRAY=50
else
	NARRAYS=100
	ARRAY=10000
fi
NJOBS=$((NARRAYS * ARRAY))
LOADGEN=$top_builddir/bench/loadgen

. "$top_srcdir/tests/lib.sh"

make_cluster hostA
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
# LSF's default MAX_JOB_ARRAY_SIZE is 1000.
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = '"$ARRAY"'\nEnd Parameters/' \
	"$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1

t0=$(date +%s%N)
# In the background and waited for, so a signal to this script is acted
# on (and loadgen stopped) at once.
"$LOADGEN" -c 4 -n "$NARRAYS" -- -J "q[1-$ARRAY]" -o /dev/null "sleep 3600" \
	>"$T/submit.out" 2>&1 &
track $!
wait $! || {
	echo "query-1m: loadgen failed: $(cat "$T/submit.out")" >&2
	exit 1
}
out=$(cat "$T/submit.out")
echo "query-1m: $out" >&2
case "$out" in
*"submitted: $NARRAYS jobs, 0 refused"*) ;;
*) echo "query-1m: not every array was accepted" >&2; exit 1 ;;
esac
echo "query-1m: $NJOBS jobs in after $((($(date +%s%N) - t0) / 1000000)) ms" >&2

# A header and one line per job.
s=$(date +%s%N)
bjobs -u all >"$T/bjobs.out" 2>"$T/bjobs.err" || {
	echo "query-1m: bjobs failed: $(head -n 3 "$T/bjobs.err")" >&2
	exit 1
}
e=$(date +%s%N)
n=$(wc -l <"$T/bjobs.out")
if [ "$n" -ne $((NJOBS + 1)) ]; then
	echo "query-1m: bjobs printed $n lines, expected $((NJOBS + 1))" >&2
	exit 1
fi
awk -v ns=$((e - s)) \
	'BEGIN { printf "result\tquery.bjobs_1m\t%.4f\ts\n", ns / 1e9 }'
