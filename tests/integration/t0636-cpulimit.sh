#!/bin/sh
# CPU and memory limits met by real processes, and the accounting of a job
# whose usage is known.  LSF gives CPU limits in minutes (bsub -c and the
# queue's CPULIMIT are [hours:]minutes), so the shortest real case is one
# minute of CPU: two processes burning CPU together pass the queue's
# CPULIMIT = 1 in half a minute on two cores, and sbatchd's whole-job check
# (the sum over the job, as LSF's default LSB_JOB_CPULIMIT) ends the job
# before either process reaches the per-process RLIMIT_CPU.  A queue's
# MEMLIMIT ends a job that touches more memory.
. "$top_srcdir/tests/lib.sh"

hog="$top_builddir/tests/helpers/bs-hog"
make_cluster vh1
echo "LSF_PIM_SLEEPTIME=1" >>"$T/conf/lsf.conf"
cat >>"$T/conf/lsbatch/basalt/configdir/lsb.queues" <<Q

Begin Queue
QUEUE_NAME = cpu
PRIORITY = 10
CPULIMIT = 1
End Queue

Begin Queue
QUEUE_NAME = mem
PRIORITY = 10
MEMLIMIT = 51200
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T/work" || exit 1

# Queue MEMLIMIT (KB) on 200 MB touched.
m=$(bsub -q mem -o /dev/null "$hog" mem 200 60 | job_id_of)
check "a job over the queue's MEMLIMIT is killed" wait_for 30 state_is "$m" EXIT
check "bjobs -l: TERM_MEMLIMIT" says bjobs "$m" \
	'Completed <exit>; TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.'
check "bhist -l: TERM_MEMLIMIT" says bhist "$m" 'TERM_MEMLIMIT'
check "bacct -l: TERM_MEMLIMIT" says bacct "$m" 'TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.'
check "bjobs -l: MAX MEM passed the limit (>= 50 Mbytes)" \
	sh -c "[ \"\$(bjobs -l $m | sed -n 's/.*MAX MEM: \([0-9]*\).*Mbytes.*/\1/p')\" -ge 50 ]"

# Two CPU burners against CPULIMIT = 1 (minute).  The machine may be busy:
# the deadline is generous, the assertion is the reason.
burn="sh -c 'echo \$\$ >>\"$T/work/burners\"; while :; do :; done'"
c=$(bsub -q cpu -o /dev/null "$burn & $burn & wait" | job_id_of)
check "the CPU burner runs" wait_for 30 state_is "$c" RUN
check "and is killed at its CPU limit" wait_for 240 state_is "$c" EXIT
check "bjobs -l: TERM_CPULIMIT" says bjobs "$c" \
	'Completed <exit>; TERM_CPULIMIT: job killed after reaching LSF CPU usage limit.'
check "bhist -l: TERM_CPULIMIT" says bhist "$c" 'TERM_CPULIMIT'
check "bacct -l: TERM_CPULIMIT" says bacct "$c" 'TERM_CPULIMIT: job killed after reaching LSF CPU usage limit.'
cpu_is_a_minute() {    # cpu_is_a_minute TEXT: "CPU time used is N" with 60 <= N < 120
	n=$(printf '%s\n' "$1" | unwrapped | sed -n 's/.*CPU time used is \([0-9]*\).*/\1/p' | tail -1)
	[ -n "$n" ] && [ "$n" -ge 60 ] && [ "$n" -lt 120 ]
}
check "bjobs -l: the CPU time is the minute used" cpu_is_a_minute "$(bjobs -l "$c")"
check "bhist -l: the same CPU time" cpu_is_a_minute "$(bhist -l "$c")"
check "bacct -l: CPU_T of a minute" sh -c "bacct -l $c | awk '/CPU_T/ { getline; ok = (\$1 >= 60 && \$1 < 120) } END { exit !ok }'"
check "both burners ran" test "$(wc -l <"$T/work/burners")" -eq 2
none_alive() {    # none_alive FILE: no pid listed in FILE is a live process
	while read -r p; do
		kill -0 "$p" 2>/dev/null && return 1
	done <"$1"
	return 0
}
check "no burner is left" none_alive "$T/work/burners"
done_testing
