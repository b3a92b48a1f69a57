#!/bin/sh
# The exit trap of tests/lib.sh deletes the test users only once they run
# no process.  A job's process that outlived the kill of the cluster's job
# processes (one that cleared its environment, so LSF_ENVDIR does not find
# it, or one still exiting) made userdel refuse ("currently used by
# process") until its retries ran out, and the test ERRORed although every
# check had passed.  Here an inner test leaves such a process behind; its
# cleanup must end it, delete the user and exit 0.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to add a test user"
command -v useradd >/dev/null 2>&1 || skip_all "useradd is not installed"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"

user=bscu$$
cat >"$T/inner.sh" <<IN
#!/bin/sh
. "\$top_srcdir/tests/lib.sh"
add_test_user $user "\$T/home" || exit 1
# No LSF_ENVDIR, no LSB_JOBID: cluster_job_pids cannot see it.
env -i setpriv --reuid=$user --regid=nogroup --clear-groups \
	sleep 300 </dev/null >/dev/null 2>&1 &
echo "\$!" >"$T/inner.pid"
check "the user's process runs" wait_for 60 sh -c "pgrep -u $user >/dev/null"
done_testing
IN
sh "$T/inner.sh" >"$T/inner.out" 2>&1
rc=$?
sed 's/^/# inner: /' "$T/inner.out"
check "the inner test exits 0 (rc $rc)" test "$rc" -eq 0
check "its user is deleted" sh -c "! getent passwd $user"
pid=$(cat "$T/inner.pid" 2>/dev/null)
check "its user's process is gone" sh -c "[ -n '$pid' ] && ! kill -0 '$pid' 2>/dev/null"
# Left over by a failing cleanup: ours to end.
[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
del_test_user "$user"
done_testing
