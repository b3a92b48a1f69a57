#!/bin/sh
# Pre-exec of a relayed job, as in LSF's lease model: the job of cluster
# alpha runs on pv1@beta, a host alpha leases, and its pre-exec runs there
# before the command; when it fails, beta's record of the run ends, alpha
# (the submission cluster) counts the failure and retries or gives up
# under its own LOCAL_MAX_PREEXEC_RETRY and action, as for its own hosts.
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1
alsb="$T/mc/alpha/conf/lsbatch/alpha/configdir"
sed -i "s/^End Parameters/LOCAL_MAX_PREEXEC_RETRY = 2\n&/" "$alsb/lsb.params"
cat >>"$alsb/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME   = leasedpre
PRIORITY     = 40
HOSTS        = allremote
LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT
End Queue
Q
mc_in_alpha badmin reconfig >/dev/null 2>&1
queue_known() { mc_in_alpha bqueues leasedpre >/dev/null 2>&1; }
check "alpha knows the new queue" wait_for 30 queue_known

# Fails once, then succeeds: the second run on pv1@beta starts the job.
id1=$(cd "$T/out" && mc_in_alpha mc_nobody bsub -q leased -o "$T/out/%J.out" \
	-E "echo x >>$T/out/once.log; [ \$(wc -l <$T/out/once.log) -ge 2 ]" "echo ran" | job_id_of)
check "a job whose pre-exec fails once ends DONE on alpha" wait_for 60 mc_state_is alpha "$id1" DONE
check "its pre-exec ran twice" test "$(wc -l <"$T/out/once.log")" -eq 2
check "the command ran once" test "$(grep -c '^ran$' "$T/out/$id1.out")" -eq 1
check "alpha's bhist -l: requeued by the pre-exec on pv1@beta" sh -c "
	LSF_ENVDIR='$T/mc/alpha/conf' bhist -l $id1 | tr -d '\n ' |
	grep -q \"Requeued:Thejob'spre-execcommandexitedwithnon-zerostatus1onhost<pv1@beta>\""
two_recs() { [ "$(mc_records "$id1" | wc -l)" -eq 2 ]; }
check "beta kept one record per run: two" two_recs
check "the first EXIT, the second DONE" sh -c "
	[ \"\$(LSF_ENVDIR='$T/mc/beta/conf' bjobs -a -u all -noheader -o 'stat name' |
	awk '\$2 == \"$id1@alpha\" {print \$1}' | sort | tr '\n' ' ')\" = 'DONE EXIT ' ]"

# Always fails: alpha's LOCAL_MAX_PREEXEC_RETRY = 2 and its queue's
# action EXIT end the job after two runs.
id2=$(cd "$T/out" && mc_in_alpha mc_nobody bsub -q leasedpre -o /dev/null \
	-E "echo x >>$T/out/always.log; exit 4" "echo ran" | job_id_of)
check "a job whose pre-exec always fails ends EXIT on alpha" wait_for 60 mc_state_is alpha "$id2" EXIT
check "after alpha's LOCAL_MAX_PREEXEC_RETRY = 2 runs" test "$(wc -l <"$T/out/always.log")" -eq 2
check "bjobs -l on alpha gives the reason" sh -c "
	LSF_ENVDIR='$T/mc/alpha/conf' bjobs -l $id2 | tr -d '\n ' |
	grep -q \"non-zerostatus4onhost<pv1@beta>;itfailed2times(LOCAL_MAX_PREEXEC_RETRY=2,LOCAL_MAX_PREEXEC_RETRY_ACTION=EXIT)\""
done_testing
