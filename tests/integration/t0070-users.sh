#!/bin/sh
# Jobs run as their owner: a user created for the test submits a job that
# runs under that user's uid; that user may not touch root's jobs, and root
# (an administrator) may touch the user's.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create a test user"
command -v useradd >/dev/null || skip_all "useradd is not installed"
user=bsit$$
add_test_user "$user" "$T/home" || exit 1
mkdir -p "$T/home" && chown "$user" "$T/home"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }

cd "$T/home" || exit 1
id=$(as_user bsub -o "$T/home/out" 'id -u; sleep 300' | job_id_of)
check "the user's job runs" wait_for 10 state_is "$id" RUN
check "as the user's uid" wait_for 10 sh -c "grep -qx $(id -u "$user") $T/home/out"
check "bjobs shows the owner" sh -c "bjobs -u all -noheader -o user $id | grep -qx $user"

rid=$(bsub -o /dev/null sleep 300 | job_id_of)
wait_for 10 state_is "$rid" RUN
refused() { ! as_user "$@" >"$T/refused.out" 2>&1; }
check "the user cannot kill root's job" refused bkill "$rid"
check "and is told so" grep -qi "permission denied" "$T/refused.out"
check "root's job still runs" state_is "$rid" RUN
check "the user may not reconfigure" refused badmin reconfig
check "root, an administrator, may kill the user's job" sh -c "bkill $id | grep -q 'is being terminated'"
check "the user's job ends" wait_for 15 state_is "$id" EXIT
bkill "$rid" >/dev/null
done_testing
