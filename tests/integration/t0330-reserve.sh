#!/bin/sh
# SLOT_RESERVE and BACKFILL on real daemons (lsb.queues(5)).  One virtual
# host with 4 slots, full with 1-slot jobs; a -n 4 job waits with a 1-slot
# job behind it.  When a slot frees, the -n 4 job reserves it: the 1-slot
# job behind no longer takes it (it used to, and the parallel job starved
# behind small jobs for ever); bhosts shows the slot under RSV and bjobs -l
# the reservation, again after mbatchd restarts.  A job with -W short enough to end before the running
# jobs reach their run limits backfills into the reserved slot; once the
# others end, the -n 4 job starts.  In a queue with MAX_RESERVE_TIME[5]
# (MBD_SLEEP_TIME is 1 s here) the reservation ends after 5 seconds by
# itself, and the small job behind then takes the slot.
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

Begin Queue
QUEUE_NAME   = brief
PRIORITY     = 20
SLOT_RESERVE = MAX_RESERVE_TIME[5]
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

# Three jobs with a 10-minute run limit and one without fill the host.
r1=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
r2=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
r3=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
r4=$(bsub -o /dev/null sleep 300 | job_id_of)
for j in $r1 $r2 $r3 $r4; do
	wait_for 20 state_is "$j" RUN || diag "job $j did not start"
done
check "four 1-slot jobs fill the 4-slot host" state_is "$r4" RUN
big=$(bsub -n 4 -o /dev/null true | job_id_of)
small=$(bsub -o /dev/null sleep 1 | job_id_of)
check "the -n 4 job waits" wait_for 10 state_is "$big" PEND

bkill "$r4" >/dev/null
check "a slot frees" wait_for 20 state_is "$r4" EXIT
# bjobs -l wraps at 80 columns, continuing at column 22: one line again.
long() {
	bjobs -l "$1" 2>/dev/null | sed -e ':a' -e 'N' -e '$!ba' \
	    -e 's/\n                     //g' -e 's/\n/ /g'
}
reserved() {
	long "$big" | grep -q "Reserved <1> job slot(s) on host(s) <vh1>;"
}
check "the -n 4 job reserves it (bjobs -l)" wait_for 20 reserved
long "$big" >"$T/big.l"
check "its pending reason says so" \
	grep -q 'Waiting for reserved job slots: 1 of 4 reserved;' "$T/big.l"
check "the estimated start comes from the run limits" \
	grep -q 'Estimated job start time: ' "$T/big.l"
check "bhosts shows the slot under RSV" sh -c "test \"\$(bhosts vh1 | awk 'NR == 2 { print \$9 }')\" = 1"
check "and the host full (NJOBS counts it)" sh -c "bhosts vh1 | awk 'NR == 2 { print \$2, \$5 }' | grep -qx 'closed 4'"
check "bhosts -l shows RSV" sh -c "bhosts -l vh1 | grep -A1 RSV | tail -1 | awk '{ print \$NF }' | grep -qx 1"
# The small job behind must not take the reserved slot: give the daemon
# passes to get it wrong (a submission and a job end each cause one).
nudge=$(bsub -H -o /dev/null true | job_id_of)
bkill "$nudge" >/dev/null
wait_for 10 state_is "$nudge" EXIT
check "the 1-slot job behind does not overtake it" state_is "$small" PEND
check "busers shows the slot under RSV" sh -c "busers $(id -un) | awk 'NR == 2 { print \$9 }' | grep -qx 1"
# Reservations are not journaled: a restarted mbatchd reserves again.
stop_mbd
start_mbd || exit 1
check "after mbatchd restarts, the slot is reserved again" wait_for 30 reserved
check "and the 1-slot job behind still waits" state_is "$small" PEND

bf=$(bsub -W 1 -o /dev/null sleep 1 | job_id_of)
check "a -W 1 job ends before the reservation starts: it backfills" \
	wait_for 20 state_is "$bf" DONE
check "the reservation stays" reserved

bkill "$r1" "$r2" "$r3" >/dev/null
check "once the others end, the -n 4 job starts on the 4 slots" \
	wait_for 30 state_is "$big" DONE
check "and the small job after it" wait_for 30 state_is "$small" DONE
check "no slot is reserved any more" sh -c "test \"\$(bhosts vh1 | awk 'NR == 2 { print \$9 }')\" = 0"

# MAX_RESERVE_TIME: the reservation lapses without any other event.
f1=$(bsub -q brief -o /dev/null sleep 300 | job_id_of)
f2=$(bsub -q brief -o /dev/null sleep 300 | job_id_of)
f3=$(bsub -q brief -o /dev/null sleep 300 | job_id_of)
wait_for 20 state_is "$f3" RUN || diag "job $f3 did not start"
big2=$(bsub -q brief -n 4 -o /dev/null true | job_id_of)
small2=$(bsub -q brief -o /dev/null sleep 300 | job_id_of)
rsv_one() {
	test "$(bhosts vh1 | awk 'NR == 2 { print $9 }')" = 1
}
check "a -n 4 job of a MAX_RESERVE_TIME[5] queue reserves the free slot" \
	wait_for 10 rsv_one
check "the small job behind it waits" state_is "$small2" PEND
check "after 5 seconds the reservation lapses and the small job starts" \
	wait_for 15 state_is "$small2" RUN
check "the -n 4 job still waits, holding nothing" sh -c \
	"bjobs $big2 | grep -q PEND && test \"\$(bhosts vh1 | awk 'NR == 2 { print \$9 }')\" = 0"
bkill "$f1" "$f2" "$f3" "$small2" >/dev/null
check "once the host is free the -n 4 job runs" wait_for 30 state_is "$big2" DONE
done_testing
