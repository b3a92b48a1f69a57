#!/bin/sh
# blaunch: what a task on another host costs, against the same work done
# locally, inside one 2-host job on virtual hosts vh1 and vh2.
#
#   blaunch.task         ms per `blaunch -z vh2 true`, 100 one after another
#   floor.sh_true        ms per `sh -c true` in the same job (the local floor)
#   blaunch.stream       MB/s of a task's stdout through blaunch (200 MB)
#   floor.pipe           MB/s of the same bytes through a local pipe
#
# A task costs blaunch's start, a MUNGE credential each way, a TCP dial,
# sbatchd's question to mbatchd (HostService.TaskJob), the fork as the
# user and the exit's round trip; its output crosses sbatchd's pipe, a
# protobuf frame per 64 KiB chunk and blaunch's write.

set -u
. "$top_srcdir/tests/lib.sh"
trap 'exit 1' HUP PIPE

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	N=5 MB=10
else
	N=100 MB=200
fi

BS_MXJ=1 make_cluster vh1 vh2
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
grep -q '^LSF_AUTH=munge' "$T/conf/lsf.conf" || { echo "blaunch needs munged" >&2; exit 1; }
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

cat >"$T/job.sh" <<JOB
now() { date +%s%N; }
t0=\$(now); i=0
while [ \$i -lt $N ]; do blaunch -z vh2 true || exit 1; i=\$((i + 1)); done
t1=\$(now); i=0
while [ \$i -lt $N ]; do sh -c true; i=\$((i + 1)); done
t2=\$(now)
blaunch -z vh2 head -c ${MB}000000 /dev/zero | cat >/dev/null || exit 1
t3=\$(now)
head -c ${MB}000000 /dev/zero | cat >/dev/null
t4=\$(now)
echo "times \$t0 \$t1 \$t2 \$t3 \$t4"
JOB
id=$(cd "$T" && bsub -n 2 -o "$T/job.out" sh "$T/job.sh" | job_id_of)
[ -n "$id" ] || { echo "no job" >&2; exit 1; }
wait_for 600 state_is "$id" DONE || {
	echo "job $id did not finish: $(job_state "$id")" >&2
	cat "$T/job.out" >&2
	exit 1
}
awk -v n="$N" -v mb="$MB" '$1 == "times" {
	printf "result\tblaunch.task\t%.3f\tms\n", ($3 - $2) / 1e6 / n
	printf "result\tfloor.sh_true\t%.3f\tms\n", ($4 - $3) / 1e6 / n
	printf "result\tblaunch.stream\t%.1f\tMB/s\n", mb / (($5 - $4) / 1e9)
	printf "result\tfloor.pipe\t%.1f\tMB/s\n", mb / (($6 - $5) / 1e9)
	f = 1
} END { exit !f }' "$T/job.out" || { cat "$T/job.out" >&2; exit 1; }
