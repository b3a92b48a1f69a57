#!/bin/sh
# LSB_PRE_POST_EXEC_USER (issue 14, item 2): with it in the execution
# host's lsf.conf, the queue's PRE_EXEC and POST_EXEC and the application
# profile's PRE_EXEC run as that user; without it, as the job's user.  The
# job itself and its bsub -E / -Ep stay the job user's either way.  vh1's
# sbatchd starts without the parameter, vh2's with it (each reads lsf.conf
# when it starts), so both readings run side by side.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
user=bsju$$
hook=bsjh$$
add_test_user "$user" "$T/home" || exit 1
add_test_user "$hook" "$T/home" || exit 1
mkdir -p "$T/home" "$T/ids" && chown "$user" "$T/home" && chmod 1777 "$T/ids"

make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
PRE_EXEC   = id -un >$T/ids/qpre.\$LSB_JOBID; env >$T/ids/qenv.\$LSB_JOBID; pwd >$T/ids/qpwd.\$LSB_JOBID
POST_EXEC  = id -un >$T/ids/qpost.\$LSB_JOBID
End Queue
Q
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME     = prep
PRE_EXEC = id -un >$T/ids/apre.\$LSB_JOBID
End Application
A
start_mbd || exit 1
start_sbd vh1 || exit 1
echo "LSB_PRE_POST_EXEC_USER=$hook" >>"$T/conf/lsf.conf"
start_sbd vh2 || exit 1

as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1
ran_as() { [ "$(cat "$T/ids/$1" 2>/dev/null)" = "$2" ]; }
submit() {   # submit HOST [bsub options]: the job's id
	h=$1; shift
	as_user bsub -m "$h" -o /dev/null "$@" 'id -un >'"$T"'/ids/job.$LSB_JOBID' | job_id_of
}

id1=$(submit vh1 -E 'id -un >'"$T"'/ids/jpre.$LSB_JOBID')
check "without the parameter: the job ends DONE" wait_for 20 state_is "$id1" DONE
check "the queue's PRE_EXEC ran as the job's user" ran_as "qpre.$id1" "$user"
check "the queue's POST_EXEC too" wait_for 10 ran_as "qpost.$id1" "$user"
check "the job ran as its user" ran_as "job.$id1" "$user"
check "bsub -E ran as its user" ran_as "jpre.$id1" "$user"

id2=$(submit vh2 -E 'id -un >'"$T"'/ids/jpre.$LSB_JOBID' \
	-Ep 'id -un >'"$T"'/ids/jpost.$LSB_JOBID')
check "with the parameter: the job ends DONE" wait_for 20 state_is "$id2" DONE
check "the queue's PRE_EXEC ran as LSB_PRE_POST_EXEC_USER" ran_as "qpre.$id2" "$hook"
check "the queue's POST_EXEC too" wait_for 10 ran_as "qpost.$id2" "$hook"
check "the job still ran as its user" ran_as "job.$id2" "$user"
check "bsub -E still ran as the job's user" ran_as "jpre.$id2" "$user"
check "bsub -Ep too" ran_as "jpost.$id2" "$user"

id3=$(submit vh2 -app prep)
check "a job of a profile with PRE_EXEC ends DONE" wait_for 20 state_is "$id3" DONE
check "the profile's PRE_EXEC ran as LSB_PRE_POST_EXEC_USER" ran_as "apre.$id3" "$hook"
check "that job ran as its user" ran_as "job.$id3" "$user"
# The root wrapper and the hooks it runs as LSB_PRE_POST_EXEC_USER get
# nothing of what the user put in the job's environment (a root process's
# loader honours LD_PRELOAD); the job itself gets all of it.
id4=$(as_user env BS_MINE=mine LD_PRELOAD="$T/home/none.so" bsub -m vh2 \
	-o /dev/null "echo \$PPID >$T/ids/wrap.\$LSB_JOBID; env >$T/ids/jenv.\$LSB_JOBID;
	i=0; while [ ! -e $T/ids/go.\$LSB_JOBID ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done" |
	job_id_of)
check "a job with LD_PRELOAD in its environment runs" wait_for 20 test -s "$T/ids/wrap.$id4"
wrap=$(cat "$T/ids/wrap.$id4")
check "its wrapper is bs-jobwrap, running as root" \
	sh -c "grep -q bs-jobwrap /proc/$wrap/cmdline && [ \"\$(stat -c %u /proc/$wrap)\" -eq 0 ]"
check "the root wrapper's environment has neither LD_PRELOAD nor the user's variables" \
	sh -c "! tr '\\0' '\\n' </proc/$wrap/environ | grep -q -e '^LD_PRELOAD=' -e '^BS_MINE='"
touch "$T/ids/go.$id4"
check "the job ends DONE" wait_for 20 state_is "$id4" DONE
check "the job itself got the user's environment" \
	sh -c "grep -qx BS_MINE=mine $T/ids/jenv.$id4 && grep -q '^LD_PRELOAD=' $T/ids/jenv.$id4"
check "the queue's PRE_EXEC (as LSB_PRE_POST_EXEC_USER) got LSF's variables only" \
	sh -c "grep -qx LSB_JOBID=$id4 $T/ids/qenv.$id4 && ! grep -q -e '^BS_MINE=' -e '^LD_PRELOAD=' $T/ids/qenv.$id4"
check "with the system PATH, in /tmp" \
	sh -c "grep -qx 'PATH=/bin:/usr/bin:/sbin:/usr/sbin' $T/ids/qenv.$id4 && grep -qx /tmp $T/ids/qpwd.$id4"
diag "$(ls -l "$T/ids")"
done_testing
