#!/bin/sh
# Stops the cluster scripts/try-basalt.sh started, by the PIDs it recorded
# (its private munged too, last).  The daemons are root's: run as root, or
# as a user with sudo, and it asks sudo itself.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	exec sudo "$top/scripts/stop-basalt.sh" "$@"
fi
pids="$top/.basalt/pids"
[ -f "$pids" ] || { echo "no cluster recorded in $pids"; exit 0; }
# The daemons first: munged is recorded first and stopped last.
tac "$pids" | while read -r name pid; do
	if kill -TERM "$pid" 2>/dev/null; then
		echo "stopped $name ($pid)"
	fi
done
rm -f "$pids"
