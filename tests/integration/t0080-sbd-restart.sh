#!/bin/sh
# sbatchd restarted under a running job: the job keeps running, the new
# sbatchd re-adopts it, and its real exit status reaches the master.  The
# job runs exactly once.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -o "$T/out" "echo ran >> $T/count; sleep 3; exit 5" | job_id_of)
check "the job runs" wait_for 10 state_is "$id" RUN
wait_for 5 test -s "$T/count"
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
check "the job's processes survive sbatchd" sh -c "pgrep -f 'sleep 3' >/dev/null"
start_sbd vh1 || exit 1
check "the job is still RUN after sbatchd comes back" state_is "$id" RUN
check "its exit status (5) reaches the master" wait_for 20 state_is "$id" EXIT
check "bjobs reports exit code 5" sh -c "bjobs -a -noheader -o exit_code $id | grep -qw 5"
check "the job ran exactly once" sh -c "[ \$(grep -c ran $T/count) -eq 1 ]"
done_testing
