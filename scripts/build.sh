#!/bin/sh
# Builds Basalt out of tree: scripts/build.sh DIR [configure options...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1; shift
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null)
mkdir -p "$dir"
cd "$dir"
# Reconfigure only when the options changed, so repeated runs are quick.
want="$*"
if [ ! -f config.status ] || [ "$(cat .bs-configure-args 2>/dev/null)" != "$want" ]; then
	"$top/configure" -q "$@"
	printf '%s' "$want" > .bs-configure-args
fi
make -j"$(nproc)" >/dev/null
