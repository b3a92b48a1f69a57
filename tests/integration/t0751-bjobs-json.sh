#!/bin/sh
# bjobs -json against a real cluster, read the way JSON-reading tools do
# (json.load, then RECORDS and upper-case keys): several -o fields; a
# valid document with empty RECORDS and exit 0 when nothing matches; an
# error record for a job id that does not exist.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T" || exit 1

bjobs -json >"$T/empty" 2>"$T/empty.err"
rc=$?
check "nothing to list: exit 0" [ "$rc" -eq 0 ]
check "and nothing on stderr" sh -c "[ ! -s '$T/empty.err' ]"
check "a valid document with no records" python3 -c "
import json, sys
d = json.load(open('$T/empty'))
assert d['COMMAND'] == 'bjobs' and d['JOBS'] == 0 and d['RECORDS'] == [], d
"
bjobs -json -u all -q normal -o "jobid stat" >"$T/empty2" 2>&1
check "with filters and -o too" python3 -c "
import json
d = json.load(open('$T/empty2'))
assert d['JOBS'] == 0 and d['RECORDS'] == [], d
"

run=$(bsub -J json_run -o /dev/null sleep 300 | job_id_of)
ex=$(bsub -J json_exit -o /dev/null 'exit 3' | job_id_of)
check "one job runs" wait_for 15 state_is "$run" RUN
check "the other exits" wait_for 15 state_is "$ex" EXIT

bjobs -a -json -o "jobid stat job_name exit_code run_time nexec_host command sub_cwd time_left" >"$T/two" 2>"$T/two.err"
rc=$?
check "bjobs -json -o with several fields: exit 0" [ "$rc" -eq 0 ]
check "the records hold LSF's upper-case keys and the jobs' values" python3 -c "
import json
d = json.load(open('$T/two'))
assert d['JOBS'] == 2 == len(d['RECORDS']), d
r = {x['JOBID']: x for x in d['RECORDS']}
a, b = r['$run'], r['$ex']
assert a['STAT'] == 'RUN' and a['JOB_NAME'] == 'json_run', a
assert a['EXIT_CODE'] == '' and a['NEXEC_HOST'] == '1', a
assert a['RUN_TIME'].endswith('second(s)') and a['COMMAND'] == 'sleep 300', a
assert a['SUB_CWD'] == '$T' and a['TIME_LEFT'] == '', a
assert b['STAT'] == 'EXIT' and b['EXIT_CODE'] == '3', b
"

bjobs -json -o "jobid stat" "$run" 99999 >"$T/miss" 2>"$T/miss.err"
rc=$?
check "a missing job id fails with 255" [ "$rc" -eq 255 ]
check "but the document stays valid, with an error record" python3 -c "
import json
d = json.load(open('$T/miss'))
assert d['JOBS'] == 2, d
assert d['RECORDS'][0] == {'JOBID': '$run', 'STAT': 'RUN'}, d
assert d['RECORDS'][1] == {'JOBID': '99999', 'ERROR': 'Job <99999> is not found'}, d
"
check "and stderr stays empty" sh -c "[ ! -s '$T/miss.err' ]"
bkill "$run" >/dev/null
done_testing
