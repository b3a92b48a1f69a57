#!/bin/sh
# Issue 11, finding 3: the ghost.  A rerunnable job whose host was out was
# requeued; when the host registered again (still holding the old run),
# mbatchd told it to forget the job and dispatched it to the same host at
# once, and sbatchd took the new start order for a repeat of the run it was
# killing, then dropped that run's end: the job showed RUN with no process,
# for ever.  Now every dispatch is a new instance: the host forgets exactly
# the old run and starts the new one beside it.
#
# One round goes the way the issue found it (the host silent longer than
# MAX_SBD_FAIL heartbeats: about 10 s); then ROUNDS rounds (50 by default)
# take the quick way to the same state: sbatchd killed, the job requeued
# with brequeue while the host is away, sbatchd started again.  In every
# round the job's second run must really run and finish, and its first run
# must be killed.
. "$top_srcdir/tests/lib.sh"

ROUNDS=${ROUNDS:-50}
BS_MXJ=1
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# Each run appends a line; the second run ends at once, the first waits.
cmd="echo x >>$T/runs.\$LSB_JOBID; [ \$(wc -l <$T/runs.\$LSB_JOBID) -ge 2 ] && exit 0; sleep 300"
runs() { [ "$(wc -l <"$T/runs.$1" 2>/dev/null)" = "$2" ]; }
no_procs() { [ -z "$(job_pids "$1")" ]; }

# round KIND: KIND is "silent" (MAX_SBD_FAIL) or "restart".
ghosts=0
round() {
	j=$(bsub -r -o /dev/null "$cmd" | job_id_of)
	if ! wait_for 60 runs "$j" 1; then
		diag "job $j did not start ($(job_state "$j"))"
		ghosts=$((ghosts + 1))
		return
	fi
	pid=$(sbd_pid vh1)
	if [ "$1" = silent ]; then
		kill -STOP "$pid"
		wait_for 90 state_is "$j" PEND ||
			diag "job $j was not requeued while vh1 was silent ($(job_state "$j"))"
		kill -CONT "$pid"
	else
		kill -KILL "$pid"
		wait "$pid" 2>/dev/null
		brequeue "$j" >/dev/null 2>&1 || diag "brequeue $j failed"
		start_sbd vh1 || diag "sbatchd did not come back"
	fi
	if ! wait_for 60 state_is "$j" DONE; then
		diag "round $2: job $j is $(job_state "$j") with $(wc -l <"$T/runs.$j") runs"
		ghosts=$((ghosts + 1))
	elif ! runs "$j" 2; then
		diag "round $2: job $j ran $(wc -l <"$T/runs.$j") times"
		ghosts=$((ghosts + 1))
	elif ! wait_for 60 no_procs "$j"; then
		diag "round $2: job $j's first run was not killed"
		ghosts=$((ghosts + 1))
	fi
}

round silent 0
check "after MAX_SBD_FAIL silent heartbeats the requeued job runs again and finishes" \
	test "$ghosts" -eq 0
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	i=$((i + 1))
	round restart "$i"
done
check "in $ROUNDS rounds no job was left RUN without a process ($ghosts)" test "$ghosts" -eq 0
check "mbatchd told the host to forget the old runs" \
	grep -q "mbatchd forgot run" "$T/log/sbatchd.vh1.out"
done_testing
