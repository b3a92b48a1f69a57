#!/bin/sh
# Pre-exec retries are bounded (issue 14, item 2).  A job whose pre-exec
# always fails is dispatched again after each failure until it failed
# MAX_PREEXEC_RETRY times (the queue's 3 over lsb.params), then ends EXIT
# with the pre-exec's exit code and reason in bjobs -l and bhist -l.  An
# application profile's LOCAL_MAX_PREEXEC_RETRY=2 (failures on one host)
# ends its job after 2.  The job-level bsub -E runs after the queue's
# PRE_EXEC, and a queue pre-exec failure names the queue.  The state
# survives an mbatchd restart (the failures are journaled).
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME        = normal
PRIORITY          = 30
MAX_PREEXEC_RETRY = 3
End Queue

Begin Queue
QUEUE_NAME = qpre
PRIORITY   = 20
PRE_EXEC   = echo queue >>$T/order.log
End Queue

Begin Queue
QUEUE_NAME = qfail
PRIORITY   = 20
PRE_EXEC   = exit 7
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
check "the pre-exec ran MAX_PREEXEC_RETRY=3 times" sh -c "[ \$(wc -l <'$T/a.log') -eq 3 ]"
check "the job's command never ran" sh -c "! grep -q 'job ran' '$T/a.out' 2>/dev/null"
check "bjobs -l: the pre-exec's exit code" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Exitedwithexitcode3'"
check "bjobs -l: the reason" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q \"job'spre-execcommandexitedwithnon-zerostatus3onhost<vh1>;itfailed3times(MAX_PREEXEC_RETRY=3)\""
check "bhist -l: two requeues by the pre-exec before the end" \
	sh -c "[ \$(bhist -l $id | tr -d '\n ' | grep -o \"Requeued:Thejob'spre-exec\" | wc -l) -eq 2 ]"

id2=$(bsub -app twice -E "echo x >>$T/b.log; false" -o /dev/null true | job_id_of)
check "LOCAL_MAX_PREEXEC_RETRY=2 of the profile ends it" wait_for 30 state_is "$id2" EXIT
check "after 2 failures on vh1" sh -c "[ \$(wc -l <'$T/b.log') -eq 2 ]"
check "bjobs -l names LOCAL_MAX_PREEXEC_RETRY" \
	sh -c "bjobs -l $id2 | tr -d '\n ' | grep -q 'LOCAL_MAX_PREEXEC_RETRY=2'"

id3=$(bsub -q qpre -E "echo job >>$T/order.log" -o /dev/null true | job_id_of)
check "queue and job pre-exec both succeed: DONE" wait_for 20 state_is "$id3" DONE
check "the queue's runs first, then the job's" sh -c "[ \"\$(cat '$T/order.log' | tr '\n' ' ')\" = 'queue job ' ]"

id4=$(bsub -q qfail -o /dev/null true | job_id_of)
check "a failing queue pre-exec ends the job too" wait_for 30 state_is "$id4" EXIT
check "its reason names the queue's pre-exec and code 7" \
	sh -c "bjobs -l $id4 | tr -d '\n ' | grep -q \"queue'spre-execcommandexitedwithnon-zerostatus7\""

stop_mbd
start_mbd || exit 1
check "after an mbatchd restart the job is still EXIT" state_is "$id" EXIT
check "with the same reason" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'MAX_PREEXEC_RETRY=3'"
done_testing
