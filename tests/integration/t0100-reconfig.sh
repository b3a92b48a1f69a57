#!/bin/sh
# badmin reconfig under load: a valid new configuration takes effect
# without touching running jobs; an invalid one is reported as file:line
# and changes nothing.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
lsb="$T/conf/lsbatch/basalt/configdir"

ids=""
for i in 1 2 3 4; do
	ids="$ids $(bsub -o /dev/null sleep 300 | job_id_of)"
done
for i in 1 2 3 4 5 6; do
	bsub -o /dev/null true >/dev/null
done
all_run() { for id in $ids; do state_is "$id" RUN || return 1; done; }
check "four long jobs run" wait_for 15 all_run

cat >>"$lsb/lsb.queues" <<Q

Begin Queue
QUEUE_NAME = night
PRIORITY = 15
DESCRIPTION = added by reconfig
End Queue
Q
check "a valid reconfig succeeds" sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
check "the new queue exists" sh -c 'bqueues night | grep -q "^night"'
check "running jobs were not touched" all_run
check "and jobs can be submitted to the new queue" sh -c 'bsub -q night -o /dev/null true | grep -q "queue <night>"'

cp "$lsb/lsb.queues" "$T/queues.good"
printf '\nBegin Queue\nQUEUE_NAME = broken\nPRIORITY = lots\nEnd Queue\n' >>"$lsb/lsb.queues"
line=$(grep -n 'PRIORITY = lots' "$lsb/lsb.queues" | cut -d: -f1)
badmin reconfig >"$T/bad.out" 2>&1
check "an invalid reconfig fails" sh -c "! badmin reconfig >/dev/null 2>&1"
check "and names file and line" grep -q "lsb.queues:$line:" "$T/bad.out"
check "the running configuration is unchanged" sh -c '! bqueues broken >/dev/null 2>&1 && bqueues night >/dev/null'
check "running jobs were not touched" all_run
check "badmin ckconfig reports the same error" sh -c "badmin ckconfig 2>&1 | grep -q 'lsb.queues:$line:'"
cp "$T/queues.good" "$lsb/lsb.queues"
check "after the fix reconfig succeeds again" sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
done_testing
