#!/bin/sh
# One job query naming 100,000 users (the default MAX_REQUEST_LIST_SIZE)
# against 3,000 jobs: it is answered correctly while a bjobs from another
# connection is answered within its deadline and the host stays ok; one
# name more is refused with a clear error.  Matching every job against
# every name made such a query stall mbatchd for many seconds, and hosts
# were declared unavailable meanwhile.
. "$top_srcdir/tests/lib.sh"

ABUSER=$top_builddir/tests/integration/rpc-abuser
[ -x "$ABUSER" ] || skip_all "rpc-abuser is not built"
make_cluster vh1
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = 5000\nEnd Parameters/' \
    "$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1
start_sbd vh1 || exit 1
SOCK=$T/work/mbatchd.sock
me=$(id -un)

id=$(bsub -H -J 'big[1-3000]' -o /dev/null true | job_id_of)
check "3000 held jobs" wait_for 30 sh -c "[ \$(bjobs -noheader -o stat -u all 2>/dev/null | grep -c PSUSP) -eq 3000 ]"

"$ABUSER" bigquery "$SOCK" 100000 "$me" >"$T/big.out" 2>"$T/big.err" &
big=$!
track "$big"
wait_for 10 grep -q sent "$T/big.err"
# Another connection meanwhile: answered within 10 s (a fixed deadline,
# not a measure of the fix; without it this waited for the big query).
check "a concurrent bjobs answers" sh -c "timeout 10 bjobs -noheader -u all -o id $id | grep -q $id"
check "the big query is answered" wait_for 60 grep -q . "$T/big.out"
check "with every job of the user named last" grep -qx "jobs 3000" "$T/big.out"
check "the host stayed ok" host_ok vh1
check "no host was declared unavailable" sh -c "! grep -q 'is unavailable' '$T/log/mbatchd.out'"

check "one name more is refused" sh -c "'$ABUSER' bigquery '$SOCK' 100001 '$me' >'$T/over.out' 2>/dev/null"
check "with a clear error" grep -q "error: Request refused: 100001 entries in users; at most 100000 are accepted (MAX_REQUEST_LIST_SIZE in lsb.params)" "$T/over.out"
check "and mbatchd logs it" grep -q "Request refused: 100001 entries in users" "$T/log/mbatchd.out"
bkill 0 >/dev/null 2>&1
done_testing
