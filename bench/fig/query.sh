#!/bin/sh
# Figures query.bjobs, query.bjobs_json, query.bqueues, query.bhosts: wall
# time of the query commands on a big cluster.
#
# 10,000 execution hosts emulated by bench/loadgen (one slot each, MXJ 1),
# then 100,000 jobs submitted by loadgen's client mode: 10,000 of them run
# (for an hour, so they stay running) and 90,000 pend, so the system holds
# 100,000 unfinished jobs of both kinds.  Each command's output goes to a
# file whose line count is checked, so a broken command cannot make a fast
# wrong figure.  BENCH_SMOKE=1: 50 hosts and 500 jobs.
#
# Output: result<TAB>query.bjobs<TAB>SECONDS<TAB>s, and so on.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	NHOSTS=50
	NJOBS=500
else
	NHOSTS=10000
	NJOBS=100000
fi
LOADGEN=$top_builddir/bench/loadgen

. "$top_srcdir/tests/lib.sh"

BS_MXJ=1 make_cluster
{
	echo "Begin ClusterAdmins"
	echo "Administrators = root $(id -un)"
	echo "End ClusterAdmins"
	"$LOADGEN" -H "$NHOSTS" -p lg --print-hosts
} >"$T/conf/lsf.cluster.basalt" || exit 1
hosts_at_loopback
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
# lib.sh's MAX_SBD_FAIL=2 is for tests that wait for a host to fail.  Here
# 10,000 hosts must stay ok while 100,000 jobs arrive, and on this machine
# a heartbeat can be late by more than two intervals: mbatchd's main loop
# pays for every connection it holds on each wake-up (GLib polls every
# source of the context on every iteration).
sed -i 's/^MAX_SBD_FAIL.*/MAX_SBD_FAIL = 60/' "$T/conf/lsbatch/basalt/configdir/lsb.params"
# mbatchd and loadgen each hold one connection per host.
ulimit -n "$(ulimit -H -n)" 2>/dev/null
start_mbd || exit 1

t0=$(date +%s%N)
# The jobs go in before the hosts connect: the figure is about the
# queries, and on a 2-core machine shared with the emulated hosts the
# submissions would crawl behind 2,000 heartbeats a second.  In the
# background and waited for, so a signal to this script is acted on (and
# loadgen stopped) at once.
"$LOADGEN" -c 4 -n "$NJOBS" -- -o /dev/null "sleep 3600" >"$T/submit.out" 2>&1 &
track $!
wait $! || {
	echo "query: loadgen failed: $(cat "$T/submit.out")" >&2
	exit 1
}
out=$(cat "$T/submit.out")
echo "query: $out" >&2
case "$out" in
*"submitted: $NJOBS jobs, 0 refused"*) ;;
*) echo "query: not every job was accepted" >&2; exit 1 ;;
esac
# The hosts in 4 processes of NHOSTS/4: a main loop's cost per wake-up
# grows with the connections it holds, and one process holding all 10,000
# could not keep their heartbeats on time on this machine.
NPROC=4
[ $((NHOSTS % NPROC)) -eq 0 ] || NPROC=1
digits=${#NHOSTS}
i=0
while [ "$i" -lt "$NPROC" ]; do
	"$LOADGEN" -H $((NHOSTS / NPROC)) --first $((i * NHOSTS / NPROC)) \
		--digits "$digits" --max-dialing 64 -p lg -t 3600 >"$T/log/loadgen.$i.out" 2>&1 &
	track $!
	i=$((i + 1))
done
# Registered: ok, or closed once its one slot holds a job (bhosts shows
# closed_Full as "closed"); not unavail or unreach.
nok() {
	[ "$(bhosts 2>/dev/null | awk 'NR > 1 && ($2 == "ok" || $2 == "closed")' | wc -l)" -eq "$NHOSTS" ]
}
wait_for 300 nok || {
	echo "query: the $NHOSTS hosts did not all register" >&2
	exit 1
}

nrun() {
	[ "$(bjobs -u all -r -noheader -o jobid 2>/dev/null | wc -l)" -eq "$NHOSTS" ]
}
wait_for 600 nrun || {
	echo "query: $NHOSTS jobs did not all start" >&2
	exit 1
}
echo "query: $NJOBS jobs in, $NHOSTS running, after $((($(date +%s%N) - t0) / 1000000)) ms" >&2

# timed ID LINES command...: wall time of the command, output to a file
# that must have LINES lines.
timed() {
	id=$1 lines=$2
	shift 2
	s=$(date +%s%N)
	"$@" >"$T/$id.out" 2>"$T/$id.err" || {
		echo "query: $* failed: $(head -n 3 "$T/$id.err")" >&2
		exit 1
	}
	e=$(date +%s%N)
	n=$(wc -l <"$T/$id.out")
	if [ "$n" -ne "$lines" ]; then
		echo "query: $* printed $n lines, expected $lines" >&2
		exit 1
	fi
	awk -v id="$id" -v ns=$((e - s)) \
		'BEGIN { printf "result\t%s\t%.4f\ts\n", id, ns / 1e9 }'
}

# The queues of the shipped configuration, with a header line.
nqueues=$(bqueues -w | wc -l)
# bjobs: a header and one line per job.  -json: the envelope is 6 lines
# and each record as many as the first one (its fields and braces).
timed query.bjobs $((NJOBS + 1)) bjobs -u all
fields=$(bjobs -u all -json 2>/dev/null | head -n 30 | awk '/^    \{/ {s=NR} /^    \}/ && s {print NR - s + 1; exit}')
timed query.bjobs_json $((6 + NJOBS * ${fields:-0})) bjobs -u all -json
timed query.bqueues "$nqueues" bqueues
timed query.bhosts $((NHOSTS + 1)) bhosts
