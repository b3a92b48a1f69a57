#!/bin/sh
# bslots as LSF 10.1: free slots are a backfill window without limit; a
# slot reserved for a pending parallel job (SLOT_RESERVE) is one until
# that job is expected to start; -n, -W and -R narrow the rows, -l names
# the hosts.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=4
make_cluster vh1
cat >"$T/conf/lsbatch/basalt/configdir/lsb.queues" <<Q
Begin Queue
QUEUE_NAME   = normal
PRIORITY     = 30
SLOT_RESERVE = MAX_RESERVE_TIME[600]
BACKFILL     = Y
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

bslots >"$T/idle" 2>&1
check "bslots succeeds" [ $? -eq 0 ]
check "an idle host: its 4 slots without limit" python3 -c "
l = open('$T/idle').read().split('\n')
assert l[0] == 'SLOTS          RUNTIME', l
assert l[1].split() == ['4', 'UNLIMITED'] and l[2] == '', l
"
check "-n 5: no window" sh -c 'bslots -n 5 | grep -q "^No backfill window exists at this moment."'
check "-R a host that does not match: no window" \
	sh -c 'bslots -R "select[hname==vh9]" | grep -q "^No backfill window"'
check "-R the host: its slots" \
	sh -c 'bslots -R "select[hname==vh1]" | grep -q "^4  *UNLIMITED"'
check "-l names the host" sh -c 'bslots -l | grep -q "^  HOSTS: 4\*vh1"'

r1=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
r2=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
r3=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
r4=$(bsub -o /dev/null sleep 300 | job_id_of)
for j in $r1 $r2 $r3 $r4; do
	wait_for 20 state_is "$j" RUN || diag "job $j did not start"
done
big=$(bsub -n 4 -o /dev/null true | job_id_of)
check "the -n 4 job waits" wait_for 10 state_is "$big" PEND
bkill "$r4" >/dev/null
check "a slot frees" wait_for 20 state_is "$r4" EXIT
reserved() {
	bjobs -l "$big" 2>/dev/null | tr -d '\n ' | grep -q "Reserved<1>jobslot"
}
check "the -n 4 job reserves it" wait_for 20 reserved
bslots >"$T/rsv" 2>&1
check "the reserved slot is a window until the running jobs' limits" \
	python3 -c "
import re
l = open('$T/rsv').read().split('\n')
assert l[0] == 'SLOTS          RUNTIME', l
assert re.match(r'^1 +(9|10) minutes\$', l[1]) and l[2] == '', l
"
check "-W 20: that window is too short" \
	sh -c 'bslots -W 20 | grep -q "^No backfill window"'
check "-W 0:5: it is long enough" sh -c 'bslots -W 0:5 | grep -q "^1  *"'
bslots -W x >"$T/bad" 2>&1
check "a bad -W fails" [ $? -eq 255 ]
for j in $r1 $r2 $r3 $big; do bkill "$j" >/dev/null 2>&1; done
done_testing
