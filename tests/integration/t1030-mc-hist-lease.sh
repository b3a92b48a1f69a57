#!/bin/sh
# bhist -l shows the lease changes of a job's leased host (issue 19): a
# job runs on pv1@beta; beta's mbatchd hangs, so alpha marks the lease
# disconnected; beta runs again and the lease is ok again; then the job
# ends.  alpha's bhist -l of the job shows the disconnect and the return,
# in that order, between its start and its end; plain bhist counts
# nothing new (its columns stay LSF's).
. "$top_srcdir/tests/lib.sh"

make_mc_relay || exit 1

id=$(cd "$T/out" && mc_in_alpha mc_nobody bsub -q leased -o "$T/out/%J.out" \
	"echo started; while [ ! -e $T/out/go ]; do sleep 0.1; done; echo ended" | job_id_of)
check "the job runs on pv1@beta" wait_for 30 mc_state_is alpha "$id" RUN
started() { grep -qx started "$T/out/$id.out" 2>/dev/null; }
check "it started" wait_for 30 started

ahist() { mc_in_alpha bhist "$@"; }
# The long form, joined back into one line (its lines are cut anywhere).
long() { ahist -l "$id" | unwrapped; }
no_lease_line() { ! long | grep -qF "The lease <"; }
check "no lease line while the lease stays ok" no_lease_line

DISC="The lease <toalpha> from cluster <beta> is disconnected; the job's status is not known until the cluster returns;"
BACK="The lease <toalpha> from cluster <beta> is connected again: ok;"
shows() { long | grep -qF -- "$1"; }

kill -STOP "$(mc_mbd_pid beta)"
check "alpha sees the link to beta disc" wait_for 60 link_is alpha beta disc
check "bhist -l shows the lease disconnected" wait_for 30 shows "$DISC"
kill -CONT "$(mc_mbd_pid beta)"
check "the link comes back" wait_for 60 link_is alpha beta ok
check "bhist -l shows the lease back" wait_for 30 shows "$BACK"

touch "$T/out/go"
check "the job ends: DONE on alpha" wait_for 60 mc_state_is alpha "$id" DONE

out=$(long)
echo "$out" | sed 's/^/# /'
at() { printf '%s' "$out" | grep -boF -- "$1" | head -n 1 | cut -d: -f1; }
p_start=$(at "Dispatched")
p_disc=$(at "$DISC")
p_back=$(at "$BACK")
p_done=$(at "Done successfully")
in_order() {
	[ -n "$p_start" ] && [ -n "$p_disc" ] && [ -n "$p_back" ] && [ -n "$p_done" ] &&
		[ "$p_start" -lt "$p_disc" ] && [ "$p_disc" -lt "$p_back" ] &&
		[ "$p_back" -lt "$p_done" ]
}
check "start, disconnect, return, end: in that order" in_order
once() { [ "$(printf '%s' "$out" | grep -oF -- "$1" | wc -l)" -eq 1 ]; }
check "the disconnect is shown once" once "$DISC"
check "the return is shown once" once "$BACK"

# The summary keeps LSF's columns: the job's row is its own, one row.
summary_row() {
	ahist -a -u all | awk -v id="$id" '
		NR == 1 { ok = ($1 == "Summary") }
		$1 == id { n++; cols = NF }
		END { exit !(n == 1) }'
}
check "plain bhist shows the job in one row" summary_row

done_testing
