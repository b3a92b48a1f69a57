#!/bin/sh
# A real MPI hello world across two hosts through blaunch (issue 14, item
# 7): Debian's Open MPI, told to use blaunch as its remote shell
# (plm_rsh_agent, as Open MPI documents for rsh-like launchers), starts its
# daemon on each host of a 2-host job through that host's sbatchd; each rank
# prints its rank, the size and the host sbatchd says it runs on
# (LSB_TASK_HOST).  Virtual hosts vh1 and vh2 on 127.0.0.1.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/mpi-common.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run jobs as a test user"
command -v munged >/dev/null || skip_all "munged is not installed"
command -v mpicc >/dev/null || skip_all "mpicc is not installed (libopenmpi-dev)"
command -v mpirun >/dev/null || skip_all "mpirun is not installed (openmpi-bin)"
mpirun --version 2>/dev/null | grep -q "Open MPI" || skip_all "mpirun is not Open MPI's"
command -v useradd >/dev/null || skip_all "useradd is not installed"
mpi_setup bsm$$ mpicc

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
mpi_check "$id"

done_testing
