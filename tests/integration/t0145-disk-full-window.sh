#!/bin/sh
# Issue 11, finding 1: orders went out before their commit.  With the
# journal's filesystem full (a 2 MB tmpfs, as root), a RUN_WINDOW closing
# used to stop the job's processes although the suspension could not be
# journaled: the host had the job stopped, the journal (and bjobs) said
# RUN.  Now the order leaves only after its event is committed: while the
# disk refuses, the job runs on; once the disk takes events again, the
# window's suspension is committed, then sent, and both sides agree, also
# after a crash.
#
# (Since run windows became a stage of the scheduling pass, no pass runs at
# all while the journal refuses; the orders keep the rule for any path.)
#
# The window closes at the next minute boundary (the next but one when
# that is too near), so this test waits up to a minute and a half.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "not root: cannot mount a small tmpfs for the journal"
make_cluster vh1
# Without the zeros mbatchd keeps ahead of the journal's records, which
# would take some 500 more submissions before the full disk shows: past
# them the same syncs fail the same way.
echo "LSB_JOURNAL_PREALLOC_MB=0" >>"$T/conf/lsf.conf"
lsb="$T/conf/lsbatch/basalt/configdir"
# vh1's sbatchd must not be declared lost while mbatchd refuses work.
sed -i 's/^MAX_SBD_FAIL = .*/MAX_SBD_FAIL = 20/' "$lsb/lsb.params"
# minutes of the day, local time as mbatchd sees it
now_min() { echo $(( $(date +%-H) * 60 + $(date +%-M) )); }
hhmm() { echo "$(( ($1 / 60) % 24 )):$(printf %02d $(( $1 % 60 )))"; }
sec=$(date +%-S)
start=$(( $(now_min) + 1440 - 5 ))
close=$(( $(now_min) + 1 ))
[ "$sec" -lt 40 ] || close=$((close + 1))
cat >>"$lsb/lsb.queues" <<Q

Begin Queue
QUEUE_NAME = win
PRIORITY   = 25
RUN_WINDOW = $(hhmm "$start")-$(hhmm "$close")
End Queue
Q
EV=$(journal_dir)
mkdir -p "$EV"
mount -t tmpfs -o size=2m tmpfs "$EV" 2>"$T/mount.err" ||
	skip_all "cannot mount a tmpfs on the journal's directory: $(cat "$T/mount.err")"
umount_at_exit "$EV"

start_mbd || exit 1
start_sbd vh1 || exit 1
diag "run window $(hhmm "$start")-$(hhmm "$close"), now $(date +%H:%M:%S)"

j=$(bsub -q win -o /dev/null "sleep 300 & sleep 300 & wait" | job_id_of)
check "the job runs while its queue's window is open" wait_for 10 state_is "$j" RUN
check "its processes run" wait_for 10 procs_in "$j" S

# Fill the filesystem; held submissions until mbatchd finds it cannot sync.
dd if=/dev/zero of="$EV/filler" bs=64k 2>/dev/null
refusing() { grep -q "refusing new work" "$T/log/mbatchd.out"; }
i=0
while ! refusing && [ "$i" -lt 20 ]; do
	i=$((i + 1))
	bsub -J "fill$i" -H -o /dev/null true >/dev/null 2>&1 &
	track "$!"
	wait_for 5 sh -c "! kill -0 $! 2>/dev/null" || break
done
check "mbatchd found the journal cannot be written" wait_for 10 refusing

closed() { [ "$(now_min)" -ge "$close" ] || [ "$(now_min)" -lt $((close - 10)) ]; }
check "the run window closes" wait_for 100 closed
# Several ticks (MBD_SLEEP_TIME = 1) pass: an order sent ahead of its
# commit would have stopped the processes by then.
check_not_stopped() { ! wait_for 4 procs_in "$j" T; }
check "while the journal refuses, the job's processes are not stopped" check_not_stopped
check "and bjobs still says RUN" state_is "$j" RUN

rm -f "$EV/filler"
check "mbatchd says the journal is writable again" \
	wait_for 20 grep -q "journal: writable again" "$T/log/mbatchd.out"
check "then the window's suspension is journaled: SSUSP" wait_for 10 state_is "$j" SSUSP
check "and carried out: every process is stopped" wait_for 10 procs_in "$j" T
kill9_mbd
start_mbd || exit 1
check "after a crash the journal says SSUSP too" wait_for 10 state_is "$j" SSUSP
check "with the window's reason" sh -c "bjobs -l $j | tr -s ' \n' ' ' | grep -q 'run windows of the queue are closed'"
done_testing
