#!/bin/sh
# Who may link as another cluster's master (issue 19, item 1): only root,
# with a MUNGE credential from an address of that cluster's lsf.shared
# Servers, naming a remote cluster of lsf.shared (not this one), and the
# same name in its ClusterService hello.  A stranger dialing as ROLE_MASTER
# without a credential, with a forged one, as a user, under an unknown or
# the local cluster's name, from another cluster's address, or naming
# another cluster in its hello, is refused with the reason logged; the
# daemon carries on and its real link stays ok.
. "$top_srcdir/tests/lib.sh"

FAKE=$top_builddir/tests/tools/bs-fakecluster
[ -x "$FAKE" ] || skip_all "tests/tools/bs-fakecluster is not built"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to act as root and as nobody"
command -v setpriv >/dev/null || skip_all "setpriv is not installed"

# Three clusters in lsf.shared; able's mbatchd never runs, so its name and
# address (its munged) are the stranger's to borrow.
make_mc_clusters alpha beta able || exit 1
start_mc_mbd alpha || exit 1
start_mc_mbd beta || exit 1
check "alpha and beta link" wait_for 20 link_is beta alpha ok
B="$(mc_addr beta):$MC_PORT"
BLOG=$T/mc/beta/log/mbatchd.out
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

refused() {   # refused "why in the log" bs-fakecluster args...
	want=$1
	shift
	"$FAKE" "$B" "$@" >"$T/fake.out" 2>&1
	rc=$?
	cat "$T/fake.out"
	[ "$rc" -eq 2 ] && grep -q "$want" "$T/fake.out" && grep -q "$want" "$BLOG"
}

check "no credential is refused" \
	refused "authentication failed\|credential" --name alpha --cred none
check "a forged credential is refused" \
	refused "credential" --name alpha --cred garbage
chmod 755 "$T/munge"
check "a user's credential is refused" sh -c '
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	as_nobody "$1" "$2" --name alpha --cred "munge:$3" >"$4" 2>&1
	test $? -eq 2 && grep -q "must link as root" "$4"' \
	sh "$FAKE" "$B" "$T/munge/alpha.sock" "$T/fake.out"
check "an unknown cluster name is refused" \
	refused "\"nosuch\" is not a remote cluster" --name nosuch --cred "munge:$T/munge/alpha.sock"
check "beta's own name is refused" \
	refused "\"beta\" is not a remote cluster" --name beta --cred "munge:$T/munge/beta.sock"
check "alpha's name from able's address is refused" \
	refused "not an address of cluster alpha" --name alpha --cred "munge:$T/munge/able.sock"
check "a hello naming another cluster is refused" \
	refused "names cluster \"zeta\"" --name alpha --hello-name zeta --cred "munge:$T/munge/alpha.sock"

# able is listed, and its name being lower, it is the one that dials beta:
# as itself, from its own address, it is let in (the rules are about who,
# not a blanket refusal), and beta logs its link ok.
check "able from its own address is accepted" sh -c \
	'"$1" "$2" --name able --cred "munge:$3" --master able-master' \
	sh "$FAKE" "$B" "$T/munge/able.sock"
check "beta logged able's link ok" grep -q "cluster able: link ok" "$BLOG"

check "beta still answers" in_cluster beta bclusters -l
check "beta's link with alpha is still ok" link_is beta alpha ok
check "alpha's link with beta is still ok" link_is alpha beta ok
check "beta is still running" kill -0 "$(mc_mbd_pid beta)"

done_testing
