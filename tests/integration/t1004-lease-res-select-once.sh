#!/bin/sh
# A host is lent by one export policy only (issue 19 item 2): two
# RES_SELECT sections that both match every host of alpha do not lend the
# same host twice.  The first section in the file chooses first, and no
# RES_SELECT section takes a host a PER_HOST section names, wherever that
# section stands.  A section added before them by badmin reconfig does not
# take a host from under a lease that lends it already.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta || exit 1
# Three more hosts of alpha (no sbatchd): alpha-master, -h2, -h3, -h4.
sed -i 's/^End Host$/alpha-h2  !  !  1  ()\nalpha-h3  !  !  1  ()\nalpha-h4  !  !  1  ()\nEnd Host/' \
	"$T/mc/alpha/conf/lsf.cluster.alpha"
printf '127.%s.%s.9 alpha-h2\n127.%s.%s.10 alpha-h3\n127.%s.%s.11 alpha-h4\n' \
	$MC_A $MC_B $MC_A $MC_B $MC_A $MC_B >>"$T/mc/alpha/conf/hosts"
R=$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.resources
cat >"$R" <<'EOF_R'
Begin HostExport
NAME         = ws1
RES_SELECT   = type==any
NHOSTS       = 2
DISTRIBUTION = ([beta, 1])
End HostExport

Begin HostExport
NAME         = ws2
RES_SELECT   = type==any
NHOSTS       = 2
DISTRIBUTION = ([beta, 1])
End HostExport

Begin HostExport
NAME         = one
PER_HOST     = alpha-h4
SLOTS        = 1
DISTRIBUTION = ([beta, 1])
End HostExport
EOF_R
cat >>"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME = remote
PRIORITY   = 30
HOSTS      = allremote
End Queue
Q
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1

# hosts_of POLICY: the hosts alpha's lease of that policy lends, one line.
hosts_of() {
	in_cluster alpha bclusters -l 2>/dev/null | awk -v p="$1" '
		/^LEASE: / { cur = $2 }
		cur == p && $1 == "HOSTS:" { for (i = 2; i <= NF; i++) { sub(/\(.*/, "", $i); printf "%s%s", (i > 2 ? " " : ""), $i } }'
}
hosts_are() { [ "$(hosts_of "$1")" = "$2" ]; }
gen_of() {
	in_cluster alpha bclusters -l 2>/dev/null | awk -v p="$1" '
		/^LEASE: / { cur = $2 } cur == p && $1 == "GENERATION:" { print $2 }'
}
# lent_once: no host is in two of alpha's leases.
lent_once() {
	[ -z "$(in_cluster alpha bclusters -l 2>/dev/null | awk '
		$1 == "HOSTS:" { for (i = 2; i <= NF; i++) { sub(/\(.*/, "", $i); print $i } }' |
		sort | uniq -d)" ]
}

check "the PER_HOST lease is made" wait_for 30 hosts_are one alpha-h4
check "ws1, first in the file, lends the first 2 hosts it matches" \
	wait_for 10 hosts_are ws1 "alpha-master alpha-h2"
check "ws2 lends only the host left: not ws1's, not the PER_HOST one" \
	hosts_are ws2 alpha-h3
check "no host is in two leases" lent_once
check "beta borrows 4 hosts" sh -c '
	[ "$(LSF_ENVDIR="$1" bhosts -w 2>/dev/null | grep -c "@alpha ")" -eq 4 ]' sh "$T/mc/beta/conf"

# A section before the others: every host is lent already, so it lends
# none, and the leases that lend them keep them (same generation).
{
	printf 'Begin HostExport\nNAME = ws0\nRES_SELECT = type==any\nNHOSTS = 1\n'
	printf 'DISTRIBUTION = ([beta, 1])\nEnd HostExport\n\n'
	cat "$R"
} >"$R.new" && mv "$R.new" "$R"
in_cluster alpha badmin reconfig >/dev/null 2>&1
check "ws1 keeps its hosts and generation" sh -c \
	'[ "$1" = "alpha-master alpha-h2" ] && [ "$2" = 1 ]' sh "$(hosts_of ws1)" "$(gen_of ws1)"
check "ws2 keeps its host and generation" sh -c \
	'[ "$1" = "alpha-h3" ] && [ "$2" = 1 ]' sh "$(hosts_of ws2)" "$(gen_of ws2)"
check "ws0 lends nothing" sh -c '
	! LSF_ENVDIR="$1" bclusters -l | grep -q "^LEASE: ws0 "' sh "$T/mc/alpha/conf"

# ws1 goes away: its hosts are free, and ws0, now first, takes one of them.
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/NAME *= *ws1\n/' "$R" >"$R.new" && mv "$R.new" "$R"
in_cluster alpha badmin reconfig >/dev/null 2>&1
check "ws1's lease ends" wait_for 10 sh -c '
	! LSF_ENVDIR="$1" bclusters -l | grep -q "^LEASE: ws1 "' sh "$T/mc/alpha/conf"
check "ws0 lends the first free host" wait_for 10 hosts_are ws0 alpha-master
check "ws2, after ws0 in the file, takes the other one besides its own" \
	wait_for 10 hosts_are ws2 "alpha-h2 alpha-h3"
check "still no host in two leases" lent_once
check "no sanitizer report from any mbatchd" sh -c '
	! cat "$1"/mc/*/log/mbatchd.out | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"' sh "$T"
done_testing
