#!/bin/sh
# The job-group count cap (100000) is shared by every user; so that one
# user cannot take it all, MAX_JOB_GROUPS_PER_USER of lsb.params bounds the
# groups one user who is not an administrator owns.  With it at 3 the
# user makes /u1 /u2 /u3 (bgadd), then is refused a fourth by bgadd and by
# bsub -g (an implicit group), and /u1/sub/leaf (two new groups) once two
# would pass the cap; after bgdel of one, one more is made, not two.  Another user
# has their own 3, and the administrator is not bound.  A DEFAULT_JOBGROUP
# of /dp/%p (the project is the user's choice) counts as bsub -g does.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null ||
	skip_all "needs root and useradd for users who are not administrators"
user=bsct$$
other=bsco$$
add_test_user "$user" "$T/home" || exit 1
add_test_user "$other" "$T/home2" || exit 1

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
sed -i 's|^End Parameters|MAX_JOB_GROUPS_PER_USER = 3\nDEFAULT_JOBGROUP = /dp/%p\nEnd Parameters|' "$lsb/lsb.params"
start_mbd || exit 1

as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }

for g in /u1 /u2 /u3; do
	check "the user adds $g" as "$user" bgadd "$g"
done
as "$user" bgadd /u4 >"$T/add.out" 2>&1
rc=$?
diag "$(cat "$T/add.out")"
check "a fourth group is refused" test "$rc" -ne 0
check "naming the parameter" grep -q "user $user would own more than 3 job groups (MAX_JOB_GROUPS_PER_USER)" "$T/add.out"
check "and /u4 does not exist" sh -c "! bjgroup /u4 >/dev/null 2>&1"
as "$user" bsub -g /u5 -o /dev/null true >"$T/sub.out" 2>&1
rc=$?
check "bsub -g to a new group is refused too" test "$rc" -ne 0
check "with the same reason" grep -q "MAX_JOB_GROUPS_PER_USER" "$T/sub.out"
check "the user's groups are still usable by bsub -g" \
	sh -c "runuser -u $user -- env PATH=\"$PATH\" LSF_ENVDIR=\"$LSF_ENVDIR\" bsub -g /u1 -o /dev/null true | grep -q 'is submitted'"
check "another user has their own 3" as "$other" bgadd /o1
check "the administrator is not bound" sh -c "bgadd /a1 && bgadd /a2 && bgadd /a3 && bgadd /a4"
check "the user deletes /u2" as "$user" bgdel /u2
check "then may not make two at once (/u3/x/y)" sh -c "! runuser -u $user -- env PATH=\"$PATH\" LSF_ENVDIR=\"$LSF_ENVDIR\" bgadd /u3/x/y >/dev/null 2>&1"
check "nor /u3/x" sh -c "! bjgroup /u3/x >/dev/null 2>&1"
check "but one (/u3/x)" as "$user" bgadd /u3/x
# DEFAULT_JOBGROUP's %p is the user's -P: its groups count too.
as "$user" bsub -P pz -o /dev/null true >"$T/dflt.out" 2>&1
rc=$?
diag "$(cat "$T/dflt.out")"
check "a default job group past the cap is refused" test "$rc" -ne 0
check "with the same reason" grep -q "MAX_JOB_GROUPS_PER_USER" "$T/dflt.out"
check "the administrator's job gets its default group" \
	sh -c "bsub -P pz -o /dev/null true | grep -q 'is submitted' && bjgroup /dp/pz >/dev/null"
bkill -u all 0 >/dev/null 2>&1
done_testing
