#!/bin/sh
# crash-soak: the kill -9 soak of tests/integration/t0110-kill9-soak.sh,
# longer: many more kills of mbatchd under load, repeated if asked, with a
# summary.  Not part of `make check` (it runs for minutes).
#
#   bench/crash-soak.sh [BUILDDIR]        (default: the current directory)
#
# Environment (defaults in brackets):
#   CRASH_ROUNDS       kills of mbatchd per run [100]
#   CRASH_MAX_UP_MS    longest run of mbatchd between kills, plus 200 ms [2500]
#   CRASH_MAX_DOWN_MS  longest time mbatchd stays dead [1000]
#   CRASH_SEED         seed of the random delays [a new one per run]
#   CRASH_REPEAT       runs [1]
#   CRASH_SETTLE_S     how long the jobs may take to finish at the end [90]
#   CRASH_KEEP_LOGS    directory to keep each run's TAP output in, and the
#                      daemons' logs of a run that failed a check [none]
#
# Prints one line per run and a total:
#   crash-soak: runs 1, rounds 100, jobs acknowledged 5210, lost 0, doubled 0,
#   wrong 0, kills lost 0, failed checks 0, 312 s
# and exits non-zero if any check failed (TODO checks do not count).
set -u

src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-.}" && pwd)
test=$src/tests/integration/t0110-kill9-soak.sh
if [ ! -x "$build/mbatchd/mbatchd" ] || [ ! -x "$build/cmd/bsub" ]; then
	echo "crash-soak: $build holds no built mbatchd and bsub; give the build directory" >&2
	exit 2
fi

CRASH_ROUNDS=${CRASH_ROUNDS:-100}
CRASH_MAX_UP_MS=${CRASH_MAX_UP_MS:-2500}
CRASH_MAX_DOWN_MS=${CRASH_MAX_DOWN_MS:-1000}
CRASH_SETTLE_S=${CRASH_SETTLE_S:-90}
export CRASH_ROUNDS CRASH_MAX_UP_MS CRASH_MAX_DOWN_MS CRASH_SETTLE_S
[ -n "${CRASH_SEED:-}" ] && export CRASH_SEED
repeat=${CRASH_REPEAT:-1}
keep=${CRASH_KEEP_LOGS:-}
if [ -n "$keep" ]; then
	mkdir -p "$keep" && keep=$(cd "$keep" && pwd)
	CRASH_KEEP_DIR=$keep
	export CRASH_KEEP_DIR
fi

out=$(mktemp "${TMPDIR:-/tmp}/crash-soak.XXXXXX")
trap 'rm -f "$out"' EXIT
trap 'exit 1' INT TERM

runs=0 rounds=0 acked=0 lost=0 doubled=0 wrong=0 klost=0 failed=0
start=$(date +%s)
i=0
while [ "$i" -lt "$repeat" ]; do
	i=$((i + 1))
	t0=$(date +%s)
	top_builddir=$build top_srcdir=$src sh "$test" >"$out" 2>&1
	rc=$?
	[ -n "$keep" ] && cp "$out" "$keep/run-$i.tap"
	seed=$(sed -n 's/^# rounds [0-9]*, seed \([0-9]*\).*/\1/p' "$out")
	# "# summary: rounds R, jobs acknowledged A, lost L, doubled D, wrong W,
	# kills lost K"
	set -- $(sed -n 's/^# summary: rounds \([0-9]*\), jobs acknowledged \([0-9]*\), lost \([0-9]*\), doubled \([0-9]*\), wrong \([0-9]*\), kills lost \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' "$out")
	nfail=$(grep -a '^not ok' "$out" | grep -avc '# TODO')
	if [ $# -ne 6 ]; then
		echo "crash-soak: run $i (seed $seed) ended without a summary (status $rc):"
		grep -a '^not ok\|^# ' "$out" | grep -av '^# [A-Z][a-z][a-z] [0-9]' | head -n 20
		failed=$((failed + nfail + 1))
		runs=$((runs + 1))
		continue
	fi
	runs=$((runs + 1))
	rounds=$((rounds + $1))
	acked=$((acked + $2))
	lost=$((lost + $3))
	doubled=$((doubled + $4))
	wrong=$((wrong + $5))
	klost=$((klost + $6))
	failed=$((failed + nfail))
	echo "crash-soak: run $i (seed $seed): rounds $1, jobs acknowledged $2," \
		"lost $3, doubled $4, wrong $5, kills lost $6, failed checks $nfail," \
		"$(($(date +%s) - t0)) s"
	if [ "$nfail" -ne 0 ]; then
		grep -a '^not ok\|^# job ' "$out" | grep -av '# TODO' | head -n 20 | sed 's/^/    /'
	fi
done
echo "crash-soak: runs $runs, rounds $rounds, jobs acknowledged $acked, lost $lost," \
	"doubled $doubled, wrong $wrong, kills lost $klost, failed checks $failed," \
	"$(($(date +%s) - start)) s"
[ "$failed" -eq 0 ] && [ "$klost" -eq 0 ]
