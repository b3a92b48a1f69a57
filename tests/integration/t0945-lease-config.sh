#!/bin/sh
# lsb.resources HostExport on a real mbatchd: a good export (shared to one
# peer, exclusive to two) is taken by badmin reconfig; each error of the
# lease model (a shared PER_HOST export to two consumers, a host of a
# shared lease exported to another consumer, a cluster lsf.shared does not
# list) is refused by badmin ckconfig and badmin reconfig at its
# file:line, and the running configuration stays as it was.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
# Two peer clusters without Servers: named by DISTRIBUTION, never dialed.
sed -i 's/^End Cluster$/peer1  -\npeer2  -\nEnd Cluster/' "$T/conf/lsf.shared"
lsb="$T/conf/lsbatch/basalt/configdir"
start_mbd || exit 1

good() {
	cat >"$lsb/lsb.resources" <<'R'
Begin HostExport
NAME         = special
PER_HOST     = vh1
SLOTS        = 4
DISTRIBUTION = ([peer1, 1])
TYPE         = shared
End HostExport

Begin HostExport
NAME         = split
PER_HOST     = vh2
SLOTS        = 4
DISTRIBUTION = ([peer1, 1] [peer2, 3])
End HostExport
R
}

good
check "a good export passes ckconfig" sh -c '! badmin ckconfig 2>&1 | grep -q "lsb.resources"'
check "and is taken by reconfig" sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
cp "$lsb/lsb.resources" "$T/resources.good"

refused() {   # refused NAME LINE MESSAGE: ckconfig and reconfig both say it
	badmin ckconfig >"$T/ck.out" 2>&1
	check "$1: ckconfig names lsb.resources:$2" grep -q "lsb.resources:$2: .*$3" "$T/ck.out"
	badmin reconfig >"$T/re.out" 2>&1 && rc=0 || rc=$?
	check "$1: reconfig is refused" test "$rc" -ne 0
	check "$1: reconfig names lsb.resources:$2" grep -q "lsb.resources:$2: .*$3" "$T/re.out"
	check "$1: mbatchd still answers" sh -c 'bqueues >/dev/null 2>&1'
	cp "$T/resources.good" "$lsb/lsb.resources"
}

sed -i 's/DISTRIBUTION = (\[peer1, 1\])/DISTRIBUTION = ([peer1, 1] [peer2, 1])/' "$lsb/lsb.resources"
refused "shared PER_HOST to two consumers" 5 \
	"with PER_HOST exports each host to one consumer cluster only"

cat >>"$lsb/lsb.resources" <<'R'

Begin HostExport
NAME         = again
PER_HOST     = vh1
SLOTS        = 2
DISTRIBUTION = ([peer2, 1])
End HostExport
R
refused "a shared host exported to another consumer" 3 \
	"host vh1 is exported by a shared lease to peer1, and HostExport again"

sed -i 's/\[peer2, 3\]/[nowhere, 3]/' "$lsb/lsb.resources"
refused "an unknown consumer cluster" 13 "names cluster nowhere, which is not in lsf.shared"

check "after the errors the good export is taken again" \
	sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
done_testing
