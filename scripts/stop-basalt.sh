#!/bin/sh
# Stops the cluster scripts/try-basalt.sh started, by the PIDs it recorded.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pids="$top/.basalt/pids"
[ -f "$pids" ] || { echo "no cluster recorded in $pids"; exit 0; }
while read -r name pid; do
	if kill -TERM "$pid" 2>/dev/null; then
		echo "stopped $name ($pid)"
	fi
done <"$pids"
rm -f "$pids"
