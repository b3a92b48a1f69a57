#!/bin/sh
# Preemptive scheduling on real daemons: a job of a preemptive queue takes
# the slot of a running job of a lower, preemptable queue, whose whole
# process group is stopped (checked in /proc) and which resumes as soon as
# a slot is free; MAX_JOB_PREEMPT bounds how often one job is preempted;
# TERMINATE_WHEN=PREEMPT kills (and requeues a rerunnable) victim instead.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
queues() {   # queues "extra idle-queue lines"
	cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = priority
PRIORITY   = 43
PREEMPTION = PREEMPTIVE[idle]
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue

Begin Queue
QUEUE_NAME = idle
PRIORITY   = 20
PREEMPTION = PREEMPTABLE[priority]
$1
End Queue
Q
}
queues ""
start_mbd || exit 1
start_sbd vh1 || exit 1

i1=$(bsub -q idle -o /dev/null 'sleep 300 & sleep 300 & wait' | job_id_of)
wait_for 10 state_is "$i1" RUN
i2=$(bsub -q idle -o /dev/null 'sleep 300 & sleep 300 & wait' | job_id_of)
wait_for 10 state_is "$i2" RUN
n=$(bsub -q normal -o /dev/null true | job_id_of)
check "a normal-queue job does not preempt (idle is PREEMPTABLE[priority] only)" \
	sh -c "sleep 0.5; [ \$(bjobs -noheader -o stat $n | tr -d ' ') = PEND ]"
bkill "$n" >/dev/null

p1=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "the priority job runs at once" wait_for 10 state_is "$p1" RUN
victim=""
suspended() { for j in $i1 $i2; do state_is "$j" SSUSP && victim=$j && return 0; done; return 1; }
check "one idle job is suspended" wait_for 10 suspended
check "bjobs -l says it was preempted and by which job" \
	sh -c "bjobs -l $victim | tr -s ' \n' ' ' | grep -q 'preempted by job <$p1>'"
check "every process of the victim is stopped" wait_for 10 procs_in "$victim" T
check "bqueues -l shows the queue's PREEMPTION" \
	sh -c "bqueues -l priority | grep -q 'PREEMPTION = PREEMPTIVE\[idle\]'"

bkill "$p1" >/dev/null
check "the victim resumes when the slot is free" wait_for 15 state_is "$victim" RUN
check "and its processes run again" wait_for 10 procs_in "$victim" S
check "bhist records the preemption" sh -c "bhist -l $victim | tr -s ' \n' ' ' | grep -q 'preempted by job <$p1>'"

# MAX_JOB_PREEMPT = 1: the job already preempted is no longer a victim.
queues "MAX_JOB_PREEMPT = 1"
badmin reconfig >/dev/null 2>&1
other=$i1; [ "$victim" = "$i1" ] && other=$i2
p2=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "with MAX_JOB_PREEMPT=1 the other idle job is the victim" wait_for 10 state_is "$other" SSUSP
check "the first victim keeps running" state_is "$victim" RUN
bkill "$p2" >/dev/null
wait_for 15 state_is "$other" RUN
p3=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "once both were preempted once, a priority job waits" \
	sh -c "sleep 0.5; [ \$(bjobs -noheader -o stat $p3 | tr -d ' ') = PEND ]"
bkill 0 >/dev/null 2>&1
wait_for 20 sh -c '! bjobs >/dev/null 2>&1'

# TERMINATE_WHEN = PREEMPT: the victim is killed; rerunnable, it is requeued.
queues "TERMINATE_WHEN = PREEMPT"
badmin reconfig >/dev/null 2>&1
r=$(bsub -q idle -r -o /dev/null sleep 300 | job_id_of)
o=$(bsub -q idle -o /dev/null sleep 300 | job_id_of)
wait_for 10 state_is "$r" RUN && wait_for 10 state_is "$o" RUN
p4=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "the priority job runs" wait_for 10 state_is "$p4" RUN
killed() { state_is "$o" EXIT || state_is "$r" PEND; }
check "a victim was killed, not suspended" wait_for 15 killed
check "no job is suspended" sh -c "! bjobs -s >/dev/null 2>&1"
done_testing
