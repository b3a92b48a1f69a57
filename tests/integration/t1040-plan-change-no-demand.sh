#!/bin/sh
# A plan change takes back what a consumer holds above the new plan
# whether or not another consumer asks for it (the seed's "Time interval
# transitions"), on real daemons: two virtual hosts of 4 slots, /a and /b
# ownership consumers (no lending); /a owns all 8 by the plan without
# TIME_WINDOW and 4 by a plan whose window opens at the first whole minute
# at least 20 s after the start.  /a runs 8 jobs, /b submits nothing.
# `bconsumers -at` that minute names 4 of /a's jobs reclaimed for no one;
# when the window opens they get the notice ("Reclaimed at a plan change")
# and are requeued after /a's 3 s grace, though nobody waits for their
# slots.  Then badmin reconfig lowers /a's window plan to 2: 2 more go.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=4
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
now=$(date +%s)
open=$(( (now + 20) / 60 * 60 + 60 ))
begin=$(date -d "@$open" +%H:%M)
end=$(date -d "@$((open + 3600))" +%H:%M)
plans() {
	cat >"$lsb/lsb.consumers" <<C
Begin ResourceGroup
NAME  = rg1
HOSTS = all
End ResourceGroup

Begin Consumer
NAME   = /a
POLICY = ownership
End Consumer

Begin Consumer
NAME   = /b
POLICY = ownership
End Consumer

Begin Plan
RESOURCE_GROUP = rg1
CONSUMER  OWNED  GRACE_PERIOD
/a        8      3
/b        0      3
End Plan

Begin Plan
RESOURCE_GROUP = rg1
TIME_WINDOW    = $begin-$end
CONSUMER  OWNED  GRACE_PERIOD
/a        $1     3
/b        $2     3
End Plan
C
}
plans 4 4
{
	for c in a b; do
		printf 'Begin Queue\nQUEUE_NAME = q%s\nPRIORITY = 30\nCONSUMER = /%s\nEnd Queue\n\n' "$c" "$c"
	done
	printf 'Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 10\nEnd Queue\n'
} >"$lsb/lsb.queues"
start_mbd || exit 1
for h in vh1 vh2; do start_sbd "$h" || exit 1; done

running_a() { bjobs -r -u all -noheader -o consumer 2>/dev/null | grep -cx /a; }
runs_a() { [ "$(running_a)" -eq "$1" ]; }
col() { bconsumers -w | awk -v p="$1" -v n="$2" '$1 == p {print $n}'; }
quotas_are() { [ "$(col /a 10) $(col /b 10)" = "$1" ]; }
i=0
while [ "$i" -lt 8 ]; do
	bsub -q qa -o /dev/null sleep 600 >/dev/null || break
	i=$((i + 1))
done
check "before the window /a runs its 8 owned slots" wait_for 20 runs_a 8
check "bconsumers QUOTA is 8 and 0" wait_for 5 quotas_are "8 0"

at=$(bconsumers -at "$begin")
diag "$at"
named=$(printf '%s\n' "$at" | awk '$5 == "reclaim-notice" && $4 == "/a" && $6 == "-" && $8 == 3 {print $1}' | sort -n | tr '\n' ' ')
check "bconsumers -at: 4 of /a's jobs would be reclaimed for no one, 3 s grace" \
	test "$(echo $named | wc -w)" -eq 4
plan_notice() {
	for j in $(bjobs -u all -noheader -o jobid); do
		says bjobs "$j" 'Reclaimed at a plan change' && echo "$j"
	done | sort -n | tr '\n' ' '
}
check "nothing is reclaimed before the window opens" test -z "$(plan_notice)"
check "the window opens: QUOTA 4 and 4" wait_for $((open - $(date +%s) + 20)) quotas_are "4 4"
check "not before the window opened" test "$(date +%s)" -ge "$open"
requeued() {
	n=0
	for j in $named; do
		bhist -l "$j" 2>/dev/null | unwrapped | grep -q 'Requeued: reclaimed at a plan change' &&
			n=$((n + 1))
	done
	[ "$n" -eq 4 ]
}
check "with nobody asking, the 4 jobs bconsumers -at named are requeued after the grace" \
	wait_for 20 requeued
check "/a runs on its 4 owned slots" wait_for 10 runs_a 4
j1=$(echo $named | cut -d' ' -f1)
check "bhist -l shows the notice of a plan change" \
	says bhist "$j1" 'Reclaimed at a plan change (borrowed slots of consumer </a>)'
check "bjobs -l of the requeued job says why" says bjobs "$j1" 'Requeued: reclaimed at a plan change'

# A reconfig is a plan change too: /a's window plan down to 2.
plans 2 6
check "badmin reconfig" sh -c 'badmin reconfig >/dev/null 2>&1'
check "after the reconfig, /a gives back 2 more with nobody asking" wait_for 20 runs_a 2
bkill -u all 0 >/dev/null 2>&1
done_testing
