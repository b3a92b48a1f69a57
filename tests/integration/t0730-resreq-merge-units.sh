#!/bin/sh
# What workflow engines written for LSF send as -R, on a live cluster:
# several -R options are merged (`-n 6 -R span[hosts=1] -R rusage[mem=10]`
# keeps its span and runs on one host), memory units are understood in
# select[] and rusage[] (`select[mem>=2048MB] rusage[mem=2048MB]` runs,
# and pends where no host has that memory), and LSF_UNIT_FOR_LIMITS=MB
# makes a bare -M 100 and a queue's MEMLIMIT mean megabytes.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=6 make_cluster vh1 vh2
echo "LSF_UNIT_FOR_LIMITS=MB" >>"$T/conf/lsf.conf"
cat >>"$T/conf/lsbatch/basalt/configdir/lsb.queues" <<Q

Begin Queue
QUEUE_NAME   = capped
PRIORITY     = 10
MEMLIMIT     = 200
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

exec_host() { bjobs -noheader -o "exec_host" "$1" 2>/dev/null | tr -d ' '; }
runs_on() { state_is "$1" RUN && [ "$(exec_host "$1")" = "$2" ]; }

# One slot taken on each host: six slots no longer fit on one host, so
# only a job that kept its span[hosts=1] waits instead of spreading.
b1=$(bsub -m vh1 -o /dev/null sleep 300 | job_id_of)
b2=$(bsub -m vh2 -o /dev/null sleep 300 | job_id_of)
check "the blockers run" wait_for 15 runs_on "$b1" vh1
check "on both hosts" wait_for 15 runs_on "$b2" vh2
j=$(bsub -n 6 -R "span[hosts=1]" -R "rusage[mem=10]" -o /dev/null sleep 300 | job_id_of)
check "-R given twice is accepted" test -n "$j"
# The scheduler has looked at it (it has a reason) and left it waiting.
pend_span() { state_is "$1" PEND && bjobs -p "$1" | grep -q "hosts;"; }
check "six slots with span[hosts=1] wait while no host has six free" \
	wait_for 15 pend_span "$j"
check "bjobs -l shows both -R strings merged" \
	sh -c "bjobs -l $j | tr -d '\n ' | grep -q 'rusage\[mem=10\]span\[hosts=1\]'"
bkill "$b2" >/dev/null
check "once vh2 is free, all six run there" wait_for 20 runs_on "$j" "6*vh2"
bkill "$j" "$b1" >/dev/null

# Memory units: 2048MB fits the host (it has more free memory than that,
# or the job would wait, as LSF's does); 64TB fits no host.
free_mb=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
m=$(bsub -R "select[mem>=2048MB] rusage[mem=2048MB]" -o /dev/null sleep 300 | job_id_of)
check "select[mem>=2048MB] rusage[mem=2048MB] is accepted" test -n "$m"
if [ "${free_mb:-0}" -gt 4096 ]; then
	check "and runs on a host with that much memory" wait_for 20 state_is "$m" RUN
else
	diag "only ${free_mb} MB free here: the 2048MB job may wait"
fi
big=$(bsub -R "select[mem>=64TB]" -o /dev/null sleep 300 | job_id_of)
unmet() { bjobs -p "$1" | grep -q "Job's resource requirements not satisfied: 2 hosts;"; }
check "select[mem>=64TB] waits: no host has it" wait_for 20 unmet "$big"
check "a unit LSF does not know is refused" \
	sh -c "! bsub -R 'rusage[mem=2QB]' -o /dev/null true 2>$T/qb.err"
check "with a message naming it" grep -q "unknown unit 'QB'" "$T/qb.err"
bkill "$m" "$big" >/dev/null

# LSF_UNIT_FOR_LIMITS=MB: -M 100 is 100 MB, and so is the queue's 200.
k=$(bsub -M 100 -o /dev/null sleep 300 | job_id_of)
check "bjobs -l shows -M 100 as 100 MB, in LSF's form" \
	sh -c "bjobs -l $k | grep -A1 'MEMLIMIT' | grep -qx ' 100 M'"
check "-M 150 fits the queue's MEMLIMIT of 200 MB" \
	sh -c "bsub -q capped -M 150 -o /dev/null true | grep -q 'is submitted'"
check "-M 300 is over it" \
	sh -c "! bsub -q capped -M 300 -o /dev/null true 2>/dev/null"
check "-M 1G is over it too" \
	sh -c "! bsub -q capped -M 1G -o /dev/null true 2>/dev/null"
bkill "$k" >/dev/null
done_testing
