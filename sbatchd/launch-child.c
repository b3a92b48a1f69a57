/*
 * Between fork() and exec(): async-signal-safe system calls only.
 *
 * Order matters and is chosen for safety:
 *  1. setsid(), so the job is its own session and process group (pgid =
 *     sid = pid) and every control action can address the whole group.
 *  2. Unblock every signal and restore default dispositions: the child
 *     inherits sbatchd's blocked SIGCHLD and ignored SIGPIPE, and exec keeps
 *     both (GLib's spawn does not reset them either).
 *  3. Limits, nice and umask while still root, so hard limits may be raised
 *     and the nice value lowered as the queue says; then the job's cgroup
 *     (memory limits), whose cgroup.procs only root may write.
 *  4. setgroups/setgid/setuid: the groups list was computed by the parent
 *     with getgrouplist() because initgroups() reads /etc/group and
 *     allocates, which is not safe here.
 *  5. chdir and the standard streams as the job's owner, so a user cannot
 *     make sbatchd create or truncate a file the user may not write.
 *  6. exec the shell, or bs-jobwrap (see launch.h and jobwrap.c) which
 *     keeps the status record and the report pipe and runs the shell.
 * Any failure writes a BsChildReport to the report pipe and exits 127.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launch-child.h"

G_GNUC_NORETURN static void
child_fail(const BsChildPlan *plan, BsChildStep step, int err, int index)
{
	BsChildReport rep = { .step = step, .err = err, .index = index };
	ssize_t n;

	do {
		n = write(plan->report_fd, &rep, sizeof rep);
	} while (n < 0 && errno == EINTR);
	_exit(127);
}

static void
child_reset_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	/* Some numbers are reserved by the C library and refuse a handler;
	 * their failure is harmless. */
	for (int sig = 1; sig < NSIG; sig++) {
		if (sig != SIGKILL && sig != SIGSTOP)
			(void)sigaction(sig, &sa, NULL);
	}
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
}

static void
child_limits(const BsChildPlan *plan)
{
	for (guint i = 0; i < plan->n_limits; i++) {
		if (setrlimit(plan->limits[i].resource, &plan->limits[i].limit) < 0)
			child_fail(plan, BS_STEP_RLIMIT, errno, (int)i);
	}
	if (plan->nice != 0 && setpriority(PRIO_PROCESS, 0, plan->nice) < 0)
		child_fail(plan, BS_STEP_NICE, errno, 0);
	if (plan->set_umask)
		umask(plan->umask);
}

/* Into the job's cgroup while still root: write our pid, formatted by
 * hand (no stdio here).  Best effort, see launch.h. */
static void
child_cgroup(const BsChildPlan *plan)
{
	char buf[24];
	size_t i = sizeof buf;
	unsigned long pid = (unsigned long)getpid();
	int fd;

	if (plan->cgroup_procs == NULL)
		return;
	do {
		buf[--i] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid > 0 && i > 0);
	fd = open(plan->cgroup_procs, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	(void)!write(fd, buf + i, sizeof buf - i);
	close(fd);
}

static void
child_identity(const BsChildPlan *plan)
{
	if (!plan->switch_ids)
		return;
	if (setgroups(plan->n_groups, plan->groups) < 0)
		child_fail(plan, BS_STEP_SETGROUPS, errno, 0);
	if (plan->root_wrapper) {
		/* Saved ids stay root: child_root_again() takes them back. */
		if (setresgid(plan->gid, plan->gid, 0) < 0)
			child_fail(plan, BS_STEP_SETGID, errno, 0);
		if (setresuid(plan->uid, plan->uid, 0) < 0)
			child_fail(plan, BS_STEP_SETUID, errno, 0);
		return;
	}
	if (setgid(plan->gid) < 0)
		child_fail(plan, BS_STEP_SETGID, errno, 0);
	if (setuid(plan->uid) < 0)
		child_fail(plan, BS_STEP_SETUID, errno, 0);
	/* A non-root job must not be able to take root back. */
	if (plan->uid != 0 && setuid(0) == 0)
		child_fail(plan, BS_STEP_SETUID, EPERM, 0);
}

/* The owner's steps are done: root again for bs-jobwrap, which gives
 * each child it starts its own identity (jobwrap.c -U/-u). */
static void
child_root_again(const BsChildPlan *plan)
{
	static const gid_t root_group = 0;

	if (!plan->switch_ids || !plan->root_wrapper)
		return;
	if (setresuid(0, 0, 0) < 0)
		child_fail(plan, BS_STEP_SETUID, errno, 0);
	if (setresgid(0, 0, 0) < 0)
		child_fail(plan, BS_STEP_SETGID, errno, 0);
	if (setgroups(1, &root_group) < 0)
		child_fail(plan, BS_STEP_SETGROUPS, errno, 0);
}

/* bsub -outdir: made by the owner, so it is the owner's and a user cannot
 * have sbatchd create a directory where the user may not. */
static void
child_mkdirs(const BsChildPlan *plan)
{
	for (guint i = 0; plan->mkdirs != NULL && plan->mkdirs[i] != NULL; i++) {
		if (mkdir(plan->mkdirs[i], 0777) < 0 && errno != EEXIST)
			child_fail(plan, BS_STEP_OUTDIR, errno, (int)i);
	}
}

/* Open path on target (0, 1 or 2) with flags.  O_NONBLOCK so that a FIFO
 * without a peer fails or returns at once instead of hanging the launch
 * (sbatchd waits for the exec); the job then gets a blocking descriptor. */
static int
child_open_on(const char *path, int flags, int target)
{
	int fd = open(path, flags | O_NONBLOCK, 0666);

	if (fd < 0)
		return -1;
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (fd != target) {
		if (dup2(fd, target) < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		close(fd);
	}
	return 0;
}

static void
child_stdio(const BsChildPlan *plan)
{
	if (child_open_on(plan->stdin_path, O_RDONLY, 0) < 0)
		child_fail(plan, BS_STEP_STDIN, errno, 0);
	if (child_open_on(plan->stdout_path, O_WRONLY | O_CREAT | plan->stdout_flags, 1) < 0)
		child_fail(plan, BS_STEP_STDOUT, errno, 0);
	if (plan->stderr_path == NULL) {
		if (dup2(1, 2) < 0)
			child_fail(plan, BS_STEP_STDERR, errno, 0);
	} else if (child_open_on(plan->stderr_path,
	                         O_WRONLY | O_CREAT | plan->stderr_flags, 2) < 0) {
		child_fail(plan, BS_STEP_STDERR, errno, 0);
	}
}

/* bs-jobwrap inherits exactly these two descriptors. */
static void
child_keep_fd(const BsChildPlan *plan, int fd)
{
	int flags = fcntl(fd, F_GETFD);

	if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
		child_fail(plan, BS_STEP_EXEC_WRAPPER, errno, 0);
}

/* The parent's go (launch.h, on_forked): one byte once it has recorded
 * the run.  End of file means it died first: nobody would know this run,
 * so it must not start. */
static void
child_wait_go(const BsChildPlan *plan)
{
	char c;
	ssize_t n;

	if (plan->go_fd < 0)
		return;
	close(plan->go_wr_fd);   /* else a dead parent's end of file never comes */
	do
		n = read(plan->go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127);
	close(plan->go_fd);
}

void
bs_child_run(const BsChildPlan *plan)
{
	if (setsid() < 0)
		child_fail(plan, BS_STEP_SETSID, errno, 0);
	child_reset_signals();
	child_limits(plan);
	child_cgroup(plan);
	child_identity(plan);
	child_mkdirs(plan);
	if (plan->cwd != NULL && chdir(plan->cwd) < 0) {
		int e = errno;   /* the reason is the job's directory's */

		if (plan->cwd_fallback == NULL || chdir(plan->cwd_fallback) < 0)
			child_fail(plan, BS_STEP_CHDIR, e, 0);
	}
	if (plan->script != NULL && access(plan->script, R_OK) < 0)
		child_fail(plan, BS_STEP_SCRIPT, errno, 0);
	child_stdio(plan);
	child_root_again(plan);
	/* Nothing of sbatchd's may leak into the job. */
	(void)close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	if (plan->wrapped) {
		child_keep_fd(plan, plan->status_fd);
		child_keep_fd(plan, plan->report_fd);
		if (plan->interactive_fd >= 0)
			child_keep_fd(plan, plan->interactive_fd);
		if (plan->post_fd >= 0)
			child_keep_fd(plan, plan->post_fd);
		if (plan->env_fd >= 0)
			child_keep_fd(plan, plan->env_fd);
	}
	child_wait_go(plan);
	execve(plan->path, plan->argv, plan->envp);
	child_fail(plan, plan->wrapped ? BS_STEP_EXEC_WRAPPER : BS_STEP_EXEC, errno, 0);
}
