#!/bin/sh
# The journal's filesystem full (a 2 MB tmpfs, as root): the submission
# whose event cannot be written waits, not acknowledged; new submissions are
# refused at once with a clear error; queries are answered; a running job
# runs on and finishes.  When space returns mbatchd carries on: the waiting
# submission is acknowledged, the job's true exit status is recorded, new
# work is accepted, and nothing acknowledged is lost, even across a crash.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "not root: cannot mount a small tmpfs for the journal"
make_cluster vh1
# Without the zeros mbatchd keeps ahead of the journal's records, which
# would take some 500 more submissions before the full disk shows: past
# them the same syncs fail the same way.
echo "LSB_JOURNAL_PREALLOC_MB=0" >>"$T/conf/lsf.conf"
# vh1's sbatchd is frozen for a few seconds below: more patience with it.
sed -i 's/^MAX_SBD_FAIL = .*/MAX_SBD_FAIL = 6/' "$T/conf/lsbatch/basalt/configdir/lsb.params"
EV=$(journal_dir)
mkdir -p "$EV"
mount -t tmpfs -o size=2m tmpfs "$EV" 2>"$T/mount.err" ||
	skip_all "cannot mount a tmpfs on the journal's directory: $(cat "$T/mount.err")"
umount_at_exit "$EV"

start_mbd || exit 1
start_sbd vh1 || exit 1

r=$(bsub -J r -o /dev/null "echo r >> $T/ran; while [ ! -e $T/go ]; do sleep 0.1; done; exit 4" | job_id_of)
check "a job is running" wait_for 10 state_is "$r" RUN

# No request from vh1's sbatchd (a heartbeat) until the probes below: see
# there.
kill -STOP "$(sbd_pid vh1)"

# Fill the filesystem.  What is left is the slack of the segment's last page:
# a few submissions still fit.  They are held (-H) so that no dispatch adds
# events behind them.
dd if=/dev/zero of="$EV/filler" bs=64k 2>/dev/null
refusing() { grep -q "refusing new work" "$T/log/mbatchd.out"; }
finished() { ! kill -0 "$1" 2>/dev/null; }
: >"$T/fill.acked"
held=
for i in 1 2 3 4 5 6 7 8 9 10; do
	bsub -J "fill$i" -H -o /dev/null true >"$T/fill.$i" 2>&1 &
	pid=$!
	track "$pid"
	wait_for 10 sh -c "! kill -0 $pid 2>/dev/null || grep -q 'refusing new work' '$T/log/mbatchd.out'"
	if refusing; then
		held=$pid
		held_out=$T/fill.$i
		break
	fi
	wait "$pid"
	job_id_of <"$T/fill.$i" >>"$T/fill.acked"
done
check "mbatchd found the journal cannot be written" refusing
diag "$(grep 'refusing new work' "$T/log/mbatchd.out")"
check "the submission whose event did not fit waits for its reply" \
	sh -c "[ -n '$held' ] && kill -0 '$held' 2>/dev/null"

# While the disk is full.  Found by this test: right after the failed sync,
# new connections used to hang, their hello reply held behind the failed
# commit's barrier; hello replies no longer wait on the gate.  vh1's
# sbatchd stays frozen so no other request can mask it.  A short receive
# timeout keeps a regression from waiting 30 s.
probe() { LSB_API_RECVTIMEOUT=2 "$@"; }
check "bjobs answers at once while the journal cannot be written" \
	sh -c "LSB_API_RECVTIMEOUT=2 bjobs -noheader -o stat $r | grep -q RUN"
check "bsub is refused at once, with a message that says why" \
	sh -c "! LSB_API_RECVTIMEOUT=2 bsub -o /dev/null true >'$T/refused0.out' 2>&1 &&
	grep -q 'cannot record changes now.*No space left on device' '$T/refused0.out'"
kill -CONT "$(sbd_pid vh1)"
answers() { probe bjobs -noheader -o stat "$r" 2>/dev/null | grep -q RUN; }
check "bjobs answers while the journal cannot be written" wait_for 15 answers
bsub -o /dev/null true >"$T/refused.out" 2>&1 &
pid=$!
track "$pid"
check "a new bsub returns at once" wait_for 5 finished "$pid"
wait "$pid"
rc=$?
check "refused, with a non-zero status" test "$rc" -ne 0
check "and a message that says why" \
	grep -q "cannot record changes now.*No space left on device" "$T/refused.out"
diag "$(cat "$T/refused.out")"
check "bkill is refused too" sh -c "! bkill $r >'$T/bkill.out' 2>&1 && grep -q 'cannot record' '$T/bkill.out'"
check "the running job still runs" test -n "$(cluster_job_pids)"
touch "$T/go"
no_job_procs() { [ -z "$(cluster_job_pids)" ]; }
check "and finishes" wait_for 10 no_job_procs
check "the held submission still waits" kill -0 "$held"

# Space returns.
rm -f "$EV/filler"
check "mbatchd says the journal is writable again" \
	wait_for 10 grep -q "journal: writable again" "$T/log/mbatchd.out"
check "the waiting bsub is acknowledged" wait_for 10 finished "$held"
wait "$held"
check "with its job id" grep -q "^Job <[0-9]*> is submitted" "$held_out"
job_id_of <"$held_out" >>"$T/fill.acked"
check "the job that finished meanwhile gets its true status (EXIT 4)" \
	wait_for 20 state_is "$r" EXIT
check "exit code 4" sh -c "bjobs -a -noheader -o exit_code $r | grep -qw 4"
n=$(bsub -o /dev/null "echo n >> $T/ran" | job_id_of)
check "bsub works again" wait_for 15 state_is "$n" DONE

# All of it durable: a crash now loses nothing.
kill9_mbd
start_mbd || exit 1
held_all() {
	while read -r id; do
		state_is "$id" PSUSP || return 1
	done <"$T/fill.acked"
}
check "after a crash every acknowledged submission is there ($(wc -l <"$T/fill.acked"))" held_all
check "and the statuses recorded" sh -c "[ \"\$(bjobs -a -noheader -o stat $r $n | tr -d ' \n')\" = EXITDONE ]"
check "each job ran once" \
	sh -c "[ \"\$(sort '$T/ran' | tr '\n' ' ')\" = 'n r ' ]"
done_testing
