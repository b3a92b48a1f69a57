#!/bin/sh
# bresume never overfills a host.  With preemption configured a user-
# suspended (USUSP) job does not hold its slot, so another job starts
# there; bresume then makes the first job SSUSP, not RUN, and it waits,
# its processes still stopped, until a slot is free, when the scheduler
# resumes it (bresume(1)).  Issue 12, item 4: it used to go straight to
# RUN beside the other job on a one-slot host.  On the side, bqueues -l
# shows a PREEMPTIVE list emptied by the priority check as no PREEMPTIVE
# at all (item 3), not as PREEMPTIVE[].
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = high
PRIORITY   = 40
PREEMPTION = PREEMPTIVE
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue

Begin Queue
QUEUE_NAME = odd
PRIORITY   = 35
PREEMPTION = PREEMPTIVE[high] PREEMPTABLE
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

# Item 3 on the side: odd's PREEMPTIVE[high] names a higher queue, so the
# list is emptied and the queue preempts nothing; bqueues says so.
check "bqueues -l shows an emptied PREEMPTIVE list as nothing" \
	sh -c "bqueues -l odd | grep -q 'PREEMPTION = PREEMPTABLE\$'"

a=$(bsub -q normal -o /dev/null 'sleep 300 & sleep 300 & wait' | job_id_of)
check "the first job runs" wait_for 60 state_is "$a" RUN
bstop "$a" >/dev/null
check "bstop makes it USUSP" wait_for 60 state_is "$a" USUSP
check "its processes are stopped" wait_for 60 procs_in "$a" T
b=$(bsub -q normal -o /dev/null sleep 300 | job_id_of)
check "a USUSP job does not hold its slot: the next job runs" \
	wait_for 60 state_is "$b" RUN

bresume "$a" >/dev/null
check "bresume on the full host makes it SSUSP" wait_for 60 state_is "$a" SSUSP
check "and it stays SSUSP while the slot is taken" \
	sh -c "sleep 1; [ \$(bjobs -noheader -o stat $a | tr -d ' ') = SSUSP ]"
check "only one job runs on the one-slot host" sh -c "[ \$(bjobs -r -u all -noheader -o jobid | grep -c .) -eq 1 ]"
check "its processes are still stopped" procs_in "$a" T

bkill "$b" >/dev/null
check "when the slot is free the scheduler resumes it" wait_for 60 state_is "$a" RUN
check "and its processes run again" wait_for 60 procs_in "$a" S
check "still one job running" sh -c "[ \$(bjobs -r -u all -noheader -o jobid | grep -c .) -eq 1 ]"
done_testing
