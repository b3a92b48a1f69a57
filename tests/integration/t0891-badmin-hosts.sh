#!/bin/sh
# badmin hrestart, hshutdown and hstartup as LSF: hrestart makes sbatchd
# execute itself again and a job running through it finishes DONE;
# hshutdown stops sbatchd (the host is no longer ok, its job keeps
# running) and hstartup starts it again through LSF_RSH (here a stand-in
# that starts it as the virtual host), after which the job finishes DONE.
# Each prints LSF's line per host; a user who is not an administrator is
# refused.  badmin mbdhist lists mbatchd's starts.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
# hstartup runs "LSF_RSH host LSF_SERVERDIR/sbatchd": the stand-in adds
# what a virtual host needs (its name and state directory).
cat >"$T/rsh" <<EOF
#!/bin/sh
host=\$1; shift
exec "\$@" -N "\$host" -S "$T/sbd/\$host"
EOF
chmod +x "$T/rsh"
cat >>"$T/conf/lsf.conf" <<EOF
LSF_RSH=$T/rsh
LSF_SERVERDIR=$top_builddir/sbatchd
EOF
start_mbd || exit 1
start_sbd vh1 || exit 1
cd "$T/work" || exit 1
stamp='[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9]\{4\}: '

# hrestart: the same process (sbatchd -f keeps its pid) executes again.
job=$(bsub -o /dev/null "while [ ! -f '$T/work/go1' ]; do sleep 0.1; done" | job_id_of)
check "a job runs" wait_for 10 state_is "$job" RUN
# Without LSB_MOD_ALL_JOBS in lsf.conf a started job cannot be modified.
bmod -W 5 "$job" >"$T/mod.out" 2>&1
check "bmod of a running job without LSB_MOD_ALL_JOBS fails" [ $? -ne 0 ]
check "with LSF's message" grep -q "Job has already started" "$T/mod.out"
badmin hrestart vh1 >"$T/hr.out" 2>&1
check "badmin hrestart succeeds" [ $? -eq 0 ]
check "with LSF's line" grep -qx "Restart slave batch daemon on <vh1> ...... done" "$T/hr.out"
check "sbatchd says it restarts" wait_for 10 grep -q "restarting by the administrator" "$T/log/sbatchd.vh1.out"
check "and registers again" wait_for 20 sh -c "[ \$(grep -c 'sbatchd .* started' '$T/log/sbatchd.vh1.out') -ge 2 ]"
check "the host is ok" wait_for 20 host_ok vh1
check "the job is still running" state_is "$job" RUN
touch "$T/work/go1"
check "and finishes DONE" wait_for 20 state_is "$job" DONE

# hshutdown: sbatchd exits, its job keeps running.
job2=$(bsub -o /dev/null "while [ ! -f '$T/work/go2' ]; do sleep 0.1; done" | job_id_of)
check "another job runs" wait_for 10 state_is "$job2" RUN
badmin hshutdown vh1 >"$T/hs.out" 2>&1
check "badmin hshutdown succeeds" [ $? -eq 0 ]
check "with LSF's line" grep -qx "Shut down slave batch daemon on <vh1> ...... done" "$T/hs.out"
pid=$(sbd_pid vh1)
gone() { ! kill -0 "$pid" 2>/dev/null; }
check "sbatchd exits" wait_for 10 gone
check "the host is no longer ok" wait_for 10 sh -c "! bhosts -w vh1 | awk '\$1 == \"vh1\" && \$2 == \"ok\" {f=1} END {exit !f}'"
lives() { [ -n "$(job_pids "$job2")" ]; }
check "its job's processes live on" lives

badmin hrestart vh1 >"$T/hr2.out" 2>&1
check "hrestart of a host without sbatchd fails" [ $? -ne 0 ]
check "saying so" grep -q "Restart slave batch daemon on <vh1> ...... failed" "$T/hr2.out"

# hstartup through LSF_RSH; the new sbatchd detaches: track it by its lock.
badmin hstartup vh1 >"$T/hu.out" 2>&1
check "badmin hstartup succeeds" [ $? -eq 0 ]
check "with LSF's line" grep -qx "Start up slave batch daemon on <vh1> ...... done" "$T/hu.out"
wait_for 10 test -s "$T/sbd/vh1/lock" && track "$(cat "$T/sbd/vh1/lock")"
check "the host is ok again" wait_for 20 host_ok vh1
touch "$T/work/go2"
check "the job that ran through it finishes DONE" wait_for 20 state_is "$job2" DONE

badmin hstartup nosuchhost >"$T/hn.out" 2>&1
check "hstartup of an unknown host fails" [ $? -ne 0 ]

# Administrators only: a user who is not one is refused.
other=$(getent passwd nobody | cut -d: -f1)
if [ "$(id -u)" -eq 0 ] && [ -n "$other" ]; then
	su -s /bin/sh "$other" -c "PATH='$PATH' LSF_ENVDIR='$LSF_ENVDIR' badmin hshutdown vh1" >"$T/perm.out" 2>&1
	check "a user who is not an administrator cannot hshutdown" [ $? -ne 0 ]
	check "the host stays ok" host_ok vh1
	su -s /bin/sh "$other" -c "PATH='$PATH' LSF_ENVDIR='$LSF_ENVDIR' badmin hstartup vh1" >"$T/perm2.out" 2>&1
	check "nor hstartup" [ $? -ne 0 ]
fi

# mbdhist: the start of mbatchd, then another after a restart.
stop_mbd
start_mbd || exit 1
badmin mbdhist >"$T/m.out" 2>&1
check "badmin mbdhist lists both mbatchd starts" sh -c "
	[ \$(grep -c '^${stamp}mbatchd started on host <[^>]*>\.\$' '$T/m.out') -eq 2 ]"
done_testing
