#!/bin/sh
# mbatchd killed with SIGKILL while four submitters run in parallel, round
# after round.  One sync covers every submission buffered since the last
# (group commit), and a reply must never leave before its record is in
# the journal.  After each restart every job id a bsub printed is known
# to mbatchd, and no id was given twice.  Last, the same under badmin
# mbdrestart, which syncs what is buffered and execs mbatchd.
#
# The cluster declares one host and nobody registers it, as in the submit
# figure (bench/fig/submit.sh): every job stays pending.
. "$top_srcdir/tests/lib.sh"

ROUNDS=3
SUBMITTERS=4
# Acknowledged submissions per round before the kill, across submitters.
PER_ROUND=60

make_cluster hostA
# Small segments: some rounds rotate and checkpoint while submissions run.
echo "LSB_JOURNAL_SEGMENT_MB=1" >>"$T/conf/lsf.conf"
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
start_mbd || exit 1

S=$T/sub
mkdir -p "$S"

# submitter K: bsub until the stop file appears; an acknowledged id goes
# to acked.K.  A bsub cut by the kill prints no id and counts for nothing.
submitter() {
	: >"$S/acked.$1"
	while [ ! -e "$S/stop" ]; do
		id=$(bsub -q normal -J "s$1" true 2>/dev/null | job_id_of)
		[ -n "$id" ] && echo "$id" >>"$S/acked.$1"
	done
}

acked_count() {
	cat "$S"/acked.* 2>/dev/null | wc -l
}

acked_at_least() {
	[ "$(acked_count)" -ge "$1" ]
}

# missing FILE: the acknowledged ids mbatchd does not list, into FILE.
missing() {
	bjobs -u all -a -noheader -o jobid 2>/dev/null | sort -u >"$S/known"
	cat "$S"/acked.* | sort -u | comm -23 - "$S/known" >"$1"
	[ ! -s "$1" ]
}

round=1
while [ "$round" -le "$ROUNDS" ]; do
	rm -f "$S/stop"
	before=$(acked_count)
	pids=
	k=1
	while [ "$k" -le "$SUBMITTERS" ]; do
		submitter "r$round.$k" &
		track "$!"
		pids="$pids $!"
		k=$((k + 1))
	done
	check "round $round: $PER_ROUND submissions acknowledged" \
		wait_for 60 acked_at_least $((before + PER_ROUND))
	kill9_mbd
	touch "$S/stop"
	for p in $pids; do
		wait "$p"
	done
	start_mbd || exit 1
	check "round $round: every acknowledged job is known after the restart" \
		missing "$S/missing.$round"
	[ -s "$S/missing.$round" ] &&
		diag "not known: $(head -n 20 "$S/missing.$round" | tr '\n' ' ')"
	round=$((round + 1))
done

# badmin mbdrestart under the same load: mbatchd syncs what is buffered
# and execs itself.
starts() {
	grep -c "started for cluster" "$T/log/mbatchd.out"
}
started_again() {
	[ "$(starts)" -gt "$1" ]
}
rm -f "$S/stop"
before=$(acked_count)
n_starts=$(starts)
pids=
for k in 1 2 3 4; do
	submitter "x.$k" &
	track "$!"
	pids="$pids $!"
done
check "before mbdrestart: $PER_ROUND submissions acknowledged" \
	wait_for 60 acked_at_least $((before + PER_ROUND))
badmin mbdrestart >/dev/null 2>&1
check "mbatchd restarts itself" wait_for 60 started_again "$n_starts"
touch "$S/stop"
for p in $pids; do
	wait "$p"
done
check "after mbdrestart: every acknowledged job is known" \
	wait_for 20 missing "$S/missing.x"
[ -s "$S/missing.x" ] &&
	diag "not known: $(head -n 20 "$S/missing.x" | tr '\n' ' ')"

dups=$(cat "$S"/acked.* | sort | uniq -d | wc -l)
check "no job id was acknowledged twice" test "$dups" -eq 0
diag "jobs acknowledged: $(acked_count)"
done_testing
