#!/bin/sh
# Three clusters (issue 19, item 1): every mbatchd links to both others,
# one link per pair, whoever dials; bclusters -l on each shows the two
# others ok.  With the middle cluster's mbatchd stopped (by PID) both
# others show it disc and still show each other ok; once it is back every
# link is ok again by itself.  Application profiles travel with the hello:
# bclusters -app on one cluster lists another's.  LSF's default sections
# show ca's send queue and cb's receive queue with their link's status,
# cc's HostExport to ca as EXPORT and ca's all@cc queue as IMPORT (ok:
# linked, and the exclusive lease made at once), and disc while the other
# side is down.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters ca cb cc || exit 1
cat >>"$T/mc/cc/conf/lsbatch/cc/configdir/lsb.applications" <<'APP'
Begin Application
NAME = ccapp
DESCRIPTION = "cc's own profile"
End Application
APP
cat >>"$T/mc/ca/conf/lsbatch/ca/configdir/lsb.queues" <<'Q'
Begin Queue
QUEUE_NAME = tocb
SNDJOBS_TO = recvq@cb
End Queue
Begin Queue
QUEUE_NAME = fromcc
HOSTS = all@cc
End Queue
Q
cat >>"$T/mc/cb/conf/lsbatch/cb/configdir/lsb.queues" <<'Q'
Begin Queue
QUEUE_NAME = recvq
RCVJOBS_FROM = ca
End Queue
Q
cat >>"$T/mc/cc/conf/lsbatch/cc/configdir/lsb.resources" <<'R'
Begin HostExport
PER_HOST = cc-master
SLOTS = 2
DISTRIBUTION = ([ca, 1])
End HostExport
R
start_mc_mbd ca || exit 1
start_mc_mbd cb || exit 1
start_mc_mbd cc || exit 1

all_ok() {
	for f in ca cb cc; do
		for t in ca cb cc; do
			[ "$f" = "$t" ] && continue
			link_is "$f" "$t" ok || return 1
		done
	done
}
check "every cluster sees both others ok" wait_for 30 all_ok
for f in ca cb cc; do
	n=$(in_cluster "$f" bclusters -l 2>/dev/null | grep -c '^REMOTE CLUSTER:')
	check "$f lists exactly two remote clusters" test "$n" -eq 2
done
check "ca dials both (the lower name dials)" sh -c '
	test "$(LSF_ENVDIR="$1" bclusters -l | grep -c "dialed by this cluster")" -eq 2' \
	sh "$T/mc/ca/conf"
check "cc is dialed by both" sh -c '
	test "$(LSF_ENVDIR="$1" bclusters -l | grep -c "dialed by that cluster")" -eq 2' \
	sh "$T/mc/cc/conf"
check "ca sees cc's application profile" sh -c '
	LSF_ENVDIR="$1" bclusters -app | grep -q "^cc  *ccapp  *cc.s own profile"' \
	sh "$T/mc/ca/conf"

in_cluster ca bclusters >"$T/b.out" 2>&1
check "ca's send queue row" grep -q "^tocb  *send  *recvq  *cb  *ok$" "$T/b.out"
check "ca imports from cc (ok: the exclusive lease is made)" wait_for 20 sh -c '
	LSF_ENVDIR="$1" bclusters | grep -q "^cc  *IMPORT  *ok$"' sh "$T/mc/ca/conf"
in_cluster cb bclusters >"$T/b.out" 2>&1
check "cb's receive queue row" grep -q "^recvq  *recv  *-  *ca  *ok$" "$T/b.out"
check "cb has no lease rows" grep -q "^No resources have been exported or borrowed$" "$T/b.out"
in_cluster cc bclusters >"$T/b.out" 2>&1
check "cc exports to ca (ok: the lease is made)" grep -q "^ca  *EXPORT  *ok$" "$T/b.out"
check "cc has no forwarding queue" grep -q "^No local queue sending/receiving jobs from remote clusters$" "$T/b.out"

stop_mc_mbd cb
check "ca sees cb disc" wait_for 20 link_is ca cb disc
check "cc sees cb disc" wait_for 20 link_is cc cb disc
check "ca sees cc ok while cb is down" link_is ca cc ok
check "cc sees ca ok while cb is down" link_is cc ca ok
check "ca's send queue to cb shows disc" sh -c '
	LSF_ENVDIR="$1" bclusters | grep -q "^tocb  *send  *recvq  *cb  *disc$"' \
	sh "$T/mc/ca/conf"
start_mc_mbd cb || exit 1
check "every link is ok again once cb is back" wait_for 30 all_ok

done_testing
