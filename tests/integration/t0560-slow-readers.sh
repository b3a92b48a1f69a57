#!/bin/sh
# 40 clients ask for big detailed job listings and never read the replies.
# Each may queue 16 MiB (then mbatchd stops reading it), and all clients
# together LSB_MBD_MAX_QUEUED_OUTPUT (64 MiB here): past it the slowest
# reader is closed with a logged reason, and while the budget is spent no
# client's next request is read.  mbatchd's peak RSS stays under its RSS
# before + 64 MiB (the budget) + 2 MiB (the one reply that crossed it) +
# 34 MiB (malloc slack, a reply being built and packed) = 100 MiB; without
# the budget it grew by 40 x 16 MiB, about 650 MiB.  The execution host's
# link is never touched.
. "$top_srcdir/tests/lib.sh"

ABUSER=$top_builddir/tests/integration/rpc-abuser
[ -x "$ABUSER" ] || skip_all "rpc-abuser is not built"
make_cluster vh1
echo "LSB_MBD_MAX_QUEUED_OUTPUT=64" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1
SOCK=$T/work/mbatchd.sock

# 15 held jobs with 100 kB commands: a detailed listing is about 1.5 MB.
big=$(head -c 100000 /dev/zero | tr '\0' x)
for i in $(seq 15); do
	bsub -H -o /dev/null "echo $big" >/dev/null
done
check "15 big jobs" sh -c "[ \$(bjobs -noheader -o stat 2>/dev/null | grep -c PSUSP) -eq 15 ]"

kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$MBD_PID/status"; }
base=$(kb VmRSS)
diag "mbatchd RSS before: $base kB"

"$ABUSER" slow "$SOCK" 40 20 >"$T/slow.out" 2>&1 &
track "$!"
check "40 readers have sent their requests" wait_for 60 grep -q sent "$T/slow.out"
# Every reader ends up stopped (16 MiB queued) or closed: as the slowest
# reader, or after 30 s without progress (the write timeout).
held() {
	[ "$(grep -E 'pausing reads|closed: slowest reader|closed: write stalled' "$T/log/mbatchd.out" |
	    sed -n 's/.*conn \([0-9]*\) .*/\1/p' | sort -u | wc -l)" -ge 40 ]
}
check "every reader was stopped or closed" wait_for 120 held
peak=$(kb VmHWM)
diag "mbatchd peak RSS: $peak kB (+$(((peak - base) / 1024)) MiB)"
# AddressSanitizer keeps freed memory in quarantine: RSS says nothing then.
if ldd "$(command -v mbatchd)" 2>/dev/null | grep -q libasan; then
	diag "mbatchd is built with AddressSanitizer: the RSS bound is not checked"
else
	check "the peak stays within the budget's bound" [ $((peak - base)) -lt $((100 * 1024)) ]
fi
check "the slowest readers were closed, with the reason" grep -q "closed: slowest reader: .* (limit 67108864)" "$T/log/mbatchd.out"
check "others are served" sh -c "timeout 10 bjobs -noheader >/dev/null"
check "the execution host stayed ok" host_ok vh1
check "its link was never closed" sh -c "! grep -q 'link to mbatchd lost' '$T/log/sbatchd.vh1.out'"
done_testing
