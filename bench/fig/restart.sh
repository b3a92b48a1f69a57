#!/bin/sh
# Figure restart.replay: seconds from the start of mbatchd to its first
# answered query, with 1,000,000 journal records to replay (BENCH_SMOKE=1:
# 10,000).
#
# bench/journal-fill writes the journal a busy mbatchd would have written
# (submissions with a login environment, dispatch, start, finish, clean...,
# ending with jobs pending and running), all in one segment with no
# checkpoint, so every record is replayed.  Then mbatchd starts on it and
# `bqueues` is run in a tight loop until it answers.  The replayed state is
# checked: `bjobs -u all -a` must show exactly the pending, started and
# finished jobs the generator left.  The hosts of the running jobs are in
# the configuration but no sbatchd runs: they are simply unavailable.
#
# Run alone: top_builddir=... top_srcdir=... sh bench/fig/restart.sh
set -u
: "${top_builddir:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib.sh"

records=1000000
[ "${BENCH_SMOKE:-0}" = 1 ] && records=10000
nhosts=64

. "$top_srcdir/bench/fig/restart-lib.sh"

hosts=$(i=1; while [ $i -le $nhosts ]; do printf 'host%04d ' $i; i=$((i + 1)); done)
# shellcheck disable=SC2086
make_cluster $hosts
# Quiet logs, and a segment size over the journal's so that mbatchd's
# first commit does not checkpoint and rotate.
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_NOTICE/' "$T/conf/lsf.conf"
echo "LSB_JOURNAL_SEGMENT_MB=4096" >>"$T/conf/lsf.conf"

t=$(now_ms)
"$top_builddir/bench/journal-fill" -d "$T/work/events" -n "$records" \
	-H "$nhosts" >"$T/expect" || exit 1
echo "restart: wrote $records records in $(($(now_ms) - t)) ms:" \
	"$(du -sh "$T/work/events" | cut -f1)" >&2

# Page cache warm, as on a restart without a reboot (the file was just
# written).  Start the clock just before the daemon.
timed_start restart || exit 1

# The replayed state is the generator's.
bjobs -u all -a -noheader -o stat >"$T/stat" 2>"$T/stat.err" || {
	echo "restart: bjobs failed: $(cat "$T/stat.err")" >&2
	exit 1
}
got=$(awk '
	$1 == "PEND" || $1 == "PSUSP" { p++ }
	$1 == "RUN" || $1 == "USUSP" || $1 == "SSUSP" || $1 == "UNKWN" { s++ }
	$1 == "DONE" || $1 == "EXIT" { f++ }
	END { printf "expect PEND %d STARTED %d FINISHED %d\n", p, s, f }' "$T/stat")
want=$(head -n 1 "$T/expect")
if [ "$got" != "$want" ]; then
	echo "restart: replayed state differs: generator: $want; bjobs: $got" >&2
	exit 1
fi
echo "restart: $want" >&2

printf 'result\trestart.replay\t%s\ts\n' \
	"$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.3f", ms / 1000 }')"
