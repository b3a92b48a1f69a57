#!/bin/sh
# Who may talk to a waiting bsub -I.  Over TCP (MUNGE) bsub accepts only a
# credential made by root (sbatchd) naming its job and its submission's
# nonce: another user's credential, root's credential with another nonce,
# and no credential at all are turned away, and bsub keeps waiting for the
# real execution host, whose session then works.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to act as another user"
make_cluster vh1
[ -f "$T/conf/hosts" ] || skip_all "MUNGE is not available"
start_mbd || exit 1
start_sbd vh1 || exit 1
FAKE="python3 $top_srcdir/tests/tools/bs-iafake.py"
SOCK="$T/munge/main.sock"

bsub -I -H 'echo real-session' >"$T/out" 2>"$T/err" &
bpid=$!
track "$bpid"
wait_for 10 grep -q 'is submitted' "$T/out"
id=$(job_id_of <"$T/out")
port_of() { ss -ltnpH 2>/dev/null | grep "pid=$bpid," | awk '{print $4}' | sed 's/.*://' | head -n 1; }
wait_for 10 sh -c "ss -ltnpH | grep -q 'pid=$bpid,'"
addr="tcp:127.0.0.1:$(port_of)"
diag "bsub listens at $addr"

payload="basalt-interactive job=$id index=0 nonce=00 host=vh1"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	munge -S "$SOCK" -s "$payload" >"$T/cred.nobody"
check "another user's credential for the job is refused" \
	sh -c "$FAKE '$addr' '$id' '$T/cred.nobody' | grep -qx refused"
munge -S "$SOCK" -s "$payload" >"$T/cred.root"
check "root's credential with another submission's nonce is refused" \
	sh -c "$FAKE '$addr' '$id' '$T/cred.root' | grep -qx refused"
check "a hello without a credential is refused" \
	sh -c "$FAKE '$addr' '$id' - 00 | grep -qx refused"
printf 'MUNGE:garbage:' >"$T/cred.bad"
check "a malformed credential is refused" \
	sh -c "$FAKE '$addr' '$id' '$T/cred.bad' | grep -qx refused"

bresume "$id" >/dev/null
wait "$bpid"
rc=$?
check "bsub kept waiting and the real session ran (rc $rc)" test "$rc" -eq 0
check "with the job's output" grep -qx real-session "$T/out"
check "bsub did not take a refused peer for the job" \
	test "$(grep -c '^<<Starting on' "$T/err")" -eq 1
done_testing
