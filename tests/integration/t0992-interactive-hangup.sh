#!/bin/sh
# A closed terminal kills an -Is job, every time.  When bsub's terminal is
# hung up, the kernel wakes bsub's read() (end of file) before it sends
# the SIGHUP; bsub forwarded that end of file to the job's shell as a ^D,
# and the shell, when it read it before the SIGHUP reached bsub, exited 0:
# the job ended DONE instead of killed (t0773 'closing the terminal kills
# the job' failed that way, 4 of 25 rounds here on a loaded CPU).  ROUNDS
# sessions, each closed while its shell waits at the prompt, must each end
# EXIT.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
ROUNDS=${ROUNDS:-20}
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
drive() { python3 "$top_srcdir/tests/tools/bs-ptydrive.py" "$@"; }
ended() { state_is "$1" EXIT || state_is "$1" DONE; }

bad=0
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	i=$((i + 1))
	rm -f "$T/c.out"
	drive --screen "$T/c.out" -- bsub -Is 'env PS1="PROMPT> " sh -i' <<'S' >/dev/null
expect PROMPT>
send echo "job=$LSB_JOBID" | tr j J\r
expect Job=[0-9]+\r
close
S
	id=$(sed -n 's/.*Job=\([0-9][0-9]*\).*/\1/p' "$T/c.out" | tail -n 1)
	if [ -z "$id" ] || ! wait_for 60 ended "$id"; then
		diag "round $i: job ${id:-?} did not end ($(job_state "${id:-0}"))"
		bad=$((bad + 1))
	elif ! state_is "$id" EXIT; then
		diag "round $i: job $id ended $(job_state "$id"), not killed"
		bad=$((bad + 1))
	fi
done
check "$ROUNDS closed terminals killed their jobs ($bad did not)" test "$bad" -eq 0
done_testing
