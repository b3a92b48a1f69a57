#!/bin/sh
# Snakemake's LSF executor plugin, replayed: its cluster discovery
# (`badmin showconf mbd` split on " = ", the cluster name from the second
# line of `lsclusters`, DEFAULT_QUEUE from that cluster's lsb.params, the
# project guessed from `bhist -l -a | grep Project`), the bsub line of
# run_job() (-J with the run's uuid, -o/-e, -env all, -q, -W, -n,
# -R rusage[mem=F.0], -R span[hosts=1], -cwd, the job in double quotes),
# the id by re.search(r"Job <(\d+)>"), the status from
# `bjobs -noheader -o 'jobid stat' -aJ '*UUID*'`, the fallback scan of
# lsb.events (job_stati_lsbevents: JOB_STATUS $4/$5 the id and state
# code, fields as gawk's FPAT splits them) and `bkill ID` for cancel_jobs().
# Follows BEFH/snakemake-executor-plugin-lsf
#   snakemake_executor_plugin_lsf/__init__.py at commit
#   02fb499453a63bb26bbaab781d65c1ccea9e9d9f.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
echo "LSB_WRITE_LSB_EVENTS=Y" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1
WD="$T/workflow"
mkdir -p "$WD"
UUID=$(python3 -c 'import uuid; print(uuid.uuid4())')

# get_lsf_config(), printed as KEY=VALUE lines.
lsfconfig() {
	python3 - <<'PY'
import subprocess
raw = subprocess.run("badmin showconf mbd", shell=True, capture_output=True, text=True)
lines = raw.stdout.strip().split("\n")
tuples = [tuple(x.strip().split(" = ")) for x in lines]
conf = {x[0]: x[1] for x in tuples[1:]}
clusters = subprocess.run("lsclusters", shell=True, capture_output=True, text=True)
conf["LSF_CLUSTER"] = clusters.stdout.split("\n")[1].split()[0]
conf["LSB_EVENTS"] = f"{conf['LSB_SHAREDIR']}/{conf['LSF_CLUSTER']}/logdir/lsb.events"
params = f"{conf['LSF_CONFDIR']}/lsbatch/{conf['LSF_CLUSTER']}/configdir/lsb.params"
with open(params) as f:
    for line in f:
        if "=" in line and not line.strip().startswith("#"):
            key, value = line.strip().split("=", 1)
            if key.strip() == "DEFAULT_QUEUE":
                conf["DEFAULT_QUEUE"] = value.split("#")[0].strip()
                break
for k in ("LSF_CLUSTER", "LSB_EVENTS", "DEFAULT_QUEUE"):
    print(f"{k}={conf[k]}")
print("LSF_UNIT_FOR_LIMITS=" + conf.get("LSF_UNIT_FOR_LIMITS", "MB"))
PY
}
lsfconfig >"$T/conf.out" 2>"$T/conf.err"
check "get_lsf_config() reads badmin showconf mbd, lsclusters, lsb.params" [ $? -eq 0 ]
check "... the cluster is basalt" grep -qx "LSF_CLUSTER=basalt" "$T/conf.out"
check "... the default queue is normal" grep -qx "DEFAULT_QUEUE=normal" "$T/conf.out"
EVENTS=$(sed -n 's/^LSB_EVENTS=//p' "$T/conf.out")

# get_project(): no job yet, so grep fails and no -P is given.
sh -c "bhist -l -a | grep Project" >/dev/null 2>&1
check "get_project(): no history, no project (grep exits non-zero)" [ $? -ne 0 ]

# run_job RULE WILDCARDS THREADS MEM_MB EXEC: the call as run_job() builds it.
run_job() {
	if [ -n "$2" ]; then
		name="Snakemake_rule_$1:$2___($UUID)"
		wc="$2"
	else
		name="Snakemake_rule_$1___($UUID)"
		wc=unique
	fi
	log="$WD/.snakemake/lsf_logs/rule_$1/$wc/$UUID.log"
	mkdir -p "$(dirname "$log")"
	mem=$(python3 -c "print($4 * 1 / $3)")
	call="bsub -J '$name' -o $log -e $log -env all -q normal -W 10 -n $3"
	call="$call -R rusage[mem=$mem] -R span[hosts=1] -cwd $WD \"$5\""
	sh -c "$call" 2>&1 | python3 -c '
import re, sys
print(re.search(r"Job <(\d+)>", sys.stdin.read().strip())[1])'
}

# job_stati_bjobs(): {jobid: stat}, printed "ID STAT".
stati() {
	sh -c "bjobs -noheader -o 'jobid stat' -aJ '*$UUID*'" 2>/dev/null |
	python3 -c '
import sys
running = sys.stdin.read()
rows = [tuple(x.split()) for x in running.strip().split("\n")] if running else []
for k, v in {x[0]: x[1] for x in rows}.items():
    print(k, v)'
}
stat_is() { stati | grep -qx "$1 $2"; }

a=$(run_job a "" 1 100 "echo rule a > out_a.txt")
check "bsub of rule a is accepted; the id is parsed" [ -n "$a" ]
b=$(run_job b "sample=x1" 2 200 "exit 3")
check "bsub of rule b with wildcards in -J, -n 2, rusage[mem=100.0]" [ -n "$b" ]
c=$(run_job c "" 1 100 "while [ ! -e $T/never ]; do sleep 0.2; done")
check "bsub of rule c is accepted" [ -n "$c" ]

check "rule a is DONE to job_stati_bjobs" wait_for 30 stat_is "$a" DONE
check "... it ran in -cwd" [ "$(cat "$WD/out_a.txt")" = "rule a" ]
check "... its log is written" test -e "$WD/.snakemake/lsf_logs/rule_a/unique/$UUID.log"
check "rule b is EXIT (a failure status)" wait_for 30 stat_is "$b" EXIT
check "rule c is RUN" wait_for 30 stat_is "$c" RUN
check "-J with ':' '=' '(' ')' is kept whole" \
	sh -c "bjobs -noheader -o 'job_name' -w $b | grep -qxF 'Snakemake_rule_b:sample=x1___($UUID)'"
check "another run's uuid matches none of these jobs" \
	sh -c "! bjobs -noheader -o 'jobid stat' -aJ '*00000000-dead*' 2>/dev/null | grep -q '[0-9]'"

# get_project() once jobs exist: the most common Project <...> of bhist -l.
proj=$(sh -c "bhist -l -a | grep Project" | python3 -c '
import re, sys
from collections import Counter
print(Counter(re.findall(r"Project <([^<>]+)>", sys.stdin.read())).most_common(1)[0][0])')
check "get_project() finds the default project in bhist -l -a" [ "$proj" = default ]

# cancel_jobs(): bkill with every active id.
bkill "$c" >"$T/bkill.out" 2>&1
check "bkill ID exits 0" [ $? -eq 0 ]
check "rule c is EXIT" wait_for 20 stat_is "$c" EXIT

# job_stati_lsbevents(), its JOB_STATUS half: the last state code other
# than 192 of each of the run's jobs.  Its JOB_NEW half is not replayed:
# it picks the run's jobs by $42 ~ UUID, but $42 of JOB_NEW in LSF 10.1's
# layout (as lsb.events(5) and t0794 have it) is jobFile; the job name is
# $46, so that test finds no job here.
lsbevents() {
	python3 - "$EVENTS" "$a" "$b" "$c" <<'PY'
import re, sys
field = re.compile(r'"[^"]+"|[^ ]+')
ev, mine = sys.argv[1], set(sys.argv[2:])
codes = {"1": "PEND", "4": "RUN", "32": "EXIT", "64": "DONE"}
out = {}
for line in open(ev):
    f = field.findall(line.rstrip("\n"))
    if len(f) >= 5 and f[3] in mine and f[0] == '"JOB_STATUS"' and f[4] != "192":
        out[f[3]] = codes.get(f[4], f[4])
for k, v in out.items():
    print(k, v)
PY
}
ev_is() { lsbevents | grep -qx "$1 $2"; }
check "lsb.events: rule a DONE" wait_for 10 ev_is "$a" DONE
check "lsb.events: rule b EXIT" ev_is "$b" EXIT
check "lsb.events: rule c EXIT" ev_is "$c" EXIT
done_testing
