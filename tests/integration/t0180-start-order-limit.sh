#!/bin/sh
# Issue 11, finding 4: a submission just under the frame limit (4 MiB) used
# to be accepted although its start order (the same spec plus the LSB_*
# variables and the hosts) was over the limit; it was marked RUN with no
# process, held its slot, bkill could not end it, and bjobs failed for
# every user while it was in memory (a bjobs reply carries its command,
# script and name).  Now a submission is bounded well under a frame
# (svc/submit.c): a bigger one is refused with a clear error, and the
# largest accepted one runs, shows in bjobs and can be killed.  (The
# orders module still ends a job whose start order cannot be sent with
# EXIT and a reason, for journals written before the bound.)
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# A script of about N bytes (bsub sends the script and the command made of
# its lines, so the request is about twice that).
big() {
	{ echo "exit 0"; printf '#'; head -c "$1" /dev/zero | tr '\0' x; echo; } >"$T/big.sh"
}

big 1600000
check "a submission just under the frame limit is refused" \
	sh -c "! bsub -H -o /dev/null <'$T/big.sh' >'$T/sub.out' 2>&1"
check "with a message that says why" grep -q "Job submission too large" "$T/sub.out"
check "and nothing was queued" sh -c "bjobs -a 2>&1 | grep -q 'No job found'"

big 400000
a=$(bsub -H -o /dev/null <"$T/big.sh" | job_id_of)
check "a large submission under the bound is accepted" test -n "$a"
# sbatchd hands the command to the job wrapper as one argument, which
# Linux bounds at 128 KiB: the job that runs stays under that.
big 100000
b=$(bsub -H -o /dev/null <"$T/big.sh" | job_id_of)
check "and a smaller one" test -n "$b"
check "bjobs lists both" sh -c "bjobs 2>&1 | grep -c PSUSP | grep -qx 2"
check "bjobs -l shows them" sh -c "bjobs -l $a $b >/dev/null"
check "bkill ends one while it waits" sh -c "bkill $a >/dev/null"
check "it is EXIT" wait_for 10 state_is "$a" EXIT
bresume "$b" >/dev/null
check "released, the other runs to DONE" wait_for 20 state_is "$b" DONE
c=$(bsub -o /dev/null true | job_id_of)
check "the host's one slot is free: the next job runs" wait_for 10 state_is "$c" DONE
done_testing
