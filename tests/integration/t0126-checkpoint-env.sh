#!/bin/sh
# A checkpoint stores each environment once and its jobs refer to it
# (format version 2, EvEnvironment): jobs pending across a restart that
# reads such a checkpoint run with their own environments, two jobs
# sharing one and a third with another.
. "$top_srcdir/tests/lib.sh"

LSB_API_CONNTIMEOUT=20
export LSB_API_CONNTIMEOUT

make_cluster vh1
echo "LSB_JOURNAL_SEGMENT_MB=1" >>"$T/conf/lsf.conf"
start_mbd || exit 1

sub() { bsub -H "$@" | job_id_of; }
a1=$(BS_CK_VAR=shared sub -o "$T/out.a1" 'echo "a1 $BS_CK_VAR"')
a2=$(BS_CK_VAR=shared sub -o "$T/out.a2" 'echo "a2 $BS_CK_VAR"')
b=$(BS_CK_VAR=its-own sub -o "$T/out.b" 'echo "b $BS_CK_VAR"')
check "three held jobs" test -n "$a1" -a -n "$a2" -a -n "$b"

# Past the 1 MB segment: 300 posts of 4000 bytes, then the checkpoint.
fill=$(head -c 4000 /dev/zero | tr '\0' f)
i=0
while [ $i -lt 300 ]; do
	bpost -i $((i % 100 + 10)) -d "$fill" "$b" >/dev/null || break
	i=$((i + 1))
done
check "300 large posts accepted" test $i -eq 300
check "mbatchd took a checkpoint" wait_for 20 grep -q "journal: checkpoint at seq" "$T/log/mbatchd.out"
ck=$(ls "$T/work/events" | grep '^snapshot' | tail -n 1)
check "its format version is 2" test "$(od -An -tu4 -j 8 -N 4 "$T/work/events/$ck" | tr -d ' ')" = 2
stop_mbd
start_mbd || exit 1
check "the restart read the checkpoint" grep -q "journal: recovered [1-9][0-9]* checkpoint events" "$T/log/mbatchd.out"
start_sbd vh1 || exit 1
bresume "$a1" "$a2" "$b" >/dev/null 2>&1
check "a1 is DONE" wait_for 20 state_is "$a1" DONE
check "a2 is DONE" wait_for 20 state_is "$a2" DONE
check "b is DONE" wait_for 20 state_is "$b" DONE
check "a1 ran with its environment" sh -c "sed '/^Sender: LSF System </,\$d' '$T/out.a1' | grep -qx 'a1 shared'"
check "a2 ran with the same one" sh -c "sed '/^Sender: LSF System </,\$d' '$T/out.a2' | grep -qx 'a2 shared'"
check "b ran with its own" sh -c "sed '/^Sender: LSF System </,\$d' '$T/out.b' | grep -qx 'b its-own'"
done_testing
