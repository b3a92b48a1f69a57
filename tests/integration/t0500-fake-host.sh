#!/bin/sh
# Nobody acts as an execution host (issue 13, finding 1).  An unprivileged
# user cannot say hello as EXEC_HOST on the Unix socket; over TCP a peer
# without a credential, with a forged one, with a user's, or with root's
# from an address that is not the host's is refused; a second registration
# for a host whose link is live is refused, not a takeover, and the host's
# running job is untouched; a report numbered 2^64-1 by an earlier
# registration does not block the reports of the next.
. "$top_srcdir/tests/lib.sh"

FAKE=$top_builddir/tests/tools/bs-fakepeer
[ -x "$FAKE" ] || skip_all "tests/tools/bs-fakepeer is not built"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to act as the user nobody"
command -v setpriv >/dev/null || skip_all "setpriv is not installed"
command -v munged >/dev/null || skip_all "munged is not installed"

make_cluster vh1 vh2 farhost
grep -q '^LSF_AUTH=munge' "$LSF_ENVDIR/lsf.conf" || { diag "no munged"; exit 1; }
# farhost is a host of the cluster whose address is not this machine's.
{ echo "127.0.0.1 vh1 vh2 localhost"; echo "192.0.2.77 farhost"; } >"$LSF_ENVDIR/hosts"
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
port=$(cat "$T/work/mbatchd.port")
sock=$T/work/mbatchd.sock
msock=$T/munge/main.sock
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

id=$(bsub -m vh1 -o /dev/null sleep 300 | job_id_of)
check "a job runs on vh1" wait_for 10 state_is "$id" RUN

# fake NAME EXPECTED-STATUS PATTERN [bs-fakepeer args]: run, check both.
fake() {
	desc=$1 want=$2 pat=$3
	shift 3
	"$@" >"$T/fake.out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$T/fake.out"; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc)"
		sed 's/^/# /' "$T/fake.out"
	fi
}

fake "nobody on the Unix socket cannot say hello as an execution host" 2 \
	"permission denied" as_nobody "$FAKE" host "unix:$sock" --name vh1
fake "a TCP peer without a credential is refused" 2 "no MUNGE credential" \
	"$FAKE" host "127.0.0.1:$port" --name vh1
fake "a TCP peer with a forged credential is refused" 2 \
	"MUNGE credential refused" "$FAKE" host "127.0.0.1:$port" --name vh1 \
	--cred garbage
fake "a TCP peer with a user's credential is refused" 2 "permission denied" \
	as_nobody "$FAKE" host "127.0.0.1:$port" --name vh2 --cred "munge:$msock"
fake "root's credential from another address cannot register farhost" 2 \
	"not an address of host farhost" \
	"$FAKE" host "127.0.0.1:$port" --name farhost --cred "munge:$msock"
fake "a second registration of live vh1 over TCP is refused" 2 \
	"already registered on a live link" \
	"$FAKE" host "127.0.0.1:$port" --name vh1 --cred "munge:$msock"
fake "and over the Unix socket, even as root" 2 \
	"already registered on a live link" "$FAKE" host "unix:$sock" --name vh1
check "vh1's job still runs" state_is "$id" RUN
check "and vh1 is still ok" host_ok vh1
check "mbatchd logged the refusals" grep -q "refused registration" "$T/log/mbatchd.out"

# A report numbered 2^64-1 from an earlier registration of vh2 (with the
# boot time of vh2's sbatchd, so not even a restart tells them apart).  The
# job waits for a file, so it ends (and is reported) only after vh2
# registers again.
jid=$(bsub -m vh2 -o /dev/null "while [ ! -e $T/go ]; do sleep 0.1; done" | job_id_of)
check "a job runs on vh2" wait_for 10 state_is "$jid" RUN
pid=$(sbd_pid vh2)
# sbatchd's boot time as it registers it: the second of its "started" line,
# logged right after it took the time.
boot=$(date -d "$(sed -n 's/^\([A-Z][a-z]* *[0-9]* [0-9:]*\)\.[0-9]* .*sbatchd [^ ]* started.*/\1/p' \
	"$T/log/sbatchd.vh2.out" | head -n 1)" +%s)
# vh2's sbatchd holds still while mbatchd restarts, so the fake is first.
regs=$(grep -c "registered with mbatchd" "$T/log/sbatchd.vh2.out")
kill -STOP "$pid"
stop_mbd
start_mbd || exit 1
fake "an earlier registration of vh2 sends report 2^64-1" 0 \
	"report acked 18446744073709551615" \
	"$FAKE" host "unix:$sock" --name vh2 --boot "$boot" --job "$jid" \
	--seq 18446744073709551615
kill -CONT "$pid"
again() { [ "$(grep -c 'registered with mbatchd' "$T/log/sbatchd.vh2.out")" -gt "$regs" ]; }
check "vh2's sbatchd registers again, as the same sbatchd" wait_for 30 again
touch "$T/go"
check "the job's end is reported and taken" wait_for 30 state_is "$jid" DONE
bkill "$id" >/dev/null
done_testing
