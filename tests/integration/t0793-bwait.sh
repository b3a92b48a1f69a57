#!/bin/sh
# bwait -w: returns 0 once the condition (bsub -w's syntax, evaluated by
# mbatchd with the scheduler's evaluator) holds, and not before; fails
# with 255 and a message when the condition can never hold, names a job
# that does not exist, or is not a condition; -t and -r are checked.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

a=$(bsub -J waitA -o /dev/null "while [ ! -e $T/go ]; do sleep 0.1; done" | job_id_of)
check "job A runs" wait_for 20 state_is "$a" RUN

bwait -w "done($a)" >"$T/bwait.out" 2>&1 &
bw=$!
track "$bw"
bwait -w "ended(waitA)" >"$T/bwait2.out" 2>&1 &
bw2=$!
track "$bw2"
# Each has connected to mbatchd (its log names every client's pid) and
# had its first answer, and is still waiting.
connected() { grep -q "pid=$1): hello" "$T/log/mbatchd.out"; }
check "bwait asks mbatchd" wait_for 10 connected "$bw"
check "bwait by name asks mbatchd" wait_for 10 connected "$bw2"
check "bwait waits while the job runs" kill -0 "$bw"
check "bwait by job name waits too" kill -0 "$bw2"
touch "$T/go"
check "job A is done" wait_for 20 state_is "$a" DONE
gone() { ! kill -0 "$1" 2>/dev/null; }
check "bwait returns once the job is done" wait_for 15 gone "$bw"
wait "$bw"
check "... with exit status 0" [ $? -eq 0 ]
check "bwait by name returns too" wait_for 15 gone "$bw2"
wait "$bw2"
check "... with exit status 0" [ $? -eq 0 ]

b=$(bsub -J waitB -o /dev/null "exit 2" | job_id_of)
check "job B exits" wait_for 20 state_is "$b" EXIT
bwait -w "done($b)" >"$T/never" 2>&1
check "done() of an exited job can never hold: 255" [ $? -eq 255 ]
check "... and says so" grep -q "Wait condition is never satisfied" "$T/never"
bwait -w "exit($b, 2) && done($a)" 2>&1
check "a compound condition that holds returns 0 at once" [ $? -eq 0 ]
bwait -w "done(999999)" >"$T/nojob" 2>&1
check "an unknown job: 255" [ $? -eq 255 ]
check "... Job <999999> is not found" grep -q "Job <999999> is not found" "$T/nojob"
bwait -w "done(" >/dev/null 2>&1
check "a malformed condition: 255" [ $? -eq 255 ]
bwait -w "done($a)" -t 0 >/dev/null 2>&1
check "-t 0 is refused" [ $? -eq 255 ]
bwait >/dev/null 2>&1
check "no -w is refused" [ $? -eq 255 ]
bwait -w "done($a)" -t 1 -r 5
check "-t and -r accepted" [ $? -eq 0 ]
done_testing
