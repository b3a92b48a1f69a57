#!/bin/sh
# bacct -b -d -e -w -x -P -m and bhist -w as LSF 10.1: a DONE job in
# project pa and an EXIT job in project pb, both on vh1; each option
# keeps the jobs it names and says so in the header.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1

name=a-very-long-job-name-that-is-cut-in-narrow-columns
ok=$(bsub -P pa -J "$name" -m vh1 -o /dev/null true | job_id_of)
bad=$(bsub -P pb -m vh1 -o /dev/null false | job_id_of)
check "the first job is DONE" wait_for 20 state_is "$ok" DONE
check "the second job is EXIT" wait_for 20 state_is "$bad" EXIT

jobs_in() { awk '/^Job </ {sub(/^Job </, ""); sub(/>.*/, ""); printf "%s ", $0}'; }
check "-l: both jobs" [ "$(bacct -l "$ok" "$bad" | jobs_in)" = "$ok $bad " ]
check "-d: the DONE job only" [ "$(bacct -d -l -u all | jobs_in)" = "$ok " ]
check "-e: the EXIT job only" [ "$(bacct -e -l -u all | jobs_in)" = "$bad " ]
check "-d says so" sh -c 'bacct -d -u all | grep -q "^  - completed normally\$"'
check "-e says so" sh -c 'bacct -e -u all | grep -q "^  - exited\$"'
check "-P pb: that project's job" [ "$(bacct -P pb -l -u all | jobs_in)" = "$bad " ]
check "-P says so" sh -c 'bacct -P pb -u all | grep -q "^  - accounted on projects pb,"'
check "-m vh1: both" [ "$(bacct -m vh1 -l -u all | jobs_in)" = "$ok $bad " ]
check "-m says so" sh -c 'bacct -m vh1 -u all | grep -q "^  - executed on hosts vh1,"'
bacct -m vh2 -u all >"$T/m2" 2>&1
check "-m vh2: none, exit 255" [ $? -eq 255 ]
check "No matching job found" grep -q "No matching job found" "$T/m2"
bacct -x -u all >"$T/x" 2>&1
check "-x: Basalt raises no exceptions, so no job" [ $? -eq 255 ]

bacct -b "$ok" "$bad" >"$T/b" 2>&1
check "-b succeeds" [ $? -eq 0 ]
check "-b: one line per job, then the summary" python3 -c "
l = open('$T/b').read().split('\n')
i = [k for k, x in enumerate(l) if x.startswith('U/UID')][0]
assert l[i].split() == ['U/UID', 'QUEUE', 'SUBMIT_TIME', 'CPU_T', 'WAIT',
    'TURNAROUND', 'FROM', 'EXEC_ON', 'JOB_NAME'], l[i]
assert l[i + 1].split()[-2:] == ['vh1', '$name'], l[i + 1]
assert l[i + 2].split()[-2] == 'vh1', l[i + 2]
assert any(x.startswith('SUMMARY:') for x in l[i + 3:]), l
"
bacct -b -l "$ok" >"$T/bl" 2>&1
check "-b with -l is refused" [ $? -eq 255 ]
check "-w -l: the job line is not wrapped" \
	sh -c "bacct -w -l $ok | grep -q '^Job <$ok>, Job Name <$name>, User <.*>, Project <pa>, Status <DONE>, Queue <normal>, Command <true>\$'"

check "bhist cuts the name" sh -c "! bhist -a $ok | grep -q '$name'"
check "bhist -w shows the whole name" sh -c "bhist -a -w $ok | grep -q '$name'"
done_testing
