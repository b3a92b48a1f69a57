#!/bin/sh
# bsub -I without a terminal: the job's stdin, stdout and stderr are pipes
# relayed to bsub's own (here files and pipes of the test, no pty).  Exit
# status, -o and -e to files (-tty: to the screen too), -i, -r refused, and
# queue INTERACTIVE = NO | ONLY at submission, bswitch and bmod -q.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
cat >>"$T/conf/lsbatch/basalt/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME   = batchonly
PRIORITY     = 10
INTERACTIVE  = NO
End Queue

Begin Queue
QUEUE_NAME   = ionly
PRIORITY     = 10
INTERACTIVE  = ONLY
End Queue
Q
# sbatchd samples every second, so a memory limit acts at once.
echo "LSF_PIM_SLEEPTIME=1" >>"$T/conf/lsf.conf"
in_output() { job_output "$1" | grep -qx -- "$2"; }
start_mbd || exit 1
start_sbd vh1 || exit 1

printf 'one\ntwo\n' | bsub -I 'tr a-z A-Z; echo to-err >&2; exit 7' \
	>"$T/out" 2>"$T/err"
rc=$?
check "bsub -I exits with the job's exit code" test "$rc" -eq 7
check "the job read bsub's stdin and wrote bsub's stdout" \
	sh -c "grep -qx ONE '$T/out' && grep -qx TWO '$T/out'"
check "the job's stderr came out on bsub's stderr" grep -qx to-err "$T/err"
check "bsub says it waits for dispatch" grep -qx '<<Waiting for dispatch ...>>' "$T/err"
check "bsub says where the job started" grep -qx '<<Starting on vh1>>' "$T/err"
check "the submission line is on stdout" grep -q '^Job <[0-9]*> is submitted' "$T/out"

id=$(job_id_of <"$T/out")
bid=$(bsub -o /dev/null true | job_id_of)
check "bjobs -o interactive: Y for bsub -I" sh -c "bjobs -a -noheader -o interactive $id | grep -qw Y"
check "bjobs -o interactive: N for a batch job" sh -c "bjobs -a -noheader -o interactive $bid | grep -qw N"
check "bjobs -l says Interactive mode" says_re bjobs "$id" 'CWD <[^>]*>, Interactive mode'
check "bhist -l records it" says bhist "$id" 'Interactive mode'

bsub -I -o "$T/file.%J" 'echo into-the-file; echo on-screen >&2' >"$T/out2" 2>"$T/err2"
check "bsub -I -o: a job that ends well exits 0" test $? -eq 0
id=$(job_id_of <"$T/out2")
check "bsub -I -o: stdout went to the file" grep -qx into-the-file "$T/file.$id"
check "bsub -I -o: and not to bsub's stdout" sh -c "! grep -q into-the-file '$T/out2'"
check "bsub -I -o: stderr still reached bsub" grep -qx on-screen "$T/err2"

# -tty: the files are written and the screen shows the output too.
bsub -I -tty -o "$T/tty.%J" -e "$T/ttyerr.%J" 'echo to-the-tty; echo err-too >&2' \
	>"$T/out3" 2>"$T/err3"
check "bsub -I -tty -o: exits 0" test $? -eq 0
id=$(job_id_of <"$T/out3")
check "bsub -I -tty -o: output comes to bsub's stdout" grep -qx to-the-tty "$T/out3"
check "bsub -I -tty -o: and into the -o file" in_output "$T/tty.$id" to-the-tty
check "bsub -I -tty -e: stderr comes to bsub's stderr" grep -qx err-too "$T/err3"
check "bsub -I -tty -e: and into the -e file" grep -qx err-too "$T/ttyerr.$id"
check "bsub -I -tty -e: stdout is not in the -e file" sh -c "! grep -q to-the-tty '$T/ttyerr.$id'"

# -i: the job reads the file, not bsub's input.
printf 'from-the-file\n' >"$T/in.txt"
out=$(echo from-bsub | bsub -I -i "$T/in.txt" 'cat' 2>/dev/null)
check "bsub -I -i: the job's input is the file" sh -c "echo '$out' | grep -qx from-the-file"
check "bsub -I -i: and not bsub's" sh -c "! echo '$out' | grep -q from-bsub"

# -r: LSF's interactive jobs are not rerunnable.
out=$(bsub -I -r true 2>&1)
rc=$?
check "bsub -I -r is refused (exit $rc)" test "$rc" -ne 0
check "and says why" sh -c "echo '$out' | grep -q 'Interactive jobs are not rerunnable'"
check "and nothing was submitted" sh -c "! echo '$out' | grep -q 'is submitted'"

check "a job with no input gets end of file" \
	sh -c "bsub -I 'wc -c' </dev/null 2>/dev/null | grep -qx 0"

out=$(bsub -I -q batchonly 'true' 2>&1)
rc=$?
check "INTERACTIVE = NO refuses bsub -I (exit $rc)" test "$rc" -ne 0
check "with LSF's message" sh -c "echo '$out' | grep -q 'batchonly: Queue does not accept interactive jobs. Job not submitted.'"
check "INTERACTIVE = NO takes batch jobs" sh -c "bsub -q batchonly true | grep -q submitted"
out=$(bsub -q ionly 'true' 2>&1)
check "INTERACTIVE = ONLY refuses a batch job" sh -c "echo '$out' | grep -q 'ionly: Queue only accepts interactive jobs. Job not submitted.'"
check "INTERACTIVE = ONLY takes bsub -I" sh -c "bsub -I -q ionly 'echo fine' 2>/dev/null | grep -qx fine"
# bswitch and bmod -q follow INTERACTIVE as bsub does, with LSF's words.
bsub -I -H 'echo switched' >"$T/sw.out" 2>"$T/sw.err" </dev/null &
swpid=$!
track "$swpid"
wait_for 60 grep -q 'is submitted' "$T/sw.out"
iid=$(job_id_of <"$T/sw.out")
out=$(bswitch batchonly "$iid" 2>&1)
rc=$?
check "bswitch of an interactive job to INTERACTIVE = NO fails (exit $rc)" test "$rc" -ne 0
check "with LSF's message" sh -c "echo '$out' | grep -q 'batchonly: Queue does not accept interactive jobs'"
out=$(bmod -q batchonly "$iid" 2>&1)
rc=$?
check "bmod -q of it to INTERACTIVE = NO fails (exit $rc)" test "$rc" -ne 0
check "with the same message" sh -c "echo '$out' | grep -q 'Queue does not accept interactive jobs'"
check "the job stayed in its queue" sh -c "bjobs -noheader -o queue $iid | grep -qx normal"
check "an interactive job may move to INTERACTIVE = ONLY" \
	sh -c "bswitch ionly $iid | grep -q 'is switched to queue <ionly>'"
bresume "$iid" >/dev/null
wait "$swpid"
check "and then runs there" grep -qx switched "$T/sw.out"
bid=$(bsub -H -o /dev/null true | job_id_of)
out=$(bswitch ionly "$bid" 2>&1)
rc=$?
check "bswitch of a batch job to INTERACTIVE = ONLY fails (exit $rc)" test "$rc" -ne 0
check "with LSF's message" sh -c "echo '$out' | grep -q 'ionly: Queue only accepts interactive jobs'"
out=$(bmod -q ionly "$bid" 2>&1)
rc=$?
check "bmod -q of it to INTERACTIVE = ONLY fails (exit $rc)" test "$rc" -ne 0
check "the batch job stayed in its queue" sh -c "bjobs -noheader -o queue $bid | grep -qx normal"
bkill "$bid" >/dev/null

check "-K cannot be combined with -I" sh -c "! bsub -K -I true 2>/dev/null"
check "-tty needs -I" sh -c "! bsub -tty true 2>/dev/null"

# A limit that ends the job reaches the user's terminal in LSF's words.
bsub -I -M 50M "$top_builddir/tests/helpers/bs-hog" mem 200 60 \
	</dev/null >"$T/lim.out" 2>"$T/lim.err"
rc=$?
check "a job killed for its memory limit ends bsub -I with 128+signal ($rc)" \
	test "$rc" -gt 128
check "and bsub says TERM_MEMLIMIT in LSF's words" grep -q \
	'^<<Job is terminated by signal [0-9]*: TERM_MEMLIMIT: job killed after reaching LSF memory usage limit>>$' \
	"$T/lim.err"
[ -s "$T/lim.err" ] && diag "$(cat "$T/lim.err")"
done_testing
