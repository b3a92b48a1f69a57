#!/bin/sh
# Two clusters that know each other (issue 19, item 1): each mbatchd links
# to the other over ClusterService, MUNGE-authenticated both ways, and
# bclusters -l on both sides shows the other ok with its master.  When the
# mbatchd of either cluster is killed (by PID) the other shows disc, and
# the link comes back ok by itself once it is started again: the dialer
# (the lower name, alpha) re-dials, the acceptor (beta) waits to be dialed.
# badmin mbdhist shows each link coming up and going down.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta || exit 1
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1

check "alpha sees beta ok" wait_for 20 link_is alpha beta ok
check "beta sees alpha ok" wait_for 20 link_is beta alpha ok
in_cluster alpha bclusters -l >"$T/l.out" 2>&1
check "alpha dials beta at its address and port" \
	grep -q "LINK: *dialed by this cluster at $(mc_addr beta):$MC_PORT" "$T/l.out"
check "beta's master is named" grep -q "MASTER: *$(hostname)" "$T/l.out"
in_cluster beta bclusters -l >"$T/l.out" 2>&1
check "beta is dialed by alpha" grep -q "LINK: *dialed by that cluster from 127\." "$T/l.out"
in_cluster beta bclusters >"$T/b.out" 2>&1
check "bclusters prints LSF's two sections" sh -c '
	grep -q "^\[Job Forwarding Information \]" "$1" &&
	grep -q "^\[Resource Lease Information \]" "$1"' sh "$T/b.out"
check "any user may run bclusters" sh -c 'LSF_ENVDIR="$1" setpriv \
	--reuid=nobody --regid=nogroup --clear-groups bclusters -l |
	grep -q "^REMOTE CLUSTER: alpha"' sh "$T/mc/beta/conf"

# lsclusters lists the local cluster, then the other with what its hello
# said (master, administrator, hosts, servers).
in_cluster alpha lsclusters >"$T/ls.out" 2>&1
check "lsclusters on alpha lists alpha, then beta ok" sh -c '
	sed -n 2p "$1" | grep -q "^alpha  *ok " &&
	sed -n 3p "$1" | grep -q "^beta  *ok  *$2  *root  *1  *1$"' \
	sh "$T/ls.out" "$(hostname)"
check "lsclusters names a remote cluster" sh -c '
	LSF_ENVDIR="$1" lsclusters beta | sed -n 2p | grep -q "^beta  *ok "' \
	sh "$T/mc/alpha/conf"
check "lsclusters refuses an unknown cluster" sh -c '
	! LSF_ENVDIR="$1" lsclusters nosuch 2>&1 | grep -qv "nosuch: Cluster name not found"' \
	sh "$T/mc/alpha/conf"

# The acceptor goes away: alpha sees disc, then ok once beta is back.
kill -KILL "$(mc_mbd_pid beta)"
wait "$(mc_mbd_pid beta)" 2>/dev/null
check "alpha sees beta disc after beta is killed" wait_for 20 link_is alpha beta disc
in_cluster alpha bclusters -l >"$T/l.out" 2>&1
check "the loss has a reason" sh -c '! grep -q "LAST_ERROR: *-$" "$1"' sh "$T/l.out"
check "lsclusters shows beta unavail" sh -c '
	LSF_ENVDIR="$1" lsclusters | grep -q "^beta  *unavail "' sh "$T/mc/alpha/conf"
start_mc_mbd beta || exit 1
check "alpha re-dials beta by itself" wait_for 30 link_is alpha beta ok
check "beta sees alpha ok again" wait_for 30 link_is beta alpha ok
check "alpha logged the link lost and back" sh -c '
	grep -q "cluster beta: link lost" "$1" &&
	test "$(grep -c "cluster beta: link ok" "$1")" -ge 2' sh "$T/mc/alpha/log/mbatchd.out"

# The dialer goes away: beta sees disc, then ok once alpha dials again.
stop_mc_mbd alpha
check "beta sees alpha disc after alpha stops" wait_for 20 link_is beta alpha disc
start_mc_mbd alpha || exit 1
check "alpha dials beta again after its restart" wait_for 30 link_is alpha beta ok
check "beta sees alpha ok after alpha's restart" wait_for 30 link_is beta alpha ok
in_cluster beta bclusters -l >"$T/l.out" 2>&1
check "beta counts the links made" grep -q "CONNECTS: *[2-9]" "$T/l.out"

# The journal of alpha, which saw beta go and come back, and beta's.
in_cluster alpha badmin mbdhist >"$T/h.out" 2>&1
check "alpha's mbdhist shows beta's link ok, down, ok" sh -c '
	grep -o "Link to cluster <beta> is [a-z]*" "$1" | tr "\n" , |
	grep -q "is ok,Link to cluster <beta> is down,Link to cluster <beta> is ok"' \
	sh "$T/h.out"
check "the down line says why" grep -q "Link to cluster <beta> is down: ." "$T/h.out"
in_cluster beta badmin mbdhist >"$T/h.out" 2>&1
check "beta's mbdhist shows alpha's link down and back" sh -c '
	grep -q "Link to cluster <alpha> is down" "$1" &&
	test "$(grep -c "Link to cluster <alpha> is ok; its master is <" "$1")" -ge 2' \
	sh "$T/h.out"

done_testing
