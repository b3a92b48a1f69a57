#!/bin/sh
# badmin qhist, hhist and mbdhist as LSF: the queue and host controls and
# the reconfigurations, each a dated line naming who did it, read from
# mbatchd's journal; names narrow the list, -t keeps an interval, -f reads
# a journal directory given, and a user who cannot read the journal gets
# the same lines through mbatchd.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
me=$(id -un)

badmin qhist >"$T/q0.out" 2>&1
check "qhist with no control yet finds nothing" sh -c "[ $? -ne 0 ] && grep -q 'No matching event found' '$T/q0.out'"

badmin qclose -C "disk full" normal >/dev/null 2>&1
badmin qopen normal >/dev/null 2>&1
badmin qinact normal >/dev/null 2>&1
badmin qact normal >/dev/null 2>&1
badmin hclose vh1 >/dev/null 2>&1
badmin hopen vh1 >/dev/null 2>&1
badmin reconfig >/dev/null 2>&1 </dev/null

stamp='[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9]\{4\}: '
badmin qhist >"$T/q.out" 2>&1
check "badmin qhist succeeds" [ $? -eq 0 ]
check "it shows the four queue controls in order" sh -c "
	sed 's/^$stamp//' '$T/q.out' >'$T/q.txt' &&
	[ \"\$(cat '$T/q.txt')\" = 'Queue <normal> closed by user or administrator <$me>. Comment: disk full
Queue <normal> opened by user or administrator <$me>.
Queue <normal> inactivated by user or administrator <$me>.
Queue <normal> activated by user or administrator <$me>.' ]"
check "each line starts with the date" sh -c "[ \"\$(grep -c '^$stamp' '$T/q.out')\" -eq 4 ]"
badmin qhist nosuchqueue >"$T/qn.out" 2>&1
check "qhist of another queue finds nothing" grep -q 'No matching event found' "$T/qn.out"

badmin hhist >"$T/h.out" 2>&1
check "badmin hhist shows the host closed then opened" sh -c "
	sed 's/^$stamp//' '$T/h.out' | tr '\n' '|' | grep -qx 'Host <vh1> closed by administrator <$me>.|Host <vh1> opened by administrator <$me>.|'"
badmin hhist vh2 >/dev/null 2>&1
check "hhist vh2 finds nothing" [ $? -ne 0 ]

badmin mbdhist >"$T/m.out" 2>&1
check "badmin mbdhist shows the reconfiguration" grep -q "^${stamp}mbatchd reconfigured by user or administrator <$me>" "$T/m.out"

badmin qhist -t 2037/1/1/0:0,2037/12/31/0:0 >"$T/qt.out" 2>&1
check "-t with an interval in the future finds nothing" sh -c "[ $? -ne 0 ] && grep -q 'No matching event found' '$T/qt.out'"
y=$(date +%Y)
badmin qhist -t "$y/1/1/0:0," >"$T/qt2.out" 2>&1
check "-t from the start of the year finds the four" sh -c "[ \"\$(wc -l <'$T/qt2.out')\" -eq 4 ]"
badmin qhist -t garbage >/dev/null 2>&1
check "a bad -t is refused" [ $? -ne 0 ]

badmin hhist -f "$(journal_dir)" >"$T/hf.out" 2>&1
check "-f reads the journal directory given" sh -c "[ \"\$(wc -l <'$T/hf.out')\" -eq 2 ]"
badmin hhist -f "$T/nonesuch" >"$T/hf2.out" 2>&1
check "-f of a missing directory fails" sh -c "[ $? -ne 0 ] && grep -q nonesuch '$T/hf2.out'"
badmin mbdhist vh1 >/dev/null 2>&1
check "mbdhist takes no names" [ $? -ne 0 ]

# A user who cannot read the journal: the same lines, through mbatchd.
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	u1=bskh$$
	add_test_user "$u1" "$T/home" || exit 1
	mkdir -p "$T/home" && chmod 777 "$T/home"
	check "the journal is closed to the user" sh -c "! runuser -u $u1 -- ls '$(journal_dir)' >/dev/null 2>&1"
	(cd "$T/home" && runuser -u "$u1" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" badmin qhist) >"$T/qu.out" 2>&1
	check "qhist through mbatchd shows the same lines" cmp "$T/q.out" "$T/qu.out"
fi
done_testing
