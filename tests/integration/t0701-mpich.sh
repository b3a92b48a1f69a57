#!/bin/sh
# The same MPI hello world as t0700 with Debian's MPICH: its process
# manager, Hydra, told to use blaunch as its rsh (-launcher rsh
# -launcher-exec blaunch, as Hydra documents), starts its proxy on each
# host of a 2-host job through that host's sbatchd.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run jobs as a test user"
command -v munged >/dev/null || skip_all "munged is not installed"
command -v mpicc.mpich >/dev/null || skip_all "mpicc.mpich is not installed (libmpich-dev)"
command -v mpiexec.hydra >/dev/null || skip_all "mpiexec.hydra is not installed (mpich)"
command -v useradd >/dev/null || skip_all "useradd is not installed"
user=bsh$$
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
mpicc.mpich -o "$T/home/hello" "$T/home/hello.c" >"$T/mpicc.out" 2>&1 || {
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

# One rank per host, each proxy through blaunch (neither vh1 nor vh2 is
# the machine's name, so Hydra launches on both through blaunch).
cat >"$T/home/run.sh" <<'RUN'
mpiexec.hydra -launcher rsh -launcher-exec blaunch -hosts vh1,vh2 -n 2 ./hello
echo "mpirun exit $?"
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
