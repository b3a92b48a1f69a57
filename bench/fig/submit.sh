#!/bin/sh
# Submission rate, measured against the machine's own floor (see the
# figure contract in bench/README.md).
#
#   submit.seq       2,000 `bsub` processes, one after another    jobs/s
#   submit.par2      the same 2,000 from 2 parallel loops of 1,000 jobs/s
#   floor.true.seq   the same loop shape starting /bin/true        runs/s
#   floor.true.par2  same, 2 parallel loops                         runs/s
#   submit.array10k  one bsub of a 10,000-element array, until it
#                    returns (mbatchd has journaled and answered)   s
#
# Setup: one mbatchd and no sbatchd at all.  The cluster declares one host
# but nobody registers it, so every job stays pending: what is measured is
# submission alone (the bsub process, the round trip, mbatchd's commit and
# its scheduling passes over the pending jobs), with no job processes
# competing for the cores.  The loops are plain sh `while` loops so the
# floor and the figure pay the same loop overhead; the floor starts
# /bin/true with the same arguments bsub would get, so argv handling costs
# the same.
#
# Afterwards the script checks that mbatchd really holds every job: a bsub
# that failed fast must not produce a fast figure.

set -u
. "$top_srcdir/tests/lib.sh"
# lib.sh cleans up on exit, INT and TERM; a reader that goes away (SIGPIPE)
# or a hang-up must not leave the daemons running either.
trap 'exit 1' HUP PIPE

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	N=40
	ARRAY=100
else
	N=2000
	ARRAY=10000
fi
HALF=$((N / 2))

now_ns() { date +%s%N; }

# rate COUNT START_NS END_NS: COUNT per second, one decimal.
rate() {
	awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / ((b - a) / 1e9) }'
}

# loop COUNT PROGRAM ARGS...: run the program COUNT times, one after
# another; fail on the first failure.
loop() {
	count=$1
	shift
	i=0
	while [ "$i" -lt "$count" ]; do
		"$@" >/dev/null || return 1
		i=$((i + 1))
	done
}

# count_pending: how many pending jobs mbatchd holds (array elements
# counted one by one), asked 1 page at a time through bjobs' paging.
count_pending() {
	bjobs -u all -p -noheader -o "jobid" 2>/dev/null | wc -l
}

make_cluster hostA
# Logging at LOG_INFO writes a line per submission; a production mbatchd
# logs at the default mask.
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
# LSF's default MAX_JOB_ARRAY_SIZE is 1000; the figure needs 10,000.
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = '"$ARRAY"'\nEnd Parameters/' \
	"$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1
BSUB=$(command -v bsub)

# The floor, then the figure, each sequential then parallel.
t0=$(now_ns)
loop "$N" /bin/true -q normal true || exit 1
t1=$(now_ns)
echo "result	floor.true.seq	$(rate "$N" "$t0" "$t1")	runs/s"

t0=$(now_ns)
loop "$HALF" /bin/true -q normal true &
p1=$!
loop "$HALF" /bin/true -q normal true &
p2=$!
track "$p1"
track "$p2"
wait "$p1" && wait "$p2" || exit 1
t1=$(now_ns)
echo "result	floor.true.par2	$(rate $((HALF * 2)) "$t0" "$t1")	runs/s"

t0=$(now_ns)
loop "$N" "$BSUB" -q normal true || { echo "a bsub failed" >&2; exit 1; }
t1=$(now_ns)
seq_rate=$(rate "$N" "$t0" "$t1")

t0=$(now_ns)
loop "$HALF" "$BSUB" -q normal true &
p1=$!
loop "$HALF" "$BSUB" -q normal true &
p2=$!
track "$p1"
track "$p2"
wait "$p1" && wait "$p2" || { echo "a bsub failed" >&2; exit 1; }
t1=$(now_ns)
par_rate=$(rate $((HALF * 2)) "$t0" "$t1")

want=$((N + HALF * 2))
got=$(count_pending)
if [ "$got" -ne "$want" ]; then
	echo "mbatchd holds $got pending jobs, expected $want" >&2
	exit 1
fi
echo "result	submit.seq	$seq_rate	jobs/s"
echo "result	submit.par2	$par_rate	jobs/s"

# The array: one bsub, timed until it returns.
t0=$(now_ns)
bsub -q normal -J "a[1-$ARRAY]" true >"$T/array.out" || exit 1
t1=$(now_ns)
id=$(job_id_of <"$T/array.out")
[ -n "$id" ] || { echo "no job id from bsub" >&2; exit 1; }
got=$(bjobs -p -noheader -o "jobid" "$id" 2>/dev/null | wc -l)
if [ "$got" -ne "$ARRAY" ]; then
	echo "array $id has $got pending elements, expected $ARRAY" >&2
	exit 1
fi
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "result\tsubmit.array10k\t%.3f\ts\n", (b - a) / 1e9 }'
