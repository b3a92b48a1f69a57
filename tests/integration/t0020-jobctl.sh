#!/bin/sh
# bstop, bresume and bkill act on the whole process group of a job: a job
# that forks children is stopped (every process in state T), resumed, and
# killed with all its children.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -o /dev/null 'sleep 300 & sleep 300 & wait' | job_id_of)
check "the job runs" wait_for 10 state_is "$id" RUN

check "the job has three processes, all sleeping" wait_for 10 procs_in "$id" S
check "bstop answers" sh -c "bstop $id | grep -q 'Job <$id> is being stopped'"
check "the job is USUSP" wait_for 10 state_is "$id" USUSP
check "every process of the job is stopped (T)" wait_for 10 procs_in "$id" T
check "bresume answers" sh -c "bresume $id | grep -q 'Job <$id> is being resumed'"
check "the job runs again" wait_for 10 state_is "$id" RUN
check "every process runs again (S)" wait_for 10 procs_in "$id" S
bstop "$id" >/dev/null
wait_for 10 procs_in "$id" T
check "bkill of a stopped job ends it" sh -c "bkill $id >/dev/null && true"
check "the job is EXIT" wait_for 15 state_is "$id" EXIT
check "bhist -l shows the kill request and who made it" \
	sh -c "bhist -l $id | tr -s ' \n' ' ' | grep -q 'Signal <KILL> requested by user or administrator <$(id -un)>'"
job_gone() { [ -z "$(job_pids "$id")" ]; }
check "no process of the job is left" wait_for 10 job_gone

id=$(bsub -H -o /dev/null true | job_id_of)
check "bsub -H holds the job in PSUSP" wait_for 5 state_is "$id" PSUSP
bresume "$id" >/dev/null
check "bresume releases it and it runs to DONE" wait_for 15 state_is "$id" DONE
done_testing
