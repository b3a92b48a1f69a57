#!/bin/sh
# A start order whose answer is lost (issue 19 item 5, "nothing is run
# twice"): beta's mbatchd hangs right as alpha places a job on pv1@beta,
# so the RemoteStart waits in beta's socket and alpha's call gets no
# answer; alpha sees the link disc, and so does pv1's sbatchd.  When beta
# runs again it takes the order it had and cannot start it (pv1 has not
# registered again yet); its answer is lost with the link.  Once the link
# is back beta tells alpha that run never started (its record is there,
# ended unstarted), alpha requeues the job and places it again: it runs
# once and ends DONE, and of beta's records of it exactly one ran.  (It
# ended EXIT, "The execution host is unreachable", before.)
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1

kill -STOP "$(mc_mbd_pid beta)"
id=$(cd "$T/out" && mc_in_alpha mc_nobody bsub -q leased -o "$T/out/%J.out" \
	"echo started; while [ ! -e $T/out/go ]; do sleep 0.1; done; echo ended" | job_id_of)
check "alpha places the job on pv1@beta while beta hangs" \
	wait_for 20 mc_state_is alpha "$id" RUN
check "alpha sees the link to beta disc" wait_for 60 link_is alpha beta disc
kill -CONT "$(mc_mbd_pid beta)"
check "the link comes back" wait_for 60 link_is alpha beta ok
started() { grep -qx started "$T/out/$id.out" 2>/dev/null; }
check "the job starts on pv1" wait_for 30 started
touch "$T/out/go"
check "it ends DONE on alpha" wait_for 30 mc_state_is alpha "$id" DONE
check "it ran once" test "$(grep -cx started "$T/out/$id.out")" -eq 1
check "exactly one of beta's records of it ran (DONE)" \
	test "$(mc_records "$id" | grep -c " DONE$")" -eq 1
check "any other record of it never started" \
	test "$(mc_records "$id" | grep -vc " DONE$")" -eq "$(mc_records "$id" | grep -c " EXIT$")"

done_testing
