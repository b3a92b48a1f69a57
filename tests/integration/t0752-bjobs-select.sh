#!/bin/sh
# bjobs selection against a real cluster: -J with '*' anywhere, -P, -G,
# -app (chosen by mbatchd), -g (a group and its subgroups; a group with no
# job: nothing), -x (no exceptions: nothing), -X and -N accepted, bundled
# flags (-aw, -aJ name, -wu all), -UF, -A for a job array as scripts parse
# it, and -sum.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=8 make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T" || exit 1

a=$(bsub -J align_s1 -P projA -G grpA -o /dev/null sleep 300 | job_id_of)
b=$(bsub -J align_s2 -P projB -app short -o /dev/null sleep 300 | job_id_of)
c=$(bsub -J other -o /dev/null sleep 300 | job_id_of)
arr=$(bsub -J "arr[1-4]" -o /dev/null sleep 300 | job_id_of)
check "the jobs run" wait_for 15 sh -c "[ \$(bjobs -noheader -r -o jobid | wc -l) -eq 7 ]"

ids() { bjobs -noheader -o jobid "$@" 2>/dev/null | sort -u | tr '\n' ' '; }
check "-J with a leading '*'" [ "$(ids -J '*_s2')" = "$b " ]
check "-J with a '*' inside" [ "$(ids -J 'al*s1')" = "$a " ]
check "-J with several" [ "$(ids -J '*i*n*')" = "$(printf '%s\n' "$a" "$b" | sort | tr '\n' ' ')" ]
check "-J an array's name selects its elements" [ "$(bjobs -noheader -o jobid -J arr | wc -l)" -eq 4 ]
check "-P" [ "$(ids -P projA)" = "$a " ]
check "-P default: jobs without -P" [ "$(ids -P default)" = "$(printf '%s\n' "$c" "$arr" | sort | tr '\n' ' ')" ]
check "-G" [ "$(ids -G grpA)" = "$a " ]
check "-app" [ "$(ids -app short)" = "$b " ]
bjobs -g /nogrp >"$T/g" 2>&1
rc=$?
check "-g of a group no job is in: nothing matches" sh -c "[ $rc -eq 255 ] && grep -qx 'No unfinished job found' '$T/g'"
bjobs -x >"$T/x" 2>&1
rc=$?
check "-x: no job has an exception" sh -c "[ $rc -eq 255 ] && grep -qx 'No unfinished job found' '$T/x'"
check "-X and -N are accepted" sh -c "bjobs -X -N vh1 $a | grep -q align_s1"

check "-aw" sh -c "bjobs -aw | grep -q align_s1"
check "-aJ name" [ "$(ids -aJ other)" = "$c " ]
check "-wu all" sh -c "bjobs -wu all | grep -q align_s2"
check "-pJ (nothing pending)" sh -c "! bjobs -pJ other >/dev/null 2>&1"

bjobs -UF "$a" >"$T/uf" 2>&1
check "-UF keeps each statement on one line" \
	grep -qE "^Job <$a>, Job Name <align_s1>, .*Command <sleep 300>" "$T/uf"

bkill "$arr[2]" >/dev/null
check "an element is killed" wait_for 15 sh -c "bjobs -a -noheader -o stat '$arr[2]' | grep -qx EXIT"
bjobs -A "$arr" >"$T/A" 2>&1
check "-A: LSF's header" sh -c "head -n 1 '$T/A' | grep -qx 'JOBID    ARRAY_SPEC  OWNER   NJOBS PEND DONE  RUN EXIT SSUSP USUSP PSUSP'"
# As scripts read it: bjoblines[1].split(), pend [4], done [5], run [6], exit [7].
check "-A: one line, counted by state" python3 -c "
l = open('$T/A').readlines()
assert len(l) == 2, l
f = l[1].split()
assert f[0] == '$arr' and f[1] == 'arr[1-4]', f
assert [int(x) for x in f[3:]] == [4, 0, 0, 3, 1, 0, 0, 0], f
"
bjobs -A >"$T/A2" 2>&1
check "-A without ids lists the array alone" sh -c "[ \$(wc -l <'$T/A2') -eq 2 ]"

bjobs -sum >"$T/sum" 2>&1
check "-sum: LSF's header" sh -c "head -n 1 '$T/sum' | grep -qE '^RUN +SSUSP +USUSP +UNKNOWN +PEND +FWD_PEND$'"
check "-sum: slots by state" sh -c "[ \"\$(sed -n 2p '$T/sum' | tr -s ' ')\" = '6 0 0 0 0 0' ]"
# -g: a job of /grp/sub is one of /grp's subtree and of its own group,
# none of the others is.
g=$(bsub -g /grp/sub -o /dev/null sleep 300 | job_id_of)
check "-g a parent selects the job of its subgroup alone" wait_for 10 sh -c "[ \"\$(bjobs -noheader -o jobid -g /grp 2>/dev/null)\" = '$g' ]"
check "-g the subgroup itself" [ "$(ids -g /grp/sub)" = "$g " ]
check "-o job_group names it" sh -c "bjobs -noheader -o job_group $g | grep -qx /grp/sub"
bkill 0 >/dev/null 2>&1
done_testing
