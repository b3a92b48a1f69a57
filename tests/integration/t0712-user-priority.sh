#!/bin/sh
# bsub -sp with real daemons: refused while MAX_USER_PRIORITY is not set,
# in LSF's words; with it, a queue's pending jobs start by user priority
# (MAX_USER_PRIORITY/2 without -sp), first come among equals, and btop
# moves a job only within its priority; an administrator may go above
# MAX_USER_PRIORITY.  bjobs -l shows the priority and
# -We's estimate.
. "$top_srcdir/tests/lib.sh"

BS_MXJ=1 make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
start_mbd || exit 1
start_sbd vh1 || exit 1

check "bsub -sp without MAX_USER_PRIORITY is refused" sh -c \
    "! bsub -sp 10 -o /dev/null sleep 1 >$T/refused 2>&1"
check "with LSF's message" grep -q "Job priority control undefined" "$T/refused"

sed -i 's/^MBD_SLEEP_TIME = 1$/MBD_SLEEP_TIME = 1\nMAX_USER_PRIORITY = 100/' "$lsb/lsb.params"
check "MAX_USER_PRIORITY = 100" sh -c "badmin reconfig 2>&1 | grep -q 'Reconfiguration initiated'"

# The test runs as an LSF administrator (make_cluster), who may go
# above MAX_USER_PRIORITY.
check "an administrator may give more than MAX_USER_PRIORITY" sh -c \
    "bsub -H -sp 200 -o /dev/null true | grep -q 'is submitted'"
a=$(bsub -o /dev/null sleep 300 | job_id_of)
check "a job holds the only slot" wait_for 15 state_is "$a" RUN
b=$(bsub -o /dev/null sleep 300 | job_id_of)
c=$(bsub -sp 80 -We 30 -o /dev/null sleep 300 | job_id_of)
d=$(bsub -sp 10 -o /dev/null sleep 300 | job_id_of)
f=$(bsub -sp 10 -o /dev/null sleep 300 | job_id_of)
check "btop moves a job within its priority" sh -c "btop $f >/dev/null 2>&1"
check "bjobs -l shows the priority given" sh -c \
    "bjobs -l $c | tr -d '\n ' | grep -qF 'JobPriority<80>'"
check "and the default, MAX_USER_PRIORITY/2" sh -c \
    "bjobs -l $b | tr -d '\n ' | grep -qF 'JobPriority<50>'"
check "bjobs -l shows the estimated run time" sh -c \
    "bjobs -l $c | tr -d '\n ' | grep -qF 'EstimatedRunTime<30minutes>'"

# Each job that starts is the next in priority order; the others wait.
next_is() {   # next_is JOB WAITING...: JOB starts, the others stay pending
	wait_for 15 state_is "$1" RUN || return 1
	shift
	for w in "$@"; do state_is "$w" PEND || return 1; done
}
bkill "$a" >/dev/null 2>&1
check "priority 80 starts first" next_is "$c" "$b" "$d" "$f"
bkill "$c" >/dev/null 2>&1
check "then the default 50" next_is "$b" "$d" "$f"
bkill "$b" >/dev/null 2>&1
check "then the job btop moved ahead within priority 10" next_is "$f" "$d"
bkill "$f" >/dev/null 2>&1
check "then the last" next_is "$d"
bkill "$d" >/dev/null 2>&1
done_testing
