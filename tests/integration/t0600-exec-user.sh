#!/bin/sh
# The execution host trusts a user name and nothing more, and bpeek reads
# as the job's user: an output path swapped for a symlink to /etc/shadow
# prints nothing of it, a FIFO there neither blocks sbatchd nor the other
# jobs; a user unknown on the execution host sends the job back to PEND
# (the host cannot run it), with the refusal in bjobs -l and bhist -l.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create a test user"
command -v useradd >/dev/null || skip_all "useradd is not installed"
user=bsp$$
add_test_user "$user" "$T/home" || exit 1
mkdir -p "$T/home" && chown "$user" "$T/home"
chmod 711 "$T"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }

cd "$T/home" || exit 1
other=$(as_user bsub -o /dev/null 'sleep 300' | job_id_of)
id=$(as_user bsub -o "$T/home/out" 'echo hello; sleep 300' | job_id_of)
check "the user's jobs run" wait_for 10 sh -c "bjobs -noheader -o stat $id $other | grep -c RUN | grep -qx 2"
check "the output is written" wait_for 10 grep -qx hello "$T/home/out"
check "bpeek shows it" sh -c "bpeek $id | grep -qx hello"

as_user rm -f "$T/home/out"
as_user ln -s /etc/shadow "$T/home/out"
bpeek "$id" >"$T/peek.out" 2>&1
check "bpeek through a symlink to /etc/shadow prints none of it" \
	sh -c "! grep -q '^root:' $T/peek.out"
check "and says why" grep -q "symbolic link" "$T/peek.out"

as_user rm -f "$T/home/out"
as_user mkfifo "$T/home/out"
timeout 60 bpeek "$id" >"$T/peek.out" 2>&1
check "bpeek on a FIFO answers" grep -q "not a regular file" "$T/peek.out"
check "the host stays ok" host_ok vh1
check "the other jobs keep running" sh -c "bjobs -noheader -o stat $id $other | grep -c RUN | grep -qx 2"
new=$(bsub -o /dev/null true | job_id_of)
check "a new job runs to the end" wait_for 15 state_is "$new" DONE
bkill "$id" "$other" >/dev/null

# Known to mbatchd, unknown on the execution host by the time it starts.
held=$(as_user bsub -H -o /dev/null true | job_id_of)
check "a held job is pending" wait_for 10 state_is "$held" PSUSP
check "the user is deleted on the host (userdel really happened)" del_test_user "$user"
bresume "$held" >/dev/null
refused() { bhist -l "$held" | unwrapped | grep -qF "Requeued: The job could not be started on host <vh1>: User account <$user> does not exist on execution host vh1"; }
check "the host refuses it: bhist -l says why" wait_for 15 refused
check "the job is pending again, not ended" state_is "$held" PEND
check "bjobs -l: the host refused it (and it is not retried there)" \
	wait_for 10 says bjobs "$held" 'The execution host refused to run the job: 1 host'
bkill "$held" >/dev/null
done_testing
