#!/bin/sh
# Application profiles (lsb.applications, bsub -app): an unknown profile is
# refused, the profile's limits apply, its MAX_JOB_PREEMPT overrides the
# queue's, and its environment reaches the job.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME            = once
RUNLIMIT        = 5
MAX_JOB_PREEMPT = 1
ENV_VARS        = "BS_APP=once"
End Application
A
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = priority
PRIORITY   = 43
PREEMPTION = PREEMPTIVE
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
MAX_JOB_PREEMPT = 5
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

check "an unknown profile is refused" \
	sh -c 'bsub -app nosuch true 2>&1 | grep -q "Application profile does not exist"'
check "-W over the profile's RUNLIMIT is refused" \
	sh -c 'bsub -app once -W 6 true 2>&1 | grep -q "hard limit"'

id=$(bsub -app once -o "$T/env.out" 'echo "app=$BS_APP"; sleep 300' | job_id_of)
check "the job runs" wait_for 10 state_is "$id" RUN
check "the profile's ENV_VARS reach the job" wait_for 10 grep -qx "app=once" "$T/env.out"
p1=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "a priority job preempts it" wait_for 10 state_is "$id" SSUSP
bkill "$p1" >/dev/null
check "it resumes" wait_for 15 state_is "$id" RUN
p2=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "the profile's MAX_JOB_PREEMPT=1 (not the queue's 5) protects it now" \
	sh -c "sleep 0.5; [ \$(bjobs -noheader -o stat $p2 | tr -d ' ') = PEND ] && [ \$(bjobs -noheader -o stat $id | tr -d ' ') = RUN ]"
done_testing
