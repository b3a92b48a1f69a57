#!/bin/sh
# A job refused on its host (issue 14, item 10).  Its own faults end it
# EXIT with LSF's exit code and the reason in bjobs -l and bhist -l: a
# working directory that does not exist on the execution host exits 2
# with LSB_EXIT_IF_CWD_NOTEXIST=Y (vh2), and runs in /tmp without it (vh1,
# as LSF's default), an output file that cannot be
# created 127.  A host that cannot run the job (root jobs are not allowed
# on vh1, whose sbatchd reads its own lsf.conf) sends it back to PEND: it
# runs on vh2 instead; a job that may only use vh1 stays pending, with the
# refusal as its reason, until vh1 registers again, allowing it now.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root: the refused job is a root job"
make_cluster vh1 vh2
start_mbd || exit 1
# vh1: the same cluster, but LSB_ALLOW_ROOT_JOBS=N in its own lsf.conf.
cp -r "$LSF_ENVDIR" "$T/conf.vh1"
sed -i 's/^LSB_ALLOW_ROOT_JOBS=.*/LSB_ALLOW_ROOT_JOBS=N/' "$T/conf.vh1/lsf.conf"
start_sbd_conf() {
	mkdir -p "$T/sbd/$1"
	LSF_ENVDIR="$2" sbatchd -f -N "$1" -S "$T/sbd/$1" >>"$T/log/sbatchd.$1.out" 2>&1 &
	eval "SBD_PID_$1=\$!"
	track "$!"
	wait_for 10 host_ok "$1"
}
# vh2: the shared lsf.conf, which ends a job whose directory is missing.
echo "LSB_EXIT_IF_CWD_NOTEXIST=Y" >>"$LSF_ENVDIR/lsf.conf"
start_sbd_conf vh1 "$T/conf.vh1" || { diag "vh1 did not register"; exit 1; }
start_sbd vh2 || exit 1

id=$(bsub -m vh2 -cwd "$T/no/such/dir" -o "$T/cwd.out" 'echo ran' | job_id_of)
check "a missing working directory ends the job EXIT" wait_for 15 state_is "$id" EXIT
check "with exit code 2" sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Exitedwithexitcode2'"
check "bjobs -l says why" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Thecurrentworkingdirectory<$(echo "$T" | tr -d ' ')/no/such/dir>isnotaccessibleordoesnotexistontheexecutionhostvh'"
check "bhist -l too" sh -c "bhist -l $id | tr -d '\n ' | grep -q 'isnotaccessibleordoesnotexist'"

id2=$(bsub -m vh2 -o "$T/no/such/dir/out" 'echo ran' | job_id_of)
check "an output file that cannot be created ends the job EXIT" wait_for 15 state_is "$id2" EXIT
check "with exit code 127 and the reason" \
	sh -c "bjobs -l $id2 | tr -d '\n ' | grep -q 'Exitedwithexitcode127.*cannotopenoutputfile'"

id3=$(bsub -m "vh1 vh2" -o "$T/three.out" 'echo "ran on $LSB_HOSTS"' | job_id_of)
check "a root job vh1 refuses runs on vh2 instead" wait_for 20 state_is "$id3" DONE
check "(its output says vh2)" grep -qx "ran on vh2" "$T/three.out"
check "bhist -l: requeued by vh1's refusal" \
	sh -c "bhist -l $id3 | tr -d '\n ' | grep -q 'Requeued:Thejobcouldnotbestartedonhost<vh1>:rootjobsarenotallowedonhostvh1'"

id4=$(bsub -m vh1 -o "$T/four.out" 'echo "ran on $LSB_HOSTS"' | job_id_of)
refused4() { bjobs -l "$id4" | tr -d '\n ' | grep -q 'Theexecutionhostrefusedtorunthejob:1host'; }
check "a job only vh1 may run stays pending, with the refusal as reason" wait_for 20 refused4
check "(PEND, not EXIT)" state_is "$id4" PEND
n=$(grep -c "job $id4\[0\]: cannot start" "$T/log/sbatchd.vh1.out")
# Scheduling passes go by (each of these jobs needs one, and every
# MBD_SLEEP_TIME tick makes one) without vh1 being asked again.
for k in 1 2 3; do
	p=$(bsub -m vh2 -o /dev/null true | job_id_of)
	wait_for 15 state_is "$p" DONE || diag "job $p did not end"
done
check "vh1 is not asked again and again" \
	sh -c "[ \$(grep -c 'job $id4\[0\]: cannot start' '$T/log/sbatchd.vh1.out') -eq $n ]"
kill -TERM "$SBD_PID_vh1"
wait "$SBD_PID_vh1" 2>/dev/null
sed -i 's/^LSB_ALLOW_ROOT_JOBS=.*/LSB_ALLOW_ROOT_JOBS=Y/' "$T/conf.vh1/lsf.conf"
start_sbd_conf vh1 "$T/conf.vh1" || { diag "vh1 did not register again"; exit 1; }
check "once vh1 registers again (root jobs allowed) the job runs there" wait_for 20 state_is "$id4" DONE
check "(on vh1)" grep -qx "ran on vh1" "$T/four.out"

# vh1's lsf.conf does not set LSB_EXIT_IF_CWD_NOTEXIST: the job runs in /tmp.
id5=$(bsub -m vh1 -cwd "$T/no/such/dir" -o "$T/five.out" 'echo "ran in $(pwd -P)"' | job_id_of)
check "without LSB_EXIT_IF_CWD_NOTEXIST a job whose directory is missing is DONE" \
	wait_for 20 state_is "$id5" DONE
check "having run in /tmp" grep -qx "ran in $(cd /tmp && pwd -P)" "$T/five.out"
done_testing
