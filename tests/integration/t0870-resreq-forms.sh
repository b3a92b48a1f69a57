#!/bin/sh
# LSF 10.1's alternative ({...} || {...}) and compound (n*{...} + m*{...})
# resource requirements, on a live cluster: bsub and mbatchd accept both,
# the jobs run, bjobs -l shows each string as it was given, and a compound
# requirement's slot counts add up to the job's slot count (Basalt uses its
# first part for all of them; bsub(1) RESOURCE REQUIREMENTS says so).
. "$top_srcdir/tests/lib.sh"

BS_MXJ=4 make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

exec_host() { bjobs -noheader -o "exec_host" "$1" 2>/dev/null | tr -d ' '; }
runs_on() { state_is "$1" RUN && [ "$(exec_host "$1")" = "$2" ]; }
shown() { bjobs -l "$1" | tr -d '\n ' | grep -qF "$2"; }

alt='{select[mem>=1MB] rusage[mem=10]} || {select[mem>=1] span[hosts=1]}'
a=$(bsub -R "$alt" -o /dev/null sleep 300 | job_id_of)
check "an alternative requirement is accepted" test -n "$a"
check "and its job runs" wait_for 20 runs_on "$a" vh1
check "bjobs -l shows it as given" shown "$a" "$(printf '%s' "$alt" | tr -d ' ')"
bkill "$a" >/dev/null

cmp='2*{select[mem>0] span[hosts=1]} + 1*{select[mem>0] span[hosts=1]}'
c=$(bsub -R "$cmp" -o /dev/null sleep 300 | job_id_of)
check "a compound requirement is accepted" test -n "$c"
check "its job runs on the sum of its slots, 3" wait_for 20 runs_on "$c" "3*vh1"
check "bjobs -l shows it as given" shown "$c" "$(printf '%s' "$cmp" | tr -d ' ')"
bkill "$c" >/dev/null

check "-n that disagrees with a compound count is refused" \
	sh -c "! bsub -n 2 -R '$cmp' -o /dev/null true 2>$T/n.err"
check "with a message saying why" grep -q "compound resource requirement's 3 slots" "$T/n.err"
check "-n that agrees is accepted" \
	sh -c "bsub -n 3 -R '$cmp' -o /dev/null true | grep -q 'is submitted'"
check "a typo in an unused alternative is still an error" \
	sh -c "! bsub -R '{select[mem>0]} || {select[mem>}' -o /dev/null true 2>/dev/null"
done_testing
