#!/bin/sh
# badmin hclose -reclaim (issue 18): the host closes at once for new jobs,
# its jobs get their warning action, and after their consumer's grace
# (4 seconds here) they are terminated and requeued.  An mbatchd restarted
# during the grace keeps the deadline (the reclaim is journaled): the job
# is requeued when the grace ends, not later and not never.  A job outside
# every consumer is reclaimed with no grace.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.consumers" <<'C'
Begin ResourceGroup
NAME       = rg1
HOSTS      = vh1
PLAN_SLOTS = 2
End ResourceGroup

Begin Consumer
NAME = /a
End Consumer

Begin Plan
RESOURCE_GROUP = rg1
CONSUMER  OWNED  RESERVED  LIMIT  RANK  GRACE_PERIOD
/a        2      0         -      0     4
End Plan
C
cat >"$lsb/lsb.queues" <<'Q'
Begin Queue
QUEUE_NAME = qa
PRIORITY   = 30
CONSUMER   = /a
HOSTS      = vh1
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 10
HOSTS      = vh2
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

cat >"$T/trap.sh" <<'S'
#!/bin/sh
trap 'echo USR1 >"$1"' USR1
i=0
while [ "$i" -lt 600 ]; do sleep 1; i=$((i + 1)); done
S
chmod +x "$T/trap.sh"
host_closed() {
	bhosts -w "$1" 2>/dev/null | awk -v h="$1" '$1 == h && $2 ~ /^closed/ {f=1} END {exit !f}'
}

j1=$(bsub -q qa -wa USR1 -o /dev/null exec "$T/trap.sh" "$T/n1" | job_id_of)
j2=$(bsub -q normal -o /dev/null sleep 300 | job_id_of)
check "a consumer's job runs on vh1" wait_for 20 state_is "$j1" RUN
check "a job outside consumers runs on vh2" wait_for 20 state_is "$j2" RUN
check "badmin hclose -reclaim vh1 succeeds" sh -c "badmin hclose -reclaim vh1 | grep -q 'Close <vh1> ...... done'"
check "vh1 is closed at once" wait_for 5 host_closed vh1
check "its job gets its warning action" wait_for 10 test -s "$T/n1"
check "bjobs -l shows the reclaim and its grace" sh -c \
	"bjobs -l $j1 | tr -d '\n ' | grep -q 'Reclaimed:itshostisclosedwith-reclaim;graceperiodends'"
t0=$(date +%s)
stop_mbd
start_mbd || exit 1
check "after a restart the job still runs in its grace" wait_for 5 state_is "$j1" RUN
check "and is requeued when the grace ends" wait_for 15 state_is "$j1" PEND
t1=$(date +%s)
check "not before the grace ends" test $((t1 - t0)) -ge 2
check "bhist -l: requeued, its host was closed" sh -c \
	"bhist -l $j1 | tr -d '\n ' | grep -q 'Requeued:reclaimed:itshostisclosed'"
check "the job outside consumers on vh2 is untouched" state_is "$j2" RUN
check "vh1 stays closed" host_closed vh1
# The closed host leaves rg1 no slot: the consumer's quota is 0.
check "the requeued job waits (its queue's only host is closed)" sh -c \
	"bjobs -p -noheader -o pend_reason $j1 | grep -q 'quota in resource group rg1'"
badmin hopen vh1 >/dev/null
check "badmin hopen ends the reclaim: the job runs again" wait_for 20 state_is "$j1" RUN

# A job outside every consumer: no grace, requeued at once.
check "hclose -reclaim vh2" sh -c "badmin hclose -reclaim vh2 >/dev/null"
check "its job outside consumers is requeued at once" wait_for 10 state_is "$j2" PEND

bkill -u all 0 >/dev/null 2>&1
done_testing
