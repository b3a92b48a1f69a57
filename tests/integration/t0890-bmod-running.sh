#!/bin/sh
# bmod of running jobs, as LSF allows it with LSB_MOD_ALL_JOBS=Y: a memory
# limit lowered under what the job uses ends it with TERM_MEMLIMIT on its
# host, a run limit lowered ends it with TERM_RUNLIMIT a minute after its
# start, a post-exec given with -Ep runs at its end, -R rusage[] changes
# what it reserves; other options of a started job are refused with a
# non-zero exit.  The changes are journaled: bhist -l shows them
# ("Parameters of Job are changed:") and they survive an mbatchd restart.
. "$top_srcdir/tests/lib.sh"

hog="$top_builddir/tests/helpers/bs-hog"
make_cluster vh1
echo "LSF_PIM_SLEEPTIME=1" >>"$T/conf/lsf.conf"
echo "LSB_MOD_ALL_JOBS=Y" >>"$T/conf/lsf.conf"
# What the queue's jobs reserve of mem together is limited, so that a
# change of a running job's rusage[] shows in what the next job can get.
cat >>"$T/conf/lsbatch/basalt/configdir/lsb.resources" <<L

Begin Limit
NAME   = qmem
QUEUES = normal
MEM    = 100
End Limit
L
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T/work" || exit 1


# First, the job whose run limit is lowered: its minute runs from its
# start, while the other cases are checked.
run=$(bsub -W 10 -o /dev/null sleep 300 | job_id_of)
check "a job with -W 10 runs" wait_for 10 state_is "$run" RUN
bmod -W 1 "$run" >"$T/w.out" 2>&1
check "bmod -W 1 of the running job is accepted" \
	grep -qx "Parameters of job <$run> are being changed" "$T/w.out"
check "bjobs -l shows the new run limit" sh -c "bjobs -l $run | grep -A1 RUNLIMIT | grep -q ' 1.0 min'"

# Memory: 100 MB held within -M 500M, then the limit goes down to 50M.
mem=$(bsub -M 500M -o /dev/null "$hog" mem 100 60 | job_id_of)
check "a job within its -M runs" wait_for 10 state_is "$mem" RUN
sleep_until_sampled() { bjobs -l "$mem" | grep -q 'MEM: [0-9]'; }
wait_for 15 sleep_until_sampled
check "bmod -M 50M of the running job is accepted" sh -c "bmod -M 50M $mem | grep -q 'are being changed'"
check "its host ends it for the new limit" wait_for 30 state_is "$mem" EXIT
check "with TERM_MEMLIMIT" says bjobs "$mem" \
	'TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.'
check "bjobs -l shows the limit it ended with" sh -c "bjobs -l $mem | grep -A1 MEMLIMIT | grep -qx ' 51200 K'"
check "bhist -l shows the change" sh -c "bhist -l $mem | tr -d '\n' | sed 's/  */ /g' | grep -q 'Parameters of Job are changed: *MEMLIMIT (KB) changes to : 51200;'"

# -Ep: the job waits for a file; its new post-exec runs after it.
post=$(bsub -o "$T/work/post.out" "while [ ! -f '$T/work/go' ]; do sleep 0.1; done" | job_id_of)
check "a job without a post-exec runs" wait_for 10 state_is "$post" RUN
check "bmod -Ep of the running job is accepted" \
	sh -c "bmod -Ep 'echo post \$LSB_JOBID >$T/work/post.ran' $post | grep -q 'are being changed'"
check "its host has the new post-exec" wait_for 10 post_override_is "$post" S
touch "$T/work/go"
check "the job ends DONE" wait_for 20 state_is "$post" DONE
check "and its new post-exec ran as it ended" grep -qx "post $post" "$T/work/post.ran"

# -Epn: a post-exec given at submission is taken away.
rm -f "$T/work/go"
nopost=$(bsub -o /dev/null -Ep "touch $T/work/nopost.ran" "while [ ! -f '$T/work/go' ]; do sleep 0.1; done" | job_id_of)
check "a job with a post-exec runs" wait_for 10 state_is "$nopost" RUN
check "bmod -Epn is accepted" sh -c "bmod -Epn $nopost | grep -q 'are being changed'"
check "its host has dropped the post-exec" wait_for 10 post_override_is "$nopost" N
touch "$T/work/go"
check "the job ends DONE" wait_for 20 state_is "$nopost" DONE
check "without the post-exec it had" test ! -e "$T/work/nopost.ran"

# -o: the job report goes to the new file at the end; the output the job
# wrote stays in the file it opened.  %G in the new -o: the start had no
# pattern naming the group, so its name is looked up for the bmod.
rm -f "$T/work/go"
rep=$(bsub -o "$T/work/a.out" "echo from the job; while [ ! -f '$T/work/go' ]; do sleep 0.1; done" | job_id_of)
check "a job with -o runs" wait_for 10 state_is "$rep" RUN
check "bmod -o of the running job is accepted" sh -c "bmod -o '$T/work/b.%J.%G.out' $rep | grep -q 'are being changed'"
touch "$T/work/go"
check "the job ends DONE" wait_for 20 state_is "$rep" DONE
check "its report is in the new -o file (patterns expanded)" \
	wait_for 10 grep -q "^Sender: LSF System" "$T/work/b.$rep.$(id -gn).out"
check "the old file has the job's output and no report" \
	sh -c "grep -qx 'from the job' '$T/work/a.out' && ! grep -q '^Sender: LSF System' '$T/work/a.out'"
check "bjobs -l shows the new output file" says bjobs "$rep" "Output File <$T/work/b.%J.%G.out>"

# What a started job cannot change.
hold=$(bsub -o /dev/null -R "rusage[mem=10]" sleep 300 | job_id_of)
check "another job runs" wait_for 10 state_is "$hold" RUN
bmod -J newname "$hold" >"$T/j.out" 2>&1
check "bmod -J of a running job fails" [ $? -ne 0 ]
check "with LSF's message" grep -q "Job has already started" "$T/j.out"
bmod -R "select[mem>1]" "$hold" >"$T/r.out" 2>&1
check "bmod -R select[] of a running job fails" [ $? -ne 0 ]
check "saying only rusage[] can change" grep -q "only the rusage\[\] section" "$T/r.out"
check "bmod -R rusage[] of a running job is accepted" \
	sh -c "bmod -R 'rusage[mem=20]' $hold | grep -q 'are being changed'"
check "bjobs -l shows what it reserves now" says bjobs "$hold" 'rusage[mem=20'
check "bmod -R rusage[mem=90]: the running job reserves 90 MB" \
	sh -c "bmod -R 'rusage[mem=90]' $hold | grep -q 'are being changed'"
more=$(bsub -o /dev/null -R "rusage[mem=30]" true | job_id_of)
check "a job asking 30 MB more now waits for the queue's MEM limit" \
	wait_for 10 sh -c "bjobs -l $more | grep -q 'Resource (mem) limit defined on queue has been reached'"
check "bmod -R rusage[mem=20] of the running job again" \
	sh -c "bmod -R 'rusage[mem=20]' $hold | grep -q 'are being changed'"
check "and the waiting job runs" wait_for 20 state_is "$more" DONE
check "bmod -c of the running job is accepted" sh -c "bmod -c 5 $hold | grep -q 'are being changed'"
check "bjobs -l shows the CPU limit" sh -c "bjobs -l $hold | grep -A1 CPULIMIT | grep -q '5.0 min'"
cpu_limited() {  # a process of the job has RLIMIT_CPU 300 s
	for p in $(job_pids "$hold"); do
		grep -q '^Max cpu time  *300 ' "/proc/$p/limits" 2>/dev/null && return 0
	done
	return 1
}
check "and its processes have it (RLIMIT_CPU 300 s)" wait_for 10 cpu_limited

check "bmod -We of the running job is accepted" sh -c "bmod -We 7 $hold | grep -q 'are being changed'"

# Only the owner or an administrator.
other=$(getent passwd nobody | cut -d: -f1)
if [ "$(id -u)" -eq 0 ] && [ -n "$other" ]; then
	su -s /bin/sh "$other" -c "PATH='$PATH' LSF_ENVDIR='$LSF_ENVDIR' bmod -W 2 $hold" >"$T/perm.out" 2>&1
	check "another user cannot bmod the running job" [ $? -ne 0 ]
	check "User permission denied" grep -q "User permission denied" "$T/perm.out"
fi

# The journal has it all: an mbatchd restart keeps the new limits.
stop_mbd
start_mbd || exit 1
check "after an mbatchd restart bjobs -l still shows the CPU limit" \
	sh -c "bjobs -l $hold | grep -A1 CPULIMIT | grep -q '5.0 min'"
check "and bhist -l the change" says bhist "$hold" 'Parameters of Job are changed'

check "the run limit ends the first job a minute after its start" wait_for 75 state_is "$run" EXIT
check "with TERM_RUNLIMIT" sh -c "bjobs -l $run | grep -q 'TERM_RUNLIMIT'"
bkill "$hold" >/dev/null 2>&1
done_testing
