#!/bin/sh
# Pre-exec retries are bounded as in LSF (issue 14, item 2).  A job whose
# pre-exec always fails is dispatched again after each failure until it
# failed LOCAL_MAX_PREEXEC_RETRY times (3, lsb.params); then, with the
# queue's LOCAL_MAX_PREEXEC_RETRY_ACTION=EXIT, it ends EXIT with the
# pre-exec's exit code and reason in bjobs -l and bhist -l.  A profile's
# LOCAL_MAX_PREEXEC_RETRY=2 with the default action (SUSPEND, its queue
# sets none) holds its job PSUSP instead.  bsub -E runs in the job's working directory, after
# the queue's PRE_EXEC (which runs in /tmp); a failing queue pre-exec
# names the queue.  A pre-exec killed by bkill ends the job, not retried.
# The outcome survives an mbatchd restart.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
sed -i "s/^End Parameters/LOCAL_MAX_PREEXEC_RETRY = 3\n&/" "$lsb/lsb.params"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME                     = normal
PRIORITY                       = 30
LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT
End Queue

Begin Queue
QUEUE_NAME = plain
PRIORITY   = 20
End Queue

Begin Queue
QUEUE_NAME = qpre
PRIORITY   = 20
PRE_EXEC   = echo "queue \$(pwd)" >>$T/order.log
End Queue

Begin Queue
QUEUE_NAME                     = qfail
PRIORITY                       = 20
PRE_EXEC                       = exit 7
LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT
End Queue
Q
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME                    = twice
LOCAL_MAX_PREEXEC_RETRY = 2
End Application
A
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -E "echo x >>$T/a.log; exit 3" -o "$T/a.out" 'echo job ran' | job_id_of)
check "the job ends EXIT after its pre-exec failed" wait_for 30 state_is "$id" EXIT
check "the pre-exec ran LOCAL_MAX_PREEXEC_RETRY=3 times" sh -c "[ \$(wc -l <'$T/a.log') -eq 3 ]"
check "the job's command never ran" sh -c "! grep -q 'job ran' '$T/a.out' 2>/dev/null"
check "bjobs -l: the pre-exec's exit code" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Exitedwithexitcode3'"
check "bjobs -l: the reason" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q \"job'spre-execcommandexitedwithnon-zerostatus3onhost<vh1>;itfailed3times(LOCAL_MAX_PREEXEC_RETRY=3,LOCAL_MAX_PREEXEC_RETRY_ACTION=EXIT)\""
check "bhist -l: two requeues by the pre-exec before the end" \
	sh -c "[ \$(bhist -l $id | tr -d '\n ' | grep -o \"Requeued:Thejob'spre-exec\" | wc -l) -eq 2 ]"

id2=$(bsub -q plain -app twice -E "echo x >>$T/b.log; false" -o /dev/null true | job_id_of)
check "the profile's LOCAL_MAX_PREEXEC_RETRY=2, default action: PSUSP" wait_for 30 state_is "$id2" PSUSP
check "after 2 failures" sh -c "[ \$(wc -l <'$T/b.log') -eq 2 ]"
check "bjobs -l: held because of the pre-exec, not by the user" \
	sh -c "bjobs -l $id2 | tr -d '\n ' | grep -q 'PENDINGREASONS:Thejob.spre-execcommandexitedwithnon-zerostatus1onhost<vh1>;itfailed2times'"
check "bhist -l: held by the pre-exec" \
	sh -c "bhist -l $id2 | tr -d '\n ' | grep -q 'Requeuedandheld:.*LOCAL_MAX_PREEXEC_RETRY=2,LOCAL_MAX_PREEXEC_RETRY_ACTION=SUSPEND'"

mkdir "$T/wd"
id3=$(cd "$T/wd" && bsub -q qpre -E "echo \"job \$(pwd)\" >>$T/order.log" -o /dev/null true | job_id_of)
check "queue and job pre-exec both succeed: DONE" wait_for 20 state_is "$id3" DONE
check "the queue's runs first, in /tmp, then the job's, in the job's cwd" \
	sh -c "[ \"\$(tr '\n' ' ' <'$T/order.log')\" = 'queue /tmp job $T/wd ' ]"

id4=$(bsub -q qfail -o /dev/null true | job_id_of)
check "a failing queue pre-exec ends the job too" wait_for 30 state_is "$id4" EXIT
check "its reason names the queue's pre-exec and code 7" \
	sh -c "bjobs -l $id4 | tr -d '\n ' | grep -q \"queue'spre-execcommandexitedwithnon-zerostatus7\""

id5=$(bsub -q plain -E "echo \$\$ >$T/slow.pid; exec sleep 300" -o /dev/null 'echo job ran' | job_id_of)
check "a slow pre-exec is running" wait_for 15 test -s "$T/slow.pid"
bkill "$id5" >/dev/null
check "bkill during the pre-exec ends the job EXIT (no retry)" wait_for 15 state_is "$id5" EXIT
check "and killed the pre-exec" sh -c "! kill -0 \$(cat '$T/slow.pid') 2>/dev/null"

stop_mbd
start_mbd || exit 1
check "after an mbatchd restart the job is still EXIT" state_is "$id" EXIT
check "with the same reason" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'LOCAL_MAX_PREEXEC_RETRY=3'"
check "and the held one still PSUSP" state_is "$id2" PSUSP
done_testing
