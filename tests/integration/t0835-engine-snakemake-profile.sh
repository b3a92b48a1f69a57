#!/bin/sh
# The Snakemake LSF profile, replayed: lsf_submit.py's bsub line
# (`bsub -M {mem}MB -n T -R 'select[mem>{mem}MB] rusage[mem={mem}MB]
# span[hosts=1]' -o "OUT" -e "ERR" -J "rule.wildcards" -q Q CLUSTER_ARGS
# JOBSCRIPT`, the
# jobscript itself as the command), the id by re.search(r"Job <(\d+)> is
# submitted"), lsf_status.py's `bjobs -o 'stat' -noheader ID` (output
# stripped, mapped by its STATUS_TABLE; UNKWN is running with
# UNKWN_behaviour=wait, and with kill it runs `bkill -r ID`), its fallback that reads the tail of the -o log, where the
# line two above "Resource usage summary:" is "Successfully completed." or
# starts "Exited with exit code", and lsf_cancel.py's `bkill ID ...`.
# Follows Snakemake-Profiles/lsf {{cookiecutter.profile_name}}/:
#   lsf_submit.py at commit 137ca484eff5b75160c375da8da31f81416e0c13,
#   lsf_status.py at commit 1187dbb1296a2a494cb735af800767342bf16687,
#   lsf_cancel.py at commit b74cabfee02f1019312915017c5fd86d9c4956b8,
#   OSLayer.py (run_process strips stdout) at commit
#   16b13c645a43eee60c5531eec952f96ba6018601.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
start_mbd || exit 1
start_sbd vh1 || exit 1
start_sbd vh2 || exit 1
WD="$T/workflow"
mkdir -p "$WD/.snakemake/tmp"
RAND=$(python3 -c 'import uuid; print(uuid.uuid4())')

# jobscript NAME RULE JOBID THREADS MEM_MB WILDCARDS_JSON BODY: a jobscript
# as Snakemake writes it (executable, its properties on a comment line that
# read_job_properties parses).
jobscript() {
	js="$WD/.snakemake/tmp/$1"
	cat >"$js" <<JS
#!/bin/sh
# properties = {"type": "single", "rule": "$2", "jobid": $3, "threads": $4, "resources": {"mem_mb": $5}, "wildcards": $6, "cluster": {"queue": "normal"}}
cd $WD && $7
JS
	chmod +x "$js"
	echo "$js"
}

# submit [CLUSTER_ARGS...] JOBSCRIPT: lsf_submit.py's submit(), the
# arguments before the jobscript its cluster_cmds; prints what it hands the
# status script ("ID OUTLOG").
submit() {
	(cd "$WD" && python3 - "$@" <<'PY'
import json, re, subprocess, sys, uuid
from pathlib import Path
js = sys.argv[-1]
cluster_cmd = " ".join(sys.argv[1:-1])
props = {}
for line in open(js):
    if line.startswith("# properties = "):
        props = json.loads(line[len("# properties = "):])
res, cl = props.get("resources", {}), props.get("cluster", {})
mem, threads, units = res.get("mem_mb", 1024), props.get("threads", 1), "MB"
wc = ".".join("{}={}".format(k, v) for k, v in props.get("wildcards", {}).items()) or "unique"
rule, jobid = props["rule"], int(props["jobid"])
logdir = Path(cl.get("logdir", "logs/cluster")) / rule / wc
logdir.mkdir(parents=True, exist_ok=True)
rnd = str(uuid.uuid4())
out = logdir / "jobid{}_{}.out".format(jobid, rnd)
err = logdir / "jobid{}_{}.err".format(jobid, rnd)
params = [
    "bsub",
    "-M {m}{u} -n {t} -R 'select[mem>{m}{u}] rusage[mem={m}{u}] span[hosts=1]'".format(
        m=mem, u=units, t=threads),
    '-o "{}" -e "{}" -J "{}"'.format(out, err, cl.get("jobname", "{}.{}".format(rule, wc))),
    "-q {}".format(cl["queue"]) if cl.get("queue") else "",
    cluster_cmd,
    "",
    js,
]
cmd = " ".join(p for p in params if p)
p = subprocess.run(cmd, check=True, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
m = re.search(r"Job <(\d+)> is submitted", p.stdout.decode().strip())
print("{} {}".format(m.group(1), Path.cwd() / out))
PY
	)
}

# status ID OUTLOG [KILL_UNKNOWN]: lsf_status.py's get_status() with one
# bjobs try, as its __main__ runs it; "kill" for UNKWN_behaviour=kill.
status() {
	python3 - "$1" "$2" "${3:-wait}" <<'PY'
import subprocess, sys
jobid, outlog, unk = sys.argv[1], sys.argv[2], sys.argv[3]
TABLE = {"PEND": "running", "RUN": "running", "DONE": "success", "PSUSP": "running",
         "USUSP": "running", "SSUSP": "running", "WAIT": "running", "EXIT": "failed",
         "POST_DONE": "success", "POST_ERR": "failed", "ZOMBI": "failed"}
def run(cmd):
    p = subprocess.run(cmd, check=True, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.stdout.decode().strip(), p.stderr.decode().strip()
status = None
try:
    out, _ = run("bjobs -o 'stat' -noheader {}".format(jobid))
    if not out.strip():
        raise ValueError("bjobs error: stdout is empty")
    if out == "UNKWN" and unk == "kill":
        run("bkill -r {}".format(jobid))
        status = "failed"
    elif out == "UNKWN":
        status = "running"
    else:
        status = TABLE[out]
except (ValueError, KeyError, subprocess.CalledProcessError) as e:
    print("bjobs failed: {}".format(e), file=sys.stderr)
if status is None:
    try:
        tail = subprocess.run(["tail", "-n", "30", outlog], stdout=subprocess.PIPE).stdout
        lines = [l.strip() for l in tail.decode().splitlines()]
        line = lines[lines.index("Resource usage summary:") - 2]
        if line == "Successfully completed.":
            status = "success"
        elif line.startswith("Exited with exit code"):
            status = "failed"
        else:
            raise SystemExit("UnknownStatusLine: " + line)
    except (FileNotFoundError, ValueError):
        status = "running"
print(status)
PY
}
# status_is ID OUTLOG WANT [UNKWN_BEHAVIOUR]
status_is() { [ "$(status "$1" "$2" "${4:-wait}" 2>>"$T/status.err")" = "$3" ]; }

# lsf_cancel.py: the arguments split by shlex, only all-digit ones kept.
cancel() {
	python3 - "$@" <<'PY'
import re, shlex, subprocess, sys
ids = [a for a in map(str.strip, shlex.split(" ".join(sys.argv[1:]))) if re.fullmatch(r"\d+", a)]
if any(ids):
    subprocess.run("bkill " + " ".join(ids), shell=True)
PY
}

A=$(jobscript snakejob.a.1.sh a 1 1 100 '{}' 'echo rule a > out_a.txt')
B=$(jobscript snakejob.b.2.sh b 2 2 200 '{"sample": "x1"}' 'exit 3')
C=$(jobscript snakejob.c.3.sh c 3 1 100 '{}' "while [ ! -e $T/never ]; do sleep 0.2; done")

set -- $(submit -m vh1 "$A"); a=$1; alog=$2
check "bsub -M 100MB -R 'select[mem>100MB] rusage[mem=100MB] span[hosts=1]' is accepted" [ -n "$a" ]
set -- $(submit -m vh1 "$B"); b=$1; blog=$2
check "rule b with -n 2 and wildcards is accepted" [ -n "$b" ]
set -- $(submit -m vh1 "$C"); c=$1; clog=$2
check "rule c is accepted" [ -n "$c" ]

check "rule a is success to lsf_status.py" wait_for 30 status_is "$a" "$alog" success
check "... the jobscript ran as the command" [ "$(cat "$WD/out_a.txt" 2>/dev/null)" = "rule a" ]
check "... its -o log is where the profile put it" \
	test -e "$WD/logs/cluster/a/unique/$(basename "$alog")"
check "rule b is failed to lsf_status.py" wait_for 30 status_is "$b" "$blog" failed
check "... its -J is rule.wildcards" \
	sh -c "bjobs -noheader -o 'job_name' -w $b | grep -qxF 'b.sample=x1'"
check "... -n 2 with span[hosts=1]: two slots on vh1" \
	sh -c "bjobs -noheader -o 'exec_host' $b | grep -q '^2\*vh1'"
check "... -M 200MB is a 200 MB limit" \
	sh -c "bjobs -noheader -o 'memlimit' $b | grep -q '200'"
check "rule c is running to lsf_status.py" wait_for 30 state_is "$c" RUN
check "... which says running" status_is "$c" "$clog" running

# The fallback: a status bjobs cannot give (an id it does not know) is
# read from the -o log's completion summary.
check "fallback: a's log says success" status_is 999999 "$alog" success
check "fallback: b's log says failed" status_is 999999 "$blog" failed
check "fallback: no log yet means running" status_is 999999 "$WD/no/such.out" running

# lsf_cancel.py, with a quoted id and a stray non-id argument.
cancel "'$c'" "--extra" >"$T/cancel.out" 2>&1
check "lsf_cancel.py's bkill stops rule c" wait_for 20 state_is "$c" EXIT
check "... and lsf_status.py says failed" status_is "$c" "$clog" failed

# UNKWN: rule d runs on vh2, whose sbatchd then dies.  With
# UNKWN_behaviour=wait the profile keeps waiting; with kill it runs
# `bkill -r ID` and reports failed, and the job leaves the running states.
D=$(jobscript snakejob.d.4.sh d 4 1 100 '{}' "while [ ! -e $T/never ]; do sleep 0.2; done")
set -- $(submit -m vh2 "$D"); d=$1; dlog=$2
check "rule d (cluster args -m vh2) runs" wait_for 30 state_is "$d" RUN
kill -KILL "$(sbd_pid vh2)"
check "rule d is UNKWN once vh2's sbatchd is gone" wait_for 60 state_is "$d" UNKWN
check "UNKWN_behaviour=wait: running" status_is "$d" "$dlog" running
check "UNKWN_behaviour=kill: failed" status_is "$d" "$dlog" failed kill
check "... after its bkill -r the job is EXIT" wait_for 20 state_is "$d" EXIT
done_testing
