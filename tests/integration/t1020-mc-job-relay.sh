#!/bin/sh
# The job relay (issue 19 items 3 and 5): cluster alpha (the consumer)
# leases host pv1 of cluster beta (the provider, an exclusive HostExport)
# and a job submitted to alpha's queue with HOSTS = allremote runs on
# pv1@beta: its start order goes to beta's mbatchd, which starts it through
# pv1's sbatchd.  On alpha the job shows EXEC_HOST pv1@beta and ends DONE
# with its output; beta keeps one record of the run, never two; bstop,
# bresume and bkill on alpha reach the job on pv1; a user beta does not
# know is refused there and the job stays pending on alpha with beta's
# reason.
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1
leased_ok() {
	mc_in_alpha bhosts pv1@beta 2>/dev/null | grep -q "^pv1@beta  *ok "
}
check "pv1 appears on alpha as pv1@beta, ok" wait_for 30 leased_ok

id1=$(cd "$T/out" && mc_in_alpha mc_nobody \
	bsub -q leased -o "$T/out/%J.out" "echo relayed-\$(id -un)" | job_id_of)
check "alpha took the job" test -n "$id1"
check "the job ends DONE on alpha" wait_for 30 mc_state_is alpha "$id1" DONE
check "bjobs on alpha shows EXEC_HOST pv1@beta" sh -c '
	LSF_ENVDIR="$1" bjobs -a -noheader -o "exec_host" "$2" | grep -qx "pv1@beta"' \
	sh "$T/mc/alpha/conf" "$id1"
check "bjobs -l on alpha says the job started on pv1@beta" sh -c '
	LSF_ENVDIR="$1" bjobs -l "$2" | sed "s/^ \{21\}//" | tr -d "\n" |
	grep -q "Started on Host(s) <pv1@beta>"' sh "$T/mc/alpha/conf" "$id1"
check "its output is the job's, run as the submitting user" wait_for 10 sh -c '
	sed "/^Sender: LSF System </,\$d" "$1" | grep -qx relayed-nobody' sh "$T/out/$id1.out"
one_done() { [ "$(mc_records "$1" | wc -l)" -eq 1 ] && mc_records "$1" | grep -q " DONE$"; }
check "beta has one record of the run, DONE" one_done "$id1"

# The consumer's queue limits the run on the provider's host: a file over
# alpha's FILELIMIT cannot be written there (beta's queues have none).
big() {
	(cd "$T/out" && mc_in_alpha mc_nobody bsub -q "$1" -o "$T/out/%J.out" \
		"dd if=/dev/zero of=$T/out/big.$1 bs=1024 count=64 2>/dev/null") | job_id_of
}
idl=$(big leasedsmall)
check "a job of alpha's queue with FILELIMIT ends EXIT" wait_for 30 mc_state_is alpha "$idl" EXIT
check "its file stopped at the limit" test "$(stat -c %s "$T/out/big.leasedsmall")" -le 8192
idb=$(big leased)
check "the same job of a queue without it ends DONE" wait_for 30 mc_state_is alpha "$idb" DONE

# bkill on alpha reaches the job on beta's host.
id2=$(cd "$T/out" && mc_in_alpha mc_nobody \
	bsub -q leased -o "$T/out/%J.out" "sleep 300" | job_id_of)
check "a long job runs on pv1@beta" wait_for 30 mc_state_is alpha "$id2" RUN
rec_runs() { mc_records "$id2" | grep -q " RUN$"; }
check "beta runs it" wait_for 10 rec_runs
rec2=$(mc_records "$id2" | awk '{print $1}')
beta_pids() { LSF_ENVDIR="$T/mc/beta/conf" job_pids "$1"; }
check "its processes run on pv1 as beta's job $rec2" test -n "$(beta_pids "$rec2")"
# bstop and bresume on alpha reach it too.
stopped() {   # stopped STATE: every process of beta's record is in STATE
	n=0
	for pid in $(beta_pids "$rec2"); do
		[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = "$1" ] || return 1
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
}
rec_is() { mc_records "$id2" | grep -q " $1$"; }
mc_in_alpha mc_nobody bstop "$id2" >/dev/null 2>&1
check "bstop on alpha: USUSP there" wait_for 10 mc_state_is alpha "$id2" USUSP
check "beta's record is USUSP" wait_for 10 rec_is USUSP
check "its processes on pv1 are stopped" wait_for 10 stopped T
mc_in_alpha mc_nobody bresume "$id2" >/dev/null 2>&1
check "bresume on alpha: RUN there" wait_for 30 mc_state_is alpha "$id2" RUN
check "beta's record is RUN" wait_for 10 rec_is RUN
check "its processes on pv1 run again" wait_for 10 stopped S
mc_in_alpha mc_nobody bkill "$id2" >/dev/null 2>&1
check "bkill on alpha ends it EXIT there" wait_for 30 mc_state_is alpha "$id2" EXIT
rec_exit() { mc_records "$id2" | grep -q " EXIT$"; }
check "and its record on beta" wait_for 10 rec_exit
gone() { [ -z "$(beta_pids "$rec2")" ]; }
check "its processes are gone" wait_for 30 gone

# A user the provider does not know: refused there, pending here.  One
# machine holds both clusters: the user goes away between the submission
# (held, -H) and the release.
uname=bsrelay$$
add_test_user "$uname" /nonexistent || exit 1
id3=$(cd "$T/out" && mc_in_alpha setpriv --reuid="$uname" --regid=nogroup \
	--clear-groups bsub -H -q leased -o "$T/out/%J.out" "true" | job_id_of)
del_test_user "$uname"
mc_in_alpha bresume "$id3" >/dev/null 2>&1
pending_why() {
	mc_in_alpha bjobs -l "$1" | unwrapped |
		grep -q "The execution host refused to run the job" &&
	mc_in_alpha bhist -l "$1" | unwrapped |
		grep -q "User <$uname> has no account in cluster beta"
}
check "a user beta does not know: pending on alpha with beta's reason" \
	wait_for 30 pending_why "$id3"
check "and it never ran" mc_state_is alpha "$id3" PEND
check "beta made no record of it" test -z "$(mc_records "$id3")"
mc_in_alpha bkill "$id3" >/dev/null 2>&1

done_testing
