/*
 * Why a job could not start here, in the terms mbatchd acts on.
 *
 * Two kinds of failure, as in LSF.  The host cannot run the job (the user
 * has no account here or another uid, root jobs are not allowed here,
 * sbatchd could not create the job's files or fork): another host may, so
 * the job goes back to PEND (mbatchd keeps it off this host until the host
 * registers again).  The job itself cannot run (its working directory is
 * missing, its input or output file cannot be opened, its command cannot
 * be executed): it would fail anywhere, so it ends EXIT with an exit code
 * and the reason in bjobs -l.  A missing working directory exits 2, as
 * LSF with LSB_EXIT_IF_CWD_NOTEXIST=Y (without it the job runs in /tmp and
 * never gets here); the others exit 127, a shell's "cannot run".
 */
#include "config.h"

#include "launch-report.h"
#include "sbd.h"
#include "util/error.h"

G_DEFINE_QUARK(bs-sbd-job-error-quark, sbd_job_error)

/* The job's own failures, by the launch step that failed. */
static int
job_exit_code(int step)
{
	switch ((BsChildStep)step) {
	case BS_STEP_CHDIR:
		return 2;
	case BS_STEP_RLIMIT:
	case BS_STEP_NICE:
	case BS_STEP_STDIN:
	case BS_STEP_STDOUT:
	case BS_STEP_STDERR:
	case BS_STEP_OUTDIR:
	case BS_STEP_SCRIPT:
	case BS_STEP_EXEC:
		return 127;
	default:
		return 0;
	}
}

void
sbd_start_classify(Sbd *sbd, const Basalt__StartJobRequest *req, int step,
    GError **error)
{
	int code = job_exit_code(step);
	GError *e = error != NULL ? *error : NULL;
	char *msg;

	if (e == NULL || code == 0)
		return;
	if (step == BS_STEP_CHDIR)
		msg = g_strdup_printf("The current working directory <%s> is not "
		    "accessible or does not exist on the execution host %s (%s)",
		    req->spec != NULL && req->spec->cwd != NULL ? req->spec->cwd : "",
		    sbd->host, e->message);
	else
		msg = g_strdup(e->message);
	g_clear_error(error);
	g_set_error_literal(error, SBD_JOB_ERROR, code, msg);
	g_free(msg);
}
