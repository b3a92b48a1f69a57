#!/bin/sh
# mbatchd/sched is a closed pure pass: a snapshot in, a plan out.  This
# fails when a file there includes a daemon header (anything of mbatchd/
# outside mbatchd/sched/, or a wire-format .pb-c.h) or names a daemon
# symbol (Manager, State, Job, HostLink, manager_*, state_*, hosts_*,
# commit_job*, job_spec) or reads a clock outside a comment: the scheduler
# must read everything, the time included (snap->now), from the snapshot
# and call nothing back.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
dir="$top_srcdir/mbatchd/sched"
n=0
fail=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }

# Code without its comments and string literals, so a comment may say
# "state_apply" and a reason text may say anything.
strip() {
	awk '
	{
		out = ""; line = $0
		while (line != "") {
			if (inc) {
				i = index(line, "*/")
				if (i == 0) { line = ""; break }
				line = substr(line, i + 2); inc = 0; continue
			}
			i = index(line, "/*"); j = index(line, "//")
			if (j > 0 && (i == 0 || j < i)) { out = out substr(line, 1, j - 1); line = ""; break }
			if (i == 0) { out = out line; line = ""; break }
			out = out substr(line, 1, i - 1); line = substr(line, i + 2); inc = 1
		}
		gsub(/"([^"\\]|\\.)*"/, "\"\"", out)
		print out
	}' "$1"
}

for f in "$dir"/*.c "$dir"/*.h; do
	name=${f#"$top_srcdir"/}
	bad=""
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		config.h) ;;
		mbatchd/sched/*) ;;
		mbatchd/* | *.pb-c.h) bad="$bad $inc" ;;
		*/*) # a lib/ header, named from lib/
			[ -f "$top_srcdir/lib/$inc" ] || bad="$bad $inc" ;;
		*) [ -f "$dir/$inc" ] || bad="$bad $inc" ;;
		esac
	done
	if [ -z "$bad" ]; then
		ok "$name includes only sched/, lib/ and system headers"
	else
		notok "$name includes daemon headers:$bad"
	fi
	syms=$(strip "$f" | grep -oE '\<(Manager|State|Job|JobSpecRef|HostLink|QueueRt|HostRt|Build|manager_[a-z_]+|state_[a-z_]+|hosts_[a-z_]+|commit_job[a-z_]*|job_spec|snapshot_build)\>' | sort -u | tr '\n' ' ')
	if [ -z "$syms" ]; then
		ok "$name names no daemon symbol"
	else
		notok "$name names daemon symbols: $syms"
	fi
	clocks=$(strip "$f" | grep -oE '\<(g_get_real_time|g_get_monotonic_time|g_date_time_new_now[a-z_]*|time|clock_gettime|gettimeofday|localtime[a-z_]*)[[:space:]]*\(' | sort -u | tr '\n' ' ')
	if [ -z "$clocks" ]; then
		ok "$name reads no clock"
	else
		notok "$name reads a clock: $clocks"
	fi
done
echo "1..$n"
exit $fail
