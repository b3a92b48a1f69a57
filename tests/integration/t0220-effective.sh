#!/bin/sh
# A job's effective parameters are resolved once, at dispatch, from its own
# request, its application profile, its queue and lsb.params, journaled in
# the dispatch event, and shown by bhist -l and bjobs -l.  A job started
# under one RUNLIMIT keeps it, in what the commands show and in what kills
# it, after the queue's RUNLIMIT is raised and mbatchd is restarted; a job
# dispatched after the change gets the new value.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME            = prof
MEMLIMIT        = 50000
NICE            = 2
ENV_VARS        = "BS_EFF=from profile"
MAX_JOB_PREEMPT = 2
End Application
A
# The queue's run limit is its default (1 minute) up to 5; the profile
# leaves it alone, overrides NICE and adds a memory limit.
write_queues() {
	cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME      = normal
PRIORITY        = 30
RUNLIMIT        = $1
MEMLIMIT        = 100000
NICE            = 3
MAX_JOB_PREEMPT = 4
End Queue
Q
}
write_queues "1 5"
start_mbd || exit 1
start_sbd vh1 || exit 1

check "-W over the queue's maximum is refused" \
	sh -c 'bsub -app prof -W 6 true 2>&1 | grep -q "Cannot exceed queue.s hard limit"'
check "-M over the profile's MEMLIMIT is refused" \
	sh -c 'bsub -app prof -M 60000 true 2>&1 | grep -q "application profile.s hard limit"'

id=$(bsub -app prof -o "$T/job.out" 'nice; echo "env=$BS_EFF"; sleep 300' | job_id_of)
check "the job runs" wait_for 10 state_is "$id" RUN
check "it runs with the profile's NICE (2), not the queue's (3)" \
	wait_for 10 grep -qx 2 "$T/job.out"
check "and the profile's ENV_VARS" grep -qx "env=from profile" "$T/job.out"

# shows FILE NAME VALUE: FILE has the block " NAME" then " VALUE".
shows() {
	awk -v n=" $2" -v v=" $3" 'prev == n && $0 == v { f = 1 } { prev = $0 } END { exit !f }' "$1"
}
bhist -l "$id" >"$T/bhist1"
check "bhist -l shows the RUNLIMIT it started with" shows "$T/bhist1" RUNLIMIT "1.0 min"
check "the profile's MEMLIMIT" shows "$T/bhist1" MEMLIMIT "50000 K"
check "its NICE" shows "$T/bhist1" NICE 2
check "its ENV_VARS" shows "$T/bhist1" ENV_VARS "<BS_EFF=from profile>"
check "and its MAX_JOB_PREEMPT" shows "$T/bhist1" MAX_JOB_PREEMPT 2
bjobs -l "$id" >"$T/bjobs1"
check "bjobs -l shows the same run limit" shows "$T/bjobs1" RUNLIMIT "1.0 min"

# The queue's run limit goes up after the job started, and mbatchd restarts
# and replays its journal under the new configuration.
write_queues "30 60"
check "reconfig to RUNLIMIT = 30 60 succeeds" \
	sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
stop_mbd
start_mbd || exit 1
check "after the restart the job still runs" wait_for 10 state_is "$id" RUN
bhist -l "$id" >"$T/bhist2"
check "bhist -l still shows the 1 minute it started with" shows "$T/bhist2" RUNLIMIT "1.0 min"
bjobs -l "$id" >"$T/bjobs2"
check "so does bjobs -l" shows "$T/bjobs2" RUNLIMIT "1.0 min"
check "and not the queue's new 30" sh -c "! grep -q '30.0 min' $T/bjobs2"

id2=$(bsub -app prof -o /dev/null sleep 300 | job_id_of)
check "a job dispatched now runs" wait_for 10 state_is "$id2" RUN
bhist -l "$id2" >"$T/bhist3"
check "with the new RUNLIMIT" shows "$T/bhist3" RUNLIMIT "30.0 min"

check "the first job is killed at the limit it started with" wait_for 90 state_is "$id" EXIT
run_secs=$(bhist -l "$id" | awk '/^  PEND/ { getline; print $3 }')
check "it ran about its one minute ($run_secs s)" test "${run_secs:-0}" -ge 55 -a "${run_secs:-0}" -le 90
check "the second job, under 30 minutes, still runs" state_is "$id2" RUN
done_testing
