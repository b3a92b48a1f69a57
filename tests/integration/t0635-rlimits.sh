#!/bin/sh
# Per-process limits (setrlimit) and the whole-job process and thread
# counts, as LSF applies them: a queue's STACKLIMIT and bsub -C -D -S -c are
# what `ulimit` sees in the job; a file writer stops at -F (SIGXFSZ); a job
# with more processes than -p or threads than -T is killed with
# TERM_PROCESSLIMIT or TERM_THREADLIMIT; a job ended by SIGXCPU under a CPU
# limit reports TERM_CPULIMIT; the submitter's umask is the job's; the
# limits hold across an sbatchd restart.
. "$top_srcdir/tests/lib.sh"

hog="$top_builddir/tests/helpers/bs-hog"
make_cluster vh1
echo "LSF_PIM_SLEEPTIME=1" >>"$T/conf/lsf.conf"
cat >>"$T/conf/lsbatch/basalt/configdir/lsb.queues" <<Q

Begin Queue
QUEUE_NAME = stack
PRIORITY = 10
STACKLIMIT = 4096
THREADLIMIT = 6
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T/work" || exit 1


finished() {
	s=$(job_state "$1")
	[ "$s" = DONE ] || [ "$s" = EXIT ]
}

# What the job's shell sees.
u=$(bsub -q stack -C 0 -c 2 -o "$T/work/ulimit.out" \
	'echo "s=$(ulimit -s) c=$(ulimit -c) t=$(ulimit -t)"' | job_id_of)
check "the ulimit job is done" wait_for 30 state_is "$u" DONE
check "the queue's STACKLIMIT is ulimit -s" grep -q "s=4096 " "$T/work/ulimit.out"
check "bsub -C 0: no core file" grep -q "c=0 " "$T/work/ulimit.out"
check "bsub -c 2: two CPU minutes per process" grep -q "t=120" "$T/work/ulimit.out"
check "bjobs -l lists the limits it ran with" sh -c "bjobs -l $u | grep -A1 STACKLIMIT | grep -qx ' 4096 K' &&
	bjobs -l $u | grep -A1 CORELIMIT | grep -qx ' 0 K' && bjobs -l $u | grep -A1 THREADLIMIT | grep -q 6"

st=$(bsub -S 2048 -o "$T/work/stack.out" 'echo "s=$(ulimit -s)"' | job_id_of)
check "the -S job is done" wait_for 30 state_is "$st" DONE
check "bsub -S: ulimit -s" grep -qx "s=2048" "$T/work/stack.out"

# -D: AddressSanitizer cannot start under a data limit, so a sanitized
# build (whose bs-jobwrap leads the job) checks everything else.
if grep -qa __asan_init "$top_builddir/sbatchd/bs-jobwrap"; then
	ok "bsub -D: ulimit -d # SKIP the job leader is built with AddressSanitizer"
else
	d=$(bsub -D 100000 -o "$T/work/data.out" 'echo "d=$(ulimit -d)"' | job_id_of)
	check "the -D job is done" wait_for 30 state_is "$d" DONE
	check "bsub -D: ulimit -d" grep -qx "d=100000" "$T/work/data.out"
fi

# -F 100 (KB): the writer is stopped by SIGXFSZ at 100 KB.
f=$(bsub -F 100 -o "$T/work/f.out" "$hog" write 1000 "$T/work/big" | job_id_of)
check "a writer over -F ends in EXIT" wait_for 30 state_is "$f" EXIT
check "its file stopped at 100 KB" test "$(stat -c %s "$T/work/big")" -eq 102400

# -p 2: a shell with three children is four processes.
p=$(bsub -p 2 -o /dev/null 'sleep 30 & sleep 30 & sleep 30 & wait' | job_id_of)
check "a job over -p is killed" wait_for 30 state_is "$p" EXIT
check "with TERM_PROCESSLIMIT" says bjobs "$p" 'TERM_PROCESSLIMIT: job killed after reaching LSF process limit.'

# -T 4 against 8 threads; the queue's THREADLIMIT 6 bounds it too.
t=$(bsub -q stack -T 4 -o /dev/null "$hog" threads 8 30 | job_id_of)
check "a job over -T is killed" wait_for 30 state_is "$t" EXIT
check "with TERM_THREADLIMIT" says bjobs "$t" 'TERM_THREADLIMIT: job killed after reaching LSF thread limit.'
t2=$(bsub -q stack -T 10 -o /dev/null "$hog" threads 8 30 | job_id_of)
check "the queue's THREADLIMIT bounds a larger -T" wait_for 30 state_is "$t2" EXIT
check "bjobs -l shows the bound" sh -c "bjobs -l $t2 | grep -A1 THREADLIMIT | grep -qx ' 6'"
u5=$(bsub -q stack -o /dev/null "$hog" threads 3 2 | job_id_of)
check "a job within the limits is done" wait_for 30 state_is "$u5" DONE

# What the kernel does at a process's CPU limit is SIGXCPU; such an end
# of a job with a CPU limit is LSF's TERM_CPULIMIT.
x=$(bsub -c 1 -o /dev/null 'kill -XCPU $$' | job_id_of)
check "a job ended by SIGXCPU" wait_for 30 finished "$x"
check "reports TERM_CPULIMIT" says bjobs "$x" 'TERM_CPULIMIT: job killed after reaching LSF CPU usage limit.'

# The limits survive an sbatchd restart: a job that grows past -p only
# after sbatchd came back (re-adopted from its state file) is still ended.
r=$(bsub -p 3 -o /dev/null "while [ ! -e '$T/work/grow' ]; do sleep 0.2; done;
	sleep 30 & sleep 30 & sleep 30 & wait" | job_id_of)
check "the -p 3 job runs" wait_for 30 state_is "$r" RUN
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
start_sbd vh1 || exit 1
touch "$T/work/grow"
check "after an sbatchd restart it is still ended at -p" wait_for 30 state_is "$r" EXIT
check "with TERM_PROCESSLIMIT" says bjobs "$r" 'TERM_PROCESSLIMIT: job killed'

# The submitter's umask, read without changing it.
m=$(umask 027 && bsub -o "$T/work/umask.out" "umask; touch '$T/work/created'" | job_id_of)
check "the umask job is done" wait_for 30 state_is "$m" DONE
check "the job's umask is the submitter's" grep -qx "0027" "$T/work/umask.out"
check "a file it creates is 0640" test "$(stat -c %a "$T/work/created")" = 640
check "bsub: a bad limit is refused" sh -c "! bsub -p 0 true 2>&1 && bsub -F 1X true 2>&1 |
	grep -q 'Bad FILELIMIT specification'"
done_testing
