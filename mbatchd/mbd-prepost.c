/*
 * mbatchd's side of pre-exec, post-exec and JOB_CONTROLS.
 *
 * A run whose pre-exec failed never reached the job's command (sbatchd's
 * report says so, HostJob.preexec_failed).  LSF puts such a job back to
 * pending at the head of its queue and dispatches it again; Basalt does
 * the same at the next dispatch turn, remembers the host (the scheduler
 * avoids the job's failed hosts while any other host fits:
 * SchedJob.avoid_hosts), and once the pre-exec failed
 * LOCAL_MAX_PREEXEC_RETRY times in all (unlimited by default, as in LSF)
 * holds the job PSUSP, or ends it EXIT with
 * LOCAL_MAX_PREEXEC_RETRY_ACTION=EXIT.  Bound and action come from the
 * run's stamp (mbatchd/effective-prepost.c).  A run that was being killed
 * when its pre-exec died is not retried: the pre-exec died of the kill.
 *
 * A job relayed from another cluster (mc-jobs.h) runs on a host that
 * cluster leases from us: LSF's lease model, where the submission
 * cluster's retry settings apply as for its own hosts.  So the provider
 * does not retry: the record of the run ends EXIT at the first failure
 * and the consumer, told so (RemoteStatus.preexec_failed), counts it,
 * avoids the host and retries or gives up under its own
 * LOCAL_MAX_PREEXEC_RETRY.  MAX_PREEXEC_RETRY and
 * REMOTE_MAX_PREEXEC_RETRY bound LSF's job forwarding model, which Basalt
 * does not have: read and not used.
 * The decision is one journaled event (EvJobPreexec, committed by
 * orders_preexec_failed), so replay reaches the same state.
 *
 * JOB_CONTROLS: for SUSPEND, RESUME and TERMINATE the job's application
 * profile, else its queue, may name a signal (sent instead of the
 * default), CHKPNT (the default here: Basalt has no checkpointing) or a
 * command, which sbatchd runs as the job's user.
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-prepost.h"
#include "mbatchd/mc-jobs.h"
#include "util/log.h"

static char *
preexec_reason(guint level, int status, const char *host)
{
	return g_strdup_printf("The %s pre-exec command exited with non-zero "
	    "status %d on host <%s>;", level == 1 ? "queue's" : "job's", status,
	    host);
}

void
prepost_preexec_failed(Manager *m, Job *j, const char *host,
    const Basalt__HostJob *hj)
{
	const Basalt__JobEffective *e = j->effective;
	const BsQueueConf *q = bs_config_queue(m->cfg, j->queue);
	const BsAppConf *app = bs_config_app(m->cfg, job_spec(j)->app_profile);
	int conf_local = bs_config_local_preexec_retry(m->cfg, app);
	guint local = e != NULL ? e->local_max_preexec_retry :
	    conf_local > 0 ? (guint)conf_local : 0;
	gboolean to_exit = e != NULL ? e->preexec_retry_exit :
	    bs_config_preexec_action(m->cfg, q, app) == BS_PREEXEC_ACTION_EXIT;
	guint all = job_preexec_fails(j, NULL) + 1;
	g_autofree char *why = preexec_reason(hj->preexec_failed, hj->exit_status, host);
	g_autofree char *reason = NULL;
	PreexecOutcome out = PREEXEC_RETRY;

	if (orders_run_terminating(m, j)) {
		JobOutcome o = { hj->exit_status, hj->term_signal, hj->usage, NULL };

		commit_job_status(m, j, JS_EXIT, &o, why);
		return;
	}
	if (mc_jobs_origin(j) != NULL) {
		out = PREEXEC_EXIT;
	} else if (local > 0 && all >= local) {
		out = to_exit ? PREEXEC_EXIT : PREEXEC_HOLD;
		reason = g_strdup_printf("%s it failed %u times "
		    "(LOCAL_MAX_PREEXEC_RETRY=%u, LOCAL_MAX_PREEXEC_RETRY_ACTION=%s);",
		    why, all, local, to_exit ? "EXIT" : "SUSPEND");
	}
	log_notice("job %" G_GUINT64_FORMAT "[%u]: pre-exec failed on %s (%u in all), %s",
	    j->id, j->index, host, all, out == PREEXEC_EXIT ? "exit" :
	    out == PREEXEC_HOLD ? "held (PSUSP)" : "pending again");
	orders_preexec_failed(m, j, host, hj->exit_status, hj->preexec_failed,
	    out, reason != NULL ? reason : why);
}

/* The signals a JOB_CONTROLS action may name (with or without SIG). */
static int
signal_named(const char *s)
{
	static const struct { const char *name; int sig; } sigs[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
		{ "ABRT", SIGABRT }, { "KILL", SIGKILL }, { "USR1", SIGUSR1 },
		{ "USR2", SIGUSR2 }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
		{ "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP },
		{ "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "XCPU", SIGXCPU },
		{ "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF },
		{ "WINCH", SIGWINCH }, { "URG", SIGURG },
	};

	if (g_ascii_strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (gsize i = 0; i < G_N_ELEMENTS(sigs); i++)
		if (g_ascii_strcasecmp(s, sigs[i].name) == 0)
			return sigs[i].sig;
	return 0;
}

static const char *
control_of(const BsJobControls *c, Basalt__ExecAction action)
{
	switch (action) {
	case BASALT__EXEC_ACTION__EXEC_ACTION_SUSPEND:
		return c->suspend;
	case BASALT__EXEC_ACTION__EXEC_ACTION_RESUME:
		return c->resume;
	case BASALT__EXEC_ACTION__EXEC_ACTION_TERMINATE:
		return c->terminate;
	default:
		return NULL;
	}
}

const char *
prepost_job_control(Manager *m, const Job *j, Basalt__ExecAction action,
    int *sig)
{
	const BsAppConf *app = bs_config_app(m->cfg, job_spec(j)->app_profile);
	const BsQueueConf *q = bs_config_queue(m->cfg, j->queue);
	const char *v = app != NULL ? control_of(&app->job_controls, action) : NULL;

	if (v == NULL && q != NULL)
		v = control_of(&q->job_controls, action);
	if (v == NULL || g_ascii_strcasecmp(v, "CHKPNT") == 0)
		return NULL;
	if (signal_named(v) != 0) {
		*sig = signal_named(v);
		return NULL;
	}
	return v;
}
