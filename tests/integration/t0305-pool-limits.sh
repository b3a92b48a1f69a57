#!/bin/sh
# Queue-based fairshare on real daemons: a pool queue held below its share
# by its own per-user or per-CPU limit gives what it cannot use to the
# other queues of the pool (issue 12, item 5).  Two virtual hosts with six
# slots each, shares 50/30/20.  With UJOB_LIMIT = 3 (one user) q1 runs 3
# and q2, q3 get 5 and 4; with PJOB_LIMIT worth 2 slots per host q1 runs 4
# and q2, q3 get 5 and 3.  Before, the slots q1 could not use stayed idle.
# Last, a pool queue named in a PREEMPTIVE list is refused (item 9).
. "$top_srcdir/tests/lib.sh"

BS_MXJ=6
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
queues() {   # queues "q1 extra line"
	cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = q1
PRIORITY   = 40
SLOT_POOL  = pool1
SLOT_SHARE = 50
$1
End Queue

Begin Queue
QUEUE_NAME = q2
PRIORITY   = 35
SLOT_POOL  = pool1
SLOT_SHARE = 30
End Queue

Begin Queue
QUEUE_NAME = q3
PRIORITY   = 30
SLOT_POOL  = pool1
SLOT_SHARE = 20
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 10
End Queue
Q
}
queues "UJOB_LIMIT = 3"
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

running_in() { bjobs -r -u all -q "$1" -noheader -o jobid 2>/dev/null | grep -c .; }
counts_are() { [ "$(running_in q1) $(running_in q2) $(running_in q3)" = "$1" ]; }
all_gone() { ! bjobs -u all >/dev/null 2>&1; }
say_counts() { diag "running q1 q2 q3: $(running_in q1) $(running_in q2) $(running_in q3)"; }
# Flood the queues while they are inactive, so one pass sees every
# queue's demand at once.
flood() {
	badmin qinact q1 q2 q3 >/dev/null
	for q in q1 q2 q3; do
		i=0
		while [ $i -lt 12 ]; do
			bsub -q "$q" -o /dev/null sleep 300 >/dev/null
			i=$((i + 1))
		done
	done
	badmin qact q1 q2 q3 >/dev/null
}

flood
check "q1 held to 3 by UJOB_LIMIT gives the rest of its share away (3, 5, 4)" \
	wait_for 15 counts_are "3 5 4"
say_counts
check "no slot stays idle" sh -c "[ \$(bjobs -r -u all -noheader -o jobid | grep -c .) -eq 12 ]"
check "bqueues -l shows q2's deserved slots grown to 5" \
	sh -c "bqueues -l q2 | grep -q 'DESERVED_SLOTS = 5'"

bkill -u all 0 >/dev/null 2>&1
wait_for 30 all_gone
# PJOB_LIMIT is slots per CPU: choose it so that each host gives q1 two.
# The virtual hosts are this machine: sbatchd reports its online CPUs.
ncpus=$(getconf _NPROCESSORS_ONLN)
pjob=$(awk -v n="$ncpus" 'BEGIN { printf "%g", 2 / n }')
diag "hosts have $ncpus CPUs: PJOB_LIMIT = $pjob"
queues "PJOB_LIMIT = $pjob"
badmin reconfig >/dev/null 2>&1
flood
check "q1 held to 4 by PJOB_LIMIT gives the rest of its share away (4, 5, 3)" \
	wait_for 15 counts_are "4 5 3"
say_counts

# lsb.queues(5): a pool queue named in another queue's PREEMPTIVE list is
# an error (issue 12, item 9): ckconfig says so, reconfig is refused and
# the running configuration stays.
bkill -u all 0 >/dev/null 2>&1
wait_for 30 all_gone
cp "$lsb/lsb.queues" "$T/queues.good"
printf '\nBegin Queue\nQUEUE_NAME = urgent\nPRIORITY = 60\nPREEMPTION = PREEMPTIVE[q3]\nEnd Queue\n' \
	>>"$lsb/lsb.queues"
check "badmin ckconfig reports the pool queue in a PREEMPTIVE list" \
	sh -c "badmin ckconfig 2>&1 | grep -q 'PREEMPTIVE\[q3\] names a queue of slot pool pool1'"
check "mbatchd -C fails on it" sh -c "! mbatchd -C >/dev/null 2>&1"
check "badmin reconfig is refused" sh -c "! badmin reconfig >/dev/null 2>&1"
check "the running configuration is unchanged" sh -c "! bqueues urgent >/dev/null 2>&1 && bqueues q3 >/dev/null"
cp "$T/queues.good" "$lsb/lsb.queues"
done_testing
