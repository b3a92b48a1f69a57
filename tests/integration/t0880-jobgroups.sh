#!/bin/sh
# Job groups as LSF 10.1: bgadd creates a group (and its missing
# ancestors) with a limit, bsub -g creates one implicitly, bjgroup counts
# each group's subtree in LSF's columns, the limit holds jobs pending with
# its reason until bgmod raises it, bjobs -g selects a subtree and
# bjobs -l names the group, bstop/bresume -g act on the subtree and
# bkill -g on the group alone, bgdel refuses a group with unfinished jobs
# and another user's bgdel and bgmod are refused; groups, limits and the
# jobs' groups survive an mbatchd restart, and bhist -l shows the group.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
u1=bsga$$
u2=bsgb$$
add_test_user "$u1" "$T/home" || exit 1
add_test_user "$u2" "$T/home" || exit 1
mkdir -p "$T/home" && chmod 777 "$T/home"

BS_MXJ=8
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1

# bjgroup's row of one group: "NJOBS PEND RUN SSUSP USUSP FINISH JLIMIT OWNER".
row() { bjgroup -w | awk -v g="$1" '$1 == g {print $2, $3, $4, $5, $6, $7, $9, $10}'; }
row_is() { [ "$(row "$1")" = "$2" ]; }

as "$u1" bgadd -L 2 /proj/a >"$T/add.out" 2>&1
check "bgadd -L 2 /proj/a succeeds" [ $? -eq 0 ]
check "saying so as LSF" grep -q "Job group </proj/a> was added." "$T/add.out"
bjgroup >"$T/list0" 2>&1
check "bjgroup prints LSF's header" grep -q '^GROUP_NAME  *NJOBS  *PEND  *RUN  *SSUSP  *USUSP  *FINISH  *SLA  *JLIMIT  *OWNER$' "$T/list0"
check "the missing parent /proj was created, owned by the user" row_is /proj "0 0 0 0 0 0 0/- $u1"
check "/proj/a has its limit" row_is /proj/a "0 0 0 0 0 0 0/2 $u1"
check "adding it again is refused" sh -c "! as() { :; }; ! runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgadd /proj/a 2>/dev/null"
check "a bad path is refused" sh -c "! bgadd 'proj/x' 2>'$T/bad.out' && grep -q 'full path' '$T/bad.out'"
check "an empty component is refused" sh -c "! bgadd '/proj//x' 2>/dev/null"
check "bgadd -sla is refused clearly" sh -c "! bgadd -sla gold /proj/s 2>'$T/sla.out' && grep -q 'service classes are not supported' '$T/sla.out'"

j1=$(as "$u1" bsub -g /proj/a -o /dev/null sleep 300 | job_id_of)
j2=$(as "$u1" bsub -g /proj/a -o /dev/null sleep 300 | job_id_of)
j3=$(as "$u1" bsub -g /proj/a/ -o /dev/null sleep 300 | job_id_of)
check "two jobs of /proj/a run" wait_for 10 sh -c "bjobs -u all -noheader -r -g /proj/a -o jobid | grep -c . | grep -qx 2"
check "the third pends for the group's limit" wait_for 10 sh -c "bjobs -noheader -p -o 'jobid pend_reason' $j3 | grep -q 'The job group has reached its job slot limit'"
check "and stays pending" sh -c "sleep 2; bjobs -noheader -o stat $j3 | grep -qx PEND"

# Implicit creation, by another user, under the first user's group.
j4=$(as "$u2" bsub -g /proj/b/c -o /dev/null sleep 300 | job_id_of)
check "bsub -g makes /proj/b/c and its parent implicitly" wait_for 10 sh -c "bjgroup -w | grep -q '^/proj/b/c '"
check "owned by the submitter" wait_for 10 row_is /proj/b/c "1 0 1 0 0 0 1/- $u2"
check "bjgroup counts the subtree of /proj" wait_for 10 row_is /proj "4 1 3 0 0 0 3/- $u1"
check "bjgroup /proj/a lists that group alone" sh -c "[ \"\$(bjgroup -w /proj/a | sed 1d | awk '{print \$1}')\" = /proj/a ]"
check "bjgroup -s /proj lists its subtree in hierarchy order" sh -c "[ \"\$(bjgroup -s -w /proj | sed 1d | awk '{print \$1}' | tr '\n' ' ')\" = '/proj /proj/a /proj/b /proj/b/c ' ]"
check "bjgroup /proj/ lists /proj alone" sh -c "[ \"\$(bjgroup -w /proj/ | sed 1d | awk '{print \$1}')\" = /proj ]"
check "bjgroup -N shows slots" sh -c "bjgroup -N -w | grep -q '^GROUP_NAME  *NSLOTS  *PEND  *RUN  *SSUSP  *USUSP  *RSV  *SLA  *OWNER$'"

check "bjobs -g /proj/a selects its three jobs" sh -c "[ \"\$(bjobs -u all -noheader -g /proj/a -o jobid | sort -n | tr '\n' ' ')\" = '$j1 $j2 $j3 ' ]"
check "bjobs -g /proj selects the subtree" sh -c "[ \"\$(bjobs -u all -noheader -g /proj -o jobid | wc -l)\" -eq 4 ]"
check "bjobs -l names the group" sh -c "bjobs -l $j4 | tr -d '\n ' | grep -q 'JobGroup</proj/b/c>'"
check "bjobs -o job_group shows it" sh -c "[ \"\$(bjobs -noheader -o job_group $j1)\" = /proj/a ]"
check "and -json too" sh -c "bjobs -json -o 'jobid job_group' $j1 | grep -q '\"JOB_GROUP\":\"/proj/a\"'"

# Another user may use the group but not change or delete it.
check "another user may not bgmod the group" sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgmod -L 5 /proj/a 2>'$T/deny1'"
check "told why" grep -q "permission denied" "$T/deny1"
check "nor bgdel it" sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgdel /proj/a 2>'$T/deny2'"
check "told why too" grep -q "permission denied" "$T/deny2"
check "the owner may not delete a group with unfinished jobs" sh -c "! runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgdel /proj/a 2>'$T/busy'"
check "saying it holds jobs" grep -q "unfinished job" "$T/busy"
check "a limit above the parent's is refused" sh -c "as() { :; }; bgmod -L 3 /proj/a >/dev/null && bgadd -L 9 /proj/a/x 2>'$T/nest'; [ \$? -ne 0 ] && grep -q 'cannot exceed' '$T/nest'"

# The owner raises the limit (an administrator did to 3 just above):
# the third job starts.
check "bgmod -L raised the limit: the third job runs" wait_for 10 state_is "$j3" RUN
check "bjgroup shows 3/3" wait_for 10 row_is /proj/a "3 0 3 0 0 0 3/3 $u1"
check "the owner removes the limit with -Ln" sh -c "runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgmod -Ln /proj/a | grep -q 'is modified'"
check "bjgroup shows no limit" wait_for 10 row_is /proj/a "3 0 3 0 0 0 3/- $u1"
check "back to 3 for the restart" bgmod -L 3 /proj/a

# bstop/bresume -g act on the subtree, only on the caller's own jobs.
as "$u1" bstop -g /proj 0 >"$T/stop.out" 2>&1
check "bstop -g /proj 0 by the owner of three of its jobs stops them" wait_for 10 sh -c "[ \"\$(bjobs -u all -noheader -s -g /proj -o jobid | wc -l)\" -eq 3 ]"
check "and not the other user's job" state_is "$j4" RUN
check "bjgroup counts them USUSP" wait_for 10 row_is /proj "4 0 1 0 3 0 4/- $u1"
check "bresume -g /proj/a 0 resumes them" sh -c "runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bresume -g /proj/a 0 >/dev/null"
check "all running again" wait_for 10 row_is /proj "4 0 4 0 0 0 4/- $u1"

# Restart: the groups, their owners and limits, and the jobs' groups are
# replayed from the journal.
stop_mbd
start_mbd || exit 1
check "sbatchd reconnects" wait_for 30 host_ok vh1
check "after a restart /proj/a keeps its limit and counts" wait_for 20 row_is /proj/a "3 0 3 0 0 0 3/3 $u1"
check "the implicit group is back with its owner" wait_for 10 row_is /proj/b/c "1 0 1 0 0 0 1/- $u2"
check "the jobs keep their group" sh -c "bjobs -l $j2 | tr -d '\n ' | grep -q 'JobGroup</proj/a>'"
j5=$(as "$u1" bsub -g /proj/a -o /dev/null sleep 300 | job_id_of)
check "the limit still holds after the restart" wait_for 10 sh -c "bjobs -noheader -p -o pend_reason $j5 | grep -q 'job group has reached'"

# bkill -g kills the jobs of that group, not of its subgroups (LSF).
j6=$(as "$u1" bsub -g /proj/a/deep -o /dev/null sleep 300 | job_id_of)
bkill -u all -g /proj/a 0 >"$T/kill.out" 2>&1
check "bkill -g /proj/a 0 kills the group's four jobs" sh -c "[ \"\$(grep -c 'is being terminated' '$T/kill.out')\" -eq 4 ]"
check "they end" wait_for 20 sh -c "for j in $j1 $j2 $j3 $j5; do bjobs -noheader -o stat \$j | grep -qx EXIT || exit 1; done"
check "the job of /proj/a/deep is not killed" sh -c "bjobs -noheader -o stat $j6 | grep -Eqx 'PEND|RUN'"
check "the other group's job neither" state_is "$j4" RUN
bkill "$j6" >/dev/null 2>&1
check "with its jobs finished, the owner deletes /proj/a" wait_for 10 sh -c "runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgdel /proj/a 2>&1 | grep -q 'Job group </proj/a> was deleted.'"
check "it is gone, with its subgroup" sh -c "! bjgroup -w | grep -q '^/proj/a'"
check "bgdel of /proj is refused while /proj/b/c has a job" sh -c "! runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgdel /proj 2>/dev/null"
check "bhist -l shows the group of a job" sh -c "bhist -l $j1 | tr -d '\n ' | grep -q 'JobGroup</proj/a>'"

# bgdel -c deletes the empty groups of a subtree, deepest first; bgdel 0
# every empty group of the caller; -u is for administrators.
as "$u1" bgadd /t/a/b >/dev/null
as "$u1" bgadd /t/c >/dev/null
as "$u1" bgadd /u1only >/dev/null
jc=$(as "$u1" bsub -H -g /t/c -o /dev/null true | job_id_of)
as "$u1" bgdel -c /t >"$T/delc.out" 2>&1
check "bgdel -c /t deletes /t/a/b and /t/a" sh -c "grep -q '</t/a/b> was deleted' '$T/delc.out' && grep -q '</t/a> was deleted' '$T/delc.out'"
check "but keeps /t/c, which holds a job, and so /t" sh -c "bjgroup -w | grep -q '^/t/c ' && bjgroup -w | grep -q '^/t ' && ! bjgroup -w | grep -q '^/t/a'"
check "bgdel -u by a user is refused" sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bgdel -u $u1 0 2>/dev/null"
as "$u2" bgdel 0 >"$T/del0.out" 2>&1
check "bgdel 0 by another user deletes none of the owner's groups" sh -c "bjgroup -w | grep -q '^/u1only '"
as "$u1" bgdel 0 >"$T/del0.out" 2>&1
check "bgdel 0 by the owner deletes the owner's empty groups" sh -c "! bjgroup -w | grep -q '^/u1only '"
check "and not the busy ones" sh -c "bjgroup -w | grep -q '^/t/c '"
bkill "$jc" >/dev/null 2>&1

# bmod -g moves a pending job into a group (made implicitly), -gn out.
jh=$(as "$u1" bsub -H -g /proj/x -o /dev/null true | job_id_of)
check "bmod -g moves a pending job to another group" sh -c "runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bmod -g /proj/y $jh >/dev/null && [ \"\$(bjobs -noheader -o job_group $jh)\" = /proj/y ]"
check "which it created, owned by the job's owner" row_is /proj/y "1 1 0 0 0 0 0/- $u1"
check "bmod -gn takes it out of any group" sh -c "bmod -gn $jh >/dev/null && [ \"\$(bjobs -noheader -o job_group $jh)\" = - ]"
check "bmod -g refuses a bad path" sh -c "! bmod -g 'no/slash' $jh 2>/dev/null"

# DEFAULT_JOBGROUP with %u, and JOB_GROUP_CLEAN.
params=$T/conf/lsbatch/basalt/configdir/lsb.params
sed -i 's|^End Parameters|DEFAULT_JOBGROUP = /users/%u\nJOB_GROUP_CLEAN = Y\nEnd Parameters|' "$params"
badmin reconfig >/dev/null 2>&1
check "bparams -a shows DEFAULT_JOBGROUP" sh -c "bparams -a | grep -q 'DEFAULT_JOBGROUP = /users/%u'"
check "bparams -l explains JOB_GROUP_CLEAN" sh -c "bparams -l | grep -A1 'Empty implicit job groups' | grep -q 'JOB_GROUP_CLEAN = Y'"
j7=$(as "$u2" bsub -o /dev/null true | job_id_of)
check "DEFAULT_JOBGROUP puts a job without -g in /users/<user>" wait_for 10 sh -c "[ \"\$(bjobs -noheader -o job_group $j7)\" = /users/$u2 ]"
j8=$(as "$u2" env LSB_DEFAULT_JOBGROUP=/env/%u bsub -o /dev/null true | job_id_of)
check "LSB_DEFAULT_JOBGROUP wins over it" wait_for 10 sh -c "[ \"\$(bjobs -noheader -o job_group $j8)\" = /env/$u2 ]"
check "JOB_GROUP_CLEAN removes the implicit groups once their jobs finish" wait_for 20 sh -c "! bjgroup -w | grep -Eq '^/(users|env)'"
check "but keeps one with an unfinished job" sh -c "bjgroup -w | grep -q '^/proj/b/c '"
bkill -u all 0 >/dev/null 2>&1
check "which goes once its job is killed, with its implicit parent" wait_for 20 sh -c "! bjgroup -w | grep -q '^/proj/b'"
check "while the group made by bgadd stays" sh -c "bjgroup -w | grep -q '^/proj '"
done_testing
