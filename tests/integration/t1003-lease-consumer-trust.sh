#!/bin/sh
# What a consumer believes of a provider (issue 19, security): beta
# imports from able (a queue with HOSTS = all@able); able is played by
# bs-fakeconsumer, linked as able's master over the real ClusterService,
# sending LeaseStates.  beta takes a lease only from the link of its
# provider, for itself, within its bounds; a leased host is always
# qualified (a lease of a host named like beta's own shows as
# beta-master@able, beta's own host unchanged); the same lease twice is
# journaled once; and one provider holds at most 256 leases here.
. "$top_srcdir/tests/lib.sh"

FAKE=$top_builddir/tests/tools/bs-fakeconsumer
[ -x "$FAKE" ] || skip_all "tests/tools/bs-fakeconsumer is not built"

make_mc_clusters able beta || exit 1
cat >>"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME = fromable
PRIORITY   = 30
HOSTS      = all@able
End Queue
Q
start_mc_mbd beta || exit 1
F=$T/fake
mkdir -p "$F"
"$FAKE" "$(mc_addr beta):$MC_PORT" --name able --cred "$T/munge/able.sock" --dir "$F" \
	>>"$F/out" 2>&1 &
track "$!"
check "able links to beta" wait_for 20 test -s "$F/linked"

send() {   # send LINE...: LeaseStates for the fake to send, then wait for its answers
	: >"$F/replies"
	printf '%s\n' "$@" >"$F/send"
	n=$#
	wait_for 20 sh -c 'test "$(wc -l <"$1")" -ge "$2"' sh "$F/replies" "$n"
}
replied() {   # replied POLICY TEXT
	grep -q "^$1 $2" "$F/replies"
}

send "p1 able beta beta-master:2:2 1" \
	"p2 cc beta h9:1:1 1" \
	"p3 able other h9:1:1 1" \
	"p4 able beta bad@name:1:1 1" \
	"p5 able beta h5:9:4 1"
check "a good lease is taken" replied p1 "ok generation=1"
check "a lease naming another provider is refused" \
	replied p2 "refused: cluster able may speak only for itself"
check "a lease for another consumer is refused" replied p3 "refused: the lease names \"other\""
check "a host name with @ is refused" replied p4 "refused: bad host name"
check "more slots than exported are refused" replied p5 "refused: lease p5 to beta: host entry 0"
in_cluster beta bhosts >"$T/bh.out" 2>&1
check "the leased host is qualified: beta-master@able" \
	grep -q "^beta-master@able  *ok  *-  *2 " "$T/bh.out"
check "beta's own beta-master is still its own row" grep -q "^beta-master  *unavail " "$T/bh.out"
check "no refused lease became a host" sh -c '! grep -q "^h9\|^h5\|^bad" "$1"' sh "$T/bh.out"
check "bhosts beta-master@able shows it alone" sh -c '
	LSF_ENVDIR="$1" bhosts beta-master@able | grep -c "@able" | grep -qx 1' sh "$T/mc/beta/conf"

# The same state again changes nothing: journaled once.
send "p1 able beta beta-master:2:2 1"
check "the same lease again is answered" replied p1 "ok generation=1"
check "and journaled once" sh -c '
	test "$(LSF_ENVDIR="$1" badmin mbdhist | grep -c "Lease <p1> of cluster <able>")" -eq 1' \
	sh "$T/mc/beta/conf"

# At most 256 leases of one provider: 260 more, the last five refused.
i=0
set --
while [ $i -lt 260 ]; do
	i=$((i + 1))
	set -- "$@" "q$i able beta w$i:1:1 1"
done
send "$@"
check "255 more leases are taken" test "$(grep -c " ok generation=1" "$F/replies")" -eq 255
check "the rest are refused" test "$(grep -c "refused: cluster able already lends 256 leases" \
	"$F/replies")" -eq 5
check "beta still answers" sh -c 'LSF_ENVDIR="$1" bclusters >/dev/null' sh "$T/mc/beta/conf"
check "no sanitizer report from any mbatchd" sh -c '
	! cat "$1"/mc/*/log/mbatchd.out | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"' sh "$T"
done_testing
