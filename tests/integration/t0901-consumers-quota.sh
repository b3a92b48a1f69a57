#!/bin/sh
# A three-consumer hybrid plan on three virtual hosts of 4 slots (12 in
# all, PLAN_SLOTS 12): /a owns 6, /b owns 4 and reserves 2, /c owns 2.
# Flooded together (/c's jobs through /a's queue with bsub -consumer), the
# consumers settle at their quotas, 6, 4 and 2, and
# bjobs' counts per consumer match bconsumers' QUOTA and ALLOC.  Alone,
# /a borrows every slot but the 2 /b reserves; its waiting jobs say the
# consumer's quota holds them, and bhist -l records it once (a restarted
# mbatchd replays it and does not write it again); when /b starts
# submitting its reserved slots are its at once.  A consumer that starts
# submitting gets the idle slots at once.  A host going away scales the
# owned slots bconsumers shows (SCALED) to the group's new size.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=4
make_cluster vh1 vh2 vh3
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.consumers" <<'C'
Begin ResourceGroup
NAME       = rg1
HOSTS      = all
PLAN_SLOTS = 12
End ResourceGroup

Begin Consumer
NAME = /a
End Consumer

Begin Consumer
NAME = /b
End Consumer

Begin Consumer
NAME = /c
End Consumer

Begin Plan
RESOURCE_GROUP = rg1
CONSUMER  OWNED  RESERVED  LIMIT  RANK
/a        6      0         -      0
/b        4      2         -      0
/c        2      0         -      0
End Plan
C
consumer_queues a b c
start_mbd || exit 1
for h in vh1 vh2 vh3; do start_sbd "$h" || exit 1; done

counts_are() { [ "$(running_of /a) $(running_of /b) $(running_of /c)" = "$1" ]; }
# consumer_col PATH N (tests/lib.sh): column N of PATH's bconsumers -w row (9 DEMAND, 10 QUOTA, 11 ALLOC)
figures_are() {   # figures_are COLUMN "a b c"
	[ "$(consumer_col /a "$1") $(consumer_col /b "$1") $(consumer_col /c "$1")" = "$2" ]
}
all_gone() { ! bjobs -u all >/dev/null 2>&1; }
say() { diag "running /a /b /c: $(running_of /a) $(running_of /b) $(running_of /c)"; diag "$(bconsumers -w)"; }

# One pass sees every consumer's demand at once.  /c's jobs go through
# qa with bsub -consumer: the scheduler counts them against /c.
badmin qinact qa qb >/dev/null
submit_n qa 12 && submit_n qb 12 && submit_n qa 12 -consumer /c
badmin qact qa qb >/dev/null
check "flooded together, the consumers run 6, 4 and 2" wait_for 20 counts_are "6 4 2"
check "and stay there" sh -c "sleep 1; [ \"\$(bjobs -r -u all -noheader -o consumer | grep -cx /a)\" -eq 6 ]"
check "bconsumers QUOTA is 6, 4 and 2" wait_for 5 figures_are 10 "6 4 2"
check "bconsumers ALLOC matches bjobs' counts" \
	wait_for 5 figures_are 11 "$(running_of /a) $(running_of /b) $(running_of /c)"
check "bconsumers DEMAND counts running and pending slots" wait_for 5 figures_are 9 "12 12 12"
check "a waiting job names its consumer's quota" \
	sh -c "bjobs -p -u all -q qa -noheader -o pend_reason | grep -q \"The consumer's quota in resource group rg1 is reached;\""
say

bkill -u all 0 >/dev/null 2>&1
wait_for 30 all_gone

# /a alone borrows all but the 2 slots /b reserves.
submit_n qa 12
check "alone, /a runs 10: /b's 2 reserved slots stay idle" wait_for 20 counts_are "10 0 0"
check "and stays at 10" sh -c "sleep 1; [ \"\$(bjobs -r -u all -noheader -o consumer | grep -cx /a)\" -eq 10 ]"
check "bconsumers: /a's QUOTA 10, /b's 2 with no demand" \
	wait_for 5 sh -c "[ \"\$(bconsumers -w | awk '\$1 == \"/a\" {print \$10} \$1 == \"/b\" {print \$9, \$10}' | tr '\n' ' ')\" = '10 0 2 ' ]"
check "bconsumers: /a BORROWED 4" sh -c "[ \"\$(bconsumers -w | awk '\$1 == \"/a\" {print \$12}')\" = 4 ]"
pend=$(bjobs -p -u all -q qa -noheader -o jobid | head -n 1 | tr -d ' ')
# one_quota_record: a while later, bhist -l still shows one quota record.
one_quota_record() {
	sleep 2
	[ "$(bhist -l "$pend" | unwrapped | grep -o 'Pending: The consumer' | wc -l)" -eq 1 ]
}
check "bhist -l records that the consumer's quota holds a job" \
	wait_for 5 says bhist "$pend" "Pending: The consumer's quota in resource group rg1 is reached;"
check "once, not every cycle" \
	one_quota_record
check "bconsumers -l says why /a's quota is what it is" \
	sh -c "bconsumers -l /a | grep -q '^QUOTA: .'"
# The record is replayed on restart: a new mbatchd does not write it again.
stop_mbd
start_mbd || exit 1
check "after a restart the jobs are back" wait_for 10 counts_are "10 0 0"
check "and a scheduling cycle has run" \
	wait_for 10 sh -c "bconsumers -l /a | grep -q '^Figures of the scheduling cycle'"
check "the journal still holds one quota record for the job" \
	one_quota_record
# /b asks: its reserved slots are there at once.
b1=$(bsub -q qb -o /dev/null sleep 300 | job_id_of)
b2=$(bsub -q qb -o /dev/null sleep 300 | job_id_of)
check "/b's jobs start on its reserved slots at once" \
	wait_for 5 sh -c "[ \"\$(bjobs -noheader -o stat $b1 $b2 | tr -d ' ' | tr '\n' ' ')\" = 'RUN RUN ' ]"
check "/a keeps its 10" counts_are "10 2 0"
say

bkill -u all 0 >/dev/null 2>&1
wait_for 30 all_gone

# Idle slots: /a uses 4 of its 6; /c starts submitting and takes every
# slot no one uses or reserves (12 - 4 - /b's 2) at once.
submit_n qa 4
wait_for 10 counts_are "4 0 0"
submit_n qa 8 -consumer /c
check "/c starting to submit gets the 6 idle slots at once" wait_for 5 counts_are "4 0 6"
check "bconsumers: /c's QUOTA 6, BORROWED 4" \
	wait_for 5 sh -c "[ \"\$(bconsumers -w | awk '\$1 == \"/c\" {print \$10, \$12}')\" = '6 4' ]"
say

bkill -u all 0 >/dev/null 2>&1
wait_for 30 all_gone

# A host goes away: the group has 8 slots, owned slots scale by 8/12.
kill -TERM "$(sbd_pid vh3)"
host_unavail() { bhosts -w vh3 | awk '$1 == "vh3" {print $2}' | grep -q unavail; }
check "vh3 is unavail" wait_for 20 host_unavail
check "bconsumers: SCALED is OWNED x 8/12 (4, 3 rounded, 1 rounded)" \
	wait_for 10 figures_are 4 "4 3 1"
check "bconsumers -l: the group has 8 slots now" \
	wait_for 5 sh -c "bconsumers -l /a | grep -q 'PLAN_SLOTS 12, 8 slots now'"
done_testing
