#!/bin/sh
# Nextflow's LSF executor, replayed: the task launcher .command.run with
# the #BSUB header lines Nextflow writes, piped to `bsub` from the task's
# work directory; the job id taken by the regex Nextflow uses; the queue
# status from `bjobs -w -q QUEUE`, split into columns as Nextflow does
# (columns JOBID and STAT found by name in the header line); `bkill ID`.
# Follows nextflow-io/nextflow
#   modules/nextflow/src/main/groovy/nextflow/executor/LsfExecutor.groovy
#   at commit 0224c5983736da5b860f9d5f940c1b091422d0c8 (getDirectives,
#   parseJobId, queueStatusCommand, parseQueueStatus, wrapHeader).
# The task asks cpus 2, memory '512 MB', disk '100 MB', time '1h', queue
# 'normal'; per-process memory limits (the default) divide -M by the cpus.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# launcher TASKDIR NAME BODY: a .command.run as Nextflow writes it; values
# with blanks or []|&!<> are double-quoted (wrapHeader).
launcher() {
	mkdir -p "$1"
	cat >"$1/.command.run" <<RUN
#!/bin/bash
#BSUB -o $1/.command.log
#BSUB -q normal
#BSUB -n 2
#BSUB -R "span[hosts=1]"
#BSUB -W 01:00
#BSUB -M 256
#BSUB -R "select[mem>=512] rusage[mem=512]"
#BSUB -R "select[tmp>=100] rusage[tmp=100]"
#BSUB -J $2
# NEXTFLOW TASK: $2
$3
RUN
}

# submit TASKDIR: bsub with the launcher on its standard input, run in
# the task directory; prints the id parseJobId finds.
submit() {
	(cd "$1" && bsub <.command.run) >"$1/.submit.out" 2>&1 || return 1
	python3 - "$1/.submit.out" <<'PY'
import re, sys
for line in open(sys.argv[1]).read().splitlines():
    m = re.search(r'Job <(\d+)> is submitted', line)
    if m:
        print(m.group(1))
        break
PY
}

# qstat: the status map Nextflow builds from `bjobs -w -q normal`, one
# "ID STATUS" line each (STATUS as DECODE_STATUS maps LSF's state).
qstat() {
	bjobs -w -q normal >"$T/bjobs.out" 2>/dev/null
	python3 - "$T/bjobs.out" <<'PY'
import sys
decode = {'PEND': 'PENDING', 'RUN': 'RUNNING', 'PSUSP': 'HOLD',
          'USUSP': 'HOLD', 'SSUSP': 'HOLD', 'DONE': 'DONE',
          'EXIT': 'ERROR', 'UNKWN': 'ERROR', 'ZOMBI': 'ERROR'}
col1 = col2 = -1
for line in open(sys.argv[1]).read().splitlines():
    if not line:
        continue
    toks = [t for t in line.split(' ') if t]
    if col1 == -1 and col2 == -1:
        col1 = toks.index('JOBID') if 'JOBID' in toks else -1
        col2 = toks.index('STAT') if 'STAT' in toks else -1
        continue
    print(toks[col1], decode.get(toks[col2]))
PY
}
status_of() { qstat | awk -v id="$1" '$1 == id {print $2}'; }
status_is() { [ "$(status_of "$1")" = "$2" ]; }
not_running() {
	m=$(qstat) || return 1
	! echo "$m" | grep -q "^$1 RUNNING\$"
}

# Nextflow learns a task's end from the .exitcode its wrapper writes.
A="$T/work/3f/a1b2c3"
launcher "$A" nf-sayHello_1 'echo "hello from $LSB_JOBID" >.command.out; echo $? >.exitcode'
B="$T/work/7d/e4f5a6"
launcher "$B" nf-sayHello_2 "while [ ! -e $T/never ]; do sleep 0.2; done; echo 0 >.exitcode"

a=$(submit "$A")
check "the launcher on stdin is accepted; parseJobId finds the id" [ -n "$a" ]
b=$(submit "$B")
check "a second task is accepted" [ -n "$b" ]
check "task B is RUNNING in Nextflow's status map" wait_for 30 status_is "$b" RUNNING
check "task A writes its .exitcode in its work directory" wait_for 30 test -s "$A/.exitcode"
check "... exit code 0" [ "$(cat "$A/.exitcode")" = 0 ]
check "... and its output there" grep -q "hello from $a" "$A/.command.out"
check "the -o file .command.log is written" wait_for 10 test -e "$A/.command.log"
check "A is DONE to LSF" wait_for 20 state_is "$a" DONE
check "#BSUB -n 2 and span[hosts=1]: two slots on one host" \
	sh -c "bjobs -noheader -o 'exec_host' $a | grep -q '^2\*vh1'"
check "#BSUB -q and -J are honoured" \
	sh -c "bjobs -noheader -o 'queue job_name' $a | grep -q 'normal *nf-sayHello_1'"
check "a finished task is not reported RUNNING" not_running "$a"

bkill "$b" >"$T/bkill.out" 2>&1
check "bkill ID exits 0" [ $? -eq 0 ]
check "the killed task leaves Nextflow's RUNNING set" \
	wait_for 20 not_running "$b"
check "... and is EXIT to LSF" wait_for 20 state_is "$b" EXIT
check "... without writing its .exitcode" [ ! -e "$B/.exitcode" ]
done_testing
