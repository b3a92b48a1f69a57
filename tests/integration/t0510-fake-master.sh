#!/bin/sh
# sbatchd obeys no fake master (issue 13, finding 2).  While mbatchd is
# down, a user listens on its port: without a credential, with a forged
# one, and with the user's own credential answering sbatchd's nonce.
# sbatchd refuses each, says why in its log, registers with none and runs
# nothing they order; the real mbatchd, back, is accepted.
. "$top_srcdir/tests/lib.sh"

FAKE=$top_builddir/tests/tools/bs-fakepeer
[ -x "$FAKE" ] || skip_all "tests/tools/bs-fakepeer is not built"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to act as the user nobody"
command -v setpriv >/dev/null || skip_all "setpriv is not installed"
command -v munged >/dev/null || skip_all "munged is not installed"

make_cluster vh1
grep -q '^LSF_AUTH=munge' "$LSF_ENVDIR/lsf.conf" || { diag "no munged"; exit 1; }
start_mbd || exit 1
start_sbd vh1 || exit 1
port=$(cat "$T/work/mbatchd.port")
stop_mbd
slog=$T/log/sbatchd.vh1.out

# fake_master CRED: a fake master as nobody on mbatchd's port until sbatchd
# dialed it twice; FAKE_OUT holds what it saw.
n=0
fake_master() {
	n=$((n + 1))
	FAKE_OUT=$T/fake.$n.out
	# setpriv execs the fake, so $! is the fake's own PID.
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$FAKE" master --listen "127.0.0.1:$port" --cred "$1" \
		--touch "$T/pwned" >"$FAKE_OUT" 2>&1 &
	fpid=$!
	track "$fpid"
	dialed() { [ "$(grep -c '^hello from vh1' "$FAKE_OUT")" -ge 2 ]; }
	wait_for 30 dialed || { diag "sbatchd did not dial the fake master ($1):"; diag "$(cat "$FAKE_OUT")"; }
	kill -TERM "$fpid"
	wait "$fpid" 2>/dev/null
}

for cred in none garbage "munge:$T/munge/main.sock"; do
	before=$(grep -c "not accepted as the master" "$slog")
	fake_master "$cred"
	check "sbatchd dialed the fake master ($cred)" grep -q "^hello from vh1" "$FAKE_OUT"
	check "and never registered with it" sh -c "! grep -q RegisterHost '$FAKE_OUT'"
	check "and said why in its log" sh -c "[ \$(grep -c 'not accepted as the master' '$slog') -gt $before ]"
done
check "the user's own credential is refused for its uid" grep -q "neither root nor an LSF administrator" "$slog"
check "no order of a fake master ran" test ! -e "$T/pwned"

start_mbd || exit 1
check "the real mbatchd, back, is accepted" wait_for 30 host_ok vh1
id=$(bsub -o /dev/null true | job_id_of)
check "and its jobs run" wait_for 15 state_is "$id" DONE
done_testing
