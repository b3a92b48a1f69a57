#!/bin/sh
# Submit-to-start latency on an idle one-host cluster.
#
#   latency.median  median over 200 jobs   ms
#   latency.p99     99th percentile        ms
#
# One mbatchd, one real sbatchd (hostA).  Jobs go one at a time: each
# waits until the previous one is DONE, so every job finds the cluster
# idle.  For each job, bench/bs-stamp writes the time and execs bsub (t0:
# just before bsub starts); the job's command is bs-stamp too, writing t1
# as its first action.  t1 - t0 therefore includes the whole bsub process
# (start, lsf.conf, the round trip, mbatchd's journal sync), mbatchd's
# scheduling delay (a pass coalesces events for 2 ms), the dispatch commit,
# the start order, and sbatchd's launch: fork, bs-jobwrap, the job's shell
# and the exec of bs-stamp.  Both stamps are CLOCK_REALTIME on this machine.

set -u
. "$top_srcdir/tests/lib.sh"
# lib.sh cleans up on exit, INT and TERM; a reader that goes away (SIGPIPE)
# or a hang-up must not leave the daemons running either.
trap 'exit 1' HUP PIPE

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	N=5
else
	N=200
fi

STAMP=$top_builddir/bench/bs-stamp
[ -x "$STAMP" ] || make -C "$top_builddir" bench/bs-stamp >&2 || exit 1

make_cluster hostA
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd hostA || exit 1
BSUB=$(command -v bsub)
mkdir -p "$T/stamps"

i=0
while [ "$i" -lt "$N" ]; do
	"$STAMP" "$T/stamps/t0.$i" "$BSUB" -q normal -o /dev/null \
		"$STAMP $T/stamps/t1.$i" >"$T/bsub.out" 2>&1 || {
		cat "$T/bsub.out" >&2
		exit 1
	}
	id=$(job_id_of <"$T/bsub.out")
	[ -n "$id" ] || { cat "$T/bsub.out" >&2; exit 1; }
	wait_for 30 state_is "$id" DONE || {
		echo "job $id did not finish: $(job_state "$id")" >&2
		exit 1
	}
	[ -s "$T/stamps/t1.$i" ] || { echo "job $id wrote no stamp" >&2; exit 1; }
	i=$((i + 1))
done

i=0
while [ "$i" -lt "$N" ]; do
	echo "$(cat "$T/stamps/t0.$i") $(cat "$T/stamps/t1.$i")"
	i=$((i + 1))
done | awk '{ print ($2 - $1) / 1e6 }' | sort -n >"$T/lat.ms"

awk '{ v[NR] = $1 }
END {
	n = NR
	med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	# p99: the smallest value with at least 99% of the values at or below.
	k = int(n * 0.99); if (k < n * 0.99) k++; if (k < 1) k = 1
	printf "result\tlatency.median\t%.3f\tms\n", med
	printf "result\tlatency.p99\t%.3f\tms\n", v[k]
	printf "min %.3f max %.3f ms over %d jobs\n", v[1], v[n], n > "/dev/stderr"
}' "$T/lat.ms"
