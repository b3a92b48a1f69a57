# Sourced by the MPI tests (t0700 Open MPI, t0701 MPICH) after tests/lib.sh:
# the same hello world on the same two-host cluster, whichever MPI runs it.
#
# mpi_setup USER MPICC: a test user with a home under $T, hello.c built there
# with MPICC (skips the test when it cannot build), virtual hosts vh1 and vh2
# with munged, mbatchd and both sbatchds, and as_user to run a command as
# USER.  Each rank prints its rank, the size, the host sbatchd says it runs
# on (LSB_TASK_HOST) and a sum over every rank, so the ranks really talk.
#
# mpi_check ID: job ID ran one rank on each host through blaunch and its
# mpirun succeeded (run.sh prints "mpirun exit N").

mpi_setup() {
	mpi_user=$1
	add_test_user "$mpi_user" "$T/home" || exit 1
	mkdir -p "$T/home" && chown "$mpi_user" "$T/home"
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
	"$2" -o "$T/home/hello" "$T/home/hello.c" >"$T/mpicc.out" 2>&1 || {
		diag "$(cat "$T/mpicc.out")"
		skip_all "mpicc cannot build a hello world"
	}
	chown "$mpi_user" "$T/home/hello"

	BS_MXJ=1 make_cluster vh1 vh2
	grep -q '^LSF_AUTH=munge' "$LSF_ENVDIR/lsf.conf" || { diag "no munged"; exit 1; }
	start_mbd || exit 1
	start_sbd vh1 || exit 1
	start_sbd vh2 || exit 1
}

as_user() { (cd "$T/home" && runuser -u "$mpi_user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" HOME="$T/home" "$@"); }

mpi_ended() { state_is "$1" DONE || state_is "$1" EXIT; }

mpi_check() {
	check "the MPI job is submitted" test -n "$1"
	check "it runs and ends" wait_for 60 mpi_ended "$1"
	check "rank 0 ran on vh1" grep -qx "rank 0 of 2 on vh1 sum 1" "$T/home/out"
	check "rank 1 ran on vh2" grep -qx "rank 1 of 2 on vh2 sum 1" "$T/home/out"
	check "mpirun succeeded" grep -qx "mpirun exit 0" "$T/home/out"
	check "the daemon on vh2 came through vh2's sbatchd" \
		grep -q "job $1\[0\]: blaunch task .* started" "$T/log/sbatchd.vh2.out"
	grep -q "mpirun exit 0" "$T/home/out" || diag "$(cat "$T/home/out" "$T/home/err")"
}
