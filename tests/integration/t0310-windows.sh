#!/bin/sh
# RUN_WINDOW and DISPATCH_WINDOW through the scheduler's time-driven
# stage: a queue whose run window closes (here by reconfig) has its
# running job suspended with LSF's reason and starts nothing; when the
# window opens again the job resumes and the waiting one starts.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
lsb="$T/conf/lsbatch/basalt/configdir"
cp "$lsb/lsb.queues" "$T/queues.base"

# Windows around the daemon's local time: one that holds now for two
# hours either side, one that cannot (three to five hours ahead).
h=$(date +%H | sed 's/^0//')
open_w="$(( (h + 22) % 24 )):00-$(( (h + 2) % 24 )):00"
closed_w="$(( (h + 3) % 24 )):00-$(( (h + 5) % 24 )):00"

set_queue() {   # set_queue KEY=VALUE...: the "win" queue with these lines
	cp "$T/queues.base" "$lsb/lsb.queues"
	{
		printf '\nBegin Queue\nQUEUE_NAME = win\nPRIORITY = 20\n'
		for kv in "$@"; do printf '%s\n' "$kv"; done
		printf 'End Queue\n'
	} >>"$lsb/lsb.queues"
	badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"
}

check "a queue with an open run window" set_queue "RUN_WINDOW = $open_w"
a=$(bsub -q win -o /dev/null sleep 300 | job_id_of)
check "its job runs" wait_for 15 state_is "$a" RUN

check "the run window closes" set_queue "RUN_WINDOW = $closed_w"
check "the running job is suspended" wait_for 15 state_is "$a" SSUSP
check "with LSF's reason" says bjobs "$a" 'The run windows of the queue are closed;'
b=$(bsub -q win -o /dev/null sleep 300 | job_id_of)
check "a new job waits for the window" wait_for 15 sh -c "bjobs -p $b |
    grep -q 'The queue is inactivated by its time windows;'"
check "and stays pending" state_is "$b" PEND

check "the run window opens again" set_queue "RUN_WINDOW = $open_w"
check "the suspended job resumes" wait_for 15 state_is "$a" RUN
check "the waiting job starts" wait_for 15 state_is "$b" RUN

check "a closed dispatch window" set_queue "DISPATCH_WINDOW = $closed_w"
c=$(bsub -q win -o /dev/null sleep 300 | job_id_of)
check "starts nothing" wait_for 15 sh -c "bjobs -p $c |
    grep -q 'The queue is inactivated by its time windows;'"
both() { state_is "$a" "$1" && state_is "$b" "$1"; }
check "and leaves running jobs alone" both RUN

check "TERMINATE_WHEN = WINDOW" set_queue "RUN_WINDOW = $closed_w" \
    "TERMINATE_WHEN = WINDOW"
check "kills the running jobs when the window is closed" wait_for 20 both EXIT
done_testing
