/*
 * bs-jobwrap: the leader of a job launched with a status record.
 *
 *   bs-jobwrap [-i SETUP_FD] STATUS_FD REPORT_FD PROGRAM ARGS...
 *
 * sbatchd's launching child execs this instead of the shell when the job
 * has a status path.  It runs PROGRAM (the shell) as its child in the same
 * process group, waits for it, writes one line to STATUS_FD
 *
 *   exit=N core=0 utime_us=U stime_us=S maxrss_kb=M      (or signal=N ...)
 *
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
 * With -i it is also the relay of an interactive job (bsub -I, -Ip, -Is):
 * SETUP_FD is sbatchd's setup pipe, see irelay.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
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
record(int fd, int wstatus, const struct rusage *ru)
{
	char line[256];
	int len;

	len = snprintf(line, sizeof line, "%s=%d core=%d utime_us=%lld stime_us=%lld maxrss_kb=%ld\n",
	               WIFEXITED(wstatus) ? "exit" : "signal",
	               WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus),
	               WCOREDUMP(wstatus) ? 1 : 0, tv_us(&ru->ru_utime),
	               tv_us(&ru->ru_stime), ru->ru_maxrss);
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

int
main(int argc, char **argv)
{
	struct rusage ru;
	int status_fd, report_fd, wstatus = 0;
	IaRelay *relay = NULL;
	pid_t cmd;

	if (argc > 2 && strcmp(argv[1], "-i") == 0) {
		int setup_fd = atoi(argv[2]);

		argc -= 2;
		argv += 2;
		if (argc >= 4 && (relay = ia_relay_prepare(setup_fd)) == NULL) {
			report(atoi(argv[2]), BS_STEP_FORK, errno);
			_exit(127);
		}
	}
	if (argc < 4) {
		fprintf(stderr, "usage: bs-jobwrap [-i SETUP_FD] STATUS_FD REPORT_FD PROGRAM [ARG...]\n");
		return 127;
	}
	status_fd = atoi(argv[1]);
	report_fd = atoi(argv[2]);
	(void)fcntl(status_fd, F_SETFD, FD_CLOEXEC);
	(void)fcntl(report_fd, F_SETFD, FD_CLOEXEC);
	set_dispositions(1);
	cmd = fork();
	if (cmd < 0) {
		report(report_fd, BS_STEP_FORK, errno);
		_exit(127);
	}
	if (cmd == 0) {
		set_dispositions(0);
		if (relay != NULL)
			ia_relay_child(relay);
		execv(argv[3], argv + 3);
		report(report_fd, BS_STEP_EXEC, errno);
		_exit(127);
	}
	/* Hold nothing the job uses: its files, its terminal-less stdio. */
	close(report_fd);
	close(0);
	close(1);
	close(2);
	memset(&ru, 0, sizeof ru);
	if (relay != NULL)
		ia_relay_run(relay, cmd, &wstatus, &ru);
	else
		while (wait4(cmd, &wstatus, 0, &ru) < 0) {
			if (errno != EINTR)
				_exit(127);
		}
	record(status_fd, wstatus, &ru);
	close(status_fd);
	mirror(wstatus);
	return 127;
}
