#!/bin/sh
# bsub -t with real daemons: when the termination time passes, a running
# job is killed and ends EXIT with LSF's reason TERM_DEADLINE, and a job
# still pending (held) never starts but ends the same way.  The times
# are journaled with the submission: mbatchd is restarted between
# submission and deadline and still acts on them.  bsub -t takes
# minutes, so the test waits for the second 40-50 of a minute and sets
# the next minute as the deadline.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

in_window() { s=$(date +%S | sed 's/^0//'); [ "$s" -ge 40 ] && [ "$s" -le 50 ]; }
check "wait for the end of a minute" wait_for 70 in_window
deadline=$(date -d '+1 minute' +%H:%M)
a=$(bsub -t "$deadline" -o /dev/null sleep 300 | job_id_of)
b=$(bsub -H -t "$deadline" -o /dev/null sleep 300 | job_id_of)
check "the job with a termination time runs" wait_for 10 state_is "$a" RUN
check "the held one waits" state_is "$b" PSUSP
check "bjobs -l shows the termination time" sh -c \
    "bjobs -l $a | tr -d '\n ' | grep -qF 'SpecifiedTerminationTime<'"

stop_mbd
start_mbd || exit 1
check "after a restart the job still runs" wait_for 10 state_is "$a" RUN

check "at the termination time the running job is killed" wait_for 40 state_is "$a" EXIT
check "with reason TERM_DEADLINE" sh -c \
    "bjobs -l $a | tr -d '\n ' | grep -qF 'TERM_DEADLINE:jobkilledafterdeadline'"
no_procs() { [ -z "$(job_pids "$1")" ]; }
check "its processes are gone" wait_for 10 no_procs "$a"
check "the pending job ends without starting" wait_for 10 state_is "$b" EXIT
check "with reason TERM_DEADLINE too" sh -c \
    "bjobs -l $b | tr -d '\n ' | grep -qF 'TERM_DEADLINE:jobkilledafterdeadline'"
check "and it never started" sh -c "! bjobs -l $b | grep -q 'Started '"
check "bhist -l shows why" sh -c "bhist -l $a | tr -d '\n ' | grep -qF TERM_DEADLINE"

stop_mbd
start_mbd || exit 1
both_exit() { state_is "$a" EXIT && state_is "$b" EXIT; }
check "after another restart both are still EXIT" wait_for 10 both_exit
check "with their reason" sh -c \
    "bjobs -l $a | tr -d '\n ' | grep -qF 'TERM_DEADLINE'"
done_testing
