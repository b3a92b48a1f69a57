#!/bin/sh
# lsid in LSF's layout, parsed as tools parse it: "My cluster name is
# (\S+)" and "My master name is (\S+)", and the first dotted number of its
# output taken as the LSF version (dask-jobqueue's lsf_version() does
# re.search(r"(\d+\.)+\d+", ...) and wants 10 or more).
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1

lsid >"$T/lsid" 2>&1
rc=$?
check "lsid succeeds" [ "$rc" -eq 0 ]
check "the cluster and master names parse" python3 -c "
import re
t = open('$T/lsid').read()
assert re.search(r'My cluster name is (\S+)', t).group(1) == 'basalt', t
assert re.search(r'My master name is (\S+)', t).group(1), t
"
check "the first version in the output is LSF's 10.1" python3 -c "
import re
t = open('$T/lsid').read()
v = re.search(r'(\d+\.)+\d+', t).group()
assert [int(x) for x in v.split('.')][:2] == [10, 1], v
"
check "Basalt keeps its name" grep -q "^Basalt " "$T/lsid"
check "an empty line before the two 'My' lines, as LSF" python3 -c "
l = open('$T/lsid').read().split('\n')
i = [k for k, x in enumerate(l) if x.startswith('My cluster name is')][0]
assert l[i - 1] == '' and l[i + 1].startswith('My master name is'), l
"
done_testing
