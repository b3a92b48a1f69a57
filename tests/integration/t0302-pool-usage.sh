#!/bin/sh
# Queue-based fairshare remembers who used the pool: two queues share a
# pool of 3 slots 50/50, so one of them gets 2 and the other 1.  With no
# usage yet the higher-priority queue q1 gets the 2 (PRIORITY order);
# after q1 has run the whole pool alone for a while its decayed usage is
# the larger, and the next split gives the 2 to q2.  The usage is what
# mbatchd's tick adds up for running jobs (mbd-usage.c).
. "$top_srcdir/tests/lib.sh"

BS_MXJ=3
make_cluster vh1
cat >"$T/conf/lsbatch/basalt/configdir/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = q1
PRIORITY   = 40
SLOT_POOL  = pool1
SLOT_SHARE = 50
End Queue

Begin Queue
QUEUE_NAME = q2
PRIORITY   = 30
SLOT_POOL  = pool1
SLOT_SHARE = 50
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 10
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

running_in() { bjobs -r -u all -q "$1" -noheader -o jobid 2>/dev/null | grep -c .; }
counts_are() { [ "$(running_in q1) $(running_in q2)" = "$1" ]; }
say_counts() { diag "running q1 q2: $(running_in q1) $(running_in q2)"; }
# split: both queues flooded while inactive, so one pass sees both.
split() {
	badmin qinact q1 q2 >/dev/null
	for q in q1 q2; do
		for i in 1 2 3; do
			bsub -q "$q" -o /dev/null sleep 300 >/dev/null
		done
	done
	badmin qact q1 q2 >/dev/null
}
kill_all() {
	bkill -u all 0 >/dev/null 2>&1
	wait_for 30 sh -c '! bjobs -u all >/dev/null 2>&1'
}

split
check "no usage yet: the higher-priority queue gets the odd slot (2 1)" \
	wait_for 15 counts_are "2 1"
say_counts
kill_all

# q1 alone on the whole pool, across several of mbatchd's ticks
# (MBD_SLEEP_TIME = 1 in the test cluster).
for i in 1 2 3; do bsub -q q1 -o /dev/null sleep 300 >/dev/null; done
check "q1 alone runs the whole pool" wait_for 15 counts_are "3 0"
started=$(date +%s)
ran_a_while() { [ $(($(date +%s) - started)) -ge 4 ]; }
wait_for 10 ran_a_while
kill_all

split
check "after q1 used the pool alone, q2 gets the odd slot (1 2)" \
	wait_for 15 counts_are "1 2"
say_counts
done_testing
