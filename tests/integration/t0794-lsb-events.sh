#!/bin/sh
# lsb.events, written when lsf.conf sets LSB_WRITE_LSB_EVENTS=Y: JOB_NEW,
# JOB_START and JOB_STATUS lines in LSF 10.1's text format, split into
# fields as gawk's FPAT "([^ ]+)|(\"[^\"]+\")" splits them (Snakemake's
# LSF executor plugin, snakemake_executor_plugin_lsf/__init__.py,
# job_stati_lsbevents(): JOB_STATUS $4 is the job id, $5 its LSF status
# code).  A crash and restart repeats no line and loses none.
. "$top_srcdir/tests/lib.sh"

LSB_API_CONNTIMEOUT=20
export LSB_API_CONNTIMEOUT

make_cluster vh1
echo "LSB_WRITE_LSB_EVENTS=Y" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1
EV="$T/work/basalt/logdir/lsb.events"

cat >"$T/events.py" <<'PY'
import re, sys
# gawk FPAT takes the longest match at each place: a quoted string with
# spaces is one field, an empty "" is a field.
field = re.compile(r'"[^"]+"|[^ ]+')
recs = [field.findall(l.rstrip('\n')) for l in open(sys.argv[1]) if l.strip()]
uid, a, b = sys.argv[2], sys.argv[3], sys.argv[4]
def of(kind, jid):
    return [r for r in recs if r[0] == '"%s"' % kind and r[3] == jid]
for jid in (a, b):
    new = of('JOB_NEW', jid)
    assert len(new) == 1, ('JOB_NEW', jid, new)
    n = new[0]
    assert n[1] == '"10.1"' and n[4] == uid, n
    # lsb.events(5): rLimits are $16-$26, queue $30, jobFile $42,
    # numAskedHosts $43, then dependCond, timeEvent, jobName.
    assert n[29] == '"normal"', n
    assert n[42] == '0' and n[45] == '"evt%s"' % ('A' if jid == a else 'B'), n
    assert len(of('JOB_START', jid)) == 1, ('JOB_START', jid)
    st = of('JOB_START', jid)[0]
    assert st[4] == '4' and st[8] == '1' and st[9] == '"vh1"', st
# The plugin's reading: the last status of each job.
last = {}
for r in recs:
    if r[0] == '"JOB_STATUS"' and r[4] != '192':
        last[r[3]] = r[4]
assert last[a] == '64' and last[b] == '32', last
# Each change once: B went RUN -> EXIT, A RUN -> DONE.
for jid in (a, b):
    sts = [r[4] for r in of('JOB_STATUS', jid)]
    assert len(sts) == 1, (jid, sts)
print('ok')
PY

a=$(bsub -J evtA -o /dev/null "true" | job_id_of)
b=$(bsub -J evtB -o /dev/null "exit 1" | job_id_of)
check "A is done" wait_for 20 state_is "$a" DONE
check "B exits" wait_for 20 state_is "$b" EXIT
has_statuses() { [ "$(grep -c '^"JOB_STATUS"' "$EV" 2>/dev/null)" -ge 2 ]; }
check "lsb.events has both jobs' ends" wait_for 10 has_statuses
check "the records read as LSF's" python3 "$T/events.py" "$EV" "$(id -u)" "$a" "$b"
check "lsb.acct is still written beside it" \
	grep -q '^"JOB_FINISH"' "$T/work/basalt/logdir/lsb.acct"
cp "$EV" "$T/events.before"
kill9_mbd
start_mbd || exit 1
same() { cmp -s "$EV" "$T/events.before"; }
check "after a crash and restart the file is unchanged" same
check "and still reads the same" python3 "$T/events.py" "$EV" "$(id -u)" "$a" "$b"
done_testing
