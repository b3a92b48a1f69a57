#!/bin/sh
# RUNLIMIT and preemption reach an interactive job's user: bsub -I -W 1
# is killed after its minute, bsub says TERM_RUNLIMIT in LSF's words and
# exits 128+signal, and bjobs -l says TERM_RUNLIMIT.  An interactive job of
# a PREEMPTABLE queue is suspended by a PREEMPTIVE queue's job (its
# processes stopped, the session going on once it is resumed) and, with
# TERMINATE_WHEN = PREEMPT, killed with the preemption as bsub's reason.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
queues() {   # queues "extra idle-queue lines"
	cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = priority
PRIORITY   = 43
PREEMPTION = PREEMPTIVE[idle]
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue

Begin Queue
QUEUE_NAME = idle
PRIORITY   = 20
PREEMPTION = PREEMPTABLE[priority]
$1
End Queue
Q
}
queues ""
start_mbd || exit 1
start_sbd vh1 || exit 1
gone() { [ -z "$(job_pids "$1")" ]; }

# RUNLIMIT: -W is in minutes, so this waits one.
bsub -I -W 1 'echo started; exec sleep 300' </dev/null >"$T/w.out" 2>"$T/w.err" &
bpid=$!
track "$bpid"
check "the -W 1 session starts" wait_for 60 grep -qx started "$T/w.out"
id=$(job_id_of <"$T/w.out")
wait_for 150 sh -c "! kill -0 $bpid"
wait "$bpid"
rc=$?
check "RUNLIMIT ends bsub -I with 128+SIGINT (rc $rc)" test "$rc" -eq 130
check "bsub says TERM_RUNLIMIT in LSF's words" grep -qx \
	'<<Job is terminated by signal 2: TERM_RUNLIMIT: job killed after reaching LSF run time limit>>' \
	"$T/w.err"
check "bjobs -l says TERM_RUNLIMIT" says bjobs "$id" 'Completed <exit>; TERM_RUNLIMIT'
check "no process of it is left" wait_for 60 gone "$id"
[ -s "$T/w.err" ] && diag "$(cat "$T/w.err")"

# Preemption, suspending: the session waits stopped and goes on after.
mkfifo "$T/in"
# Three processes, as procs_in wants: the shell and two sleeps.
bsub -I -q idle 'sleep 300 & a=$!; sleep 300 & b=$!; echo started; read x;
	echo "got $x"; kill $a $b; exit 3' <"$T/in" >"$T/s.out" 2>"$T/s.err" &
bpid=$!
track "$bpid"
exec 7>"$T/in"
check "the preemptable session starts" wait_for 60 grep -qx started "$T/s.out"
id=$(job_id_of <"$T/s.out")
pj=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
check "the preemptive job runs" wait_for 60 state_is "$pj" RUN
check "the interactive job is suspended" state_is "$id" SSUSP
check "bjobs -l says it was preempted" says bjobs "$id" "preempted by job <$pj>"
check "its processes are stopped" wait_for 60 procs_in "$id" T
check "bsub is still there" kill -0 "$bpid"
bkill "$pj" >/dev/null
check "it resumes when the slot is free" wait_for 60 state_is "$id" RUN
echo hello >&7
exec 7>&-
wait "$bpid"
rc=$?
check "the session went on: bsub exits with the job's 3 (rc $rc)" test "$rc" -eq 3
check "the job read its input after the resume" grep -qx "got hello" "$T/s.out"

# TERMINATE_WHEN = PREEMPT: the session is killed, bsub says why.
queues "TERMINATE_WHEN = PREEMPT"
badmin reconfig >/dev/null 2>&1
wait_for 30 sh -c "bqueues -l idle | grep -q PREEMPT"
bsub -I -q idle 'echo started; exec sleep 300' </dev/null >"$T/t.out" 2>"$T/t.err" &
bpid=$!
track "$bpid"
check "the second preemptable session starts" wait_for 60 grep -qx started "$T/t.out"
id=$(job_id_of <"$T/t.out")
pj=$(bsub -q priority -o /dev/null sleep 300 | job_id_of)
wait_for 60 sh -c "! kill -0 $bpid"
wait "$bpid"
rc=$?
check "TERMINATE_WHEN = PREEMPT ends bsub with 128+SIGINT (rc $rc)" test "$rc" -eq 130
check "bsub gives the preemption as the reason" grep -q \
	"^<<Job is terminated by signal 2: The job was preempted by job <$pj> (queue <priority>);>>" \
	"$T/t.err"
check "the job is EXIT" state_is "$id" EXIT
check "no process of it is left" wait_for 60 gone "$id"
check "the preemptive job runs" wait_for 60 state_is "$pj" RUN
[ -s "$T/t.err" ] && diag "$(cat "$T/t.err")"
bkill "$pj" >/dev/null
done_testing
