#!/bin/sh
# bsub -x with real daemons: bqueues -l shows EXCLUSIVE = Y; bsub -x is
# refused outside such queues in LSF's words; an exclusive job goes to
# the host where nothing runs, bhosts -l shows that host closed_Excl, no
# other job is placed there while it runs (and an exclusive job does not
# go where another job runs), each with LSF's pending reason; once it
# ends the host takes jobs again.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
printf '\nBegin Queue\nQUEUE_NAME = excl\nPRIORITY = 30\nEXCLUSIVE = Y\nEnd Queue\n' \
    >>"$lsb/lsb.queues"
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

check "bqueues -l shows the queue accepts exclusive jobs" sh -c \
    "bqueues -l excl | grep -q 'EXCLUSIVE = Y'"
check "bsub -x to a queue without EXCLUSIVE is refused" sh -c \
    "! bsub -q normal -x -o /dev/null sleep 1 >$T/refused 2>&1"
check "with LSF's message" grep -q "Queue does not accept EXCLUSIVE jobs" "$T/refused"

a=$(bsub -m vh1 -o /dev/null sleep 300 | job_id_of)
check "a plain job runs on vh1" wait_for 15 state_is "$a" RUN
x=$(bsub -q excl -x -o /dev/null sleep 300 | job_id_of)
check "the exclusive job runs" wait_for 15 state_is "$x" RUN
check "on the empty host vh2" sh -c "bjobs -noheader -o exec_host $x | grep -q vh2"
check "bhosts -l shows vh2 closed_Excl" sh -c \
    "bhosts -l vh2 | grep -q \"^closed_Excl \""
check "bhosts shows vh1 ok" host_ok vh1
check "bjobs -l shows Exclusive Execution" sh -c \
    "bjobs -l $x | tr -d '\n ' | grep -qF 'ExclusiveExecution'"

c=$(bsub -m vh2 -o /dev/null sleep 300 | job_id_of)
check "a job for vh2 waits: an exclusive job runs there" wait_for 15 sh -c \
    "bjobs -p $c | grep -q 'Running an exclusive job: 1 host;'"
y=$(bsub -q excl -x -m vh1 -o /dev/null sleep 300 | job_id_of)
check "an exclusive job for vh1 waits: another job runs there" wait_for 15 sh -c \
    "bjobs -p $y | grep -q \"Job's requirement for exclusive execution not satisfied: 1 host;\""
check "both stay pending" sh -c "[ \$(bjobs -noheader -o stat $c $y | grep -c PEND) = 2 ]"

bkill "$x" >/dev/null 2>&1
check "the exclusive job ends" wait_for 15 state_is "$x" EXIT
check "and the waiting job starts on vh2" wait_for 15 state_is "$c" RUN
bkill "$a" >/dev/null 2>&1
check "vh1 empties, the second exclusive job starts there" wait_for 15 state_is "$y" RUN
check "and vh1 is closed_Excl" wait_for 10 sh -c \
    "bhosts -l vh1 | grep -q \"^closed_Excl \""
bkill "$c" "$y" >/dev/null 2>&1
done_testing
