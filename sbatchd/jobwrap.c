/*
 * bs-jobwrap: the leader of a job launched with a status record.
 *
 *   bs-jobwrap [-i SETUP_FD] [-p POST_FD] [-U ID -u ID] [-t S] [-T S]
 *              [-b1 CMD] [-b2 CMD] [-a2 CMD] [-a1 CMD] STATUS_FD REPORT_FD
 *              PROGRAM ARGS...      (-BN / -AN for -bN / -aN with -u)
 *
 * sbatchd's launching child execs this instead of the shell when the job
 * has a status path.  It runs PROGRAM (the shell) as its child in the same
 * process group, waits for it, writes one line to STATUS_FD
 *
 *   exit=N core=0 utime_us=U stime_us=S maxrss_kb=M      (or signal=N ...)
 *
 * waits for the rest of the job's process tree (it is a child subreaper, so
 * what the command left behind, in its group or not, is re-parented to it)
 * and exits the way the command did, so a live sbatchd sees the command's
 * wait status as the leader's.  A restarted sbatchd, which can no longer
 * wait for the job, reads the line instead (bs_status_record_read).
 *
 * Why a separate, tiny program and not a fork of sbatchd: Linux carries a
 * process's peak RSS across exec (ru_maxrss includes the memory of the
 * forked copy of the parent), so a command forked from sbatchd would report
 * sbatchd's size as its own peak memory.  Forked from this small program,
 * the command's ru_maxrss is its own.  It also keeps no copy of sbatchd's
 * memory or descriptors alive for the job's lifetime.
 *
 * It ignores every catchable signal except the stop signals (a suspended
 * job is stopped entirely) and the fault signals (never safe to ignore), so
 * bkill's SIGINT/SIGTERM reach the command but not the record keeper.
 * REPORT_FD is sbatchd's launch report pipe: if PROGRAM cannot be run, the
 * child writes a BsChildReport there, and sbatchd turns it into an error.
 * No GLib here: the smaller the program, the smaller what its child
 * inherits.
 *
 * Pre- and post-execution commands (LSF PRE_EXEC/POST_EXEC, bsub -E/-Ep)
 * run here, in the job's session and process group, so they are killed
 * with the job and the job is not over (the reaper waits for the group)
 * until its post-exec is.  -bN runs before PROGRAM, -aN after it, in the
 * order given (sbatchd passes the queue's pre-exec first and its post-exec
 * last); each is "/bin/sh -c CMD" as the job's user, with the job's
 * environment, PATH extended by /bin:/usr/bin:/sbin:/usr/sbin, stdin
 * /dev/null (the job's input is the job's to read) and the job's stdout
 * and stderr; the queue's (level 1) in /tmp, the job's (level 2: bsub
 * -E/-Ep or the profile's) in the job's working directory, as LSF runs
 * them.  The first pre-exec that
 * fails ends the run before PROGRAM: the record then says exit=<its
 * status> preexec=<N> and sbatchd reports a pre-exec failure, which
 * mbatchd turns into a requeue.  A pre-exec may run long, so REPORT_FD is
 * closed before it: a failure to run PROGRAM afterwards is exit 127 in the
 * record.  Post-exec commands see LSB_JOBEXIT_STAT (the job's wait status,
 * as LSF sets it); the first that fails adds postexec=<status> to the
 * record, which is reported, never the job's own exit.  -t and -T bound
 * each pre-exec and post-exec in seconds (JOB_PREPROC_TIMEOUT,
 * JOB_POSTPROC_TIMEOUT): one over it counts as failed with 98, as in LSF,
 * and once the record says so the wrapper kills the job's whole group,
 * itself included, so nothing the command started outlives it.
 *
 * -U UID:GID:USER and -u UID:GID:USER are given when sbatchd starts this
 * wrapper as root so that the queue's and the application profile's
 * hooks run as LSB_PRE_POST_EXEC_USER (lsf.conf): -U is the job's user,
 * which PROGRAM and the job's own hooks become, -u the hooks' user, which
 * the hooks given as -BN / -AN become.  The wrapper itself holds nothing
 * of the user's: it runs no user code before dropping its ids in a child.
 * It is started with a fixed environment (a root process whose loader
 * read LD_PRELOAD from the job would be the user's); -e ENV_FD gives it
 * the job's, which PROGRAM and the job's own hooks get, and of which the
 * -BN / -AN hooks get only the LSB_* and LSF_* variables, with PATH
 * /bin:/usr/bin:/sbin:/usr/sbin, umask 022 and /tmp as their directory.
 *
 * -p POST_FD is a file sbatchd rewrites when bmod -Ep changes the
 * post-exec of the running job (job-modify.c): read once the command has
 * ended, "S<command>" replaces the job's post-exec (level 2) with the
 * job's own, run as the job's user (never as -u's, whatever the level 2
 * it replaces ran as), "P<command>" with the application profile's, run
 * as -u's user when there is one (as -A2 would), "N" removes it; an
 * empty file leaves the -a2 / -A2 of the command line.
 *
 * With -i it is also the relay of an interactive job (bsub -I, -Ip, -Is):
 * SETUP_FD is sbatchd's setup pipe, see irelay.h.  When the link to bsub
 * was lost before the command ended, the record ends with " lost=1".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "irelay.h"
#include "launch-report.h"

static void
report(int fd, BsChildStep step, int err)
{
	BsChildReport rep = { .step = step, .err = err, .index = 0 };
	ssize_t n;

	do {
		n = write(fd, &rep, sizeof rep);
	} while (n < 0 && errno == EINTR);
}

static int
keeps_default(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP: case SIGTSTP: case SIGTTIN:
	case SIGTTOU: case SIGCONT: case SIGCHLD: case SIGSEGV:
	case SIGBUS: case SIGILL: case SIGFPE: case SIGABRT:
	case SIGTRAP: case SIGSYS:
		return 1;
	default:
		return 0;
	}
}

static void
set_dispositions(int ignore)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || (ignore && keeps_default(sig)))
			continue;
		sa.sa_handler = ignore ? SIG_IGN : SIG_DFL;
		(void)sigaction(sig, &sa, NULL);
	}
}

static long long
tv_us(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000LL + (long long)tv->tv_usec;
}

static void
record(int fd, int wstatus, const struct rusage *ru, int post_status, int lost)
{
	char line[256], post[32] = "";
	int len;

	if (post_status != 0)
		snprintf(post, sizeof post, " postexec=%d", post_status);
	len = snprintf(line, sizeof line, "%s=%d core=%d utime_us=%lld stime_us=%lld maxrss_kb=%ld%s%s\n",
	               WIFEXITED(wstatus) ? "exit" : "signal",
	               WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus),
	               WCOREDUMP(wstatus) ? 1 : 0, tv_us(&ru->ru_utime),
	               tv_us(&ru->ru_stime), ru->ru_maxrss, post, lost ? " lost=1" : "");
	/* One write: a reader sees the whole line or no line. */
	if (len > 0 && len < (int)sizeof line && write(fd, line, (size_t)len) == len)
		(void)fsync(fd);
}

/* Leave the way the command did. */
static void
mirror(int wstatus)
{
	if (WIFSIGNALED(wstatus)) {
		int sig = WTERMSIG(wstatus);
		struct rlimit nocore = { 0, 0 };
		struct sigaction sa;
		sigset_t set;

		/* The command may have dumped core; we must not add ours. */
		(void)setrlimit(RLIMIT_CORE, &nocore);
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		(void)sigaction(sig, &sa, NULL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		(void)sigprocmask(SIG_UNBLOCK, &set, NULL);
		(void)kill(getpid(), sig);
		_exit(128 + sig);
	}
	_exit(WEXITSTATUS(wstatus));
}

#define MAX_HOOKS 4

typedef struct {
	const char *cmd;
	int level;                /* the N of -bN / -aN */
	int as_hook_user;         /* -BN / -AN: run as -u's user */
} Hook;

/* "UID:GID:NAME" of -U / -u; set 0: stay who we are. */
typedef struct {
	int set;
	uid_t uid;
	gid_t gid;
	const char *name;         /* "" : the group gid alone */
} Ident;

typedef struct {
	Ident job, hook;          /* -U, -u: only a root wrapper has them */
	Hook pre[MAX_HOOKS], post[MAX_HOOKS];
	int n_pre, n_post;
	unsigned pre_timeout_s, post_timeout_s;   /* 0: none */
	int post_fd;              /* -p, or -1 */
	char **job_env;           /* -e: the job's environment, or NULL */
} Hooks;

/* LSF's exit value for a pre/post-exec killed by its timeout. */
#define HOOK_TIMED_OUT 98

static int
parse_ident(const char *arg, Ident *id)
{
	char *end;
	unsigned long uid, gid;

	uid = strtoul(arg, &end, 10);
	if (end == arg || *end != ':')
		return -1;
	arg = end + 1;
	gid = strtoul(arg, &end, 10);
	if (end == arg || *end != ':')
		return -1;
	id->uid = (uid_t)uid;
	id->gid = (gid_t)gid;
	id->name = end + 1;
	id->set = 1;
	return 0;
}

/* In a child of a root wrapper: become id for good, as sbatchd's launch
 * would (launch-child.c).  A non-root id must not get root back. */
static int
become(const Ident *id)
{
	if (!id->set)
		return 0;
	if ((id->name[0] != '\0' ? initgroups(id->name, id->gid) :
	     setgroups(1, &id->gid)) < 0)
		return -1;
	if (setgid(id->gid) < 0 || setuid(id->uid) < 0)
		return -1;
	if (id->uid != 0 && setuid(0) == 0)
		return -1;
	return 0;
}

/* The largest job environment -e takes (sbatchd's own bound is lower). */
#define ENV_MAX (16u << 20)

/* -e FD: the job's environment, NUL-separated entries in a file sbatchd
 * made (launch.c), read whole; NULL on failure.  A root wrapper starts
 * with a fixed environment of its own and gives this one only to what
 * runs as the job's user. */
static char **
read_env(int fd)
{
	char *buf = NULL, **env;
	size_t len = 0, cap = 0, n = 0, k = 0;
	ssize_t r;

	for (;;) {
		if (len == cap) {
			char *more;

			cap = cap ? cap * 2 : 65536;
			if (cap > ENV_MAX || (more = realloc(buf, cap + 1)) == NULL) {
				free(buf);
				return NULL;
			}
			buf = more;
		}
		r = pread(fd, buf + len, cap - len, (off_t)len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\0';
	if ((env = calloc(n + 2, sizeof *env)) == NULL) {
		free(buf);
		return NULL;
	}
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		env[k++] = buf + i;
	return env;
}

/* In a hook's child running as LSB_PRE_POST_EXEC_USER: none of the user's
 * environment but LSF's own variables (LSB_*, LSF_*), so nothing the user
 * set (PATH, BASH_ENV, LD_*, ...) reaches a command an administrator
 * wrote. */
static void
hook_user_env(const Hooks *h)
{
	(void)clearenv();
	for (char **e = h->job_env; e != NULL && *e != NULL; e++)
		if (strncmp(*e, "LSB_", 4) == 0 || strncmp(*e, "LSF_", 4) == 0)
			(void)putenv(*e);
}

/* Options before STATUS_FD; returns the index of STATUS_FD, -1 on misuse. */
static int
parse_hooks(int argc, char **argv, Hooks *h)
{
	int i = 1;

	memset(h, 0, sizeof *h);
	h->post_fd = -1;
	if (i + 1 < argc && strcmp(argv[i], "-p") == 0) {
		h->post_fd = atoi(argv[i + 1]);
		i += 2;
	}
	if (i + 1 < argc && strcmp(argv[i], "-e") == 0) {
		if ((h->job_env = read_env(atoi(argv[i + 1]))) == NULL)
			return -1;
		i += 2;
	}
	while (i + 1 < argc && argv[i][0] == '-' &&
	       (argv[i][1] == 'U' || argv[i][1] == 'u') && argv[i][2] == '\0') {
		if (parse_ident(argv[i + 1], argv[i][1] == 'U' ? &h->job : &h->hook) < 0)
			return -1;
		i += 2;
	}
	if (h->job.set != h->hook.set || (h->job_env != NULL) != h->job.set)
		return -1;
	while (i + 1 < argc && argv[i][0] == '-' &&
	       (argv[i][1] == 't' || argv[i][1] == 'T')) {
		unsigned v = (unsigned)strtoul(argv[i + 1], NULL, 10);

		if (argv[i][1] == 't')
			h->pre_timeout_s = v;
		else
			h->post_timeout_s = v;
		i += 2;
	}
	while (i + 1 < argc && argv[i][0] == '-' &&
	       strchr("baBA", argv[i][1]) != NULL && argv[i][1] != '\0') {
		int pre = argv[i][1] == 'b' || argv[i][1] == 'B';
		int priv = argv[i][1] == 'B' || argv[i][1] == 'A';
		Hook *list = pre ? h->pre : h->post;
		int *n = pre ? &h->n_pre : &h->n_post;

		if (*n >= MAX_HOOKS || (priv && !h->hook.set))
			return -1;
		list[*n].level = atoi(argv[i] + 2);
		list[*n].as_hook_user = priv;
		list[*n].cmd = argv[i + 1];
		(*n)++;
		i += 2;
	}
	return argc - i >= 3 ? i : -1;
}

/* The post-exec sbatchd set since the start (-p): replaces or removes
 * the job's own (level 2), which runs before the queue's (level 1). */
static char override_cmd[8192];

static void
post_override(Hooks *h)
{
	ssize_t n;
	int at = -1;

	if (h->post_fd < 0)
		return;
	n = pread(h->post_fd, override_cmd, sizeof override_cmd - 1, 0);
	close(h->post_fd);
	if (n <= 0 || (override_cmd[0] != 'S' && override_cmd[0] != 'P' &&
	    override_cmd[0] != 'N'))
		return;
	override_cmd[n] = '\0';
	for (int i = 0; i < h->n_post; i++)
		if (h->post[i].level == 2)
			at = i;
	if (override_cmd[0] == 'N' || override_cmd[1] == '\0') {
		if (at >= 0) {
			memmove(&h->post[at], &h->post[at + 1],
			        (size_t)(h->n_post - at - 1) * sizeof h->post[0]);
			h->n_post--;
		}
		return;
	}
	if (at < 0) {
		if (h->n_post >= MAX_HOOKS)
			return;
		memmove(&h->post[1], &h->post[0], (size_t)h->n_post * sizeof h->post[0]);
		h->n_post++;
		at = 0;
	}
	h->post[at].level = 2;
	/* bmod -Ep: the job's own, as its user; the profile's as launch
	 * would run it. */
	h->post[at].as_hook_user = override_cmd[0] == 'P' && h->hook.set;
	h->post[at].cmd = override_cmd + 1;
}

/* An exit code, or 128+signal: what a shell would say. */
static int
status_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 255;
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for pid, at most timeout_s (0: for ever); FALSE when time ran out.
 * Polled: this program ignores the signals (SIGALRM too) by design. */
static int
wait_hook(pid_t pid, int *wstatus, unsigned timeout_s)
{
	long long deadline = now_ms() + (long long)timeout_s * 1000;
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	for (;;) {
		pid_t r = waitpid(pid, wstatus, timeout_s > 0 ? WNOHANG : 0);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR) {
			*wstatus = 255 << 8;
			return 1;
		}
		if (timeout_s > 0 && now_ms() >= deadline)
			return 0;
		if (r == 0)
			(void)nanosleep(&tick, NULL);
	}
}

/* Run one pre/post command and wait for it: its status_code(), or
 * HOOK_TIMED_OUT with *timed_out set. */
static int
run_hook(const Hooks *h, const Hook *hook, int exit_stat, unsigned timeout_s,
         int *timed_out)
{
	const char *cmd = hook->cmd;
	int level = hook->level;
	int wstatus = 0;
	pid_t pid = fork();

	if (pid < 0)
		return 255;
	if (pid == 0) {
		const char *path = getenv("PATH");
		char buf[4096];
		int fd;

		set_dispositions(0);
		if (become(hook->as_hook_user ? &h->hook : &h->job) < 0)
			_exit(255);
		if (hook->as_hook_user) {
			/* The administrator's command: its own PATH, umask and
			 * directory, never the user's. */
			hook_user_env(h);
			path = NULL;
			(void)umask(022);
		} else if (h->job_env != NULL) {
			environ = h->job_env;
			path = getenv("PATH");
		}
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != 0) {
			(void)dup2(fd, 0);
			close(fd);
		}
		if ((level == 1 || hook->as_hook_user) && chdir("/tmp") < 0)
			_exit(255);
		if (path != NULL && *path != '\0' && strlen(path) < sizeof buf - 64)
			snprintf(buf, sizeof buf, "%s:/bin:/usr/bin:/sbin:/usr/sbin", path);
		else
			snprintf(buf, sizeof buf, "/bin:/usr/bin:/sbin:/usr/sbin");
		(void)setenv("PATH", buf, 1);
		if (exit_stat >= 0) {
			snprintf(buf, sizeof buf, "%d", exit_stat);
			(void)setenv("LSB_JOBEXIT_STAT", buf, 1);
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (!wait_hook(pid, &wstatus, timeout_s)) {
		*timed_out = 1;
		return HOOK_TIMED_OUT;
	}
	return status_code(wstatus);
}

/* Wait for the command, reaping on the way the orphans re-parented to us
 * (we are a subreaper); ru is the command's own. */
static int
wait_command(pid_t cmd, int *wstatus, struct rusage *ru)
{
	for (;;) {
		pid_t p = wait4(-1, wstatus, 0, ru);

		if (p == cmd)
			return 0;
		if (p < 0 && errno != EINTR)
			return -1;
	}
}

/* The job is its process tree: what the command left running (even
 * outside its group: setsid) is re-parented to us, and the job lasts
 * until it is gone, as `cmd &` in the group keeps it running. */
static void
wait_tree(void)
{
	for (;;) {
		if (wait(NULL) < 0 && errno != EINTR)
			return;
	}
}

/* The record is written: a hook that ran out of time may have left
 * processes, so the whole group goes, this wrapper with it. */
static void
kill_group(void)
{
	(void)kill(0, SIGKILL);
	_exit(HOOK_TIMED_OUT);
}

/* A pre-exec failed: the command never runs; the record says which. */
static void
preexec_failed(int status_fd, int code, int level, int timed_out)
{
	char line[160];
	int len = snprintf(line, sizeof line, "exit=%d core=0 utime_us=0 stime_us=0 "
	                   "maxrss_kb=0 preexec=%d\n", code, level);

	if (len > 0 && len < (int)sizeof line && write(status_fd, line, (size_t)len) == len)
		(void)fsync(status_fd);
	if (timed_out)
		kill_group();
	_exit(code);
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	int status_fd, report_fd, wstatus = 0, first, post_status = 0, timed_out = 0;
	int prog, lost = 0;
	const char *path;
	IaRelay *relay = NULL;
	Hooks hooks;
	pid_t cmd;

	/* -i comes first (launch.c puts it there); the hooks follow. */
	if (argc > 2 && strcmp(argv[1], "-i") == 0) {
		int setup_fd = atoi(argv[2]);

		argc -= 2;
		argv += 2;
		first = parse_hooks(argc, argv, &hooks);
		if (first >= 0 && (relay = ia_relay_prepare(setup_fd)) == NULL) {
			report(atoi(argv[first + 1]), BS_STEP_FORK, errno);
			_exit(127);
		}
	} else {
		first = parse_hooks(argc, argv, &hooks);
	}
	if (first < 0) {
		fprintf(stderr, "usage: bs-jobwrap [-i SETUP_FD] [-p POST_FD] "
		        "[-e ENV_FD -U UID:GID:USER -u UID:GID:USER] [-t S] [-T S] "
		        "[-bN|-BN CMD]... [-aN|-AN CMD]... "
		        "STATUS_FD REPORT_FD [--argv0=NAME] PROGRAM [ARG...]\n");
		return 127;
	}
	status_fd = atoi(argv[first]);
	report_fd = atoi(argv[first + 1]);
	/* bsub -L: the program runs with argv[0] NAME ("-bash": a login
	 * shell) instead of its path. */
	prog = first + 2;
	if (strncmp(argv[prog], BS_JOBWRAP_ARGV0, strlen(BS_JOBWRAP_ARGV0)) == 0) {
		if (prog + 1 >= argc) {
			fprintf(stderr, "bs-jobwrap: --argv0 without a PROGRAM\n");
			return 127;
		}
		path = argv[prog + 1];
		argv[prog + 1] = argv[prog] + strlen(BS_JOBWRAP_ARGV0);
		prog++;
	} else {
		path = argv[prog];
	}
	(void)fcntl(status_fd, F_SETFD, FD_CLOEXEC);
	(void)fcntl(report_fd, F_SETFD, FD_CLOEXEC);
	if (hooks.post_fd >= 0)
		(void)fcntl(hooks.post_fd, F_SETFD, FD_CLOEXEC);
	set_dispositions(1);
	/* Orphans of the job come to us, not to sbatchd: while we live, every
	 * process of the job, in its group or not, descends from us, which is
	 * how sbatchd finds the tree.  Failure only loses that. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (hooks.n_pre > 0) {
		/* sbatchd waits for this descriptor's end; a pre-exec may be slow. */
		close(report_fd);
		report_fd = -1;
		for (int i = 0; i < hooks.n_pre; i++) {
			int code = run_hook(&hooks, &hooks.pre[i], -1,
			                    hooks.pre_timeout_s, &timed_out);

			if (code != 0)
				preexec_failed(status_fd, code, hooks.pre[i].level, timed_out);
		}
	}
	cmd = fork();
	if (cmd < 0) {
		if (report_fd >= 0)
			report(report_fd, BS_STEP_FORK, errno);
		_exit(127);
	}
	if (cmd == 0) {
		set_dispositions(0);
		if (relay != NULL)
			ia_relay_child(relay);
		if (become(&hooks.job) < 0) {
			if (report_fd >= 0)
				report(report_fd, BS_STEP_SETUID, errno);
			_exit(127);
		}
		if (hooks.job_env != NULL)
			environ = hooks.job_env;
		execv(path, argv + prog);
		if (report_fd >= 0)
			report(report_fd, BS_STEP_EXEC, errno);
		_exit(127);
	}
	/* Hold nothing the job uses: its files, its terminal-less stdio;
	 * a post-exec needs the job's output, so it keeps 1 and 2. */
	if (report_fd >= 0)
		close(report_fd);
	close(0);
	/* A post-exec set later (-p) needs the output too. */
	if (hooks.n_post == 0 && hooks.post_fd < 0) {
		close(1);
		close(2);
	}
	memset(&ru, 0, sizeof ru);
	if (relay != NULL)
		lost = ia_relay_run(relay, cmd, &wstatus, &ru);
	else
		if (wait_command(cmd, &wstatus, &ru) < 0)
			_exit(127);
	post_override(&hooks);
	for (int i = 0; i < hooks.n_post && post_status == 0; i++)
		post_status = run_hook(&hooks, &hooks.post[i], wstatus,
		                       hooks.post_timeout_s, &timed_out);
	record(status_fd, wstatus, &ru, post_status, lost);
	close(status_fd);
	if (timed_out)
		kill_group();
	wait_tree();
	mirror(wstatus);
	return 127;
}
