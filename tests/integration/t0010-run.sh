#!/bin/sh
# Jobs run as real processes on virtual hosts: DONE and EXIT with the exit
# code, output files with %J, the LSB_* environment, the working directory.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
check "both virtual hosts are ok in bhosts" sh -c 'bhosts | grep -q "^vh1 *ok" && bhosts | grep -q "^vh2 *ok"'

mkdir -p "$T/wd"
cd "$T/wd" || exit 1
out=$(bsub -o "$T/out.%J" -e "$T/err.%J" 'echo "id=$LSB_JOBID q=$LSB_QUEUE h=$LSB_HOSTS n=$LSB_JOBNAME"; pwd; echo oops >&2')
id=$(echo "$out" | job_id_of)
case "$out" in
"Job <$id> is submitted to default queue <normal>.") ok "bsub prints the default-queue line" ;;
*) not_ok "bsub prints the default-queue line: $out" ;;
esac
check "the job reaches DONE" wait_for 15 state_is "$id" DONE
check "stdout file named with %J holds the LSB_ variables" \
	grep -q "^id=$id q=normal h=vh[12] n=echo" "$T/out.$id"
check "the job ran in the submission directory" grep -qx "$T/wd" "$T/out.$id"
check "stderr went to its own file" grep -qx oops "$T/err.$id"

id=$(bsub -q short 'exit 7' | job_id_of)
check "a failing job reaches EXIT" wait_for 15 state_is "$id" EXIT
check "bjobs reports exit code 7" sh -c "bjobs -a -noheader -o exit_code $id | grep -qw 7"

check "bsub -K waits for the job and exits with its code" \
	sh -c 'bsub -K -o /dev/null "exit 4" >/dev/null 2>&1; [ $? -eq 4 ]'

id=$(bsub 'echo peekaboo; sleep 30' | job_id_of)
check "a sleeping job is RUN" wait_for 10 state_is "$id" RUN
peek_shows() { bpeek "$id" 2>/dev/null | grep -q peekaboo; }
check "bpeek shows the running job's output" wait_for 10 peek_shows
check "bjobs shows it in the default listing" sh -c "bjobs | grep -q \"^$id \""
check "bkill terminates it" sh -c "bkill $id | grep -q 'Job <$id> is being terminated'"
check "and it ends in EXIT" wait_for 15 state_is "$id" EXIT
check "bjobs with no unfinished job says so and exits non-zero" \
	sh -c 'bjobs 2>&1 | grep -q "No unfinished job found" && ! bjobs >/dev/null 2>&1'
check "bjobs on an unknown id says it is not found" \
	sh -c 'bjobs 999999 2>&1 | grep -q "Job <999999> is not found"'
check "bqueues lists the shipped queues in priority order" \
	sh -c 'bqueues | awk "NR>1 {print \$1}" | tr "\n" " " | grep -qx "priority short normal idle "'
check "lsid names the cluster" sh -c 'lsid | grep -q "My cluster name is basalt"'
done_testing
