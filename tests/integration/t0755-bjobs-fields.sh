#!/bin/sh
# JobQuery.fields: a query that names the fields it prints gets those and
# no others, with the same values as in the full record; a query without
# it (a client older than the field) gets every field as before.  bjobs'
# table asks for its columns (and with -p or -s for the reasons), and
# prints the same rows from them.
. "$top_srcdir/tests/lib.sh"

ABUSER=$top_builddir/tests/integration/rpc-abuser
[ -x "$ABUSER" ] || skip_all "rpc-abuser is not built"
BS_MXJ=1 make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
SOCK=$T/work/mbatchd.sock
uid=$(id -u)

done_id=$(bsub -J finished -o /dev/null true | job_id_of)
check "a job finishes" wait_for 30 state_is "$done_id" DONE
run=$(bsub -J runner -o /dev/null sleep 300 | job_id_of)
check "a job runs" wait_for 30 state_is "$run" RUN
pend=$(bsub -J 'waiting[1-2]' -o /dev/null sleep 1 | job_id_of)
held=$(bsub -H -o /dev/null sleep 1 | job_id_of)
check "a job is held" wait_for 10 state_is "$held" PSUSP
bstop "$run" >/dev/null 2>&1
check "the running job is stopped" wait_for 30 state_is "$run" USUSP

"$ABUSER" jobs "$SOCK" 0 >"$T/all" 2>"$T/all.err"
"$ABUSER" jobs "$SOCK" 3 >"$T/reasons" 2>"$T/reasons.err"
"$ABUSER" jobs "$SOCK" 1 >"$T/table" 2>"$T/table.err"
check "the unmasked query lists the five jobs" \
	sh -c "[ \$(grep -c ' | uid=$uid usage=1 ' '$T/all') -eq 5 ]"
check "with the started job's start time" \
	sh -c "grep '^$run\\[0\\] ' '$T/all' | grep -qv ' start=0 '"
check "and a pending job's reason" \
	grep -q "^$pend\\[1\\] .* pend=[A-Za-z].* |" "$T/all"
check "and the suspended job's reason" \
	grep -q "^$run\\[0\\] .* susp=[A-Za-z].* |" "$T/all"
cut -d'|' -f1 "$T/all" >"$T/all.table"
cut -d'|' -f1 "$T/reasons" >"$T/reasons.table"
check "the masked query's fields equal the full record's" \
	cmp "$T/all.table" "$T/reasons.table"
check "and it carries none of the others" \
	sh -c "[ \$(grep -c ' | uid=0 usage=0 prio=0 start=0 consumer=\$' '$T/reasons') -eq 5 ]"
sed 's/ pend=.* susp=.* | / pend= susp= | /' "$T/all" | cut -d'|' -f1 >"$T/all.noreason"
cut -d'|' -f1 "$T/table" >"$T/table.table"
check "the table's fields alone leave the reasons out" \
	cmp "$T/all.noreason" "$T/table.table"

# The rows bjobs prints from its columns.
host=$(hostname)
bjobs -a -u all >"$T/bjobs" 2>&1
check "the table's header" \
	sh -c "head -n 1 '$T/bjobs' | grep -qx 'JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME'"
check "the stopped job's row" \
	grep -Eq "^$run +$(id -un | cut -c1-7) +USUSP +normal +[^ ]+ +vh1 +runner +[A-Z][a-z]{2} [ 0-9]{2} [0-9]{2}:[0-9]{2}\$" "$T/bjobs"
check "an element's row with its index" \
	grep -Eq "^$pend +.* PEND +normal +[^ ]+ +waiting\\[2\\] " "$T/bjobs"
check "the finished job's row" grep -Eq "^$done_id +.* DONE +normal +.* vh1 +finished " "$T/bjobs"
check "five rows and the header" sh -c "[ \$(wc -l <'$T/bjobs') -eq 6 ]"
# LSF's order: pending jobs in dispatch order, then started, then finished.
check "pending, started, then finished jobs" \
	sh -c "[ \"\$(awk 'NR > 1 { printf \"%s \", \$1 }' '$T/bjobs')\" = '$pend $pend $held $run $done_id ' ]"
bjobs -p -u all >"$T/p" 2>&1
check "-p: the pending reason under its row" \
	sh -c "grep -A1 '^$pend ' '$T/p' | grep -q '^ [A-Z].*;\$'"
check "-p: the held job's reason" \
	sh -c "grep -A1 '^$held ' '$T/p' | grep -qx ' The job was suspended by the user while pending;'"
bjobs -s -u all >"$T/s" 2>&1
check "-s: the suspended job's reason under its row" \
	sh -c "grep -A1 '^$run ' '$T/s' | grep -q '^ [A-Z].*;\$'"
bjobs -w -u all >"$T/w" 2>&1
check "-w: the whole element name" grep -Eq "^$pend +.* waiting\\[1\\] " "$T/w"
# Modes that print more ask for every field, as before.
bjobs -l "$run" 2>&1 | unwrapped >"$T/l"
check "-l still shows the command" grep -q 'Command <sleep 300>' "$T/l"
bjobs -noheader -o "jobid cpu_used start_time" "$run" >"$T/o" 2>&1
check "-o still shows fields outside the table" \
	grep -Eq "^$run +[0-9.]+ second\(s\) +[A-Z][a-z]{2} [ 0-9]{2} [0-9]{2}:[0-9]{2}\$" "$T/o"
bjobs -json -o "jobid stat" "$run" >"$T/json" 2>&1
check "-json lists the job" grep -q "\"JOBID\":\"$run\"" "$T/json"

bkill "$run" "$held" "$pend" >/dev/null 2>&1
done_testing
