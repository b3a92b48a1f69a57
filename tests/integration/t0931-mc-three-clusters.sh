#!/bin/sh
# Three clusters (issue 19, item 1): every mbatchd links to both others,
# one link per pair, whoever dials; bclusters -l on each shows the two
# others ok.  With the middle cluster's mbatchd stopped (by PID) both
# others show it disc and still show each other ok; once it is back every
# link is ok again by itself.  Application profiles travel with the hello:
# bclusters -app on one cluster lists another's.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters ca cb cc || exit 1
cat >>"$T/mc/cc/conf/lsbatch/cc/configdir/lsb.applications" <<'APP'
Begin Application
NAME = ccapp
DESCRIPTION = "cc's own profile"
End Application
APP
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

stop_mc_mbd cb
check "ca sees cb disc" wait_for 20 link_is ca cb disc
check "cc sees cb disc" wait_for 20 link_is cc cb disc
check "ca sees cc ok while cb is down" link_is ca cc ok
check "cc sees ca ok while cb is down" link_is cc ca ok
start_mc_mbd cb || exit 1
check "every link is ok again once cb is back" wait_for 30 all_ok

done_testing
