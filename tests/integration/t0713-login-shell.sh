#!/bin/sh
# bsub -L with real daemons: the job runs under the named shell started
# as a login shell ($0 "-bash"), which read the user's login files
# (here a .bash_profile in the HOME the job is submitted with) before the
# command ran; without -L it does not.  A relative path is refused.
. "$top_srcdir/tests/lib.sh"

command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1

mkdir -p "$T/home"
echo 'export BS_LOGIN_MARK=profile-read' >"$T/home/.bash_profile"
chmod -R a+rX "$T/home"

check "a relative login shell is refused" sh -c \
    "! bsub -L bash -o /dev/null true >$T/refused 2>&1"
check "saying it must be an absolute path" grep -q "absolute path" "$T/refused"

a=$(HOME="$T/home" bsub -L /bin/bash -o "$T/a.out" \
    'echo "arg0=$0 mark=${BS_LOGIN_MARK:-none}"; shopt -q login_shell && echo login' |
    job_id_of)
check "the job runs to the end" wait_for 20 state_is "$a" DONE
check "under the login shell as a login shell" grep -q '^arg0=-bash ' "$T/a.out"
check "which read the login files" grep -q 'mark=profile-read' "$T/a.out"
check "bash says it is a login shell" grep -qx login "$T/a.out"
bjobs -l "$a" >"$T/a.long" 2>&1
check "bjobs -l shows the login shell" sh -c \
    "tr -d '\n ' <$T/a.long | grep -qF 'LoginShell</bin/bash>' ||
    { cat $T/a.long; false; }"

b=$(HOME="$T/home" bsub -o "$T/b.out" 'echo "mark=${BS_LOGIN_MARK:-none}"' | job_id_of)
check "without -L" wait_for 20 state_is "$b" DONE
check "no login files are read" grep -q 'mark=none' "$T/b.out"
done_testing
