#!/bin/sh
# Resource reclaim on real daemons (issue 18).  One host of 2 slots; /a
# owns both, /b owns none and lends nothing back on its own, with a
# 3-second GRACE_PERIOD.  /b fills the host with two jobs submitted with
# bsub -wa USR1; then /a submits one.  The most recently started /b job
# gets its warning action at once (the job traps USR1 and writes a file),
# and 3 seconds later it is terminated and requeued ("reclaimed for
# consumer /a" in bhist -l); /a's job then runs.  A /b job that ends
# within its grace (it exits when USR1 comes) is not requeued.  The
# queue's JOB_WARNING_ACTION is the default for jobs without -wa.  The
# reclaimed job is terminated with its queue's JOB_CONTROLS TERMINATE
# action (a command noting the job and killing it), which the job that
# ended within its grace never gets.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.consumers" <<'C'
Begin ResourceGroup
NAME       = rg1
HOSTS      = all
PLAN_SLOTS = 2
End ResourceGroup

Begin Consumer
NAME = /a
End Consumer

Begin Consumer
NAME = /b
End Consumer

Begin Plan
RESOURCE_GROUP = rg1
CONSUMER  OWNED  RESERVED  LIMIT  RANK  GRACE_PERIOD
/a        2      0         -      0     3
/b        0      0         -      0     3
End Plan
C
cat >"$lsb/lsb.queues" <<'Q'
Begin Queue
QUEUE_NAME = qa
PRIORITY   = 30
CONSUMER   = /a
End Queue

Begin Queue
QUEUE_NAME = qb
PRIORITY   = 30
CONSUMER   = /b
JOB_WARNING_ACTION = USR2
JOB_CONTROLS = TERMINATE[echo "$LSB_JOBID" >>@T@/term.log; kill -KILL -$LSB_JOBPGIDS]
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 10
End Queue
Q
sed -i "s|@T@|$T|" "$lsb/lsb.queues"
start_mbd || exit 1
start_sbd vh1 || exit 1

# A job that notes the notice and keeps running (or, with "exit", ends).
cat >"$T/trap.sh" <<'S'
#!/bin/sh
f=$1
mode=$2
got() { echo "$3" >"$f"; [ "$mode" = exit ] && exit 0; }
trap 'got x x USR1' USR1
trap 'got x x USR2' USR2
i=0
while [ "$i" -lt 600 ]; do sleep 1; i=$((i + 1)); done
S
chmod +x "$T/trap.sh"

b1=$(bsub -q qb -wa USR1 -o /dev/null exec "$T/trap.sh" "$T/n1" stay | job_id_of)
check "the first /b job runs" wait_for 20 state_is "$b1" RUN
# Started in a later second than the first, so it is the most recent.
t0=$(date +%s)
wait_for 3 sh -c "[ \$(date +%s) -gt $t0 ]"
b2=$(bsub -q qb -wa USR1 -wt 1 -o /dev/null exec "$T/trap.sh" "$T/n2" stay | job_id_of)
check "the second /b job runs (borrowing /a's idle slots)" wait_for 20 state_is "$b2" RUN
check "bjobs -l shows the warning action" sh -c "bjobs -l $b2 | tr -d '\n ' | grep -q 'JobWarningAction<USR1>'"
a1=$(bsub -q qa -o /dev/null sleep 300 | job_id_of)
check "the newest /b job gets its warning action (USR1) at once" wait_for 10 test -s "$T/n2"
check "it is USR1" grep -qx USR1 "$T/n2"
check "the older one gets nothing" test ! -e "$T/n1"
check "bjobs -l shows the reclaim and its grace deadline" \
	says bjobs "$b2" 'Reclaimed for consumer </a>; grace period ends'
check "/a's job waits while the grace runs" state_is "$a1" PEND
check "bconsumers -l shows /b's slot being reclaimed" sh -c \
	"bconsumers -l /b | grep -q 'RECLAIMING: 1 slot'"
check "after its 3-second grace the /b job is requeued" wait_for 15 state_is "$b2" PEND
check "it was terminated by its queue's TERMINATE action" \
	wait_for 10 sh -c "[ \"\$(cat '$T/term.log')\" = '$b2' ]"
check "bhist -l says it was reclaimed for consumer /a" \
	says bhist "$b2" 'Requeued: reclaimed for consumer /a'
check "bhist -l shows the notice with its grace" sh -c \
	"bhist -l $b2 | tr -d '\n ' | grep -q 'Reclaimedforconsumer</a>(borrowedslotsofconsumer</b>);warningactionsignal<10>sent;graceperiod3seconds'"
check "then /a's job runs" wait_for 15 state_is "$a1" RUN
check "the older /b job still runs" state_is "$b1" RUN
check "bjobs -l of the requeued job says why" \
	says bjobs "$b2" 'Requeued: reclaimed for consumer </a> (reclaimed 1 time)'

# A job that ends within its grace: not requeued.  The queue's
# JOB_WARNING_ACTION (USR2) is its notice.
bkill "$a1" "$b2" >/dev/null 2>&1
wait_for 20 state_is "$a1" EXIT
b3=$(bsub -q qb -o /dev/null exec "$T/trap.sh" "$T/n3" exit | job_id_of)
check "a third /b job runs" wait_for 20 state_is "$b3" RUN
a2=$(bsub -q qa -o /dev/null sleep 300 | job_id_of)
check "the queue's JOB_WARNING_ACTION (USR2) reaches it" wait_for 10 test -s "$T/n3"
check "it is USR2" grep -qx USR2 "$T/n3"
check "it ends DONE within its grace" wait_for 10 state_is "$b3" DONE
check "and is not requeued" sh -c "! bhist -l $b3 | grep -q Requeued"
check "nor terminated by the TERMINATE action" sh -c "! grep -qx '$b3' '$T/term.log'"
check "/a's job gets the slot" wait_for 15 state_is "$a2" RUN
check "bacct counts the reclaimed jobs (both ended)" sh -c \
	"bacct -u all | grep -q 'Total number of reclaimed jobs: *2'"

bkill -u all 0 >/dev/null 2>&1
done_testing
