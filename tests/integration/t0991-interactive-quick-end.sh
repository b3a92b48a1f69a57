#!/bin/sh
# A job that ends at once under bsub -I: its relay sends the output and
# the exit frame and closes the link, while bsub, woken by its stdin (at
# its end here) in the same poll, sends the input's end.  That write
# fails; bsub used to drop the link on it and lose the output waiting in
# the socket (t0775 failed that way under load).  Every one of ROUNDS
# quick jobs must show its output and exit status.  The race needs bsub
# to lose the CPU between its reply to the relay and its next poll, so
# on an idle host the old code mostly passes; under load it loses some.
. "$top_srcdir/tests/lib.sh"

ROUNDS=${ROUNDS:-30}
BS_MUNGE=0 make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/tmp"
chmod 1777 "$T/tmp"
export TMPDIR="$T/tmp"

lost=0
bad_rc=0
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	i=$((i + 1))
	bsub -I "echo quick-$i; exit 7" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	if ! grep -qx "quick-$i" "$T/out"; then
		lost=$((lost + 1))
		diag "round $i: output lost; stderr: $(tr '\n' ' ' <"$T/err")"
	fi
	[ "$rc" -eq 7 ] || bad_rc=$((bad_rc + 1))
done
check "no output lost in $ROUNDS quick -I jobs ($lost lost)" test "$lost" -eq 0
check "each passed its exit status ($bad_rc did not)" test "$bad_rc" -eq 0
done_testing
