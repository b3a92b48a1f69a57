#!/bin/sh
# -J wildcards keep SECURE_JOB_INFO_LEVEL's rules: a job submitted without
# -J is named by its command line, which only its owner (and the
# administrators) may read; another user's -J pattern meets that job's
# name as the "-" it is shown, so "*secret*" cannot probe what others'
# commands say, in bjobs or through bkill's refusals.  The owner's pattern
# matches the command as LSF's does.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
u1=bsna$$
u2=bsnb$$
add_test_user "$u1" "$T/home" || exit 1
add_test_user "$u2" "$T/home" || exit 1
mkdir -p "$T/home" && chmod 777 "$T/home"

make_cluster vh1
start_mbd || exit 1
as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1

id=$(as "$u1" bsub -H -o /dev/null 'echo secret-token' | job_id_of)
named=$(as "$u1" bsub -H -J 'public_secret' -o /dev/null true | job_id_of)
check "the jobs are held" wait_for 10 state_is "$id" PSUSP

as "$u1" bjobs -noheader -o jobid -J '*secret-token*' >"$T/own" 2>&1
check "the owner finds the job by a pattern of its command" grep -qx "$id" "$T/own"
bjobs -u all -noheader -o jobid -J '*secret-token*' >"$T/admin" 2>&1
check "so does an administrator" grep -qx "$id" "$T/admin"

as "$u2" bjobs -u all -noheader -o jobid -J '*secret*' >"$T/other" 2>&1
check "another user's pattern does not see into the command" \
	sh -c "! grep -qx '$id' '$T/other'"
check "but matches a name given with -J" grep -qx "$named" "$T/other"
as "$u2" bjobs -u all -noheader -o jobid -J '*' >"$T/all" 2>&1
check "and '*' still lists the unnamed job, as '-'" grep -qx "$id" "$T/all"
as "$u2" bjobs -u all -noheader -o "jobid job_name" -J 'echo*' >"$T/prefix" 2>&1
check "a prefix of the command finds nothing either" sh -c "! grep -q '$id' '$T/prefix'"
as "$u2" bkill -u all -J '*secret-token*' 0 >"$T/kill" 2>&1
check "nor does a refused bkill -J name the job" sh -c "! grep -q '$id' '$T/kill'"
check "which stays held" state_is "$id" PSUSP
done_testing
