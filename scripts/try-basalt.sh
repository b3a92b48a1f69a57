#!/bin/sh
# From a fresh Debian 12 machine to a running one-host Basalt cluster:
# installs what is missing, builds, starts mbatchd and one sbatchd from the
# shipped configuration in a local state directory (.basalt/), and runs a
# sample job you can watch go from PEND to RUN to DONE.
#
#   scripts/try-basalt.sh          start (or restart) and run the sample job
#   scripts/stop-basalt.sh         stop the cluster
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
state="$top/.basalt"
build="$top/build/default"

sh scripts/install-deps.sh
echo "Building in build/default ..."
sh scripts/build.sh build/default

[ -f "$state/pids" ] && sh scripts/stop-basalt.sh >/dev/null 2>&1 || true
mkdir -p "$state/conf" "$state/work" "$state/log"
cp -r conf/. "$state/conf/"
# The shipped lsf.conf, with this cluster's own state, log and a free port.
# Run with sudo, the sample job is root's; a real site refuses root jobs
# (LSB_ALLOW_ROOT_JOBS unset), this one-machine trial allows them.
sed -e "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$state/work|" \
    -e "s|^LSF_LOGDIR=.*|LSF_LOGDIR=$state/log|" \
    -e "s|^LSB_MBD_PORT=.*|LSB_MBD_PORT=0|" \
    conf/lsf.conf >"$state/conf/lsf.conf"
[ "$(id -u)" -eq 0 ] && echo "LSB_ALLOW_ROOT_JOBS=Y" >>"$state/conf/lsf.conf"

LSF_ENVDIR="$state/conf"; export LSF_ENVDIR
PATH="$build/cmd:$PATH"; export PATH
echo "Checking the configuration:"
"$build/mbatchd/mbatchd" -C

rm -f "$state/work/mbatchd.port"
"$build/mbatchd/mbatchd" -f >>"$state/log/mbatchd.out" 2>&1 &
echo "mbatchd $!" >"$state/pids"
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
