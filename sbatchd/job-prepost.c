/*
 * Pre-exec, post-exec and JOB_CONTROLS commands on the execution host.
 *
 * The pre- and post-execution commands run inside bs-jobwrap (jobwrap.c),
 * in the job's own process group: they run as the job's user, are killed
 * with the job, and the run is not over until its post-exec is (LSF shows
 * DONE or EXIT only after the post-exec).  This file hands them to the
 * launch (which levels, in which order) and reads back what the wrapper
 * recorded: a pre-exec that failed (the run never reached the job's
 * command: mbatchd requeues it) or a post-exec that failed (reported with
 * the job's end, never changing it).
 *
 * A JOB_CONTROLS action given as a command (SUSPEND[cmd], RESUME[cmd],
 * TERMINATE[cmd]) runs as the job's user through bs_launch(), in a session
 * of its own so that stopping the job's group cannot stop the command,
 * with the job's environment plus LSB_JOBPGIDS and LSB_JOBPIDS (LSF's), cwd
 * /tmp and no output.  Its exit is reaped as "a process of no job"
 * (sbd.c); the job's state follows what the command does to it.
 */
#include "config.h"

#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "sbd.h"
#include "util/error.h"

/*
 * LSB_PRE_POST_EXEC_USER (lsf.conf of this host; LSF reads it from
 * lsf.sudoers): the queue's and the application profile's pre/post-exec
 * run as that user.  It is resolved here, on the host that runs them,
 * never taken from the network.  Root is allowed (LSF's use of it: a
 * pre-exec that prepares the host), as the host's own configuration says
 * it.  A user unknown here is logged and the hooks run as the job's user,
 * the less privileged reading of a broken setting.
 */
static void
prepost_user(Sbd *sbd, const Basalt__StartJobRequest *req, BsLaunchSpec *l)
{
	const char *name = sbd_conf_value(sbd, "LSB_PRE_POST_EXEC_USER");
	struct passwd pw, *found = NULL;
	char buf[4096];

	if (name == NULL || geteuid() != 0)
		return;
	if (getpwnam_r(name, &pw, buf, sizeof buf, &found) != 0 || found == NULL) {
		bs_log(BS_LOG_WARNING, "LSB_PRE_POST_EXEC_USER %s is not a user on "
		    "this host: job %" G_GUINT64_FORMAT "'s pre/post-exec run as "
		    "its user", name, req->job_id);
		return;
	}
	l->hook_user = name;
	l->hook_uid = pw.pw_uid;
	l->hook_gid = pw.pw_gid;
	/* Level 2 without bsub -E / -Ep is the application profile's. */
	l->pre_exec_profile = req->spec == NULL || req->spec->pre_exec == NULL ||
	    *req->spec->pre_exec == '\0';
	l->post_exec_profile = req->spec == NULL || req->spec->post_exec == NULL ||
	    *req->spec->post_exec == '\0';
	l->profile_post_exec = req->effective != NULL &&
	    sbd_prepost_is_profile(req->effective, req->effective->post_exec);
}

/* The stamp's post_exec is the profile's POST_EXEC, else the queue's
 * (effective.c); mbatchd's job level (effective-prepost.c) is bsub -Ep,
 * else the stamp's when it is not the queue's.  So a job-level command
 * equal to a stamp that is not the queue's is the profile's: as the
 * profile's it runs as LSB_PRE_POST_EXEC_USER.  A user whose -Ep is that
 * very text gets only what not giving -Ep gives: the administrator's
 * command, run as for every job of the profile. */
gboolean
sbd_prepost_is_profile(const Basalt__JobEffective *e, const char *cmd)
{
	if (e == NULL || cmd == NULL || *cmd == '\0' || e->post_exec == NULL ||
	    strcmp(cmd, e->post_exec) != 0)
		return FALSE;
	return e->queue_post_exec == NULL || strcmp(e->post_exec,
	    e->queue_post_exec) != 0;
}

void
sbd_prepost_plan(Sbd *sbd, const Basalt__StartJobRequest *req, BsLaunchSpec *l)
{
	prepost_user(sbd, req, l);
	l->pre_exec[0] = req->queue_pre_exec && *req->queue_pre_exec ? req->queue_pre_exec : NULL;
	l->pre_exec[1] = req->pre_exec && *req->pre_exec ? req->pre_exec : NULL;
	l->post_exec[0] = req->queue_post_exec && *req->queue_post_exec ? req->queue_post_exec : NULL;
	l->post_exec[1] = req->post_exec && *req->post_exec ? req->post_exec : NULL;
	l->pre_timeout_s = req->preexec_timeout_s;
	l->post_timeout_s = req->postexec_timeout_s;
}

/* One "key=N" of the wrapper's record line; FALSE when absent. */
static gboolean
record_int(char **fields, const char *key, gint64 *out)
{
	gsize klen = strlen(key);

	for (char **f = fields; *f != NULL; f++)
		if (strncmp(*f, key, klen) == 0 && (*f)[klen] == '=')
			return g_ascii_string_to_signed(*f + klen + 1, 10, 0, 255, out, NULL);
	return FALSE;
}

void
sbd_prepost_finish(SbdJob *job)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) fields = NULL;
	gint64 n;
	char *nl;

	job->preexec_failed = 0;
	job->postexec_status = 0;
	if (job->status_path == NULL ||
	    !g_file_get_contents(job->status_path, &text, NULL, NULL) ||
	    (nl = strchr(text, '\n')) == NULL)
		return;
	*nl = '\0';
	fields = g_strsplit(text, " ", -1);
	if (record_int(fields, "preexec", &n) && n > 0)
		job->preexec_failed = (guint)n;
	if (record_int(fields, "postexec", &n))
		job->postexec_status = (int)n;
}

char *
sbd_prepost_reason(const SbdJob *job)
{
	if (job->preexec_failed != 0)
		return g_strdup_printf("The %s pre-exec command exited with non-zero "
		    "status %d on host <%s>;", job->preexec_failed == 1 ? "queue's" :
		    "job's", job->exit_status, job->sbd->host);
	if (job->postexec_status != 0)
		return g_strdup_printf("Post job process failed (exit code %d) on host "
		    "<%s>;", job->postexec_status, job->sbd->host);
	return NULL;
}

gboolean
sbd_job_control_command(SbdJob *job, const char *command, const char *susp_reason,
    GError **error)
{
	BsLaunchSpec l;
	g_autoptr(GArray) members = bs_jobctl_find_members(job->pgid);
	g_autoptr(GString) pids = g_string_new(NULL);
	g_auto(GStrv) env = job->env ? g_strdupv(job->env) : g_new0(char *, 1);
	g_autofree char *pgids = g_strdup_printf("%d", (int)job->pgid);
	pid_t pid = 0;

	for (guint i = 0; i < members->len; i++)
		g_string_append_printf(pids, "%s%d", i ? " " : "",
		    (int)g_array_index(members, pid_t, i));
	env = g_environ_setenv(env, "LSB_JOBPGIDS", pgids, TRUE);
	env = g_environ_setenv(env, "LSB_JOBPIDS", pids->str, TRUE);
	if (susp_reason != NULL)
		env = g_environ_setenv(env, "LSB_SUSP_REASONS", susp_reason, TRUE);
	memset(&l, 0, sizeof l);
	l.job_id = (gint64)job->id;
	l.array_index = (int)job->index;
	l.command = command;
	l.uid = job->uid;
	l.gid = job->gid;
	l.user = job->user;
	l.allow_root = job->sbd->allow_root;
	l.cwd = "/tmp";
	l.env = env;
	if (!bs_launch(&l, &pid, error))
		return FALSE;
	sbd_log(BS_LOG_INFO, job, "JOB_CONTROLS command started, pid %d", (int)pid);
	return TRUE;
}
