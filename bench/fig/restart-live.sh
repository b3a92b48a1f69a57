#!/bin/sh
# Figure restart.live1m: seconds from the start of mbatchd to its first
# answered query when 1,000,000 jobs pend (BENCH_SMOKE=1: 10,000).
#
# The disk is the one such a site has: a checkpoint and the segment after
# it.  bench/journal-fill writes a history of 100,000 records that ends
# with users submitting until 1,000,000 jobs pend (-P); mbatchd is started
# on it once, untimed, and since its journal is past a segment it writes a
# checkpoint of the whole state at its first commit and opens a new
# segment, as it does in service; bench/loadgen then submits 2,000 more
# jobs (the tail: short, since submissions into a master holding a million
# pending jobs are slow) and mbatchd is stopped.  The clock runs
# from the second start to the first `bqueues` that answers, and the
# pending jobs bqueues counts must be every one of them.
#
# Run alone: top_builddir=... top_srcdir=... sh bench/fig/restart-live.sh
set -u
: "${top_builddir:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"

records=100000 backlog=1000000 tail=2000
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	records=1000 backlog=10000 tail=100
fi
nhosts=64

. "$top_srcdir/bench/fig/restart-lib.sh"

# The pending slots bqueues counts, summed over the queues (its table's
# counters run together past six digits, so the one field, -o).
pending() { bqueues -o pend -noheader 2>/dev/null | awk '{ n += $1 } END { print n + 0 }'; }

hosts=$(i=1; while [ $i -le $nhosts ]; do printf 'host%04d ' $i; i=$((i + 1)); done)
# shellcheck disable=SC2086
make_cluster $hosts
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_NOTICE/' "$T/conf/lsf.conf"
# The smoke journal is smaller than a default segment: a 1 MB one makes
# the checkpoint all the same.
[ "${BENCH_SMOKE:-0}" = 1 ] &&
	echo "LSB_JOURNAL_SEGMENT_MB=1" >>"$T/conf/lsf.conf"

t=$(now_ms)
"$top_builddir/bench/journal-fill" -d "$T/work/events" -n "$records" \
	-P "$backlog" -H "$nhosts" >"$T/expect" || exit 1
echo "restart-live: journal-fill in $(($(now_ms) - t)) ms: $(sed -n 2p "$T/expect")," \
	"$(du -sh "$T/work/events" | cut -f1)" >&2

t=$(now_ms)
start_mbd || exit 1
wait_for 600 bqueues >/dev/null 2>&1 || { echo "restart-live: no answer" >&2; exit 1; }
wait_for 600 sh -c "ls '$T/work/events' | grep -q '^snapshot'" || {
	echo "restart-live: mbatchd wrote no checkpoint" >&2
	exit 1
}
"$top_builddir/bench/loadgen" -c 2 -n "$tail" -- -q normal -o /dev/null \
	"sleep 60" >"$T/loadgen.out" 2>&1 &
track $!
wait $! || {
	echo "restart-live: loadgen failed: $(cat "$T/loadgen.out")" >&2
	exit 1
}
grep -q "submitted: $tail jobs, 0 refused" "$T/loadgen.out" || {
	echo "restart-live: $(cat "$T/loadgen.out")" >&2
	exit 1
}
want=$(pending)
stop_mbd
echo "restart-live: first start, checkpoint and tail in $(($(now_ms) - t))" \
	"ms; on disk: $(cd "$T/work/events" && ls -s | tr '\n' ' ')" >&2

timed_start restart-live || exit 1

got=$(pending)
if [ "$got" != "$want" ] || [ "$got" -lt "$((backlog + tail))" ]; then
	echo "restart-live: $got jobs pend after the restart, $want before" >&2
	exit 1
fi
echo "restart-live: $got pending slots" >&2

printf 'result\trestart.live1m\t%s\ts\n' \
	"$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.3f", ms / 1000 }')"
