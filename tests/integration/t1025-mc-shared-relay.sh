#!/bin/sh
# A shared lease between two real clusters, with the job relay (issue 19
# item 4): beta lends pv1 (4 slots, TYPE = shared) to alpha.  The lease
# starts with one slot for alpha; alpha's first job on it makes the lease;
# at the next MC_RECLAIM_DELAY evaluation beta's 3 idle slots go to alpha,
# which has pending work and none idle, so 4 of alpha's jobs run on
# pv1@beta.  A run relayed from alpha is alpha's slot: beta must not count
# it as its own busy slot as well, or only 2 slots move and the lease
# sticks at 3.  Then alpha's jobs end and beta asks: the idle slots go back
# to beta, whose own jobs then run on pv1.
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

in_alpha() { LSF_ENVDIR="$T/mc/alpha/conf" "$@"; }
in_beta() { LSF_ENVDIR="$T/mc/beta/conf" "$@"; }
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# running CLUSTER: how many of its jobs run.
running() {
	LSF_ENVDIR="$T/mc/$1/conf" bjobs -r -u all -noheader -o jobid 2>/dev/null | wc -l
}
running_is() { [ "$(running "$1")" -eq "$2" ]; }
# alpha_slots: the slots of pv1@beta alpha's bhosts shows (MAX).
alpha_slots() {
	in_alpha bhosts -w pv1@beta 2>/dev/null | awk '$1 == "pv1@beta" {print $4}'
}
alpha_slots_are() { [ "$(alpha_slots)" = "$1" ]; }

check "at start alpha has the lease's one slot" wait_for 30 alpha_slots_are 1
for i in 1 2 3 4 5 6; do
	(cd "$T/out" && in_alpha nobody bsub -q leased -o /dev/null sleep 300) >/dev/null
done
check "alpha's first job runs on the one slot (the lease is made)" \
	wait_for 30 running_is alpha 1
check "an evaluation gives alpha all of beta's 3 idle slots" \
	wait_for 30 alpha_slots_are 4
check "4 of alpha's jobs run on pv1@beta" wait_for 30 running_is alpha 4
check "beta runs those 4 for alpha, on pv1" wait_for 10 sh -c \
	"[ \"\$(LSF_ENVDIR='$T/mc/beta/conf' bjobs -r -u all -noheader -o exec_host | grep -c '^pv1\$')\" -eq 4 ]"
check "no more than the lease's 4 run" sh -c "sleep 3; [ \"\$(LSF_ENVDIR='$T/mc/alpha/conf' bjobs -r -u all -noheader -o jobid | wc -l)\" -eq 4 ]"

# Toward the provider: alpha's work ends, beta's own jobs wait for pv1.
in_alpha bkill -u all 0 >/dev/null 2>&1
check "alpha's jobs end" wait_for 30 running_is alpha 0
for i in 1 2 3; do
	in_beta nobody bsub -m pv1 -o /dev/null sleep 300 >/dev/null
done
check "idle slots go back to beta: its 3 jobs run on pv1" \
	wait_for 30 running_is beta 3
check "alpha keeps at most the one slot beta does not need" \
	sh -c "[ \"\$(LSF_ENVDIR='$T/mc/alpha/conf' bhosts -w pv1@beta | awk '\$1 == \"pv1@beta\" {print \$4}')\" -le 1 ]"
in_beta bkill -u all 0 >/dev/null 2>&1
done_testing
