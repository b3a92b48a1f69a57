#!/bin/sh
# A link cut with a job running on a leased host (issue 19 item 5): beta's
# mbatchd (the provider) hangs, so alpha sees the link disc.  The job
# keeps running on pv1 and alpha keeps it RUN; it ends during the cut (the
# sbatchd holds its report); once beta runs again and the link is back the
# end is reported to alpha, which records it DONE, once.  The job ran once.
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1

# The job waits for a file, so the test decides when it ends.
id=$(cd "$T/out" && mc_in_alpha mc_nobody bsub -q leased -o "$T/out/%J.out" \
	"echo started; while [ ! -e $T/out/go ]; do sleep 0.1; done; echo ended" | job_id_of)
check "the job runs on pv1@beta" wait_for 30 mc_state_is alpha "$id" RUN
started() { grep -qx started "$T/out/$id.out" 2>/dev/null; }
check "it started" wait_for 30 started

kill -STOP "$(mc_mbd_pid beta)"
check "alpha sees the link to beta disc" wait_for 60 link_is alpha beta disc
check "alpha still shows the job RUN" mc_state_is alpha "$id" RUN
touch "$T/out/go"
ended() { grep -qx ended "$T/out/$id.out" 2>/dev/null; }
check "the job ends during the cut" wait_for 30 ended
check "alpha does not know yet: RUN" mc_state_is alpha "$id" RUN

kill -CONT "$(mc_mbd_pid beta)"
check "the link comes back" wait_for 60 link_is alpha beta ok
check "the end is reported: DONE on alpha" wait_for 30 mc_state_is alpha "$id" DONE
one_done() { [ "$(mc_records "$1" | wc -l)" -eq 1 ] && mc_records "$1" | grep -q " DONE$"; }
check "beta has one record of it, DONE" one_done "$id"
check "it ran once" test "$(grep -cx started "$T/out/$id.out")" -eq 1

done_testing
