#!/bin/sh
# bjdepinfo as LSF 10.1: the jobs that depend on a job (by ID and by
# name), its parents with -p, -r levels (0: all), -l with whether the
# condition is satisfied, and an unknown job.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

a=$(bsub -J first sleep 300 | job_id_of)
check "the first job runs" wait_for 10 state_is "$a" RUN
b=$(bsub -J second -w "done($a)" true | job_id_of)
c=$(bsub -J third -w "done($b)" true | job_id_of)
d=$(bsub -J byname -w "ended(first)" true | job_id_of)
check "the dependent jobs wait" wait_for 10 state_is "$d" PEND

bjdepinfo "$a" >"$T/c" 2>&1
check "bjdepinfo succeeds" [ $? -eq 0 ]
check "children of the first job, by ID and by name" python3 -c "
l = open('$T/c').read().split('\n')
assert l[0].split() == ['JOBID', 'CHILD', 'CHILD_STATUS', 'CHILD_NAME', 'LEVEL'], l
rows = sorted(x.split() for x in l[1:] if x)
assert rows == sorted([['$a', '$b', 'PEND', 'second', '1'],
                       ['$a', '$d', 'PEND', 'byname', '1']]), rows
"
bjdepinfo -r 2 "$a" >"$T/r" 2>&1
check "-r 2 follows to the grandchild" grep -q "^$b  *$c  *PEND  *third  *2\$" "$T/r"
bjdepinfo -p -r 0 "$c" >"$T/p" 2>&1
check "-p -r 0: every ancestor" python3 -c "
l = open('$T/p').read().split('\n')
assert l[0].split() == ['JOBID', 'PARENT', 'PARENT_STATUS', 'PARENT_NAME', 'LEVEL'], l
assert [x.split() for x in l[1:] if x] == [['$c', '$b', 'PEND', 'second', '1'],
    ['$b', '$a', 'RUN', 'first', '2']], l
"
bjdepinfo -l "$b" >"$T/l" 2>&1
check "-l: the condition, not satisfied" \
	grep -q "^Dependency condition of job <$b> is not satisfied: done($a)" "$T/l"
bjdepinfo "$c" >"$T/none" 2>&1
check "a job nothing depends on: exit 255" [ $? -eq 255 ]
bjdepinfo 999999 >"$T/nf" 2>&1
check "an unknown job: exit 255" [ $? -eq 255 ]
check "with LSF's message" grep -q "Job <999999> is not found" "$T/nf"
bkill "$a" >/dev/null 2>&1
check "the first job ends" wait_for 10 state_is "$a" EXIT
bjdepinfo -l "$d" >"$T/l2" 2>&1
check "-l: ended(first) is satisfied now" \
	grep -q "^Dependency condition of job <$d> is satisfied: ended(first)" "$T/l2"
done_testing
