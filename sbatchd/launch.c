/*
 * Launching a job: the parent side.  See launch.h for the contract and
 * launch-child.c for what happens between fork and exec.
 *
 * Why fork()/execve() and not g_spawn_async(): sbatchd owns reaping with
 * waitpid(-1) (reaper.c), which GLib's child watches forbid; the child must
 * open the job's files after becoming the job's owner and report which
 * setup step failed with its errno (g_spawn's child_setup can only _exit,
 * leaving a bare exit code); and the report pipe must reach through
 * bs-jobwrap to the shell's exec.  The price is writing the post-fork code
 * ourselves, which stays in one small async-signal-safe file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"
#include "launch-child.h"
#include "launch-report.h"
#include "util/error.h"
#include "util/writeall.h"

#define DEFAULT_SHELL "/bin/sh"
#ifndef BS_LIBEXECDIR
#define BS_LIBEXECDIR "/usr/local/libexec"
#endif
#define DEFAULT_WRAPPER BS_LIBEXECDIR "/bs-jobwrap"

/* Everything the parent allocates for one launch, freed in one place. */
typedef struct {
	BsChildPlan plan;
	gid_t *groups;
	char *stdin_path;
	char *stdout_path;
	char *stderr_path;
	char *cmdline;
	char **argv;
	char **envp;
	int report_rd;
} LaunchPrep;

char *
bs_launch_expand_path(const char *tmpl, gint64 job_id, int array_index)
{
	GString *out = g_string_sized_new(strlen(tmpl) + 16);

	for (const char *p = tmpl; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 'J') {
			g_string_append_printf(out, "%" G_GINT64_FORMAT, job_id);
			p++;
		} else if (p[0] == '%' && p[1] == 'I') {
			g_string_append_printf(out, "%d", array_index);
			p++;
		} else {
			g_string_append_c(out, *p);
		}
	}
	return g_string_free(out, FALSE);
}

char *
bs_launch_command_line(const BsLaunchSpec *spec)
{
	g_autofree char *user = NULL;
	const char *mark;

	if (spec->script != NULL) {
		g_autofree char *quoted = g_shell_quote(spec->script);
		const char *shell = spec->shell ? spec->shell : DEFAULT_SHELL;

		user = g_strdup_printf("%s %s", shell, quoted);
	} else {
		user = g_strdup(spec->command ? spec->command : "");
	}
	if (spec->job_starter == NULL || spec->job_starter[0] == '\0')
		return g_steal_pointer(&user);
	mark = strstr(spec->job_starter, "%USRCMD");
	if (mark == NULL)
		return g_strdup_printf("%s %s", spec->job_starter, user);
	return g_strdup_printf("%.*s%s%s", (int)(mark - spec->job_starter),
	                       spec->job_starter, user, mark + strlen("%USRCMD"));
}

static gboolean
launch_check_spec(const BsLaunchSpec *spec, GError **error)
{
	if ((spec->command == NULL) == (spec->script == NULL)) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		            "job %" G_GINT64_FORMAT ": exactly one of a command or a script is needed",
		            spec->job_id);
		return FALSE;
	}
	if (spec->uid == 0 && !spec->allow_root) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED,
		            "job %" G_GINT64_FORMAT ": refusing to run a job as root (uid 0)",
		            spec->job_id);
		return FALSE;
	}
	if (geteuid() != 0 && spec->uid != geteuid()) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED,
		            "job %" G_GINT64_FORMAT ": cannot run as uid %u: sbatchd is not root",
		            spec->job_id, (unsigned int)spec->uid);
		return FALSE;
	}
	return TRUE;
}

/* What initgroups(user, gid) would install, computed before the fork. */
static gboolean
launch_groups(const BsLaunchSpec *spec, LaunchPrep *p, GError **error)
{
	int n = 32;

	if (spec->user == NULL) {
		p->groups = g_new(gid_t, 1);
		p->groups[0] = spec->gid;
		p->plan.n_groups = 1;
		return TRUE;
	}
	for (;;) {
		int want = n;

		p->groups = g_renew(gid_t, p->groups, (gsize)n);
		if (getgrouplist(spec->user, spec->gid, p->groups, &n) >= 0)
			break;
		if (n <= want)
			n = want * 2;
		if (n > 65536) {
			g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
			            "cannot list the groups of user %s", spec->user);
			return FALSE;
		}
	}
	p->plan.n_groups = (size_t)n;
	return TRUE;
}

static void
launch_streams(const BsLaunchSpec *spec, LaunchPrep *p)
{
	gint64 id = spec->job_id;
	int idx = spec->array_index;

	p->stdin_path = spec->stdin_path ?
	                bs_launch_expand_path(spec->stdin_path, id, idx) :
	                g_strdup("/dev/null");
	if (spec->stdout_path != NULL) {
		p->stdout_path = bs_launch_expand_path(spec->stdout_path, id, idx);
		p->plan.stdout_flags = spec->stdout_overwrite ? O_TRUNC : O_APPEND;
	} else if (spec->spool_path != NULL) {
		p->stdout_path = bs_launch_expand_path(spec->spool_path, id, idx);
		p->plan.stdout_flags = O_TRUNC;
	} else {
		p->stdout_path = g_strdup("/dev/null");
		p->plan.stdout_flags = 0;
	}
	if (spec->stderr_path != NULL) {
		p->stderr_path = bs_launch_expand_path(spec->stderr_path, id, idx);
		p->plan.stderr_flags = spec->stderr_overwrite ? O_TRUNC : O_APPEND;
		/* The same file twice would clobber itself: share one descriptor. */
		if (strcmp(p->stderr_path, p->stdout_path) == 0)
			g_clear_pointer(&p->stderr_path, g_free);
	}
	p->plan.stdin_path = p->stdin_path;
	p->plan.stdout_path = p->stdout_path;
	p->plan.stderr_path = p->stderr_path;
}

/* The program that runs the command line: -L's login shell, else the
 * shell. */
static const char *
launch_shell(const BsLaunchSpec *spec)
{
	if (spec->login_shell != NULL)
		return spec->login_shell;
	return spec->shell ? spec->shell : DEFAULT_SHELL;
}

/* "-bash" for /bin/bash: how a shell learns it is a login shell. */
static char *
login_argv0(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);

	return g_strconcat("-", base, NULL);
}

static gboolean
has(const char *c)
{
	return c != NULL && *c != '\0';
}

/* A hook runs as LSB_PRE_POST_EXEC_USER: the queue's, or the profile's. */
static gboolean
launch_hook_privileged(const BsLaunchSpec *spec, gboolean post, int level)
{
	if (spec->hook_user == NULL || spec->hook_uid == spec->uid)
		return FALSE;
	if (level == 0)
		return TRUE;
	return post ? spec->post_exec_profile : spec->pre_exec_profile;
}

static gboolean
launch_hooks_other_user(const BsLaunchSpec *spec)
{
	for (int i = 0; i < 2; i++)
		if ((has(spec->pre_exec[i]) && launch_hook_privileged(spec, FALSE, i)) ||
		    (has(spec->post_exec[i]) && launch_hook_privileged(spec, TRUE, i)))
			return TRUE;
	/* A bmod may bring the profile's post-exec back (job-modify.c). */
	return spec->profile_post_exec && spec->hook_user != NULL &&
	    spec->hook_uid != spec->uid;
}

/* bs-jobwrap's -U (the job's identity) and -u (the hooks' user). */
static void
launch_identities(const BsLaunchSpec *spec, GPtrArray *argv)
{
	g_ptr_array_add(argv, g_strdup("-U"));
	g_ptr_array_add(argv, g_strdup_printf("%u:%u:%s", (unsigned)spec->uid,
	    (unsigned)spec->gid, spec->user ? spec->user : ""));
	g_ptr_array_add(argv, g_strdup("-u"));
	g_ptr_array_add(argv, g_strdup_printf("%u:%u:%s", (unsigned)spec->hook_uid,
	    (unsigned)spec->hook_gid, spec->hook_user));
}

/* bs-jobwrap's -bN/-aN options: pre-exec queue then job, post-exec job
 * then queue (LSF's order).  With a root wrapper, -BN/-AN: the hook runs
 * as the hooks' user. */
static void
launch_hooks(const BsLaunchSpec *spec, gboolean root_wrapper, GPtrArray *argv)
{
	static const int pre_order[] = { 0, 1 }, post_order[] = { 1, 0 };

	if (spec->pre_timeout_s > 0) {
		g_ptr_array_add(argv, g_strdup("-t"));
		g_ptr_array_add(argv, g_strdup_printf("%u", spec->pre_timeout_s));
	}
	if (spec->post_timeout_s > 0) {
		g_ptr_array_add(argv, g_strdup("-T"));
		g_ptr_array_add(argv, g_strdup_printf("%u", spec->post_timeout_s));
	}
	for (int i = 0; i < 2; i++) {
		const char *c = spec->pre_exec[pre_order[i]];

		if (c != NULL && *c != '\0') {
			g_ptr_array_add(argv, g_strdup_printf("-%c%d", root_wrapper &&
			    launch_hook_privileged(spec, FALSE, pre_order[i]) ? 'B' : 'b',
			    pre_order[i] + 1));
			g_ptr_array_add(argv, g_strdup(c));
		}
	}
	for (int i = 0; i < 2; i++) {
		const char *c = spec->post_exec[post_order[i]];

		if (c != NULL && *c != '\0') {
			g_ptr_array_add(argv, g_strdup_printf("-%c%d", root_wrapper &&
			    launch_hook_privileged(spec, TRUE, post_order[i]) ? 'A' : 'a',
			    post_order[i] + 1));
			g_ptr_array_add(argv, g_strdup(c));
		}
	}
}

static const char *const root_wrapper_env[] = {
	"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL
};

static int launch_high_fd(int fd);

/* The job's environment for a root wrapper, NUL-separated entries in an
 * anonymous file it reads whole at its start: -1 on failure. */
static int
launch_env_fd(char **envp)
{
	int fd = memfd_create("bs-jobenv", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	for (guint i = 0; envp[i] != NULL; i++)
		if (!bs_write_all(fd, envp[i], strlen(envp[i]) + 1, NULL)) {
			close(fd);
			return -1;
		}
	return launch_high_fd(fd);
}

static void
launch_argv_env(const BsLaunchSpec *spec, LaunchPrep *p)
{
	char num[32];

	GPtrArray *argv = g_ptr_array_new();

	p->envp = spec->env ? g_strdupv(spec->env) : g_new0(char *, 1);
	g_snprintf(num, sizeof num, "%" G_GINT64_FORMAT, spec->job_id);
	p->envp = g_environ_setenv(p->envp, "LSB_JOBID", num, TRUE);
	if (spec->array_index > 0) {
		g_snprintf(num, sizeof num, "%d", spec->array_index);
		p->envp = g_environ_setenv(p->envp, "LSB_JOBINDEX", num, TRUE);
	}
	if (p->plan.root_wrapper)
		p->plan.env_fd = launch_env_fd(p->envp);
	p->cmdline = bs_launch_command_line(spec);
	if (p->plan.wrapped) {
		g_ptr_array_add(argv, g_strdup(spec->wrapper ? spec->wrapper : DEFAULT_WRAPPER));
		if (p->plan.interactive_fd >= 0) {
			g_ptr_array_add(argv, g_strdup("-i"));
			g_ptr_array_add(argv, g_strdup_printf("%d", p->plan.interactive_fd));
		}
		if (p->plan.post_fd >= 0) {
			g_ptr_array_add(argv, g_strdup("-p"));
			g_ptr_array_add(argv, g_strdup_printf("%d", p->plan.post_fd));
		}
		if (p->plan.root_wrapper) {
			g_ptr_array_add(argv, g_strdup("-e"));
			g_ptr_array_add(argv, g_strdup_printf("%d", p->plan.env_fd));
			launch_identities(spec, argv);
		}
		launch_hooks(spec, p->plan.root_wrapper, argv);
		g_ptr_array_add(argv, g_strdup_printf("%d", p->plan.status_fd));
		g_ptr_array_add(argv, g_strdup_printf("%d", p->plan.report_fd));
		if (spec->login_shell != NULL) {
			g_autofree char *name = login_argv0(spec->login_shell);

			g_ptr_array_add(argv, g_strconcat(BS_JOBWRAP_ARGV0, name,
			    NULL));
		}
	}
	if (spec->login_shell != NULL && !p->plan.wrapped)
		g_ptr_array_add(argv, login_argv0(spec->login_shell));
	else
		g_ptr_array_add(argv, g_strdup(launch_shell(spec)));
	g_ptr_array_add(argv, g_strdup("-c"));
	g_ptr_array_add(argv, g_strdup(p->cmdline));
	g_ptr_array_add(argv, NULL);
	p->argv = (char **)g_ptr_array_free(argv, FALSE);
	/* Unwrapped, a login shell's argv[0] is "-name", not its path. */
	p->plan.path = !p->plan.wrapped && spec->login_shell != NULL ?
	    spec->login_shell : p->argv[0];
	p->plan.argv = p->argv;
	/* A root wrapper starts with nothing of the user's environment (the
	 * loader would honour LD_PRELOAD and its kind in a root process); it
	 * gives the job's to the job's processes only (-e). */
	p->plan.envp = p->plan.root_wrapper ? (char *const *)root_wrapper_env :
	    p->envp;
}

/* A descriptor the child's dup2() onto 0..2 can never hit. */
static int
launch_high_fd(int fd)
{
	int high;

	if (fd < 0 || fd >= 3)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return high;
}

static gboolean
launch_open_status(const BsLaunchSpec *spec, LaunchPrep *p, GError **error)
{
	int fd;

	p->plan.status_fd = -1;
	if (spec->status_path == NULL)
		return TRUE;
	fd = open(spec->status_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	fd = launch_high_fd(fd);
	if (fd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create status file %s: %s",
		            spec->status_path, g_strerror(errno));
		return FALSE;
	}
	p->plan.status_fd = fd;
	p->plan.post_fd = -1;
	if (spec->post_override_path == NULL)
		return TRUE;
	/* Created empty by sbatchd (root), read by the wrapper (the job's
	 * user) through this descriptor only. */
	fd = open(spec->post_override_path, O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0)
		close(fd);
	fd = open(spec->post_override_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	fd = launch_high_fd(fd);
	if (fd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s",
		            spec->post_override_path, g_strerror(errno));
		return FALSE;
	}
	p->plan.post_fd = fd;
	return TRUE;
}

static gboolean
launch_prepare(const BsLaunchSpec *spec, LaunchPrep *p, GError **error)
{
	int fds[2];

	p->plan.report_fd = -1;
	p->report_rd = -1;
	p->plan.switch_ids = geteuid() == 0;
	p->plan.uid = spec->uid;
	p->plan.gid = spec->gid;
	if (p->plan.switch_ids && !launch_groups(spec, p, error))
		return FALSE;
	p->plan.groups = p->groups;
	p->plan.limits = spec->limits;
	p->plan.n_limits = spec->limits ? spec->n_limits : 0;
	p->plan.cgroup_procs = spec->cgroup_procs;
	p->plan.nice = spec->nice;
	p->plan.set_umask = spec->set_umask;
	p->plan.umask = spec->umask;
	p->plan.cwd = spec->cwd;
	p->plan.cwd_fallback = spec->cwd_fallback;
	p->plan.mkdirs = spec->mkdirs;
	p->plan.script = spec->script;
	launch_streams(spec, p);
	if (!launch_open_status(spec, p, error))
		return FALSE;
	p->plan.wrapped = p->plan.status_fd >= 0;
	/* Not for an interactive job: its wrapper relays the user's terminal
	 * traffic (irelay.c), which a root process must not handle; its
	 * hooks run as the job's user. */
	p->plan.root_wrapper = p->plan.wrapped && p->plan.switch_ids &&
	    spec->interactive_fd <= 0 && launch_hooks_other_user(spec);
	if (spec->interactive_fd > 0) {
		if (!p->plan.wrapped) {
			g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
			    "an interactive job needs the job wrapper");
			return FALSE;
		}
		p->plan.interactive_fd = fcntl(spec->interactive_fd, F_DUPFD_CLOEXEC, 3);
		if (p->plan.interactive_fd < 0) {
			g_set_error(error, BS_ERROR, BS_ERROR_IO,
			    "cannot pass the interactive setup: %s", g_strerror(errno));
			return FALSE;
		}
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create a pipe: %s",
		            g_strerror(errno));
		return FALSE;
	}
	p->report_rd = launch_high_fd(fds[0]);
	p->plan.report_fd = launch_high_fd(fds[1]);
	if (p->report_rd < 0 || p->plan.report_fd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create a pipe: %s",
		            g_strerror(errno));
		return FALSE;
	}
	launch_argv_env(spec, p);
	if (p->plan.root_wrapper && p->plan.env_fd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO,
		    "cannot pass the job's environment to its wrapper: %s",
		    g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

static void
launch_prep_clear(LaunchPrep *p)
{
	if (p->plan.status_fd >= 0)
		close(p->plan.status_fd);
	if (p->plan.report_fd >= 0)
		close(p->plan.report_fd);
	if (p->plan.interactive_fd >= 0)
		close(p->plan.interactive_fd);
	if (p->plan.post_fd >= 0)
		close(p->plan.post_fd);
	if (p->plan.env_fd >= 0)
		close(p->plan.env_fd);
	if (p->report_rd >= 0)
		close(p->report_rd);
	g_free(p->groups);
	g_free(p->stdin_path);
	g_free(p->stdout_path);
	g_free(p->stderr_path);
	g_free(p->cmdline);
	g_strfreev(p->argv);
	g_strfreev(p->envp);
}

static void
launch_report_error(const BsLaunchSpec *spec, const LaunchPrep *p,
                    const BsChildReport *rep, GError **error)
{
	const char *why = g_strerror(rep->err);
	/* argv is [wrapper, [-i, fd,] hooks..., fd, fd, [--argv0=-name]]
	 * shell, -c, command */
	const char *shell = launch_shell(spec);

	switch ((BsChildStep)rep->step) {
	case BS_STEP_SETSID:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create a session: %s", why);
		break;
	case BS_STEP_RLIMIT:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot set resource limit %d: %s",
		            rep->index >= 0 && (guint)rep->index < p->plan.n_limits ?
		            p->plan.limits[rep->index].resource : -1, why);
		break;
	case BS_STEP_NICE:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot set nice value %d: %s",
		            spec->nice, why);
		break;
	case BS_STEP_SETGROUPS:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot set the groups of %s: %s",
		            spec->user ? spec->user : "the job owner", why);
		break;
	case BS_STEP_SETGID:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot switch to gid %u: %s",
		            (unsigned int)spec->gid, why);
		break;
	case BS_STEP_SETUID:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot switch to uid %u: %s",
		            (unsigned int)spec->uid, why);
		break;
	case BS_STEP_CHDIR:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot chdir to %s: %s", spec->cwd, why);
		break;
	case BS_STEP_STDIN:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot open input file %s: %s",
		            p->stdin_path, why);
		break;
	case BS_STEP_STDOUT:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot open output file %s: %s",
		            p->stdout_path, why);
		break;
	case BS_STEP_STDERR:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot open error file %s: %s",
		            p->stderr_path ? p->stderr_path : p->stdout_path, why);
		break;
	case BS_STEP_SCRIPT:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot read job script %s: %s",
		            spec->script, why);
		break;
	case BS_STEP_EXEC_WRAPPER:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot execute the job wrapper %s: %s",
		            p->argv[0], why);
		break;
	case BS_STEP_FORK:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "job wrapper cannot fork: %s", why);
		break;
	case BS_STEP_OUTDIR:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create output directory %s: %s",
		            spec->mkdirs != NULL && rep->index >= 0 &&
		            (guint)rep->index < g_strv_length((char **)spec->mkdirs) ?
		            spec->mkdirs[rep->index] : "?", why);
		break;
	case BS_STEP_EXEC:
	default:
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot execute %s: %s", shell, why);
		break;
	}
}

/* Wait until the job exec'd (EOF) or a report arrives; the report pipe is
 * close-on-exec, so EOF means every process that held it has exec'd or
 * exited without a word. */
static gboolean
launch_wait_report(int fd, BsChildReport *rep)
{
	size_t got = 0;

	while (got < sizeof *rep) {
		ssize_t n = read(fd, (char *)rep + got, sizeof *rep - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got == sizeof *rep;
}

gboolean
bs_launch(const BsLaunchSpec *spec, pid_t *pgid_out, GError **error)
{
	LaunchPrep p;
	BsChildReport rep;
	gboolean ok = FALSE;
	pid_t pid;
	int go[2] = { -1, -1 };

	memset(&p, 0, sizeof p);
	p.plan.status_fd = -1;
	p.plan.report_fd = -1;
	p.plan.interactive_fd = -1;
	p.plan.post_fd = -1;
	p.plan.env_fd = -1;
	p.plan.go_fd = -1;
	p.plan.go_wr_fd = -1;
	p.report_rd = -1;
	if (spec->failed_step != NULL)
		*spec->failed_step = 0;
	if (!launch_check_spec(spec, error) || !launch_prepare(spec, &p, error))
		goto out;
	if (spec->on_forked != NULL) {
		if (pipe2(go, O_CLOEXEC) < 0) {
			g_set_error(error, BS_ERROR, BS_ERROR_IO,
			    "cannot create a pipe: %s", g_strerror(errno));
			goto out;
		}
		p.plan.go_fd = go[0];
		p.plan.go_wr_fd = go[1];
	}
	pid = fork();
	if (pid < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot fork: %s", g_strerror(errno));
		goto out;
	}
	if (pid == 0)
		bs_child_run(&p.plan);
	close(p.plan.report_fd);
	p.plan.report_fd = -1;
	if (spec->on_forked != NULL) {
		spec->on_forked(pid, spec->on_forked_data);
		(void)bs_write_all(go[1], "g", 1, NULL);
	}
	if (launch_wait_report(p.report_rd, &rep)) {
		launch_report_error(spec, &p, &rep, error);
		if (spec->failed_step != NULL)
			*spec->failed_step = rep.step;
		/* The child (and a wrapper's command) exit at once: reap here so
		 * no failed launch leaves a zombie for the reaper to puzzle over. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		goto out;
	}
	*pgid_out = pid;
	ok = TRUE;
out:
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	launch_prep_clear(&p);
	return ok;
}

BsExitStatus
bs_exit_from_wait_status(int wstatus)
{
	BsExitStatus st = { .kind = BS_EXIT_UNKNOWN };

	if (WIFEXITED(wstatus)) {
		st.kind = BS_EXIT_CODE;
		st.code = WEXITSTATUS(wstatus);
	} else if (WIFSIGNALED(wstatus)) {
		st.kind = BS_EXIT_SIGNAL;
		st.signo = WTERMSIG(wstatus);
		st.core = WCOREDUMP(wstatus) ? TRUE : FALSE;
	}
	return st;
}

/* One "key=value" of a record; FALSE when key is absent or malformed. */
static gboolean
record_field(char **fields, const char *key, gint64 *out)
{
	gsize klen = strlen(key);

	for (char **f = fields; *f != NULL; f++) {
		if (strncmp(*f, key, klen) == 0 && (*f)[klen] == '=')
			return g_ascii_string_to_signed(*f + klen + 1, 10, 0, G_MAXINT64,
			                                out, NULL);
	}
	return FALSE;
}

static gboolean
record_parse(const char *line, BsStatusRecord *out)
{
	g_auto(GStrv) fields = g_strsplit(line, " ", -1);
	gint64 num, core, lost = 0;

	if (record_field(fields, "exit", &num) && num <= 255) {
		out->exit.kind = BS_EXIT_CODE;
		out->exit.code = (int)num;
	} else if (record_field(fields, "signal", &num) && num < 128) {
		out->exit.kind = BS_EXIT_SIGNAL;
		out->exit.signo = (int)num;
	} else {
		return FALSE;
	}
	if (!record_field(fields, "core", &core) ||
	    !record_field(fields, "utime_us", &out->utime_us) ||
	    !record_field(fields, "stime_us", &out->stime_us) ||
	    !record_field(fields, "maxrss_kb", &out->maxrss_kb)) {
		memset(out, 0, sizeof *out);
		return FALSE;
	}
	out->exit.core = core != 0;
	(void)record_field(fields, "lost", &lost);
	out->link_lost = lost != 0;
	return TRUE;
}

gboolean
bs_status_record_read(const char *path, BsStatusRecord *out, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	char *nl;

	memset(out, 0, sizeof *out);
	if (!g_file_get_contents(path, &text, NULL, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return FALSE;
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	/* Only a complete line counts: a wrapper killed mid-write left none. */
	nl = strchr(text, '\n');
	if (nl == NULL)
		return FALSE;
	*nl = '\0';
	return record_parse(text, out);
}

char *
bs_status_record_format(const BsStatusRecord *rec)
{
	gboolean sig = rec->exit.kind == BS_EXIT_SIGNAL;

	return g_strdup_printf("%s=%d core=%d utime_us=%" G_GINT64_FORMAT
	                       " stime_us=%" G_GINT64_FORMAT " maxrss_kb=%" G_GINT64_FORMAT "%s",
	                       sig ? "signal" : "exit", sig ? rec->exit.signo : rec->exit.code,
	                       rec->exit.core ? 1 : 0, rec->utime_us, rec->stime_us,
	                       rec->maxrss_kb, rec->link_lost ? " lost=1" : "");
}

char *
bs_exit_describe(const BsExitStatus *st)
{
	switch (st->kind) {
	case BS_EXIT_CODE:
		return g_strdup_printf("exit %d", st->code);
	case BS_EXIT_SIGNAL:
		return g_strdup_printf("signal %d%s", st->signo,
		                       st->core ? " (core dumped)" : "");
	case BS_EXIT_UNKNOWN:
	default:
		return g_strdup("unknown");
	}
}
