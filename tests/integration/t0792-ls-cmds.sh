#!/bin/sh
# The cluster information commands tools and site scripts call:
# lsclusters, lshosts, lsload, lsinfo, badmin showconf mbd and lsadmin
# showconf lim, in LSF's layouts, parsed as their callers parse them;
# lshosts and lsload -R, lsload -I and -n, and -s (no shared resources).
# Snakemake's LSF executor plugin (snakemake-executor-plugin-lsf,
# snakemake_executor_plugin_lsf/__init__.py, get_lsf_config()) runs
# `badmin showconf mbd`, splits each line after the first on " = ", and
# takes the cluster name as the first word of `lsclusters`' second line;
# it then reads LSF_CONFDIR/lsbatch/<cluster>/configdir/lsb.params.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1 vh2
echo "LSF_UNIT_FOR_LIMITS=GB" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1

# ---- badmin showconf mbd, as Snakemake reads it -----------------------------
badmin showconf mbd >"$T/showconf" 2>&1
check "badmin showconf mbd succeeds" [ $? -eq 0 ]
lsclusters >"$T/lsclusters" 2>&1
check "lsclusters succeeds" [ $? -eq 0 ]
check "Snakemake's get_lsf_config() finds what it needs" python3 -c "
import os
out = open('$T/showconf').read()
lines = out.strip().split('\n')
assert lines[0].startswith('MBD configuration at '), lines[0]
conf = dict(tuple(x.strip().split(' = ')) for x in lines[1:])
assert conf['LSF_UNIT_FOR_LIMITS'] == 'GB', conf
assert conf['LSB_SHAREDIR'] == '$T/work', conf
cl = open('$T/lsclusters').read().split('\n')[1].split()[0]
assert cl == 'basalt', cl
p = conf['LSF_CONFDIR'] + '/lsbatch/' + cl + '/configdir/lsb.params'
assert 'DEFAULT_QUEUE' in open(p).read(), p
"
check "lsclusters: LSF's header, master and host counts" python3 -c "
l = open('$T/lsclusters').read().split('\n')
assert l[0].split() == ['CLUSTER_NAME', 'STATUS', 'MASTER_HOST', 'ADMIN', 'HOSTS', 'SERVERS'], l
f = l[1].split()
assert f[0] == 'basalt' and f[1] == 'ok' and f[4] == '2' and f[5] == '2', f
"
lsclusters nosuch >/dev/null 2>&1
check "lsclusters of an unknown cluster exits 255" [ $? -eq 255 ]
check "lsclusters -l names the master" sh -c "lsclusters -l | grep -q '^Master_host: '"

# ---- lsadmin showconf lim ---------------------------------------------------
check "lsadmin showconf lim shows this host's lsf.conf" sh -c \
	"lsadmin showconf lim | sed -n '1p;/LSF_UNIT_FOR_LIMITS = GB/p' | wc -l | grep -qx 2"
lsadmin reconfig >/dev/null 2>&1
check "lsadmin subcommands Basalt has no daemon for exit 255" [ $? -eq 255 ]

# ---- lshosts and lsload ----------------------------------------------------
cat >"$T/cols.py" <<'PY'
import sys
# A table read as scripts read it: header words, then one row per host.
lines = [l for l in open(sys.argv[1]).read().split('\n') if l]
head = lines[0].split()
rows = {l.split()[0]: dict(zip(head, l.split())) for l in lines[1:]}
want_head = sys.argv[2].split()
assert head == want_head, head
for spec in sys.argv[3:]:
    host, key, val = spec.split(':', 2)
    assert rows[host][key] == val, (host, key, rows[host])
PY
lshosts >"$T/lshosts" 2>&1
check "lshosts: LSF's columns, one row per host" python3 "$T/cols.py" "$T/lshosts" \
	"HOST_NAME type model cpuf ncpus maxmem maxswp server RESOURCES" \
	"vh1:server:Yes" "vh2:server:Yes" "vh1:RESOURCES:()"
lsload >"$T/lsload" 2>&1
check "lsload: LSF's columns; vh1 ok, vh2 (no sbatchd) unavail" python3 "$T/cols.py" \
	"$T/lsload" "HOST_NAME status r15s r1m r15m ut pg ls it tmp swp mem" \
	"vh1:status:ok" "vh2:status:unavail"
# Load indices come with sbatchd's heartbeat (every 5 s).
cat >"$T/load.py" <<'PY'
import re, subprocess
out = subprocess.run(['lsload', 'vh1'], capture_output=True, text=True).stdout
row = out.split('\n')[1].split()
assert row[0] == 'vh1' and re.fullmatch(r'\d+%', row[5]), row
for v in row[-3:]:
    assert re.fullmatch(r'\d+(\.\d)?[MG]', v), row
PY
check "lsload: vh1's ut, tmp, swp and mem are what its sbatchd reported" \
	wait_for 15 python3 "$T/load.py"
lshosts vh1 >"$T/lshosts1" 2>&1
check "lshosts HOST shows only it" sh -c "[ \$(wc -l <'$T/lshosts1') -eq 2 ] && grep -q '^vh1 ' '$T/lshosts1'"
lshosts nosuch >/dev/null 2>&1
check "lshosts of an unknown host exits 255" [ $? -eq 255 ]
lsload -w -l >/dev/null 2>&1
check "lsload -w -l is refused" [ $? -eq 255 ]

# -R: the hosts that satisfy it (vh2 has reported no free memory).
rows() { "$@" 2>/dev/null | awk 'NR > 1 {print $1}' | tr '\n' ' '; }
check "lsload -R 'select[mem>0]' keeps vh1 alone" [ "$(rows lsload -R 'select[mem>0]')" = "vh1 " ]
check "lshosts -R 'select[mem>0]' keeps vh1 alone" [ "$(rows lshosts -R 'select[mem>0]')" = "vh1 " ]
check "lshosts without -R lists both" [ "$(rows lshosts)" = "vh1 vh2 " ]
lsload -R 'select[mem>999999999]' >"$T/nomatch" 2>&1
check "lsload -R that no host meets exits 255" sh -c "[ $? -eq 255 ] && grep -q 'No matching host found' '$T/nomatch'"
lshosts -R 'select[' >/dev/null 2>&1
check "lshosts -R with a bad requirement exits 255" [ $? -eq 255 ]
# -I: the named indices alone, in that order; -l overrides it.
lsload -I mem:ut:r1m vh1 >"$T/lsloadI" 2>&1
check "lsload -I mem:ut:r1m: those columns" python3 "$T/cols.py" "$T/lsloadI" \
	"HOST_NAME status mem ut r1m" "vh1:status:ok"
check "lsload -l -I: -l wins" sh -c "lsload -l -I mem vh1 | head -n 1 | grep -q ' io '"
lsload -I nosuch >"$T/badI" 2>&1
check "lsload -I with an unknown index exits 255" sh -c "[ $? -eq 255 ] && grep -q 'nosuch: Unknown load index name' '$T/badI'"
# -n: at most that many hosts.
check "lsload -n 1: one host" [ "$(rows lsload -n 1)" = "vh1 " ]
lsload -n 0 >/dev/null 2>&1
check "lsload -n 0 is refused" [ $? -eq 255 ]
# -s: no shared resources in Basalt.
lshosts -s >"$T/s" 2>&1
check "lshosts -s: No resource found, exit 255" sh -c "[ $? -eq 255 ] && grep -qx 'No resource found' '$T/s'"
lsload -s >"$T/s" 2>&1
check "lsload -s: No resource found, exit 255" sh -c "[ $? -eq 255 ] && grep -qx 'No resource found' '$T/s'"

# ---- lsinfo -----------------------------------------------------------------
lsinfo >"$T/lsinfo" 2>&1
check "lsinfo succeeds" [ $? -eq 0 ]
check "lsinfo: resources, types, models sections" python3 -c "
t = open('$T/lsinfo').read()
assert t.startswith('RESOURCE_NAME   TYPE   ORDER  DESCRIPTION\n'), t
assert '\nTYPE_NAME\n' in t and '\nMODEL_NAME      CPU_FACTOR      ARCHITECTURE\n' in t, t
rows = {l.split()[0]: l.split()[1:3] for l in t.split('\n\n')[0].split('\n')[1:] if l}
assert rows['mem'] == ['Numeric', 'Dec'] and rows['r15s'] == ['Numeric', 'Inc'], rows
"
check "lsinfo -r mem: one resource" sh -c "[ \$(lsinfo mem | wc -l) -eq 2 ]"
lsinfo nosuch >/dev/null 2>&1
check "lsinfo of an unknown resource exits 255" [ $? -eq 255 ]
for f in lsclusters lshosts lsload showconf; do
	sed 's/^/# /' "$T/$f"
done
done_testing
