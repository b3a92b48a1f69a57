#!/bin/sh
# Whole-job memory limits, as LSF enforces them: a job whose processes
# together pass bsub -M is killed by sbatchd with TERM_MEMLIMIT, one whose
# virtual memory passes -v with TERM_SWAP, and bjobs -l, bhist -l and bacct
# -l say so ("Completed <exit>; TERM_MEMLIMIT: job killed after reaching
# LSF memory usage limit.").  The job is its process tree: a child that
# left the job's process group (setsid) counts and is killed with it.  The accounting of a job whose children hold
# memory (MAX MEM, AVG MEM, MAX PROCS) is shown, and all of it survives an
# mbatchd restart (journal replay).  sbatchd samples every second here
# (LSF_PIM_SLEEPTIME=1).
. "$top_srcdir/tests/lib.sh"

hog="$top_builddir/tests/helpers/bs-hog"
make_cluster vh1
echo "LSF_PIM_SLEEPTIME=1" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T/work" || exit 1


# 200 MB touched against a 50 MB limit: the memory is real (resident).
mem=$(bsub -M 50M -o "$T/work/mem.out" "$hog" mem 200 60 | job_id_of)
check "a job over -M is killed" wait_for 30 state_is "$mem" EXIT
check "bjobs -l gives TERM_MEMLIMIT in LSF's words" says bjobs "$mem" \
	'Completed <exit>; TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.'
check "bjobs -l shows the limit it had" sh -c "bjobs -l $mem | grep -A1 MEMLIMIT | grep -qx ' 51200 K'"
check "bacct -l gives TERM_MEMLIMIT" says bacct "$mem" 'TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.'
field_is() {    # field_is JOB FIELD VALUE: bjobs -o FIELD of the job is VALUE
	[ "$(bjobs -noheader -o "$2" "$1")" = "$3" ]
}
check "bjobs -o exit_reason gives it too" field_is "$mem" exit_reason \
	'TERM_MEMLIMIT: job killed after reaching LSF memory usage limit'
check "bhist -l gives TERM_MEMLIMIT" says bhist "$mem" 'TERM_MEMLIMIT'

# Virtual memory (LSF's SWAP): 400 MB reserved, never touched, limit 100 MB.
swap=$(bsub -v 100M -o "$T/work/swap.out" "$hog" vmem 400 60 | job_id_of)
check "a job over -v is killed" wait_for 30 state_is "$swap" EXIT
check "with TERM_SWAP" says bjobs "$swap" 'TERM_SWAP: job killed after reaching LSF swap usage limit.'

# Under its limit nothing happens: two children holding 30 MB each for a
# few samples, and one with 6 threads, within -M 200M.
acct=$(bsub -M 200M -o "$T/work/acct.out" \
	"'$hog' mem 30 4 & '$hog' mem 30 4 & '$hog' threads 6 4 & wait" | job_id_of)
check "a job within its limit is done" wait_for 30 state_is "$acct" DONE
check "bjobs -l: MAX MEM counts both children (>= 50 Mbytes)" \
	sh -c "[ \"\$(bjobs -l $acct | sed -n 's/.*MAX MEM: \([0-9]*\).*Mbytes.*/\1/p')\" -ge 50 ]"
check "bjobs -l: AVG MEM" sh -c "bjobs -l $acct | grep -q 'AVG MEM: [0-9.]* Mbytes'"
check "bjobs -l: MAX PROCS counts the shell and the children" \
	sh -c "[ \"\$(bjobs -l $acct | sed -n 's/.*MAX PROCS: \([0-9]*\);.*/\1/p')\" -ge 3 ]"
check "bjobs -o avg_mem" sh -c "bjobs -noheader -o avg_mem $acct | grep -qx '[0-9.]* Mbytes'"
check "bacct -l: the same accounting" sh -c "bacct -l $acct | grep -q 'MAX PROCS: [3-9]'"

# The MEMORY USAGE block of bjobs -l, bhist -l and bacct -l, figure by
# figure: the job's four processes (the shell, two holding 30 MB, one with
# six threads) were sampled for about four seconds.
usage_block() {    # usage_block CMD JOB: CMD -l JOB has the job's figures
	out=$("$1" -l "$2")
	mb() {    # mb LABEL: the figure after LABEL in whole Mbytes
		printf '%s\n' "$out" | sed -n "s/.*$1 \([0-9.]*\) \([KMG]\)bytes.*/\1 \2/p" |
			head -1 | awk '{ v = $1; if ($2 == "G") v *= 1024; if ($2 == "K") v /= 1024;
				printf "%d", v }'
	}
	num() { printf '%s\n' "$out" | sed -n "s/.*$1 \([0-9]*\).*/\1/p" | head -1; }
	printf '%s\n' "$out" | grep -q 'MEMORY USAGE:' || return 1
	[ "$(mb 'MAX MEM:')" -ge 50 ] && [ "$(mb 'MAX MEM:')" -lt 200 ] || return 1
	[ "$(mb 'AVG MEM:')" -le "$(mb 'MAX MEM:')" ] || return 1
	printf '%s\n' "$out" | grep -q 'AVG MEM: [0-9.]* [KMG]bytes' || return 1
	[ "$(mb 'MAX SWAP:')" -ge 60 ] || return 1
	[ "$(num 'MAX PROCS:')" -ge 4 ] && [ "$(num 'MAX THREADS:')" -ge 9 ]
}
check "bjobs -l: MAX MEM, AVG MEM, MAX SWAP, MAX PROCS, MAX THREADS" usage_block bjobs "$acct"
check "bhist -l: the same MEMORY USAGE block" usage_block bhist "$acct"
check "bacct -l: the same MEMORY USAGE block" usage_block bacct "$acct"

# A process that leaves the job's group and session (setsid) is still the
# job's: its memory counts against -M, the kill reaches it although it
# ignores SIGINT and SIGTERM, and nothing of the job is left.
esc=$(bsub -M 50M -o "$T/work/esc.out" "setsid sh -c 'trap \"\" INT TERM;
	echo \$\$ >\"$T/work/esc.pid\"; exec \"$hog\" mem 200 60' & wait" | job_id_of)
check "a job whose setsid child passes -M is killed" wait_for 30 state_is "$esc" EXIT
check "with TERM_MEMLIMIT" says bjobs "$esc" 'TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.'
check "the child left its group (its own session)" test -s "$T/work/esc.pid"
check "and no process of the job is left" sh -c "! kill -0 $(cat "$T/work/esc.pid" 2>/dev/null || echo 0) 2>/dev/null"
check "bjobs -l: MAX MEM counts the child (>= 50 Mbytes)" \
	sh -c "[ \"\$(bjobs -l $esc | sed -n 's/.*MAX MEM: \([0-9]*\).*Mbytes.*/\1/p')\" -ge 50 ]"

# bkill reaches a process that left the group too; until it is gone the
# job runs.
bk=$(bsub -o /dev/null "setsid sh -c 'trap \"\" INT TERM; echo \$\$ >\"$T/work/bk.pid\"; exec sleep 300' &
	wait" | job_id_of)
check "a job with a setsid child runs" wait_for 30 test -s "$T/work/bk.pid"
bkpid=$(cat "$T/work/bk.pid")
check "the child is in a session of its own" sh -c "[ \"\$(ps -o sid= -p $bkpid | tr -d ' ')\" = $bkpid ]"
bkill "$bk" >/dev/null
check "bkill ends the job" wait_for 30 state_is "$bk" EXIT
check "and its setsid child" sh -c "! kill -0 $bkpid 2>/dev/null"

# A job whose script ends while its setsid child runs lasts until the
# child is done, as `cmd &` does within the group.
bg=$(bsub -o /dev/null "setsid sh -c 'echo \$\$ >\"$T/work/bg.pid\"; while [ ! -e \"$T/work/bg.go\" ]; do sleep 0.2; done' &" | job_id_of)
check "the script is gone, its setsid child runs" wait_for 30 test -s "$T/work/bg.pid"
check "and the job still runs" state_is "$bg" RUN
touch "$T/work/bg.go"
check "the job is done once the child is" wait_for 30 state_is "$bg" DONE

stop_mbd
start_mbd || exit 1
check "after an mbatchd restart: TERM_MEMLIMIT" says bjobs "$mem" 'TERM_MEMLIMIT: job killed'
check "and the accounting" sh -c "bjobs -l $acct | grep -q 'MAX PROCS: [3-9]' &&
	bjobs -l $acct | grep -q 'AVG MEM: [0-9.]* Mbytes'"
done_testing
