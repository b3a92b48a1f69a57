#!/bin/sh
# The same MPI hello world as t0700 with Debian's MPICH: its process
# manager, Hydra, told to use blaunch as its rsh (-launcher rsh
# -launcher-exec blaunch, as Hydra documents), starts its proxy on each
# host of a 2-host job through that host's sbatchd.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/mpi-common.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run jobs as a test user"
command -v munged >/dev/null || skip_all "munged is not installed"
command -v mpicc.mpich >/dev/null || skip_all "mpicc.mpich is not installed (libmpich-dev)"
command -v mpiexec.hydra >/dev/null || skip_all "mpiexec.hydra is not installed (mpich)"
command -v useradd >/dev/null || skip_all "useradd is not installed"
mpi_setup bsh$$ mpicc.mpich

# One rank per host, each proxy through blaunch (neither vh1 nor vh2 is
# the machine's name, so Hydra launches on both through blaunch).
cat >"$T/home/run.sh" <<'RUN'
mpiexec.hydra -launcher rsh -launcher-exec blaunch -hosts vh1,vh2 -n 2 ./hello
echo "mpirun exit $?"
RUN
id=$(as_user bsub -n 2 -o "$T/home/out" -e "$T/home/err" sh ./run.sh | job_id_of)
mpi_check "$id"

done_testing
