#!/bin/sh
# Figure memory.per_job: mbatchd's resident memory growth per pending job.
#
# A cluster with no execution host (so every job stays pending), mbatchd's
# VmRSS read from /proc before and after 100,000 jobs are submitted by
# bench/loadgen's client mode, which sends exactly the request bsub builds
# from its environment.  That environment is fixed here: a typical login
# environment of 36 variables (PATH, HOME, SHELL, LANG, ..., no LS_COLORS),
# so the figure does not depend on who runs it; its size in bytes is shown
# on stderr.  BENCH_SMOKE=1: 500 jobs.
#
# Output: result<TAB>memory.per_job<TAB>BYTES<TAB>bytes
set -u
: "${top_builddir:?}" "${top_srcdir:?}"

if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	NJOBS=500
else
	NJOBS=100000
fi

. "$top_srcdir/tests/lib.sh"

make_cluster
# No Host section entries: nothing can run, every job pends.
{
	echo "Begin ClusterAdmins"
	echo "Administrators = root $(id -un)"
	echo "End ClusterAdmins"
	echo "Begin Host"
	echo "HOSTNAME  model  type  server  RESOURCES"
	echo "End Host"
} >"$T/conf/lsf.cluster.basalt"
sed -i 's/^LSF_LOG_MASK=.*/LSF_LOG_MASK=LOG_WARNING/' "$T/conf/lsf.conf"
start_mbd || exit 1

rss_kb() {
	awk '/^VmRSS:/ {print $2}' "/proc/$MBD_PID/status"
}

# Let mbatchd finish starting (its first scheduling pass) before the
# first reading.
wait_for 10 bqueues >/dev/null || exit 1
before=$(rss_kb)

# The typical environment, as bsub would find it in a login shell.
set -- \
	"HOME=/home/alice.smith" \
	"USER=alice.smith" \
	"LOGNAME=alice.smith" \
	"SHELL=/bin/bash" \
	"PATH=/home/alice.smith/.local/bin:/opt/lsf/10.1/linux3.10-glibc2.17-x86_64/bin:/opt/lsf/10.1/linux3.10-glibc2.17-x86_64/etc:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/apps/bin" \
	"LANG=en_US.UTF-8" \
	"LC_CTYPE=en_US.UTF-8" \
	"TERM=xterm-256color" \
	"PWD=/home/alice.smith/projects/simulation/run-042" \
	"OLDPWD=/home/alice.smith/projects/simulation" \
	"HOSTNAME=login01.cluster.example.org" \
	"MAIL=/var/spool/mail/alice.smith" \
	"EDITOR=vim" \
	"PAGER=less" \
	"LESS=-R" \
	"HISTSIZE=10000" \
	"HISTCONTROL=ignoredups" \
	"SHLVL=1" \
	"XDG_SESSION_ID=4711" \
	"XDG_RUNTIME_DIR=/run/user/10042" \
	"XDG_DATA_DIRS=/usr/local/share:/usr/share" \
	"XDG_CONFIG_DIRS=/etc/xdg" \
	"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/10042/bus" \
	"SSH_CLIENT=192.0.2.17 52114 22" \
	"SSH_CONNECTION=192.0.2.17 52114 192.0.2.10 22" \
	"SSH_TTY=/dev/pts/3" \
	"MANPATH=/opt/lsf/10.1/man:/usr/local/share/man:/usr/share/man" \
	"LD_LIBRARY_PATH=/opt/lsf/10.1/linux3.10-glibc2.17-x86_64/lib:/opt/apps/lib" \
	"MODULEPATH=/etc/modulefiles:/usr/share/modulefiles:/opt/apps/modulefiles" \
	"MODULESHOME=/usr/share/Modules" \
	"LOADEDMODULES=gcc/12.2.0:openmpi/4.1.5" \
	"JAVA_HOME=/usr/lib/jvm/java-17-openjdk" \
	"PYTHONPATH=/home/alice.smith/projects/simulation/lib/python" \
	"LSF_SERVERDIR=/opt/lsf/10.1/linux3.10-glibc2.17-x86_64/etc" \
	"LSF_BINDIR=/opt/lsf/10.1/linux3.10-glibc2.17-x86_64/bin" \
	"LSF_ENVDIR=$LSF_ENVDIR"
envsize=0
for v in "$@"; do
	envsize=$((envsize + ${#v} + 1))
done
echo "memory: $NJOBS jobs, environment of $# variables, $envsize bytes" >&2

# In the background and waited for, so a signal to this script is acted
# on (and loadgen stopped) at once.
env -i "$@" "$top_builddir/bench/loadgen" -c 4 -n "$NJOBS" -- \
	-q normal -o /dev/null "sleep 60" >"$T/loadgen.out" 2>&1 &
track $!
wait $! || {
	echo "memory: loadgen failed: $(cat "$T/loadgen.out")" >&2
	exit 1
}
out=$(cat "$T/loadgen.out")
echo "memory: $out" >&2
case "$out" in
*"submitted: $NJOBS jobs, 0 refused"*) ;;
*) echo "memory: not every job was accepted" >&2; exit 1 ;;
esac

# The jobs are in; the scheduling passes that follow set each one's
# pending reason, which is part of what a pending job costs: read after
# two passes (MBD_SLEEP_TIME=1) have run over all of them.
npend=$(bjobs -u all -p -noheader -o jobid | wc -l)
if [ "$npend" -ne "$NJOBS" ]; then
	echo "memory: $npend jobs pending, expected $NJOBS" >&2
	exit 1
fi
sleep 2
after=$(rss_kb)
echo "memory: VmRSS $before kB before, $after kB after" >&2
awk -v a="$after" -v b="$before" -v n="$NJOBS" \
	'BEGIN { printf "result\tmemory.per_job\t%.1f\tbytes\n", (a - b) * 1024 / n }'
