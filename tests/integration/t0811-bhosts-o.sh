#!/bin/sh
# bhosts as LSF 10.1: -o with widths, delimiter and -noheader, -json as
# a JSON document (parsed), -R keeping only the hosts that satisfy the
# select string by the figures the scheduler reads, and -s.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
check "vh1 is ok" wait_for 10 host_ok vh1

bhosts -o "host_name:8 status max:-4 njobs delimiter='|'" >"$T/o" 2>&1
check "-o succeeds" [ $? -eq 0 ]
check "-o: header, widths and delimiter" python3 -c "
l = open('$T/o').read().split('\n')
assert l[0] == 'HOST_NAM|STATUS| MAX|NJOBS', l
assert l[1] == 'vh1     |ok|   4|0', l
assert l[2] == 'vh2     |unavail|   4|0', l
"
bhosts -noheader -o "hname" vh2 >"$T/n" 2>&1
check "-noheader and a named host" [ "$(cat "$T/n")" = vh2 ]
bhosts -o "host_name nosuch" >"$T/bad" 2>&1
check "an unknown field fails" [ $? -eq 255 ]
check "with LSF's message" grep -q "bhosts: Invalid field name or format in -o: nosuch" "$T/bad"

bhosts -json >"$T/j" 2>&1
check "-json parses, default columns" python3 -c "
import json
d = json.load(open('$T/j'))
assert d['COMMAND'] == 'bhosts' and d['HOSTS'] == 2, d
r = {x['HOST_NAME']: x for x in d['RECORDS']}
assert r['vh1']['STATUS'] == 'ok' and r['vh1']['MAX'] == '4', r
assert sorted(r['vh2']) == sorted(['HOST_NAME', 'STATUS', 'JL_U', 'MAX',
    'NJOBS', 'RUN', 'SSUSP', 'USUSP', 'RSV']), r
"

hosts_of() { bhosts "$@" | awk 'NR > 1 {printf "%s ", $1}'; }
check "-R by host name" [ "$(hosts_of -R 'select[hname==vh2]')" = 'vh2 ' ]
check "-R by memory: only the host that reported it" \
	[ "$(hosts_of -R 'select[maxmem>1]')" = 'vh1 ' ]
check "-R with a unit and a named host" \
	[ "$(hosts_of -R 'select[maxmem>1MB]' vh1 vh2)" = 'vh1 ' ]
bhosts -R 'select[maxmem>1' >"$T/r" 2>&1
check "a bad -R fails" [ $? -eq 255 ]
bhosts -R 'select[ncpus>100000]' >"$T/r2" 2>&1
check "-R no host satisfies: exit 255" [ $? -eq 255 ]
check "with No matching host found" grep -q "No matching host found" "$T/r2"

bhosts -s >"$T/s" 2>&1
check "-s: Basalt has no shared resources" [ $? -eq 255 ]
check "and says so" grep -q "No resource found" "$T/s"
done_testing
