#!/bin/sh
# bench/loadgen against a real mbatchd: 50 emulated execution hosts register
# and are ok in bhosts, jobs submitted by its client mode are dispatched to
# them and reach DONE (and EXIT with the chosen code); bkill of a running job
# is answered as sbatchd answers it.  The master runs unchanged: this is the
# check that it cannot tell the emulation from sbatchd.
. "$top_srcdir/tests/lib.sh"

LOADGEN=$top_builddir/bench/loadgen
[ -x "$LOADGEN" ] || skip_all "bench/loadgen is not built"

make_cluster
# The Host section for lg01..lg50, as the figure scripts write it.
{
	echo "Begin ClusterAdmins"
	echo "Administrators = root $(id -un)"
	echo "End ClusterAdmins"
	"$LOADGEN" -H 50 -p lg --print-hosts
} >"$T/conf/lsf.cluster.basalt"
# With MUNGE each emulated host proves its name: all live at 127.0.0.1.
hosts_at_loopback
check "--print-hosts lists 50 hosts" sh -c "grep -c '^lg[0-9][0-9]  ' '$T/conf/lsf.cluster.basalt' | grep -qx 50"
start_mbd || exit 1

"$LOADGEN" -H 50 -p lg -t 0.2 >"$T/log/loadgen.hosts.out" 2>&1 &
LG_PID=$!
track "$LG_PID"
all_ok() { [ "$(bhosts 2>/dev/null | awk '$2 == "ok"' | wc -l)" -eq 50 ]; }
check "all 50 emulated hosts are ok in bhosts" wait_for 20 all_ok

check "the client mode submits 20 jobs and reports them" \
	sh -c "'$LOADGEN' -c 4 -n 20 -- -o /dev/null true >'$T/sub.out' && grep -q '^submitted: 20 jobs, 0 refused' '$T/sub.out'"
ndone() { [ "$(bjobs -u all -a -noheader -o stat 2>/dev/null | grep -c DONE)" -eq "$1" ]; }
check "the 20 jobs are dispatched to the emulated hosts and reach DONE" wait_for 30 ndone 20
check "they ran on emulated hosts" sh -c "bjobs -u all -a -noheader -o exec_host | grep -v '^lg[0-9][0-9]' | grep -q . && exit 1 || exit 0"

# The same hosts again, with jobs long enough to kill, then failing ones.
kill -TERM "$LG_PID"
wait "$LG_PID" 2>/dev/null
check "loadgen stops on SIGTERM with a summary" grep -q '^hosts: ' "$T/log/loadgen.hosts.out"
"$LOADGEN" -H 50 -p lg -t 30 -x 3 >"$T/log/loadgen.hosts2.out" 2>&1 &
LG_PID=$!
track "$LG_PID"
check "the hosts register again" wait_for 20 all_ok
id=$(bsub -o /dev/null 'sleep 30' | job_id_of)
check "a job starts on an emulated host" wait_for 15 state_is "$id" RUN
check "bkill is answered and the job ends EXIT" sh -c "bkill $id >/dev/null && exit 0"
check "the killed job is EXIT" wait_for 15 state_is "$id" EXIT
kill -TERM "$LG_PID"
wait "$LG_PID" 2>/dev/null
"$LOADGEN" -H 50 -p lg -t 0 -x 3 >"$T/log/loadgen.hosts3.out" 2>&1 &
LG_PID=$!
track "$LG_PID"
check "the hosts register a third time" wait_for 20 all_ok
id=$(bsub -o /dev/null 'exit 3' | job_id_of)
check "a job whose host reports exit code 3 is EXIT" wait_for 15 state_is "$id" EXIT
check "with exit code 3" sh -c "bjobs -a -noheader -o exit_code $id | grep -qw 3"
done_testing
