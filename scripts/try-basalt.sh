#!/bin/sh
# From a fresh Debian 12 machine to a checked Basalt build:
#   installs what is missing, builds, and checks the shipped one-host
#   configuration in conf/ with `mbatchd -C`, the check `badmin ckconfig`
#   runs.  (Starting the cluster and a sample job joins this script with the
#   daemons.)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

sh scripts/install-deps.sh
echo "Building in build/default ..."
sh scripts/build.sh build/default

LSF_ENVDIR="$top/conf"; export LSF_ENVDIR
echo "Checking the configuration in $LSF_ENVDIR:"
build/default/mbatchd/mbatchd -C
