#!/bin/sh
# A one-host cluster without MUNGE: bsub -I listens on a Unix socket in a
# private 0700 directory, the relay reaches it there, another user cannot,
# and the directory is gone when bsub ends.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
BS_MUNGE=0 make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/tmp"
chmod 1777 "$T/tmp"
export TMPDIR="$T/tmp"

check "bsub -I works over the local socket" \
	sh -c "echo in | bsub -I 'cat; exit 6' 2>/dev/null | grep -qx in; [ \$? -eq 0 ]"
sh -c "echo in | bsub -I 'cat; exit 6' >/dev/null 2>&1"
check "and passes the exit status" test $? -eq 6

bsub -I -H 'echo local-session' >"$T/out" 2>"$T/err" &
bpid=$!
track "$bpid"
wait_for 60 grep -q 'is submitted' "$T/out"
id=$(job_id_of <"$T/out")
dir=$(ls -d "$T/tmp"/bsub-I.* 2>/dev/null | head -n 1)
check "the socket lives in a private directory" \
	sh -c "[ -n '$dir' ] && [ \"\$(stat -c %a '$dir')\" = 700 ]"
# The system python3: a per-user one (pyenv) is not runnable by nobody.
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && [ -x /usr/bin/python3 ]; then
	check "another user cannot reach the socket" \
		sh -c "setpriv --reuid=nobody --regid=nogroup --clear-groups \
		/usr/bin/python3 '$top_srcdir/tests/tools/bs-iafake.py' 'unix:$dir/socket' '$id' - 00 |
		grep -q '^unreachable'"
fi
check "the wrong nonce is refused" sh -c "python3 '$top_srcdir/tests/tools/bs-iafake.py' \
	'unix:$dir/socket' '$id' - 0123 | grep -qx refused"
bresume "$id" >/dev/null
wait "$bpid"
check "the real session then runs" grep -qx local-session "$T/out"
check "the directory is removed when bsub ends" test ! -e "$dir"
done_testing
