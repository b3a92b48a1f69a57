#!/bin/sh
# Issue 11, finding 4: a submission just under the frame limit (4 MiB) is
# accepted, but its start order (the same spec plus the LSB_* variables and
# the hosts) is over the limit.  It used to be marked RUN anyway, with no
# process, holding its slot, and bkill could not end it.  Now it never
# shows RUN: it ends EXIT with a reason bhist -l shows, its slot stays free,
# and bkill works on such a job while it waits.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# big N: a script whose text is about 2N bytes in the request (bsub sends
# the script and the command made of its lines).
big() {
	{ echo "exit 0"; printf '#'; head -c "$1" /dev/zero | tr '\0' x; echo; } >"$T/big.sh"
}
# Find the largest script bsub still sends: start over the limit and come
# down by what the refusal says was too much.
s=2097152
a=""
try=0
while [ -z "$a" ] && [ "$try" -lt 20 ]; do
	try=$((try + 1))
	big "$s"
	bsub -H -o /dev/null <"$T/big.sh" >"$T/sub.out" 2>&1
	a=$(job_id_of <"$T/sub.out")
	[ -n "$a" ] && break
	set -- $(sed -n 's/.*frame length \([0-9]*\) exceeds limit \([0-9]*\).*/\1 \2/p' "$T/sub.out")
	if [ $# -ne 2 ]; then
		diag "bsub refused for another reason: $(head -c 300 "$T/sub.out")"
		break
	fi
	s=$((s - ($1 - $2) / 2 - 2))
done
check "a submission just under the frame limit is accepted (script of $s bytes)" test -n "$a"
b=$(bsub -H -o /dev/null <"$T/big.sh" | job_id_of)
check "twice" test -n "$b"

# bjobs cannot show such a job: its reply (the command, the script and
# the job name, each as big as the script) is over the frame limit too.
# bhist reads the journal itself.  It wraps at 80 columns, inside words
# too: join the lines first.
hist() { bhist -l "$1" | tr '\n' '\r' | sed 's/\r                     //g' | tr '\r' '\n'; }
exited() { hist "$1" | grep -q "Exited with exit code"; }

check "bkill ends such a job while it waits" sh -c "bkill $a >/dev/null"
check "it is EXIT" wait_for 10 exited "$a"

# Released, it is scheduled; its start order cannot be sent.
bresume "$b" >/dev/null
check "released, it ends EXIT instead of RUN" wait_for 10 exited "$b"
says_why() { hist "$b" | grep -q 'exceeds the 4194304-byte frame limit'; }
check "bhist -l says why" says_why
check "it was never dispatched" sh -c "! bhist -l $b | grep -q Dispatched"
check "mbatchd logged it" grep -q "its start order .* exceeds" "$T/log/mbatchd.out"
c=$(bsub -o /dev/null true | job_id_of)
check "the host's one slot is free: the next job runs" wait_for 10 state_is "$c" DONE
done_testing
