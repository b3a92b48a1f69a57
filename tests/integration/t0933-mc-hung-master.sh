#!/bin/sh
# A master that hangs (issue 19, item 1): its TCP connections stay open,
# but nothing answers.  Three clusters, so the hung one (mb) is at once
# the acceptor of ma's link and the dialer of mc's: ma's keepalive (a
# ClusterService hello every 15 s, answered within 10 s) and mc's silence
# limit (no hello for 40 s) both see it: disc with the reason, though no
# socket closed.  Once mb runs again every link comes back ok by itself.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters ma mb mc || exit 1
start_mc_mbd ma || exit 1
start_mc_mbd mb || exit 1
start_mc_mbd mc || exit 1
check "ma sees mb ok" wait_for 20 link_is ma mb ok
check "mc sees mb ok" wait_for 20 link_is mc mb ok

kill -STOP "$(mc_mbd_pid mb)"
check "ma (its dialer) sees the hung mb disc" wait_for 40 link_is ma mb disc
in_cluster ma bclusters -l >"$T/l.out" 2>&1
check "ma's reason is the unanswered hello" grep -q "LAST_ERROR: .*hello failed" "$T/l.out"
check "mc (dialed by it) sees the hung mb disc" wait_for 60 link_is mc mb disc
in_cluster mc bclusters -l >"$T/l.out" 2>&1
check "mc's reason is the silence" grep -q "LAST_ERROR: *no keepalive from cluster mb for 40 s" "$T/l.out"
check "ma and mc still see each other ok" link_is ma mc ok
kill -CONT "$(mc_mbd_pid mb)"
check "ma sees mb ok once it runs again" wait_for 40 link_is ma mb ok
check "mc sees mb ok once it runs again" wait_for 40 link_is mc mb ok

done_testing
