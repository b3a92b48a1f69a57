#!/bin/sh
# bmod -Ep / -Epn of a running job and LSB_PRE_POST_EXEC_USER: the
# execution host runs an application profile's POST_EXEC as that user,
# a job's own -Ep as the job's user.  A bmod of the running job keeps to
# that: -Ep replaces the profile's post-exec with the user's command, run
# as the user (never as the hook user, which may be root); -Epn of a job
# submitted with its own -Ep brings the profile's back, run as the hook
# user (the job's wrapper was started able to), and so does -Ep then -Epn
# of a job that started with the profile's.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
user=bsju$$
hook=bsjh$$
add_test_user "$user" "$T/home" || exit 1
add_test_user "$hook" "$T/home" || exit 1
mkdir -p "$T/home" "$T/ids" && chown "$user" "$T/home" && chmod 1777 "$T/ids"

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME      = post
POST_EXEC = id -un >$T/ids/apost.\$LSB_JOBID
End Application
A
echo "LSB_MOD_ALL_JOBS=Y" >>"$T/conf/lsf.conf"
start_mbd || exit 1
echo "LSB_PRE_POST_EXEC_USER=$hook" >>"$T/conf/lsf.conf"
start_sbd vh1 || exit 1

as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1
ran_as() { [ "$(cat "$T/ids/$1" 2>/dev/null)" = "$2" ]; }
# The job runs until $T/ids/go.<id> exists.
submit() {
	as_user bsub -o /dev/null "$@" \
		'while [ ! -e '"$T"'/ids/go.$LSB_JOBID ]; do sleep 0.1; done' | job_id_of
}
jpost() { printf 'id -un >%s/ids/jpost.%s' "$T" "$1"; }
modify() {   # modify ID OVERRIDE-LETTER bmod-options...
	id=$1 letter=$2; shift 2
	as_user bmod "$@" "$id" | grep -q 'are being changed' &&
		wait_for 10 post_override_is "$id" "$letter"
}
finish() { touch "$T/ids/go.$1"; wait_for 20 state_is "$1" DONE; }

# 1. The profile's POST_EXEC replaced by the user's own: as the user.
a=$(submit -app post)
check "a job of the profile runs" wait_for 20 state_is "$a" RUN
check "bmod -Ep of it is applied on its host" modify "$a" S -Ep "$(jpost "$a")"
check "it ends DONE" finish "$a"
check "the user's post-exec ran as the user, not LSB_PRE_POST_EXEC_USER" \
	wait_for 10 ran_as "jpost.$a" "$user"
check "in place of the profile's" test ! -e "$T/ids/apost.$a"

# 2. A job started with its own -Ep: -Epn brings the profile's back.
b=$(submit -app post -Ep "$(jpost X)")
check "a job of the profile with its own -Ep runs" wait_for 20 state_is "$b" RUN
check "bmod -Epn of it is applied" modify "$b" P -Epn
check "it ends DONE" finish "$b"
check "the profile's POST_EXEC ran as LSB_PRE_POST_EXEC_USER" \
	wait_for 10 ran_as "apost.$b" "$hook"
check "the job's own did not run" test ! -e "$T/ids/jpost.X"

# 3. -Ep, then -Epn, of a job that started with the profile's.
c=$(submit -app post)
check "another job of the profile runs" wait_for 20 state_is "$c" RUN
check "bmod -Ep is applied" modify "$c" S -Ep "$(jpost "$c")"
check "then bmod -Epn" modify "$c" P -Epn
check "it ends DONE" finish "$c"
check "the profile's POST_EXEC ran, as LSB_PRE_POST_EXEC_USER" \
	wait_for 10 ran_as "apost.$c" "$hook"
check "the user's did not" test ! -e "$T/ids/jpost.$c"
diag "$(ls -l "$T/ids")"
done_testing
