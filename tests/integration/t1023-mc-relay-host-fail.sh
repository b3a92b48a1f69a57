#!/bin/sh
# The provider's host fails under a rerunnable job of the consumer (issue
# 19 item 5): pv1's sbatchd dies, beta declares pv1 unavailable and
# requeues its record of the run; alpha is told the run is lost and
# requeues the job (bsub -r).  While pv1 is down beta refuses to start it
# again and the job waits on alpha; once pv1's sbatchd is back (same
# state directory, so it still knows the old run) beta has it kill the old
# run, and alpha's job runs again there and ends DONE.  Never two runs at
# once; beta's record of the lost run ends EXIT.  The second run is beta's
# job 3, yet its -o %J.out is alpha's job id: the user's patterns name the
# user's job.
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1

id=$(cd "$T/out" && mc_in_alpha mc_nobody bsub -r -q leased -o "$T/out/%J.out" \
	"echo started; while [ ! -e $T/out/go ]; do sleep 0.1; done; echo ended" | job_id_of)
check "the job runs on pv1@beta" wait_for 30 mc_state_is alpha "$id" RUN
started() { [ "$(grep -cx started "$T/out/$id.out" 2>/dev/null)" -ge "$1" ]; }
check "it started" wait_for 30 started 1
rec1=$(mc_records "$id" | awk '{print $1}')
beta_pids() { LSF_ENVDIR="$T/mc/beta/conf" job_pids "$1"; }

kill -KILL "$(sbd_pid pv1)"
wait "$(sbd_pid pv1)" 2>/dev/null
unavail() { mc_in_beta bhosts pv1 2>/dev/null | grep -q "^pv1 *unavail"; }
check "beta declares pv1 unavailable" wait_for 60 unavail
rec_is() { mc_records "$id" | grep -q "^$1 $2$"; }
check "beta's record of the run ends EXIT (lost)" wait_for 30 rec_is "$rec1" EXIT
pending() { mc_state_is alpha "$id" PEND; }
check "alpha requeued the job and it waits" wait_for 30 pending
check "the first run was still there on pv1 (its sbatchd died, not it)" \
	test -n "$(beta_pids "$rec1")"

start_mc_sbd beta pv1 || exit 1
gone() { [ -z "$(beta_pids "$rec1")" ]; }
check "the old run is killed once pv1 is back" wait_for 30 gone
check "the job runs again on pv1@beta" wait_for 60 mc_state_is alpha "$id" RUN
runs=$(mc_records "$id" | awk '$2 == "RUN"' | wc -l)
check "beta runs exactly one record of it" test "$runs" -eq 1
touch "$T/out/go"
check "it ends DONE on alpha" wait_for 30 mc_state_is alpha "$id" DONE
check "the second run wrote its end" grep -qx ended "$T/out/$id.out"
lost_told() {
	mc_in_alpha bhist -l "$id" | unwrapped | grep -q "Requeued: The run was lost on the provider cluster"
}
check "bhist on alpha says the run was lost" lost_told

done_testing
