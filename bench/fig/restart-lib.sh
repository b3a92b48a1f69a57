# Sourced by the restart figures (restart.sh, restart-live.sh), after
# tests/lib.sh: what both time, the start of mbatchd to its first answer.

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# timed_start NAME: starts mbatchd and runs bqueues until it answers;
# sets t0 (just before the start) and t1 (the answer), in ms.  Gives up,
# with the log's tail, when mbatchd exits or after 300 s.
timed_start() {
	t0=$(now_ms)
	mbatchd -f >>"$T/log/mbatchd.out" 2>&1 &
	MBD_PID=$!
	track "$MBD_PID"
	deadline=$((t0 + 300000))
	until bqueues >/dev/null 2>&1; do
		if ! kill -0 "$MBD_PID" 2>/dev/null; then
			echo "$1: mbatchd exited:" >&2
			tail -n 20 "$T/log/mbatchd.out" >&2
			return 1
		fi
		if [ "$(now_ms)" -ge "$deadline" ]; then
			echo "$1: no answer after 300 s" >&2
			return 1
		fi
	done
	t1=$(now_ms)
}
