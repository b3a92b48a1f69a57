#!/bin/sh
# A badmin reconfig that leaves lsb.consumers alone is no plan change: on
# real daemons, /a (ownership, all 8 slots of two 4-slot hosts) runs 8
# jobs; vh2's sbatchd stops, so the group shrinks to 4 slots and /a's
# owned (and quota) with it, while it still holds 8.  Nobody asks for the
# slots.  badmin reconfig -preview of a queue's new DESCRIPTION names no
# job, and applying it reclaims nothing.  A reconfig that does change the
# plan (/a's OWNED) is one: its preview names /a's jobs.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=4
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
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
/a        $1     60
/b        0      60
End Plan
C
}
queues() {
	{
		for c in a b; do
			printf 'Begin Queue\nQUEUE_NAME = q%s\nPRIORITY = 30\nCONSUMER = /%s\n' "$c" "$c"
			printf 'DESCRIPTION = %s\nEnd Queue\n\n' "$1"
		done
		printf 'Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 10\nEnd Queue\n'
	} >"$lsb/lsb.queues"
}
plans 8
queues "the first description"
start_mbd || exit 1
for h in vh1 vh2; do start_sbd "$h" || exit 1; done

runs_a() { [ "$(running_of /a)" -eq "$1" ]; }
quota_a_is() { [ "$(consumer_col /a 10)" = "$1" ]; }
submit_n qa 8
check "/a runs its 8 owned slots" wait_for 20 runs_a 8
check "bconsumers: /a's quota is 8" wait_for 5 quota_a_is 8

kill -TERM "$(sbd_pid vh2)"
host_unavail() { bhosts -w vh2 | awk '$1 == "vh2" {print $2}' | grep -q unavail; }
check "vh2 is unavail" wait_for 40 host_unavail
check "the group shrank: /a's quota is 4 while it holds 8" wait_for 10 quota_a_is 4
diag "$(bconsumers -w)"

notices() {
	for j in $(bjobs -u all -noheader -o jobid); do
		says bjobs "$j" 'Reclaimed at a plan change' && echo "$j"
	done | wc -l
}
queues "another description"
out=$(badmin reconfig -preview 2>&1)
diag "$out"
check "the preview of a queue's new description names no job" \
	sh -c 'printf "%s\n" "$1" | grep -q "No running job would be reclaimed"' - "$out"
check "badmin reconfig" sh -c 'badmin reconfig >/dev/null 2>&1'
# A job outside every consumer: once a pass has given it a pending
# reason, the first pass after the reconfig has run.
jid=$(bsub -q normal -o /dev/null sleep 1 | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
scheduled() {
	r=$(bjobs -p -noheader -o pend_reason "$jid" 2>/dev/null)
	[ -n "$r" ] && ! printf '%s' "$r" | grep -qi "new job"
}
check "a pass ran after the reconfig" wait_for 20 scheduled
check "the reconfig reclaimed nothing" test "$(notices)" -eq 0
check "/a still runs 8" runs_a 8

plans 6
out=$(badmin reconfig -preview 2>&1)
diag "$out"
named=$(printf '%s\n' "$out" | awk '$5 == "reclaim-notice" && $4 == "/a"' | wc -l)
check "the preview of /a's OWNED down to 6 names /a's jobs" test "$named" -gt 0
check "mbatchd reported no sanitizer error" \
	sh -c 'test -f "$1/log/mbatchd.out" &&
		! grep -q "runtime error\|AddressSanitizer" "$1/log/mbatchd.out"' sh "$T"
bkill -u all 0 >/dev/null 2>&1
done_testing
