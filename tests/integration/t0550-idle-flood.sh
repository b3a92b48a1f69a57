#!/bin/sh
# One unprivileged user opens as many idle connections as the descriptor
# limit allows.  Only LSB_MBD_MAX_CONNS_PER_USER of them are accepted (the
# rest are refused with a logged reason), another user's bjobs still
# works, an execution host still registers and runs a job, and the idle
# ones are closed after LSB_MBD_CLIENT_IDLE_TIMEOUT.  Without the caps
# such a flood took every descriptor and locked everyone else out.
. "$top_srcdir/tests/lib.sh"

ABUSER=$top_builddir/tests/integration/rpc-abuser
[ -x "$ABUSER" ] || skip_all "rpc-abuser is not built"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
u1=bsfa$$
u2=bsfb$$
add_test_user "$u1" /nonexistent || exit 1
add_test_user "$u2" /nonexistent || exit 1

# Scaled to the machine: as many as this process may open, at most 20,000.
fdmax=$(ulimit -Hn)
[ "$fdmax" = unlimited ] && fdmax=20000
n=$((fdmax - 64))
[ "$n" -gt 20000 ] && n=20000
[ "$n" -ge 1000 ] || skip_all "descriptor limit $fdmax is too low to flood"

make_cluster vh1 vh2
cat >>"$T/conf/lsf.conf" <<CONF
LSB_MBD_MAX_CONNS_PER_USER=100
LSB_MBD_CLIENT_IDLE_TIMEOUT=5
CONF
start_mbd || exit 1
start_sbd vh1 || exit 1
SOCK=$T/work/mbatchd.sock

as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }

diag "flooding with $n connections"
as "$u1" sh -c "ulimit -n $fdmax; BS_ABUSER_TIMEOUT=60 exec '$ABUSER' idle '$SOCK' $n" >"$T/flood.out" 2>&1 &
flood=$!
track "$flood"
check "the flood has opened its connections" wait_for 120 grep -q accepted "$T/flood.out"
diag "$(head -n 4 "$T/flood.out")"
check "100 are accepted, the rest refused" grep -qx "accepted 100 refused $((n - 100))" "$T/flood.out"
check "mbatchd says why" grep -q "too many connections from uid $(id -u "$u1") (limit 100 per user)" "$T/log/mbatchd.out"
# The flood's 100 are still open (the idle timeout is 5 s): others work.
other_bjobs() {
	as "$u2" bjobs -u all >"$T/bjobs.out" 2>&1 ||
	    grep -q 'No unfinished job found' "$T/bjobs.out"
}
check "another user's bjobs answers" other_bjobs
check "an execution host still registers" start_sbd vh2
cd /tmp || exit 1
id=$(as "$u2" bsub -m vh2 -o /dev/null true | job_id_of)
check "and runs another user's job" wait_for 20 state_is "$id" DONE
check "the idle connections are closed after the timeout" wait_for 60 grep -qx "closed 100" "$T/flood.out"
check "with the reason logged" grep -q "closed: idle for 5000 ms" "$T/log/mbatchd.out"
both_ok() { host_ok vh1 && host_ok vh2; }
check "the hosts stayed ok" both_ok
done_testing
