/*
 * ExecService: what mbatchd asks of this host over the link sbatchd dialed.
 *
 * Handlers are thin: check the request, act through the job table and the
 * process-control library, and answer at once (bpeek's answer waits for a
 * reader child, never the main loop: sbd-peek.c).  An answer never waits for
 * the job (a TERMINATE takes JOB_TERMINATE_INTERVAL steps); what happens
 * later reaches mbatchd as a JobReport.  Application failures travel in the
 * reply's Error with a message a person can act on; mbatchd shows it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "batch.pb-c.h"
#include "sbd.h"
#include "util/error.h"

static Sbd *exec_sbd;

void
sbd_exec_init(Sbd *sbd)
{
	exec_sbd = sbd;
}

static Basalt__Error *
error_new(Basalt__Error *e, Basalt__ErrorCode code, const char *msg)
{
	basalt__error__init(e);
	e->code = code;
	e->message = (char *)msg;
	return e;
}

static void
x_start_job(Basalt__ExecService_Service *svc, const Basalt__StartJobRequest *in,
    Basalt__StartJobReply_Closure closure, void *call)
{
	Basalt__StartJobReply r = BASALT__START_JOB_REPLY__INIT;
	Basalt__Error e;
	g_autoptr(GError) err = NULL;
	SbdJob *job = NULL;

	if (sbd_job_start(exec_sbd, in, &job, &err)) {
		r.pgid = job->pgid;
	} else {
		sbd_log(BS_LOG_WARNING, NULL, "job %" G_GUINT64_FORMAT "[%u]: cannot start: %s",
		    in->job_id, in->array_index, err->message);
		/* The job's own failure ends it with an exit code; the host's
		 * (REFUSED: user, root; IO: sbatchd's files, fork) sends it
		 * back to PEND; a request without a job is a bad request. */
		if (err->domain == SBD_JOB_ERROR) {
			r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST,
			    err->message);
			r.exit_status = err->code;
		} else {
			r.error = error_new(&e, g_error_matches(err, BS_ERROR, BS_ERROR_REFUSED) ?
			    BASALT__ERROR_CODE__ERROR_CODE_PERMISSION :
			    g_error_matches(err, BS_ERROR, BS_ERROR_IO) ?
			    BASALT__ERROR_CODE__ERROR_CODE_INTERNAL :
			    BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST, err->message);
		}
	}
	closure(&r, call);
}

static gboolean
do_signal(SbdJob *job, const Basalt__SignalJobRequest *in, GError **err)
{
	/* JOB_CONTROLS SUSPEND[cmd] and the like: the command acts instead. */
	if (in->command != NULL && *in->command != '\0' &&
	    (in->action == BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND ||
	     in->action == BASALT__EXEC_ACTION__EXEC_ACTION_RESUME ||
	     in->action == BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE))
		return sbd_job_control_command(job, in->command,
		    in->action == BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND &&
		    in->reason != NULL && *in->reason ? in->reason : NULL, err);
	switch (in->action) {
	case BASALT__EXEC_ACTION__EXEC_ACTION_SIGNAL:
		if (in->signal <= 0 || in->signal >= NSIG) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "bad signal number %d",
			    in->signal);
			return FALSE;
		}
		sbd_interactive_signal_session(job->pgid, in->signal);
		return bs_jobctl_signal(job->pgid, in->signal, err);
	case BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND:
		sbd_interactive_signal_session(job->pgid, in->signal > 0 ?
		    in->signal : SIGSTOP);
		return bs_jobctl_suspend(job->pgid, in->signal, err);
	case BASALT__EXEC_ACTION__EXEC_ACTION_RESUME:
		sbd_interactive_signal_session(job->pgid, in->signal > 0 ?
		    in->signal : SIGCONT);
		return bs_jobctl_resume(job->pgid, in->signal, err);
	case BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE:
		sbd_job_terminate(job, in->reason && *in->reason ? in->reason : NULL);
		return TRUE;
	case BASALT__EXEC_ACTION__EXEC_ACTION_MODIFY:
		return sbd_job_modify(job, in, err);
	default:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "unknown action %d", in->action);
		return FALSE;
	}
}

static void
x_signal_job(Basalt__ExecService_Service *svc, const Basalt__SignalJobRequest *in,
    Basalt__SignalJobReply_Closure closure, void *call)
{
	Basalt__SignalJobReply r = BASALT__SIGNAL_JOB_REPLY__INIT;
	Basalt__Error e;
	g_autoptr(GError) err = NULL;
	g_autofree char *msg = NULL;
	SbdJob *job;
	guint ntasks = 0;

	/* badmin hrestart / hshutdown: the daemon, not a job. */
	if (in->action == BASALT__EXEC_ACTION__EXEC_ACTION_HOST_RESTART ||
	    in->action == BASALT__EXEC_ACTION__EXEC_ACTION_HOST_SHUTDOWN) {
		sbd_daemon_stop_soon(exec_sbd, in->action ==
		    BASALT__EXEC_ACTION__EXEC_ACTION_HOST_RESTART);
		closure(&r, call);
		return;
	}
	job = sbd_job_lookup(exec_sbd, in->job_id, in->array_index, in->instance);
	/* blaunch tasks here are the job's too, on its first host or not;
	 * a modification is the job's first host's alone. */
	if (in->action != BASALT__EXEC_ACTION__EXEC_ACTION_MODIFY)
		ntasks = sbd_tasks_job_action(exec_sbd, in->job_id,
		    in->array_index, in->action, in->signal, job != NULL ?
		    job->term_interval_s : exec_sbd->terminate_interval_s);

	if (in->tasks_only) {
		if (ntasks > 0)
			sbd_log(BS_LOG_INFO, NULL, "job %" G_GUINT64_FORMAT "[%u]: "
			    "action %d to %u blaunch tasks", in->job_id,
			    in->array_index, in->action, ntasks);
	} else if (in->action == BASALT__EXEC_ACTION__EXEC_ACTION_FORGET) {
		sbd_job_forget(exec_sbd, in->job_id, in->array_index, in->instance);
	} else if (job == NULL) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> is not found on host %s",
		    in->job_id, exec_sbd->host);
		r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_NO_JOB, msg);
	} else if (job->finished) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> has already finished",
		    in->job_id);
		r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE, msg);
	} else if (!do_signal(job, in, &err)) {
		sbd_log(BS_LOG_WARNING, job, "action %d failed: %s", in->action, err->message);
		r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE, err->message);
	} else {
		sbd_log(BS_LOG_INFO, job, "action %d (signal %d) done", in->action, in->signal);
	}
	closure(&r, call);
}

/* The read runs as the job's user in a child (sbd-peek.c); the reply
 * waits for it, the main loop does not. */
static void
x_peek_job(Basalt__ExecService_Service *svc, const Basalt__PeekJobRequest *in,
    Basalt__PeekReply_Closure closure, void *call)
{
	Basalt__PeekReply r = BASALT__PEEK_REPLY__INIT;
	Basalt__Error e;
	g_autofree char *msg = NULL;
	g_autoptr(GError) err = NULL;
	SbdJob *job = sbd_job_lookup(exec_sbd, in->job_id, in->array_index,
	    in->instance);

	if (job == NULL) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> is not found on host %s",
		    in->job_id, exec_sbd->host);
		r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_NO_JOB, msg);
	} else if (job->out_path == NULL) {
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> has no output on host %s",
		    in->job_id, exec_sbd->host);
		r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_NO_JOB, msg);
	} else if (sbd_peek_start(exec_sbd, job, in->offset, closure, call, &err)) {
		return;
	} else {
		msg = g_strdup_printf("cannot read the output of job <%" G_GUINT64_FORMAT
		    "> on host %s: %s", in->job_id, exec_sbd->host, err->message);
		r.error = error_new(&e, BASALT__ERROR_CODE__ERROR_CODE_INTERNAL, msg);
	}
	closure(&r, call);
}

Basalt__ExecService_Service sbd_exec_service = {
	.base = BASALT__EXEC_SERVICE__BASE_INIT,
	.start_job = x_start_job,
	.signal_job = x_signal_job,
	.peek_job = x_peek_job,
};
