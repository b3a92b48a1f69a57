# Helpers for the integration tests (tests/integration/tNNNN-*.sh).
#
# Each test gets a private directory with its own configuration, starts a
# real mbatchd and one or more sbatchd as virtual hosts on 127.0.0.1, drives
# the real commands, and speaks TAP.  Every wait has a deadline; at exit
# every process the test started is stopped by PID, and every job process
# of its cluster (found by LSF_ENVDIR in its environment) is killed.

set -u

: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
export top_builddir top_srcdir

T=$(mktemp -d "${TMPDIR:-/tmp}/bs-it.XXXXXX")
chmod 755 "$T"
export LSF_ENVDIR="$T/conf"
PATH="$top_builddir/cmd:$top_builddir/mbatchd:$top_builddir/sbatchd:$PATH"
export PATH
BS_PIDS=""
BS_TEST_USERS=""
BS_TESTS=0
BS_FAILED=0

# ---- TAP ---------------------------------------------------------------

ok() {
	BS_TESTS=$((BS_TESTS + 1))
	echo "ok $BS_TESTS - $*"
}

not_ok() {
	BS_TESTS=$((BS_TESTS + 1))
	BS_FAILED=$((BS_FAILED + 1))
	echo "not ok $BS_TESTS - $*"
}

# check "description" command...: one TAP line from the command's status.
check() {
	desc=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		sed 's/^/# /' "$T/check.out"
	fi
}

# Skip the rest of the test with a reason (TAP plan with SKIP).
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

diag() {
	echo "$*" | sed 's/^/# /'
}

done_testing() {
	echo "1..$BS_TESTS"
	[ "$BS_FAILED" -eq 0 ]
}

# ---- waiting -------------------------------------------------------------

# wait_for SECONDS command...: poll until the command succeeds.
wait_for() {
	limit=$1
	shift
	deadline=$(($(date +%s%N) / 1000000 + limit * 1000))
	while ! "$@" >/dev/null 2>&1; do
		if [ $(($(date +%s%N) / 1000000)) -ge "$deadline" ]; then
			return 1
		fi
		sleep 0.05
	done
	return 0
}

job_state() {   # job_state ID -> PEND, RUN, DONE ...
	bjobs -a -noheader -o "stat" "$1" 2>/dev/null | head -n 1 | tr -d ' '
}

state_is() {    # state_is ID STATE
	[ "$(job_state "$1")" = "$2" ]
}

# job_output FILE: a job's -o file without the job report sbatchd appends
# to it (the report starts with its "Sender: LSF System" line).
job_output() {
	sed '/^Sender: LSF System </,$d' "$1"
}

# The job id from bsub's "Job <N> is submitted ..." line.
job_id_of() {
	sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p' | head -n 1
}

# The long forms (bjobs -l, bhist -l) cut their lines at 80 columns
# anywhere, even inside a word or just before a space, and indent each
# continuation by 21 columns.  unwrapped (a filter) removes exactly that
# indent and the line ends, giving back the words as printed; squeezing
# spaces or deleting leading blanks instead loses or adds a space
# depending on where a cut falls, which moves with the length of a path.
unwrapped() {
	sed 's/^ \{21\}//' | tr -d '\n'
}

# says CMD JOB TEXT: "CMD -l JOB", unwrapped, holds TEXT (fixed string).
says() {
	"$1" -l "$2" | unwrapped | grep -qF -- "$3"
}

# says_re CMD JOB RE: the same with a basic regular expression.
says_re() {
	"$1" -l "$2" | unwrapped | grep -q -- "$3"
}

# ---- MUNGE -----------------------------------------------------------------

# start_munged NAME [ORIGIN]: a private munged on socket $T/munge/NAME.sock,
# its PID in MUNGED_PID_NAME, killed by PID at cleanup.  Every munged of a
# test shares one key ($T/munge/key), so a second one with ORIGIN 127.0.0.2
# stands for another host of the same cluster.  No system munged is used
# or touched.
start_munged() {
	command -v munged >/dev/null 2>&1 || {
		diag "munged is not installed (Debian package munge)"
		return 1
	}
	mkdir -p "$T/munge"
	chmod 755 "$T/munge"
	if [ ! -s "$T/munge/key" ]; then
		(umask 077 && dd if=/dev/urandom of="$T/munge/key" bs=1024 count=1 2>/dev/null)
	fi
	munged -F -f -S "$T/munge/$1.sock" --key-file "$T/munge/key" \
		--pid-file "$T/munge/$1.pid" --log-file "$T/munge/$1.log" \
		--seed-file "$T/munge/$1.seed" --origin="${2:-127.0.0.1}" \
		--num-threads=2 >>"$T/munge/$1.out" 2>&1 &
	eval "MUNGED_PID_$1=\$!"
	track "$!"
	wait_for 60 munge -S "$T/munge/$1.sock" -n || {
		diag "munged $1 did not start:"
		diag "$(cat "$T/munge/$1.out" "$T/munge/$1.log" 2>/dev/null)"
		return 1
	}
}

# ---- cluster ---------------------------------------------------------------

# make_cluster HOST...: a configuration for these virtual hosts, each with
# $BS_MXJ slots (default 4), in $T/conf.  Unless BS_MUNGE=0, the cluster
# authenticates with a private munged (LSF_AUTH=munge): sbatchd and mbatchd
# then talk over TCP with credentials, as on a real cluster, and
# $T/conf/hosts gives every virtual host the address 127.0.0.1.
make_cluster() {
	mkdir -p "$T/conf" "$T/work" "$T/log"
	cp -r "$top_srcdir/conf/." "$T/conf/"
	chmod -R u+w "$T/conf"
	cat >"$T/conf/lsf.conf" <<CONF
LSB_CONFDIR=lsbatch
LSB_SHAREDIR=$T/work
LSF_LOGDIR=$T/log
LSF_LOG_MASK=LOG_INFO
LSB_MBD_PORT=0
LSB_MBD_ADDRESS=127.0.0.1
LSF_MASTER_LIST=127.0.0.1
LSB_SBD_PORT=0
LSF_RES_PORT=0
LSB_ALLOW_ROOT_JOBS=Y
LSB_JOB_TMPDIR=$T/jobtmp
CONF
	# Job temporary directories stay inside the test's directory, so a job
	# still running when the test stops its daemons leaves nothing in /tmp.
	mkdir -p "$T/jobtmp" && chmod 1777 "$T/jobtmp"
	if [ "${BS_MUNGE:-1}" != 0 ] && start_munged main 127.0.0.1; then
		cat >>"$T/conf/lsf.conf" <<CONF
LSF_AUTH=munge
LSF_MUNGE_SOCKET=$T/munge/main.sock
CONF
		echo "127.0.0.1 $* localhost" >"$T/conf/hosts"
	fi
	{
		echo "Begin ClusterAdmins"
		echo "Administrators = root $(id -un)"
		echo "End ClusterAdmins"
		echo "Begin Host"
		echo "HOSTNAME  model  type  server  RESOURCES"
		for h in "$@"; do
			echo "$h  !  !  1  ()"
		done
		echo "End Host"
	} >"$T/conf/lsf.cluster.basalt"
	{
		echo "Begin Host"
		echo "HOST_NAME  MXJ  JL/U"
		echo "default    ${BS_MXJ:-4}    -"
		echo "End Host"
	} >"$T/conf/lsbatch/basalt/configdir/lsb.hosts"
	# Short intervals so failures are noticed within a test's patience.
	cat >"$T/conf/lsbatch/basalt/configdir/lsb.params" <<PARAMS
Begin Parameters
DEFAULT_QUEUE = normal
MBD_SLEEP_TIME = 1
JOB_TERMINATE_INTERVAL = 1
MAX_SBD_FAIL = 2
CLEAN_PERIOD = 3600
End Parameters
PARAMS
}

# ---- MultiCluster: several clusters on one machine --------------------------

# make_mc_clusters NAME...: one cluster per NAME under $T/mc/NAME (conf,
# work, log), every one listed in every lsf.shared, so each mbatchd links
# to all the others (mbatchd/mc-links.c).  LSF's rule holds: one
# LSB_MBD_PORT for every cluster; each master gets its own loopback address
# instead, 127.A.B.N for the Nth NAME, A and B random so that tests running
# at once do not meet.  Cluster NAME's master host is NAME-master (in each
# conf/hosts), with a private munged (start_munged NAME, origin its
# address; one shared key).  The port is MC_PORT, random in 20000..29999,
# below the kernel's ephemeral range.  Sets MC_ADDR_<NAME> for each.
make_mc_clusters() {
	command -v munged >/dev/null 2>&1 || skip_all "munged is not installed"
	MC_A=$(($(rand_below 250) + 1))
	MC_B=$(($(rand_below 250) + 1))
	MC_PORT=$((20000 + $(rand_below 10000)))
	MC_NAMES="$*"
	mc_i=0
	: >"$T/mc.hosts"
	mkdir -p "$T/mc"
	for mc_n in "$@"; do
		mc_i=$((mc_i + 1))
		eval "MC_ADDR_$(echo "$mc_n" | tr -c 'A-Za-z0-9_\n' _)=127.$MC_A.$MC_B.$mc_i"
		echo "127.$MC_A.$MC_B.$mc_i $mc_n-master" >>"$T/mc.hosts"
	done
	{
		echo "Begin Cluster"
		echo "ClusterName  Servers"
		for mc_n in "$@"; do
			echo "$mc_n  ($mc_n-master)"
		done
		echo "End Cluster"
	} >"$T/mc.shared"
	for mc_n in "$@"; do
		mc_write_cluster "$mc_n" "$(mc_addr "$mc_n")" || return 1
	done
}

mc_addr() {
	eval "echo \$MC_ADDR_$(echo "$1" | tr -c 'A-Za-z0-9_\n' _)"
}

# mc_write_cluster NAME ADDR: the configuration of one cluster (used by
# make_mc_clusters).
mc_write_cluster() {
	mc_d="$T/mc/$1"
	mkdir -p "$mc_d/conf" "$mc_d/work" "$mc_d/log"
	cp -r "$top_srcdir/conf/." "$mc_d/conf/"
	chmod -R u+w "$mc_d/conf"
	mv "$mc_d/conf/lsbatch/basalt" "$mc_d/conf/lsbatch/$1"
	rm -f "$mc_d/conf/lsf.cluster.basalt"
	start_munged "$1" "$2" || return 1
	cat >"$mc_d/conf/lsf.conf" <<CONF
LSB_CONFDIR=lsbatch
LSB_SHAREDIR=$mc_d/work
LSF_LOGDIR=$mc_d/log
LSF_LOG_MASK=LOG_INFO
LSF_CLUSTER_NAME=$1
LSB_MBD_PORT=$MC_PORT
LSB_MBD_ADDRESS=$2
LSF_MASTER_LIST=$2
LSB_SBD_PORT=0
LSF_RES_PORT=0
LSF_AUTH=munge
LSF_MUNGE_SOCKET=$T/munge/$1.sock
CONF
	cp "$T/mc.shared" "$mc_d/conf/lsf.shared"
	cp "$T/mc.hosts" "$mc_d/conf/hosts"
	{
		echo "Begin ClusterAdmins"
		echo "Administrators = root $(id -un)"
		echo "End ClusterAdmins"
		echo "Begin Host"
		echo "HOSTNAME  model  type  server  RESOURCES"
		echo "$1-master  !  !  1  ()"
		echo "End Host"
	} >"$mc_d/conf/lsf.cluster.$1"
	cat >"$mc_d/conf/lsbatch/$1/configdir/lsb.params" <<PARAMS
Begin Parameters
DEFAULT_QUEUE = normal
MBD_SLEEP_TIME = 1
End Parameters
PARAMS
}

# in_cluster NAME command...: run a command against cluster NAME.
in_cluster() {
	mc_env="$T/mc/$1/conf"
	shift
	LSF_ENVDIR="$mc_env" "$@"
}

# start_mc_mbd NAME: that cluster's mbatchd, its PID in MBD_PID_<NAME>.
start_mc_mbd() {
	mc_d="$T/mc/$1"
	rm -f "$mc_d/work/mbatchd.port"
	LSF_ENVDIR="$mc_d/conf" mbatchd -f >>"$mc_d/log/mbatchd.out" 2>&1 &
	eval "MBD_PID_$(echo "$1" | tr -c 'A-Za-z0-9_\n' _)=\$!"
	track "$!"
	wait_for 10 test -s "$mc_d/work/mbatchd.port" || {
		diag "mbatchd of cluster $1 did not start:"
		diag "$(tail -n 20 "$mc_d/log/mbatchd.out")"
		return 1
	}
}

mc_mbd_pid() {
	eval "echo \$MBD_PID_$(echo "$1" | tr -c 'A-Za-z0-9_\n' _)"
}

# stop_mc_mbd NAME: TERM that cluster's mbatchd (by PID) and wait for it.
stop_mc_mbd() {
	mc_p=$(mc_mbd_pid "$1")
	kill -TERM "$mc_p" 2>/dev/null
	wait "$mc_p" 2>/dev/null
}

# mc_add_host NAME HOST: cluster NAME gets execution host HOST (a line in
# its lsf.cluster Host section, and HOST at NAME's address in its hosts
# file: its sbatchd uses NAME's munged, whose origin is that address).
mc_add_host() {
	mc_d="$T/mc/$1"
	sed -i "/^End Host\$/i $2  !  !  1  ()" "$mc_d/conf/lsf.cluster.$1"
	echo "$(mc_addr "$1") $2" >>"$mc_d/conf/hosts"
}

# start_mc_sbd NAME HOST: an sbatchd of cluster NAME registering as HOST
# (mc_add_host first), its PID in SBD_PID_<HOST>; waits until NAME's
# bhosts shows it ok.
start_mc_sbd() {
	mc_d="$T/mc/$1"
	mkdir -p "$T/sbd/$2"
	LSF_ENVDIR="$mc_d/conf" sbatchd -f -N "$2" -S "$T/sbd/$2" \
		>>"$mc_d/log/sbatchd.$2.out" 2>&1 &
	eval "SBD_PID_$(echo "$2" | tr -c 'A-Za-z0-9_\n' _)=\$!"
	track "$!"
	wait_for 30 sh -c 'LSF_ENVDIR="$1" bhosts -w "$2" 2>/dev/null |
		awk -v h="$2" '"'"'$1 == h && $2 == "ok" {f=1} END {exit !f}'"'"'' \
		sh "$mc_d/conf" "$2" || {
		diag "sbatchd $2 of cluster $1 did not register:"
		diag "$(tail -n 20 "$mc_d/log/sbatchd.$2.out")"
		return 1
	}
}

# make_mc_relay: the job relay's two clusters (issue 19): alpha consumes,
# beta provides its host pv1 (its own sbatchd) by an exclusive HostExport
# of 2 slots; alpha's queues `leased` and `leasedsmall` (FILELIMIT = 8 KB)
# have HOSTS = allremote.  Both mbatchds
# and pv1's sbatchd are started; waits for the link.  mc_in_alpha /
# mc_in_beta run a command against one of them, mc_nobody as nobody.
make_mc_relay() {
	make_mc_clusters alpha beta || return 1
	mc_add_host beta pv1
	cat >"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.resources" <<'R'
Begin HostExport
NAME         = toalpha
PER_HOST     = pv1
SLOTS        = 2
DISTRIBUTION = ([alpha, 1])
End HostExport
R
	# A provider host whose sbatchd dies is unavailable within ~15 s.
	sed -i 's/^End Parameters$/MAX_SBD_FAIL = 2\nJOB_TERMINATE_INTERVAL = 1\nEnd Parameters/' \
		"$T/mc/beta/conf/lsbatch/beta/configdir/lsb.params"
	cat >>"$T/mc/alpha/conf/lsbatch/alpha/configdir/lsb.queues" <<'Q'

Begin Queue
QUEUE_NAME   = leased
PRIORITY     = 40
HOSTS        = allremote
End Queue

Begin Queue
QUEUE_NAME   = leasedsmall
PRIORITY     = 40
HOSTS        = allremote
FILELIMIT    = 8
End Queue
Q
	start_mc_mbd alpha || return 1
	start_mc_mbd beta || return 1
	start_mc_sbd beta pv1 || return 1
	wait_for 30 link_is alpha beta ok || {
		diag "alpha and beta did not link"
		return 1
	}
	mkdir -p "$T/out" && chmod 777 "$T/out"
}

mc_in_alpha() { LSF_ENVDIR="$T/mc/alpha/conf" "$@"; }
mc_in_beta() { LSF_ENVDIR="$T/mc/beta/conf" "$@"; }
mc_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# mc_state CLUSTER ID: the job's state there; mc_state_is CLUSTER ID STATE.
mc_state() {
	in_cluster "$1" bjobs -a -noheader -o stat "$2" 2>/dev/null | head -n 1 | tr -d ' '
}
mc_state_is() { [ "$(mc_state "$1" "$2")" = "$3" ]; }

# mc_records ID: beta's records of alpha's job ID ("id stat" lines).
mc_records() {
	mc_in_beta bjobs -a -u all -noheader -o "id stat name" 2>/dev/null |
		awk -v n="$1@alpha" '$3 == n {print $1, $2}'
}

# link_is FROM TO STATUS: bclusters -l of cluster FROM shows TO in STATUS.
link_is() {
	in_cluster "$1" bclusters -l 2>/dev/null | awk -v c="$2" -v s="$3" '
		/^REMOTE CLUSTER: / { cur = $3 }
		cur == c && $1 == "STATUS:" && $2 == s { f = 1 }
		END { exit !f }'
}

# hosts_at_loopback: with MUNGE, every host of lsf.cluster (rewritten after
# make_cluster, say by bench/loadgen --print-hosts) proves its name from
# 127.0.0.1: list them all there in $LSF_ENVDIR/hosts.
hosts_at_loopback() {
	[ -f "$T/conf/hosts" ] || return 0
	awk '/^Begin Host/ {h = 1; next} /^End Host/ {h = 0} h && $1 != "HOSTNAME" {printf "%s ", $1}' \
		"$T/conf/lsf.cluster.basalt" | sed 's/^/127.0.0.1 /' >>"$T/conf/hosts"
	echo >>"$T/conf/hosts"
}

track() {
	BS_PIDS="$BS_PIDS $1"
}

start_mbd() {
	rm -f "$T/work/mbatchd.port"
	mbatchd -f >>"$T/log/mbatchd.out" 2>&1 &
	MBD_PID=$!
	track "$MBD_PID"
	wait_for 60 test -s "$T/work/mbatchd.port" || {
		diag "mbatchd did not start:"
		diag "$(cat "$T/log/mbatchd.out")"
		return 1
	}
}

stop_mbd() {
	kill -TERM "$MBD_PID" 2>/dev/null
	wait "$MBD_PID" 2>/dev/null
}

host_ok() {
	bhosts -w "$1" 2>/dev/null | awk -v h="$1" '$1 == h && $2 == "ok" {f=1} END {exit !f}'
}

# start_sbd NAME: an sbatchd registering as virtual host NAME.
start_sbd() {
	mkdir -p "$T/sbd/$1"
	sbatchd -f -N "$1" -S "$T/sbd/$1" >>"$T/log/sbatchd.$1.out" 2>&1 &
	eval "SBD_PID_$1=\$!"
	track "$!"
	wait_for 60 host_ok "$1" || {
		diag "sbatchd $1 did not register:"
		diag "$(tail -n 20 "$T/log/sbatchd.$1.out")"
		return 1
	}
}

sbd_pid() {
	eval "echo \$SBD_PID_$1"
}

# Processes of this cluster's jobs: their environment has an LSB_JOBID and
# names our LSF_ENVDIR (the test's own commands have no LSB_JOBID).
cluster_job_pids() {
	for f in $(grep -lszx "LSF_ENVDIR=$LSF_ENVDIR" /proc/[0-9]*/environ); do
		grep -qsz '^LSB_JOBID=' "$f" && echo "$f" | cut -d/ -f3
	done
}

# The processes of job ID of this cluster (other tests' clusters run jobs
# with the same ids at the same time, so LSF_ENVDIR must match too).
job_pids() {
	for f in $(grep -lszx "LSB_JOBID=$1" /proc/[0-9]*/environ); do
		grep -qsxz "LSF_ENVDIR=$LSF_ENVDIR" "$f" && echo "$f" | cut -d/ -f3
	done
}

# ---- test users (tests that need a second user) ----------------------------

# useradd and userdel lock /etc/passwd and give up at once when another
# one holds it ("cannot lock /etc/passwd; try again later"): tests run side
# by side under make -j2 check, and other suites on the machine add users
# too.  userdel also refuses while a process of the user is still running
# ("currently used by process"), as a just-killed job's may be.  Those two
# are retried until a deadline; anything else, or the deadline, is an error
# with the tool's own message on stderr.
bs_user_tool() {   # bs_user_tool command...: status 0 once it succeeded
	bs_ut_deadline=$(($(date +%s%N) / 1000000 + 60000))
	while :; do
		"$@" >"$T/user-tool.out" 2>&1 && return 0
		bs_ut_st=$?
		if ! grep -qiE "lock|currently used" "$T/user-tool.out" ||
		    [ $(($(date +%s%N) / 1000000)) -ge "$bs_ut_deadline" ]; then
			echo "# $* failed with status $bs_ut_st:" >&2
			sed 's/^/#   /' "$T/user-tool.out" >&2
			return 1
		fi
		sleep 0.1
	done
}

# add_test_user NAME HOME: a login NAME with home HOME (not created), and
# proof that the system now knows it.  cleanup deletes it at exit.
add_test_user() {
	bs_user_tool useradd -M -d "$2" -s /bin/sh "$1" || return 1
	BS_TEST_USERS="$BS_TEST_USERS $1"
	if ! getent passwd "$1" >/dev/null; then
		echo "# useradd $1 succeeded but the user is unknown" >&2
		return 1
	fi
}

# del_test_user NAME: NAME is gone from the system (done already is fine,
# so exit traps can call it); a userdel that did not happen is an error.
del_test_user() {
	getent passwd "$1" >/dev/null || return 0
	bs_user_tool userdel "$1" || return 1
	if getent passwd "$1" >/dev/null; then
		echo "# userdel $1 succeeded but the user is still known" >&2
		return 1
	fi
}

# procs_in JOB STATE: the job has at least 3 processes, all in STATE
# (/proc/PID/stat field 3: S sleeping, T stopped).
procs_in() {
	n=0
	for p in $(job_pids "$1"); do
		s=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) || continue
		[ "$s" = "$2" ] || return 1
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
}

# kill_cluster_jobs: every job process of this cluster is gone.  One pass
# is not enough: a job's shell may fork (a loop's next sleep) between the
# scan and its own SIGKILL, and that child carries the job's environment.
# Zombies have no environ, so they do not count.  Deadline 60 s.
kill_cluster_jobs() {
	bs_kj_deadline=$(($(date +%s%N) / 1000000 + 60000))
	while bs_kj_pids=$(cluster_job_pids) && [ -n "$bs_kj_pids" ]; do
		for pid in $bs_kj_pids; do
			kill -KILL "$pid" 2>/dev/null
		done
		if [ $(($(date +%s%N) / 1000000)) -ge "$bs_kj_deadline" ]; then
			echo "# job processes still alive after 60 s: $bs_kj_pids" >&2
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# no_user_procs NAME: the test user NAME (made by this test, its name
# unique to it) runs no process any more, so userdel can delete it.  A
# just-killed job's process may still be exiting, and one without the
# cluster's environment (a child that cleared it) is not found by
# cluster_job_pids: SIGKILL them by PID and wait, deadline 60 s.
no_user_procs() {
	bs_nu_deadline=$(($(date +%s%N) / 1000000 + 60000))
	while bs_nu_pids=$(pgrep -u "$1" 2>/dev/null) && [ -n "$bs_nu_pids" ]; do
		for pid in $bs_nu_pids; do
			kill -KILL "$pid" 2>/dev/null
		done
		if [ $(($(date +%s%N) / 1000000)) -ge "$bs_nu_deadline" ]; then
			echo "# processes of $1 still alive after 60 s: $bs_nu_pids" >&2
			return 1
		fi
		sleep 0.05
	done
	return 0
}

cleanup() {
	status=$?
	for pid in $BS_PIDS; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in $BS_PIDS; do
		wait_for 5 sh -c "! kill -0 $pid" || kill -KILL "$pid" 2>/dev/null
	done
	kill_cluster_jobs
	# After the jobs: userdel refuses a user who still runs processes.
	for bs_u in $BS_TEST_USERS; do
		no_user_procs "$bs_u" || status=1
		del_test_user "$bs_u" || status=1
	done
	if [ "$BS_FAILED" -ne 0 ] || [ "$status" -ne 0 ]; then
		for f in "$T"/log/*; do
			[ -f "$f" ] || continue
			echo "# ---- $f"
			tail -n 30 "$f" | sed 's/^/# /'
		done
	fi
	rm -rf "$T"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# ---- crash and recovery helpers (t0110..t0150, bench/crash-soak.sh) --------

# rand_below N: a random integer in [0, N).  dash has no $RANDOM, so read
# /dev/urandom.
rand_below() {
	echo $(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % $1))
}

# kill9_mbd: mbatchd dies as in a crash, with no chance to flush or close.
kill9_mbd() {
	kill -KILL "$MBD_PID" 2>/dev/null
	wait "$MBD_PID" 2>/dev/null
	return 0
}

# no_unfinished: mbatchd answers and holds no job that is not finished.
# (bjobs also exits non-zero when mbatchd is down, so match its words.)
no_unfinished() {
	bjobs 2>&1 | grep -q "No unfinished job found"
}

# all_jobs FILE: one line "ID STAT NAME EXIT_CODE" per job mbatchd knows;
# fails if bjobs does (its complaint in FILE.err).
all_jobs() {
	bjobs -a -noheader -o "jobid stat job_name exit_code" >"$1" 2>"$1.err"
}

# jobs_by_id FILE FIRST LAST: as all_jobs, for the ids FIRST..LAST, asked
# 200 at a time: one bjobs -a reply for thousands of jobs can pass the RPC
# frame limit (4 MB; each job carries its submission environment).  Ids
# that are not jobs are skipped; fails on any other complaint of bjobs.
jobs_by_id() {
	: >"$1"
	: >"$1.err"
	i=$2
	while [ "$i" -le "$3" ]; do
		j=$((i + 199))
		[ "$j" -le "$3" ] || j=$3
		bjobs -a -noheader -o "jobid stat job_name exit_code" \
			$(seq "$i" "$j") >>"$1" 2>>"$1.err"
		i=$((j + 1))
	done
	! grep -qv "^Job <[0-9]*> is not found" "$1.err"
}

# The journal's files.
journal_dir() {
	echo "$T/work/events"
}

journal_newest_segment() {
	ls "$(journal_dir)"/events.[0-9]* 2>/dev/null | sort | tail -n 1
}

# journal_records FILE: "OFFSET LENGTH" of each whole record of a segment
# (evlog.h: a 40-byte header, then u32 length, u32 crc32c, payload, all
# little-endian).  Stops at the first record that runs past the end, or at
# a length of 0: the zeros a preallocated segment holds after its records.
journal_records() {
	size=$(stat -c %s "$1")
	off=40
	while [ $((off + 8)) -le "$size" ]; do
		len=$(od -An -tu4 --endian=little -j "$off" -N4 "$1" | tr -d ' ')
		[ "$len" -gt 0 ] && [ $((off + 8 + len)) -le "$size" ] || break
		echo "$off $len"
		off=$((off + 8 + len))
	done
}

# flip_byte FILE OFFSET: inverts every bit of one byte in place.
flip_byte() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ 255)))" |
		dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null
}

# stop_tracked: every daemon the test started, TERM then KILL (as cleanup).
stop_tracked() {
	for pid in $BS_PIDS; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in $BS_PIDS; do
		wait_for 5 sh -c "! kill -0 $pid" || kill -KILL "$pid" 2>/dev/null
	done
}

# umount_at_exit DIR: at exit, stop the daemons (they hold files in DIR
# open), unmount DIR, then the usual cleanup, keeping the exit status.
umount_at_exit() {
	BS_UMOUNT=$1
	trap 'bs_status=$?; stop_tracked; umount "$BS_UMOUNT" 2>/dev/null ||
		umount -l "$BS_UMOUNT" 2>/dev/null; (exit $bs_status); cleanup' EXIT
}

# check_todo "reason" "description" command...: a check for a known bug,
# reported with a TAP TODO directive so it does not fail the suite: XFAIL
# while the bug is there, XPASS (a failure under automake, on purpose) once
# it is fixed, to have the directive removed.
check_todo() {
	why=$1
	desc=$2
	shift 2
	BS_TESTS=$((BS_TESTS + 1))
	if "$@" >"$T/check.out" 2>&1; then
		echo "ok $BS_TESTS - $desc # TODO $why"
	else
		echo "not ok $BS_TESTS - $desc # TODO $why"
		sed 's/^/# /' "$T/check.out"
	fi
}

# Resource plans (lsb.consumers) on real daemons.
# running_of PATH: how many running jobs count against consumer PATH.
running_of() { bjobs -r -u all -noheader -o consumer 2>/dev/null | grep -cx "$1"; }
# consumer_col PATH N: column N of consumer PATH's bconsumers -w row.
consumer_col() { bconsumers -w | awk -v p="$1" -v n="$2" '$1 == p {print $n}'; }
# consumer_queues C...: lsb.queues (of make_cluster's cluster) with a
# queue qC of priority 30 per consumer /C (CONSUMER = /C), and normal.
consumer_queues() {
	for cq_c in "$@"; do
		printf 'Begin Queue\nQUEUE_NAME = q%s\nPRIORITY = 30\nCONSUMER = /%s\nEnd Queue\n\n' "$cq_c" "$cq_c"
	done >"$T/conf/lsbatch/basalt/configdir/lsb.queues"
	printf 'Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 10\nEnd Queue\n' \
		>>"$T/conf/lsbatch/basalt/configdir/lsb.queues"
}
# submit_n QUEUE N [bsub options]: N jobs of `sleep 600` in QUEUE.
submit_n() {
	sn_q=$1 sn_n=$2
	shift 2
	sn_i=0
	while [ "$sn_i" -lt "$sn_n" ]; do
		bsub -q "$sn_q" "$@" -o /dev/null sleep 600 >/dev/null || return 1
		sn_i=$((sn_i + 1))
	done
}

# post_override_is ID LETTER: the host of running job ID (index 0) holds
# the post-exec a bmod -Ep / -Epn gave it, in the file sbatchd rewrites
# for bs-jobwrap (sbatchd/job-modify.c): S the job's own, P the
# profile's, N none.  Wait on it before ending the job.
post_override_is() {
	for poi_f in $(find "$T" -name "$1.0*.status.post" 2>/dev/null); do
		[ "$(head -c 1 "$poi_f")" = "$2" ] && return 0
	done
	return 1
}
