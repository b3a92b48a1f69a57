#!/bin/sh
# bconsumers -at is open to every user, but each new answer is a whole
# scheduling pass on the master, so it is kept cheap: one group with a
# plan in force at five distinct hours of the night (00:10-00:50,
# 01:10-01:50, ... 04:10-04:50) besides the default plan.  A user who is
# not an administrator asks for four of those hours: four passes, all
# answered; a fifth hour is refused with the seconds to wait (exit non-zero);
# asking again for a time whose plans were already previewed in this
# cycle (the same hour, or another minute of the same window) is a lookup
# and is answered, however often.  An administrator is not bound.  No host
# runs a job, so no scheduling cycle starts in between.  -l and -w are
# refused with -at.  badmin reconfig -preview of bad files exits 255.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null ||
	skip_all "needs root and useradd for a user who is not an administrator"
user=bsct$$
add_test_user "$user" "$T/home" || exit 1

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
{
	printf 'Begin ResourceGroup\nNAME  = rg1\nHOSTS = all\nEnd ResourceGroup\n\n'
	printf 'Begin Consumer\nNAME = /a\nEnd Consumer\n\n'
	printf 'Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER  OWNED\n/a        1\nEnd Plan\n\n'
	for h in 0 1 2 3 4; do
		printf 'Begin Plan\nRESOURCE_GROUP = rg1\nTIME_WINDOW = %d:10-%d:50\n' "$h" "$h"
		printf 'CONSUMER  OWNED\n/a        %d\nEnd Plan\n\n' "$((h + 2))"
	done
} >"$lsb/lsb.consumers"
start_mbd || exit 1

as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
ask() { as_user bconsumers -at "$1" >"$T/ask.out" 2>"$T/ask.err"; }

for h in 0 1 2 3; do
	check "the user's preview of $h:20 (a new plan set) is answered" ask "$h:20"
	check "with the window's plan" grep -q "^rg1 .*/a .*$h:10-$h:50" "$T/ask.out"
done
ask 4:20
rc=$?
diag "$(cat "$T/ask.err")"
check "a fifth new plan set within the minute is refused" test "$rc" -ne 0
check "saying how many passes a user may start and when to retry" \
	grep -q 'Too many previews: at most 4 scheduling passes in 60 seconds per user; try again in [0-9]* seconds' "$T/ask.err"
check "and prints no preview" sh -c "! grep -q '^rg1 ' $T/ask.out"
i=0
while [ $i -lt 10 ]; do
	ask 1:20 || break
	i=$((i + 1))
done
check "the same time asked again ten times is answered from the cache" test "$i" -eq 10
check "so is another time of a window already previewed" ask 2:45
check "with that window's plan" grep -q "^rg1 .*/a .*2:10-2:50" "$T/ask.out"
check "an administrator is not bound" sh -c "bconsumers -at 4:20 | grep -q '^rg1 .*/a .*4:10-4:50'"
check "nor is the default plan's preview refused to the administrator" \
	sh -c "bconsumers -at 6:00 | grep -q '^rg1 .*/a '"
# -l and -w have no preview layout: refused, not ignored.
for o in -l -w; do
	bconsumers $o -at 4:20 >"$T/lw.out" 2>&1
	rc=$?
	check "bconsumers $o -at is refused (exit $rc)" test "$rc" -eq 255
	check "saying so" grep -q "^bconsumers: -at cannot be used with $o" "$T/lw.out"
done
# badmin reconfig -preview of files with an error: what badmin(8) says.
printf 'Begin Consumer\nNAME = a\nEnd Consumer\n' >>"$lsb/lsb.consumers"
badmin reconfig -preview >"$T/pv.out" 2>"$T/pv.err"
rc=$?
diag "$(cat "$T/pv.err")"
check "reconfig -preview of a bad configuration exits 255" test "$rc" -eq 255
check "the error is on standard error as file:line: message" \
	grep -q "lsb.consumers:[0-9]*: " "$T/pv.err"
check "then the count line" sh -c "tail -1 $T/pv.err | grep -qx 'The configuration has 1 error(s); nothing to preview'"
check "and nothing on standard output" test ! -s "$T/pv.out"
done_testing
