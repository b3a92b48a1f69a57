#!/bin/sh
# The environment LSF gives a job: the host file and slot counts of a
# parallel job, the output and error files, the cluster, the job file, the
# project, the submitting user, the submission and execution directories,
# LSF's directories, and a private TMPDIR that is gone when the job ends.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/sub" "$T/run" "$T/canary"
echo keep >"$T/canary/file"
cd "$T/sub" || exit 1
me=$(id -un)

id=$(bsub -n 2 -P envproj -cwd "$T/run" -o "$T/env.out" -e "$T/env.err" \
	'env | grep -E "^(LSB_|LS_|LSF_|TMPDIR=)" | sort; echo HOSTFILE; cat "$LSB_DJOB_HOSTFILE"; \
	 ls -ld "$TMPDIR" | cut -c1-10; touch "$TMPDIR/scratch"; mkdir "$TMPDIR/sub"; \
	 ln -s '"$T"'/canary "$TMPDIR/sub/link"; ln -s '"$T"'/canary/file "$TMPDIR/flink"; echo "$TMPDIR" >'"$T"'/tmpdir.txt' | job_id_of)
check "a 2-slot job ends DONE" wait_for 20 state_is "$id" DONE
f="$T/env.out"
has() { grep -qx "$1" "$f"; }
check "LSB_DJOB_NUMPROC=2" has "LSB_DJOB_NUMPROC=2"
check "LSB_MAX_NUM_PROCESSORS=2" has "LSB_MAX_NUM_PROCESSORS=2"
check "LSB_DJOB_HOSTFILE lists one host per slot" sh -c "sed -n '/^HOSTFILE\$/,/^Sender/p' $f | grep -c '^vh1\$' | grep -qx 2"
check "LSB_OUTPUTFILE" has "LSB_OUTPUTFILE=$T/env.out"
check "LSB_ERRORFILE" has "LSB_ERRORFILE=$T/env.err"
check "LSB_EXEC_CLUSTER" has "LSB_EXEC_CLUSTER=basalt"
check "LSB_JOBFILENAME names a file" grep -q "^LSB_JOBFILENAME=/" "$f"
check "LSB_PROJECT_NAME" has "LSB_PROJECT_NAME=envproj"
check "LSB_SUB_USER" has "LSB_SUB_USER=$me"
check "LS_SUBCWD is the submission directory" has "LS_SUBCWD=$T/sub"
check "LS_EXECCWD is where it ran" has "LS_EXECCWD=$T/run"
check "LSF_BINDIR, LSF_LIBDIR, LSF_SERVERDIR" sh -c \
	"grep -q '^LSF_BINDIR=/' $f && grep -q '^LSF_LIBDIR=/' $f && grep -q '^LSF_SERVERDIR=/' $f"
check "TMPDIR is under LSB_JOB_TMPDIR" grep -q "^TMPDIR=$T/jobtmp/$id.tmpdir" "$f"
check "TMPDIR is private (0700)" grep -qx "drwx------" "$f"
tmp=$(cat "$T/tmpdir.txt")
check "the job wrote into its TMPDIR" test -n "$tmp"
gone() { [ -n "$1" ] && [ ! -e "$1" ]; }
check "TMPDIR is gone after the job" wait_for 10 gone "$tmp"
check "what its symlinks pointed to is untouched" grep -qx keep "$T/canary/file"
check "the host file is gone too" sh -c "! ls $T/sbd/vh1/jobs/ | grep -q hostfile"

id=$(bsub -o /dev/null 'echo "$TMPDIR" >'"$T"'/t2.txt; sleep 300' | job_id_of)
check "a long job runs" wait_for 20 state_is "$id" RUN
check "its TMPDIR exists while it runs" wait_for 10 sh -c "test -d \"\$(cat $T/t2.txt)\""
bkill "$id" >/dev/null
check "a killed job ends EXIT" wait_for 20 state_is "$id" EXIT
check "and its TMPDIR is gone" wait_for 10 gone "$(cat "$T/t2.txt")"
done_testing
