#!/bin/sh
# Post-exec (issue 14, item 2).  bsub -Ep runs after the job, as the job's
# user, with LSB_JOBEXIT_STAT (the job's wait status: exit 3 is 768); the
# queue's POST_EXEC runs after the job's.  The job's final state waits for
# the post-exec.  A post-exec that fails does not change the job's end: it
# is reported in bjobs -l and bhist -l.  A post-exec's output goes to the
# job's output file.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
POST_EXEC  = echo "queue \$LSB_JOBEXIT_STAT" >>$T/post.log
End Queue

Begin Queue
QUEUE_NAME = qbad
PRIORITY   = 20
POST_EXEC  = echo post-exec says hello; exit 4
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -Ep "sleep 1; echo \"job \$LSB_JOBEXIT_STAT \$(id -un)\" >>$T/post.log" -o /dev/null 'exit 3' | job_id_of)
check "the job ends EXIT with its own exit code" wait_for 20 state_is "$id" EXIT
check "the post-exec had finished by then (the state waited)" \
	sh -c "[ \$(wc -l <'$T/post.log') -eq 2 ]"
check "the job's post-exec saw LSB_JOBEXIT_STAT=768, ran as the user, first" \
	sh -c "head -n 1 '$T/post.log' | grep -qx 'job 768 $(id -un)'"
check "then the queue's" sh -c "sed -n 2p '$T/post.log' | grep -qx 'queue 768'"
check "bjobs -l shows the post-exec command" \
	sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Post-executeCommand<sleep1;'"
check "bjobs -l: exit code 3" sh -c "bjobs -l $id | tr -d '\n ' | grep -q 'Exitedwithexitcode3'"

id2=$(bsub -q qbad -o "$T/bad.out" 'echo job output' | job_id_of)
check "a failing post-exec leaves the job DONE" wait_for 20 state_is "$id2" DONE
check "bjobs -l reports the post-exec failure" \
	sh -c "bjobs -l $id2 | tr -d '\n ' | grep -q 'Postjobprocessfailed(exitcode4)onhost<vh1>'"
check "bhist -l too" \
	sh -c "bhist -l $id2 | tr -d '\n ' | grep -q 'Postjobprocessfailed(exitcode4)'"
check "the post-exec's output is in the job's output file" grep -qx "post-exec says hello" "$T/bad.out"
diag "$(bjobs -l "$id2")"
done_testing
