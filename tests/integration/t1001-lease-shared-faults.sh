#!/bin/sh
# A shared lease on a live link, its faults and restarts (issue 19 items
# 2-5): alpha exports alpha-master (SLOTS = 4, TYPE = shared) to beta, whose
# queue "remote" has HOSTS = all@alpha.  The lease starts with all slots
# but one on alpha's side: beta's bhosts shows alpha-master@alpha with MAX 1,
# both bclusters -l show provider 3, consumer 1, not made.  When beta's
# mbatchd stops, alpha marks the lease disconnected (journaled); when it
# is back, ok again.  A restart of either side keeps the lease: the same
# generation and split, and the consumer shows the host closed while it
# has no link.  A third cluster, gamma, that imports nothing refuses the
# lease alpha offers it.  badmin mbdhist shows the lease's changes.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta gamma || exit 1
# A second host of alpha for gamma's export (a shared host goes to one
# consumer only); it runs no sbatchd.
sed -i 's/^End Host$/alpha-h2  !  !  1  ()\nEnd Host/' "$T/mc/alpha/conf/lsf.cluster.alpha"
echo "127.$MC_A.$MC_B.9 alpha-h2" >>"$T/mc/alpha/conf/hosts"
cat >"$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.resources" <<'R'
Begin HostExport
NAME         = lend
PER_HOST     = alpha-master
SLOTS        = 4
DISTRIBUTION = ([beta, 1])
TYPE         = shared
End HostExport

Begin HostExport
NAME         = stray
PER_HOST     = alpha-h2
SLOTS        = 2
DISTRIBUTION = ([gamma, 1])
End HostExport
R
sed -i 's/^End Parameters$/MC_RECLAIM_DELAY = 2s\nEnd Parameters/' \
	"$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.params"
cat >>"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME = remote
PRIORITY   = 30
HOSTS      = all@alpha
End Queue
Q
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1
start_mc_mbd gamma || exit 1

# lease_is CLUSTER POLICY FIELD REGEX: the lease's FIELD line in bclusters -l.
lease_is() {
	in_cluster "$1" bclusters -l 2>/dev/null | awk -v p="$2" -v f="$3:" -v re="$4" '
		/^LEASE: / { cur = $2 }
		cur == p && $1 == f { sub(/^ *[A-Z_]*: */, ""); if ($0 ~ re) ok = 1 }
		END { exit !ok }'
}
remote_row() {   # remote_row STATUS MAX: beta's bhosts row of alpha-master@alpha
	in_cluster beta bhosts alpha-master@alpha 2>/dev/null |
		grep -q "^alpha-master@alpha  *$1  *-  *$2 "
}

check "beta shows alpha-master@alpha ok with one slot" wait_for 20 remote_row ok 1
check "alpha: provider 3, consumer 1" lease_is alpha lend SLOTS "provider 3, consumer 1"
check "alpha: not made yet" lease_is alpha lend STATUS "^ok \(not made"
check "beta holds the same split" lease_is beta lend SLOTS "provider 3, consumer 1"
check "beta: generation 1" lease_is beta lend GENERATION "^1$"

# gamma imports nothing: it refuses the lease and holds none.
check "gamma refuses alpha's lease" wait_for 20 grep -q \
	"lease from cluster alpha refused: cluster gamma imports no hosts from alpha" \
	"$T/mc/gamma/log/mbatchd.out"
check "gamma holds no lease" sh -c '
	LSF_ENVDIR="$1" bclusters -l | grep -q "^LEASES: none"' sh "$T/mc/gamma/conf"
check "gamma's bhosts has no remote host" sh -c '
	! LSF_ENVDIR="$1" bhosts 2>/dev/null | grep -q "@"' sh "$T/mc/gamma/conf"

# The consumer goes away and comes back.
stop_mc_mbd beta
check "alpha marks the lease disconnected" wait_for 20 lease_is alpha lend STATUS "^disconnected"
start_mc_mbd beta || exit 1
check "beta, restarted, has the lease from its journal" lease_is beta lend GENERATION "^1$"
check "with its split" lease_is beta lend SLOTS "provider 3, consumer 1"
check "alpha: ok again once beta is back" wait_for 30 lease_is alpha lend STATUS "^ok"
check "beta: ok again, the host usable" wait_for 30 remote_row ok 1
check "alpha: the split did not move" lease_is alpha lend SLOTS "provider 3, consumer 1"

# The provider goes away: the consumer marks its lease disconnected and
# closes the host; alpha restarted has the same lease.
stop_mc_mbd alpha
check "beta marks the lease disconnected" wait_for 20 lease_is beta lend STATUS "^disconnected"
check "beta shows the host closed" wait_for 10 remote_row closed 1
start_mc_mbd alpha || exit 1
check "alpha, restarted, keeps generation 1" lease_is alpha lend GENERATION "^1$"
check "and the split" lease_is alpha lend SLOTS "provider 3, consumer 1"
check "beta: ok again after alpha's restart" wait_for 30 lease_is beta lend STATUS "^ok"
check "beta's host is usable again" wait_for 30 remote_row ok 1
check "alpha made the lease once only" test "$(grep -c "lease lend to cluster beta made" \
	"$T/mc/alpha/log/mbatchd.out")" -eq 1
in_cluster alpha badmin mbdhist >"$T/h.out" 2>&1
check "alpha's mbdhist shows the lease made" grep -q \
	"Lease <lend> of cluster <alpha> to cluster <beta> (shared): provider 3 slots, consumer 1; generation 1" "$T/h.out"
check "then disconnected and ok again" sh -c '
	grep -o "Lease <lend> to cluster <beta> is [a-z]*" "$1" | tr "\n" , |
	grep -q "is disconnected,Lease <lend> to cluster <beta> is ok"' sh "$T/h.out"
check "no sanitizer report from any mbatchd" sh -c '
	! cat "$1"/mc/*/log/mbatchd.out | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"' sh "$T"
done_testing
