#!/bin/sh
# bpost and bread: a message posted to a job is read back in LSF's layout,
# a post to the same index replaces it, the bounds (index 0..127, 4096
# bytes) are enforced, the messages survive a restart of mbatchd (the
# journal's EvJobMessage, and a checkpoint), and another user may neither
# post to the job nor, at the default SECURE_JOB_INFO_LEVEL, read it.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to create test users"
command -v useradd >/dev/null || skip_all "useradd is not installed"
u1=bspa$$
u2=bspb$$
add_test_user "$u1" "$T/home" || exit 1
add_test_user "$u2" "$T/home" || exit 1
mkdir -p "$T/home" && chmod 777 "$T/home"

make_cluster vh1
start_mbd || exit 1
as() { u=$1; shift; runuser -u "$u" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
cd "$T/home" || exit 1

id=$(as "$u1" bsub -H 'sleep 1' | job_id_of)
check "the job is held" wait_for 10 state_is "$id" PSUSP

check "the owner posts to index 0" as "$u1" bpost -d "step one done" "$id"
as "$u1" bread "$id" >"$T/r0" 2>&1
check "bread prints LSF's header" grep -q '^JOBID *MSG_ID *FROM *POST_TIME *MESSAGE *ATTACHMENT$' "$T/r0"
check "and the message, from its poster" grep -qE "^$id +0 +$u1 +[A-Z][a-z]{2} +[0-9]+ [0-9:]{5} +step one done +N$" "$T/r0"
check "a post to index 3" as "$u1" bpost -i 3 -d "halfway" "$id"
check "a second post to index 3 replaces it" as "$u1" bpost -i 3 -d "three quarters" "$id"
check "bread -i 3 shows the new one" sh -c "bread -i 3 $id | grep -q 'three quarters'"
check "and not the old one" sh -c "! bread -i 3 $id | grep -q halfway"
check "without -d the description is LSF's" as "$u1" bpost -i 5 "$id"
check "bread -i 5: no description" sh -c "bread -i 5 $id | grep -q 'no description'"
check "an empty index: bread fails" sh -c "! bread -i 7 $id 2>'$T/r7'"
check "saying so" grep -q "No message available" "$T/r7"
check "index 128 is refused" sh -c "! bpost -i 128 -d x $id 2>'$T/big'"
check "with the bound" grep -q "0 to 127" "$T/big"
long=$(head -c 4097 /dev/zero | tr '\0' a)
check "a 4097-byte description is refused" sh -c "! bpost -d '$long' $id 2>/dev/null"
check "-a is refused, not ignored" sh -c "! bpost -a /etc/hostname $id 2>/dev/null"
check "an unknown job" sh -c "! bpost -d x 999999 2>/dev/null"

# Another user: neither post nor (level 5, Basalt's default) read.
check "another user may not post" sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bpost -d intruder $id 2>'$T/deny'"
check "told why" grep -q "permission denied" "$T/deny"
check "nor read" sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bread $id >'$T/other' 2>&1"
check "and sees no message text" sh -c "! grep -q 'step one' '$T/other'"
check "an administrator posts to it" bpost -i 1 -d "from the admin" "$id"
check "and the post names the administrator" sh -c "bread -i 1 $id | grep -q \"$(id -un) .*from the admin\""

check "bhist -l shows who posted" sh -c "bhist -l $id | tr -d '\\n ' | grep -q 'Message<3>postedbyuseroradministrator<$u1>'"
check "the owner's bhist, read through mbatchd, shows it too" sh -c "runuser -u $u1 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bhist -l $id | tr -d '\\n ' | grep -q 'Message<0>postedbyuseroradministrator<$u1>'"

# A restart replays the journal.
stop_mbd
start_mbd || exit 1
check "after a restart the message is there" sh -c "as() { runuser -u \"\$1\" -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bread -i 3 $id; }; as $u1 | grep -q 'three quarters'"
check "and index 0 too" sh -c "bread $id | grep -q 'step one done'"

# A checkpoint carries them as well: 1 MB segments, filled by posts of
# 4000 bytes (each journaled, each replacing the last at its index), so
# mbatchd checkpoints and rotates; the restart then reads the checkpoint.
stop_mbd
echo "LSB_JOURNAL_SEGMENT_MB=1" >>"$T/conf/lsf.conf"
start_mbd || exit 1
fill=$(head -c 4000 /dev/zero | tr '\0' f)
i=0
while [ $i -lt 300 ]; do
	bpost -i $((i % 100 + 10)) -d "$fill" "$id" >/dev/null || break
	i=$((i + 1))
done
check "300 large posts accepted" test $i -eq 300
check "mbatchd took a checkpoint" wait_for 20 grep -q "journal: checkpoint at seq" "$T/log/mbatchd.out"
stop_mbd
start_mbd || exit 1
check "the restart read a checkpoint" grep -q "journal: recovered [1-9][0-9]* checkpoint events" "$T/log/mbatchd.out"
check "after it, the messages are there" sh -c "bread -i 1 $id | grep -q 'from the admin' && bread -i 3 $id | grep -q 'three quarters'"
check "the large ones too, with their poster" sh -c "bread -i 109 $id | grep -q \"^$id  *109  *$(id -un)  .* ffff*  *N\$\""

params=$T/conf/lsbatch/basalt/configdir/lsb.params
sed -i 's/^End Parameters/SECURE_JOB_INFO_LEVEL = 0\nEnd Parameters/' "$params"
badmin reconfig >/dev/null 2>&1
check "at level 0 another user reads it" wait_for 10 sh -c "runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bread $id 2>/dev/null | grep -q 'step one done'"
check "but still may not post" sh -c "! runuser -u $u2 -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bpost -d intruder $id 2>/dev/null"
check "the job can still be killed" bkill "$id"
done_testing
