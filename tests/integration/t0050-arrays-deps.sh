#!/bin/sh
# Job arrays with a running limit, and dependencies between jobs.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = 60000\nEnd Parameters/' \
	"$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -J "arr[1-6]%2" -o "$T/arr.%J.%I" 'echo $LSB_JOBINDEX; sleep 1' | job_id_of)
elements_running() { [ "$(bjobs -r -noheader -o jobid 2>/dev/null | grep -c .)" -le 2 ]; }
check "the array has six elements" sh -c "[ \$(bjobs -a -noheader -o jobid $id | grep -c .) -eq 6 ]"
check "at most two elements run at once" sh -c "
	end=\$((\$(date +%s) + 4))
	while [ \$(date +%s) -lt \$end ]; do
		[ \$(bjobs -r -noheader -o jobid | grep -c .) -le 2 ] || exit 1
		sleep 0.1
	done"
array_done() { [ "$(bjobs -a -noheader -o stat "$id" | grep -c DONE)" -eq 6 ]; }
check "every element ends DONE" wait_for 30 array_done
check "each element wrote its index to its own file (%J, %I)" \
	sh -c "for i in 1 2 3 4 5 6; do grep -qx \$i $T/arr.$id.\$i || exit 1; done"
check "an element can be named as id[index]" sh -c "bjobs -a -noheader -o job_name '$id[3]' | grep -q 'arr\\[3\\]'"

# 60,000 held elements: more than one 4 MiB reply frame holds, so bjobs
# must page.
big=$(bsub -H -J "big[1-60000]" -o /dev/null true | job_id_of)
check "bjobs lists all 60000 elements across reply pages" \
	sh -c "[ \$(bjobs -noheader -o jobid $big | grep -c .) -eq 60000 ]"
bkill "$big" >/dev/null 2>&1
big_gone() { [ "$(bjobs -noheader -o stat "$big" 2>/dev/null | grep -c PSUSP)" -eq 0 ]; }
wait_for 30 big_gone

first=$(bsub -o /dev/null sleep 2 | job_id_of)
after=$(bsub -w "done($first)" -o /dev/null true | job_id_of)
never=$(bsub -w "exit($first)" -o /dev/null true | job_id_of)
# The reason is the scheduling pass's, which may come after bjobs asks.
check "a dependent job waits with the reason" wait_for 10 sh -c "bjobs -p -noheader -o pend_reason $after | grep -q 'dependency condition not satisfied'"
check "and runs once its dependency is done" wait_for 20 state_is "$after" DONE
check "exit() of a job that succeeded is never satisfied" \
	wait_for 5 sh -c "bjobs -p -noheader -o pend_reason $never | grep -q 'never satisfied'"
bkill "$never" >/dev/null

bad=$(bsub -o /dev/null 'exit 3' | job_id_of)
wait_for 15 state_is "$bad" EXIT
e=$(bsub -w "exit($bad, 3) && ended($bad)" -o /dev/null true | job_id_of)
check "exit(id, code) && ended(id) is satisfied" wait_for 15 state_is "$e" DONE
s=$(bsub -o /dev/null sleep 3 | job_id_of)
st=$(bsub -w "started($s) || done($never)" -o /dev/null true | job_id_of)
check "started() || ... is satisfied while the job runs" wait_for 15 state_is "$st" DONE
check "a dependency on an unknown job is refused at submission" \
	sh -c 'bsub -w "done(987654)" true 2>&1 | grep -q "not found"'
done_testing
