#!/bin/sh
# Moving jobs around: brequeue, bswitch, bmod, btop/bbot; closing and
# inactivating queues; closing hosts.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# One slot: a long job holds it, the rest wait in order.
run=$(bsub -o /dev/null sleep 300 | job_id_of)
wait_for 10 state_is "$run" RUN
a=$(bsub -o /dev/null true | job_id_of)
b=$(bsub -o /dev/null true | job_id_of)
c=$(bsub -o /dev/null true | job_id_of)
pend_order() { [ "$(bjobs -p -noheader -o jobid | tr -d ' ' | tr '\n' ' ')" = "$1" ]; }
check "pending jobs are listed in submission order" pend_order "$a $b $c "
check "pending jobs say why they wait" sh -c "bjobs -p -noheader -o pend_reason $a | grep -q 'Job slot limit reached'"
btop "$c" >/dev/null 2>&1
check "btop moves a job to the top" pend_order "$c $a $b "
bbot "$c" >/dev/null 2>&1
check "bbot moves it to the bottom" pend_order "$a $b $c "

check "bswitch moves a pending job to another queue" sh -c "bswitch short $b | grep -q 'Job <$b> is switched to queue <short>'"
check "bjobs shows the new queue" sh -c "bjobs -noheader -o queue $b | grep -qw short"
check "bmod changes the job's name" sh -c "bmod -J renamed $a 2>&1 | grep -q 'Parameters of job <$a> are being changed'"
check "bjobs shows the new name" sh -c "bjobs -noheader -o job_name $a | grep -qw renamed"

check "brequeue puts the running job back to pending" sh -c "brequeue $run | grep -q 'Job <$run> is being requeued'"
check "the requeued job's slot goes to the next job" wait_for 15 state_is "$a" DONE

bkill 0 >/dev/null 2>&1
wait_for 15 sh -c '! bjobs >/dev/null 2>&1'

badmin qclose normal >/dev/null
check "bsub to a closed queue is refused" sh -c '! bsub -q normal true 2>/dev/null'
check "with the queue's reason" sh -c 'bsub -q normal true 2>&1 | grep -q "Queue has been closed"'
badmin qopen normal >/dev/null
check "qopen reopens it" sh -c 'bsub -q normal -o /dev/null true | grep -q submitted'

badmin qinact normal >/dev/null
id=$(bsub -q normal -o /dev/null true | job_id_of)
check "a job in an inactive queue stays pending with the reason" wait_for 5 sh -c "bjobs -p -noheader -o pend_reason $id | grep -q 'inactivated by the administrator'"
check "bqueues shows the queue inactive" sh -c 'bqueues normal | grep -q "Open:Inact"'
badmin qact normal >/dev/null
check "qact lets it run" wait_for 15 state_is "$id" DONE

badmin hclose vh1 >/dev/null
check "bhosts shows the closed host" sh -c 'bhosts vh1 | grep -q "^vh1 *closed"'
id=$(bsub -o /dev/null true | job_id_of)
check "nothing is dispatched to a closed host" wait_for 5 sh -c "bjobs -p -noheader -o pend_reason $id | grep -q 'Closed by LSF administrator'"
badmin hopen vh1 >/dev/null
check "hopen lets the job run" wait_for 15 state_is "$id" DONE
done_testing
