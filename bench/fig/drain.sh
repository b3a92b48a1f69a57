#!/bin/sh
# Drain: how fast the cluster runs short jobs, beside the rate at which
# this machine can start them at all.
#
#   drain.rate      10,000 `true` jobs on 4 virtual hosts, from the
#                   submission to the last DONE                    jobs/s
#   floor.forkexec  `true` started through sbatchd's own launch code
#                   (bench/forkexec-floor), as many at once as the
#                   drain has slots                                runs/s
#
# Setup: one mbatchd and 4 real sbatchd (-N hostA..hostD) on this machine,
# MXJ 8 each: 32 slots.  A `true` job lives for about a millisecond, so
# the slots are mostly empty and what limits the drain is the batch
# system's own work per job (dispatch, start order, launch, reap, report,
# the journal); more slots than that only add idle bookkeeping, fewer
# would let a host's single start path become the limit.  The 10,000 jobs
# are one job array submitted by one bsub (MAX_JOB_ARRAY_SIZE raised to
# fit): the drain measures running jobs, not 10,000 bsub processes (that
# is submit.sh's figure), and the array is accepted in milliseconds.  The
# end is found by polling bqueues (one small reply) every 100 ms until the
# queue holds no job; each element's DONE is then checked with bjobs.

set -u
. "$top_srcdir/tests/lib.sh"
# lib.sh cleans up on exit, INT and TERM; a reader that goes away (SIGPIPE)
# or a hang-up must not leave the daemons running either.
trap 'exit 1' HUP PIPE

HOSTS="hostA hostB hostC hostD"
MXJ=8
SLOTS=$((4 * MXJ))
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	N=100
else
	N=10000
fi

FLOOR=$top_builddir/bench/forkexec-floor
[ -x "$FLOOR" ] || make -C "$top_builddir" bench/forkexec-floor >&2 || exit 1

now_ns() { date +%s%N; }

# The floor first, on a quiet machine (no daemons yet).
mkdir -p "$T/floor"
floor=$("$FLOOR" -n "$N" -p "$SLOTS" -w "$top_builddir/sbatchd/bs-jobwrap" \
	-d "$T/floor") || exit 1

BS_MXJ=$MXJ
make_cluster $HOSTS
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
# MAX_JOB_NUM: keep every finished element in memory (LSF's default 1000
# would clean most of them before they can be checked).
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = '"$N"'\nMAX_JOB_NUM = '"$N"'\nEnd Parameters/' \
	"$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1
for h in $HOSTS; do
	start_sbd "$h" || exit 1
done

# queue_empty: the normal queue holds no unfinished job (bqueues NJOBS).
queue_empty() {
	[ "$(bqueues -w normal 2>/dev/null | awk 'NR == 2 { print $8 }')" = 0 ]
}

t0=$(now_ns)
bsub -q normal -o /dev/null -J "drain[1-$N]" true >"$T/bsub.out" 2>&1 || {
	cat "$T/bsub.out" >&2
	exit 1
}
deadline=$(($(date +%s) + 600))
while ! queue_empty; do
	if [ "$(date +%s)" -ge "$deadline" ]; then
		echo "the drain did not finish in 600 s" >&2
		bqueues -w normal >&2
		exit 1
	fi
	sleep 0.1
done
t1=$(now_ns)

id=$(job_id_of <"$T/bsub.out")
done_n=$(bjobs -a -noheader -o "stat" "$id" 2>/dev/null | grep -c '^DONE')
if [ "$done_n" -ne "$N" ]; then
	echo "$done_n of $N elements are DONE after $(((t1 - t0) / 1000000)) ms" >&2
	exit 1
fi
awk -v n="$N" -v a="$t0" -v b="$t1" \
	'BEGIN { printf "result\tdrain.rate\t%.1f\tjobs/s\n", n / ((b - a) / 1e9) }'
echo "result	floor.forkexec	$floor	runs/s"
