#!/bin/sh
# bscenario(8) as an administrator runs it: the plan it prints can be
# pasted back as expectations and then checks clean; -c exits 1 on a
# difference and names the line; bad input exits 2 with file:line.
# No daemons: the tool never contacts one.
set -u
tool="$top_builddir/tools/scenario/bscenario"
dir="$top_srcdir/tests/sched"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bscenario-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }

echo 1..7

# Print: the plan of the P2 example, as expect lines.
"$tool" "$dir/seed-preempt-p2-least-loaded.scn" > "$tmp/plan" 2> "$tmp/err"
check "the plan prints, exit 0" test $? -eq 0
check "the plan is the expected decisions" \
    test "$(grep '^expect' "$tmp/plan")" = "$(printf 'expect preempt 2 for 10\nexpect dispatch 10 on h1\nexpect wake none')"

# Paste: the file without its expectations plus the printed plan checks ok.
grep -v '^expect' "$dir/seed-preempt-p2-least-loaded.scn" > "$tmp/pasted.scn"
grep '^expect' "$tmp/plan" >> "$tmp/pasted.scn"
"$tool" -c "$tmp/pasted.scn" > "$tmp/out" 2>&1
check "the printed plan, pasted back, checks" test $? -eq 0

# A wrong expectation: exit 1, the missing line with file:line, the actual.
sed 's/^expect dispatch 10 on h1$/expect dispatch 10 on h2/' \
    "$dir/seed-preempt-p2-least-loaded.scn" > "$tmp/wrong.scn"
"$tool" -c "$tmp/wrong.scn" > "$tmp/out" 2>&1
check "-c exits 1 on a difference" test $? -eq 1
check "the difference names the line and what the plan did" \
    sh -c "grep -q '^- dispatch 10 on h2 .*wrong.scn:[0-9]' '$tmp/out' && grep -q '^+ dispatch 10 on h1' '$tmp/out'"

# Bad input: exit 2, file:line on stderr.
printf 'host h1\npend 1 queue=nosuch\n' > "$tmp/bad.scn"
"$tool" -c "$tmp/bad.scn" > /dev/null 2> "$tmp/err"
check "bad input exits 2" test $? -eq 2
check "and says file:line: message" grep -q "bad.scn:2: no queue nosuch" "$tmp/err"
