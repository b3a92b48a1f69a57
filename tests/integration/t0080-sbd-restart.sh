#!/bin/sh
# sbatchd restarted under a running job: the job keeps running, the new
# sbatchd re-adopts it, and its real exit status reaches the master.  The
# job runs exactly once.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

id=$(bsub -o "$T/out" "echo ran >> $T/count; sleep 3; exit 5" | job_id_of)
check "the job runs" wait_for 10 state_is "$id" RUN
wait_for 5 test -s "$T/count"
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
check "the job's processes survive sbatchd" sh -c "pgrep -f 'sleep 3' >/dev/null"
start_sbd vh1 || exit 1
check "the job is still RUN after sbatchd comes back" state_is "$id" RUN
check "its exit status (5) reaches the master" wait_for 20 state_is "$id" EXIT
check "bjobs reports exit code 5" sh -c "bjobs -a -noheader -o exit_code $id | grep -qw 5"
check "the job ran exactly once" sh -c "[ \$(grep -c ran $T/count) -eq 1 ]"

# The record of an acknowledged job is kept as a spare (jobs/spare.N) and
# the next job's record is written into it; a restarted sbatchd finds its
# spares again.
jobs=$T/sbd/vh1/jobs
one_spare() {
	[ "$(ls "$jobs" | grep -c '^spare\.')" = 1 ] &&
	! ls "$jobs" | grep -q "^$1\..*\.job\$"
}
reused() {
	[ "$(stat -c %i "$jobs/$1".*.job 2>/dev/null)" = "$2" ] &&
	! ls "$jobs" | grep -q '^spare\.'
}
check "the ended job's record became a spare" wait_for 10 one_spare "$id"
ino=$(stat -c %i "$jobs"/spare.*)
id2=$(bsub -o /dev/null sleep 60 | job_id_of)
check "the next job runs" wait_for 10 state_is "$id2" RUN
check "its record is the spare, rewritten" wait_for 10 reused "$id2" "$ino"
bkill "$id2" >/dev/null
check "it ends" wait_for 20 state_is "$id2" EXIT
check "and its record is the spare again" wait_for 10 one_spare "$id2"
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
start_sbd vh1 || exit 1
ino=$(stat -c %i "$jobs"/spare.*)
id3=$(bsub -o /dev/null sleep 60 | job_id_of)
check "after a restart a job runs" wait_for 10 state_is "$id3" RUN
check "in the spare the restarted sbatchd found" wait_for 10 reused "$id3" "$ino"
bkill "$id3" >/dev/null
check "it ends" wait_for 20 state_is "$id3" EXIT
check "and its record is the spare again" wait_for 10 one_spare "$id3"

# At most 64 spares are kept; a restarted sbatchd removes the rest and any
# spare.* not named by a number.
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
i=100
while [ "$i" -lt 170 ]; do
	: >"$jobs/spare.$i"
	i=$((i + 1))
done
: >"$jobs/spare.x"
start_sbd vh1 || exit 1
check "a restarted sbatchd keeps 64 spares" \
	sh -c "[ \$(ls '$jobs' | grep -c '^spare\.') -eq 64 ]"
check "and removes one not named by a number" test ! -e "$jobs/spare.x"

# Empty files are made ahead of the starts (jobs/fresh.N, 16 of them) and a
# start gives them the names of the job's files; a restarted sbatchd
# removes the ones it finds and makes new ones.
fresh_count() { [ "$(ls "$jobs" | grep -c '^fresh\.')" = "$1" ]; }
check "sbatchd keeps 16 fresh files" wait_for 10 fresh_count 16
ls -i "$jobs" | awk '$2 ~ /^fresh\./ { print $1 }' | sort >"$T/fresh.ino"
id4=$(bsub -o /dev/null sleep 60 | job_id_of)
check "a job runs" wait_for 10 state_is "$id4" RUN
check "its status record was a fresh file" wait_for 10 sh -c \
	"grep -qx \$(stat -c %i $jobs/$id4.*.status) $T/fresh.ino"
check "so was its job file" sh -c \
	"grep -qx \$(stat -c %i $jobs/$id4.*.script) $T/fresh.ino"
check "and its host file" sh -c \
	"grep -qx \$(stat -c %i $jobs/$id4.*.hostfile) $T/fresh.ino"
check "and the pool is made whole again" wait_for 10 fresh_count 16
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
for f in "$jobs"/fresh.*; do
	echo old >"$f"
done
start_sbd vh1 || exit 1
check "a restarted sbatchd makes 16 fresh files" wait_for 10 fresh_count 16
check "after removing the ones it found" sh -c \
	"! cat $jobs/fresh.* | grep -q old"
bkill "$id4" >/dev/null
check "the job ends" wait_for 20 state_is "$id4" EXIT
done_testing
