#!/bin/sh
# A host whose sbatchd dies is declared unavailable after MAX_SBD_FAIL
# missed heartbeats: bhosts shows it, its plain jobs go UNKWN, and its
# rerunnable jobs (bsub -r) are requeued and run on another host.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

plain=$(bsub -m vh1 -o /dev/null sleep 300 | job_id_of)
rerun=$(bsub -r -m "vh1 vh2" -o /dev/null sleep 300 | job_id_of)
on_host() { bjobs -noheader -o exec_host "$1" 2>/dev/null | grep -q "$2"; }
check "the plain job runs on vh1" wait_for 10 on_host "$plain" vh1
check "the rerunnable job runs on vh1 too" wait_for 10 on_host "$rerun" vh1

kill -KILL "$(sbd_pid vh1)"
unavail() { bhosts vh1 2>/dev/null | grep -q "^vh1 *unavail"; }
check "bhosts shows vh1 unavailable" wait_for 40 unavail
check "the plain job on it is UNKWN" wait_for 10 state_is "$plain" UNKWN
check "the rerunnable job is requeued and runs on vh2" wait_for 15 on_host "$rerun" vh2
check "vh2 is still ok" host_ok vh2
done_testing
