#!/bin/sh
# bkill's options as LSF 10.1: -app kills only jobs of that
# application profile, -stat run|pend|susp|all only jobs in that state,
# -g of a group no job is in matches no job, and -b with job
# id 0 kills what it may and skips the rest without a word, where a plain
# bkill 0 reports each refusal; -d kills a started job and records it
# DONE.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create a test user"
command -v useradd >/dev/null || skip_all "useradd is not installed"
u1=bsko$$
add_test_user "$u1" "$T/home" || exit 1
mkdir -p "$T/home" && chmod 777 "$T/home"

BS_MXJ=1
make_cluster vh1
cat >"$T/conf/lsbatch/basalt/configdir/lsb.applications" <<A
Begin Application
NAME = fluent
End Application
A
start_mbd || exit 1
start_sbd vh1 || exit 1
as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1

run=$(bsub -o /dev/null sleep 300 | job_id_of)
check "the first job runs" wait_for 10 state_is "$run" RUN
pend=$(bsub -o /dev/null sleep 300 | job_id_of)
app=$(bsub -app fluent -o /dev/null sleep 300 | job_id_of)
check "the others pend" wait_for 10 sh -c "[ \"\$(bjobs -noheader -p -o jobid | wc -l)\" -eq 2 ]"

bkill -g /grp 0 >"$T/g.out" 2>&1
check "bkill -g of a group without jobs matches no job" [ $? -ne 0 ]
check "and says so" grep -q "No matching job found" "$T/g.out"
check "no job was killed by it" sh -c "[ \"\$(bjobs -noheader -o jobid | wc -l)\" -eq 3 ]"

bkill -app fluent 0 >"$T/app.out" 2>&1
check "bkill -app fluent 0 succeeds" [ $? -eq 0 ]
check "it kills the fluent job alone" sh -c "[ \"\$(cat '$T/app.out')\" = 'Job <$app> is being terminated' ]"
check "that job is EXIT" wait_for 10 state_is "$app" EXIT
check "the other pending job is untouched" state_is "$pend" PEND

bkill -stat bogus 0 >"$T/bad.out" 2>&1
check "bkill -stat with an unknown status fails" [ $? -ne 0 ]
check "and names it" grep -q "bogus: Illegal job status" "$T/bad.out"
bkill -b -stat pend 0 >"$T/bstat.out" 2>&1
check "-b and -stat together are refused" [ $? -ne 0 ]
check "with the usage" grep -q "^Usage: bkill" "$T/bstat.out"

bkill -stat pend 0 >"$T/pend.out" 2>&1
check "bkill -stat pend 0 kills the pending job alone" sh -c "[ \"\$(cat '$T/pend.out')\" = 'Job <$pend> is being terminated' ]"
check "it is EXIT" wait_for 10 state_is "$pend" EXIT
check "the running job still runs" state_is "$run" RUN
bkill -stat susp 0 >"$T/susp.out" 2>&1
check "bkill -stat susp 0 finds no suspended job" sh -c "[ $? -ne 0 ] && grep -q 'No matching job found' '$T/susp.out'"
bkill -stat run 0 >"$T/run.out" 2>&1
check "bkill -stat run 0 kills the running job" sh -c "[ \"\$(cat '$T/run.out')\" = 'Job <$run> is being terminated' ]"
check "it is EXIT" wait_for 15 state_is "$run" EXIT

# -d: a started job killed is recorded DONE; -d is ignored for a pending
# one (EXIT, as any killed pending job).
d=$(bsub -o /dev/null sleep 300 | job_id_of)
check "a job for -d runs" wait_for 10 state_is "$d" RUN
dp=$(bsub -o /dev/null sleep 300 | job_id_of)
bkill -d "$d" >"$T/d.out" 2>&1
check "bkill -d answers as a kill" sh -c "[ \"\$(cat '$T/d.out')\" = 'Job <$d> is being terminated' ]"
check "the killed job is recorded DONE" wait_for 15 state_is "$d" DONE
check "bjobs -d lists it as DONE" sh -c "bjobs -d -noheader -o 'jobid stat' | grep -q '^$d *DONE'"
check "the next job starts on the freed slot" wait_for 10 state_is "$dp" RUN
bkill "$dp" >/dev/null 2>&1
check "a plain bkill of a running job still ends it EXIT" wait_for 15 state_is "$dp" EXIT
dq=$(bsub -H -o /dev/null sleep 300 | job_id_of)
wait_for 10 state_is "$dq" PSUSP
bkill -d "$dq" >/dev/null 2>&1
check "bkill -d of a pending job ends it EXIT (-d is for started jobs)" wait_for 10 state_is "$dq" EXIT

# -b: a sweep over jobs of which some cannot be killed (another user's,
# for a user who is not an administrator).
theirs=$(bsub -H -o /dev/null sleep 300 | job_id_of)
mine1=$(as "$u1" bsub -H -o /dev/null sleep 300 | job_id_of)
mine2=$(as "$u1" bsub -H -o /dev/null sleep 300 | job_id_of)
check "three held jobs" wait_for 10 sh -c "[ \"\$(bjobs -u all -noheader -o stat | grep -c PSUSP)\" -eq 3 ]"
as "$u1" bkill -b -u all 0 >"$T/b.out" 2>"$T/b.err"
check "bkill -b -u all 0 by a user succeeds" [ $? -eq 0 ]
check "it reports the user's two jobs" sh -c "grep -c 'is being terminated' '$T/b.out' | grep -qx 2 && grep -q '<$mine1>' '$T/b.out' && grep -q '<$mine2>' '$T/b.out'"
check "and not a word about the job it may not kill" sh -c "! grep -q '$theirs' '$T/b.out' '$T/b.err' && [ ! -s '$T/b.err' ]"
check "the user's jobs are EXIT" wait_for 10 sh -c "state_is() { [ \"\$(bjobs -a -noheader -o stat \$1 | tr -d ' ')\" = \$2 ]; }; state_is $mine1 EXIT && state_is $mine2 EXIT"
check "the other job is still held" state_is "$theirs" PSUSP
mine3=$(as "$u1" bsub -H -o /dev/null sleep 300 | job_id_of)
wait_for 10 state_is "$mine3" PSUSP
as "$u1" bkill -u all 0 >"$T/nb.out" 2>"$T/nb.err"
check "without -b the same sweep fails" [ $? -ne 0 ]
check "and says why for the job it may not kill" grep -q "$theirs.*permission denied" "$T/nb.err"
done_testing
