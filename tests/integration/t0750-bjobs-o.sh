#!/bin/sh
# bjobs -o against a real cluster: LSF's recommended widths ("field:"),
# right alignment ("field:-N"), delimiter='c' and delimiter="c",
# -noheader, -hms, and the fields scripts ask for beyond the first
# sixteen (run_time, time_left, nexec_host, command, sub_cwd, output_file,
# dependency, exit_reason, application ...), each as the job has it.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T" || exit 1

id=$(bsub -J sim_run1 -P projA -app short -o "$T/out.%J" sleep 300 | job_id_of)
check "the job runs" wait_for 15 state_is "$id" RUN

bjobs -o "jobid: stat: queue:" "$id" >"$T/w" 2>&1
check "field: pads to LSF's widths (7, 5; the last one unpadded)" \
	sh -c "head -n 1 '$T/w' | grep -qx 'JOBID   STAT  QUEUE'"
check "and the values with them" \
	sh -c "sed -n 2p '$T/w' | grep -qx \"\$(printf '%-7s RUN   normal' $id)\""

bjobs -noheader -o "jobid:-10 stat" "$id" >"$T/r" 2>&1
check "field:-N aligns right, -noheader drops the header" \
	sh -c "grep -qx \"\$(printf '%10s RUN' $id)\" '$T/r' && [ \$(wc -l <'$T/r') -eq 1 ]"

bjobs -noheader -o "jobid stat queue delimiter=','" "$id" >"$T/d1" 2>&1
check "delimiter in single quotes" grep -qx "$id,RUN,normal" "$T/d1"
bjobs -noheader -o 'jobid stat delimiter=";"' "$id" >"$T/d2" 2>&1
check "delimiter in double quotes" grep -qx "$id;RUN" "$T/d2"

bjobs -noheader -o "exit_reason run_time nexec_host time_left command sub_cwd output_file dependency proj_name application first_host pend_reason delimiter='|'" "$id" >"$T/f" 2>&1
field() { awk -F'|' -v n="$1" '{print $n}' "$T/f"; }
check "the extended field list is accepted" sh -c "[ \$(awk -F'|' '{print NF}' '$T/f') -eq 12 ]"
check "exit_reason of a running job is -" sh -c "[ \"\$(awk -F'|' '{print \$1}' '$T/f')\" = - ]"
check "run_time in seconds" sh -c "awk -F'|' '{print \$2}' '$T/f' | grep -qE '^[0-9]+ second\\(s\\)$'"
check "nexec_host" sh -c "[ \"\$(awk -F'|' '{print \$3}' '$T/f')\" = 1 ]"
check "time_left of the application's 10-minute RUNLIMIT" \
	sh -c "awk -F'|' '{print \$4}' '$T/f' | grep -qE '^0:(09|10) L$'"
check "command" sh -c "[ \"\$(awk -F'|' '{print \$5}' '$T/f')\" = 'sleep 300' ]"
check "sub_cwd" sh -c "[ \"\$(awk -F'|' '{print \$6}' '$T/f')\" = '$T' ]"
check "output_file as given" sh -c "[ \"\$(awk -F'|' '{print \$7}' '$T/f')\" = '$T/out.%J' ]"
check "dependency unset is -" sh -c "[ \"\$(awk -F'|' '{print \$8}' '$T/f')\" = - ]"
check "proj_name and application" sh -c "awk -F'|' '{print \$9, \$10}' '$T/f' | grep -qx 'projA short'"
check "first_host" sh -c "[ \"\$(awk -F'|' '{print \$11}' '$T/f')\" = vh1 ]"

bjobs -noheader -hms -o "run_time cpu_used time_left runtimelimit" "$id" >"$T/h" 2>&1
check "-hms shows durations as hh:mm:ss" \
	grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} 00:(09|10):[0-9]{2} L 00:10:00$' "$T/h"

dep=$(bsub -w "done($id)" -o /dev/null true | job_id_of)
check "a job waiting on its dependency shows it, ineligible" wait_for 10 sh -c "bjobs -noheader -o \"dependency pendstate\" $dep | grep -qx \"done($id) IPEND\""

! bjobs -o "jobid no_such_field" >"$T/bad" 2>&1
check "an unknown field is still refused" \
	grep -q "Invalid field name or format in -o: no_such_field" "$T/bad"

bkill "$id" "$dep" >/dev/null
check "the killed job has an exit code" wait_for 15 sh -c "bjobs -noheader -o 'exit_code stat' $id | grep -qE '^[0-9]+ EXIT$'"
done_testing
