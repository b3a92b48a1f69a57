#!/bin/sh
# A provider restart under a shared lease with a consumer job running on it
# (issue 19 items 4 and 5): beta lends pv1 (4 slots, TYPE = shared) to
# alpha.  beta's 3 jobs fill its 3 slots, alpha's job makes the lease on
# its one slot, and beta has one more job pending.  beta's mbatchd stops
# for longer than MC_RECLAIM_DELAY, so an evaluation is due the moment it
# is back.  The consumer's figures live only in beta's memory: were the
# lease evaluated before alpha reports again, alpha's running job would
# look like an idle slot, all idle slots would go to beta (it has pending
# work), and beta would start its pending job on the slot alpha's job runs
# on.  Instead alpha's job keeps its slot (pv1 never runs more than 4 jobs),
# ends once and is reported; only then does beta's pending job get the
# slot.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta || exit 1
mc_add_host beta pv1
cat >"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.resources" <<'R'
Begin HostExport
NAME         = share
PER_HOST     = pv1
SLOTS        = 4
DISTRIBUTION = ([alpha, 1])
TYPE         = shared
End HostExport
R
cat >"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.hosts" <<'H'
Begin Host
HOST_NAME  MXJ  JL/U
pv1        4    -
End Host
H
sed -i 's/^End Parameters$/MC_RECLAIM_DELAY = 2s\nEnd Parameters/' \
	"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.params"
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
check "alpha and beta link" wait_for 30 link_is alpha beta ok
mkdir -p "$T/out" && chmod 777 "$T/out"

in_beta() { LSF_ENVDIR="$T/mc/beta/conf" "$@"; }
# on_pv1: the jobs beta runs on pv1, its own and alpha's relayed ones.
on_pv1() {
	in_beta bjobs -r -u all -noheader -o exec_host 2>/dev/null | grep -c '^pv1$'
}
on_pv1_is() { [ "$(on_pv1)" -eq "$1" ]; }
# beta_running: beta's own running jobs (a relayed run is named JOB@alpha).
beta_running() {
	in_beta bjobs -r -u all -noheader -o name 2>/dev/null | grep -vc '@alpha$'
}
beta_running_is() { [ "$(beta_running)" -eq "$1" ]; }
alpha_slots() {
	mc_in_alpha bhosts -w pv1@beta 2>/dev/null | awk '$1 == "pv1@beta" {print $4}'
}
alpha_slots_are() { [ "$(alpha_slots)" = "$1" ]; }
next_eval() {
	in_beta bclusters -l 2>/dev/null | sed -n 's/^ *NEXT_EVAL: *//p'
}
next_eval_not() { e=$(next_eval); [ -n "$e" ] && [ "$e" != "$1" ]; }
line_in() { grep -qx "$2" "$T/out/$1.out" 2>/dev/null; }
one_done() { [ "$(mc_records "$1" | wc -l)" -eq 1 ] && mc_records "$1" | grep -q " DONE$"; }

check "at start alpha has the lease's one slot" wait_for 30 alpha_slots_are 1
# beta's own jobs on its 3 slots first: the lease is not made yet, so no
# evaluation can move slots while they start.
for i in 1 2 3; do
	in_beta mc_nobody bsub -m pv1 -o /dev/null sleep 300 >/dev/null
done
check "beta's 3 jobs run on its 3 slots of pv1" wait_for 30 beta_running_is 3
j=$( (cd "$T/out" && mc_in_alpha mc_nobody bsub -q leased -o "$T/out/held.out" \
	"echo started; while [ ! -e $T/out/held ]; do sleep 0.1; done; echo ended") |
	job_id_of)
check "alpha's job runs on pv1@beta (the lease is made)" \
	wait_for 30 mc_state_is alpha "$j" RUN
check "it started" wait_for 30 line_in held started
in_beta mc_nobody bsub -m pv1 -o /dev/null sleep 300 >/dev/null
check "pv1 runs 4 jobs: beta's 3 and alpha's" wait_for 10 on_pv1_is 4
# 0 idle slots on each side: every evaluation is a tie.
e=$(next_eval)
check "an evaluation is due every MC_RECLAIM_DELAY" wait_for 10 next_eval_not "$e"
check "beta's fourth job pends" beta_running_is 3

# beta's mbatchd stops and stays down past the next evaluation: when it is
# back, an evaluation is overdue (the time has to pass: nothing to wait on).
before=$(next_eval)
stop_mc_mbd beta
sleep 3
start_mc_mbd beta || exit 1
check "the link comes back" wait_for 60 link_is alpha beta ok
check "beta evaluates the lease again" wait_for 30 next_eval_not "$before"
# A second evaluation: anything the first one gave beta has been
# dispatched by now.
e=$(next_eval)
check "and again, MC_RECLAIM_DELAY later" wait_for 10 next_eval_not "$e"
check "pv1 still runs 4 jobs, not 5" on_pv1_is 4
check "beta's fourth job still pends" beta_running_is 3
check "alpha keeps its slot of pv1@beta" alpha_slots_are 1
check "alpha's job still runs" mc_state_is alpha "$j" RUN
check "beta replayed its record of the run: RUN" sh -c \
	"LSF_ENVDIR='$T/mc/beta/conf' bjobs -r -u all -noheader -o name | grep -qx '$j@alpha'"

touch "$T/out/held"
check "its end reaches alpha: DONE" wait_for 30 mc_state_is alpha "$j" DONE
check "beta has one record of it, DONE" one_done "$j"
check "it ran once" test "$(grep -cx started "$T/out/held.out")" -eq 1
check "the freed slot goes to beta's pending job" wait_for 30 beta_running_is 4
check "pv1 runs 4 jobs again" on_pv1_is 4
in_beta bkill -u all 0 >/dev/null 2>&1
done_testing
