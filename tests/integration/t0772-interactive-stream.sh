#!/bin/sh
# The interactive data path: 50 MB arrive intact through bsub -I (pipes,
# binary, output and input) and bsub -Ip (a pseudo-terminal, text), and a
# reader who stops reading stalls the job in write() while the relay, bsub
# and sbatchd stay small: the job blocks, nobody buffers.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
drive() { python3 "$top_srcdir/tests/tools/bs-ptydrive.py" "$@"; }
kb() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status" 2>/dev/null; }
SBD=$(sbd_pid vh1)
sbd_hwm0=$(kb "$SBD" VmHWM)

size=52428800
head -c "$size" /dev/urandom >"$T/bin"
sum=$(sha256sum <"$T/bin" | cut -d' ' -f1)
bsub -I "cat '$T/bin'" >"$T/out" 2>"$T/err"
check "bsub -I exits 0 after streaming 50 MB" test $? -eq 0
check "50 MB of binary output arrive intact through bsub -I" \
	test "$(tail -c "$size" "$T/out" | sha256sum | cut -d' ' -f1)" = "$sum"

# And the other way: 50 MB of bsub's input reach the job intact, the
# relay holding one frame at a time while the job reads.
got=$(bsub -I 'sha256sum' <"$T/bin" 2>/dev/null | tail -n 1 | cut -d' ' -f1)
check "50 MB of binary input arrive intact through bsub -I" test "$got" = "$sum"
got=$(cat "$T/bin" | bsub -I 'wc -c' 2>/dev/null | tail -n 1)
check "from a pipe too, byte for byte ($got)" test "$got" -eq "$size"

# Text through the pseudo-terminal (its line discipline makes LF CR LF;
# bs-ptydrive turns it back before hashing).
head -c 37500000 "$T/bin" | base64 -w 76 >"$T/text"
tsize=$(wc -c <"$T/text")
tsum=$(sha256sum <"$T/text" | cut -d' ' -f1)
check "50 MB of terminal output arrive intact through bsub -Ip" \
	drive -- bsub -Ip "cat '$T/text'" <<S
timeout 600
expect <<Starting on vh1>>\r\n
sha256 $tsize $tsum
exit 0
S

# A reader who stops reading: the job must block, not the memory grow.
(bsub -I "cat '$T/bin'" 2>/dev/null | {
	while [ ! -e "$T/go" ]; do sleep 0.05; done
	tail -c "$size" | sha256sum | cut -d' ' -f1 >"$T/slow.sum"
}) &
reader=$!
track "$reader"
blocked() {
	for p in $(cluster_job_pids); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = cat ] || continue
		grep -q pipe_write "/proc/$p/wchan" 2>/dev/null && return 0
	done
	return 1
}
check "the job blocks in write() while nobody reads" wait_for 120 blocked
relay_kb=0
for p in $(cluster_job_pids); do
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = bs-jobwrap ] && relay_kb=$(kb "$p" VmHWM)
done
# Our bsub, the one with our LSF_ENVDIR and no job around it: the newest
# bsub on the machine may be another test's, or gone by the time it is read.
our_bsub() {
	for p in $(pgrep -x bsub); do
		grep -qsxz "LSF_ENVDIR=$LSF_ENVDIR" "/proc/$p/environ" &&
			! grep -qsz '^LSB_JOBID=' "/proc/$p/environ" && echo "$p"
	done
}
bsub_kb=$(kb "$(our_bsub | head -n 1)" VmHWM)
diag "relay peak ${relay_kb} kB, bsub peak ${bsub_kb} kB"
check "the relay stays small (peak ${relay_kb} kB)" test "${relay_kb:-0}" -gt 0 -a "${relay_kb:-0}" -lt 16384
check "bsub stays small (peak ${bsub_kb} kB)" test "${bsub_kb:-0}" -gt 0 -a "${bsub_kb:-0}" -lt 32768
touch "$T/go"
wait "$reader"
check "after the stall the stream still arrives intact" \
	test "$(cat "$T/slow.sum" 2>/dev/null)" = "$sum"
sbd_hwm1=$(kb "$SBD" VmHWM)
diag "sbatchd peak ${sbd_hwm0} kB before, ${sbd_hwm1} kB after 150 MB"
check "sbatchd is not on the data path (peak ${sbd_hwm0} -> ${sbd_hwm1} kB)" \
	test $((sbd_hwm1 - sbd_hwm0)) -lt 4096
done_testing
