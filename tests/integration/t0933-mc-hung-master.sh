#!/bin/sh
# A master that hangs (issue 19, item 1): the TCP connection stays open,
# but nothing answers.  The dialer's keepalive (a ClusterService hello
# every 15 s, answered within 10 s) notices: the link goes disc with the
# reason, although the socket never closed.  Once the hung mbatchd runs
# again the link comes back ok by itself on both sides.
. "$top_srcdir/tests/lib.sh"

make_mc_clusters alpha beta || exit 1
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1
check "alpha sees beta ok" wait_for 20 link_is alpha beta ok

kill -STOP "$(mc_mbd_pid beta)"
check "alpha sees the hung beta disc" wait_for 40 link_is alpha beta disc
in_cluster alpha bclusters -l >"$T/l.out" 2>&1
check "the reason is the unanswered hello" grep -q "LAST_ERROR: .*hello failed" "$T/l.out"
kill -CONT "$(mc_mbd_pid beta)"
check "alpha sees beta ok once it runs again" wait_for 40 link_is alpha beta ok
check "beta sees alpha ok" wait_for 20 link_is beta alpha ok

done_testing
