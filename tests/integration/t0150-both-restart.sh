#!/bin/sh
# mbatchd and both sbatchd down at once while jobs run on two virtual hosts,
# and some jobs finish while nothing is up to see it.  After all restart:
# the finished jobs get their true exit status, the running ones are RUN
# and finish later, and nothing runs twice.  Jobs dispatched just before
# mbatchd died, whose start order never reached the host, are pending
# again and run exactly once.
. "$top_srcdir/tests/lib.sh"

# Commands wait for mbatchd across its restart.
LSB_API_CONNTIMEOUT=20
export LSB_API_CONNTIMEOUT

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

# job NAME HOST EXIT: runs on HOST, notes that it ran, waits for $T/go.NAME
# and exits with EXIT.
job() {
	bsub -J "$1" -m "$2" -o /dev/null \
		"echo $1 \$LSB_JOBID >> $T/ran; while [ ! -e $T/go.$1 ]; do sleep 0.1; done; exit $3" |
		job_id_of
}
a1=$(job a1 vh1 0)   # finishes while everything is down
a2=$(job a2 vh1 0)   # still runs after the restart
b1=$(job b1 vh2 3)   # finishes while everything is down, EXIT 3
b2=$(job b2 vh2 0)   # still runs after the restart
all_run() {
	for id in $a1 $a2 $b1 $b2; do
		state_is "$id" RUN || return 1
	done
	[ "$(wc -l <"$T/ran")" -eq 4 ]
}
check "four jobs run on vh1 and vh2" wait_for 15 all_run

# Dispatched, never started: vh2's sbatchd is frozen, so the start orders
# mbatchd sends it wait unread in its socket, and die with it.
kill -STOP "$(sbd_pid vh2)"
p1=$(bsub -J p1 -m vh2 -o /dev/null "echo p1 \$LSB_JOBID >> $T/ran" | job_id_of)
p2=$(bsub -J p2 -m vh2 -o /dev/null "echo p2 \$LSB_JOBID >> $T/ran" | job_id_of)
dispatched() {
	bjobs -noheader -o "stat exec_host" "$1" 2>/dev/null | grep -q "RUN *vh2"
}
both_dispatched() { dispatched "$p1" && dispatched "$p2"; }
check "two more jobs are dispatched to the frozen vh2" wait_for 10 both_dispatched

# Everything down: mbatchd crashes, vh2's sbatchd is killed with its unread
# orders, vh1's is stopped cleanly.
kill9_mbd
kill -KILL "$(sbd_pid vh2)"
wait "$(sbd_pid vh2)" 2>/dev/null
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null

# Two jobs finish while nobody is up: bs-jobwrap leaves their status
# (jobs/ID.INDEX.INSTANCE.status, one per run of the job).
touch "$T/go.a1" "$T/go.b1"
status_left() {   # status_left HOST ID
	for f in "$T/sbd/$1/jobs/$2".0.*status; do
		test -s "$f" && return 0
	done
	return 1
}
both_left() { status_left vh1 "$a1" && status_left vh2 "$b1"; }
check "a1 and b1 finish while the daemons are down" wait_for 10 both_left

start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
check "a1, finished meanwhile, is DONE" wait_for 20 state_is "$a1" DONE
check "b1, finished meanwhile, is EXIT" wait_for 20 state_is "$b1" EXIT
check "with its true exit code 3" sh -c "bjobs -a -noheader -o exit_code $b1 | grep -qw 3"
check "a2 is still RUN" state_is "$a2" RUN
check "b2 is still RUN" state_is "$b2" RUN
check "the never-started jobs are requeued" sh -c "
	grep -q 'job $p1\\[0\\]: the execution host no longer has the job, requeued' '$T/log/mbatchd.out' &&
	grep -q 'job $p2\\[0\\]: the execution host no longer has the job, requeued' '$T/log/mbatchd.out'"
# both_are STATE ID ID
both_are() { state_is "$2" "$1" && state_is "$3" "$1"; }
check "and run to DONE" wait_for 20 both_are DONE "$p1" "$p2"
touch "$T/go.a2" "$T/go.b2"
check "a2 and b2 finish DONE" wait_for 15 both_are DONE "$a2" "$b2"
check "every job ran exactly once" \
	sh -c "sort '$T/ran' | awk '{ print \$1 }' | uniq -c | awk '\$1 != 1 { exit 1 }' &&
	[ \$(wc -l <'$T/ran') -eq 6 ]"
done_testing
