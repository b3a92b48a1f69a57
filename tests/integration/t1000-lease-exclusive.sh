#!/bin/sh
# An exclusive lease on a live link (issue 19 items 2, 3, 6): cluster alpha
# exports its host alpha-master (PER_HOST, SLOTS = 4) to beta; beta's
# queue "remote" has HOSTS = allremote.  When the link comes up, alpha
# makes the lease and sends it; beta holds it and shows the host as
# alpha-master@alpha in bhosts with all 4 slots; `bhosts alpha-master@alpha`
# works; bclusters -l shows the lease on both sides with the same
# generation.  A RES_SELECT export lends the first NHOSTS hosts its
# selection matches.  The provider's own bhosts has no remote host.  badmin
# reconfig on the provider restarts a changed lease and ends a removed one.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta || exit 1
# Two more hosts of alpha (no sbatchd) for RES_SELECT exports.
sed -i 's/^End Host$/alpha-h2  !  !  1  ()\nalpha-h3  !  !  1  ()\nEnd Host/' \
	"$T/mc/alpha/conf/lsf.cluster.alpha"
printf '127.%s.%s.9 alpha-h2\n127.%s.%s.10 alpha-h3\n' $MC_A $MC_B $MC_A $MC_B \
	>>"$T/mc/alpha/conf/hosts"
cat >"$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.resources" <<'R'
Begin HostExport
NAME         = lend
PER_HOST     = alpha-master
SLOTS        = 4
DISTRIBUTION = ([beta, 1])
End HostExport

Begin HostExport
NAME         = ws
RES_SELECT   = type==any
NHOSTS       = 1
DISTRIBUTION = ([beta, 1])
End HostExport

Begin HostExport
NAME         = big
RES_SELECT   = maxmem>100000000
NHOSTS       = 1
DISTRIBUTION = ([beta, 1])
End HostExport
R
cat >>"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME = remote
PRIORITY   = 30
HOSTS      = allremote
End Queue
Q
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1
check "alpha sees beta ok" wait_for 20 link_is alpha beta ok

lease_line() {   # lease_line CLUSTER FIELD VALUE-REGEX: bclusters -l says it
	in_cluster "$1" bclusters -l 2>/dev/null | grep -q "^ *$2: *$3"
}
check "beta shows alpha-master@alpha" wait_for 20 sh -c '
	LSF_ENVDIR="$1" bhosts 2>/dev/null | grep -q "^alpha-master@alpha  *ok  *-  *4 "' \
	sh "$T/mc/beta/conf"
in_cluster beta bhosts alpha-master@alpha >"$T/bh.out" 2>&1
check "bhosts alpha-master@alpha names it" grep -q "^alpha-master@alpha  *ok " "$T/bh.out"
check "RES_SELECT lends the first host it selects that PER_HOST does not" sh -c '
	LSF_ENVDIR="$1" bhosts 2>/dev/null | grep -q "^alpha-h2@alpha  *ok  *-  *1 "' \
	sh "$T/mc/beta/conf"
check "and only NHOSTS of them" sh -c '
	! LSF_ENVDIR="$1" bhosts 2>/dev/null | grep -q "^alpha-h3@alpha"' sh "$T/mc/beta/conf"
check "a RES_SELECT no host matches lends nothing" sh -c '
	! LSF_ENVDIR="$1" bclusters -l | grep -q "^LEASE: big"' sh "$T/mc/alpha/conf"
check "(its selection was read)" sh -c '! grep -q "RES_SELECT cannot be read" "$1"' \
	sh "$T/mc/alpha/log/mbatchd.out"
check "bhosts -l names the provider and the lease" sh -c '
	LSF_ENVDIR="$1" bhosts -l alpha-master@alpha | grep -q "^LEASED FROM CLUSTER alpha, LEASE lend$"' \
	sh "$T/mc/beta/conf"
check "bhosts of an unknown remote host is refused" sh -c '
	! LSF_ENVDIR="$1" bhosts nosuch@alpha >/dev/null 2>&1' sh "$T/mc/beta/conf"
in_cluster alpha bclusters -l >"$T/a.out" 2>&1
in_cluster beta bclusters -l >"$T/b.out" 2>&1
check "alpha's bclusters -l shows the lease ok" sh -c 'grep -q "lend" "$1" && grep -qi "ok" "$1"' sh "$T/a.out"
check "beta's bclusters -l shows the lease" grep -q "lend" "$T/b.out"
check "both sides name generation 1" sh -c '
	grep -q "GENERATION: *1$" "$1" && grep -q "GENERATION: *1$" "$2"' sh "$T/a.out" "$T/b.out"
check "alpha's own bhosts has no remote host" sh -c '
	! LSF_ENVDIR="$1" bhosts 2>/dev/null | grep -q "@"' sh "$T/mc/alpha/conf"
check "alpha's mbatchd logged the lease made" grep -q "lease lend to cluster beta made" \
	"$T/mc/alpha/log/mbatchd.out"

# badmin reconfig on the provider: a policy whose hosts changed starts
# again with the next generation; a policy that is gone ends on both sides.
sed -i 's/^SLOTS        = 4$/SLOTS        = 2/' "$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.resources"
in_cluster alpha badmin reconfig >/dev/null 2>&1
check "after reconfig beta shows the host with 2 slots" wait_for 20 sh -c '
	LSF_ENVDIR="$1" bhosts alpha-master@alpha 2>/dev/null | grep -q "^alpha-master@alpha  *ok  *-  *2 "' \
	sh "$T/mc/beta/conf"
check "as generation 2 on both sides" sh -c '
	LSF_ENVDIR="$1" bclusters -l | grep -q "GENERATION: *2$" &&
	LSF_ENVDIR="$2" bclusters -l | grep -q "GENERATION: *2$"' sh "$T/mc/alpha/conf" "$T/mc/beta/conf"
: >"$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.resources"
in_cluster alpha badmin reconfig >/dev/null 2>&1
check "the export removed, beta has no remote host" wait_for 20 sh -c '
	! LSF_ENVDIR="$1" bhosts 2>/dev/null | grep -q "@"' sh "$T/mc/beta/conf"
check "and neither side holds a lease" sh -c '
	LSF_ENVDIR="$1" bclusters -l | grep -q "^LEASES: none" &&
	LSF_ENVDIR="$2" bclusters -l | grep -q "^LEASES: none"' sh "$T/mc/alpha/conf" "$T/mc/beta/conf"
check "mbdhist shows the end" sh -c '
	LSF_ENVDIR="$1" badmin mbdhist | grep -q "Lease <lend> to cluster <beta> ended"' sh "$T/mc/beta/conf"
check "no sanitizer report from any mbatchd" sh -c '
	! cat "$1"/mc/*/log/mbatchd.out | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"' sh "$T"
done_testing
