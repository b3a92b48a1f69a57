# Sourced by the scheduling-cycle figures (sched.sh, sched-1m.sh,
# sched-limits.sh, sched-plans.sh): each runs bench/sched-cycle-bench with
# its own arguments, built first when missing.

: "${top_builddir:?top_builddir must be set}"
: "${top_srcdir:?top_srcdir must be set}"

# cycle_bench "SMOKE ARGS" "RUN ARGS": BENCH_SMOKE=1 runs a tiny cluster,
# only to show the program still works; otherwise the figure's cluster.
cycle_bench() {
	bin="$top_builddir/bench/sched-cycle-bench"
	if [ ! -x "$bin" ]; then
		make -C "$top_builddir" bench/sched-cycle-bench >&2
	fi
	if [ "${BENCH_SMOKE:-0}" = 1 ]; then
		# shellcheck disable=SC2086 # the arguments are words on purpose
		exec "$bin" $1
	fi
	# shellcheck disable=SC2086
	exec "$bin" $2
}
