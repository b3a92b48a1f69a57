#!/bin/sh
# The other direction of the interactive link: the job's relay talks only
# to its owner's bsub.  A listener that answers with another user's
# credential gets none of the job's output, and the job is hung up; a
# submission whose bsub address is not an address is refused on the host
# with a reason.  (bs-rawsubmit sends the interactive fields bsub would.)
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to act as another user"
make_cluster vh1
[ -f "$T/conf/hosts" ] || skip_all "MUNGE is not available"
start_mbd || exit 1
start_sbd vh1 || exit 1
RAW="$top_builddir/tests/helpers/bs-rawsubmit"
nonce=00112233445566778899aabbccddeeff

setpriv --reuid=nobody --regid=nogroup --clear-groups \
	munge -S "$T/munge/main.sock" -s "basalt-interactive-reply nonce=$nonce" >"$T/cred.nobody"
python3 "$top_srcdir/tests/tools/bs-iafake.py" --listen "$T/port" "$T/cred.nobody" "$T/got" &
fake=$!
track "$fake"
wait_for 10 test -s "$T/port"
id=$(BS_RAW_IA_MODE=1 BS_RAW_IA_ADDRESS="tcp:127.0.0.1:$(cat "$T/port")" \
	BS_RAW_IA_NONCE=$nonce "$RAW" impostor 'echo secret-output; sleep 60' | job_id_of)
check "the job ends without its owner's bsub" wait_for 30 state_is "$id" EXIT
wait "$fake"
check "the impostor got none of its output" sh -c "! grep -q secret-output '$T/got'"

id=$(BS_RAW_IA_MODE=1 BS_RAW_IA_ADDRESS="$(printf 'tcp:127.0.0.1:1\ncred=x')" \
	BS_RAW_IA_NONCE=$nonce "$RAW" badaddr 'true' | job_id_of)
check "a bsub address with a newline is refused on the host" wait_for 15 state_is "$id" EXIT
check "and bjobs -l says why" says bjobs "$id" 'no valid bsub address'
done_testing
