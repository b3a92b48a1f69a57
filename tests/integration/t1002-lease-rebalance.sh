#!/bin/sh
# Shared leases rebalancing on a live provider (issue 19 items 2, 4, 5):
# beta lends two hosts to cluster able by two shared export policies, with
# MC_RECLAIM_DELAY = 2s.  able is bs-fakeconsumer: a consumer linked over
# the real ClusterService (MUNGE, as able's master) whose running and
# pending slots the test sets, as its jobs on the lease would make them.
#  - A lease is made by the consumer's first job, then evaluated every 2s:
#    all idle slots go to the side with fewer (toward the consumer), and
#    with equal idle slots (none either side) nothing moves: a tie.
#  - Two policies move opposite ways at once: lend1 toward the consumer,
#    lend2 toward the provider.
#  - The inactive phase: a moved lease stays inactive, and nothing moves,
#    until the consumer has applied its generation.
#  - A provider believes a Demand only for a lease it lends that consumer.
#  - A restart of the provider keeps each lease's generation and split;
#    the leases are back once the consumer has reported again.
. "$top_srcdir/tests/lib.sh"

FAKE=$top_builddir/tests/tools/bs-fakeconsumer
[ -x "$FAKE" ] || skip_all "tests/tools/bs-fakeconsumer is not built"

make_mc_clusters able beta || exit 1
sed -i 's/^End Host$/beta-h2  !  !  1  ()\nEnd Host/' "$T/mc/beta/conf/lsf.cluster.beta"
echo "127.$MC_A.$MC_B.9 beta-h2" >>"$T/mc/beta/conf/hosts"
cat >"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.resources" <<'R'
Begin HostExport
NAME         = lend1
PER_HOST     = beta-master
SLOTS        = 4
DISTRIBUTION = ([able, 1])
TYPE         = shared
End HostExport

Begin HostExport
NAME         = lend2
PER_HOST     = beta-h2
SLOTS        = 4
DISTRIBUTION = ([able, 1])
TYPE         = shared
End HostExport
R
sed -i 's/^End Parameters$/MC_RECLAIM_DELAY = 2s\nEnd Parameters/' \
	"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.params"
start_mc_mbd beta || exit 1
F=$T/fake
mkdir -p "$F"
start_fake() {
	rm -f "$F/linked"
	"$FAKE" "$(mc_addr beta):$MC_PORT" --name able --cred "$T/munge/able.sock" \
		--dir "$F" >>"$F/out" 2>&1 &
	FAKE_PID=$!
	track "$FAKE_PID"
	wait_for 20 test -s "$F/linked"
}
lease_is() {   # lease_is POLICY FIELD REGEX: beta's bclusters -l says it
	in_cluster beta bclusters -l 2>/dev/null | awk -v p="$1" -v f="$2:" -v re="$3" '
		/^LEASE: / { cur = $2 }
		cur == p && $1 == f { sub(/^ *[A-Z_]*: */, ""); if ($0 ~ re) ok = 1 }
		END { exit !ok }'
}
hist_has() {   # hist_has TEXT: beta's badmin mbdhist has it
	in_cluster beta badmin mbdhist 2>/dev/null | grep -qF "$1"
}

check "the fake consumer links to beta" start_fake
check "it receives lend1 as it starts: 1 slot its, 3 beta's" wait_for 20 \
	grep -q "^lend1 generation=1 status=1 consumer=1 provider=3 made=0" "$F/leases"
check "and lend2" grep -q "^lend2 generation=1 status=1 consumer=1 provider=3 made=0" "$F/leases"

# lend2: the consumer runs jobs on all 4 slots of beta-h2 (it holds one
# now) and has more pending.  Made; at its first evaluation beta has 3
# idle slots, the consumer none: every idle slot to the consumer.
echo "lend2 4 1" >"$F/figures"
check "lend2 moves toward the consumer" wait_for 20 hist_has \
	"Lease <lend2> to cluster <able>: slots moved, provider 0, consumer 4 (idle slots: provider 3, consumer 0); generation 2."
check "the consumer received generation 2" wait_for 10 \
	grep -q "^lend2 generation=2 status=[14] consumer=4 provider=0 made=1" "$F/leases"
check "lend2 is ok again once the consumer applied it" wait_for 10 lease_is lend2 STATUS "^ok$"
# Then neither side has an idle slot: a tie, evaluated but not moved.
check "a tie is evaluated" wait_for 20 lease_is lend2 LAST_EVAL "idle slots: provider 0, consumer 0"
check "and moves nothing" lease_is lend2 GENERATION "^2$"
check "lend1, with no consumer job, is not made" lease_is lend1 STATUS "not made"

# Both policies at once: the consumer runs one job on each.  lend1 is made
# and its idle slots go to the consumer; lend2's 3 idle consumer slots go
# back to beta (the provider has fewer idle slots: none).
printf 'lend1 1 1\nlend2 1 1\n' >"$F/figures"
check "lend1 moves toward the consumer" wait_for 20 hist_has \
	"Lease <lend1> to cluster <able>: slots moved, provider 0, consumer 4 (idle slots: provider 3, consumer 0); generation 2."
check "lend2 moves toward the provider" wait_for 20 hist_has \
	"Lease <lend2> to cluster <able>: slots moved, provider 3, consumer 1 (idle slots: provider 0, consumer 3); generation 3."

# The inactive phase: the consumer stops acknowledging; the next move
# leaves the lease inactive, and it does not move again until the consumer
# applies that generation.
touch "$F/noack"
check "a moved lease stays inactive without the consumer's answer" wait_for 20 \
	lease_is lend1 STATUS "^inactive"
g=$(in_cluster beta bclusters -l | awk '/^LEASE: /{c=$2} c=="lend1" && $1=="GENERATION:"{print $2}')
# Four more reports of the consumer (a second apart: two evaluation
# periods) that still hold the older generation: the lease must not move.
n=$(($(wc -l <"$F/demands") + 8))
check "the consumer keeps reporting the older generation" wait_for 20 \
	sh -c 'test "$(wc -l <"$1")" -ge "$2"' sh "$F/demands" "$n"
check "meanwhile lend1 stays inactive" lease_is lend1 STATUS "^inactive"
check "and its generation does not move" lease_is lend1 GENERATION "^$g\$"
rm -f "$F/noack"
check "applied: ok again" wait_for 20 lease_is lend1 STATUS "^ok"

# A Demand for a lease beta does not lend able is refused.
printf 'other 1 1\n' >"$F/figures"
check "a demand for another lease is refused" wait_for 10 \
	grep -q "^other cluster beta lends no lease other to able" "$F/refused"

# Restart of the provider: the same generation and split come back from
# its journal.  No figures now, so nothing moves before the stop.
: >"$F/figures"
wait_for 10 lease_is lend1 STATUS "^ok"
before=$(in_cluster beta bclusters -l | awk '/^LEASE: /{c=$2} $1=="GENERATION:"||$1=="SLOTS:"{print c, $0}')
stop_mc_mbd beta
wait "$FAKE_PID" 2>/dev/null
start_mc_mbd beta || exit 1
after=$(in_cluster beta bclusters -l | awk '/^LEASE: /{c=$2} $1=="GENERATION:"||$1=="SLOTS:"{print c, $0}')
check "beta's restart keeps both leases' generations and splits" test "$before" = "$after"
n=$(wc -l <"$F/leases")
check "the fake consumer links again" start_fake
# Until the consumer reports over the new link beta knows nothing of its
# running slots and pending jobs (they are not journaled): the lease is
# not back and not evaluated.  A real consumer reports as soon as the
# link is up; this one only when the test writes its figures.
check "beta resends lend1 to the consumer, still disconnected" wait_for 20 sh -c '
	tail -n +$(($2 + 1)) "$1" | grep -q "^lend1 generation=[0-9]* status=3 "' \
	sh "$F/leases" "$n"
check "lend1 stays disconnected before the consumer's report" \
	lease_is lend1 STATUS "^disconnected"
printf 'lend1 0 0\nlend2 0 0\n' >"$F/figures"
check "lend1 is ok again once the consumer reports" wait_for 20 lease_is lend1 STATUS "^ok"
check "the consumer receives the same generation" wait_for 10 sh -c '
	tail -n 4 "$1" | grep -q "^lend1 generation=$2 "' sh "$F/leases" \
	"$(echo "$before" | awk '$1=="lend1" && $2=="GENERATION:"{print $3}')"
check "no sanitizer report from any mbatchd" sh -c '
	! cat "$1"/mc/*/log/mbatchd.out | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"' sh "$T"
done_testing
