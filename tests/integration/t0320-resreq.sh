#!/bin/sh
# bsub -R on a live cluster: select[] is evaluated by the scheduler from
# the host figures in its snapshot (name, CPUs, memory, load), parsed once
# when the submission is applied, and holds after a restart of mbatchd
# (the journal is replayed and parsed again).  rusage[mem] is left to the
# unit tests: a host is not held to it before its first load report,
# which a test here could not wait for honestly.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

exec_host() { bjobs -noheader -o "exec_host" "$1" 2>/dev/null | tr -d ' '; }
on_vh2() { state_is "$1" RUN && exec_host "$1" | grep -q vh2; }

a=$(bsub -R "select[hname==vh2]" -o /dev/null sleep 300 | job_id_of)
check "select on the host name picks that host" wait_for 15 on_vh2 "$a"
b=$(bsub -R "select[maxmem>1000000000]" -o /dev/null sleep 300 | job_id_of)
d=$(bsub -R "select[ncpus>=1 && mem>0]" -o /dev/null sleep 300 | job_id_of)
check "a host figure that fits runs" wait_for 15 state_is "$d" RUN
unmet() { bjobs -p "$1" | grep -q "Job's resource requirements not satisfied: 2 hosts;"; }
check "more memory than any host has waits" wait_for 15 unmet "$b"

stop_mbd
start_mbd || exit 1
check "after a restart the select still holds" wait_for 20 unmet "$b"
e=$(bsub -R "select[hname==vh2]" -o /dev/null sleep 300 | job_id_of)
check "and a new one is placed by it" wait_for 20 on_vh2 "$e"
done_testing
