#!/bin/sh
# No job twice: when a submission's reply is lost, bsub sends it again with
# the same token and mbatchd answers with the job it already accepted, also
# after mbatchd died right after the commit and was restarted (the token is
# journaled with the job).  When bsub gives up it says the job may exist.
# The faults are mbatchd's test-only BS_TEST_SUBMIT_FAULT (svc/submit.c):
# "drop" closes the connection instead of replying, "exit" exits as soon as
# the submission is durable in the journal, before the reply leaves.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
# reap PID: wait for a process that should exit by itself, with a deadline.
reap() {
	wait_for 15 sh -c "! kill -0 $1 2>/dev/null" || kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# The reply is dropped, mbatchd stays up.
export BS_TEST_SUBMIT_FAULT=drop
start_mbd || exit 1
unset BS_TEST_SUBMIT_FAULT
bsub -H -o /dev/null sleep 300 >"$T/a.out" 2>"$T/a.err"
check "bsub succeeds after a lost reply" grep -q "^Job <1> is submitted" "$T/a.out"
check "and said it was retrying" grep -q "LSF is down; please wait" "$T/a.err"
check "one job exists" sh -c "[ \$(bjobs -a -noheader 2>/dev/null | grep -c .) -eq 1 ]"
check "mbatchd answered the retry with that job" \
	grep -q "submission token of job 1 seen again" "$T/log/mbatchd.out"
stop_mbd

# mbatchd exits right after the commit; restarted, it answers the retry
# from its journal.
export BS_TEST_SUBMIT_FAULT=exit
start_mbd || exit 1
unset BS_TEST_SUBMIT_FAULT
crashed=$MBD_PID
LSB_API_CONNTIMEOUT=60 bsub -H -J crash -o /dev/null sleep 300 >"$T/b.out" 2>"$T/b.err" &
bsub_pid=$!
check "mbatchd exited after the commit" wait_for 15 sh -c "! kill -0 $crashed 2>/dev/null"
reap "$crashed"
start_mbd || exit 1
check "bsub finishes" wait_for 60 sh -c "! kill -0 $bsub_pid 2>/dev/null"
reap "$bsub_pid"
check "bsub exited 0" [ $? -eq 0 ]
check "bsub prints the one job id" sh -c "[ \$(grep -c '^Job <2> is submitted' $T/b.out) -eq 1 ]"
check "it said LSF was down meanwhile" grep -q "LSF is down; please wait" "$T/b.err"
check "exactly one job named crash" sh -c "[ \$(bjobs -a -noheader -J crash 2>/dev/null | grep -c .) -eq 1 ]"
check "two jobs in all" sh -c "[ \$(bjobs -a -noheader 2>/dev/null | grep -c .) -eq 2 ]"

# A true failure: mbatchd stays down; bsub says the job may exist.
stop_mbd
export BS_TEST_SUBMIT_FAULT=exit
start_mbd || exit 1
unset BS_TEST_SUBMIT_FAULT
crashed=$MBD_PID
! LSB_NTRIES=2 LSB_API_CONNTIMEOUT=1 bsub -H -J lost -o /dev/null sleep 300 \
	>"$T/c.out" 2>"$T/c.err"
check "bsub fails" [ $? -eq 0 ]
check "saying the job may have been accepted" grep -q "the job may have been accepted" "$T/c.err"
check "and how to check" grep -q "bjobs -a -J lost" "$T/c.err"
reap "$crashed"
start_mbd || exit 1
check "it was: the job exists" sh -c "[ \$(bjobs -a -noheader -J lost 2>/dev/null | grep -c .) -eq 1 ]"

# mbatchd down before anything was sent: certainly not submitted.
stop_mbd
! LSB_API_CONNTIMEOUT=1 bsub -o /dev/null true >"$T/d.out" 2>"$T/d.err"
check "with mbatchd down, bsub says the job was not submitted" grep -q "Job not submitted" "$T/d.err"
done_testing
