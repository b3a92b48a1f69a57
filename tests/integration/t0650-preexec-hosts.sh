#!/bin/sh
# A queue's PRE_EXEC that fails on one host and succeeds on another (issue
# 14, item 2).  The pre-exec runs on the execution host before the job, as
# the job's user, with the job's environment: it fails where LSB_HOSTS is
# vh1.  While vh2 is closed the job fails on vh1, goes back to PEND with
# the pre-exec's reason (bjobs -l, bhist -l) and is dispatched again; once
# vh2 opens, the job avoids vh1, where its pre-exec failed, and runs on
# vh2 to DONE.  The job's command never ran on vh1.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
PRE_EXEC   = echo "\$LSB_HOSTS \$(id -un) \$LSB_JOBID \$(pwd)" >>$T/pre.log; test "\$LSB_HOSTS" != vh1
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

badmin hclose vh2 >/dev/null
id=$(bsub -o "$T/out" 'echo "ran on $LSB_HOSTS"' | job_id_of)
fails_on_vh1() { [ "$(grep -c "^vh1 " "$T/pre.log" 2>/dev/null)" -ge "$1" ]; }
check "the pre-exec runs on vh1 and fails there, again and again" wait_for 20 fails_on_vh1 2
check "as the job's user, with the job's environment, in /tmp" \
	grep -q "^vh1 $(id -un) $id /tmp\$" "$T/pre.log"
check "the job's command never ran" sh -c "! grep -q 'ran on' '$T/out' 2>/dev/null"
check "bhist -l records the pre-exec failure" \
	sh -c "bhist -l $id | tr -d '\n ' | grep -q \"queue'spre-execcommandexitedwithnon-zerostatus1onhost<vh1>\""

badmin hopen vh2 >/dev/null
check "once vh2 opens the job runs there and is DONE" wait_for 20 state_is "$id" DONE
check "on vh2" grep -qx "ran on vh2" "$T/out"
n1=$(grep -c "^vh1 " "$T/pre.log")
check "the pre-exec ran on vh2 once" sh -c "[ \$(grep -c '^vh2 ' '$T/pre.log') -eq 1 ]"
diag "pre-exec failures on vh1: $n1"
done_testing
