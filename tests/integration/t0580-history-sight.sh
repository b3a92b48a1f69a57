#!/bin/sh
# bhist and bacct follow SECURE_JOB_INFO_LEVEL as bjobs does.  The journal
# holds every job's command and environment, so it is private to root
# (directory 0700, files 0600, an older 0755 one tightened at start); a
# user who cannot read it gets the history from mbatchd, which blanks the
# command, environment and paths of other users' jobs.  Root (an
# administrator) reads the journal directly and sees everything.
. "$top_srcdir/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root to run commands as nobody"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
command -v runuser >/dev/null || skip_all "runuser is not installed"

make_cluster vh1
# An older mbatchd left a world-readable journal: it must be tightened.
mkdir -p "$(journal_dir)" && chmod 0755 "$(journal_dir)"
start_mbd || exit 1
as_nobody() { runuser -u nobody -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" "$@"; }
mkdir -p "$T/pub" && chmod 777 "$T/pub"
cd "$T/pub" || exit 1

id=$(env BS_TEST_SECRET=env-secret-4711 bsub -H -o "$T/pub/out-secret" \
    'echo cmd-secret-4711' | job_id_of)
check "root's job is held" wait_for 10 state_is "$id" PSUSP
bkill "$id" >/dev/null 2>&1
check "root's job is finished" wait_for 10 state_is "$id" EXIT
mine=$(as_nobody bsub -H 'echo nobody-visible-cmd' | job_id_of)
check "nobody's job is held" wait_for 10 state_is "$mine" PSUSP

check "the journal directory is 0700" sh -c "[ \$(stat -c %a '$(journal_dir)') = 700 ]"
check "no journal file is readable by others" sh -c \
    "[ -z \"\$(find '$(journal_dir)' -type f -perm /077)\" ]"
check "nobody cannot list the journal" sh -c \
    "! runuser -u nobody -- ls '$(journal_dir)' >/dev/null 2>&1"
check "nobody cannot read a segment" sh -c \
    "! runuser -u nobody -- cat '$(journal_newest_segment)' >/dev/null 2>&1"

as_nobody bhist -l "$id" >"$T/n.bhist" 2>&1
as_nobody bacct -l "$id" >"$T/n.bacct" 2>&1
as_nobody bhist -a -u all >"$T/n.all" 2>&1
diag "$(cat "$T/n.bhist")"
check "nobody's bhist -l lists root's job" grep -q "Job <$id>" "$T/n.bhist"
check "without its command" sh -c "! grep -q cmd-secret-4711 '$T/n.bhist' '$T/n.all'"
check "nor its environment" sh -c "! grep -q env-secret-4711 '$T/n.bhist' '$T/n.all'"
check "nor its output path" sh -c "! grep -q out-secret '$T/n.bhist' '$T/n.all'"
check "nobody's bacct -l lists root's job" grep -q "Job <$id>" "$T/n.bacct"
check "bacct -l shows no secret" sh -c "! grep -qE 'cmd-secret|env-secret|out-secret' '$T/n.bacct'"
check "nobody's own job shows its command through mbatchd" sh -c \
    "runuser -u nobody -- env PATH=\"\$PATH\" LSF_ENVDIR=\"\$LSF_ENVDIR\" bhist -l $mine | grep -q nobody-visible-cmd"

bhist -l "$id" >"$T/r.bhist" 2>&1
bacct -l "$id" >"$T/r.bacct" 2>&1
check "root's bhist -l shows the command" grep -q cmd-secret-4711 "$T/r.bhist"
check "root's bacct -l shows the command" grep -q cmd-secret-4711 "$T/r.bacct"
check "root sees nobody's command" sh -c "bhist -l $mine | grep -q nobody-visible-cmd"

# The same job's history through mbatchd (nobody, its owner) and read
# directly from the journal (root) is the same text.
as_nobody bhist -l "$mine" >"$T/mine.remote" 2>&1
bhist -l "$mine" >"$T/mine.direct" 2>&1
check "bhist -l through mbatchd equals bhist -l from the journal" \
    cmp -s "$T/mine.remote" "$T/mine.direct"

# A cursor mbatchd never wrote is refused with a reason; one it did is
# served.
ABUSER=$top_builddir/tests/integration/rpc-abuser
"$ABUSER" history "$T/work/mbatchd.sock" 18446744073709551615 >"$T/cur.bad" 2>&1
check "a cursor past the newest record is refused" \
    grep -q "^error: history: cursor .* is past the newest record" "$T/cur.bad"
"$ABUSER" history "$T/work/mbatchd.sock" 1 >"$T/cur.ok" 2>&1
check "a cursor inside the journal is served to the end" \
    grep -q "^records [1-9][0-9]* next [0-9]* end 1" "$T/cur.ok"
# Not in any record nobody is sent, though bhist does not print the
# environment: the secret never leaves mbatchd.
runuser -u nobody -- "$ABUSER" history "$T/work/mbatchd.sock" 0 >"$T/raw.nobody" 2>&1
"$ABUSER" history "$T/work/mbatchd.sock" 0 >"$T/raw.root" 2>&1
check "nobody's raw records hold neither the command nor the environment" \
    sh -c "grep -q '^records' '$T/raw.nobody' && ! grep -aqE 'cmd-secret|env-secret' '$T/raw.nobody'"
check "root's raw records hold both" \
    sh -c "grep -aq cmd-secret-4711 '$T/raw.root' && grep -aq env-secret-4711 '$T/raw.root'"

# An older journal, 0644 files in a 0755 directory, is made private when
# mbatchd starts.
stop_mbd
chmod 0755 "$(journal_dir)"
chmod 0644 "$(journal_newest_segment)"
start_mbd || exit 1
check "a restart makes the journal directory private again" \
    sh -c "[ \$(stat -c %a '$(journal_dir)') = 700 ]"
check "and its files" sh -c "[ \$(stat -c %a '$(journal_newest_segment)') = 600 ]"
check "and says so in the log" grep -q "made .* private to root" "$T/log/mbatchd.out"
done_testing
