#!/bin/sh
# bstop and bresume of an -Is session: the shell has moved its foreground
# job to a process group of its own, inside the job's session; suspending
# the job stops that group too (and the shell), and resuming continues it.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

gone() { [ -z "$(job_pids "$1")" ]; }

# bs-ptydrive reads its steps as they come: the test feeds them through a
# FIFO and checks the processes in between.
mkfifo "$T/steps"
python3 "$top_srcdir/tests/tools/bs-ptydrive.py" -- \
	bsub -Is 'env PS1="PROMPT> " bash --norc --noprofile -i' <"$T/steps" >"$T/drive.out" 2>&1 &
dpid=$!
track "$dpid"
exec 8>"$T/steps"
cat >&8 <<'S'
timeout 60
expect PROMPT>
send sleep 300\r
S
running_sleep() {
	for p in $(cluster_job_pids); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] && return 0
	done
	return 1
}
check "the shell runs a foreground sleep" wait_for 30 running_sleep
id=$(bjobs -noheader -o jobid | tail -n 1)
fg_apart() {
	for p in $(job_pids "$id"); do
		[ "$(cat "/proc/$p/comm")" = sleep ] || continue
		[ "$(awk '{print $5}' "/proc/$p/stat")" != "$id" ] && return 0
	done
	return 1
}
check "the sleep runs in a process group of its own" fg_apart
bstop "$id" >/dev/null
check "bstop stops every process of the session" wait_for 60 procs_in "$id" T
check "the job is USUSP" wait_for 60 state_is "$id" USUSP
bresume "$id" >/dev/null
check "bresume continues them all" wait_for 60 procs_in "$id" S
# Whether bash noticed the sleep's stop before the resume is a race of its
# own (it was stopped too, and the kernel replaces a stop not yet waited
# for by a continue): the sleep is then a stopped job, a background one or
# still the foreground.  Ending it from here and waiting until bash has
# reaped it leaves bash at its prompt in every case, with no job; typing
# ^C and "kill %1" at it raced bash's own view of its job table.
sleep_pid() {
	for p in $(job_pids "$id"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] && echo "$p"
	done
}
sp=$(sleep_pid)
reaped() { [ ! -e "/proc/$sp" ]; }
[ -n "$sp" ] && kill -9 "$sp"
check "the resumed shell reaps its killed foreground job" wait_for 60 reaped
cat >&8 <<'S'
send echo "do""ne"\r
expect done
send exit 3\r
exit 3
S
exec 8>&-
wait "$dpid"
rc=$?
check "the session goes on after the resume and ends with the shell's status" test "$rc" -eq 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/drive.out"

# A shell that leaves a background job when it exits: the job's session is
# hung up as a closed terminal's would be, so nothing outlives the job.
python3 "$top_srcdir/tests/tools/bs-ptydrive.py" --screen "$T/bg.out" -- \
	bsub -Is 'env PS1="PROMPT> " bash --norc --noprofile -i' <<'S'
expect PROMPT>
send echo "job=$LSB_JOBID" | tr j J\r
expect Job=[0-9]+\r
send sleep 400 &\r
expect PROMPT>
send exit 4\r
exit 4
S
check "a shell with a background job ends with its status" test $? -eq 0
id=$(sed -n 's/.*Job=\([0-9][0-9]*\).*/\1/p' "$T/bg.out" | tail -n 1)
check "and its background job does not outlive it" wait_for 60 gone "$id"
done_testing
