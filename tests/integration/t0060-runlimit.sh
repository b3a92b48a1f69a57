#!/bin/sh
# RUNLIMIT: a job that runs past its limit (bsub -W, or the queue's) is
# killed; a job asking for more than the queue's limit is refused.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >>"$lsb/lsb.queues" <<Q

Begin Queue
QUEUE_NAME = tiny
PRIORITY = 10
RUNLIMIT = 1 2
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

# -W is in minutes; a limit of one minute would make a slow test, so the
# shortest real case is the queue default.  Check the refusal first.
check "bsub -W over the queue's maximum is refused" \
	sh -c 'bsub -q tiny -W 5 true 2>&1 | grep -q "hard limit"'

id=$(bsub -q normal -W 1 -o /dev/null sleep 300 | job_id_of)
check "a job with -W 1 runs" wait_for 10 state_is "$id" RUN
check "and is killed after its minute" wait_for 90 state_is "$id" EXIT
check "bjobs -l says why" sh -c "bjobs -l $id | grep -qi 'RUNLIMIT'"
check "as LSF names it: TERM_RUNLIMIT" sh -c "bjobs -l $id | grep -q 'Completed <exit>; TERM_RUNLIMIT'"
check "bhist -l: TERM_RUNLIMIT" says bhist "$id" \
	'Completed <exit>; TERM_RUNLIMIT: job killed after reaching LSF run time limit.'
check "bacct -l: TERM_RUNLIMIT" says bacct "$id" \
	'TERM_RUNLIMIT: job killed after reaching LSF run time limit.'
done_testing
