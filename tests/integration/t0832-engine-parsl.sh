#!/bin/sh
# Parsl's LSFProvider, replayed: the block script from its template with
# the #BSUB lines its scheduler_options add (-P, -q, and with
# request_by_nodes=False -n CORES_PER_BLOCK and -R "span[ptile=...]"),
# sent as `bsub < SCRIPT` (bsub_redirection=True); the job id taken as
# submit() takes it; status by `bjobs -noheader -o 'jobid stat' ID ...`
# parsed as _status() parses it (two fields a line, ids not listed are
# COMPLETED); `bkill ID ID` for cancel().
# Follows Parsl/parsl parsl/providers/lsf/lsf.py at commit
# 92114c6b630ef06dfa887fb8d13ca8fcb7e21a91 and
# parsl/providers/lsf/template.py at commit
# d5d987437bee65e7e15e5ed72a9a6e890569d0ac.
# The provider: project 'parsl', queue 'normal', walltime '00:10:00',
# cores_per_block=2, cores_per_node=2, request_by_nodes=False; then with
# request_by_nodes=True (the default) and nodes_per_block=2, whose block
# script says "#BSUB -nnodes 2" (LSF with CSM): two whole hosts, only for
# this job while it runs.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
# -nnodes asks for whole hosts: the queue must take exclusive jobs, as
# the batch queues of CSM systems do.
sed -i 's/^QUEUE_NAME   = normal$/&\nEXCLUSIVE    = Y/' "$T/conf/lsbatch/basalt/configdir/lsb.queues"
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
SD="$T/submit_scripts"
mkdir -p "$SD"

# block NAME [OPTIONS]: the template filled in; the user script is a
# stand-in for the launcher-wrapped worker pool, running until its stop
# file appears.  OPTIONS: the #BSUB lines of the resource request
# (request_by_nodes=False's by default).
block() {
	req=${2:-'#BSUB -n 2
#BSUB -R "span[ptile=2]"'}
	cat >"$SD/$1.submit" <<SCRIPT
#!/bin/bash

#BSUB -W 10
#BSUB -J $1
#BSUB -o $SD/$1.submit.stdout
#BSUB -e $SD/$1.submit.stderr

#BSUB -P parsl
#BSUB -q normal
$req



export JOBNAME="$1"

CMD() {
echo "pool \$1 of \$JOBNAME in job \$LSB_JOBID"
while [ ! -e $T/stop-\$LSB_JOBID ]; do sleep 0.2; done
}
CMD 1 &
wait
SCRIPT
}

# submit NAME: bsub_redirection=True; the id from the line that starts
# with "job" and says "is submitted to".
submit() {
	sh -c "bsub < $SD/$1.submit" >"$T/submit.out" 2>&1
	[ $? -eq 0 ] || return 1
	python3 - "$T/submit.out" <<'PY'
import sys
for line in open(sys.argv[1]).read().split('\n'):
    if line.lower().startswith("job") and "is submitted to" in line.lower():
        print(line.split()[1].strip('<>'))
PY
}

# status ID...: _status(); prints "ID STATE" for every id asked.
status() {
	sh -c "bjobs -noheader -o 'jobid stat' $*" >"$T/bjobs.out" 2>"$T/bjobs.err"
	rc=$?
	python3 - "$rc" "$T/bjobs.out" "$@" <<'PY'
import sys
rc, out, ids = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
if rc != 0:
    sys.exit(1)
table = {'PEND': 'PENDING', 'RUN': 'RUNNING', 'DONE': 'COMPLETED',
         'EXIT': 'FAILED', 'PSUSP': 'CANCELLED', 'USUSP': 'CANCELLED',
         'SSUSP': 'CANCELLED'}
state = {}
missing = set(ids)
for line in open(out).read().rstrip('\n').split('\n'):
    parts = line.split()
    if len(parts) != 2 or parts[0] not in ids:
        continue
    state[parts[0]] = table.get(parts[1], 'UNKNOWN')
    missing.discard(parts[0])
for j in missing:
    state[j] = 'COMPLETED'
for j in ids:
    print(j, state[j])
PY
}
states_are() {  # states_are "ID STATE ID STATE ..." ID...
	want=$1
	shift
	[ "$(status "$@" | tr '\n' ' ')" = "$want " ]
}

n1=$(python3 -c 'import time; print("parsl.lsf.%s" % time.time())')
block "$n1"
b1=$(submit "$n1")
check "bsub < block script is accepted and the id parsed" [ -n "$b1" ]
n2="$n1.2"
block "$n2"
b2=$(submit "$n2")
check "a second block is accepted" [ -n "$b2" ]
check "_status sees both blocks RUNNING" \
	wait_for 30 states_are "$b1 RUNNING $b2 RUNNING" "$b1" "$b2"
check "the block's stdout is SCRIPT_DIR/JOBNAME.submit.stdout" \
	wait_for 15 grep -q "pool 1 of $n1 in job $b1" "$SD/$n1.submit.stdout"
check "#BSUB -P, -q and -J are honoured" \
	sh -c "bjobs -noheader -o 'proj_name queue job_name' $b1 | grep -q '^parsl *normal *$n1\$'"
check "-n 2 with span[ptile=2]: both slots on one host" \
	sh -c "bjobs -noheader -o 'exec_host' $b1 | grep -q '^2\*vh1'"

touch "$T/stop-$b2"
check "a block that ends is COMPLETED (DONE)" \
	wait_for 20 states_are "$b1 RUNNING $b2 COMPLETED" "$b1" "$b2"

bkill "$b1" >"$T/bkill.out" 2>&1
check "cancel(): bkill ID exits 0" [ $? -eq 0 ]
check "the cancelled block is FAILED (EXIT) to _status" \
	wait_for 20 states_are "$b1 FAILED" "$b1"

# cancel() of several blocks at once: bkill ID ID must exit 0.
n3="$n1.3"; block "$n3"; b3=$(submit "$n3")
n4="$n1.4"; block "$n4"; b4=$(submit "$n4")
check "two more blocks RUNNING" \
	wait_for 30 states_are "$b3 RUNNING $b4 RUNNING" "$b3" "$b4"
bkill "$b3" "$b4" >"$T/bkill2.out" 2>&1
check "bkill ID ID exits 0" [ $? -eq 0 ]
check "... and both end EXIT" \
	wait_for 20 states_are "$b3 FAILED $b4 FAILED" "$b3" "$b4"

# request_by_nodes=True: "#BSUB -nnodes 2", two whole hosts.
n5="$n1.5"; block "$n5" '#BSUB -nnodes 2'; b5=$(submit "$n5")
check "a block with #BSUB -nnodes 2 is accepted" [ -n "$b5" ]
check "and RUNNING" wait_for 30 states_are "$b5 RUNNING" "$b5"
check "on both hosts, one slot each" \
	sh -c "bjobs -noheader -o 'exec_host' $b5 | tr ':' '\n' | sed 's/^1\*//' | sort | tr '\n' ' ' | grep -qx 'vh1 vh2 '"
other=$(bsub -o /dev/null true | job_id_of)
check "the hosts are the block's alone: another job waits" \
	sh -c "sleep 2; [ \"\$(bjobs -noheader -o stat $other)\" = PEND ]"
bkill "$b5" >/dev/null 2>&1
check "once the block is cancelled the other job runs" wait_for 30 state_is "$other" DONE
sh -c "bsub -nnodes 2 -n 2 true" >"$T/nn.out" 2>&1
check "-nnodes with -n is refused" [ $? -ne 0 ]
done_testing
