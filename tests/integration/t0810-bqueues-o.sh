#!/bin/sh
# bqueues as LSF 10.1: -o with field widths, delimiter and -noheader,
# -json as a JSON document (parsed), -u user and -m host selecting the
# queues mbatchd would let the user submit to / dispatch to the host,
# and -r showing a fairshare queue's USER_SHARES.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
me=$(id -un)
cat >>"$lsb/lsb.hosts" <<H
Begin HostGroup
GROUP_NAME  GROUP_MEMBER
hg2         (vh2)
End HostGroup
H
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME  = normal
PRIORITY    = 30
DESCRIPTION = the default queue
RUNLIMIT    = 10 20
End Queue

Begin Queue
QUEUE_NAME = onlyvh2
PRIORITY   = 40
HOSTS      = hg2
USERS      = nosuchuser1
UJOB_LIMIT = 3
End Queue

Begin Queue
QUEUE_NAME = fair
PRIORITY   = 20
FAIRSHARE  = USER_SHARES[[$me, 2] [default, 1]]
End Queue
Q
start_mbd || exit 1

bqueues -o "queue_name:12 priority:-8 status max:4 jl_u hosts" >"$T/o" 2>&1
check "-o succeeds" [ $? -eq 0 ]
check "-o: header and padded cells" python3 -c "
l = open('$T/o').read().split('\n')
assert l[0] == 'QUEUE_NAME   PRIORITY STATUS MAX  JL_U HOSTS', l[0]
assert l[1].split() == ['normal', '30', 'Open:Active', '-', '-', 'all'], l[1]
assert l[2] == 'onlyvh2            40 Open:Active -    3 vh2', l[2]
"
bqueues -o "qname prio njobs delimiter=','" -noheader >"$T/d" 2>&1
check "delimiter and -noheader" python3 -c "
l = open('$T/d').read().split('\n')
assert l[:3] == ['normal,30,0', 'onlyvh2,40,0', 'fair,20,0'], l
assert len(l) == 4 and l[3] == '', l
"
bqueues -o "max_runlimit default_runlimit" normal >"$T/r" 2>&1
check "run limits from lsb.queues" python3 -c "
l = open('$T/r').read().split('\n')
assert l[1] == '20.0 min 10.0 min', l
"
bqueues -o "queue_name bogus" >"$T/bad" 2>&1
check "an unknown field fails" [ $? -eq 255 ]
check "with LSF's message" grep -q "bqueues: Invalid field name or format in -o: bogus" "$T/bad"

bqueues -json -o "queue_name priority description" >"$T/j" 2>&1
check "-json parses" python3 -c "
import json
d = json.load(open('$T/j'))
assert d['COMMAND'] == 'bqueues' and d['QUEUES'] == 3, d
r = {x['QUEUE_NAME']: x for x in d['RECORDS']}
assert r['normal']['PRIORITY'] == '30', r
assert r['normal']['DESCRIPTION'] == 'the default queue', r
"
bqueues -json normal >"$T/j2" 2>&1
check "-json without -o: the default columns" python3 -c "
import json
d = json.load(open('$T/j2'))
assert d['QUEUES'] == 1, d
assert sorted(d['RECORDS'][0]) == sorted(['QUEUE_NAME', 'PRIORITY', 'STATUS',
    'MAX', 'JL_U', 'JL_P', 'JL_H', 'NJOBS', 'PEND', 'RUN', 'SUSP']), d
"

# The queue names a selection lists, on one line.
names() { bqueues "$@" | awk 'NR > 1 {printf "%s ", $1}'; }
check "-u me: not the queue of another user" \
	[ "$(names -u "$me")" = 'normal fair ' ]
check "-u that user: every queue open to him" \
	[ "$(names -u nosuchuser1)" = 'normal onlyvh2 fair ' ]
check "-m vh1: not the queue of hg2" [ "$(names -m vh1)" = 'normal fair ' ]
check "-m hg2: every queue that can use it" \
	[ "$(names -m hg2)" = 'normal onlyvh2 fair ' ]
check "-m all: the queues that use every host" \
	[ "$(names -m all)" = 'normal fair ' ]
bqueues -m nosuchhost >"$T/m" 2>&1
check "-m an unknown host fails" [ $? -eq 255 ]
check "as LSF says it" grep -q "nosuchhost: Bad host name, host group name or cluster name" "$T/m"
bqueues -u nosuchuser2 onlyvh2 >"$T/u" 2>&1
check "a selection without queues fails" [ $? -eq 255 ]
check "with No such queue" grep -q "No such queue" "$T/u"

bqueues -r fair >"$T/fs" 2>&1
check "-r: the fairshare policy" grep -q "^SCHEDULING POLICIES:  FAIRSHARE" "$T/fs"
check "-r: the shares" grep -q "^USER_SHARES:  \[$me, 2\] \[default, 1\]" "$T/fs"
done_testing
