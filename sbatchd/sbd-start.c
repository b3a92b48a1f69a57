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
#include <pwd.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

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

static char *
absolute(const char *cwd, const char *path)
{
	if (g_path_is_absolute(path))
		return g_strdup(path);
	return g_build_filename(cwd, path, NULL);
}

typedef struct {
	BsLaunchSpec spec;
	Owner owner;
	char **env;
	char *script_path;
	char *spool_path;
	char *cwd;
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
plan_streams(Sbd *sbd, SbdJob *job, const Basalt__JobSpec *s, StartPlan *p,
    GError **error)
{
	BsLaunchSpec *l = &p->spec;

	l->stdin_path = s->stdin_path && *s->stdin_path ? s->stdin_path : NULL;
	l->stdout_path = s->stdout_path && *s->stdout_path ? s->stdout_path : NULL;
	l->stdout_overwrite = s->stdout_overwrite;
	l->stderr_path = s->stderr_path && *s->stderr_path ? s->stderr_path : NULL;
	l->stderr_overwrite = s->stderr_overwrite;
	if (l->stdout_path == NULL) {
		g_autofree char *name = g_strconcat(job->key, ".out", NULL);

		p->spool_path = g_build_filename(sbd->output_dir, name, NULL);
		if (!create_for_owner(p->spool_path, &p->owner, NULL, error))
			return FALSE;
		l->spool_path = p->spool_path;
		job->out_path = g_strdup(p->spool_path);
	} else {
		g_autofree char *x = bs_launch_expand_path(l->stdout_path, job->id, job->index);

		job->out_path = absolute(p->cwd, x);
	}
	if (l->stderr_path != NULL) {
		g_autofree char *x = bs_launch_expand_path(l->stderr_path, job->id, job->index);

		job->err_path = absolute(p->cwd, x);
		if (strcmp(job->err_path, job->out_path) == 0)
			g_clear_pointer(&job->err_path, g_free);
	}
	return TRUE;
}

static gboolean
plan_command(Sbd *sbd, SbdJob *job, const Basalt__StartJobRequest *req,
    StartPlan *p, GError **error)
{
	const Basalt__JobSpec *s = req->spec;

	if (s->script != NULL && *s->script != '\0') {
		g_autofree char *name = g_strconcat(job->key, ".script", NULL);

		p->script_path = g_build_filename(sbd->jobs_dir, name, NULL);
		if (!create_for_owner(p->script_path, &p->owner, s->script, error))
			return FALSE;
		p->spec.script = p->script_path;
	} else if (s->command != NULL && *s->command != '\0') {
		p->spec.command = s->command;
	} else {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "the job has no command");
		return FALSE;
	}
	p->spec.job_starter = req->job_starter && *req->job_starter ? req->job_starter : NULL;
	sbd_prepost_plan(req, &p->spec);
	return TRUE;
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
	p->env = build_env(sbd, req);
	l->env = p->env;
	l->nice = req->nice;
	l->status_path = job->status_path;
	l->wrapper = sbd->wrapper;
	p->ia_fd = sbd_interactive_setup(sbd, req, error);
	if (p->ia_fd < 0) {
		p->ia_fd = 0;
		return FALSE;
	}
	l->interactive_fd = p->ia_fd;
	plan_limits(job, req, p);
	return plan_command(sbd, job, req, p, error) &&
	    plan_streams(sbd, job, req->spec, p, error);
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
	sbd_limits_from_effective(req->effective, &job->limits);
	return job;
}

gboolean
sbd_job_start(Sbd *sbd, const Basalt__StartJobRequest *req, SbdJob **out,
    GError **error)
{
	g_autofree char *key = sbd_job_key(req->job_id, req->array_index,
	    req->instance);
	SbdJob *job = g_hash_table_lookup(sbd->jobs, key);
	StartPlan p;
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
	ok = plan_build(sbd, job, req, &p, error) && bs_launch(&p.spec, &pgid, error);
	if (!ok) {
		sbd_start_classify(sbd, req, step, error);
		if (p.spool_path != NULL)
			(void)g_unlink(p.spool_path);
		(void)g_unlink(job->status_path);
		sbd_cgroup_remove(job);
		plan_clear(&p);
		sbd_job_free(job);
		return FALSE;
	}
	job->pgid = pgid;
	job->user = g_strdup(p.owner.user);
	job->uid = p.owner.uid;
	job->gid = p.owner.gid;
	job->start_time = g_get_real_time() / G_USEC_PER_SEC;
	job->env = g_steal_pointer(&p.env);
	plan_clear(&p);
	sbd_job_started(job);
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
