#!/bin/sh
# The whole test suite, from a fresh Debian 12 machine to a verdict:
#   installs what is missing, builds with warnings as errors, runs
#   `make check` and the benchmark smoke test (`make bench-smoke`), runs
#   `make check` again under ASan+UBSan, checks `make distcheck`, and runs
#   each fuzz target for a bounded time.
# Exits non-zero if any step fails.  FUZZ_SECONDS sets the fuzz time (30).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
fuzz_seconds=${FUZZ_SECONDS:-30}

step() { printf '\n=== %s\n' "$*"; }
show_failures() {
	# Print the logs of failed tests so a CI transcript says what broke.
	find "$1" -name '*.log' -path '*tests*' 2>/dev/null | while read -r log; do
		trs=${log%.log}.trs
		if [ -f "$trs" ] && grep -q '^:test-result: \(FAIL\|ERROR\)' "$trs"; then
			echo "--- $log"; tail -n 60 "$log"
		fi
	done
}
check_in() {
	if ! make -C "$1" -j"$(nproc)" check >"$1/check.out" 2>&1; then
		grep -E '^(PASS|FAIL|ERROR|SKIP|XFAIL|XPASS|# )' "$1/check.out" | grep -v '^PASS' || true
		show_failures "$1"
		echo "make check failed in $1" >&2
		exit 1
	fi
	grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' "$1/check.out"
}

step "install dependencies"
sh scripts/install-deps.sh
step "autogen"
./autogen.sh >/dev/null 2>&1

step "build (warnings are errors)"
sh scripts/build.sh build/default --enable-werror
step "make check"
check_in build/default
step "benchmark smoke test (every figure once at tiny sizes; no timing judged)"
make -C build/default bench-smoke >build/default/bench-smoke.out 2>&1 || {
	grep -v '^make' build/default/bench-smoke.out | tail -n 80
	echo "make bench-smoke failed" >&2; exit 1; }
grep '^run-bench:' build/default/bench-smoke.out || true

step "build with AddressSanitizer + UndefinedBehaviorSanitizer"
sh scripts/build.sh build/asan --enable-werror --enable-sanitizers
step "make check (sanitizers)"
check_in build/asan

step "make distcheck"
make -C build/default distcheck >build/default/distcheck.out 2>&1 || {
	grep -E '^(FAIL|ERROR|XPASS)' build/default/distcheck.out || true
	show_failures build/default/basalt-*/_build
	tail -n 40 build/default/distcheck.out; echo "make distcheck failed" >&2; exit 1; }
grep -A1 'archives ready for distribution' build/default/distcheck.out

step "fuzz (${fuzz_seconds}s per target)"
make -C build/default fuzz-run FUZZ_SECONDS="$fuzz_seconds" >build/default/fuzz.out 2>&1 || {
	tail -n 60 build/default/fuzz.out; echo "fuzzing found a problem" >&2; exit 1; }
grep -E '^fuzz-' build/default/fuzz.out || true

# One closing line over both runs, in the plain form CI tools read.
pass=$(cat build/default/check.out build/asan/check.out | sed -n 's/^# PASS: *//p' | awk '{s+=$1} END {print s+0}')
fail=$(cat build/default/check.out build/asan/check.out | sed -n 's/^# \(FAIL\|ERROR\): *//p' | awk '{s+=$1} END {print s+0}')
step "all tests passed"
echo "$pass passed, $fail failed"
