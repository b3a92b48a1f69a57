#!/bin/sh
# bugroup, bmgroup and bapp as LSF 10.1: the groups of lsb.users and
# lsb.hosts (nested groups with a trailing '/', -r expanding them, -l,
# unknown names), and the application profiles with the slots of their
# jobs as mbatchd counts them (summary and -l).
. "$top_srcdir/tests/lib.sh"

BS_MXJ=2
make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.users" <<U
Begin UserGroup
GROUP_NAME   GROUP_MEMBER       USER_SHARES
ug2          (carol dave)       ()
ug1          (alice bob ug2)    ([alice, 3] [bob, 1])
End UserGroup
U
cat >>"$lsb/lsb.hosts" <<H
Begin HostGroup
GROUP_NAME  GROUP_MEMBER
hgb         (vh2)
hga         (vh1 hgb)
End HostGroup
H
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME        = fluent
DESCRIPTION = Fluent solver
RUNLIMIT    = 60
End Application

Begin Application
NAME = idle
End Application
A
start_mbd || exit 1
start_sbd vh1 || exit 1

bugroup >"$T/ug" 2>&1
check "bugroup succeeds" [ $? -eq 0 ]
check "bugroup: LSF's header and nested groups with /" python3 -c "
l = open('$T/ug').read().split('\n')
assert l[0] == 'GROUP_NAME    USERS', l
assert l[1].split() == ['ug2', 'carol', 'dave'], l
assert l[2].split() == ['ug1', 'alice', 'bob', 'ug2/'], l
"
check "bugroup -r expands the nested group" \
	[ "$(bugroup -r ug1 | awk 'NR == 2 {$1 = ""; print}')" = " alice bob carol dave" ]
bugroup -l ug1 >"$T/ugl" 2>&1
check "bugroup -l shows the shares" grep -q "^SHARES: \[alice, 3\] \[bob, 1\]" "$T/ugl"
bugroup nosuch >"$T/ugn" 2>&1
check "an unknown user group fails" [ $? -eq 255 ]
check "and says so" grep -q "nosuch: No such user group" "$T/ugn"

bmgroup >"$T/mg" 2>&1
check "bmgroup succeeds" [ $? -eq 0 ]
check "bmgroup: LSF's header and nested groups with /" python3 -c "
l = open('$T/mg').read().split('\n')
assert l[0] == 'GROUP_NAME    HOSTS', l
assert l[1].split() == ['hgb', 'vh2'], l
assert l[2].split() == ['hga', 'vh1', 'hgb/'], l
"
check "bmgroup -r expands" \
	[ "$(bmgroup -r hga | awk 'NR == 2 {$1 = ""; print}')" = " vh1 vh2" ]
bmgroup vh1 >"$T/mgn" 2>&1
check "a host is no host group" [ $? -eq 255 ]

id1=$(bsub -app fluent sleep 300 | job_id_of)
id2=$(bsub -app fluent -n 2 sleep 300 | job_id_of)
check "one fluent job runs" wait_for 10 state_is "$id1" RUN
check "the other waits for slots" wait_for 10 state_is "$id2" PEND
bapp >"$T/app" 2>&1
check "bapp succeeds" [ $? -eq 0 ]
check "bapp: the slots of each profile's jobs" python3 -c "
l = open('$T/app').read().split('\n')
assert l[0] == 'APPLICATION_NAME NJOBS  PEND   RUN  SUSP', l
assert l[1].split() == ['fluent', '3', '2', '1', '0'], l
assert l[2].split() == ['idle', '0', '0', '0', '0'], l
"
bapp -l fluent >"$T/appl" 2>&1
check "bapp -l: name, description, limit" python3 -c "
t = open('$T/appl').read()
assert 'APPLICATION NAME: fluent\n -- Fluent solver\n' in t, t
assert '\nRUNLIMIT\n 60.0 min\n' in t, t
"
bapp nosuch >"$T/appn" 2>&1
check "an unknown profile fails" [ $? -eq 255 ]
bkill "$id1" "$id2" >/dev/null 2>&1
done_testing
