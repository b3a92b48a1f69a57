#!/bin/sh
# What a user sees of another user's job (SECURE_JOB_INFO_LEVEL, default
# 5): the job is listed (bjobs -u all), but its command, working directory
# and output path (and its name, when that is the command) are shown only
# to its owner and to administrators, in bjobs -l, -o and -json alike.  Level 0 opens them (LSF's default),
# level 4 hides other users' jobs altogether.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
u1=bssa$$
u2=bssb$$
add_test_user "$u1" "$T/home" || exit 1
add_test_user "$u2" "$T/home" || exit 1
mkdir -p "$T/home" && chmod 777 "$T/home"

make_cluster vh1
start_mbd || exit 1
as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1

id=$(as "$u1" bsub -H -o "$T/home/secret-out" 'echo secret-token' | job_id_of)
check "the job is held" wait_for 10 state_is "$id" PSUSP

as "$u2" bjobs -l -u all >"$T/other.l" 2>&1
as "$u2" bjobs -u all -o "jobid user job_name" >"$T/other.o" 2>&1
as "$u2" bjobs -u all -json -o "jobid job_name" >"$T/other.json" 2>&1
check "another user sees the job listed" grep -q "$u1" "$T/other.l"
check "but not its command in bjobs -l" sh -c "! grep -q secret-token '$T/other.l'"
check "nor its output path" sh -c "! grep -q secret-out '$T/other.l'"
check "nor its working directory" sh -c "! grep -q 'CWD <$T/home' '$T/other.l'"
check "the job is in bjobs -o" grep -q "$id" "$T/other.o"
check "without the command as its name" sh -c "! grep -qE 'secret-token|secret-out' '$T/other.o'"
check "nor in bjobs -json" sh -c "grep -q '$id' '$T/other.json' && ! grep -qE 'secret-token|$T/home' '$T/other.json'"

check "the owner sees the command" sh -c "as() { runuser -u \"\$1\" -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bjobs -l $id; }; as $u1 | grep -q secret-token"
check "an administrator sees it" sh -c "bjobs -l $id | grep -q secret-token"

params=$T/conf/lsbatch/basalt/configdir/lsb.params
sed -i 's/^End Parameters/SECURE_JOB_INFO_LEVEL = 0\nEnd Parameters/' "$params"
badmin reconfig >/dev/null 2>&1
check "at level 0 another user sees the command" wait_for 10 sh -c "runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bjobs -l $id | grep -q secret-token"

sed -i 's/^SECURE_JOB_INFO_LEVEL = 0/SECURE_JOB_INFO_LEVEL = 4/' "$params"
badmin reconfig >/dev/null 2>&1
check "at level 4 another user does not see the job at all" wait_for 10 sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bjobs -u all -noheader -o jobid 2>/dev/null | grep -q $id"
check "the owner still does" sh -c "runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bjobs -noheader -o jobid | grep -q $id"
done_testing
