#!/bin/sh
# An interactive job while it pends: mbatchd restarting while bsub waits
# for dispatch does not lose the session (the job still starts and
# connects), and a bsub killed outright (SIGKILL) while its job pends makes
# the job end, once started, with the lost link as its reason and no
# process left.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
gone() { [ -z "$(job_pids "$1")" ]; }
LOST='The interactive connection to bsub was lost'

# mbatchd restarts while bsub waits.
bsub -I -H 'echo "started after the restart"; exit 6' </dev/null >"$T/r.out" 2>"$T/r.err" &
bpid=$!
track "$bpid"
check "the held job is submitted" wait_for 60 grep -q 'is submitted' "$T/r.out"
id=$(job_id_of <"$T/r.out")
check "it pends held" wait_for 60 state_is "$id" PSUSP
check "bsub waits for dispatch" grep -qx '<<Waiting for dispatch ...>>' "$T/r.err"
stop_mbd
start_mbd || exit 1
check "bsub still waits through the restart" kill -0 "$bpid"
bresume "$id" >/dev/null
wait "$bpid"
rc=$?
check "the job started and connected: bsub exits with its 6 (rc $rc)" test "$rc" -eq 6
check "its output reached bsub" grep -qx "started after the restart" "$T/r.out"
check "bsub said where it started" grep -qx '<<Starting on vh1>>' "$T/r.err"

# bsub killed while its job pends.
bsub -I -H 'echo started; exec sleep 300' </dev/null >"$T/k.out" 2>"$T/k.err" &
bpid=$!
check "the second held job is submitted" wait_for 60 grep -q 'is submitted' "$T/k.out"
id=$(job_id_of <"$T/k.out")
wait_for 60 state_is "$id" PSUSP
kill -KILL "$bpid"
wait "$bpid" 2>/dev/null
bresume "$id" >/dev/null
check "the job with no bsub left ends" wait_for 60 state_is "$id" EXIT
check "with the lost link as its reason" says bjobs "$id" "$LOST"
check "no process of it is left" wait_for 60 gone "$id"
done_testing
