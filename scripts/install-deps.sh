#!/bin/sh
# Installs the Debian 12 packages Basalt needs to build and test, and only
# those that are missing.  Needs root (or sudo) when something is missing.
set -eu

PACKAGES="gcc make autoconf automake pkg-config libglib2.0-dev \
libprotobuf-c-dev protobuf-c-compiler check clang libclang-rt-14-dev \
procps passwd munge libmunge-dev openmpi-bin libopenmpi-dev mpich libmpich-dev \
python3 iproute2 tcsh"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "error: missing packages:$missing (run as root or install sudo)" >&2
		exit 1
	}
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
