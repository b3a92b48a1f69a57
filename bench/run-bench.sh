#!/bin/sh
# bench/run-bench.sh: the `make bench` harness.
#
# Runs each figure script bench/fig/SCRIPT.sh named in bench/figures.tsv
# several times, each run in a fresh TMPDIR with top_builddir, top_srcdir
# and BENCH_SMOKE set (the figure contract, bench/README.md), collects the
# `result<TAB>ID<TAB>VALUE<TAB>UNIT` lines and prints one table: per figure
# the median, min and max, its target and whether the median meets it,
# under a header naming the machine and the date.  The table also goes to
# $top_builddir/bench/results.md (results-smoke.md with BENCH_SMOKE=1), and
# each run's stdout and stderr to $top_builddir/bench/logs/ (logs-smoke/).
#
# Variables:
#   top_builddir, top_srcdir   required, absolute
#   BENCH_ONLY=submit,latency  run only these scripts
#   BENCH_RUNS=N               runs per script (default: figures.tsv; 1 smoke)
#   BENCH_SMOKE=1              tiny sizes: checks that every script works and
#                              prints every figure; the numbers mean nothing
#   BENCH_TIMEOUT=S            limit per run (default 3600; smoke 300)
#   BENCH_TMPDIR=DIR           where the runs' temp dirs go (default TMPDIR)
#
# Exit status: 0 when every run succeeded and every figure of the scripts
# run printed a result; 1 otherwise (after the table and the stderr tail of
# each failed run).  Targets missed do not fail: they are what the table
# shows.
set -u
: "${top_builddir:?}" "${top_srcdir:?}"
export top_builddir top_srcdir

smoke=0
[ "${BENCH_SMOKE:-0}" = 1 ] && smoke=1
export BENCH_SMOKE=$smoke
data="$top_srcdir/bench/figures.tsv"
timeout_s=${BENCH_TIMEOUT:-3600}
[ "$smoke" = 1 ] && timeout_s=${BENCH_TIMEOUT:-300}
base=${BENCH_TMPDIR:-${TMPDIR:-/tmp}}
if [ "$smoke" = 1 ]; then
	out="$top_builddir/bench/results-smoke.md"
else
	out="$top_builddir/bench/results.md"
fi

# Every run's stdout and stderr are kept here until the next run.
logs="$top_builddir/bench/logs"
[ "$smoke" = 1 ] && logs="$top_builddir/bench/logs-smoke"
rm -rf "$logs" && mkdir -p "$logs" || exit 1

work=$(mktemp -d "$base/bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
: >"$work/results"
: >"$work/failures"
: >"$work/scripts"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }

# The scripts in the order of the data file, each once, with its run count.
awk -F '\t' '!/^#/ && $1 != "id" && NF >= 6 && !seen[$2]++ { print $2 "\t" $3 }' \
	"$data" >"$work/plan"
if [ -n "${BENCH_ONLY:-}" ]; then
	for s in $(echo "$BENCH_ONLY" | tr ',' ' '); do
		awk -v s="$s" '$1 == s { f = 1 } END { exit !f }' "$work/plan" || {
			echo "run-bench: BENCH_ONLY: no script '$s' in $data" >&2
			exit 2
		}
	done
	echo ",$BENCH_ONLY," | tr -d ' ' >"$work/only"
	awk 'NR == FNR { only = $0; next } index(only, "," $1 ",")' \
		"$work/only" "$work/plan" >"$work/plan.only"
	mv "$work/plan.only" "$work/plan"
fi

# One run: its stdout's result lines go to $work/results as
# "SCRIPT RUN ID VALUE UNIT"; a failure goes to $work/failures.
run_one() {
	s=$1 r=$2 n=$3
	d=$(mktemp -d "$base/bench-$s.XXXXXX") || return 1
	t0=$(now_ms)
	TMPDIR=$d timeout -k 30 "$timeout_s" \
		sh "$top_srcdir/bench/fig/$s.sh" >"$work/$s.$r.out" 2>"$work/$s.$r.err"
	rc=$?
	t=$(secs $(($(now_ms) - t0)))
	cp "$work/$s.$r.out" "$work/$s.$r.err" "$logs/" 2>/dev/null
	echo "$s $t" >>"$work/scripts"
	# A failed run's numbers are not counted.
	[ "$rc" -eq 0 ] && awk -F '\t' -v s="$s" -v r="$r" '
		$1 == "result" && NF >= 4 { print s "\t" r "\t" $2 "\t" $3 "\t" $4 }' \
		"$work/$s.$r.out" >>"$work/results"
	if [ "$rc" -ne 0 ]; then
		why="exit status $rc"
		[ "$rc" -eq 124 ] && why="timed out after ${timeout_s}s"
		# Scripts that source tests/lib.sh say why on stdout (TAP-style
		# "# " lines, then the daemons' logs): show its start too.
		{
			echo "#### fig/$s.sh, run $r of $n: $why"
			echo
			echo "Full output: $logs/$s.$r.out and .err"
			echo
			if [ -s "$work/$s.$r.err" ]; then
				echo "stderr, last 25 lines:"
				echo '```'
				tail -n 25 "$work/$s.$r.err"
				echo '```'
			fi
			if grep -qv '^result	' "$work/$s.$r.out"; then
				echo "stdout, first 15 lines:"
				echo '```'
				grep -v '^result	' "$work/$s.$r.out" | head -n 15
				echo '```'
			fi
			echo
		} >>"$work/failures"
		echo "run-bench: $s run $r/$n: FAILED ($why, $t s)" >&2
	else
		echo "run-bench: $s run $r/$n: $t s" >&2
	fi
	rm -rf "$d"
}

while read -r s runs; do
	[ -n "${BENCH_RUNS:-}" ] && runs=$BENCH_RUNS
	[ "$smoke" = 1 ] && [ -z "${BENCH_RUNS:-}" ] && runs=1
	if [ ! -f "$top_srcdir/bench/fig/$s.sh" ]; then
		printf '#### fig/%s.sh: missing\n\n' "$s" >>"$work/failures"
		echo "run-bench: bench/fig/$s.sh is missing" >&2
		continue
	fi
	r=1
	while [ "$r" -le "$runs" ]; do
		run_one "$s" "$r" "$runs" </dev/null
		r=$((r + 1))
	done
done <"$work/plan"

# ---- the machine ------------------------------------------------------------

cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(uname -m)
cores=$(nproc 2>/dev/null || echo '?')
mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
kernel="$(uname -s) $(uname -r)"
fs=$(df -PT "$base" 2>/dev/null | awk 'NR == 2 { print $2 }')
[ -n "$fs" ] || fs=$(stat -f -c %T "$base" 2>/dev/null)
rev=$(git -C "$top_srcdir" describe --always --dirty 2>/dev/null || echo '?')
when=$(date -u '+%Y-%m-%d %H:%M UTC')

# ---- the table --------------------------------------------------------------

{
	if [ "$smoke" = 1 ]; then
		echo "### Basalt benchmarks (smoke sizes: the numbers mean nothing)"
	else
		echo "### Basalt benchmarks"
	fi
	echo
	echo "- Machine: $cpu, $cores cores, $mem, $kernel; temp dir $base on $fs"
	echo "- Date: $when; source $rev"
	echo "- Median, min and max over the runs of each figure; a target is met"
	echo "  when the median meets it (floors: the median measured in the same runs)"
	echo
	awk -F '\t' -v smoke="$smoke" '
	function num(x) { return x + 0 }
	# Median of the n values in v[1..n] (sorted in place).
	function sort_n(v, n,   i, j, t) {
		for (i = 2; i <= n; i++) {
			t = v[i]
			for (j = i - 1; j >= 1 && v[j] > t; j--)
				v[j + 1] = v[j]
			v[j + 1] = t
		}
	}
	function fmt(x) {
		if (x == "") return "-"
		if (x >= 100) return sprintf("%.0f", x)
		if (x >= 10) return sprintf("%.1f", x)
		if (x >= 1) return sprintf("%.2f", x)
		return sprintf("%.3f", x)
	}
	FILENAME == ARGV[1] {
		if (/^#/ || $1 == "id" || NF < 6) next
		nfig++
		ids[nfig] = $1; script[$1] = $2; unit[$1] = $4
		target[$1] = $5; what[$1] = $6
		next
	}
	FILENAME == ARGV[2] { ran[$1] = 1; next }
	{
		k = $3
		cnt[k]++
		val[k, cnt[k]] = num($4)
		if (unit[k] != "" && $5 != unit[k]) badunit[k] = $5
	}
	END {
		for (f = 1; f <= nfig; f++) {
			k = ids[f]
			if (!(k in cnt)) continue
			n = cnt[k]
			for (i = 1; i <= n; i++) v[i] = val[k, i]
			sort_n(v, n)
			med[k] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			lo[k] = v[1]; hi[k] = v[n]
		}
		print "| Figure | Unit | Median | Min | Max | Runs | Target | Met | What |"
		print "|---|---|---:|---:|---:|---:|---|---|---|"
		for (f = 1; f <= nfig; f++) {
			k = ids[f]
			if (!(script[k] in ran)) continue
			t = target[k]; shown = "-"; met = "-"
			if (t != "-" && t != "") {
				m = split(t, p, " ")
				op = p[1]
				if (m >= 3) {
					ref = p[3]
					shown = op " " p[2] " x " ref
					if (ref in med) {
						goal = p[2] * med[ref]
						shown = shown " (" fmt(goal) ")"
					} else
						goal = ""
				} else {
					goal = p[2]; shown = op " " p[2]
				}
				if (!(k in med) || goal == "")
					met = "?"
				else {
					x = med[k]; goal = num(goal)
					ok = (op == "<" && x < goal) || (op == "<=" && x <= goal) ||
					    (op == ">" && x > goal) || (op == ">=" && x >= goal)
					met = ok ? "yes" : "**no**"
				}
				if (smoke) met = "(smoke)"
			}
			u = unit[k]
			if (k in badunit) u = u " (script says " badunit[k] ")"
			if (k in med)
				printf "| %s | %s | %s | %s | %s | %d | %s | %s | %s |\n", k, u,
				    fmt(med[k]), fmt(lo[k]), fmt(hi[k]), cnt[k], shown, met, what[k]
			else
				printf "| %s | %s | - | - | - | 0 | %s | %s | %s |\n", k, u,
				    shown, met, what[k] " **(no result)**"
		}
	}' "$data" "$work/plan" "$work/results"
	echo
	awk '{ t[$1] += $2; n[$1]++; if (!($1 in o)) { o[$1] = ++k; s[k] = $1 } }
	END {
		line = "- Wall time per run:"
		for (i = 1; i <= k; i++)
			line = line sprintf("%s %s %.1f s", i > 1 ? "," : "", s[i],
			    t[s[i]] / n[s[i]])
		if (k > 0) print line
	}' "$work/scripts"
} >"$work/table.md"

# Figures of the scripts run that printed nothing: a failure too (a script
# that exits 0 without its result lines is broken).
awk -F '\t' 'FILENAME == ARGV[1] { ran[$1] = 1; next }
	FILENAME == ARGV[2] { got[$3] = 1; next }
	/^#/ || $1 == "id" || NF < 6 { next }
	($2 in ran) && !($1 in got) { print $1 " (fig/" $2 ".sh)" }' \
	"$work/plan" "$work/results" "$data" >"$work/missing"
if [ -s "$work/missing" ]; then
	{
		echo "#### Figures with no result line"
		echo
		sed 's/^/- /' "$work/missing"
		echo
	} >>"$work/failures"
fi

mkdir -p "$(dirname "$out")"
if [ -s "$work/failures" ]; then
	{ echo; echo "### Failures"; echo; cat "$work/failures"; } >>"$work/table.md"
fi
cp "$work/table.md" "$out"
echo
cat "$work/table.md"
echo "(written to $out)" >&2
[ ! -s "$work/failures" ]
