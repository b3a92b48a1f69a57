#!/bin/sh
# badmin reconfig -preview on real daemons: two virtual hosts of 4 slots,
# /a owns 6 and /b 2, both flooded, running 6 and 2.  A new plan on disk
# (/a 2, /b 6) previewed: each consumer's new quota against the current
# one and the /a jobs the reclaim stage would take back for /b, with /a's
# 45 s grace deadline; nothing changes (bconsumers still 6 and 2, the
# journal has no reconfiguration).  Then badmin reconfig applies it: the
# quotas bconsumers shows are the ones the preview printed, and the jobs
# that get the reclaim notice are the ones it named.  A plan
# with an error is previewed as reconfig would refuse it (file:line) and
# nothing changes; a user who is not an administrator is refused
# -preview but may run bconsumers -at.
. "$top_srcdir/tests/lib.sh"

user=""
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	user=bsct$$
	add_test_user "$user" "$T/home" || exit 1
fi

BS_MXJ=4
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
plan() {   # plan OWNED_OF_A OWNED_OF_B
	cat >"$lsb/lsb.consumers" <<C
Begin ResourceGroup
NAME  = rg1
HOSTS = all
End ResourceGroup

Begin Consumer
NAME = /a
End Consumer

Begin Consumer
NAME = /b
End Consumer

Begin Plan
RESOURCE_GROUP = rg1
CONSUMER  OWNED  GRACE_PERIOD
/a        $1     45
/b        $2     45
End Plan
C
}
plan 6 2
consumer_queues a b
start_mbd || exit 1
for h in vh1 vh2; do start_sbd "$h" || exit 1; done

counts_are() { [ "$(running_of /a) $(running_of /b)" = "$1" ]; }
quotas_are() { [ "$(consumer_col /a 10) $(consumer_col /b 10)" = "$1" ]; }
reconfigs() { badmin mbdhist 2>/dev/null | grep -c 'reconfigured'; }

badmin qinact qa qb >/dev/null
submit_n qa 8 && submit_n qb 8
badmin qact qa qb >/dev/null
check "/a and /b run 6 and 2" wait_for 20 counts_are "6 2"
check "bconsumers QUOTA is 6 and 2" wait_for 5 quotas_are "6 2"
before=$(reconfigs)

plan 2 6
badmin reconfig -preview >"$T/preview.out" 2>"$T/preview.err"
rc=$?
diag "$(cat "$T/preview.out" "$T/preview.err")"
check "reconfig -preview succeeds" test "$rc" -eq 0
row() { awk -v p="$1" '$1 == "rg1" && $2 == p {print $4, $5, $6, $7}' "$T/preview.out"; }
check "the preview: /a quota 6 now, 2 with the new plan, 6 held, 4 over" test "$(row /a)" = "6 2 6 4"
check "the preview: /b quota 2 now, 6 with the new plan" test "$(row /b)" = "2 6 2 0"
awk '$5 == "reclaim-notice" {print $1, $4, $6, $8}' "$T/preview.out" | sort >"$T/notices"
check "4 of /a's jobs would be reclaimed for /b with /a's 45 s grace" \
	sh -c "[ \"\$(grep -c '^[0-9]* /a /b 45\$' $T/notices)\" -eq 4 ]"
for id in $(awk '{print $1}' "$T/notices"); do
	check "job $id named by the preview is one of /a's running jobs" \
		sh -c "[ \"\$(bjobs -noheader -o 'stat consumer' $id | tr -s ' ')\" = 'RUN /a' ]"
done
check "the preview applied nothing: QUOTA still 6 and 2" quotas_are "6 2"
check "and journaled no reconfiguration" test "$(reconfigs)" = "$before"

if [ -n "$user" ]; then
	as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
	check "a user who is not an administrator is refused -preview" \
		sh -c "! runuser -u $user -- env PATH=\"$PATH\" LSF_ENVDIR=\"$LSF_ENVDIR\" badmin reconfig -preview >/dev/null 2>&1"
	check "but may run bconsumers -at" \
		sh -c "runuser -u $user -- env PATH=\"$PATH\" LSF_ENVDIR=\"$LSF_ENVDIR\" bconsumers -at 23:59 | grep -q '^rg1 .*/a '"
fi

badmin reconfig -f >/dev/null 2>&1
check "applied: bconsumers QUOTA is what the preview said, 2 and 6" wait_for 10 quotas_are "2 6"
check "the applied reconfiguration is journaled (the preview's was not)" \
	test "$(reconfigs)" -gt "$before"
# The reclaim the preview announced, done: the same jobs get the notice.
reclaimed() {
	for j in $(bjobs -r -u all -noheader -o jobid); do
		says bjobs "$j" 'Reclaimed for consumer </b>' && echo "$j"
	done | sort -n | tr '\n' ' '
}
n_reclaimed() { [ "$(reclaimed | wc -w)" -eq "$1" ]; }
check "applied: 4 running jobs get the reclaim notice" wait_for 15 n_reclaimed 4
check "they are the jobs the preview named" \
	test "$(reclaimed)" = "$(awk '{print $1}' "$T/notices" | sort -n | tr '\n' ' ')"
diag "reclaimed: $(reclaimed); previewed: $(awk '{print $1}' "$T/notices" | tr '\n' ' ')"

# A plan with an error: the preview reports it as reconfig would.
sed -i 's/^\/b        6/\/b        x/' "$lsb/lsb.consumers"
line=$(grep -n '^/b ' "$lsb/lsb.consumers" | cut -d: -f1)
check "a bad plan's preview fails" sh -c "! badmin reconfig -preview >$T/bad.out 2>&1"
check "with the error at its line" grep -q "lsb.consumers:$line:" "$T/bad.out"
check "and prints no preview" sh -c "! grep -q QUOTA_NOW $T/bad.out"
check "nothing changed: QUOTA 2 and 6" quotas_are "2 6"
# Two plans of one group whose windows overlap: refused at the second's
# TIME_WINDOW line, by the preview as by reconfig.
plan 2 6
cat >>"$lsb/lsb.consumers" <<C

Begin Plan
RESOURCE_GROUP = rg1
TIME_WINDOW    = 8:00-17:00
CONSUMER  OWNED
/a        4
/b        4
End Plan

Begin Plan
RESOURCE_GROUP = rg1
TIME_WINDOW    = 16:30-18:00
CONSUMER  OWNED
/a        1
/b        7
End Plan
C
first=$(grep -n '^Begin Plan' "$lsb/lsb.consumers" | sed -n 2p | cut -d: -f1)
twline=$(grep -n '^TIME_WINDOW    = 16:30' "$lsb/lsb.consumers" | cut -d: -f1)
check "overlapping plan windows: the preview fails" sh -c "! badmin reconfig -preview >$T/ovl.out 2>&1"
check "at the TIME_WINDOW line, naming the plan it overlaps" \
	grep -q "lsb.consumers:$twline: TIME_WINDOW of resource group rg1 overlaps the plan at line $first" "$T/ovl.out"
check "badmin reconfig refuses it the same way" \
	sh -c "badmin reconfig -f 2>&1 | grep -q 'lsb.consumers:$twline: TIME_WINDOW'"
check "nothing changed: QUOTA 2 and 6" quotas_are "2 6"
bkill -u all 0 >/dev/null 2>&1
done_testing
