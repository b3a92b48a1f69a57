#!/bin/sh
# LSB_JOURNAL_PREALLOC_MB: the newest journal segment is kept up to that
# many megabytes ahead of its records in zeros (renewed when less than
# half is left), and every record stays readable behind them.  A value that is not a number of megabytes from 0
# to 1024 is refused with a warning and the default (1) used, instead of
# filling the disk with zeros or reading "10MB" as 10.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
echo "LSB_JOURNAL_PREALLOC_MB=3" >>"$T/conf/lsf.conf"
start_mbd || exit 1

h=$(bsub -H -J kept -o /dev/null true | job_id_of)
check "a held job is accepted" state_is "$h" PSUSP
seg=$(journal_newest_segment)
# At least half of 3 MB: more than the default of 1 MB would ever leave.
mb_ahead() {
	last=$(journal_records "$seg" | tail -n 1)
	end=$((${last% *} + 8 + ${last#* }))
	[ $(($(stat -c %s "$seg") - end)) -ge $((3 << 19)) ]
}
check "at least 1.5 of the 3 MB are kept after the last record" \
	wait_for 10 mb_ahead
zeros_after() {
	last=$(journal_records "$seg" | tail -n 1)
	end=$((${last% *} + 8 + ${last#* }))
	[ "$(tail -c +$((end + 1)) "$seg" | tr -d '\000' | wc -c)" -eq 0 ]
}
check "what follows the last record is zeros only" zeros_after

for bad in 10MB 99999 -1; do
	stop_mbd
	sed -i '/^LSB_JOURNAL_PREALLOC_MB=/d' "$T/conf/lsf.conf"
	echo "LSB_JOURNAL_PREALLOC_MB=$bad" >>"$T/conf/lsf.conf"
	start_mbd || exit 1
	check "LSB_JOURNAL_PREALLOC_MB=$bad is refused with a warning" \
		grep -q "LSB_JOURNAL_PREALLOC_MB=$bad is not a number of megabytes from 0 to 1024, using 1" \
		"$T/log/mbatchd.out"
	check "after the restart the held job is there (=$bad)" state_is "$h" PSUSP
done
j=$(bsub -H -J after -o /dev/null true | job_id_of)
check "a submission after the restarts is journaled and answered" \
	state_is "$j" PSUSP
done_testing
