/*
 * The task port: where blaunch starts a parallel job's tasks on this host.
 *
 * A job with slots on several hosts runs its script on the first host
 * only; blaunch (cmd/blaunch.c), run inside the job, dials the sbatchd of
 * each host it names on this port (LSF_RES_PORT in lsf.conf, or -r; 0
 * picks a free port and writes it to $LSB_SHAREDIR/res.port.<host>, for
 * virtual hosts on one machine) and calls TaskService.StartTask.
 *
 * Who may start what.  sbatchd runs as root and the task runs as a user,
 * so nothing in the request is believed:
 *   - the hello must carry a MUNGE credential (without MUNGE the port is
 *     not opened at all); its uid is the caller;
 *   - the job comes from mbatchd, asked over our authenticated link
 *     (HostService.TaskJob): it must be running and have slots on this
 *     host (mbatchd checks the link's registered name, not a claim);
 *   - the caller's uid must be the job owner's, and the owner is resolved
 *     on this host as for the job itself (sbd_start_owner: uid match, root
 *     refused unless allowed);
 *   - the task runs as that user, with its groups, in a new session.
 * The caller's environment and directory are the user's own to choose
 * (it is their process); LSB_JOBID, LSF_ENVDIR and LSB_TASK_HOST are set
 * by us on top.
 *
 * A task lives with its connection: its stdout and stderr go back over it
 * (TaskIoService.Output, at most OUTPUT_INFLIGHT calls unacknowledged per
 * task, so a blaunch that does not read stops the task's pipe, not our
 * memory), its end as TaskIoService.Exited, and when the connection is lost
 * (blaunch killed, its host gone, this sbatchd stopping) the task's process
 * group is killed: no task outlives the blaunch that started it.  Orders
 * for the job (bstop, bresume, bkill, bkill -s) reach the tasks through
 * sbd_tasks_job_action(), on the first host and, marked tasks_only, on the
 * others.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "auth/auth.h"
#include "auth/peer.h"
#include "sbd.h"
#include "sbd-jobenv.h"
#include "util/error.h"

#define RES_PORT_DEFAULT 6878
#define OUTPUT_INFLIGHT 8
#define OUTPUT_CHUNK 65536
#define CALL_TIMEOUT_MS 30000
#define MAX_ARGS 100000
/* Tasks (and starts waiting for mbatchd) on this host, over all users:
 * a user may run what their job runs, but not make sbatchd keep an
 * unbounded table. */
#define MAX_TASKS 4096

typedef struct Task Task;

/* A StartTask waiting for mbatchd's answer. */
typedef struct {
	BsRpcCall *call;
	Basalt__StartTaskReply_Closure closure;
	BsRpcConn *conn;
	uid_t caller;
	guint64 job_id;
	guint32 index;
	char **argv;
	char **env;
	char *cwd;
	Basalt__StartTaskRequest__Shell shell;
} Pending;

struct Task {
	guint64 id;
	guint64 job_id;
	guint32 index;
	guint32 instance;
	pid_t pgid;
	BsRpcConn *conn;          /* NULL once lost */
	int fd[2];                /* stdout, stderr pipes; -1 at EOF */
	guint src[2];
	guint inflight;
	gboolean reaped;
	BsExitStatus exit;
	char *reason;
	guint kill_src;
	char *tmpdir;             /* the task's own TMPDIR on this host, or NULL */
};

static Sbd *tasks_sbd;
static BsRpcServer *server;
static GHashTable *tasks;         /* id -> Task* */
static guint64 next_task_id = 1;
static guint npending;
static char *port_file;

static Basalt__Error *
error_set(Basalt__Error *e, Basalt__ErrorCode code, const char *msg)
{
	basalt__error__init(e);
	e->code = code;
	e->message = (char *)msg;
	return e;
}

static void
pending_free(Pending *p)
{
	npending--;
	if (p->conn != NULL)
		bs_rpc_conn_unref(p->conn);
	g_strfreev(p->argv);
	g_strfreev(p->env);
	g_free(p->cwd);
	g_free(p);
}

static void
pending_fail(Pending *p, Basalt__ErrorCode code, const char *msg)
{
	Basalt__StartTaskReply r = BASALT__START_TASK_REPLY__INIT;
	Basalt__Error e;

	sbd_log(BS_LOG_NOTICE, NULL, "job %" G_GUINT64_FORMAT "[%u]: blaunch "
	    "task refused: %s", p->job_id, p->index, msg);
	r.error = error_set(&e, code, msg);
	p->closure(&r, p->call);
	bs_rpc_call_unref(p->call);
	pending_free(p);
}

/* ---- the task's end --------------------------------------------------- */

static void task_output_resume(Task *t);

static void
task_free(Task *t)
{
	for (int i = 0; i < 2; i++) {
		g_clear_handle_id(&t->src[i], g_source_remove);
		if (t->fd[i] >= 0)
			close(t->fd[i]);
	}
	g_clear_handle_id(&t->kill_src, g_source_remove);
	if (t->conn != NULL)
		bs_rpc_conn_unref(t->conn);
	if (t->tmpdir != NULL)
		(void)sbd_job_tmpdir_remove(t->tmpdir, NULL);
	g_free(t->tmpdir);
	g_free(t->reason);
	g_free(t);
}

static void
io_acked(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data)
{
	guint64 id = *(guint64 *)data;
	Task *t = tasks != NULL ? g_hash_table_lookup(tasks, &id) : NULL;

	g_free(data);
	if (t == NULL)
		return;
	if (t->inflight > 0)
		t->inflight--;
	task_output_resume(t);
}

static gboolean
io_call(Task *t, guint method, const ProtobufCMessage *msg)
{
	guint64 *id;

	if (t->conn == NULL || !bs_rpc_conn_is_open(t->conn))
		return FALSE;
	id = g_new(guint64, 1);
	*id = t->id;
	if (!bs_rpc_conn_call(t->conn, &basalt__task_io_service__descriptor,
	    method, msg, CALL_TIMEOUT_MS, io_acked, id, NULL)) {
		g_free(id);
		return FALSE;
	}
	t->inflight++;
	return TRUE;
}

/* Both pipes at EOF and the group empty: say how it ended, then forget. */
static void
task_maybe_done(Task *t)
{
	Basalt__TaskExit ex = BASALT__TASK_EXIT__INIT;

	if (!t->reaped || t->fd[0] >= 0 || t->fd[1] >= 0)
		return;
	ex.task_id = t->id;
	if (t->exit.kind == BS_EXIT_SIGNAL)
		ex.term_signal = t->exit.signo;
	else if (t->exit.kind == BS_EXIT_CODE)
		ex.exit_code = t->exit.code;
	else
		ex.exit_code = 255;
	ex.reason = t->reason;
	(void)io_call(t, 1, &ex.base);
	sbd_log(BS_LOG_INFO, NULL, "job %" G_GUINT64_FORMAT "[%u]: blaunch task "
	    "%" G_GUINT64_FORMAT " (pid %d) ended", t->job_id, t->index, t->id,
	    (int)t->pgid);
	g_hash_table_remove(tasks, &t->id);
}

static void
usage_sent(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *reply, const GError *error, void *data)
{
}

/* The task's usage joins the job's at mbatchd (best effort: a task that
 * ends while the link is down is not counted). */
static void
task_report_usage(Task *t, const BsJobUsage *u)
{
	Basalt__TaskUsageRequest req = BASALT__TASK_USAGE_REQUEST__INIT;
	Basalt__ResourceUsage ru = BASALT__RESOURCE_USAGE__INIT;
	BsRpcConn *master = tasks_sbd != NULL ? sbd_link_conn(tasks_sbd) : NULL;

	if (master == NULL)
		return;
	req.job_id = t->job_id;
	req.array_index = t->index;
	req.instance = t->instance;
	ru.utime_us = (guint64)MAX(u->utime_us, 0);
	ru.stime_us = (guint64)MAX(u->stime_us, 0);
	ru.max_rss_kb = (guint64)MAX(u->peak_rss_kb, 0);
	req.usage = &ru;
	(void)bs_rpc_conn_call(master, &basalt__host_service__descriptor,
	    (guint)(protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__host_service__descriptor, "TaskUsage") -
	    basalt__host_service__descriptor.methods), &req.base,
	    CALL_TIMEOUT_MS, usage_sent, NULL, NULL);
}

static void
task_finished(const BsJobEnd *end, gpointer data)
{
	Task *t = data;

	task_report_usage(t, &end->usage);
	t->reaped = TRUE;
	t->exit = end->exit;
	task_maybe_done(t);
}

/* ---- output ----------------------------------------------------------- */

static gboolean
on_output(gint fd, GIOCondition cond, gpointer data)
{
	Task *t = data;
	int which = fd == t->fd[0] ? 0 : 1;
	Basalt__TaskOutput out = BASALT__TASK_OUTPUT__INIT;
	g_autofree guint8 *buf = g_malloc(OUTPUT_CHUNK);
	ssize_t n = read(fd, buf, OUTPUT_CHUNK);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return G_SOURCE_CONTINUE;
	if (n <= 0) {
		t->src[which] = 0;
		close(t->fd[which]);
		t->fd[which] = -1;
		task_maybe_done(t);
		return G_SOURCE_REMOVE;
	}
	out.task_id = t->id;
	out.stream = (guint32)which + 1;
	out.data.data = buf;
	out.data.len = (size_t)n;
	/* Lost connection: the output has nowhere to go; read on to EOF. */
	(void)io_call(t, 0, &out.base);
	if (t->inflight >= OUTPUT_INFLIGHT) {
		t->src[which] = 0;
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

static void
task_output_resume(Task *t)
{
	if (t->inflight >= OUTPUT_INFLIGHT)
		return;
	for (int i = 0; i < 2; i++)
		if (t->fd[i] >= 0 && t->src[i] == 0)
			t->src[i] = g_unix_fd_add(t->fd[i], G_IO_IN | G_IO_HUP |
			    G_IO_ERR, on_output, t);
}

/* ---- control ---------------------------------------------------------- */

static gboolean
kill_late(gpointer data)
{
	Task *t = data;

	t->kill_src = 0;
	if (!t->reaped)
		(void)kill(-t->pgid, SIGKILL);
	return G_SOURCE_REMOVE;
}

/* SIGINT, SIGTERM, then SIGKILL after interval_s, as a job is killed. */
static void
task_terminate(Task *t, guint interval_s, const char *reason)
{
	if (t->reaped)
		return;
	if (reason != NULL && t->reason == NULL)
		t->reason = g_strdup(reason);
	(void)kill(-t->pgid, SIGCONT);
	(void)kill(-t->pgid, SIGINT);
	(void)kill(-t->pgid, SIGTERM);
	if (t->kill_src == 0)
		t->kill_src = g_timeout_add_seconds(MAX(interval_s, 1), kill_late, t);
}

guint
sbd_tasks_job_action(Sbd *sbd, guint64 id, guint32 index,
    Basalt__ExecAction action, int signo, guint term_interval_s)
{
	GHashTableIter it;
	gpointer v;
	guint n = 0;

	if (tasks == NULL)
		return 0;
	g_hash_table_iter_init(&it, tasks);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Task *t = v;

		if (t->job_id != id || t->index != index || t->reaped)
			continue;
		n++;
		switch (action) {
		case BASALT__EXEC_ACTION__EXEC_ACTION_SIGNAL:
			if (signo > 0 && signo < NSIG)
				(void)kill(-t->pgid, signo);
			break;
		case BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND:
			(void)bs_jobctl_suspend(t->pgid, signo, NULL);
			break;
		case BASALT__EXEC_ACTION__EXEC_ACTION_RESUME:
			(void)bs_jobctl_resume(t->pgid, signo, NULL);
			break;
		case BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE:
		case BASALT__EXEC_ACTION__EXEC_ACTION_FORGET:
			task_terminate(t, term_interval_s, "the job was killed");
			break;
		default:
			break;
		}
	}
	return n;
}

/* ---- starting --------------------------------------------------------- */

/* The task's environment: the job's, the caller's over it, ours on top. */
static char **
task_env(Sbd *sbd, const Basalt__StartJobRequest *start, char **caller)
{
	char **env = sbd_start_env(sbd, start);
	g_autofree char *jobid = g_strdup_printf("%" G_GUINT64_FORMAT,
	    start->job_id);
	g_autofree char *index = g_strdup_printf("%u", start->array_index);

	for (guint i = 0; caller != NULL && caller[i] != NULL; i++) {
		const char *eq = strchr(caller[i], '=');
		g_autofree char *k = eq ? g_strndup(caller[i], eq - caller[i]) : NULL;

		if (k != NULL && *k != '\0')
			env = g_environ_setenv(env, k, eq + 1, TRUE);
	}
	env = g_environ_setenv(env, "LSB_JOBID", jobid, TRUE);
	env = g_environ_setenv(env, "LSB_JOBINDEX", index, TRUE);
	env = g_environ_setenv(env, "LSB_TASK_HOST", sbd->host, TRUE);
	if (sbd->envdir != NULL)
		env = g_environ_setenv(env, "LSF_ENVDIR", sbd->envdir, TRUE);
	return env;
}

/* The task's private TMPDIR, made on this host for it (0700, the job's
 * owner's) under LSB_JOB_TMPDIR or /tmp and removed when the task goes:
 * the job's own TMPDIR exists on the job's first host only, and two
 * tasks of a job on one host must not share one (MPI daemons keep their
 * session directories there).  NULL, with a warning, when none can be
 * made: the task then keeps the TMPDIR it inherited. */
static char *
task_tmpdir(Sbd *sbd, const Basalt__StartJobRequest *start, uid_t uid,
    gid_t gid)
{
	const char *base = sbd_conf_value(sbd, "LSB_JOB_TMPDIR");
	g_autofree char *stem = g_strdup_printf("%" G_GUINT64_FORMAT ".%u.task%"
	    G_GUINT64_FORMAT, start->job_id, start->array_index, next_task_id);
	g_autoptr(GError) err = NULL;
	char *dir = NULL;

	if (!sbd_job_tmpdir_create(base != NULL && *base ? base : "/tmp", stem,
	    uid, gid, &dir, &err)) {
		sbd_log(BS_LOG_WARNING, NULL, "job %" G_GUINT64_FORMAT "[%u]: no "
		    "temporary directory for a blaunch task: %s", start->job_id,
		    start->array_index, err->message);
		return NULL;
	}
	return dir;
}

/* A program named without a slash, found on the task's own PATH. */
static char *
find_program(const char *name, char **env)
{
	const char *path = g_environ_getenv(env, "PATH");
	g_auto(GStrv) dirs = NULL;

	if (strchr(name, '/') != NULL)
		return g_strdup(name);
	dirs = g_strsplit(path != NULL ? path : "/usr/local/bin:/usr/bin:/bin", ":", -1);
	for (guint i = 0; dirs[i] != NULL; i++) {
		g_autofree char *p = g_build_filename(*dirs[i] ? dirs[i] : ".",
		    name, NULL);
		struct stat st;

		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111) != 0)
			return g_steal_pointer(&p);
	}
	return g_strdup(name);
}

/* What to exec: the command through a shell (rsh's way, which MPI
 * launchers expect: arguments joined by blanks), or as is. */
static char **
task_argv(const Pending *p, const char *login_shell, char **env, char **path)
{
	GPtrArray *a = g_ptr_array_new();
	g_autofree char *line = g_strjoinv(" ", p->argv);

	switch (p->shell) {
	case BASALT__START_TASK_REQUEST__SHELL__SHELL_NONE:
		*path = find_program(p->argv[0], env);
		for (guint i = 0; p->argv[i] != NULL; i++)
			g_ptr_array_add(a, g_strdup(p->argv[i]));
		break;
	case BASALT__START_TASK_REQUEST__SHELL__SHELL_LOGIN:
		*path = g_strdup(login_shell && *login_shell ? login_shell : "/bin/sh");
		g_ptr_array_add(a, g_strdup(*path));
		g_ptr_array_add(a, g_strdup("-l"));
		g_ptr_array_add(a, g_strdup("-c"));
		g_ptr_array_add(a, g_steal_pointer(&line));
		break;
	default:
		*path = g_strdup("/bin/sh");
		g_ptr_array_add(a, g_strdup("/bin/sh"));
		g_ptr_array_add(a, g_strdup("-c"));
		g_ptr_array_add(a, g_steal_pointer(&line));
		break;
	}
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/* The per-process limits and umask a task gets: the job's own (the
 * stamp in its start order, job-limits.h), so a task on another host is
 * bounded as the job's processes on its first host are.  The whole-job
 * limits (memory, swap, summed CPU) are the first host's samples' business
 * and do not cover tasks. */
typedef struct {
	BsLaunchLimit limits[SBD_MAX_RLIMITS];
	guint n_limits;
	gboolean set_umask;
	mode_t umask;
} TaskBounds;

static void
task_bounds(Sbd *sbd, const Basalt__StartJobRequest *start, TaskBounds *b)
{
	SbdJobLimits whole;

	memset(b, 0, sizeof *b);
	sbd_limits_from_effective(start->effective, &whole);
	b->n_limits = sbd_limits_rlimits(start->effective, b->limits);
	sbd_limits_cpu_policy(sbd_conf_value(sbd, "LSB_JOB_CPULIMIT"), &whole,
	    b->limits, &b->n_limits);
	sbd_limits_clamp(b->limits, b->n_limits, geteuid() == 0);
	if (start->spec != NULL && start->spec->umask_set) {
		b->set_umask = TRUE;
		b->umask = (mode_t)(start->spec->umask & 0777);
	}
}

/* After fork, before exec: system calls only (sbatchd may have threads).
 * Limits are set while still root, so a hard limit may be raised to the
 * job's (as launch-child.c does for the job itself). */
G_GNUC_NORETURN static void
child(int out, int err, int report, const TaskBounds *b, gboolean switch_ids,
    uid_t uid, gid_t gid, const gid_t *groups, int ngroups, const char *cwd,
    const char *home, const char *path, char *const *argv, char *const *envp)
{
	int null = open("/dev/null", O_RDONLY);
	int e;

	(void)setsid();
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		goto fail;
	for (guint i = 0; i < b->n_limits; i++)
		if (setrlimit(b->limits[i].resource, &b->limits[i].limit) < 0)
			goto fail;
	if (b->set_umask)
		(void)umask(b->umask);
	if (switch_ids && (setgroups((size_t)ngroups, groups) < 0 ||
	    setgid(gid) < 0 || setuid(uid) < 0))
		goto fail;
	if (switch_ids && (getuid() != uid || geteuid() != uid))
		goto fail;
	if ((cwd == NULL || chdir(cwd) < 0) && chdir(home) < 0 && chdir("/") < 0)
		goto fail;
	{
		sigset_t none;

		sigemptyset(&none);
		(void)sigprocmask(SIG_SETMASK, &none, NULL);
		for (int s = 1; s < NSIG; s++)
			if (s != SIGKILL && s != SIGSTOP)
				(void)signal(s, SIG_DFL);
	}
	execve(path, argv, envp);
fail:
	e = errno;
	(void)!write(report, &e, sizeof e);
	_exit(127);
}

static gboolean
task_spawn(Sbd *sbd, Pending *p, const Basalt__StartJobRequest *start,
    Task **out, GError **error)
{
	g_autofree char *user = NULL, *home = NULL, *path = NULL;
	g_autofree gid_t *groups = NULL;
	g_auto(GStrv) env = NULL, argv = NULL;
	struct passwd *pw;
	uid_t uid;
	gid_t gid;
	int ngroups = 64;
	int out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 }, rep[2] = { -1, -1 };
	int child_errno = 0;
	gboolean switch_ids = geteuid() == 0;
	g_autofree char *tmpdir = NULL;
	TaskBounds bounds;
	ssize_t n;
	pid_t pid;
	Task *t;

	if (!sbd_start_owner(sbd, start, &user, &uid, &gid, &home, error))
		return FALSE;
	if (uid != p->caller) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED, "permission denied: "
		    "job <%" G_GUINT64_FORMAT "> belongs to %s, not to uid %u",
		    start->job_id, user, (unsigned)p->caller);
		return FALSE;
	}
	if (switch_ids) {
		groups = g_new(gid_t, ngroups);
		if (getgrouplist(user, gid, groups, &ngroups) < 0) {
			groups = g_renew(gid_t, groups, ngroups);
			if (getgrouplist(user, gid, groups, &ngroups) < 0)
				ngroups = 0;
		}
	}
	pw = getpwnam(user);
	env = task_env(sbd, start, p->env);
	tmpdir = task_tmpdir(sbd, start, uid, gid);
	if (tmpdir != NULL) {
		env = g_environ_setenv(env, "TMPDIR", tmpdir, TRUE);
		env = g_environ_setenv(env, "LSB_JOB_TMPDIR", tmpdir, TRUE);
	}
	argv = task_argv(p, pw != NULL ? pw->pw_shell : NULL, env, &path);
	task_bounds(sbd, start, &bounds);
	if (pipe2(out_pipe, O_CLOEXEC) < 0 || pipe2(err_pipe, O_CLOEXEC) < 0 ||
	    pipe2(rep, O_CLOEXEC) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "pipe: %s", g_strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "fork: %s", g_strerror(errno));
		goto fail;
	}
	if (pid == 0)
		child(out_pipe[1], err_pipe[1], rep[1], &bounds, switch_ids, uid, gid,
		    groups, ngroups, p->cwd, home, path, argv, env);
	close(out_pipe[1]);
	close(err_pipe[1]);
	close(rep[1]);
	out_pipe[1] = err_pipe[1] = rep[1] = -1;
	do
		n = read(rep[0], &child_errno, sizeof child_errno);
	while (n < 0 && errno == EINTR);
	close(rep[0]);
	rep[0] = -1;
	t = g_new0(Task, 1);
	t->id = next_task_id++;
	t->job_id = start->job_id;
	t->index = start->array_index;
	t->instance = start->instance;
	t->pgid = pid;
	t->tmpdir = g_steal_pointer(&tmpdir);
	t->fd[0] = out_pipe[0];
	t->fd[1] = err_pipe[0];
	t->conn = bs_rpc_conn_ref(p->conn);
	g_hash_table_insert(tasks, &t->id, t);
	{
		static const BsJobWatchFuncs funcs = { .finished = task_finished };

		bs_reaper_watch(sbd->reaper, pid, NULL, &funcs, t);
	}
	task_output_resume(t);
	if (n == (ssize_t)sizeof child_errno) {
		/* The failed child is reaped by the reaper; the task goes
		 * when it is (no output, no Exited: the reply says why). */
		t->conn = NULL;
		bs_rpc_conn_unref(p->conn);
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "cannot run %s as %s "
		    "on host %s: %s", path, user, sbd->host, g_strerror(child_errno));
		return FALSE;
	}
	*out = t;
	return TRUE;
fail:
	for (int i = 0; i < 2; i++) {
		if (out_pipe[i] >= 0)
			close(out_pipe[i]);
		if (err_pipe[i] >= 0)
			close(err_pipe[i]);
		if (rep[i] >= 0)
			close(rep[i]);
	}
	if (tmpdir != NULL)
		(void)sbd_job_tmpdir_remove(tmpdir, NULL);
	return FALSE;
}

static void
task_job_replied(BsRpcConn *conn, Basalt__RpcStatus status,
    const ProtobufCMessage *msg, const GError *error, void *data)
{
	Pending *p = data;
	const Basalt__TaskJobReply *r = (const Basalt__TaskJobReply *)msg;
	Basalt__StartTaskReply reply = BASALT__START_TASK_REPLY__INIT;
	g_autoptr(GError) err = NULL;
	g_autofree char *why = NULL;
	Task *t = NULL;

	if (tasks == NULL) {
		pending_fail(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL,
		    "sbatchd is stopping");
		return;
	}
	if (status != BASALT__RPC_STATUS__RPC_STATUS_OK) {
		why = g_strdup_printf("host %s cannot ask mbatchd about the job: %s",
		    tasks_sbd->host, error != NULL ? error->message : "no answer");
		pending_fail(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL, why);
		return;
	}
	if (r->error != NULL && r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		why = g_strdup_printf("host %s: %s", tasks_sbd->host, r->error->message);
		pending_fail(p, r->error->code, why);
		return;
	}
	if (r->start == NULL) {
		pending_fail(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL,
		    "mbatchd sent no job");
		return;
	}
	if (!bs_rpc_conn_is_open(p->conn) ||
	    !task_spawn(tasks_sbd, p, r->start, &t, &err)) {
		why = g_strdup_printf("%s", err != NULL ? err->message :
		    "blaunch is gone");
		pending_fail(p, err != NULL && err->code == BS_ERROR_REFUSED ?
		    BASALT__ERROR_CODE__ERROR_CODE_PERMISSION :
		    BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST, why);
		return;
	}
	sbd_log(BS_LOG_INFO, NULL, "job %" G_GUINT64_FORMAT "[%u]: blaunch task "
	    "%" G_GUINT64_FORMAT " started as pid %d for %s", p->job_id, p->index,
	    t->id, (int)t->pgid, bs_rpc_conn_describe(p->conn));
	reply.task_id = t->id;
	reply.pid = t->pgid;
	p->closure(&reply, p->call);
	bs_rpc_call_unref(p->call);
	pending_free(p);
}

static char **
strv_copy(char **v, size_t n)
{
	char **out = g_new0(char *, n + 1);

	for (size_t i = 0; i < n; i++)
		out[i] = g_strdup(v[i]);
	return out;
}

static void
t_start_task(Basalt__TaskService_Service *svc, const Basalt__StartTaskRequest *in,
    Basalt__StartTaskReply_Closure closure, void *call)
{
	Basalt__StartTaskReply r = BASALT__START_TASK_REPLY__INIT;
	Basalt__TaskJobRequest q = BASALT__TASK_JOB_REQUEST__INIT;
	const BsRpcPeer *peer = bs_rpc_call_peer(call);
	BsRpcConn *master = sbd_link_conn(tasks_sbd);
	Basalt__Error e;
	const char *why = NULL;
	Pending *p;

	if (!peer->has_cred)
		why = "permission denied: no credential";
	else if (in->n_argv == 0 || in->argv[0] == NULL || *in->argv[0] == '\0')
		why = "no command";
	else if (in->n_argv > MAX_ARGS || in->n_env > MAX_ARGS)
		why = "too many arguments";
	else if (master == NULL)
		why = "this host is not connected to mbatchd; try again later";
	else if (g_hash_table_size(tasks) + npending >= MAX_TASKS)
		why = "too many tasks on this host";
	if (why != NULL) {
		r.error = error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST, why);
		closure(&r, call);
		return;
	}
	p = g_new0(Pending, 1);
	npending++;
	p->closure = closure;
	p->conn = bs_rpc_conn_ref(bs_rpc_call_conn(call));
	p->caller = peer->uid;
	p->job_id = in->job_id;
	p->index = in->array_index;
	p->argv = strv_copy(in->argv, in->n_argv);
	p->env = strv_copy(in->env, in->n_env);
	p->cwd = in->cwd != NULL && *in->cwd == '/' ? g_strdup(in->cwd) : NULL;
	p->shell = in->shell;
	p->call = bs_rpc_call_defer(call);
	q.job_id = in->job_id;
	q.array_index = in->array_index;
	if (!bs_rpc_conn_call(master, &basalt__host_service__descriptor,
	    protobuf_c_service_descriptor_get_method_by_name(
	    &basalt__host_service__descriptor, "TaskJob") -
	    basalt__host_service__descriptor.methods, &q.base, CALL_TIMEOUT_MS,
	    task_job_replied, p, NULL))
		pending_fail(p, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL,
		    "cannot ask mbatchd about the job");
}

static void
t_signal_task(Basalt__TaskService_Service *svc, const Basalt__SignalTaskRequest *in,
    Basalt__SignalTaskReply_Closure closure, void *call)
{
	Basalt__SignalTaskReply r = BASALT__SIGNAL_TASK_REPLY__INIT;
	Basalt__Error e;
	Task *t = g_hash_table_lookup(tasks, &in->task_id);

	/* A task is addressed only over the connection that started it. */
	if (t == NULL || t->conn != bs_rpc_call_conn(call))
		r.error = error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_NO_JOB,
		    "no such task");
	else if (in->signal <= 0 || in->signal >= NSIG)
		r.error = error_set(&e, BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST,
		    "bad signal number");
	else if (!t->reaped)
		(void)kill(-t->pgid, in->signal);
	closure(&r, call);
}

static Basalt__TaskService_Service task_service = {
	.base = BASALT__TASK_SERVICE__BASE_INIT,
	.start_task = t_start_task,
	.signal_task = t_signal_task,
};

/* ---- the listener ----------------------------------------------------- */

static gboolean
authenticate(BsRpcPeer *peer, const guint8 *cred, gsize len, char **reason,
    void *data)
{
	Sbd *sbd = data;

	return bs_auth_peer_hello(bs_auth_socket(sbd->cfg->lsf->values), peer,
	    cred, len, reason);
}

static gboolean
admit(const BsRpcPeer *peer, char **reason, void *data)
{
	if (peer->role != BASALT__ROLE__ROLE_CLIENT || !peer->has_cred) {
		*reason = g_strdup("the task port takes blaunch only");
		return FALSE;
	}
	return TRUE;
}

static GBytes *
reply_credential(const BsRpcPeer *peer, void *data)
{
	Sbd *sbd = data;
	GError *err = NULL;
	GBytes *cred;

	cred = bs_auth_peer_reply(bs_auth_socket(sbd->cfg->lsf->values), peer,
	    sbd->host, &err);
	if (err != NULL) {
		sbd_log(BS_LOG_WARNING, NULL, "cannot answer blaunch with a "
		    "credential: %s", err->message);
		g_error_free(err);
	}
	return cred;
}

/* The connection is gone: so are the tasks it started. */
static void
on_closed(BsRpcConn *conn, const char *reason, void *data)
{
	GHashTableIter it;
	gpointer v;

	if (tasks == NULL)
		return;
	g_hash_table_iter_init(&it, tasks);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Task *t = v;

		if (t->conn != conn)
			continue;
		bs_rpc_conn_unref(t->conn);
		t->conn = NULL;
		if (!t->reaped) {
			sbd_log(BS_LOG_NOTICE, NULL, "job %" G_GUINT64_FORMAT "[%u]: "
			    "blaunch task %" G_GUINT64_FORMAT " lost its blaunch "
			    "(%s): killed", t->job_id, t->index, t->id, reason);
			(void)kill(-t->pgid, SIGCONT);
			(void)kill(-t->pgid, SIGKILL);
		}
	}
}

static guint16
conf_port(Sbd *sbd)
{
	const char *v = sbd_conf_value(sbd, "LSF_RES_PORT");
	guint64 n;

	if (sbd->task_port >= 0)
		return (guint16)sbd->task_port;
	if (v == NULL || !g_ascii_string_to_unsigned(v, 10, 0, 65535, &n, NULL))
		return RES_PORT_DEFAULT;
	return (guint16)n;
}

static void
task_unwatch(gpointer data)
{
	Task *t = data;

	if (tasks_sbd != NULL && tasks_sbd->reaper != NULL)
		bs_reaper_unwatch(tasks_sbd->reaper, t->pgid);
	task_free(t);
}

void
sbd_tasks_start(Sbd *sbd)
{
	BsRpcServerOptions opts;
	g_autoptr(GError) err = NULL;
	guint16 port = conf_port(sbd), bound = 0;

	tasks_sbd = sbd;
	tasks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, task_unwatch);
	if (!sbd_auth_enabled(sbd)) {
		sbd_log(BS_LOG_NOTICE, NULL, "no task port for blaunch: it needs "
		    "MUNGE (LSF_AUTH=munge)");
		return;
	}
	bs_rpc_server_options_init(&opts);
	opts.server_name = sbd->host;
	opts.allow_unauthenticated_tcp = FALSE;
	opts.authenticate = authenticate;
	opts.admit = admit;
	opts.reply_credential = reply_credential;
	opts.auth_data = sbd;
	opts.max_connections = 1024;
	opts.max_per_uid = 256;
	/* A quiet task is not an idle blaunch. */
	opts.client_idle_timeout_ms = 0;
	server = bs_rpc_server_new(&opts, NULL);
	bs_rpc_server_register(server, BASALT__ROLE__ROLE_CLIENT, &task_service.base);
	bs_rpc_server_set_callbacks(server, NULL, on_closed, sbd);
	if (!bs_rpc_server_listen_tcp(server, "0.0.0.0", port, &bound, &err)) {
		sbd_log(BS_LOG_ERR, NULL, "no task port for blaunch: cannot listen "
		    "on port %u: %s", port, err->message);
		g_clear_pointer(&server, bs_rpc_server_free);
		return;
	}
	if (port == 0 && sbd->cfg->lsf->lsb_sharedir != NULL) {
		g_autofree char *name = g_strconcat("res.port.", sbd->host, NULL);
		g_autofree char *text = g_strdup_printf("%u\n", bound);

		port_file = g_build_filename(sbd->cfg->lsf->lsb_sharedir, name, NULL);
		if (!g_file_set_contents(port_file, text, -1, &err))
			sbd_log(BS_LOG_WARNING, NULL, "cannot write the task port: %s",
			    err->message);
		else
			(void)g_chmod(port_file, 0644);
	}
	sbd_log(BS_LOG_NOTICE, NULL, "task port for blaunch: %u", bound);
}

void
sbd_tasks_stop(Sbd *sbd)
{
	if (port_file != NULL) {
		(void)g_unlink(port_file);
		g_clear_pointer(&port_file, g_free);
	}
	/* Closing the connections kills their tasks (on_closed). */
	g_clear_pointer(&server, bs_rpc_server_free);
	g_clear_pointer(&tasks, g_hash_table_destroy);
	tasks_sbd = NULL;
}
