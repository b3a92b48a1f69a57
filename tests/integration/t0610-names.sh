#!/bin/sh
# Names cannot forge a log line or a listing row: a job name with a newline
# is refused by bsub, by bmod and by mbatchd itself (a client that skips
# bsub's checks); a command with a newline shows as one escaped row in
# bjobs and bhist, and bjobs -json stays valid JSON; a hello name with a
# newline is one escaped line in mbatchd's log.
#
# The cluster has no MUNGE so that the hello reaches mbatchd over the Unix
# socket as written: with MUNGE, sbatchd cannot even make a credential for
# such a name (lib/auth refuses it; check_auth tests that).
. "$top_srcdir/tests/lib.sh"

BS_MUNGE=0 make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
nl='
'
raw="$top_builddir/tests/helpers/bs-rawsubmit"

! bsub -J "a${nl}b" -o /dev/null true >"$T/out" 2>&1
check "bsub refuses a job name with a newline" \
	grep -q 'Bad job name: a\\nb: a job name cannot contain a newline' "$T/out"
! bsub -J "$(printf 'x\033[2Jy')" -o /dev/null true >"$T/out" 2>&1
check "and one with a terminal escape" grep -q 'Bad job name: x\\x1b\[2Jy' "$T/out"
! "$raw" "x${nl}Job <999> is submitted to queue <normal>." true >"$T/out" 2>&1
check "mbatchd refuses it from a client that skips bsub's checks" \
	grep -q "Bad job name: a job name cannot contain a newline" "$T/out"
check "nothing was submitted" sh -c "! bjobs -a -noheader 2>/dev/null | grep -q ."

held=$(bsub -H -o /dev/null true | job_id_of)
! bmod -J "a${nl}b" "$held" >"$T/out" 2>&1
check "bmod refuses it" grep -q "Bad job name" "$T/out"
check "the job keeps its name" sh -c "bjobs -noheader -o job_name $held | grep -qx true"
bkill "$held" >/dev/null

id=$(bsub -o /dev/null "sleep 300${nl}99999 root RUN normal vm vh1 forged Nov 24 00:00" | job_id_of)
check "a command with a newline runs" wait_for 10 state_is "$id" RUN
bjobs -w >"$T/bjobs.out" 2>&1
check "bjobs shows it as one row" sh -c "[ \$(wc -l <$T/bjobs.out) -eq 2 ]"
check "with the newline escaped" grep -q 'sleep 300\\n99999' "$T/bjobs.out"
check "no forged row" sh -c "! grep -q '^99999' $T/bjobs.out"
check "bjobs -json is valid JSON" sh -c "bjobs -json -a | python3 -c 'import json, sys; json.load(sys.stdin)'"
bhist -l "$id" >"$T/bhist.out" 2>&1
check "bhist -l has no forged line" sh -c "! grep -q '^99999' $T/bhist.out"
bkill "$id" >/dev/null

# A host that says hello with a newline in its name.
forged="bad${nl}Nov 24 00:00:00.000 mbatchd[1]: error: FORGED"
mkdir -p "$T/sbd/bad"
sbatchd -f -N "$forged" -S "$T/sbd/bad" >>"$T/log/sbatchd.bad.out" 2>&1 &
bad=$!
track "$bad"
check "the hello is logged" wait_for 10 grep -q 'bad\\nNov 24 00:00:00.000 mbatchd\[1\]: error: FORGED' "$T/log/mbatchd.out"
check "as one line, nothing forged" sh -c "! grep -q '^Nov 24 00:00:00.000 mbatchd\[1\]' $T/log/mbatchd.out"
kill "$bad"
done_testing
