#!/bin/sh
# mc-links-recovery: how fast MultiCluster links come up and come back
# (mbatchd/mc-links.c).  Two clusters on loopback, as the integration
# tests make them (tests/lib.sh make_mc_clusters); the times are from a
# daemon's start to `bclusters -l` showing the link, so they include the
# commands' own start and their 50 ms polling.  Not part of `make check`.
#
#   bench/mc-links-recovery.sh [BUILDDIR]     (default: the current directory)
#
# MC_ROUNDS (default 5): kill -9 rounds of each side.  Prints one line per
# measure: the first link, the dialer seeing the acceptor's loss, the link
# back after the acceptor restarts, and the same for the dialer.
set -u

build=$(cd "${1:-.}" && pwd)
top_builddir=$build
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
export top_builddir top_srcdir
. "$top_srcdir/tests/lib.sh"

ms() { echo $(($(date +%s%N) / 1000000)); }
# stat NAME VALUES...: min, median and max of the values, in ms.
stat() {
	name=$1
	shift
	printf '%s\n' "$@" | sort -n | awk -v n="$name" '
		{ v[NR] = $1 } END { printf "%-44s min %5d  median %5d  max %5d ms\n",
		    n, v[1], v[int((NR + 1) / 2)], v[NR] }'
}

make_mc_clusters alpha beta || exit 1
t0=$(ms)
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1
wait_for 30 link_is alpha beta ok || { echo "no first link"; exit 1; }
first=$(($(ms) - t0))
lost_a="" back_a="" lost_d="" back_d=""
for i in $(seq "${MC_ROUNDS:-5}"); do
	kill -KILL "$(mc_mbd_pid beta)"
	wait "$(mc_mbd_pid beta)" 2>/dev/null
	t=$(ms); wait_for 30 link_is alpha beta disc; lost_a="$lost_a $(($(ms) - t))"
	start_mc_mbd beta || exit 1
	t=$(ms); wait_for 30 link_is alpha beta ok; back_a="$back_a $(($(ms) - t))"
	kill -KILL "$(mc_mbd_pid alpha)"
	wait "$(mc_mbd_pid alpha)" 2>/dev/null
	t=$(ms); wait_for 30 link_is beta alpha disc; lost_d="$lost_d $(($(ms) - t))"
	start_mc_mbd alpha || exit 1
	t=$(ms); wait_for 30 link_is beta alpha ok; back_d="$back_d $(($(ms) - t))"
done
stat "both started, first link ok" "$first"
# shellcheck disable=SC2086
stat "acceptor killed: dialer shows disc" $lost_a
# shellcheck disable=SC2086
stat "acceptor restarted: link ok again" $back_a
# shellcheck disable=SC2086
stat "dialer killed: acceptor shows disc" $lost_d
# shellcheck disable=SC2086
stat "dialer restarted: link ok again" $back_d
BS_TESTS=1
done_testing >/dev/null
