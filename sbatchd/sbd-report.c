/*
 * The job report and job mail (see sbd-report.h for when and as whom).
 *
 * The text comes from job-report-format.c.  Children that
 * write or mail for the user are forked from the daemon, which may have
 * threads: between fork and exec or _exit they make only async-signal-safe
 * calls on buffers the parent prepared.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "job-paths.h"
#include "sbd-jobenv.h"
#include "sbd-report.h"
#include "util/error.h"

#define GROUP "report"
#define DEFAULT_MAILPROG "/usr/sbin/sendmail"
/* A report write that takes longer (a hung file server) is abandoned and
 * the job reported finished without it. */
#define WRITE_TIMEOUT_S 20

/* ---- the job's info: the [report] group of its record (sbd-store.c) ---- */

static void
kf_str(GKeyFile *kf, const char *k, const char *v)
{
	if (v != NULL)
		g_key_file_set_string(kf, GROUP, k, v);
}

/* Who gets the mail: -u, else lsf.conf LSB_MAILTO with !U as the user,
 * else the user.  Refused when it could pass for an option or break a
 * header: the mail program takes it as an argument. */
static char *
recipient(Sbd *sbd, const Basalt__JobSpec *s, const char *user)
{
	const char *to = s->mail_user;
	g_autofree char *r = NULL;

	if (to == NULL || *to == '\0') {
		const char *conf = sbd_conf_value(sbd, "LSB_MAILTO");
		g_auto(GStrv) parts = g_strsplit(conf && *conf ? conf : "!U", "!U", -1);

		r = g_strjoinv(user, parts);
	} else {
		r = g_strdup(to);
	}
	if (*r == '\0' || *r == '-')
		return NULL;
	for (const char *p = r; *p != '\0'; p++)
		if ((guchar)*p <= ' ' || *p == 0x7f || *p == ',')
			return NULL;
	return g_steal_pointer(&r);
}

void
sbd_job_info_save(Sbd *sbd, SbdJob *job, const SbdJobInfo *in)
{
	const Basalt__StartJobRequest *req = in->req;
	const Basalt__JobSpec *s = req->spec;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *to = recipient(sbd, s, in->user);
	const char *name = s->job_name && *s->job_name ? s->job_name : s->command;

	/* A name with an array spec is shown as LSB_JOBNAME gives it. */
	for (size_t i = 0; i < req->n_env; i++)
		if (g_str_has_prefix(req->env[i], "LSB_JOBNAME="))
			name = req->env[i] + strlen("LSB_JOBNAME=");
	kf_str(kf, "user", in->user);
	g_key_file_set_uint64(kf, GROUP, "uid", in->uid);
	g_key_file_set_uint64(kf, GROUP, "gid", in->gid);
	kf_str(kf, "home", in->home);
	kf_str(kf, "cwd", in->cwd);
	{
		/* LSF's longest job name: a default name is the whole command. */
		g_autofree char *cut = g_strndup(name ? name : "", 4094);

		kf_str(kf, "name", cut);
	}
	kf_str(kf, "queue", req->queue ? req->queue : "");
	kf_str(kf, "command", s->command ? s->command : "");
	kf_str(kf, "submit_host", s->submit_host ? s->submit_host : "");
	g_key_file_set_int64(kf, GROUP, "submit_time", req->submit_time);
	g_key_file_set_string_list(kf, GROUP, "hosts",
	    (const char *const *)req->exec_hosts, req->n_exec_hosts);
	kf_str(kf, "out_path", in->out_path);
	kf_str(kf, "err_path", in->err_path);
	kf_str(kf, "hostfile", in->hostfile);
	kf_str(kf, "path_base", in->path_base);
	kf_str(kf, "group", in->group);
	kf_str(kf, "project", s->project && *s->project ? s->project : "default");
	kf_str(kf, "first_host", req->n_exec_hosts > 0 ? req->exec_hosts[0] : sbd->host);
	g_key_file_set_boolean(kf, GROUP, "notify_end", s->notify_end);
	kf_str(kf, "tmpdir", in->tmpdir);
	kf_str(kf, "mail_to", to);
	/* -N, or no -o file to put the report in: then, as LSF, the report
	 * and the job's output (its spool file) are mailed.  An interactive
	 * job's output went to its terminal. */
	g_key_file_set_boolean(kf, GROUP, "interactive", s->interactive != 0);
	g_key_file_set_boolean(kf, GROUP, "mail_end", s->notify_end ||
	    (in->out_path == NULL && s->interactive == 0));
	g_key_file_set_boolean(kf, GROUP, "mail_output",
	    in->out_path == NULL && s->interactive == 0);
	g_key_file_set_boolean(kf, GROUP, "mail_begin", s->notify_begin);
	g_free(job->info);
	job->info = g_key_file_to_data(kf, NULL, NULL);
}

typedef struct {
	const char *user;
	uid_t uid;
	gid_t gid;
} IsDirAs;

static gboolean
is_dir_as(const char *path, gpointer data)
{
	const IsDirAs *d = data;

	return sbd_is_dir_as_user(d->user, d->uid, d->gid, path);
}

gboolean
sbd_job_info_set_out(SbdJob *job, const char *tmpl, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *user = NULL, *cwd = NULL, *base = NULL, *group = NULL;
	g_autofree char *project = NULL, *host = NULL, *out = NULL;
	uid_t uid;
	gid_t gid;

	if (job->info == NULL) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "the job has no "
		    "report information on this host");
		return FALSE;
	}
	if (!g_key_file_load_from_data(kf, job->info, (gsize)-1, G_KEY_FILE_NONE, error))
		return FALSE;
	user = g_key_file_get_string(kf, GROUP, "user", NULL);
	cwd = g_key_file_get_string(kf, GROUP, "cwd", NULL);
	base = g_key_file_get_string(kf, GROUP, "path_base", NULL);
	group = g_key_file_get_string(kf, GROUP, "group", NULL);
	project = g_key_file_get_string(kf, GROUP, "project", NULL);
	host = g_key_file_get_string(kf, GROUP, "first_host", NULL);
	uid = (uid_t)g_key_file_get_uint64(kf, GROUP, "uid", NULL);
	gid = (gid_t)g_key_file_get_uint64(kf, GROUP, "gid", NULL);
	if (user == NULL || cwd == NULL) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "the job's report "
		    "information is incomplete");
		return FALSE;
	}
	if (tmpl != NULL && *tmpl != '\0') {
		SbdPathVars v;
		IsDirAs d = { user, uid, gid };

		/* Saved only when the start needed it (sbd-start.c). */
		if (group == NULL && strstr(tmpl, "%G") != NULL)
			group = sbd_group_name(gid);
		v = (SbdPathVars){
			.job_id = (gint64)job->id, .index = (int)job->index,
			.user = user, .group = group ? group : "",
			.host = host ? host : job->sbd->host,
			.project = project ? project : "default",
		};

		out = sbd_path_output(tmpl, &v, base ? base : cwd, "out",
		    is_dir_as, &d);
		g_key_file_set_string(kf, GROUP, "out_path", out);
		g_key_file_set_boolean(kf, GROUP, "create_out", TRUE);
	} else {
		(void)g_key_file_remove_key(kf, GROUP, "out_path", NULL);
	}
	/* The end's mail follows the new -o: -N, or no file. */
	g_key_file_set_boolean(kf, GROUP, "mail_end", out != NULL ?
	    g_key_file_get_boolean(kf, GROUP, "notify_end", NULL) :
	    !g_key_file_get_boolean(kf, GROUP, "interactive", NULL));
	g_free(job->info);
	job->info = g_key_file_to_data(kf, NULL, NULL);
	return sbd_store_save(job, error);
}

/* ---- as the user ---- */

typedef struct {
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	int n_groups;
} AsUser;

static gboolean
as_user_prepare(AsUser *a, const char *user, uid_t uid, gid_t gid)
{
	int n = 32;

	a->uid = uid;
	a->gid = gid;
	a->groups = NULL;
	a->n_groups = 0;
	if (geteuid() != 0)
		return TRUE;
	for (;;) {
		int want = n;

		a->groups = g_renew(gid_t, a->groups, (gsize)n);
		if (getgrouplist(user, gid, a->groups, &n) >= 0)
			break;
		if (n <= want)
			n = want * 2;
		if (n > 65536)
			return FALSE;
	}
	a->n_groups = n;
	return TRUE;
}

/* In a child: become the user (async-signal-safe). */
static gboolean
as_user_switch(const AsUser *a)
{
	if (geteuid() != 0)
		return TRUE;
	if (setgroups((size_t)a->n_groups, a->groups) < 0 || setgid(a->gid) < 0 ||
	    setuid(a->uid) < 0)
		return FALSE;
	return a->uid == 0 || setuid(0) < 0;
}

static void
child_signals(void)
{
	sigset_t none;

	sigemptyset(&none);
	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGALRM, SIG_DFL);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Append text to path as the user, in a child the main loop does not wait
 * for (a hung file server must not stall sbatchd); its exit code is an
 * errno.  *pid_out is the child. */
static gboolean
append_start(const AsUser *a, const char *path, gboolean create, const char *text,
    pid_t *pid_out, GError **error)
{
	gsize len = strlen(text);
	pid_t pid = fork();

	if (pid < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot fork: %s", g_strerror(errno));
		return FALSE;
	}
	if (pid == 0) {
		struct stat st;
		gsize done = 0;
		int fd;

		child_signals();
		if (!as_user_switch(a))
			_exit(EPERM);
		/* The job made its -o file; one bmod named later may not exist
		 * yet, and is created as the user. */
		fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		    (create ? O_CREAT : 0), 0644);
		if (fd < 0)
			_exit(errno & 0xff);
		/* A FIFO or a device there is not a file to end with a report. */
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
			_exit(0);
		while (done < len) {
			ssize_t n = write(fd, text + done, len - done);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				_exit(errno & 0xff);
			done += (gsize)n;
		}
		_exit(0);
	}
	*pid_out = pid;
	return TRUE;
}

/* ---- report writers in flight ---- */

typedef struct {
	Sbd *sbd;
	char *key;                /* the job's, looked up again at the end */
	const SbdJob *job;        /* compared, never followed: the same run? */
	char *path;
	pid_t pid;
	guint timer;
} Pending;

static GHashTable *pending;   /* pid -> Pending* */

static void
pending_free(gpointer p)
{
	Pending *w = p;

	g_clear_handle_id(&w->timer, g_source_remove);
	g_free(w->key);
	g_free(w->path);
	g_free(w);
}

/* The writer is done (or given up on): the job's end goes on. */
static void
pending_done(Pending *w)
{
	SbdJob *job = g_hash_table_lookup(w->sbd->jobs, w->key);

	/* Dropped meanwhile (mbatchd forgot it), or a new run under the key. */
	if (job != NULL && job == w->job && job->finished && job->final_seq == 0)
		sbd_job_end_files_done(job);
}

void
sbd_report_stop(void)
{
	g_clear_pointer(&pending, g_hash_table_destroy);
}

static gboolean
pending_timeout(gpointer data)
{
	Pending *w = data;
	SbdJob *job = g_hash_table_lookup(w->sbd->jobs, w->key);

	w->timer = 0;
	(void)kill(w->pid, SIGKILL);
	sbd_log(BS_LOG_WARNING, job, "gave up appending the job report to %s after "
	    "%d s", w->path, WRITE_TIMEOUT_S);
	g_hash_table_steal(pending, GINT_TO_POINTER(w->pid));
	pending_done(w);
	pending_free(w);
	return G_SOURCE_REMOVE;
}

gboolean
sbd_report_child_exited(Sbd *sbd, pid_t pid, int wstatus)
{
	Pending *w = pending ? g_hash_table_lookup(pending, GINT_TO_POINTER(pid)) : NULL;

	if (w == NULL)
		return FALSE;
	g_hash_table_steal(pending, GINT_TO_POINTER(pid));
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
		sbd_log(BS_LOG_WARNING, g_hash_table_lookup(sbd->jobs, w->key),
		    "cannot append the job report to %s: %s", w->path,
		    WIFEXITED(wstatus) ? g_strerror(WEXITSTATUS(wstatus)) : "killed");
	pending_done(w);
	pending_free(w);
	return TRUE;
}

gboolean
sbd_is_dir_as_user(const char *user, uid_t uid, gid_t gid, const char *path)
{
	AsUser a;
	int status = 0;
	pid_t pid;

	/* Not a directory to root is not one to the user either; only a yes
	 * needs the user's word (which saves a fork for -o /dev/null). */
	if (!g_file_test(path, G_FILE_TEST_IS_DIR) || geteuid() != 0)
		return g_file_test(path, G_FILE_TEST_IS_DIR);
	if (!as_user_prepare(&a, user, uid, gid)) {
		g_free(a.groups);
		return FALSE;
	}
	pid = fork();
	if (pid == 0) {
		struct stat st;

		child_signals();
		alarm(WRITE_TIMEOUT_S);
		if (!as_user_switch(&a))
			_exit(2);
		_exit(stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : 1);
	}
	g_free(a.groups);
	if (pid < 0)
		return FALSE;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The spool file of a job without -o, opened for the mail; -1 when it
 * is not a regular file in sbatchd's own output directory (never a path
 * the user chose: this runs as root). */
static int
open_spooled_output(Sbd *sbd, const char *path)
{
	gsize n = strlen(sbd->output_dir);
	struct stat st;
	int fd;

	if (path == NULL || strncmp(path, sbd->output_dir, n) != 0 || path[n] != '/' ||
	    strchr(path + n + 1, '/') != NULL)
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* In the mail child: the output after the report in the message file,
 * then back to the start for the mail program to read.  A plain
 * read/write loop, async-signal-safe. */
static gboolean
child_append_output(int msg_fd, int out_fd)
{
	char buf[16384];
	ssize_t n;

	if (out_fd >= 0) {
		if (lseek(msg_fd, 0, SEEK_END) < 0)
			return FALSE;
		while ((n = read(out_fd, buf, sizeof buf)) > 0)
			if (write(msg_fd, buf, (size_t)n) != n)
				return FALSE;
		if (n < 0)
			return FALSE;
	}
	return lseek(msg_fd, 0, SEEK_SET) == 0;
}

/* Run the mail program as the user with the message on its stdin (and,
 * with output_path, the job's spooled output after it); the reaper reaps
 * it like any helper, nobody waits for it.  A mail program that is not
 * there is an error: the caller logs it, and the spool file stays. */
static gboolean
mail_as_user(Sbd *sbd, const AsUser *a, const char *home, const char *user,
    const char *to, const char *report, const char *output_path, GError **error)
{
	const char *prog = sbd_conf_value(sbd, "LSB_MAILPROG");
	g_autofree char *msg = NULL;
	g_autofree char *tmp = NULL;
	g_auto(GStrv) envp = NULL;
	char *argv[4];
	int fd, devnull, out_fd;
	pid_t pid;

	if (prog == NULL || *prog == '\0')
		prog = DEFAULT_MAILPROG;
	if (access(prog, X_OK) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "mail program %s: %s", prog,
		    g_strerror(errno));
		return FALSE;
	}
	/* The report opens with its Sender and Subject: they are the headers. */
	msg = g_strdup_printf("To: %s\n%s", to, report);
	/* The message in an unlinked file, so a mail program that never reads
	 * its input cannot block sbatchd on a pipe. */
	tmp = g_build_filename(sbd->jobs_dir, "mail.XXXXXX", NULL);
	fd = g_mkstemp_full(tmp, O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s", tmp,
		    g_strerror(errno));
		return FALSE;
	}
	(void)g_unlink(tmp);
	if (write(fd, msg, strlen(msg)) != (ssize_t)strlen(msg) ||
	    lseek(fd, 0, SEEK_SET) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot write the mail: %s",
		    g_strerror(errno));
		close(fd);
		return FALSE;
	}
	argv[0] = (char *)prog;
	argv[1] = (char *)"-oi";
	argv[2] = (char *)to;
	argv[3] = NULL;
	envp = g_environ_setenv(NULL, "PATH", "/usr/sbin:/usr/bin:/sbin:/bin", TRUE);
	envp = g_environ_setenv(envp, "HOME", home ? home : "/", TRUE);
	envp = g_environ_setenv(envp, "USER", user, TRUE);
	envp = g_environ_setenv(envp, "LOGNAME", user, TRUE);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	out_fd = open_spooled_output(sbd, output_path);
	pid = fork();
	if (pid == 0) {
		child_signals();
		if (setsid() < 0 || !as_user_switch(a) ||
		    !child_append_output(fd, out_fd) || dup2(fd, 0) < 0 ||
		    devnull < 0 || dup2(devnull, 1) < 0 || dup2(devnull, 2) < 0)
			_exit(127);
		if (chdir(home ? home : "/") < 0 && chdir("/") < 0)
			_exit(127);
		/* Nothing of sbatchd's may reach the mail program. */
		(void)close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
		execve(prog, argv, envp);
		_exit(127);
	}
	close(fd);
	if (devnull >= 0)
		close(devnull);
	if (out_fd >= 0)
		close(out_fd);
	if (pid < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot fork: %s", g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

/* ---- putting it together ---- */

typedef struct {
	GKeyFile *kf;
	SbdReportFacts f;
	char *strs[12];
	char **hosts;
	char *sender;
	/* The owner's groups are listed (a read of the group database) only
	 * when something is written or mailed as the owner: loaded_as(). */
	uid_t uid;
	gid_t gid;
	gboolean as_ready;
	AsUser as;
} Loaded;

static const char *
get(Loaded *l, int slot, const char *k)
{
	l->strs[slot] = g_key_file_get_string(l->kf, GROUP, k, NULL);
	return l->strs[slot];
}

static gboolean
load(Sbd *sbd, SbdJob *job, Loaded *l)
{
	const char *admin = sbd->cfg->cluster && sbd->cfg->cluster->admins ?
	    sbd->cfg->cluster->admins[0] : NULL;

	memset(l, 0, sizeof *l);
	l->kf = g_key_file_new();
	if (job->info == NULL ||
	    !g_key_file_load_from_data(l->kf, job->info, (gsize)-1, G_KEY_FILE_NONE, NULL))
		return FALSE;
	l->f.job_id = job->id;
	l->f.index = job->index;
	l->f.user = get(l, 0, "user");
	l->f.home = get(l, 1, "home");
	l->f.cwd = get(l, 2, "cwd");
	l->f.name = get(l, 3, "name");
	l->f.queue = get(l, 4, "queue");
	l->f.command = get(l, 5, "command");
	l->f.submit_host = get(l, 6, "submit_host");
	l->f.err_path = get(l, 7, "err_path");
	(void)get(l, 8, "out_path");
	(void)get(l, 9, "tmpdir");
	(void)get(l, 10, "hostfile");
	(void)get(l, 11, "mail_to");
	if (l->f.user == NULL || l->f.cwd == NULL || l->f.name == NULL ||
	    l->f.queue == NULL || l->f.command == NULL || l->f.submit_host == NULL)
		return FALSE;
	l->f.cluster = sbd->cfg->cluster && sbd->cfg->cluster->name ?
	    sbd->cfg->cluster->name : "";
	l->sender = g_strdup_printf("%s@%s", admin ? admin : "root", sbd->host);
	l->f.sender = l->sender;
	l->f.submit_time = g_key_file_get_int64(l->kf, GROUP, "submit_time", NULL);
	l->f.start_time = job->start_time;
	l->hosts = g_key_file_get_string_list(l->kf, GROUP, "hosts", NULL, NULL);
	l->f.hosts = l->hosts;
	l->uid = (uid_t)g_key_file_get_uint64(l->kf, GROUP, "uid", NULL);
	l->gid = (gid_t)g_key_file_get_uint64(l->kf, GROUP, "gid", NULL);
	return TRUE;
}

/* The identity to write or mail as; NULL when the owner's groups cannot
 * be listed (then nothing is done as the owner). */
static const AsUser *
loaded_as(Loaded *l)
{
	if (!l->as_ready)
		l->as_ready = as_user_prepare(&l->as, l->f.user, l->uid, l->gid);
	return l->as_ready ? &l->as : NULL;
}

static void
loaded_clear(Loaded *l)
{
	for (guint i = 0; i < G_N_ELEMENTS(l->strs); i++)
		g_free(l->strs[i]);
	g_strfreev(l->hosts);
	g_free(l->sender);
	g_free(l->as.groups);
	if (l->kf != NULL)
		g_key_file_free(l->kf);
}

static void
usage_from_job(const SbdJob *job, const SbdReportFacts *f, SbdReportUsage *u)
{
	u->cpu_s = (double)(MAX(job->usage.utime_us, 0) + MAX(job->usage.stime_us, 0)) / 1e6;
	u->max_mem_kb = job->usage.peak_rss_kb > 0 ? job->usage.peak_rss_kb : -1;
	/* The samples' accounting (job-usage.c); a job too short to be
	 * sampled shows "-" for what only samples know. */
	u->avg_mem_kb = job->mem_samples > 0 ?
	    job->mem_sum_kb / (gint64)job->mem_samples : -1;
	u->max_swap_kb = job->max_swap_kb > 0 ? job->max_swap_kb : -1;
	u->max_procs = job->max_nprocs > 0 ? (gint64)job->max_nprocs :
	    job->usage.nproc > 0 ? (gint64)job->usage.nproc : -1;
	u->max_threads = job->max_nthreads > 0 ? (gint64)job->max_nthreads : -1;
	u->run_time_s = MAX(f->end_time - f->start_time, 0);
	u->turnaround_s = f->submit_time > 0 ? MAX(f->end_time - f->submit_time, 0) : -1;
}

static BsExitStatus
exit_of(const SbdJob *job)
{
	BsExitStatus st = { .kind = BS_EXIT_UNKNOWN };

	if (job->term_signal > 0) {
		st.kind = BS_EXIT_SIGNAL;
		st.signo = job->term_signal;
	} else if (job->exit_status >= 0) {
		st.kind = BS_EXIT_CODE;
		st.code = job->exit_status;
	}
	return st;
}

/* *writer: the child appending to the -o file, 0 when there is none. */
static void
write_report(SbdJob *job, Loaded *l, pid_t *writer)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	SbdReportUsage u;
	const char *out = l->strs[8];
	const char *to = l->strs[11];
	gboolean mail = g_key_file_get_boolean(l->kf, GROUP, "mail_end", NULL);
	gboolean with_output = mail && to != NULL &&
	    g_key_file_get_boolean(l->kf, GROUP, "mail_output", NULL);
	const AsUser *as;

	l->f.end_time = g_get_real_time() / G_USEC_PER_SEC;
	l->f.done = job->exit_status == 0;
	l->f.exit = exit_of(job);
	l->f.reason = job->kill_reason;
	l->f.output_follows = with_output;
	usage_from_job(job, &l->f, &u);
	if (!(mail && to != NULL) && (out == NULL || strcmp(out, "/dev/null") == 0))
		return;
	if ((as = loaded_as(l)) == NULL) {
		sbd_log(BS_LOG_WARNING, job, "no job report: cannot list the "
		    "groups of user %s", l->f.user);
		return;
	}
	/* Recorded first: an sbatchd restarted from here on does not write
	 * or mail the report a second time. */
	job->report_begun = TRUE;
	if (!sbd_store_mark(job, &err)) {
		sbd_log(BS_LOG_WARNING, job, "cannot save the job's state: %s",
		    err->message);
		g_clear_error(&err);
	}
	text = sbd_report_format(&l->f, &u);
	if (mail && to != NULL) {
		if (!mail_as_user(job->sbd, as, l->f.home, l->f.user, to, text,
		    with_output ? job->out_path : NULL, &err))
			sbd_log(BS_LOG_WARNING, job, "cannot mail the job report: %s",
			    err->message);
		return;
	}
	if (!append_start(as, out, g_key_file_get_boolean(l->kf, GROUP,
	    "create_out", NULL), text, writer, &err))
		sbd_log(BS_LOG_WARNING, job, "cannot append the job report to %s: %s",
		    out, err->message);
}

gboolean
sbd_job_end_files(SbdJob *job)
{
	g_autoptr(GError) err = NULL;
	pid_t writer = 0;
	Loaded l;

	if (!load(job->sbd, job, &l)) {
		loaded_clear(&l);
		return TRUE;
	}
	/* A run whose pre-exec failed never ran: it goes back to pending. */
	if (!job->forget && job->preexec_failed == 0 && !job->report_begun)
		write_report(job, &l, &writer);
	if (l.strs[9] != NULL && !sbd_job_tmpdir_remove(l.strs[9], &err))
		sbd_log(BS_LOG_WARNING, job, "temporary directory: %s", err->message);
	if (l.strs[10] != NULL)
		(void)g_unlink(l.strs[10]);
	if (writer > 0) {
		Pending *w = g_new0(Pending, 1);

		if (pending == NULL)
			pending = g_hash_table_new_full(NULL, NULL, NULL, pending_free);
		w->sbd = job->sbd;
		w->key = g_strdup(job->key);
		w->job = job;
		w->path = g_strdup(l.strs[8]);
		w->pid = writer;
		w->timer = g_timeout_add_seconds(WRITE_TIMEOUT_S, pending_timeout, w);
		g_hash_table_insert(pending, GINT_TO_POINTER(writer), w);
	}
	if (job->legacy_info != NULL)
		(void)g_unlink(job->legacy_info);
	loaded_clear(&l);
	return writer == 0;
}

void
sbd_job_begin_mail(Sbd *sbd, const char *key, gint64 start_time)
{
	SbdJob *job = g_hash_table_lookup(sbd->jobs, key);
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	Loaded l;

	if (job == NULL)
		return;
	if (!load(sbd, job, &l) || !g_key_file_get_boolean(l.kf, GROUP, "mail_begin", NULL) ||
	    l.strs[11] == NULL) {
		loaded_clear(&l);
		return;
	}
	l.f.start_time = start_time;
	text = sbd_report_format_begin(&l.f);
	if (loaded_as(&l) == NULL)
		sbd_log(BS_LOG_WARNING, job, "no start mail: cannot list the "
		    "groups of user %s", l.f.user);
	else if (!mail_as_user(sbd, &l.as, l.f.home, l.f.user, l.strs[11], text, NULL, &err))
		sbd_log(BS_LOG_WARNING, job, "cannot mail the job start: %s", err->message);
	loaded_clear(&l);
}
