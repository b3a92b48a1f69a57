#!/bin/sh
# Each kind of slot limit holds jobs back, and the pending reason names it:
# QJOB_LIMIT, UJOB_LIMIT, HJOB_LIMIT, PJOB_LIMIT (lsb.queues), MXJ and JL/U
# (lsb.hosts), MAX_JOBS (lsb.users).  Each case is applied with
# badmin reconfig on a running cluster.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=3
make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
me=$(id -un)
lsb="$T/conf/lsbatch/basalt/configdir"

queues() {   # queues "KEY = value": the `normal` queue with that limit
	cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
$1
End Queue
Q
}

running() { bjobs -r -noheader -o jobid 2>/dev/null | grep -c .; }
running_is() { [ "$(running)" -eq "$1" ]; }
all_gone() { ! bjobs >/dev/null 2>&1; }

# limit_case "name" expected_running "reason" [jobs]: submit that many
# sleeps (6 by default) and check.
limit_case() {
	badmin reconfig >"$T/reconfig.out" 2>&1 || {
		not_ok "$1: reconfig"; sed 's/^/# /' "$T/reconfig.out"; return
	}
	i=0
	while [ "$i" -lt "${4:-6}" ]; do
		bsub -o /dev/null sleep 300 >/dev/null
		i=$((i + 1))
	done
	check "$1: $2 jobs run" wait_for 10 running_is "$2"
	check "$1: and no more" sh -c "sleep 0.3; [ \$(bjobs -r -noheader -o jobid | grep -c .) -eq $2 ]"
	check "$1: pending reason names the limit" \
		sh -c "bjobs -p -noheader -o pend_reason | grep -q \"$3\""
	bkill 0 >/dev/null 2>&1
	wait_for 20 all_gone
}

queues "QJOB_LIMIT = 3"
limit_case QJOB_LIMIT 3 "The queue has reached its job slot limit"
queues "UJOB_LIMIT = 2"
limit_case UJOB_LIMIT 2 "per-user job slot limit of the queue"
queues "HJOB_LIMIT = 1"
limit_case HJOB_LIMIT 2 "Queue's per-host job slot limit reached: 2 hosts"
queues "PJOB_LIMIT = 0.01"
limit_case PJOB_LIMIT 2 "Queue's per-CPU job slot limit reached: 2 hosts"
queues ""
limit_case MXJ 6 "Job slot limit reached: 2 hosts" 8

cat >"$lsb/lsb.hosts" <<H
Begin Host
HOST_NAME  MXJ  JL/U
default    3    1
End Host
H
limit_case "JL/U" 2 "Host's per-user job slot limit reached: 2 hosts"

cat >"$lsb/lsb.hosts" <<H
Begin Host
HOST_NAME  MXJ  JL/U
default    3    -
End Host
H
cat >"$lsb/lsb.users" <<U
Begin User
USER_NAME  MAX_JOBS
$me        4
End User
U
limit_case MAX_JOBS 4 "The user has reached his/her job slot limit"
done_testing
