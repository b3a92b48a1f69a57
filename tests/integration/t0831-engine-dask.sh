#!/bin/sh
# dask-jobqueue's LSFCluster, replayed: the worker job script with the
# #BSUB header LSFJob builds (-J, -e/-o with %J, -q, -P, -n, -R span, -M in
# the unit lsf_detect_units reads from $LSF_ENVDIR/lsf.conf, -W), sent as
# `bsub < SCRIPT 2> /dev/null` (use_stdin) through a shell; the job id is
# the first run of digits in bsub's output (Job.job_id_regexp); `lsid`'s
# version is found by the regex lsf_version() uses; workers are stopped
# with `bkill ID`.
# Follows dask/dask-jobqueue dask_jobqueue/lsf.py at commit
# 012f121774f0b71eb3a818eb227ff012b363fabc (LSFJob.__init__,
# _submit_job, lsf_format_bytes_ceil, lsf_detect_units, lsf_version).
# The cluster asks cores=2, memory='2GB', walltime '00:30', queue
# 'normal', project 'DaskonLSF', log_directory $T/logs, use_stdin=True.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/logs"

lsid >"$T/lsid.out" 2>&1
check "lsid exits 0" [ $? -eq 0 ]
check "lsf_version() finds a dotted version of 10 or later" python3 - "$T/lsid.out" <<'PY'
import re, sys
v = re.search(r"(\d+\.)+\d+", open(sys.argv[1]).read()).group()
assert int(v.split('.')[0]) >= 10, v
PY

# lsf_detect_units: the last LSF_UNIT_FOR_LIMITS line of lsf.conf, else kb;
# the -M value is the memory in bytes over 1000**unit, rounded up.
memarg=$(python3 - <<'PY'
import math, os
unit = "kb"
try:
    for line in open(os.path.join(os.environ["LSF_ENVDIR"], "lsf.conf")).readlines()[::-1]:
        line = line.strip()
        if line.startswith("LSF_UNIT_FOR_LIMITS"):
            unit = line.split("=")[1].lower()[0]
            break
except (EnvironmentError, IndexError):
    pass
conv = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6, "z": 7}
print("%d" % math.ceil(2000000000 / (1000 ** conv[unit.lower()[0]])))
PY
)
check "lsf_detect_units falls back to kb: -M 2000000" [ "$memarg" = 2000000 ]

# The job script as Job.job_script() lays it out: shebang, header, the
# worker command (here a stand-in that stays up until told to stop).
cat >"$T/worker.sh" <<SCRIPT
#!/usr/bin/env bash

#BSUB -J dask-worker
#BSUB -e $T/logs/dask-worker-%J.err
#BSUB -o $T/logs/dask-worker-%J.out
#BSUB -q normal
#BSUB -P "DaskonLSF"
#BSUB -n 2
#BSUB -R "span[hosts=1]"
#BSUB -M $memarg
#BSUB -W 00:30

echo "worker \$LSB_JOBID up on \$LSB_HOSTS"
echo "worker stderr" >&2
while [ ! -e $T/stop-\$LSB_JOBID ]; do sleep 0.2; done
SCRIPT

# submit: the shell line _submit_job runs, and the id as _job_id_from_
# submit_output takes it.
submit() {
	sh -c "bsub < $T/worker.sh 2> /dev/null" >"$T/submit.out"
	python3 - "$T/submit.out" <<'PY'
import re, sys
m = re.search(r"(?P<job_id>\d+)", open(sys.argv[1]).read())
print(m.group("job_id") if m else "")
PY
}
w1=$(submit)
check "bsub < script is accepted and the job id parsed" [ -n "$w1" ]
w2=$(submit)
check "a second worker is accepted" [ -n "$w2" -a "$w2" != "$w1" ]
check "worker 1 runs" wait_for 30 state_is "$w1" RUN
check "worker 2 runs" wait_for 30 state_is "$w2" RUN
check "-o with %J: the worker's log is dask-worker-ID.out" \
	wait_for 15 grep -q "worker $w1 up on vh1 vh1" "$T/logs/dask-worker-$w1.out"
check "-e with %J: its stderr is dask-worker-ID.err" \
	wait_for 15 grep -q "worker stderr" "$T/logs/dask-worker-$w1.err"
check "#BSUB -J, -q and -P (the quotes stripped) are honoured" \
	sh -c "bjobs -noheader -o 'job_name queue proj_name' $w1 | grep -q '^dask-worker *normal *DaskonLSF'"
check "#BSUB -W 00:30 gives a 30-minute run limit" \
	sh -c "bjobs -l $w1 | grep -A1 'RUNLIMIT' | grep -q '30.0 min'"

# LSFCluster.scale down / close: bkill each worker job.
bkill "$w1" >"$T/bkill.out" 2>&1
check "bkill ID exits 0" [ $? -eq 0 ]
check "the killed worker is EXIT" wait_for 20 state_is "$w1" EXIT
check "the other worker runs on" state_is "$w2" RUN
touch "$T/stop-$w2"
check "a worker that ends by itself is DONE" wait_for 20 state_is "$w2" DONE
done_testing
