#!/bin/sh
# lsb.acct: mbatchd writes one JOB_FINISH record per finished run in LSF
# 10.1's text format, in LSB_SHAREDIR/<cluster>/logdir.  The records are
# read by field position, as Open XDMoD's LSF shredder reads them
# (classes/OpenXdmod/Shredder/Lsf.php: str_getcsv on ' ' with '"' quotes,
# the numAskedHosts/numExHosts counts expanding into host lists), and the
# job id, user, queue, times and exit status checked.  A crash and
# restart neither loses nor repeats a record, even when the crash came
# after a record was written and before its mark.
. "$top_srcdir/tests/lib.sh"

LSB_API_CONNTIMEOUT=20
export LSB_API_CONNTIMEOUT

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
ACCT="$T/work/basalt/logdir/lsb.acct"
MARK="$T/work/basalt/logdir/.lsb.acct.mark"

records() { grep -c '^"JOB_FINISH" "10.1" ' "$ACCT" 2>/dev/null || echo 0; }
has_records() { [ "$(records)" -eq "$1" ]; }

# The shredder's reading of a record, field by field, checked against
# what the job was; the leading fields are the ones XDMoD stores.
cat >"$T/shred.py" <<'PY'
import csv, sys
names = ['event_type', 'version_number', 'event_time', 'job_id', 'user_id',
    'options', 'num_processors', 'submit_time', 'begin_time', 'term_time',
    'start_time', 'user_name', 'queue', 'res_req', 'depend_cond',
    'pre_exec_cmd', 'from_host', 'cwd', 'in_file', 'out_file', 'err_file',
    'job_file', 'num_asked_hosts', 'asked_hosts', 'num_ex_hosts',
    'exec_hosts', 'j_status', 'host_factor', 'job_name', 'command',
    'ru_utime', 'ru_stime', 'ru_maxrss', 'ru_ixrss', 'ru_ismrss', 'ru_idrss',
    'ru_isrss', 'ru_minflt', 'ru_majflt', 'ru_nswap', 'ru_inblock',
    'ru_oublock', 'ru_ioch', 'ru_msgsnd', 'ru_msgrcv', 'ru_nsignals',
    'ru_nvcsw', 'ru_nivcsw', 'ru_exutime', 'mail_user', 'project_name',
    'exit_status', 'max_num_processors', 'login_shell', 'time_event', 'idx',
    'max_rmem', 'max_rswap', 'in_file_spool', 'command_spool', 'rsv_id',
    'sla', 'except_mask', 'additional_info', 'exit_info']
def shred(line):
    f = next(csv.reader([line], delimiter=' ', quotechar='"'))
    job, i, k = {}, 0, 0
    while k < len(names):
        n = names[k]
        job[n] = f[i]
        if n in ('num_asked_hosts', 'num_ex_hosts'):
            cnt = int(f[i])
            job[names[k + 1]] = f[i + 1:i + 1 + cnt]
            i += cnt
            k += 1
        i += 1
        k += 1
    job['rest'] = f[i:]
    return job
jobs = {}
for line in open(sys.argv[1]):
    if line.startswith('"JOB_FINISH"'):
        j = shred(line.rstrip('\n'))
        jobs.setdefault(j['job_id'], []).append(j)
want = {}
for w in sys.argv[2:]:
    jid, user, queue, jstat, wstatus, project, name = w.split(':')
    want[jid] = (user, queue, jstat, wstatus, project, name)
assert sorted(jobs) == sorted(want), (sorted(jobs), sorted(want))
for jid, (user, queue, jstat, wstatus, project, name) in want.items():
    assert len(jobs[jid]) == 1, ('record repeated', jid)
    j = jobs[jid][0]
    assert j['version_number'] == '10.1', j
    assert j['user_name'] == user and j['queue'] == queue, j
    assert j['j_status'] == jstat and j['exit_status'] == wstatus, j
    assert j['project_name'] == project and j['job_name'] == name, j
    assert j['exec_hosts'] == ['vh1'] and j['num_processors'] == '1', j
    assert j['idx'] == '0', j
    s, b, e = int(j['submit_time']), int(j['start_time']), int(j['event_time'])
    assert 0 < s <= b <= e, j
    # lsb.acct(5)'s tail, warningAction to numKVP: 45 fields after
    # exitInfo, and one more for the one slot in allocSlots.
    assert len(j['rest']) == 46, (len(j['rest']), j['rest'])
print('ok')
PY

me=$(id -un)
a=$(bsub -J acctA -o /dev/null "exit 3" | job_id_of)
check "job A exits" wait_for 20 state_is "$a" EXIT
check "A's record is in lsb.acct" wait_for 10 has_records 1
check "lsb.acct is private at SECURE_JOB_INFO_LEVEL 5" \
	[ "$(stat -c %a "$ACCT")" = 600 ]
cp "$MARK" "$T/mark.after-a"

b=$(bsub -J acctB -P projb -o /dev/null "true" | job_id_of)
check "job B is done" wait_for 20 state_is "$b" DONE
check "B's record follows" wait_for 10 has_records 2
check "the shredder reads both records" python3 "$T/shred.py" "$ACCT" \
	"$a:$me:normal:32:768:default:acctA" "$b:$me:normal:64:0:projb:acctB"
cp "$ACCT" "$T/acct.two"

# A crash after B's record was written but before its mark: the mark
# still says A.  The restart cuts B's record and writes it again from
# the journal, byte for byte.
kill9_mbd
cp "$T/mark.after-a" "$MARK"
printf '"JOB_FINISH" "10.1" torn' >>"$ACCT"
start_mbd || exit 1
same_file() { cmp -s "$ACCT" "$T/acct.two"; }
check "after the restart lsb.acct is exactly what it was" wait_for 10 same_file
check "mbatchd cut the unmarked tail and wrote it again" \
	grep -rq "lsb.acct: cut" "$T/log"
head -n 1 "$ACCT" | diag "$(cat)"

# A clean restart repeats nothing; the next job's record follows.
stop_mbd
start_mbd || exit 1
c=$(bsub -J acctC -o /dev/null "exit 1" | job_id_of)
check "job C exits" wait_for 20 state_is "$c" EXIT
check "C's record follows" wait_for 10 has_records 3
check "three records, once each" python3 "$T/shred.py" "$ACCT" \
	"$a:$me:normal:32:768:default:acctA" "$b:$me:normal:64:0:projb:acctB" \
	"$c:$me:normal:32:256:default:acctC"

# The mark file holds two checked slots written in turn.  newest_mark
# prints the newest valid slot as "SEQ SIZE" (the format of the mark
# before the slots); damage_newest breaks that slot's check, as a crash
# tearing it would.
cat >"$T/mark.py" <<'PY'
import sys
path, what = sys.argv[1], sys.argv[2]
data = bytearray(open(path, 'rb').read())
def fnv(b):
    h = 2166136261
    for c in b:
        h = ((h ^ c) * 16777619) & 0xffffffff
    return h
best = None
for off in range(0, len(data), 64):
    line = bytes(data[off:off + 64]).split(b'\0')[0].split(b'\n')[0]
    f = line.split(b' ')
    if len(f) == 3 and int(f[2], 16) == fnv(b' '.join(f[:2])):
        if best is None or int(f[0]) > best[0]:
            best = (int(f[0]), int(f[1]), off)
if best is None:
    sys.exit('no valid slot in %s' % path)
if what == 'newest':
    print('%d %d' % best[:2])
elif what == 'damage':
    at = best[2] + 42
    data[at:at + 8] = b'zzzzzzzz'
    open(path, 'wb').write(data)
PY

# An upgrade: a mark left in the one-line format is read as it was, and
# the next record follows without a repeat.
stop_mbd
python3 "$T/mark.py" "$MARK" newest >"$T/mark.legacy" &&
	mv "$T/mark.legacy" "$MARK"
diag "legacy mark: $(cat "$MARK")"
start_mbd || exit 1
d=$(bsub -J acctD -o /dev/null "true" | job_id_of)
check "job D is done" wait_for 20 state_is "$d" DONE
check "after a one-line mark, D's record follows" wait_for 10 has_records 4
check "four records, once each" python3 "$T/shred.py" "$ACCT" \
	"$a:$me:normal:32:768:default:acctA" "$b:$me:normal:64:0:projb:acctB" \
	"$c:$me:normal:32:256:default:acctC" "$d:$me:normal:64:0:default:acctD"

# A crash tearing the newest slot: its check fails, the older slot is
# believed, and the record after it (D's) is cut and written again; the
# file itself is whole, so only the older slot can explain a cut.
stop_mbd
cp "$ACCT" "$T/acct.four"
python3 "$T/mark.py" "$MARK" damage
cuts=$(grep -rc "lsb.acct: cut" "$T/log" | awk -F: '{ n += $NF } END { print n + 0 }')
start_mbd || exit 1
same_four() { cmp -s "$ACCT" "$T/acct.four"; }
check "after a torn slot lsb.acct is exactly what it was" wait_for 10 same_four
more_cuts() {
	[ "$(grep -rc "lsb.acct: cut" "$T/log" |
		awk -F: '{ n += $NF } END { print n + 0 }')" -gt "$cuts" ]
}
check "the older slot was believed: the tail after it was cut" more_cuts
done_testing
