#!/bin/sh
# From a fresh Debian 12 machine to a running one-host Basalt cluster:
# installs what is missing, builds, starts mbatchd and one sbatchd from the
# shipped configuration in a local state directory (.basalt/), and runs a
# sample job you can watch go from PEND to RUN to DONE.
#
#   scripts/try-basalt.sh          start (or restart) and run the sample job
#   scripts/stop-basalt.sh         stop the cluster
#
# The daemons run as root, as on a real cluster: run it as root (a bare
# Debian 12 has no sudo), or as a user with sudo, and it asks sudo itself.
# The cluster authenticates with MUNGE: a munged already running on the
# machine is used, else a private one (own key and socket in .basalt/munge,
# no system service touched) is started and stopped with the cluster.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "error: run this as root, or install sudo" >&2
		exit 1
	}
	exec sudo "$top/scripts/try-basalt.sh" "$@"
fi
cd "$top"
state="$top/.basalt"
build="$top/build/default"

sh scripts/install-deps.sh
echo "Building in build/default ..."
sh scripts/build.sh build/default

[ -f "$state/pids" ] && sh scripts/stop-basalt.sh >/dev/null 2>&1 || true
rm -f "$state/pids"
mkdir -p "$state/conf" "$state/work" "$state/log"
cp -r conf/. "$state/conf/"
# The shipped lsf.conf, with this cluster's own state, log and a free port.
# The sample job is root's; a real site refuses root jobs
# (LSB_ALLOW_ROOT_JOBS unset), this one-machine trial allows them.
sed -e "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$state/work|" \
    -e "s|^LSF_LOGDIR=.*|LSF_LOGDIR=$state/log|" \
    -e "s|^LSB_MBD_PORT=.*|LSB_MBD_PORT=0|" \
    conf/lsf.conf >"$state/conf/lsf.conf"
echo "LSB_ALLOW_ROOT_JOBS=Y" >>"$state/conf/lsf.conf"
# The user who asked (through sudo) administers the trial cluster too.
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
	sed -i "s|^Administrators = root\$|Administrators = root $SUDO_USER|" \
		"$state/conf/lsf.cluster.basalt"
fi

# MUNGE: the machine's munged if one answers, else a private one.
if munge -n >/dev/null 2>&1; then
	echo "LSF_AUTH=munge" >>"$state/conf/lsf.conf"
	echo "Using the running munged."
elif command -v munged >/dev/null 2>&1; then
	mkdir -p "$state/munge"
	chmod 755 "$state/munge"
	[ -s "$state/munge/key" ] ||
		(umask 077 && dd if=/dev/urandom of="$state/munge/key" bs=1024 count=1 2>/dev/null)
	munged -F -f -S "$state/munge/munge.sock" --key-file "$state/munge/key" \
		--pid-file "$state/munge/munged.pid" --log-file "$state/log/munged.log" \
		--seed-file "$state/munge/seed" --origin=127.0.0.1 \
		>>"$state/log/munged.out" 2>&1 &
	echo "munged $!" >"$state/pids"
	i=0
	until munge -S "$state/munge/munge.sock" -n >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -lt 100 ] || { echo "munged did not start; see $state/log" >&2; exit 1; }
		sleep 0.1
	done
	printf 'LSF_AUTH=munge\nLSF_MUNGE_SOCKET=%s\n' "$state/munge/munge.sock" \
		>>"$state/conf/lsf.conf"
	echo "Started a private munged ($state/munge)."
else
	echo "No munged: a one-host cluster on the local socket only."
fi
# sbatchd proves it is host localhost: its credential comes from 127.0.0.1.
echo "127.0.0.1 localhost" >"$state/conf/hosts"

LSF_ENVDIR="$state/conf"; export LSF_ENVDIR
PATH="$build/cmd:$PATH"; export PATH
echo "Checking the configuration:"
"$build/mbatchd/mbatchd" -C

rm -f "$state/work/mbatchd.port"
"$build/mbatchd/mbatchd" -f >>"$state/log/mbatchd.out" 2>&1 &
echo "mbatchd $!" >>"$state/pids"
i=0
while [ ! -s "$state/work/mbatchd.port" ]; do
	i=$((i + 1)); [ $i -lt 100 ] || { echo "mbatchd did not start; see $state/log" >&2; exit 1; }
	sleep 0.1
done
"$build/sbatchd/sbatchd" -f -N localhost -S "$state/work/sbatchd" \
	>>"$state/log/sbatchd.out" 2>&1 &
echo "sbatchd $!" >>"$state/pids"
i=0
until bhosts 2>/dev/null | grep -q '^localhost *ok'; do
	i=$((i + 1)); [ $i -lt 100 ] || { echo "sbatchd did not register; see $state/log" >&2; exit 1; }
	sleep 0.1
done

echo
echo "\$ bqueues"; bqueues
echo
echo "\$ bhosts"; bhosts
echo
echo "\$ bsub -o $state/hello.out 'echo Hello from job \$LSB_JOBID on \$LSB_HOSTS; sleep 2'"
out=$(bsub -o "$state/hello.out" 'echo Hello from job $LSB_JOBID on $LSB_HOSTS; sleep 2')
echo "$out"
id=$(echo "$out" | sed -n 's/^Job <\([0-9]*\)>.*/\1/p')
last=""
while :; do
	st=$(bjobs -a -noheader -o stat "$id" | tr -d ' ')
	if [ "$st" != "$last" ]; then
		echo
		echo "\$ bjobs -a $id"; bjobs -a "$id"
		last=$st
	fi
	case "$st" in DONE|EXIT) break ;; esac
	sleep 0.2
done
echo
echo "\$ cat $state/hello.out"; cat "$state/hello.out"
cat <<MSG

The cluster is running.  To use it from this shell:
  export LSF_ENVDIR=$state/conf PATH=$build/cmd:\$PATH
Stop it with:
  scripts/stop-basalt.sh
MSG
