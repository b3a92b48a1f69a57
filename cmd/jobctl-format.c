/*
 * Job control and bsub messages (see jobctl-format.h).  The wording is
 * LSF's, because sites parse these lines in their scripts.
 */
#include "config.h"

#include <signal.h>

#include "cmd-util.h"
#include "jobctl-format.h"

static gboolean
result_failed(GString *out, const Basalt__JobResult *r)
{
	if (r->error == NULL ||
	    r->error->code == BASALT__ERROR_CODE__ERROR_CODE_OK)
		return FALSE;
	g_string_append(out, "Job <");
	cmd_jobid(out, r->job_id, r->array_index);
	g_string_append_printf(out, ">: %s\n", cmd_error_text(r->error));
	return TRUE;
}

static const char *
action_verb(Basalt__JobAction action, int sig)
{
	switch (action) {
	case BASALT__JOB_ACTION__JOB_ACTION_STOP:
		return "stopped";
	case BASALT__JOB_ACTION__JOB_ACTION_RESUME:
		return "resumed";
	case BASALT__JOB_ACTION__JOB_ACTION_REQUEUE:
		return "requeued";
	case BASALT__JOB_ACTION__JOB_ACTION_SIGNAL:
		if (sig == SIGSTOP || sig == SIGTSTP)
			return "stopped";
		if (sig == SIGCONT)
			return "resumed";
		return "signaled";
	default:
		/* KILL and REMOVE (bkill -r) both read "terminated". */
		return "terminated";
	}
}

gboolean
jobctl_format_result(GString *out, Basalt__JobAction action, int signal,
		     const Basalt__JobResult *r)
{
	if (result_failed(out, r))
		return FALSE;
	g_string_append(out, "Job <");
	cmd_jobid(out, r->job_id, r->array_index);
	g_string_append_printf(out, "> is being %s\n",
			       action_verb(action, signal));
	return TRUE;
}

gboolean
jobctl_format_switch(GString *out, const char *queue,
		     const Basalt__JobResult *r)
{
	if (result_failed(out, r))
		return FALSE;
	g_string_append(out, "Job <");
	cmd_jobid(out, r->job_id, r->array_index);
	g_string_append_printf(out, "> is switched to queue <%s>\n", queue);
	return TRUE;
}

gboolean
jobctl_format_modify(GString *out, const Basalt__JobResult *r)
{
	if (result_failed(out, r))
		return FALSE;
	g_string_append(out, "Parameters of job <");
	cmd_jobid(out, r->job_id, r->array_index);
	g_string_append(out, "> are being changed\n");
	return TRUE;
}

void
jobctl_format_move(GString *out, guint64 job_id, guint32 index,
		   guint32 position, gboolean to_bottom)
{
	g_string_append(out, "Job <");
	cmd_jobid(out, job_id, index);
	g_string_append_printf(out, "> has been moved to position %u from %s.\n",
			       position, to_bottom ? "bottom" : "top");
}

void
bsub_format_submitted(GString *out, const Basalt__SubmitReply *reply)
{
	g_string_append_printf(out,
			       "Job <%" G_GUINT64_FORMAT "> is submitted to %squeue <%s>.\n",
			       reply->job_id,
			       reply->default_queue ? "default " : "",
			       reply->queue != NULL ? reply->queue : "");
}

static gboolean
is_queue_error(Basalt__ErrorCode code)
{
	return code == BASALT__ERROR_CODE__ERROR_CODE_NO_QUEUE ||
	       code == BASALT__ERROR_CODE__ERROR_CODE_QUEUE_CLOSED ||
	       code == BASALT__ERROR_CODE__ERROR_CODE_QUEUE_USER ||
	       code == BASALT__ERROR_CODE__ERROR_CODE_LIMIT;
}

void
bsub_format_rejected(GString *out, const Basalt__Error *error,
		     const char *queue)
{
	if (error != NULL && is_queue_error(error->code) &&
	    queue != NULL && queue[0] != '\0')
		g_string_append_printf(out, "%s: ", queue);
	g_string_append_printf(out, "%s. Job not submitted.\n",
			       cmd_error_text(error));
}
