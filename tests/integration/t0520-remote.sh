#!/bin/sh
# Commands from another host (issue 13, item 5).  A second munged with
# origin 127.0.0.2 and the cluster's key stands for a login node that runs
# no daemon: its lsf.conf names the master in LSF_SERVER_HOSTS and its
# LSB_SHAREDIR holds no socket.  There the user nobody submits and queries
# over TCP; the job runs as nobody and, inside it, bjobs works too.  A
# hello that claims root with nobody's credential still submits as nobody;
# a hello without a credential, or with a forged one, is refused with the
# reason and leaves no job behind.
. "$top_srcdir/tests/lib.sh"

FAKE=$top_builddir/tests/tools/bs-fakepeer
[ -x "$FAKE" ] || skip_all "tests/tools/bs-fakepeer is not built"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to act as the user nobody"
command -v setpriv >/dev/null || skip_all "setpriv is not installed"
command -v munged >/dev/null || skip_all "munged is not installed"

make_cluster vh1
grep -q '^LSF_AUTH=munge' "$LSF_ENVDIR/lsf.conf" || { diag "no munged"; exit 1; }
start_mbd || exit 1
start_sbd vh1 || exit 1
start_munged remote 127.0.0.2 || exit 1
port=$(cat "$T/work/mbatchd.port")

# The login node's configuration: lsf.conf only, no socket, its own munged.
R=$T/remote
mkdir -p "$R/conf" "$R/work" "$R/home"
chown nobody "$R/home"
grep -v '^LSB_SHAREDIR=\|^LSF_MUNGE_SOCKET=\|^LSB_MBD_PORT=' "$LSF_ENVDIR/lsf.conf" >"$R/conf/lsf.conf"
cat >>"$R/conf/lsf.conf" <<CONF
LSB_SHAREDIR=$R/work
LSF_MUNGE_SOCKET=$T/munge/remote.sock
LSB_MBD_PORT=$port
LSF_SERVER_HOSTS=127.0.0.1
CONF
remote() {
	(cd "$R/home" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env -i PATH="$PATH" LSF_ENVDIR="$R/conf" HOME="$R/home" "$@")
}
nobody_uid=$(id -u nobody)
njobs() { bjobs -u all -a -noheader 2>/dev/null | wc -l; }

id=$(remote bsub -o "$R/home/out" 'id -u; bjobs -noheader -o user $LSB_JOBID' | job_id_of)
check "nobody submits from the login node" test -n "$id"
check "over TCP with a credential from 127.0.0.2's munged" \
	grep -q "tcp 127.0.0.1:[0-9]*): hello from ROLE_CLIENT \"nobody\"" "$T/log/mbatchd.out"
check "the job runs and ends" wait_for 15 state_is "$id" DONE
check "as nobody" sh -c "head -n 1 '$R/home/out' | grep -qx $nobody_uid"
check "bjobs inside the job reached the master" sh -c "sed -n 2p '$R/home/out' | grep -qx nobody"
remote bjobs -a -noheader -o "user stat" "$id" >"$T/rq.out" 2>&1
check "bjobs from the login node shows nobody's DONE job" grep -q "^nobody *DONE" "$T/rq.out"
remote bhist -l "$id" >"$T/rh.out" 2>&1
check "bhist -l from the login node shows nobody's job and command" \
	grep -q "Command <id -u;" "$T/rh.out"

# An execution host sharing LSB_SHAREDIR sees a socket file that no one
# there accepts on: with MUNGE the commands go over TCP instead.
# (A file no one accepts on stands for it: connect() is refused alike.)
mkdir -p "$R/shared" "$R/conf3"
: >"$R/shared/mbatchd.sock"
sed "s|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$R/shared|; /^LSF_SERVER_HOSTS=/d" \
	"$R/conf/lsf.conf" >"$R/conf3/lsf.conf"
remote env LSF_ENVDIR="$R/conf3" bjobs -a -noheader -o user "$id" >"$T/shared.out" 2>&1
check "a dead socket file of a shared LSB_SHAREDIR does not stop bjobs" \
	grep -qx nobody "$T/shared.out"

before=$(njobs)
"$FAKE" client "127.0.0.1:$port" --cred none --submit true >"$T/none.out" 2>&1
check "a client without a credential is refused" test $? -eq 2
check "and told why" grep -q "no MUNGE credential" "$T/none.out"
"$FAKE" client "127.0.0.1:$port" --cred garbage --submit true >"$T/garbage.out" 2>&1
check "a forged credential is refused" test $? -eq 2
check "and told why" grep -q "MUNGE credential refused" "$T/garbage.out"
check "no job was made of either" test "$(njobs)" -eq "$before"

mkdir -p "$R/conf2"
grep -v '^LSF_AUTH=' "$R/conf/lsf.conf" >"$R/conf2/lsf.conf"
LSF_ENVDIR=$R/conf2 bsub -o /dev/null true >"$T/nomunge.out" 2>&1
check "without MUNGE a login node's command says why it cannot reach the master" \
	grep -q "LSF_SERVER_HOSTS is set in lsf.conf but LSF_AUTH=munge is not" "$T/nomunge.out"
check "and no job was made" test "$(njobs)" -eq "$before"

remote "$FAKE" client "127.0.0.1:$port" --cred "munge:$T/munge/remote.sock" \
	--hello-name root --env USER=root --env LOGNAME=root --cwd "$R/home" \
	--submit "id -u >$R/home/forged" >"$T/forged.out" 2>&1
fid=$(job_id_of <"$T/forged.out")
check "a hello claiming root with nobody's credential is accepted" test -n "$fid"
check "but the job is nobody's" sh -c "bjobs -a -noheader -o user $fid | grep -qx nobody"
check "and runs as nobody" wait_for 15 sh -c "grep -qx $nobody_uid '$R/home/forged'"
done_testing
