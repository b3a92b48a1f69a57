#!/bin/sh
# A time-windowed plan switching during the test, on real daemons: two
# virtual hosts of 4 slots; /a owns 6 and /b 2 by the plan without
# TIME_WINDOW, and 2 and 6 by a plan whose TIME_WINDOW opens at the first
# whole minute at least 25 s after the start (computed from `date`; no
# time offset).  Both flooded, they run 6 and 2.  `bconsumers -at` that
# minute shows the coming plan's quotas against the current ones, and the
# /a jobs the reclaim stage would take back for /b with /a's 30 s grace;
# the quotas change to 2 and 6 when the window opens, not before, with no
# job submitted or ended in between, and the jobs it named get the notice.
# With SECURE_JOB_INFO_LEVEL 2 another user sees the quotas, not the jobs.
. "$top_srcdir/tests/lib.sh"

user=""
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	user=bsct$$
	add_test_user "$user" "$T/home" || exit 1
fi

BS_MXJ=4
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
# Other users see no one else's jobs (bconsumers -at follows it too).
sed -i 's/^End Parameters/SECURE_JOB_INFO_LEVEL = 2\nEnd Parameters/' "$lsb/lsb.params"
now=$(date +%s)
open=$(( (now + 25) / 60 * 60 + 60 ))
begin=$(date -d "@$open" +%H:%M)
end=$(date -d "@$((open + 3600))" +%H:%M)
# As bconsumers prints windows (LSF's form, no leading zero on the hour).
shown="$(date -d "@$open" +%-H:%M)-$(date -d "@$((open + 3600))" +%-H:%M)"
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
/a        6      30
/b        2      30
End Plan

Begin Plan
RESOURCE_GROUP = rg1
TIME_WINDOW    = $begin-$end
CONSUMER  OWNED  GRACE_PERIOD
/a        2      30
/b        6      30
End Plan
C
consumer_queues a b
start_mbd || exit 1
for h in vh1 vh2; do start_sbd "$h" || exit 1; done

counts_are() { [ "$(running_of /a) $(running_of /b)" = "$1" ]; }
quotas_are() { [ "$(consumer_col /a 10) $(consumer_col /b 10)" = "$1" ]; }

badmin qinact qa qb >/dev/null
submit_n qa 8 && submit_n qb 8
badmin qact qa qb >/dev/null
check "before the window: /a and /b run 6 and 2" wait_for 20 counts_are "6 2"
check "bconsumers QUOTA is 6 and 2" wait_for 5 quotas_are "6 2"

# The coming window, previewed.
at=$(bconsumers -at "$begin")
diag "$at"
row() { printf '%s\n' "$at" | awk -v p="$1" '$1 == "rg1" && $2 == p {print $3, $4, $5, $6, $7}'; }
check "bconsumers -at: /a's window plan, quota 6 now, 2 then, 6 held, 4 over" \
	test "$(row /a)" = "$shown 6 2 6 4"
check "bconsumers -at: /b's quota 2 now, 6 then" test "$(row /b)" = "$shown 2 6 2 0"
notices=$(printf '%s\n' "$at" | awk '$5 == "reclaim-notice" && $4 == "/a" && $6 == "/b" && $8 == 30' | wc -l)
named=$(printf '%s\n' "$at" | awk '$5 == "reclaim-notice" {print $1}' | sort -n | tr '\n' ' ')
check "bconsumers -at: 4 of /a's jobs would be reclaimed for /b with a 30 s grace" \
	test "$notices" -eq 4
if [ -n "$user" ]; then
	uat=$(runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" bconsumers -at "$begin")
	check "another user sees the quotas bconsumers -at shows root" \
		sh -c "printf '%s\\n' \"\$1\" | grep -q '^rg1 .*/a .* 6 *2 *6 *4\$'" sh "$uat"
	check "but not root's jobs (SECURE_JOB_INFO_LEVEL 2)" \
		sh -c "printf '%s\\n' \"\$1\" | grep -q '^No running job would be reclaimed'" sh "$uat"
fi
check "bconsumers -at changed nothing: QUOTA still 6 and 2" quotas_are "6 2"

check "bconsumers -at with a bad time is refused" \
	sh -c "! bconsumers -at 25:00 >/dev/null 2>&1"
check "still the default plan before $begin" quotas_are "6 2"
check "the window opens: QUOTA 2 and 6" wait_for $((open - $(date +%s) + 20)) quotas_are "2 6"
switched=$(date +%s)
check "not before the window opened" test "$switched" -ge "$open"
reclaimed() {
	for j in $(bjobs -r -u all -noheader -o jobid); do
		says bjobs "$j" 'Reclaimed for consumer </b>' && echo "$j"
	done | sort -n | tr '\n' ' '
}
n_reclaimed() { [ "$(reclaimed | wc -w)" -eq "$1" ]; }
check "at the window, 4 of /a's jobs get the reclaim notice" wait_for 10 n_reclaimed 4
check "the jobs bconsumers -at named" test "$(reclaimed)" = "$named"
diag "$(bconsumers -w)"
bkill -u all 0 >/dev/null 2>&1
done_testing
