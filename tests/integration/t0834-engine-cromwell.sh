#!/bin/sh
# Cromwell's LSF backend example, replayed: the submit line
#   bsub -J ${job_name} -cwd ${cwd} -o ${out} -e ${err} /usr/bin/env bash ${script}
# with the job id found by job-id-regex "Job <(\d+)>.*" in bsub's output,
# check-alive "bjobs ${job_id}" (alive when it exits 0) and kill
# "bkill ${job_id}"; the call's end is seen, as Cromwell sees it, by the
# rc file its script writes in the execution directory.
# Follows broadinstitute/cromwell cromwell.example.backends/LSF.conf at
# commit 67172bf3824af38488e54b5622cf6a71657d2b6b.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
WF="$T/cromwell-executions/hello/4d2a6b1c-0e5f-4a8e-9d1b-6f7c8a9b0c1d"

# call NAME COMMAND: the execution directory and a script of the shape
# Cromwell writes (the command in a subshell, its status to rc.tmp, then
# renamed to rc); prints the execution directory.
call() {
	ex="$WF/call-$1/execution"
	mkdir -p "$ex"
	cat >"$ex/script" <<SCRIPT
#!/bin/bash

cd $ex
(
cd $ex
$2
)  > '$ex/stdout' 2> '$ex/stderr'
echo \$? > '$ex/rc.tmp'
mv '$ex/rc.tmp' '$ex/rc'
SCRIPT
	echo "$ex"
}

# submit NAME EXECDIR: the configured submit line through a shell, the id
# by job-id-regex.
submit() {
	sh -c "bsub -J cromwell_4d2a6b1c_$1 -cwd $WF/call-$1 -o $2/stdout.submit -e $2/stderr.submit /usr/bin/env bash $2/script" >"$T/submit-$1.out" 2>&1
	python3 - "$T/submit-$1.out" <<'PY'
import re, sys
m = re.search(r"Job <(\d+)>.*", open(sys.argv[1]).read())
print(m.group(1) if m else "")
PY
}
alive() { sh -c "bjobs $1" >/dev/null 2>&1; }

A=$(call hello 'echo "hello $(pwd)"')
a=$(submit hello "$A")
check "the submit line is accepted; job-id-regex finds the id" [ -n "$a" ]
B=$(call sleeper "while [ ! -e $T/never ]; do sleep 0.2; done")
b=$(submit sleeper "$B")
check "a second call is accepted" [ -n "$b" ]

check "call hello writes rc" wait_for 30 test -s "$A/rc"
check "... 0" [ "$(cat "$A/rc")" = 0 ]
check "... its command's stdout is in execution/stdout" \
	grep -qx "hello $A" "$A/stdout"
check "-o: the job's own output file is written" wait_for 10 test -e "$A/stdout.submit"
check "-J is honoured" \
	sh -c "bjobs -noheader -o 'job_name' -w $a | grep -qx cromwell_4d2a6b1c_hello"
check "check-alive: bjobs ID exits 0 for a running call" wait_for 30 state_is "$b" RUN
check "... alive" alive "$b"
check "check-alive: bjobs of an unknown id exits non-zero" sh -c "! bjobs 999999 >/dev/null 2>&1"

sh -c "bkill $b" >"$T/bkill.out" 2>&1
check "kill: bkill ID exits 0" [ $? -eq 0 ]
check "the killed call is EXIT" wait_for 20 state_is "$b" EXIT
check "... and never wrote rc" [ ! -e "$B/rc" ]
done_testing
