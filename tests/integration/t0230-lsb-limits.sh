#!/bin/sh
# lsb.resources Limit sections on real daemons: a USERS slot limit holds
# jobs with a pending reason naming it, blimits shows its usage and its
# configured form, badmin reconfig raising it starts jobs, lowering it
# leaves running jobs alone while new dispatches respect it, and a bad
# value is refused by ckconfig with file:line.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=3
make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
me=$(id -un)
lsb="$T/conf/lsbatch/basalt/configdir"

limit() {   # limit N: my jobs may hold N slots together
	cat >"$lsb/lsb.resources" <<R
Begin Limit
NAME  = ulim
USERS = $me
SLOTS = $1
End Limit
R
	badmin reconfig >"$T/reconfig.out" 2>&1 || {
		not_ok "reconfig with SLOTS = $1"; sed 's/^/# /' "$T/reconfig.out"
	}
}

running() { bjobs -r -noheader -o jobid 2>/dev/null | grep -c .; }
running_is() { [ "$(running)" -eq "$1" ]; }
reason_names_limit() {
	bjobs -p -noheader -o pend_reason 2>/dev/null | grep -q "Limit Name: ulim"
}

limit 2
i=0
while [ "$i" -lt 4 ]; do
	bsub -o /dev/null sleep 300 >/dev/null
	i=$((i + 1))
done
check "SLOTS = 2: two jobs run" wait_for 10 running_is 2
check "the others wait with a reason naming the limit" wait_for 10 reason_names_limit
check "and no more start" sh -c "sleep 0.5; [ \$(bjobs -r -noheader -o jobid | grep -c .) -eq 2 ]"
first=$(bjobs -r -noheader -o jobid | sort | tr '\n' ' ')

check "blimits shows the limit with its usage" \
	sh -c "blimits | grep -E '^ +ulim +$me .* 2/2 ' >/dev/null"
check "blimits -u names the user's limit" sh -c "blimits -u $me | grep -q ulim"
check "blimits -u other shows nobody's limit" \
	sh -c "! blimits -u nosuchuser | grep -q ulim"
names=$(seq 1 300 | sed 's/^/u/' | tr '\n' ' ')
check "blimits refuses an overlong name list" \
	sh -c "! blimits -u '$names' >/dev/null 2>&1"
check "blimits -c shows the section as configured" \
	sh -c "blimits -c | grep -q '^SLOTS *= 2'"

limit 3
check "raised to 3 by reconfig: a third job starts" wait_for 10 running_is 3
check "the first two kept running" sh -c "for j in $first; do bjobs -noheader -o stat \$j | grep -q RUN || exit 1; done"

limit 1
check "lowered to 1: the three running jobs are not touched" \
	sh -c "sleep 1; [ \$(bjobs -r -noheader -o jobid | grep -c .) -eq 3 ]"
check "blimits shows the usage over the new limit" \
	sh -c "blimits | grep -q ' 3/1 '"
victim=$(bjobs -r -noheader -o jobid | head -n 1)
bkill "$victim" >/dev/null 2>&1
check "one ends: the limit still holds the pending job" \
	sh -c "sleep 1; [ \$(bjobs -r -noheader -o jobid | grep -c .) -eq 2 ]"
check "and says so" reason_names_limit

cat >"$lsb/lsb.resources" <<R
Begin Limit
NAME  = bad
USERS = $me
SLOTS = lots
End Limit
R
check "ckconfig refuses a bad SLOTS at its line" \
	sh -c "badmin ckconfig 2>&1 | grep -q \"lsb.resources:4: bad value 'lots' for SLOTS\""

bkill 0 >/dev/null 2>&1
done_testing
