/*
 * From a StartJobRequest to running processes.
 *
 * mbatchd has resolved the user, queue and environment; this file decides
 * what only the execution host can: whether the user exists here with the
 * same uid (the gid and groups are this host's, never the order's), whether a root job is allowed (lsf.conf LSF_ROOT_REX or
 * LSB_ALLOW_ROOT_JOBS), where output goes when bsub had no -o (a spool file
 * in the state directory, which bpeek reads), and which files sbatchd must
 * create for the job before it switches user (the status record, the spool
 * file and a script sent as text), because the job's owner need not be able
 * to write the state directory.
 *
 * Every refusal is a GError whose message mbatchd shows as the job's exit
 * reason, so it names the host and what to change.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sbd-jobenv.h"
#include "job-paths.h"
#include "sbd-report.h"
#include "sbd.h"
#include "util/error.h"
#include "util/escape.h"

/* Who the job runs as. */
typedef struct {
	char *user;
	uid_t uid;
	gid_t gid;
	char *home;
} Owner;

static void
owner_clear(Owner *o)
{
	g_free(o->user);
	g_free(o->home);
}

/*
 * The job's identity comes from this host's password database, never from
 * the order: mbatchd (or whoever answers on its port) names a user, and
 * that user's uid here must match the uid it sent; the primary gid is the
 * one in the password entry and the groups are initgroups' (launch.c), so
 * an order carrying gid 42 cannot give a job the shadow group.
 */
static gboolean
lookup_user(const char *user, struct passwd *pw, char **buf, GError **error)
{
	long max = sysconf(_SC_GETPW_R_SIZE_MAX);
	gsize len = max > 0 ? (gsize)max : 16384;
	struct passwd *found = NULL;
	int rc;

	for (;;) {
		*buf = g_realloc(*buf, len);
		rc = getpwnam_r(user, pw, *buf, len, &found);
		if (rc != ERANGE || len >= 1024 * 1024)
			break;
		len *= 2;
	}
	if (rc != 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot look up user %s: %s",
		    user, g_strerror(rc));
		return FALSE;
	}
	return found != NULL;
}

static gboolean
resolve_owner(Sbd *sbd, const Basalt__StartJobRequest *req, Owner *o, GError **error)
{
	struct passwd *pw, pwbuf;
	g_autofree char *buf = NULL;
	g_autofree char *user = NULL;
	GError *local = NULL;

	if (req->uid == 0 && !sbd->allow_root) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED, "root jobs are not "
		    "allowed on host %s (set LSB_ALLOW_ROOT_JOBS=Y in lsf.conf to "
		    "allow them)", sbd->host);
		return FALSE;
	}
	if (geteuid() != 0) {
		/* Not root: every job runs as sbatchd's own user. */
		pw = getpwuid(geteuid());
		o->user = g_strdup(pw ? pw->pw_name : g_get_user_name());
		o->uid = geteuid();
		o->gid = getegid();
		o->home = g_strdup(pw ? pw->pw_dir : "/");
		return TRUE;
	}
	user = bs_escape(req->user ? req->user : "");
	if (req->user == NULL || *req->user == '\0' ||
	    !lookup_user(req->user, &pwbuf, &buf, &local)) {
		if (local != NULL) {
			g_propagate_error(error, local);
			return FALSE;
		}
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED, "User account <%s> "
		    "does not exist on execution host %s", user, sbd->host);
		return FALSE;
	}
	pw = &pwbuf;
	if (pw->pw_uid != req->uid) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED, "User account <%s> "
		    "has uid %u on execution host %s but uid %u on the submission "
		    "host", user, (unsigned)pw->pw_uid, sbd->host, req->uid);
		return FALSE;
	}
	if (pw->pw_uid == 0 && !sbd->allow_root) {
		g_set_error(error, BS_ERROR, BS_ERROR_REFUSED, "root jobs are not "
		    "allowed on host %s (set LSB_ALLOW_ROOT_JOBS=Y in lsf.conf to "
		    "allow them)", sbd->host);
		return FALSE;
	}
	o->user = g_strdup(pw->pw_name);
	o->uid = pw->pw_uid;
	o->gid = pw->pw_gid;
	o->home = g_strdup(pw->pw_dir);
	return TRUE;
}

/* The submission environment, then mbatchd's LSB_* on top. */
static char **
build_env(Sbd *sbd, const Basalt__StartJobRequest *req)
{
	char **env = g_new0(char *, 1);
	const Basalt__JobSpec *spec = req->spec;

	for (size_t i = 0; spec != NULL && i < spec->n_env; i++) {
		const char *eq = strchr(spec->env[i], '=');
		g_autofree char *k = eq ? g_strndup(spec->env[i], eq - spec->env[i]) : NULL;

		if (k != NULL && *k != '\0')
			env = g_environ_setenv(env, k, eq + 1, TRUE);
	}
	for (size_t i = 0; i < req->n_env; i++) {
		const char *eq = strchr(req->env[i], '=');
		g_autofree char *k = eq ? g_strndup(req->env[i], eq - req->env[i]) : NULL;

		if (k != NULL && *k != '\0')
			env = g_environ_setenv(env, k, eq + 1, TRUE);
	}
	if (sbd->envdir != NULL)
		env = g_environ_setenv(env, "LSF_ENVDIR", sbd->envdir, FALSE);
	return env;
}

/* A file sbatchd creates for the job and hands over to its owner. */
static gboolean
create_for_owner(const char *path, const Owner *o, const char *text, GError **error)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	gboolean ok = fd >= 0;
	gsize len = text ? strlen(text) : 0;

	if (ok && len > 0)
		ok = write(fd, text, len) == (ssize_t)len;
	if (ok && geteuid() == 0)
		ok = fchown(fd, o->uid, o->gid) == 0;
	if (!ok)
		g_set_error(error, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s", path,
		    g_strerror(errno));
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Longer commands run from the job file: one argument of execve() may
 * not exceed 128 KiB (MAX_ARG_STRLEN), and a job starter adds to it. */
#define SBD_COMMAND_INLINE_MAX (64 * 1024)

typedef struct {
	BsLaunchSpec spec;
	Owner owner;
	char **env;
	char *script_path;
	char *spool_path;
	char *cwd;
	/* Paths and files of the job environment (job-paths.h, sbd-jobenv.h). */
	char *group;
	char *out_path;           /* -o resolved, NULL without -o */
	char *err_path;           /* -e resolved, NULL without -e */
	char *outdir;
	char **mkdirs;
	char *command;            /* what runs when it is not the user's text */
	char *hostfile;
	char *post_override;      /* bmod -Ep of the running job (job-modify.c) */
	char *tmpdir;
	int ia_fd;                /* interactive setup pipe, 0: none */
	BsLaunchLimit limits[SBD_MAX_RLIMITS];
	char *cgroup_procs;
} StartPlan;

static void
plan_clear(StartPlan *p)
{
	owner_clear(&p->owner);
	g_strfreev(p->env);
	g_free(p->script_path);
	g_free(p->spool_path);
	g_free(p->cwd);
	if (p->ia_fd > 0)
		close(p->ia_fd);
	g_free(p->cgroup_procs);
	g_free(p->group);
	g_free(p->out_path);
	g_free(p->err_path);
	g_free(p->outdir);
	g_strfreev(p->mkdirs);
	g_free(p->command);
	g_free(p->hostfile);
	g_free(p->tmpdir);
	g_free(p->post_override);
}

/* A launch that failed leaves none of the job's files behind. */
static void
plan_undo(const StartPlan *p)
{
	if (p->spool_path != NULL)
		(void)g_unlink(p->spool_path);
	if (p->script_path != NULL)
		(void)g_unlink(p->script_path);
	if (p->hostfile != NULL)
		(void)g_unlink(p->hostfile);
	if (p->post_override != NULL)
		(void)g_unlink(p->post_override);
	if (p->tmpdir != NULL)
		(void)sbd_job_tmpdir_remove(p->tmpdir, NULL);
}

char *
sbd_group_name(gid_t gid)
{
	struct group gr, *found = NULL;
	char buf[16384];

	if (getgrgid_r(gid, &gr, buf, sizeof buf, &found) == 0 && found != NULL)
		return g_strdup(found->gr_name);
	return g_strdup_printf("%u", (unsigned)gid);
}

static gboolean
names_group(const char *tmpl)
{
	return tmpl != NULL && strstr(tmpl, "%G") != NULL;
}

/*
 * %G: bsub -G, else the name of the owner's primary group here.  The name
 * costs a read of the group database, so without -G it is looked up only
 * when one of the job's path patterns may use it ("%%G" counts too: a
 * lookup too many is harmless); NULL otherwise, and a later bmod -o with
 * %G looks it up then (sbd_job_info_set_out).
 */
static char *
group_name(const Basalt__JobSpec *s, const char *cwd, gid_t gid)
{
	if (s->user_group != NULL && *s->user_group != '\0')
		return g_strdup(s->user_group);
	if (names_group(cwd) || names_group(s->outdir) ||
	    names_group(s->stdout_path) || names_group(s->stderr_path))
		return sbd_group_name(gid);
	return NULL;
}

/*
 * The job's limits (job-limits.h): setrlimit()s for every process, its
 * cgroup when the host has cgroup v2, and the submitter's umask.  The
 * whole-job limits are in job->limits already (job_new).
 */
static void
plan_limits(SbdJob *job, const Basalt__StartJobRequest *req, StartPlan *p)
{
	BsLaunchSpec *l = &p->spec;

	l->n_limits = sbd_limits_rlimits(req->effective, p->limits);
	sbd_limits_cpu_policy(sbd_conf_value(job->sbd, "LSB_JOB_CPULIMIT"),
	    &job->limits, p->limits, &l->n_limits);
	sbd_limits_clamp(p->limits, l->n_limits, geteuid() == 0);
	l->limits = p->limits;
	p->cgroup_procs = sbd_cgroup_create(job, req->effective);
	l->cgroup_procs = p->cgroup_procs;
	if (req->spec->umask_set) {
		l->set_umask = TRUE;
		l->umask = (mode_t)(req->spec->umask & 0777);
	}
}

static gboolean
owner_is_dir(const char *path, gpointer data)
{
	const Owner *o = data;

	return sbd_is_dir_as_user(o->user, o->uid, o->gid, path);
}

static void
path_vars(Sbd *sbd, const SbdJob *job, const Basalt__StartJobRequest *req,
    const StartPlan *p, SbdPathVars *v)
{
	v->job_id = (gint64)job->id;
	v->index = (int)job->index;
	v->user = p->owner.user;
	v->group = p->group;
	v->host = req->n_exec_hosts > 0 ? req->exec_hosts[0] : sbd->host;
	v->project = req->spec->project && *req->spec->project ?
	    req->spec->project : "default";
	v->jobgroup = req->spec->job_group;
}

static gboolean
plan_streams(Sbd *sbd, SbdJob *job, const Basalt__StartJobRequest *req,
    StartPlan *p, GError **error)
{
	const Basalt__JobSpec *s = req->spec;
	BsLaunchSpec *l = &p->spec;
	SbdPathVars v;
	const char *base = p->outdir ? p->outdir : p->cwd;

	path_vars(sbd, job, req, p, &v);
	if (s->stdout_path && *s->stdout_path)
		p->out_path = sbd_path_output(s->stdout_path, &v, base, "out",
		    owner_is_dir, &p->owner);
	if (s->stderr_path && *s->stderr_path)
		p->err_path = sbd_path_output(s->stderr_path, &v, base, "err",
		    owner_is_dir, &p->owner);
	l->stdin_path = s->stdin_path && *s->stdin_path ? s->stdin_path : NULL;
	l->stdout_path = p->out_path;
	l->stdout_overwrite = s->stdout_overwrite;
	l->stderr_path = p->err_path;
	l->stderr_overwrite = s->stderr_overwrite;
	if (l->stdout_path == NULL) {
		g_autofree char *name = g_strconcat(job->key, ".out", NULL);

		p->spool_path = g_build_filename(sbd->output_dir, name, NULL);
		if (!create_for_owner(p->spool_path, &p->owner, NULL, error))
			return FALSE;
		l->spool_path = p->spool_path;
		job->out_path = g_strdup(p->spool_path);
	} else {
		job->out_path = g_strdup(p->out_path);
	}
	if (l->stderr_path != NULL) {
		job->err_path = g_strdup(p->err_path);
		if (strcmp(job->err_path, job->out_path) == 0)
			g_clear_pointer(&job->err_path, g_free);
	}
	return TRUE;
}

/*
 * "#!interpreter [arg]" on the first line of a spooled script: the script
 * runs under it, as the kernel would run it, but named explicitly so the
 * state directory need not allow exec.  NULL: no such line.
 */
static char *
interpreter_command(const char *script, const char *path)
{
	g_autofree char *line = NULL;
	g_autofree char *qpath = NULL;
	g_autofree char *interp = NULL;
	g_autofree char *qinterp = NULL;
	g_autofree char *qarg = NULL;
	const char *nl, *p;

	if (!g_str_has_prefix(script, "#!"))
		return NULL;
	nl = strchr(script, '\n');
	line = nl ? g_strndup(script + 2, (gsize)(nl - script - 2)) : g_strdup(script + 2);
	g_strstrip(line);
	if (*line == '\0')
		return NULL;
	for (p = line; *p != '\0' && *p != ' ' && *p != '\t'; p++)
		;
	interp = g_strndup(line, (gsize)(p - line));
	qinterp = g_shell_quote(interp);
	qpath = g_shell_quote(path);
	/* Like the kernel: the rest of the line is one argument. */
	p += strspn(p, " \t");
	if (*p != '\0')
		qarg = g_shell_quote(p);
	return qarg ? g_strdup_printf("%s %s %s", qinterp, qarg, qpath) :
	    g_strdup_printf("%s %s", qinterp, qpath);
}

static gboolean
plan_command(Sbd *sbd, SbdJob *job, const Basalt__StartJobRequest *req,
    StartPlan *p, GError **error)
{
	const Basalt__JobSpec *s = req->spec;

	g_autofree char *name = g_strconcat(job->key, ".script", NULL);

	/* Every job has its job file (LSB_JOBFILENAME): the spooled script, or
	 * the command, which runs from the file when it is too long to be one
	 * argument of "sh -c" (the kernel's MAX_ARG_STRLEN). */
	p->script_path = g_build_filename(sbd->jobs_dir, name, NULL);
	sbd_fresh_place(sbd, p->script_path);
	if (s->script != NULL && *s->script != '\0') {
		if (!create_for_owner(p->script_path, &p->owner, s->script, error))
			return FALSE;
		p->command = interpreter_command(s->script, p->script_path);
		if (p->command != NULL)
			p->spec.command = p->command;
		else
			p->spec.script = p->script_path;
	} else if (s->command != NULL && *s->command != '\0') {
		g_autofree char *text = g_strconcat(s->command, "\n", NULL);

		if (!create_for_owner(p->script_path, &p->owner, text, error))
			return FALSE;
		if (strlen(s->command) > SBD_COMMAND_INLINE_MAX)
			p->spec.script = p->script_path;
		else
			p->spec.command = s->command;
	} else {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "the job has no command");
		return FALSE;
	}
	p->spec.job_starter = req->job_starter && *req->job_starter ? req->job_starter : NULL;
	sbd_prepost_plan(sbd, req, &p->spec);
	return TRUE;
}

/* bsub -L: the command line runs under that login shell.  Only a full
 * path: a bare name would be looked up in a PATH the job's owner sets.
 * It runs as the owner, like the job itself. */
static gboolean
plan_login_shell(const Basalt__JobSpec *s, StartPlan *p, GError **error)
{
	if (s->login_shell == NULL || *s->login_shell == '\0')
		return TRUE;
	if (!g_path_is_absolute(s->login_shell)) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "login shell %s is "
		    "not an absolute path", s->login_shell);
		return FALSE;
	}
	p->spec.login_shell = s->login_shell;
	return TRUE;
}

static gboolean plan_jobenv(Sbd *sbd, SbdJob *job,
    const Basalt__StartJobRequest *req, StartPlan *p, GError **error);

/* What the job report and the clean-up at the end need (sbd-report.h). */
static void
plan_info(Sbd *sbd, SbdJob *job, const Basalt__StartJobRequest *req,
    const StartPlan *p)
{
	SbdJobInfo in = {
		.req = req, .user = p->owner.user, .uid = p->owner.uid,
		.gid = p->owner.gid, .home = p->owner.home, .cwd = p->cwd,
		.out_path = p->out_path, .err_path = job->err_path,
		.hostfile = p->hostfile, .tmpdir = p->tmpdir,
		.path_base = p->outdir ? p->outdir : p->cwd, .group = p->group,
	};

	sbd_job_info_save(sbd, job, &in);
}

static gboolean
plan_build(Sbd *sbd, SbdJob *job, const Basalt__StartJobRequest *req,
    StartPlan *p, GError **error)
{
	BsLaunchSpec *l = &p->spec;

	if (req->spec == NULL) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "the request has no job spec");
		return FALSE;
	}
	if (!resolve_owner(sbd, req, &p->owner, error))
		return FALSE;
	l->job_id = (gint64)job->id;
	l->array_index = (int)job->index;
	l->uid = p->owner.uid;
	l->gid = p->owner.gid;
	l->user = p->owner.user;
	l->allow_root = sbd->allow_root;
	p->cwd = g_strdup(req->spec->cwd && *req->spec->cwd ? req->spec->cwd :
	    p->owner.home && *p->owner.home ? p->owner.home : "/");
	l->cwd = p->cwd;
	/* LSF runs a job whose directory is missing here in /tmp, unless
	 * LSB_EXIT_IF_CWD_NOTEXIST=Y ends it (exit 2, start-refusal.c). */
	l->cwd_fallback = sbd->exit_if_no_cwd ? NULL : "/tmp";
	p->env = build_env(sbd, req);
	l->env = p->env;
	l->nice = req->nice;
	l->status_path = job->status_path;
	p->post_override = sbd_job_post_override_path(job->status_path);
	l->post_override_path = p->post_override;
	/* Both opened by bs_launch (launch.c) with O_CREAT, as before. */
	sbd_fresh_place(sbd, job->status_path);
	sbd_fresh_place(sbd, p->post_override);
	l->wrapper = sbd->wrapper;
	p->ia_fd = sbd_interactive_setup(sbd, req, error);
	if (p->ia_fd < 0) {
		p->ia_fd = 0;
		return FALSE;
	}
	l->interactive_fd = p->ia_fd;
	plan_limits(job, req, p);
	if (!plan_command(sbd, job, req, p, error) ||
	    !plan_login_shell(req->spec, p, error) ||
	    !plan_jobenv(sbd, job, req, p, error))
		return FALSE;
	plan_info(sbd, job, req, p);
	return TRUE;
}

/*
 * Where the job runs and writes, and its environment: the -cwd and -outdir
 * patterns expanded as the job's owner, the host file and the temporary
 * directory made, and LSF's variables set.
 */
static gboolean
plan_jobenv(Sbd *sbd, SbdJob *job, const Basalt__StartJobRequest *req,
    StartPlan *p, GError **error)
{
	const Basalt__JobSpec *s = req->spec;
	const char *base = sbd_conf_value(sbd, "LSB_JOB_TMPDIR");
	g_autofree char *hname = g_strconcat(job->key, ".hostfile", NULL);
	g_autofree char *stem = job->index > 0 ?
	    g_strdup_printf("%" G_GUINT64_FORMAT "_%u", job->id, job->index) :
	    g_strdup_printf("%" G_GUINT64_FORMAT, job->id);
	g_autoptr(GError) tmp_err = NULL;
	SbdPathVars v;
	SbdJobEnvFacts f;

	p->group = group_name(s, p->cwd, p->owner.gid);
	path_vars(sbd, job, req, p, &v);
	if (strchr(p->cwd, '%') != NULL) {
		char *x = sbd_path_expand(p->cwd, &v);

		g_free(p->cwd);
		p->cwd = x;
		p->spec.cwd = p->cwd;
	}
	if (s->outdir != NULL && *s->outdir != '\0') {
		g_autofree char *x = sbd_path_expand(s->outdir, &v);

		p->outdir = g_path_is_absolute(x) ? g_strdup(x) :
		    g_build_filename(p->cwd, x, NULL);
		p->mkdirs = sbd_path_prefixes(p->outdir);
		p->spec.mkdirs = p->mkdirs;
	}
	if (!plan_streams(sbd, job, req, p, error))
		return FALSE;
	p->hostfile = g_build_filename(sbd->jobs_dir, hname, NULL);
	sbd_fresh_place(sbd, p->hostfile);
	if (!sbd_job_hostfile_write(p->hostfile, req, p->owner.uid, p->owner.gid, error))
		return FALSE;
	if (!sbd_job_tmpdir_create(base && *base ? base : "/tmp", stem, p->owner.uid,
	    p->owner.gid, &p->tmpdir, &tmp_err))
		sbd_log(BS_LOG_WARNING, job, "no temporary directory for the job: %s",
		    tmp_err->message);
	f.cwd = p->cwd;
	f.out_path = p->out_path;
	f.err_path = p->err_path;
	f.jobfile = p->script_path;
	f.hostfile = p->hostfile;
	f.tmpdir = p->tmpdir;
	p->env = sbd_job_env_add(sbd, p->env, req, &f);
	p->spec.env = p->env;
	return TRUE;
}

static SbdJob *
job_new(Sbd *sbd, const Basalt__StartJobRequest *req)
{
	SbdJob *job = g_new0(SbdJob, 1);
	g_autofree char *status = NULL;

	job->sbd = sbd;
	job->id = req->job_id;
	job->index = req->array_index;
	job->instance = req->instance;
	job->key = sbd_job_key(job->id, job->index, job->instance);
	status = g_strconcat(job->key, ".status", NULL);
	job->status_path = g_build_filename(sbd->jobs_dir, status, NULL);
	job->runlimit_s = req->runlimit_s ? req->runlimit_s :
	    req->spec ? req->spec->runlimit_s : 0;
	job->term_interval_s = req->job_terminate_interval_s;
	if (req->effective != NULL && req->effective->warning_signal > 0 &&
	    req->effective->warning_signal < 65 && req->effective->warning_time > 0) {
		job->warning_signal = req->effective->warning_signal;
		job->warning_time_s = (guint64)req->effective->warning_time;
	}
	sbd_limits_from_effective(req->effective, &job->limits);
	return job;
}

/* What the new run's record holds before anything of it runs. */
typedef struct {
	SbdJob *job;
	const StartPlan *plan;
	gboolean saved;
} Forked;

/* bs_launch's on_forked: the run is on disk with its process group before
 * its child may exec, so a sbatchd killed from here on leaves a run its
 * successor adopts (and kills when mbatchd says to forget it). */
static void
run_forked(pid_t pgid, void *data)
{
	Forked *f = data;
	SbdJob *job = f->job;

	job->pgid = pgid;
	job->user = g_strdup(f->plan->owner.user);
	job->uid = f->plan->owner.uid;
	job->gid = f->plan->owner.gid;
	job->start_time = g_get_real_time() / G_USEC_PER_SEC;
	job->state = BASALT__JOB_STATE__JOB_STATE_RUN;
	sbd_job_save(job);
	f->saved = TRUE;
}

gboolean
sbd_job_start(Sbd *sbd, const Basalt__StartJobRequest *req, SbdJob **out,
    GError **error)
{
	g_autofree char *key = sbd_job_key(req->job_id, req->array_index,
	    req->instance);
	SbdJob *job = g_hash_table_lookup(sbd->jobs, key);
	StartPlan p;
	Forked forked = { 0 };
	pid_t pgid = 0;
	int step = 0;
	gboolean ok;

	/* mbatchd asked again (a lost reply): the same run, even finished.
	 * Without instances a finished run here was requeued: run again. */
	if (job != NULL && (req->instance != 0 || !job->finished)) {
		*out = job;
		return TRUE;
	}
	memset(&p, 0, sizeof p);
	job = job_new(sbd, req);
	p.spec.failed_step = &step;
	forked.job = job;
	forked.plan = &p;
	p.spec.on_forked = run_forked;
	p.spec.on_forked_data = &forked;
	ok = plan_build(sbd, job, req, &p, error) && bs_launch(&p.spec, &pgid, error);
	sbd_fresh_refill(sbd);
	if (!ok) {
		sbd_start_classify(sbd, req, step, error);
		if (forked.saved)
			sbd_store_remove(job);
		plan_undo(&p);
		(void)g_unlink(job->status_path);
		sbd_cgroup_remove(job);
		plan_clear(&p);
		sbd_job_free(job);
		return FALSE;
	}
	g_assert(forked.saved && job->pgid == pgid);
	job->env = g_steal_pointer(&p.env);
	plan_clear(&p);
	sbd_job_started(job);
	/* bsub -B only: the mail reads back the job's info file. */
	if (req->spec->notify_begin)
		sbd_job_begin_mail(sbd, job->key, job->start_time);
	*out = job;
	return TRUE;
}

/* ---- for blaunch tasks (sbd-tasks.c): the same identity and environment */

gboolean
sbd_start_owner(Sbd *sbd, const Basalt__StartJobRequest *req, char **user,
    uid_t *uid, gid_t *gid, char **home, GError **error)
{
	Owner o;

	memset(&o, 0, sizeof o);
	if (!resolve_owner(sbd, req, &o, error)) {
		owner_clear(&o);
		return FALSE;
	}
	*user = g_steal_pointer(&o.user);
	*home = g_steal_pointer(&o.home);
	*uid = o.uid;
	*gid = o.gid;
	return TRUE;
}

char **
sbd_start_env(Sbd *sbd, const Basalt__StartJobRequest *req)
{
	return build_env(sbd, req);
}
