#!/bin/sh
# The job relay (issue 19 items 3 and 5): cluster alpha (the consumer)
# leases host pv1 of cluster beta (the provider, an exclusive HostExport)
# and a job submitted to alpha's queue with HOSTS = allremote runs on
# pv1@beta: its start order goes to beta's mbatchd, which starts it through
# pv1's sbatchd.  On alpha the job shows EXEC_HOST pv1@beta and ends DONE
# with its output; beta keeps one record of the run, never two; bkill on
# alpha reaches the job on pv1; a user beta does not know is refused and
# the job stays pending on alpha with beta's reason.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta || exit 1
mc_add_host beta pv1
cat >"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.resources" <<'R'
Begin HostExport
NAME         = toalpha
PER_HOST     = pv1
SLOTS        = 2
DISTRIBUTION = ([alpha, 1])
End HostExport
R
cat >>"$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME   = leased
PRIORITY     = 40
HOSTS        = allremote
End Queue
Q
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1
start_mc_sbd beta pv1 || exit 1
check "alpha and beta are linked" wait_for 20 link_is alpha beta ok

A() { in_cluster alpha "$@"; }
B() { in_cluster beta "$@"; }
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
leased_ok() {
	A bhosts -w pv1@beta 2>/dev/null | awk '$1 == "pv1@beta" && $2 == "ok" {f=1} END {exit !f}'
}
astate() { A bjobs -a -noheader -o stat "$1" 2>/dev/null | head -n 1 | tr -d ' '; }
astate_is() { [ "$(astate "$1")" = "$2" ]; }
# beta's records of alpha's jobs (named ID@alpha).
brecords() {
	B bjobs -a -u all -noheader -o "id stat name" 2>/dev/null |
		awk -v n="@alpha" 'index($3, n) {print}'
}

check "pv1 appears on alpha as pv1@beta, ok" wait_for 30 leased_ok

mkdir -p "$T/out" && chmod 777 "$T/out"
id1=$(cd "$T/out" && LSF_ENVDIR="$T/mc/alpha/conf" as_nobody \
	bsub -q leased -o "$T/out/%J.out" "echo relayed-\$(id -un)" | job_id_of)
check "alpha took the job" test -n "$id1"
check "the job ends DONE on alpha" wait_for 30 astate_is "$id1" DONE
check "bjobs on alpha shows EXEC_HOST pv1@beta" sh -c '
	LSF_ENVDIR="$1" bjobs -a -noheader -o "exec_host" "$2" | grep -qx "pv1@beta"' \
	sh "$T/mc/alpha/conf" "$id1"
check "bjobs -l on alpha says the job started on pv1@beta" sh -c '
	LSF_ENVDIR="$1" bjobs -l "$2" | sed "s/^ \{21\}//" | tr -d "\n" |
	grep -q "Started on Host(s) <pv1@beta>"' sh "$T/mc/alpha/conf" "$id1"
check "its output names the submitting user" wait_for 10 sh -c '
	sed "/^Sender: LSF System </,\$d" "$1" | grep -qx relayed-nobody' sh "$T/out/$id1.out"
check "beta has one record of the run, DONE" sh -c '
	[ "$(echo "$1" | grep -c .)" = 1 ] && echo "$1" | grep -q " DONE "' \
	sh "$(brecords)"

# bkill on alpha reaches the job on beta's host.
id2=$(cd "$T/out" && LSF_ENVDIR="$T/mc/alpha/conf" as_nobody \
	bsub -q leased -o "$T/out/%J.out" "sleep 300" | job_id_of)
check "a long job runs on pv1@beta" wait_for 30 astate_is "$id2" RUN
rec2() { brecords | awk '$2 == "RUN" {print $1}'; }
check "beta runs it" wait_for 10 test -n "$(rec2)"
LSF_ENVDIR="$T/mc/alpha/conf" as_nobody bkill "$id2" >/dev/null 2>&1
check "bkill on alpha ends it EXIT there" wait_for 30 astate_is "$id2" EXIT
check "and on beta" wait_for 10 sh -c '! LSF_ENVDIR="$1" bjobs -u all -noheader -o stat 2>/dev/null | grep -q RUN' \
	sh "$T/mc/beta/conf"

# A user the provider does not know: refused there, pending here.
uname=bsrelay$$
add_test_user "$uname" /nonexistent || exit 1
# One machine holds both clusters: the user goes away between submission
# (held, -H) and the release.
id3=$(cd "$T/out" && LSF_ENVDIR="$T/mc/alpha/conf" setpriv \
	--reuid="$uname" --regid=nogroup --clear-groups \
	bsub -H -q leased -o "$T/out/%J.out" "true" | job_id_of)
del_test_user "$uname"
A bresume "$id3" >/dev/null 2>&1
pending_why() {
	A bjobs -l "$1" | sed 's/^ \{21\}//' | tr -d '\n' |
		grep -q "The execution host refused to run the job" &&
	A bhist -l "$1" | sed 's/^ \{21\}//' | tr -d '\n' |
		grep -q "User <$uname> has no account in cluster beta"
}
check "a user beta does not know: the job is pending on alpha with beta's reason" \
	wait_for 30 pending_why "$id3"
check "and it never ran" astate_is "$id3" PEND
A bkill "$id3" >/dev/null 2>&1

done_testing
