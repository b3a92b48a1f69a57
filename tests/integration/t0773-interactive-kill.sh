#!/bin/sh
# Ends of an interactive session: bkill reaches bsub with LSF's message and
# exit code; killing bsub (SIGTERM, SIGKILL, a closed terminal) kills the
# job, and a lost link (SIGKILL) is the reason bjobs -l and bhist -l give;
# a job killed before it started ends bsub with 126; and restarts of
# sbatchd and mbatchd in the middle of a session leave it running, and
# nothing of it once it ended.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
drive() { python3 "$top_srcdir/tests/tools/bs-ptydrive.py" "$@"; }
gone() { [ -z "$(job_pids "$1")" ]; }
LOST='The interactive connection to bsub was lost'
not_lost() { ! says bjobs "$1" "$LOST"; }
has_relay() {
	for p; do
		tr '\0' ' ' <"/proc/$p/cmdline" | grep -q 'bs-jobwrap -i' && return 0
	done
	return 1
}
none_alive() { for p; do kill -0 "$p" 2>/dev/null && return 1; done; return 0; }

# bkill: the job's TERMINATE (SIGINT first) ends it; bsub says so.
bsub -I 'echo started; exec sleep 300' >"$T/k.out" 2>"$T/k.err" &
bpid=$!
track "$bpid"
check "the bkill victim starts" wait_for 60 grep -qx started "$T/k.out"
id=$(job_id_of <"$T/k.out")
bkill "$id" >/dev/null
wait "$bpid"
rc=$?
check "bsub exits with 128 + the signal that ended the job (rc $rc)" test "$rc" -eq 130
check "bsub prints that the job was terminated" grep -q '^<<Job is terminated by signal 2' "$T/k.err"
check "the job is EXIT" wait_for 60 state_is "$id" EXIT

# bkill of a job-control shell, which ignores SIGINT and SIGTERM and has
# taken itself out of the job's process group: the relay passes the
# terminate on as a hangup, and the session ends with LSF's message.
drive --screen "$T/is.out" -- bsub -Is 'env PS1="PROMPT> " bash --norc --noprofile -i' <<'S'
expect PROMPT>
send echo "job=$LSB_JOBID" | tr j J\r
expect Job=[0-9]+\r
expect PROMPT>
run bkill $(bjobs -noheader -o jobid | tail -n 1) >/dev/null
expect <<Job is terminated by signal
exit 129
S
check "bkill ends an -Is shell session with LSF's message and 128+SIGHUP" test $? -eq 0
id=$(sed -n 's/.*Job=\([0-9][0-9]*\).*/\1/p' "$T/is.out" | tail -n 1)
check "and leaves no process of the shell" wait_for 60 gone "$id"

# Signals that end bsub end the job.
for sig in TERM INT HUP; do
	bsub -I 'echo started; exec sleep 300' >"$T/s.out" 2>"$T/s.err" &
	bpid=$!
	track "$bpid"
	wait_for 60 grep -qx started "$T/s.out"
	id=$(job_id_of <"$T/s.out")
	kill -"$sig" "$bpid"
	wait "$bpid"
	rc=$?
	check "SIG$sig ends bsub (rc $rc)" test "$rc" -gt 128
	check "SIG$sig: the job is killed" wait_for 60 state_is "$id" EXIT
	check "SIG$sig: no process of the job is left" wait_for 60 gone "$id"
	check "SIG$sig: bsub's kill, not a lost link, ended it" not_lost "$id"
done

# A lost link (bsub killed outright): the relay hangs the job up.
bsub -I 'echo started; exec sleep 300' >"$T/l.out" 2>"$T/l.err" &
bpid=$!
wait_for 60 grep -qx started "$T/l.out"
id=$(job_id_of <"$T/l.out")
kill -KILL "$bpid"
wait "$bpid" 2>/dev/null
check "a lost link ends the job" wait_for 60 state_is "$id" EXIT
check "and leaves no process" wait_for 60 gone "$id"
check "bjobs -l gives the lost link as the reason" says bjobs "$id" "$LOST"
check "bhist -l too" says bhist "$id" "$LOST"
check "the exit_reason field too" sh -c \
    "bjobs -noheader -o exit_reason $id | grep -qF '$LOST'"

# A closed terminal: bsub gets SIGHUP, the shell's job ends.
drive --screen "$T/c.out" -- bsub -Is 'env PS1="PROMPT> " sh -i' <<'S'
expect PROMPT>
send echo "job=$LSB_JOBID" | tr j J\r
expect Job=[0-9]+\r
close
S
id=$(sed -n 's/.*Job=\([0-9][0-9]*\).*/\1/p' "$T/c.out" | tail -n 1)
check "closing the terminal kills the job" wait_for 60 state_is "$id" EXIT
check "and leaves no process" wait_for 60 gone "$id"

# Killed before it started: 126, as bsub -K.
bsub -I -H 'true' >"$T/p.out" 2>"$T/p.err" &
bpid=$!
track "$bpid"
wait_for 60 grep -q 'is submitted' "$T/p.out"
id=$(job_id_of <"$T/p.out")
wait_for 60 state_is "$id" PSUSP
bkill "$id" >/dev/null
wait "$bpid"
rc=$?
check "a job killed while pending ends bsub with 126 (rc $rc)" test "$rc" -eq 126
check "with a message" grep -q '^<<Job is terminated before it started' "$T/p.err"

# Restarts: the relay is the job's own process, so the session survives
# an sbatchd and an mbatchd restart and bsub still gets the exit status.
mkfifo "$T/in"
bsub -I 'echo started; read x; echo "got $x"; exit 4' <"$T/in" >"$T/r.out" 2>"$T/r.err" &
bpid=$!
track "$bpid"
exec 7>"$T/in"
check "the restart session starts" wait_for 60 grep -qx started "$T/r.out"
id=$(job_id_of <"$T/r.out")
# The job's processes and their parents: the relay is the command's.
jp=$(job_pids "$id")
rpids=$(for p in $jp; do echo "$p"; ps -o ppid= -p "$p"; done | sort -u)
check "the relay is one of them" has_relay $rpids
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
start_sbd vh1
stop_mbd
start_mbd
echo hello >&7
exec 7>&-
wait "$bpid"
rc=$?
check "after both restarts the session goes on and bsub exits 4 (rc $rc)" test "$rc" -eq 4
check "the job read its input after the restarts" grep -qx "got hello" "$T/r.out"
check "the job ends EXIT with code 4" wait_for 60 state_is "$id" EXIT
check "no process of the restarted session is left" wait_for 60 gone "$id"
check "nor any process the job had before the restarts (relay included)" \
    wait_for 60 none_alive $rpids
done_testing
