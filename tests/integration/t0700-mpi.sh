#!/bin/sh
# A real MPI hello world across two hosts through blaunch (issue 14, item
# 7): Debian's Open MPI, told to use blaunch as its remote shell
# (plm_rsh_agent, as Open MPI documents for rsh-like launchers), starts its
# daemon on each host of a 2-host job through that host's sbatchd; each rank
# prints its rank, the size and the host sbatchd says it runs on
# (LSB_TASK_HOST).  Virtual hosts vh1 and vh2 on 127.0.0.1.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run jobs as a test user"
command -v munged >/dev/null || skip_all "munged is not installed"
command -v mpicc >/dev/null || skip_all "mpicc is not installed (libopenmpi-dev)"
command -v mpirun >/dev/null || skip_all "mpirun is not installed (openmpi-bin)"
mpirun --version 2>/dev/null | grep -q "Open MPI" || skip_all "mpirun is not Open MPI's"
command -v useradd >/dev/null || skip_all "useradd is not installed"
user=bsm$$
add_test_user "$user" "$T/home" || exit 1
mkdir -p "$T/home" && chown "$user" "$T/home"
chmod 711 "$T"

cat >"$T/home/hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	int rank, size, sum = 0;
	const char *host = getenv("LSB_TASK_HOST");

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* The ranks really talk: a sum over all of them. */
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d of %d on %s sum %d\n", rank, size, host ? host : "?", sum);
	MPI_Finalize();
	return 0;
}
C
mpicc -o "$T/home/hello" "$T/home/hello.c" >"$T/mpicc.out" 2>&1 || {
	diag "$(cat "$T/mpicc.out")"
	skip_all "mpicc cannot build a hello world"
}
chown "$user" "$T/home/hello"

BS_MXJ=1 make_cluster vh1 vh2
grep -q '^LSF_AUTH=munge' "$LSF_ENVDIR/lsf.conf" || { diag "no munged"; exit 1; }
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

as_user() { (cd "$T/home" && runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" HOME="$T/home" "$@"); }

# One rank per host, each through blaunch (neither vh1 nor vh2 is the
# machine's name, so mpirun starts its daemon on both through the agent);
# TCP over loopback only.
# Open MPI's orted now and then dies of a SIGSEGV inside its hardware
# discovery (hwloc) on this kind of machine, before any task of ours runs;
# one more try keeps that third-party crash from failing the suite, and the
# first attempt's error stays in the job's error file for the record.
cat >"$T/home/run.sh" <<'RUN'
for attempt in 1 2; do
	mpirun --mca plm_rsh_agent blaunch --host vh1,vh2 -np 2 \
		--mca btl tcp,self --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
		./hello
	rc=$?
	[ "$rc" -eq 0 ] && break
	echo "mpirun attempt $attempt: exit $rc" >&2
done
echo "mpirun exit $rc"
RUN
id=$(as_user bsub -n 2 -o "$T/home/out" -e "$T/home/err" sh ./run.sh | job_id_of)
check "the MPI job is submitted" test -n "$id"
ended() { state_is "$1" DONE || state_is "$1" EXIT; }
check "it runs and ends" wait_for 60 ended "$id"
check "rank 0 ran on vh1" grep -qx "rank 0 of 2 on vh1 sum 1" "$T/home/out"
check "rank 1 ran on vh2" grep -qx "rank 1 of 2 on vh2 sum 1" "$T/home/out"
check "mpirun succeeded" grep -qx "mpirun exit 0" "$T/home/out"
check "the daemon on vh2 came through vh2's sbatchd" \
	grep -q "job $id\[0\]: blaunch task .* started" "$T/log/sbatchd.vh2.out"
grep -q "mpirun exit 0" "$T/home/out" || diag "$(cat "$T/home/out" "$T/home/err")"

done_testing
