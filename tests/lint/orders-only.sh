#!/bin/sh
# Issue 11: one path from decision to effect.  Only the orders module
# (mbatchd/mbd-orders.c) may talk to an execution host: call on a host link
# (bs_rpc_conn_call) or use ExecService's descriptor.  (Filling a start
# order's fields elsewhere, as effective.c does, sends nothing.)
# Everything else in mbatchd/ decides and hands the decision to orders_*.
# Comments are not code: lines that are comment text are skipped.
# The MultiCluster links (mbatchd/mc-links.c) call other clusters' masters,
# not execution hosts: a call there that names ClusterService's descriptor
# on its line is not a host-link send.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"

pattern='bs_rpc_conn_call|basalt__exec_service__'
hits=$(cd "$top_srcdir" && grep -rnE "$pattern" mbatchd --include='*.c' --include='*.h' |
	grep -vE '^mbatchd/mbd-orders\.[ch]:' |
	grep -vE '^mbatchd/mc-links\.c:[0-9]+:.*bs_rpc_conn_call\([^,]*, &basalt__cluster_service__descriptor,' |
	grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)')
failed=0
n=1
echo "1..2"
if [ -z "$hits" ]; then
	echo "ok $n - no host-link send in mbatchd/ outside the orders module"
else
	echo "not ok $n - host-link sends outside the orders module:"
	echo "$hits" | sed 's/^/# /'
	failed=1
fi
n=2
if grep -q 'bs_rpc_conn_call' "$top_srcdir/mbatchd/mbd-orders.c" 2>/dev/null; then
	echo "ok $n - the orders module is where the sends are"
else
	echo "not ok $n - no orders module with the sends in mbatchd/"
	failed=1
fi
[ "$failed" -eq 0 ]
