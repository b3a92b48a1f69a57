#!/bin/sh
# Nextflow's LSF executor, replayed: lsf.conf read as register() and
# parseLsfConfig() read it ($LSF_ENVDIR/lsf.conf, KEY=VALUE lines, for
# LSF_UNIT_FOR_LIMITS, LSB_JOB_MEMLIMIT and RESOURCE_RESERVE_PER_TASK); the
# task launcher .command.run with the #BSUB header lines getDirectives()
# writes from them, piped to `bsub` from the task's work directory; the
# job id taken by the regex of parseJobId(); the queue status from
# `bjobs -w -q QUEUE`, split into columns as parseQueueStatus() does
# (columns JOBID and STAT found by name in the header line); `bkill ID`.
# Replayed twice: with lsf.conf as make_cluster writes it (no
# LSF_UNIT_FOR_LIMITS: -M and select[] in KB, rusage[] in MB, per-process
# -M divided by the cpus), then with LSF_UNIT_FOR_LIMITS=MB,
# LSB_JOB_MEMLIMIT=Y and RESOURCE_RESERVE_PER_TASK=Y (everything in MB,
# -M for the whole job, rusage[] divided by the cpus).
# Follows nextflow-io/nextflow
#   modules/nextflow/src/main/groovy/nextflow/executor/LsfExecutor.groovy
#   at commit abd481cd0dccc8aa3c1ffff5e255bcc725a47518 (getDirectives,
#   parseLsfConfig, register, parseJobId, queueStatusCommand,
#   parseQueueStatus, wrapHeader).  The file's 2024 revision (a
#   TaskArrayExecutor) builds these lines the same way; its other changes
#   (job arrays, `-G account`, job names stripped of [ and ], executor
#   settings that override lsf.conf) are not replayed.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# launcher TASKDIR NAME CPUS MEMORY_MB DISK_MB BODY: a .command.run as
# Nextflow writes it for a task of CPUS cpus, MEMORY_MB and DISK_MB ("1h",
# queue "normal"), its directives computed from $LSF_ENVDIR/lsf.conf as
# register() and getDirectives() compute them; values with blanks or
# []|&!<> double-quoted (wrapHeader).
launcher() {
	mkdir -p "$1"
	python3 - "$@" >"$1/.command.run" <<'PY'
import os, re, sys
taskdir, name, cpus, mem_mb, disk_mb, body = sys.argv[1:7]
cpus, mem_mb, disk_mb = int(cpus), int(mem_mb), int(disk_mb)
key_re = re.compile(r'^[A-Z_0-9]+=.*')
quoted_re = re.compile(r'"((?:[^"\\]|\\.)*)"(\s*#.*)?')
conf = {}
for line in open(os.path.join(os.environ["LSF_ENVDIR"], "lsf.conf")).read().splitlines():
    if not key_re.fullmatch(line):
        continue
    entry = [t for t in line.split("=") if t]
    if len(entry) != 2:
        continue
    key, value = entry
    m = quoted_re.fullmatch(value)
    if m:
        value = m.group(1)
    else:
        p = value.find("#")
        value = value.strip() if p == -1 else value[:p].strip()
    conf[key] = value
mem_unit, usage_unit = "KB", "MB"
if conf.get("LSF_UNIT_FOR_LIMITS"):
    mem_unit = usage_unit = conf["LSF_UNIT_FOR_LIMITS"]
per_job = conf.get("LSB_JOB_MEMLIMIT", "").upper() == "Y"
per_task = conf.get("RESOURCE_RESERVE_PER_TASK", "").upper() == "Y"
# MemoryUnit.toUnit(): the byte count in that unit, rounded down.
scale = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}
def to_unit(nbytes, unit):
    return nbytes // scale[unit]
mem, disk = mem_mb << 20, disk_mb << 20
mem1 = mem // cpus if cpus > 1 and not per_job else mem
mem2 = mem // cpus if cpus > 1 and per_task else mem
d = ["-o", taskdir + "/.command.log", "-q", "normal"]
if cpus > 1:
    d += ["-n", str(cpus), "-R", "span[hosts=1]"]
d += ["-W", "01:00"]
d += ["-M", str(to_unit(mem1, mem_unit))]
d += ["-R", "select[mem>=%d] rusage[mem=%d]" % (to_unit(mem, mem_unit), to_unit(mem2, usage_unit))]
d += ["-R", "select[tmp>=%d] rusage[tmp=%d]" % (to_unit(disk, mem_unit), to_unit(disk, usage_unit))]
d += ["-J", name]
def wrap(s):
    return '"%s"' % s if any(c in s for c in ' []|&!<>') else s
print("#!/bin/bash")
for i in range(0, len(d), 2):
    print("#BSUB %s %s" % (d[i], wrap(d[i + 1])))
print("# NEXTFLOW TASK: " + name)
print(body)
PY
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
field_is() { [ "$(bjobs -noheader -o "$2" "$1" 2>/dev/null | sed 's/ *$//')" = "$3" ]; }

# ---- lsf.conf without LSF_UNIT_FOR_LIMITS: KB limits ----------------------

# Nextflow learns a task's end from the .exitcode its wrapper writes.  A
# 1-cpu task of 4 MB: -M 4096 (KB), select[mem>=4096] (a bare number in
# select[] is MB to LSF: 4 GB free), rusage[mem=4]; disk 1 MB:
# select[tmp>=1024] rusage[tmp=1].
A="$T/work/3f/a1b2c3"
launcher "$A" nf-sayHello_1 1 4 1 'echo "hello from $LSB_JOBID" >.command.out; echo $? >.exitcode'
check "KB: the header Nextflow writes" sh -c "grep -qx '#BSUB -M 4096' '$A/.command.run' &&
	grep -qxF '#BSUB -R \"select[mem>=4096] rusage[mem=4]\"' '$A/.command.run' &&
	grep -qxF '#BSUB -R \"select[tmp>=1024] rusage[tmp=1]\"' '$A/.command.run'"
# A 1-cpu task of 6 MB that runs until it is killed.
B="$T/work/7d/e4f5a6"
launcher "$B" nf-sayHello_2 1 6 1 "while [ ! -e $T/never ]; do sleep 0.2; done; echo 0 >.exitcode"
# A 2-cpu task of 512 MB: -M 262144, its 512 MB divided by the cpus, in
# KB; select[mem>=524288] asks, as LSF reads it, for 512 GB free: no host
# has that, so it pends.
D="$T/work/1c/d2e3f4"
launcher "$D" nf-bigTask_1 2 512 1 "echo 0 >.exitcode"

a=$(submit "$A")
check "the launcher on stdin is accepted; parseJobId finds the id" [ -n "$a" ]
b=$(submit "$B")
check "a second task is accepted" [ -n "$b" ]
d=$(submit "$D")
check "a third task is accepted" [ -n "$d" ]
check "task B is RUNNING in Nextflow's status map" wait_for 30 status_is "$b" RUNNING
check "task A writes its .exitcode in its work directory" wait_for 30 test -s "$A/.exitcode"
check "... exit code 0" [ "$(cat "$A/.exitcode")" = 0 ]
check "... and its output there" grep -q "hello from $a" "$A/.command.out"
check "the -o file .command.log is written" wait_for 10 test -e "$A/.command.log"
check "A is DONE to LSF" wait_for 20 state_is "$a" DONE
check "-M 4096 is 4096 KB" field_is "$a" memlimit "4 Mbytes"
check "#BSUB -q and -J are honoured" \
	sh -c "bjobs -noheader -o 'queue job_name' $a | grep -q 'normal *nf-sayHello_1'"
check "a finished task is not reported RUNNING" not_running "$a"
check "D: -M 262144 is 256 MB" field_is "$d" memlimit "256 Mbytes"
check "D is PENDING in Nextflow's status map" status_is "$d" PENDING
bkill "$d" >/dev/null 2>&1

bkill "$b" >"$T/bkill.out" 2>&1
check "bkill ID exits 0" [ $? -eq 0 ]
check "the killed task leaves Nextflow's RUNNING set" \
	wait_for 20 not_running "$b"
check "... and is EXIT to LSF" wait_for 20 state_is "$b" EXIT
check "... without writing its .exitcode" [ ! -e "$B/.exitcode" ]
check "D, killed while pending, is EXIT" wait_for 20 state_is "$d" EXIT

# ---- LSF_UNIT_FOR_LIMITS=MB, LSB_JOB_MEMLIMIT=Y, RESOURCE_RESERVE_PER_TASK=Y

kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
stop_mbd
cat >>"$T/conf/lsf.conf" <<CONF
LSF_UNIT_FOR_LIMITS=MB
LSB_JOB_MEMLIMIT=Y
RESOURCE_RESERVE_PER_TASK=Y
CONF
start_mbd || exit 1
start_sbd vh1 || exit 1

# A 2-cpu task of 512 MB: -M 512 for the whole job, select[mem>=512],
# rusage[mem=256] per slot; disk 100 MB: select[tmp>=100] rusage[tmp=100].
C="$T/work/9a/b8c7d6"
launcher "$C" nf-sayHello_3 2 512 100 "echo \"hello from \$LSB_JOBID\" >.command.out; while [ ! -e $T/stop_c ]; do sleep 0.2; done; echo 0 >.exitcode"
check "MB: the header Nextflow writes" sh -c "grep -qx '#BSUB -M 512' '$C/.command.run' &&
	grep -qxF '#BSUB -R \"select[mem>=512] rusage[mem=256]\"' '$C/.command.run' &&
	grep -qxF '#BSUB -R \"select[tmp>=100] rusage[tmp=100]\"' '$C/.command.run'"
c=$(submit "$C")
check "MB: the task is accepted" [ -n "$c" ]
check "... and RUNNING in Nextflow's status map" wait_for 30 status_is "$c" RUNNING
check "-M 512 is 512 MB (LSF_UNIT_FOR_LIMITS=MB)" field_is "$c" memlimit "512 Mbytes"
check "#BSUB -n 2 and span[hosts=1]: two slots on one host" sh -c "bjobs -noheader -o 'exec_host' $c | grep -q '^2\*vh1'"
check "the task writes its output" wait_for 10 grep -q "hello from $c" "$C/.command.out"
touch "$T/stop_c"
check "... then its .exitcode 0" wait_for 30 sh -c "[ \"\$(cat '$C/.exitcode' 2>/dev/null)\" = 0 ]"
check "... and is DONE to LSF" wait_for 20 state_is "$c" DONE
done_testing
