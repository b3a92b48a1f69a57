#!/bin/sh
# Resource plans as people meet them, on real daemons: mbatchd loads
# lsb.consumers; bsub -consumer is refused for an unknown path, a parent,
# or a user outside the consumer's USERS, and accepted otherwise; bjobs
# shows each job's consumer (-consumer, else the queue's CONSUMER);
# bconsumers lists the plan (paths select subtrees, -g a group, -json);
# badmin reconfig (or SIGHUP) with a bad plan, or with a queue naming a
# parent consumer, fails with file:line and leaves the running plan as it
# was;
# a configuration without lsb.consumers leaves no consumer.
. "$top_srcdir/tests/lib.sh"

user=""
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	user=bsct$$
	add_test_user "$user" "$T/home" || exit 1
fi
other=${user:-nobody}

make_cluster vh1 vh2
lsb="$T/conf/lsbatch/basalt/configdir"
plan() {   # plan OWNED_OF_A RESERVED_OF_A
	cat >"$lsb/lsb.consumers" <<C
Begin ResourceGroup
NAME       = rg1
HOSTS      = all
PLAN_SLOTS = 8
End ResourceGroup

Begin Consumer
NAME   = /eng
POLICY = hybrid
End Consumer

Begin Consumer
NAME  = /eng/a
USERS = root $(id -un)
End Consumer

Begin Consumer
NAME  = /eng/b
USERS = $other
End Consumer

Begin Consumer
NAME  = /ops
USERS = all
End Consumer

Begin Consumer
NAME  = /idle
End Consumer

Begin Plan
RESOURCE_GROUP = rg1
CONSUMER  OWNED  RESERVED  LIMIT  RANK
/eng      6      0         -      0
/eng/a    $1     $2        -      0
/eng/b    2      0         5      1
/ops      2      0         -      0
End Plan
C
}
queues() {   # queues CONSUMER_OF_NORMAL
	cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
CONSUMER   = $1
End Queue

Begin Queue
QUEUE_NAME = free
PRIORITY   = 20
End Queue
Q
}
plan 4 1
queues /eng/a
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1

# refused_with PATTERN command...: the command fails, saying PATTERN.
refused_with() { pat=$1; shift; ! "$@" >"$T/refused.out" 2>&1 && grep -q "$pat" "$T/refused.out"; }

check "bsub -consumer refuses an unknown consumer" \
	refused_with "/nosuch: No such consumer" bsub -consumer /nosuch -o /dev/null true
check "bsub -consumer refuses a consumer with sub-consumers" \
	refused_with "/eng: The consumer is not a leaf" bsub -consumer /eng -o /dev/null true
check "bsub -consumer refuses a user outside the consumer's USERS" \
	refused_with "User $(id -un) is not in the consumer's USERS" \
	bsub -consumer /eng/b -o /dev/null true
check "bsub refuses a path that is not absolute" \
	refused_with "Bad consumer: eng/a" bsub -consumer eng/a -o /dev/null true
check "no job was created by the refusals" sh -c '! bjobs -a -u all >/dev/null 2>&1'

ops=$(bsub -consumer /ops -o /dev/null sleep 300 | job_id_of)
check "bsub -consumer to a consumer whose USERS is all is accepted" test -n "$ops"
qjob=$(bsub -o /dev/null sleep 300 | job_id_of)
free=$(bsub -q free -o /dev/null sleep 300 | job_id_of)
printf '#BSUB -consumer /ops\n#BSUB -o /dev/null\nsleep 300\n' >"$T/script"
scr=$(bsub <"$T/script" | job_id_of)
check "bjobs -l shows the -consumer one" \
	says bjobs "$ops" 'Consumer </ops>'
check "bjobs -o consumer: the queue's CONSUMER when bsub names none" \
	sh -c "[ \"\$(bjobs -noheader -o consumer $qjob)\" = /eng/a ]"
check "bqueues -l shows the queue's CONSUMER" sh -c "bqueues -l normal | grep -q 'CONSUMER = /eng/a'"
check "a job of a queue without CONSUMER has none" \
	sh -c "[ \"\$(bjobs -noheader -o consumer $free)\" = - ]"
check "#BSUB -consumer is read from the script" \
	sh -c "[ \"\$(bjobs -noheader -o consumer $scr)\" = /ops ]"
check "bjobs -json carries the consumer" \
	sh -c "bjobs -json -o 'jobid consumer' $ops | grep -q '\"CONSUMER\":\"/ops\"'"

if [ -n "$user" ]; then
	as_user() { runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
	mkdir -p "$T/home" && chown "$user" "$T/home"
	ub=$(cd "$T/home" && as_user bsub -q free -consumer /eng/b -o /dev/null sleep 300 | job_id_of)
	check "a user in USERS may submit to the consumer" test -n "$ub"
	check "and that job counts against it" \
		sh -c "[ \"\$(bjobs -u all -noheader -o consumer $ub)\" = /eng/b ]"
	check "the user may not use a consumer whose USERS leaves them out" \
		refused_with "User $user is not in the consumer's USERS" \
		as_user sh -c "cd $T/home && bsub -q free -consumer /eng/a -o /dev/null true"
	check "any user may run bconsumers" \
		sh -c "runuser -u $user -- env PATH=\"$PATH\" LSF_ENVDIR=\"$LSF_ENVDIR\" bconsumers | grep -q '^/eng/b '"
else
	diag "not root: the other-user checks are left out"
fi

check "bconsumers lists the plan's rows in plan order, then the consumers it does not name" \
	sh -c "[ \"\$(bconsumers -w | awk 'NR > 1 {print \$1}' | tr '\n' ' ')\" = '/eng /eng/a /eng/b /ops /idle ' ]"
check "a consumer without a row owns nothing and has no limit" \
	sh -c "[ \"\$(bconsumers -w /idle | awk '\$1 == \"/idle\" {print \$3, \$5, \$6}')\" = '0 0 -' ]"
check "with OWNED, RESERVED, LIMIT and RANK as configured" \
	sh -c "row() { bconsumers -w | awk -v p=\"\$1\" '\$1 == p {print \$3, \$5, \$6, \$7}'; }; [ \"\$(row /eng/a)\" = '4 1 - 0' ] && [ \"\$(row /eng/b)\" = '2 0 5 1' ]"
check "a path selects its subtree" \
	sh -c "[ \"\$(bconsumers /eng | awk 'NR > 1 {print \$1}' | tr '\n' ' ')\" = '/eng /eng/a /eng/b ' ]"
check "an unknown path is refused" refused_with "/nope: No such consumer" bconsumers /nope
check "-g names a resource group" sh -c "bconsumers -g rg1 | grep -q '^/ops '"
check "an unknown group is refused" refused_with "rgX: No such resource group" bconsumers -g rgX
check "-json has a record per row" \
	sh -c "bconsumers -json | grep -q '\"CONSUMERS\":5,' && bconsumers -json | grep -q '\"CONSUMER\":\"/eng/b\"'"
check "-l shows the group and the consumer's USERS" \
	sh -c "bconsumers -l /ops | grep -q '^RESOURCE GROUP: rg1 (PLAN_SLOTS 8,' && bconsumers -l /ops | grep -q 'USERS: all  LEAF'"

# A bad plan: RESERVED above OWNED.  Nothing changes, file:line is said.
cp "$lsb/lsb.consumers" "$T/consumers.good"
plan 4 9
line=$(grep -n '^/eng/a ' "$lsb/lsb.consumers" | cut -d: -f1)
badmin reconfig >"$T/bad.out" 2>&1
check "reconfig with a bad plan fails" sh -c "! badmin reconfig >/dev/null 2>&1"
check "and names lsb.consumers and the line" grep -q "lsb.consumers:$line:" "$T/bad.out"
check "badmin ckconfig reports it too" sh -c "badmin ckconfig 2>&1 | grep -q 'lsb.consumers:$line:'"
check "the running plan is unchanged" \
	sh -c "[ \"\$(bconsumers -w | awk '\$1 == \"/eng/a\" {print \$3, \$5}')\" = '4 1' ]"
check "jobs keep their consumers" sh -c "[ \"\$(bjobs -noheader -o consumer $qjob)\" = /eng/a ]"
kill -HUP "$MBD_PID"
check "SIGHUP with the bad plan is refused too, with file:line in the log" \
	wait_for 10 grep -rq "reconfiguration refused" "$T/log/"
check "naming lsb.consumers and the line" grep -rq "lsb.consumers:$line:" "$T/log/"
check "and mbatchd runs on with the old plan" \
	sh -c "[ \"\$(bconsumers -w | awk '\$1 == \"/eng/a\" {print \$3, \$5}')\" = '4 1' ]"

# A resource group naming a host the cluster does not have.
sed 's/^HOSTS      = all$/HOSTS      = vh1 vh9/' "$T/consumers.good" >"$lsb/lsb.consumers"
hline=$(grep -n '^HOSTS      = vh1 vh9' "$lsb/lsb.consumers" | cut -d: -f1)
badmin reconfig >"$T/bad.out" 2>&1
check "reconfig with a resource group naming an unknown host fails at its line" \
	grep -q "lsb.consumers:$hline: resource group rg1: unknown host or host group vh9" "$T/bad.out"

# A queue naming a parent consumer: the cross-file error, in lsb.queues.
cp "$T/consumers.good" "$lsb/lsb.consumers"
queues /eng
qline=$(grep -n 'CONSUMER   = /eng$' "$lsb/lsb.queues" | cut -d: -f1)
badmin reconfig >"$T/bad.out" 2>&1
check "reconfig with a queue mapped to a parent consumer fails" \
	grep -q "lsb.queues:$qline: queue normal: CONSUMER names /eng, which has sub-consumers" "$T/bad.out"
check "the queue keeps its consumer" sh -c "[ \"\$(bjobs -noheader -o consumer $qjob)\" = /eng/a ]"

# A good change takes effect whole.
queues /eng/a
plan 3 1
check "a valid new plan is accepted" sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
check "and bconsumers shows it" \
	sh -c "[ \"\$(bconsumers -w | awk '\$1 == \"/eng/a\" {print \$3}')\" = 3 ]"

# No plan at all: the file and the queue's CONSUMER removed.
rm "$lsb/lsb.consumers"
queues ""
sed -i '/^CONSUMER *= *$/d' "$lsb/lsb.queues"
check "a configuration without lsb.consumers is accepted" \
	sh -c 'badmin reconfig 2>&1 | grep -q "Reconfiguration initiated"'
check "bconsumers then says no consumer is configured" \
	refused_with "No consumer is configured" bconsumers
check "bconsumers -json is an empty document" \
	sh -c "bconsumers -json | grep -q '\"CONSUMERS\":0,'"
check "jobs belong to no consumer any more" \
	sh -c "[ \"\$(bjobs -noheader -o consumer $qjob $ops | sort -u)\" = - ]"

bkill -u all 0 >/dev/null 2>&1
done_testing
