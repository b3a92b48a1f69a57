#!/bin/sh
# A torn tail of the journal, what a crash in the middle of a write leaves:
# mbatchd cuts it at the last whole record, logs how many bytes it dropped
# and from which file, and every job recorded before it is there as it was.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
# The tears below are appended at the end of the file and counted in bytes:
# a segment that ends at its last record, as one written without
# preallocation (check_journal_prealloc tears preallocated ones).
echo "LSB_JOURNAL_PREALLOC_MB=0" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1

# Jobs in several states: DONE, EXIT 3, held (PSUSP), running.
d1=$(bsub -J d1 -o /dev/null "echo d1 >> $T/ran" | job_id_of)
d2=$(bsub -J d2 -o /dev/null "echo d2 >> $T/ran" | job_id_of)
e3=$(bsub -J e3 -o /dev/null "echo e3 >> $T/ran; exit 3" | job_id_of)
h=$(bsub -J held -H -o /dev/null "echo held >> $T/ran" | job_id_of)
r=$(bsub -J r -o /dev/null "echo r >> $T/ran; while [ ! -e $T/go ]; do sleep 0.1; done" | job_id_of)
states_reached() {
	state_is "$d1" DONE && state_is "$d2" DONE && state_is "$e3" EXIT &&
		state_is "$h" PSUSP && state_is "$r" RUN
}
check "the jobs reach DONE, EXIT, PSUSP and RUN" wait_for 15 states_reached
all_jobs "$T/before"

seg=$(journal_newest_segment)
size0=$(stat -c %s "$seg")

# 1. Half a record: a header promising 200 bytes of payload, 50 written.
stop_mbd
{
	printf '\310\000\000\000\021\042\063\104'
	head -c 50 /dev/urandom
} >>"$seg"
start_mbd || exit 1
check "mbatchd logs that it cut 58 bytes from the newest segment" \
	grep -q "cut a torn record at the end of $seg: 58 bytes dropped" "$T/log/mbatchd.out"
# mbatchd journals its start (badmin mbdhist) right after the cut: the
# next record must begin where the last whole one ended.
record_at() {   # record_at FILE OFFSET: a whole record begins at OFFSET
	journal_records "$1" | awk -v a="$2" '$1 == a { f = 1 } END { exit !f }'
}
check "the segment is back to its last whole record" record_at "$seg" "$size0"
all_jobs "$T/after1"
check "every job is there in the state it had" diff "$T/before" "$T/after1"

# 2. Random bytes after a crash (kill -9): not even a record header's worth
# of sense.
kill9_mbd
printf 'garbage' >>"$seg"
start_mbd || exit 1
check "mbatchd cuts 7 garbage bytes" \
	grep -q "cut a torn record at the end of $seg: 7 bytes dropped" "$T/log/mbatchd.out"
all_jobs "$T/after2"
check "every job is still there" diff "$T/before" "$T/after2"

# 3. The last record itself torn in half: the write of a submission that a
# crash interrupted.  Its job was never acknowledged (the reply waits for
# the sync) and is gone; everything before it stays.
s0=$(stat -c %s "$seg")
last=$(bsub -J last -H -o /dev/null "echo last >> $T/ran" | job_id_of)
s1=$(stat -c %s "$seg")
# newest_record_is FILE FROM TO: the last whole record spans [FROM, TO).
newest_record_is() {
	journal_records "$1" | tail -n 1 |
		awk -v a="$2" -v b="$3" '$1 == a && a + 8 + $2 == b { f = 1 } END { exit !f }'
}
check "the submission is the newest record, ending the segment" \
	newest_record_is "$seg" "$s0" "$s1"
kill9_mbd
half=$(((s1 - s0) / 2))
truncate -s $((s0 + half)) "$seg"
start_mbd || exit 1
check "mbatchd cuts the $half bytes of the torn record" \
	grep -q "cut a torn record at the end of $seg: $half bytes dropped" "$T/log/mbatchd.out"
all_jobs "$T/after3"
check "every earlier job is still there" diff "$T/before" "$T/after3"
check "the torn submission is not" sh -c "! bjobs $last >/dev/null 2>&1"

# The recovered master works on: the running job finishes, the held one
# runs when released, a new submission runs; each ran once.
touch "$T/go"
check "the running job finishes DONE" wait_for 15 state_is "$r" DONE
check "the held job runs when released" sh -c "bresume $h | grep -q 'is being resumed'"
check "and finishes DONE" wait_for 15 state_is "$h" DONE
n=$(bsub -J n -o /dev/null "echo n >> $T/ran" | job_id_of)
check "a new submission runs to DONE" wait_for 15 state_is "$n" DONE
check "every job ran exactly once" \
	sh -c "sort '$T/ran' | uniq -c | awk '\$1 != 1 { exit 1 }' &&
	[ \$(wc -l <'$T/ran') -eq 6 ]"
done_testing
