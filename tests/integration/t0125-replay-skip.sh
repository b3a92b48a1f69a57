#!/bin/sh
# A restart passes over the journal records of jobs cleaned later in the
# same journal (lib/journal/skip.h) and must leave exactly the state a
# replay of every record leaves.  The journal mixes cleaned jobs with live
# ones: plain jobs, arrays (one cleaned whole, one that stays), a job in
# an implicit job group, a held job that depends on a job cleaned since,
# a requeued job; mbatchd is then started twice on copies of the same
# disk, once as it starts in service and once applying every record
# (BS_TEST_REPLAY_ALL), and bjobs -l, bjgroup, bqueues, badmin showstatus
# and the id of the next job must be the same.
. "$top_srcdir/tests/lib.sh"

LSB_API_CONNTIMEOUT=20
export LSB_API_CONNTIMEOUT

make_cluster vh1
# The 3 newest finished jobs stay, older ones are cleaned at once.
sed -i 's/^CLEAN_PERIOD = .*/CLEAN_PERIOD = 3600\nMAX_JOB_NUM = 3/' \
	"$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1
start_sbd vh1 || exit 1

sub() { bsub -o /dev/null "$@" | job_id_of; }
finished() { state_is "$1" DONE || state_is "$1" EXIT; }
gone() { bjobs -a "$1" 2>&1 | grep -q "is not found"; }

a=$(sub true)
check "a first job is DONE" wait_for 20 state_is "$a" DONE
held1=$(sub -H -w "exit($a)" true)     # waits on a, cleaned below
arr=$(sub -J "arr[1-4]" true)
grp=$(sub -g /proj/sub true)
held2=$(sub -H -J live sleep 1)
b=$(sub -J b "exit 3")
rq=$(sub -J rq true)
check "rq is DONE" wait_for 20 state_is "$rq" DONE
brequeue "$rq" >/dev/null 2>&1
check "the requeued rq is DONE again" wait_for 20 state_is "$rq" DONE
arr2=$(sub -J "arr2[1-2]" true)
for n in 1 2 3 4 5; do
	last=$(sub true)
done
check "the last job is DONE" wait_for 20 state_is "$last" DONE
check "the array arr2 finished" wait_for 20 sh -c \
	"bjobs -a -noheader -o stat $arr2 | grep -qv -e PEND -e RUN || exit 1"
all_gone() {
	for id in $a $arr $grp $b $rq; do
		gone "$id" || return 1
	done
}
check "the older finished jobs are cleaned" wait_for 20 all_gone
# lsb.acct's mark moves past the cleans with the next finished job: only
# records before it may be passed over (the file is made from the rest).
after=$(sub true)
check "a job finished after the cleans is DONE" wait_for 20 state_is "$after" DONE
check "the held job waiting on a stays" state_is "$held1" PSUSP
check "the other held job stays" state_is "$held2" PSUSP

# Nothing runs after the restarts: the state is the journal's alone.
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
stop_mbd
cp -a "$T/work" "$T/work.disk"

# state NAME: what mbatchd shows, then one more job's id.
state() {
	{
		bjobs -u all -a -l
		bjgroup
		bqueues -w
		badmin showstatus | grep -v "^Basalt"
	} >"$T/state.$1" 2>&1
	bsub -H -o /dev/null true | job_id_of >"$T/next.$1"
}

: >"$T/log/mbatchd.out"
start_mbd || exit 1
state skip
stop_mbd
passed=$(sed -n 's/.*; \([0-9]*\) of jobs cleaned later passed over.*/\1/p' \
	"$T/log/mbatchd.out")
check "the restart passed over records of cleaned jobs ($passed)" \
	test "${passed:-0}" -gt 0

rm -rf "$T/work"
mv "$T/work.disk" "$T/work"
mv "$T/log/mbatchd.out" "$T/log/mbatchd.skip.out"
BS_TEST_REPLAY_ALL=1 start_mbd || exit 1
state all
stop_mbd
check "applying every record passes none over" \
	grep -q "; 0 of jobs cleaned later passed over" "$T/log/mbatchd.out"

check "the jobs, groups, queues and counters are the same" \
	diff "$T/state.all" "$T/state.skip"
check "they show the live jobs" sh -c \
	"grep -q 'Job <$held1>' '$T/state.skip' && grep -q 'Job <$held2>' '$T/state.skip'"
check "the next job id is the same ($(cat "$T/next.all"))" \
	diff "$T/next.all" "$T/next.skip"
check "and follows the last job" test "$(cat "$T/next.skip")" -gt "$after"
done_testing
