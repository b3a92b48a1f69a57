#!/bin/sh
# Each side restarted while a job runs on a leased host (issue 19 item 5).
# Consumer: alpha's mbatchd stops, the job ends meanwhile; the restarted
# alpha replays the job RUN and beta reports its end when the link is
# back.  Provider: beta's mbatchd restarts; its record of the run is
# replayed and pv1's sbatchd reattaches it; the end reaches alpha.  Each
# job finishes once, ran once, and beta keeps one record of each.
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1

submit() {   # submit NAME: a job that waits for $T/out/NAME
	(cd "$T/out" && mc_in_alpha mc_nobody bsub -q leased -o "$T/out/$1.out" \
		"echo started; while [ ! -e $T/out/$1 ]; do sleep 0.1; done; echo ended") |
		job_id_of
}
line_in() { grep -qx "$2" "$T/out/$1.out" 2>/dev/null; }
one_done() { [ "$(mc_records "$1" | wc -l)" -eq 1 ] && mc_records "$1" | grep -q " DONE$"; }

# The consumer restarts.
c=$(submit cgo)
check "a job runs on pv1@beta" wait_for 30 mc_state_is alpha "$c" RUN
check "it started" wait_for 30 line_in cgo started
stop_mc_mbd alpha
touch "$T/out/cgo"
check "it ends while alpha is down" wait_for 30 line_in cgo ended
start_mc_mbd alpha || exit 1
check "the link comes back" wait_for 60 link_is alpha beta ok
check "alpha learns the end: DONE" wait_for 30 mc_state_is alpha "$c" DONE
check "beta has one record of it, DONE" one_done "$c"
check "it ran once" test "$(grep -cx started "$T/out/cgo.out")" -eq 1

# The provider restarts.
p=$(submit pgo)
check "another job runs on pv1@beta" wait_for 30 mc_state_is alpha "$p" RUN
check "it started" wait_for 30 line_in pgo started
stop_mc_mbd beta
start_mc_mbd beta || exit 1
check "the link comes back" wait_for 60 link_is alpha beta ok
rec_runs() { mc_records "$p" | grep -q " RUN$"; }
check "beta replayed its record of the run: RUN" wait_for 30 rec_runs
check "alpha still shows it RUN" mc_state_is alpha "$p" RUN
touch "$T/out/pgo"
check "its end reaches alpha: DONE" wait_for 30 mc_state_is alpha "$p" DONE
check "beta has one record of it, DONE" one_done "$p"
check "it ran once" test "$(grep -cx started "$T/out/pgo.out")" -eq 1

done_testing
