#!/bin/sh
# JOB_CONTROLS actions given as commands (issue 14, item 2).  bstop runs
# the queue's SUSPEND command instead of sending SIGSTOP: it runs as the
# job's user with LSB_JOBPGIDS, LSB_JOBPIDS and LSB_SUSP_REASONS, and what
# it does (here: stop the job's group) is what happens to the job; RESUME
# and TERMINATE likewise.  A queue whose SUSPEND names a signal sends that
# signal instead of SIGSTOP.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME   = normal
PRIORITY     = 30
JOB_CONTROLS = SUSPEND[echo "\$LSB_JOBPGIDS|\$LSB_JOBPIDS|\$(id -un)" >$T/susp.log; kill -STOP -\$LSB_JOBPGIDS] RESUME[echo resumed >>$T/susp.log; kill -CONT -\$LSB_JOBPGIDS] TERMINATE[echo terminated >$T/term.log; kill -KILL -\$LSB_JOBPGIDS]
End Queue

Begin Queue
QUEUE_NAME   = sig
PRIORITY     = 20
JOB_CONTROLS = SUSPEND[SIGUSR1]
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -o /dev/null 'sleep 300 & sleep 300 & wait' | job_id_of)
check "the job has three processes, all sleeping" wait_for 60 procs_in "$id" S
bstop "$id" >/dev/null
check "bstop ran the SUSPEND command" wait_for 60 test -s "$T/susp.log"
pgid=$(bjobs -noheader -o pgid "$id" 2>/dev/null | tr -d ' ')
check "with LSB_JOBPGIDS and LSB_JOBPIDS of the job, as its user" \
	sh -c "IFS='|' read g p u <'$T/susp.log' && [ \"\$u\" = '$(id -un)' ] && [ -n \"\$p\" ] && for x in \$p; do [ \$(awk '{print \$5}' /proc/\$x/stat) = \$g ] || exit 1; done"
check "the command stopped the job's processes" wait_for 60 procs_in "$id" T
check "the job is USUSP" wait_for 60 state_is "$id" USUSP
bresume "$id" >/dev/null
check "bresume ran the RESUME command" wait_for 60 grep -qx resumed "$T/susp.log"
check "the processes run again" wait_for 60 procs_in "$id" S
check "the job is RUN" wait_for 60 state_is "$id" RUN
bkill "$id" >/dev/null
check "bkill ran the TERMINATE command" wait_for 60 grep -qx terminated "$T/term.log"
check "which killed the job: EXIT" wait_for 60 state_is "$id" EXIT
check "by SIGKILL, the command's choice" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Exitedbysignal9\|exitcode137'"

# RUN is reported when the job's process starts, before its shell has
# set the trap: a SIGUSR1 then would end the job.  It says when it is set.
id2=$(bsub -q sig -o "$T/sig.out" 'trap "echo got USR1" USR1; echo trap-set; while :; do sleep 0.2; done' | job_id_of)
check "the second job runs" wait_for 60 state_is "$id2" RUN
check "and has set its trap" wait_for 60 grep -qx trap-set "$T/sig.out"
bstop "$id2" >/dev/null
check "SUSPEND[SIGUSR1] sends SIGUSR1 instead of stopping" wait_for 60 grep -qx "got USR1" "$T/sig.out"
diag "$(bjobs -l "$id" | head -n 8)"
done_testing
