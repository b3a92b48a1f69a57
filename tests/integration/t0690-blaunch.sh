#!/bin/sh
# blaunch (issue 14, item 7): a 2-host job starts a task on its other host
# through that host's sbatchd (the task port), as the job's owner, with
# the task's output and exit code back in blaunch; a user who is not the
# job's owner is refused; bstop/bresume stop and resume the remote task and
# bkill kills it.  Two virtual hosts on 127.0.0.1, each sbatchd with its
# own task port (LSF_RES_PORT=0: the port is in $LSB_SHAREDIR/res.port.HOST).
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run jobs as a test user"
command -v munged >/dev/null || skip_all "munged is not installed"
command -v useradd >/dev/null || skip_all "useradd is not installed"
command -v setpriv >/dev/null || skip_all "setpriv is not installed"
user=bsb$$
add_test_user "$user" "$T/home" || exit 1
mkdir -p "$T/home" && chown "$user" "$T/home"
chmod 711 "$T"

BS_MXJ=1 make_cluster vh1 vh2 vh3   # vh3: a host of the cluster that never runs
grep -q '^LSF_AUTH=munge' "$LSF_ENVDIR/lsf.conf" || { diag "no munged"; exit 1; }
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
check "each sbatchd has its own task port" \
	sh -c "test -s '$T/work/res.port.vh1' && test -s '$T/work/res.port.vh2' && \
		! cmp -s '$T/work/res.port.vh1' '$T/work/res.port.vh2'"

as_user() { (cd "$T/home" && runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"); }

# The task: where it runs, as whom, both streams, an exit code of its own.
cat >"$T/home/task.sh" <<'TASK'
echo "task on $LSB_TASK_HOST as $(id -un) job $LSB_JOBID"
echo "to stderr" >&2
exit 7
TASK
chmod 755 "$T/home/task.sh"
id=$(as_user bsub -n 2 -o "$T/home/out" -e "$T/home/err" \
	'blaunch -z vh2 ./task.sh; echo "blaunch exit $?"' | job_id_of)
check "the 2-host job is submitted" test -n "$id"
ended() { state_is "$1" DONE || state_is "$1" EXIT; }
check "it runs and ends" wait_for 30 ended "$id"
check "it had a slot on each host" sh -c "bjobs -a -noheader -o exec_host $id | grep vh1 | grep -q vh2"
grep -q "task on vh2" "$T/home/out" || diag "$(cat "$T/home/out" "$T/home/err")"
check "the task ran on vh2 as the job's owner, in the job" \
	grep -qx "task on vh2 as $user job $id" "$T/home/out"
check "its stderr came back on blaunch's stderr" grep -qx "to stderr" "$T/home/err"
check "and nothing else on it" test "$(cat "$T/home/err")" = "to stderr"
check "blaunch exits with the task's code" grep -qx "blaunch exit 7" "$T/home/out"
check "vh2's sbatchd ran it" grep -q "blaunch task 1 started" "$T/log/sbatchd.vh2.out"

# Every host of the allocation when none is named; -no-shell; the rsh form.
id2=$(as_user bsub -n 2 -o "$T/home/out2" \
	'blaunch -no-shell printenv LSB_TASK_HOST; blaunch vh1 "echo rsh form \$LSB_TASK_HOST"
	blaunch -z vh2 head -c 5000000 /dev/zero | wc -c' | job_id_of)
check "a job without a host list runs on every host" \
	wait_for 30 sh -c "grep -qx vh1 '$T/home/out2' && grep -qx vh2 '$T/home/out2'"
check "host then command is rsh's form" wait_for 10 grep -qx "rsh form vh1" "$T/home/out2"
check "5 MB of a task's output arrive whole" wait_for 20 grep -qx 5000000 "$T/home/out2"

# The job's per-process limits and its submitter's umask hold for its tasks.
id7=$(cd "$T/home" && umask 027 && runuser -u "$user" -- env PATH="$PATH" \
	LSF_ENVDIR="$LSF_ENVDIR" HOME="$T/home" bsub -n 2 -S 2048 -o "$T/home/out7" \
	'blaunch -z vh2 "echo task stack \$(ulimit -s) umask \$(umask)"' | job_id_of)
check "a task on vh2 runs with the job's stack limit and umask" \
	wait_for 30 grep -qx "task stack 2048 umask 0027" "$T/home/out7"

# A task has a private TMPDIR of its own on its host (the job's exists on
# the first host only), gone with the task.
id8=$(as_user bsub -n 2 -o "$T/home/out8" \
	'blaunch -z vh2 "test -d \$TMPDIR -a -O \$TMPDIR && echo task tmp \$TMPDIR"; echo job tmp $TMPDIR' | job_id_of)
check "the job with a task ends" wait_for 30 ended "$id8"
ttmp=$(sed -n 's/^task tmp //p' "$T/home/out8")
jtmp=$(sed -n 's/^job tmp //p' "$T/home/out8")
check "the task had its own TMPDIR, the owner's" test -n "$ttmp"
check "not the job's" test "$ttmp" != "$jtmp"
check "and it is gone after the task" test ! -e "$ttmp"

# A long task on vh2 for the controls.
id3=$(as_user bsub -n 2 -o "$T/home/out3" 'blaunch -z vh2 sleep 3333; echo "blaunch exit $?"' | job_id_of)
task_pid() {
	for f in $(grep -lsz "^LSB_TASK_HOST=vh2" /proc/[0-9]*/environ); do
		p=$(echo "$f" | cut -d/ -f3)
		grep -qsz "^LSB_JOBID=$id3\$" "$f" && grep -qs "^sleep" "/proc/$p/cmdline" && echo "$p"
	done | head -n 1
}
task_found() { tp=$(task_pid); [ -n "$tp" ]; }
tp=
check "the remote task runs" wait_for 30 task_found
check "it runs as the job's owner" sh -c "test \"\$(stat -c %U /proc/$tp)\" = $user"

# Someone else may not start tasks in that job, even knowing its id.
nobody_env() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups env -i PATH="$PATH" \
		LSF_ENVDIR="$LSF_ENVDIR" LSB_JOBID="$id3" LSB_HOSTS="vh1 vh2" "$@"
}
(cd / && nobody_env blaunch -z vh2 touch /tmp/bs-blaunch-intruder.$$) >"$T/nobody.out" 2>&1
check "another user's blaunch fails" test $? -ne 0
check "with the reason" grep -q "permission denied: job <$id3> belongs to $user" "$T/nobody.out"
check "and nothing ran" test ! -e /tmp/bs-blaunch-intruder.$$
root_env() { env LSB_JOBID="$id3" LSB_HOSTS="vh1 vh2" "$@"; }
root_env blaunch -z vh2 true >"$T/root.out" 2>&1
check "root is not the job's owner either" grep -q "permission denied" "$T/root.out"
root_env blaunch -z vh3 true >"$T/vh3.out" 2>&1
check "a host outside the allocation is refused" grep -q "host vh3 is not allocated" "$T/vh3.out"
root_env blaunch vh3 true >"$T/vh3r.out" 2>&1
check "so is a cluster host outside it in rsh's form" grep -q "host vh3 is not allocated" "$T/vh3r.out"
env -u LSB_JOBID blaunch -z vh2 true >"$T/nojob.out" 2>&1
check "outside a job blaunch says so" grep -q "not inside a job" "$T/nojob.out"

bstop "$id3" >/dev/null 2>&1
check "bstop stops the remote task" wait_for 10 sh -c "test \"\$(awk '{print \$3}' /proc/$tp/stat)\" = T"
bresume "$id3" >/dev/null 2>&1
check "bresume resumes it" wait_for 15 sh -c "test \"\$(awk '{print \$3}' /proc/$tp/stat)\" != T"
bkill "$id3" >/dev/null 2>&1
check "bkill kills the remote task" wait_for 15 sh -c "! test -e /proc/$tp"
check "the job ends" wait_for 15 ended "$id3"

# The CPU a task used on vh2 counts in the job's usage, though the job's
# own script on vh1 only waited for blaunch.
id6=$(as_user bsub -n 2 -o /dev/null \
	"blaunch -z vh2 'i=0; while [ \$i -lt 1000000 ]; do i=\$((i+1)); done'" | job_id_of)
check "the busy task's job ends" wait_for 60 state_is "$id6" DONE
cpu6=$(bjobs -a -noheader -o cpu_used "$id6" | awk '{print $1}')
check "its CPU time includes the task's ($cpu6 s)" \
	awk -v c="$cpu6" 'BEGIN { exit !(c + 0 >= 0.4) }'

# Signals: bkill -s reaches the task (through vh2's sbatchd), and a signal
# the user sends blaunch goes on to the task.
cat >"$T/home/sig.sh" <<'TASK'
#!/bin/sh
n=0
trap 'n=$((n+1)); echo "usr1 $n"' USR1
trap 'echo "got TERM"; exit 3' TERM
echo ready
while :; do sleep 0.1; done
TASK
chmod 755 "$T/home/sig.sh"
id7=$(as_user bsub -n 2 -o "$T/home/out7" "trap ':' USR1; blaunch -z vh2 -no-shell ./sig.sh; echo \"blaunch exit \$?\"" | job_id_of)
check "the trapping task is ready" wait_for 30 grep -qx ready "$T/home/out7"
bkill -s USR1 "$id7" >/dev/null 2>&1
check "bkill -s USR1 reaches the task on vh2" wait_for 15 grep -qx "usr1 1" "$T/home/out7"
blaunch_pid() {
	for f in $(grep -lsz "^LSB_JOBID=$id7\$" /proc/[0-9]*/environ); do
		p=$(echo "$f" | cut -d/ -f3)
		grep -qsz "^LSB_TASK_HOST=" "$f" && continue
		tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" | grep -q "^blaunch " && echo "$p"
	done | head -n 1
}
bp=$(blaunch_pid)
check "blaunch is found" test -n "$bp"
as_user kill -TERM "$bp"
check "the user's SIGTERM to blaunch reaches the task" wait_for 15 grep -qx "got TERM" "$T/home/out7"
check "and blaunch exits with the task's code" wait_for 15 grep -qx "blaunch exit 3" "$T/home/out7"
grep -q "blaunch exit 3" "$T/home/out7" || diag "$(cat "$T/home/out7")"

# A task is the job's: when the job ends on its first host (here its
# blaunch was killed with SIGKILL, so it could not end the task itself),
# mbatchd kills what blaunch started on the other hosts.
id4=$(as_user bsub -n 2 -o "$T/home/out4" 'blaunch -z vh2 sleep 4444 &
	while [ ! -e go4 ]; do sleep 0.1; done; kill -KILL $!; exit 0' | job_id_of)
sleeper() {   # sleeper JOBID SECONDS: pid of that task on vh2
	for f in $(grep -lsz "^LSB_TASK_HOST=vh2" /proc/[0-9]*/environ); do
		p=$(echo "$f" | cut -d/ -f3)
		grep -qsz "^LSB_JOBID=$1\$" "$f" && grep -qs "^sleep.$2" "/proc/$p/cmdline" && echo "$p"
	done | head -n 1
}
found4() { tp4=$(sleeper "$id4" 4444); [ -n "$tp4" ]; }
tp4=
check "the job's task runs on vh2" wait_for 30 found4
touch "$T/home/go4"
check "the job ends without it" wait_for 15 state_is "$id4" DONE
check "and its task on vh2 is killed" wait_for 15 sh -c "! test -e /proc/$tp4"

# An sbatchd that stops takes its tasks with it (their output has nowhere
# to go): blaunch says the task is lost and fails; a new sbatchd serves
# blaunch again on a new port.
id5=$(as_user bsub -n 2 -o "$T/home/out5" 'blaunch -z vh2 sleep 5555; echo "blaunch exit $?"
	while [ ! -e go ]; do sleep 0.1; done; blaunch -z vh2 echo again' | job_id_of)
found5() { tp5=$(sleeper "$id5" 5555); [ -n "$tp5" ]; }
tp5=
check "a long task runs on vh2" wait_for 30 found5
kill -TERM "$(sbd_pid vh2)"
check "vh2's sbatchd stopping kills its task" wait_for 15 sh -c "! test -e /proc/$tp5"
check "blaunch reports the lost task" wait_for 15 grep -qx "blaunch exit 255" "$T/home/out5"
# (start_sbd waits for "ok" in bhosts; vh2 is full with the job's slot.)
sbatchd -f -N vh2 -S "$T/sbd/vh2" >>"$T/log/sbatchd.vh2.out" 2>&1 &
track $!
check "vh2's sbatchd is back" wait_for 10 sh -c \
	"test \$(grep -c 'registered with mbatchd' '$T/log/sbatchd.vh2.out') -eq 2"
touch "$T/home/go"
check "the new sbatchd on vh2 starts tasks" wait_for 30 grep -qx again "$T/home/out5"

done_testing
