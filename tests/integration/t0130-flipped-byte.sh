#!/bin/sh
# A flipped byte in the middle of the journal is not a crash's torn tail:
# mbatchd refuses to start, naming the file and the offset of the damaged
# record and the tool to check and salvage it, rather than replay a journal
# with a hole in it.  With the journal restored (or salvaged, where
# `badmin journal salvage` exists) it starts again with its jobs.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

# Jobs before and after a victim, whose submission record will be damaged.
ids=
for n in a1 a2 a3 victim_q7z b1 b2 b3; do
	id=$(bsub -J "$n" -o /dev/null "echo $n >> $T/ran" | job_id_of)
	[ "$n" = victim_q7z ] && victim=$id
	ids="$ids $id"
done
all_done() {
	for id in $ids; do
		state_is "$id" DONE || return 1
	done
}
check "seven jobs run to DONE" wait_for 20 all_done
all_jobs "$T/before"
stop_mbd

seg=$(journal_newest_segment)
cp -a "$(journal_dir)" "$T/events.copy"

# The record that holds the victim's name, and a byte of that name in it.
pos=$(grep -obUa victim_q7z "$seg" | head -n 1 | cut -d: -f1)
rec=$(journal_records "$seg" |
	awk -v p="$pos" '$1 <= p && p < $1 + 8 + $2 { print $1; exit }')
nrec=$(journal_records "$seg" | wc -l)
before=$(journal_records "$seg" | awk -v r="$rec" '$1 < r' | wc -l)
diag "damaging record $((before + 1)) of $nrec, at offset $rec, byte $pos"
check "the damaged record has whole records after it" test "$before" -lt $((nrec - 1))
flip_byte "$seg" "$pos"

# mbatchd must refuse, and exit rather than hang.
rm -f "$T/work/mbatchd.port"
mbatchd -f >"$T/log/refused.out" 2>&1 &
pid=$!
track "$pid"
check "mbatchd exits instead of starting" wait_for 15 sh -c "! kill -0 $pid"
wait "$pid"
rc=$?
check "with a non-zero status" test "$rc" -ne 0
check "and never listened" test ! -e "$T/work/mbatchd.port"
check "its message names the file and the damaged record's offset" \
	grep -q "$seg.*offset $rec" "$T/log/refused.out"
check "and points at the check and salvage tool" \
	grep -q "badmin journal salvage" "$T/log/refused.out"
diag "$(cat "$T/log/refused.out")"

if badmin -h 2>&1 | grep -q journal; then
	check "badmin journal check finds the damage" \
		sh -c "! badmin journal check >'$T/jcheck.out' 2>&1 &&
		grep -q 'offset $rec' '$T/jcheck.out'"
	check "badmin journal salvage repairs the journal" badmin journal salvage
	start_mbd || exit 1
	# Only the victim's submission is lost: its later records (start,
	# finish) no longer fit anything and are passed over.
	all_jobs "$T/after"
	check "every other job is there in its state" \
		sh -c "grep -v victim_q7z '$T/before' | diff - '$T/after'"
else
	diag "no badmin journal subcommand in this tree: restoring the copy"
	rm -rf "$(journal_dir)"
	cp -a "$T/events.copy" "$(journal_dir)"
	start_mbd || exit 1
	all_jobs "$T/after"
	check "with the journal restored every job is there" \
		diff "$T/before" "$T/after"
fi
n=$(bsub -o /dev/null "echo new >> $T/ran" | job_id_of)
check "mbatchd takes new work" wait_for 15 state_is "$n" DONE
check "every job ran exactly once" \
	sh -c "sort '$T/ran' | uniq -c | awk '\$1 != 1 { exit 1 }' &&
	[ \$(wc -l <'$T/ran') -eq 8 ]"
done_testing
