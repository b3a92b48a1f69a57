#!/bin/sh
# LSF's own use of the job warning action (bsub -wa -wt): the signal goes
# to the job the warning time before its run limit.  The jobs start with
# -W 10 and set their traps; bmod -W 1 then brings the run limit within the
# one-minute warning time, so the warning comes at once (sent at the start,
# it could reach a job before its trap is set), the job (trapping USR1)
# records it while it still runs, and the run limit kills it a minute later
# (not waited for here).  A job with -wa but no warning time gets nothing
# (LSF needs both); one whose queue gives JOB_ACTION_WARNING_TIME does.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
echo "LSB_MOD_ALL_JOBS=Y" >>"$T/conf/lsf.conf"
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<'Q'
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 10
End Queue

Begin Queue
QUEUE_NAME = warned
PRIORITY   = 10
JOB_WARNING_ACTION = USR2
JOB_ACTION_WARNING_TIME = 1
End Queue
Q
start_mbd || exit 1
start_sbd vh1 || exit 1

cat >"$T/trap.sh" <<'S'
#!/bin/sh
trap 'echo USR1 >>"$1"' USR1
trap 'echo USR2 >>"$1"' USR2
echo started >"$1.start"
i=0
while [ "$i" -lt 600 ]; do sleep 1; i=$((i + 1)); done
S
chmod +x "$T/trap.sh"

j1=$(bsub -W 10 -wa USR1 -wt 1 -o /dev/null exec "$T/trap.sh" "$T/w1" | job_id_of)
j2=$(bsub -W 10 -wa USR1 -o /dev/null exec "$T/trap.sh" "$T/w2" | job_id_of)
j3=$(bsub -q warned -W 10 -o /dev/null exec "$T/trap.sh" "$T/w3" | job_id_of)
check "the jobs run" wait_for 20 sh -c "test -e $T/w1.start && test -e $T/w2.start && test -e $T/w3.start"
check "bmod -W 1 brings their run limits within the warning time" \
	sh -c "{ bmod -W 1 $j1 && bmod -W 1 $j2 && bmod -W 1 $j3; } >/dev/null 2>&1"
check "-wa USR1 -wt 1 with -W 1: the warning comes at once" wait_for 10 grep -qx USR1 "$T/w1"
check "the job is still running" state_is "$j1" RUN
check "the queue's JOB_WARNING_ACTION and time: USR2" wait_for 10 grep -qx USR2 "$T/w3"
# sbatchd arms no warning for a job without a warning time: nothing to
# wait for.
check "-wa without a warning time: no signal" sh -c \
	"test ! -e $T/w2 && ! grep -q 'job $j2\[0\]: job warning action' $T/log/sbatchd.vh1.out"
check "sbatchd logged the warnings it sent" grep -q "job $j1\[0\]: job warning action: signal 10" "$T/log/sbatchd.vh1.out"
check "sent once" test "$(wc -l <"$T/w1")" -eq 1
check "bqueues -l shows the queue's warning action and time" sh -c \
	"bqueues -l warned | grep -q 'JOB_WARNING_ACTION = USR2' && bqueues -l warned | grep -q 'JOB_ACTION_WARNING_TIME = 1'"
bkill "$j1" "$j2" "$j3" >/dev/null 2>&1
done_testing
