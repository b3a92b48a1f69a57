/*
 * lsb.events records in LSF 10.1's text format, for the scripts and
 * workflow engines that read LSF's event log when bjobs no longer knows a
 * job (Snakemake's LSF executor looks up JOB_NEW by user and JOB_STATUS by
 * job id there).  Written only when lsf.conf sets LSB_WRITE_LSB_EVENTS=Y
 * (mbd-acct.c); Basalt's own history is its journal.
 *
 * Three record types, made from the job events mbatchd applies:
 * JOB_NEW (a submission), JOB_START (a dispatch) and JOB_STATUS (every
 * change of state: finished, suspended, resumed, requeued, held).  Like
 * lsb.acct's, each record is a pure function of the event and the job
 * after it, so a replay writes the same bytes.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-acct.h"

/* LSF's job-status bits (lsbatch.h JOB_STAT_*). */
static int
lsf_status(JobState s)
{
	switch (s) {
	case JS_PEND: return 0x01;
	case JS_PSUSP: return 0x02;
	case JS_RUN: return 0x04;
	case JS_SSUSP: return 0x08;
	case JS_USUSP: return 0x10;
	case JS_EXIT: return 0x20;
	case JS_DONE: return 0x40;
	case JS_UNKWN: return 0x10000;
	default: return 0;
	}
}

static void
head(GString *out, const char *type, const Basalt__Event *ev, guint64 id)
{
	g_string_append_printf(out, "\"%s\" \"10.1\"", type);
	acct_put_int(out, ev->time);
	acct_put_int(out, (gint64)id);
}

static void
job_new(GString *out, const Basalt__Event *ev, const Job *j)
{
	static const Basalt__JobSpec empty = BASALT__JOB_SPEC__INIT;
	const Basalt__JobSpec *s = job_spec(j) != NULL ? job_spec(j) : &empty;
	const Basalt__EvJobNew *e = ev->job_new;
	int nproc = s->min_slots > 0 ? (int)s->min_slots : 1;
	g_autofree char *job_file = g_strdup_printf("%" G_GINT64_FORMAT ".%"
	    G_GUINT64_FORMAT, j->submit_time, j->id);
	const char *name = s->job_name != NULL && *s->job_name != '\0' ?
	    s->job_name : e->job_name;

	head(out, "JOB_NEW", ev, e->job_id);
	acct_put_int(out, j->uid);
	acct_put_int(out, 0);                        /* options */
	acct_put_int(out, 0);                        /* options2 */
	acct_put_int(out, nproc);
	acct_put_int(out, j->submit_time);
	acct_put_int(out, s->begin_time);
	acct_put_int(out, 0);                        /* termTime */
	acct_put_int(out, 0);                        /* sigValue */
	acct_put_int(out, 0);                        /* chkpntPeriod */
	acct_put_int(out, 0);                        /* restartPid */
	acct_put_str(out, j->user);
	/* rLimits: cpu fsize data stack core rss nofile open_max swap run
	 * process; -1 where none. */
	acct_put_int(out, s->cpulimit_s > 0 ? (gint64)s->cpulimit_s : -1);
	for (int i = 0; i < 4; i++)
		acct_put_int(out, -1);
	acct_put_int(out, s->memlimit_kb > 0 ? (gint64)s->memlimit_kb : -1);
	for (int i = 0; i < 3; i++)
		acct_put_int(out, -1);
	acct_put_int(out, s->runlimit_s > 0 ? (gint64)s->runlimit_s : -1);
	acct_put_int(out, -1);
	acct_put_str(out, "");                       /* hostSpec */
	g_string_append(out, " 1.000000");      /* hostFactor */
	acct_put_int(out, 18);                       /* umask 022 */
	acct_put_str(out, j->queue);
	acct_put_str(out, s->resreq);
	acct_put_str(out, j->from_host);
	acct_put_str(out, s->cwd);
	acct_put_str(out, "");                       /* chkpntDir */
	acct_put_str(out, s->stdin_path);
	acct_put_str(out, s->stdout_path);
	acct_put_str(out, s->stderr_path);
	acct_put_str(out, "");                       /* inFileSpool */
	acct_put_str(out, "");                       /* commandSpool */
	acct_put_str(out, "");                       /* jobSpoolDir */
	acct_put_str(out, "");                       /* subHomeDir */
	acct_put_str(out, job_file);
	acct_put_int(out, (gint64)s->n_hosts);
	for (size_t i = 0; i < s->n_hosts; i++)
		acct_put_str(out, s->hosts[i]);
	acct_put_str(out, s->dependency);
	acct_put_str(out, "");                       /* timeEvent */
	acct_put_str(out, name);
	acct_put_str(out, s->command != NULL && *s->command != '\0' ?
	    s->command : s->script);
	acct_put_int(out, 0);                        /* nxf */
	acct_put_str(out, s->mail_user);
	acct_put_str(out, s->project != NULL && *s->project != '\0' ?
	    s->project : "default");
	acct_put_int(out, 0);                        /* niosPort */
	acct_put_int(out, s->max_slots > (guint32)nproc ? (int)s->max_slots : nproc);
	acct_put_str(out, "");                       /* schedHostType */
	acct_put_str(out, "");                       /* loginShell */
	acct_put_str(out, s->user_group);
	acct_put_str(out, "");                       /* exceptList */
	acct_put_int(out, 0);                        /* idx */
	acct_put_int(out, -1);                       /* userPriority */
	acct_put_str(out, "");                       /* rsvId */
	acct_put_str(out, s->job_group);             /* jobGroup */
	acct_put_str(out, "");                       /* extsched */
	acct_put_int(out, -1);                       /* warningTimePeriod */
	acct_put_str(out, "");                       /* warningAction */
	acct_put_str(out, "");                       /* sla */
	acct_put_int(out, 0);                        /* SLArunLimit */
	acct_put_str(out, "");                       /* licenseProject */
	acct_put_int(out, 0);                        /* options3 */
	acct_put_str(out, s->app_profile);
	acct_put_str(out, "");                       /* postExecCmd */
	acct_put_int(out, -1);                       /* runtimeEstimation */
	acct_put_str(out, "");                       /* requeueEValues */
	acct_put_int(out, 0);                        /* initChkpntPeriod */
	acct_put_int(out, -1);                       /* migThresh */
	acct_put_str(out, "");                       /* notifyCmd */
	acct_put_str(out, "");                       /* jobDescription */
	acct_put_int(out, 0);                        /* submitEXT: no pairs */
	g_string_append_c(out, '\n');
}

static void
job_start(GString *out, const Basalt__Event *ev, const Job *j)
{
	guint n = j->exec_hosts != NULL ? g_strv_length(j->exec_hosts) : 0;

	head(out, "JOB_START", ev, j->id);
	acct_put_int(out, lsf_status(JS_RUN));
	acct_put_int(out, 0);                        /* jobPid: not known yet */
	acct_put_int(out, 0);                        /* jobPGid */
	g_string_append(out, " 1.000000");      /* hostFactor */
	acct_put_int(out, n);
	for (guint i = 0; i < n; i++)
		acct_put_str(out, j->exec_hosts[i]);
	acct_put_str(out, "");                       /* queuePreCmd */
	acct_put_str(out, "");                       /* queuePostCmd */
	acct_put_int(out, 0);                        /* jFlags */
	acct_put_str(out, "");                       /* userGroup */
	acct_put_int(out, j->index);
	acct_put_str(out, "");                       /* additionalInfo */
	acct_put_int(out, 0);                        /* duration4PreemptBackfill */
	acct_put_int(out, 0);                        /* jFlags2 */
	g_string_append_c(out, '\n');
}

static void
job_status(GString *out, const Basalt__Event *ev, const Job *j)
{
	gboolean ended = j->state == JS_DONE || j->state == JS_EXIT;
	double cpu = (double)(job_usage(j)->utime_us + job_usage(j)->stime_us) /
	    G_USEC_PER_SEC;
	int wstatus = j->term_signal > 0 ? (j->term_signal & 0x7f) :
	    (j->exit_status & 0xff) << 8;

	head(out, "JOB_STATUS", ev, j->id);
	acct_put_int(out, lsf_status(j->state));
	acct_put_int(out, 0);                        /* reason */
	acct_put_int(out, 0);                        /* subreasons */
	g_string_append_printf(out, " %f", cpu);
	acct_put_int(out, ended ? ev->time : 0);     /* endTime */
	acct_put_int(out, 0);                        /* ru: no lsfRusage follows */
	acct_put_int(out, 0);                        /* jFlags */
	acct_put_int(out, ended ? wstatus : 0);
	acct_put_int(out, j->index);
	acct_put_int(out, 0);                        /* exitInfo */
	acct_put_int(out, 0);                        /* numHostRusage */
	g_string_append_c(out, '\n');
}

gboolean
events_format(GString *out, const Basalt__Event *ev, const State *st)
{
	const Job *j;

	switch (ev->body_case) {
	case BASALT__EVENT__BODY_JOB_NEW: {
		const Basalt__EvJobNew *e = ev->job_new;

		j = state_job(st, e->job_id, e->n_array_indexes > 0 ?
		    e->array_indexes[0] : 0);
		if (j == NULL)
			return FALSE;
		job_new(out, ev, j);
		return TRUE;
	}
	case BASALT__EVENT__BODY_JOB_DISPATCH:
		j = state_job(st, ev->job_dispatch->job_id,
		    ev->job_dispatch->array_index);
		if (j == NULL)
			return FALSE;
		job_start(out, ev, j);
		return TRUE;
	case BASALT__EVENT__BODY_JOB_STATUS:
		j = state_job(st, ev->job_status->job_id,
		    ev->job_status->array_index);
		break;
	case BASALT__EVENT__BODY_JOB_REQUEUE:
		j = state_job(st, ev->job_requeue->job_id,
		    ev->job_requeue->array_index);
		break;
	default:
		return FALSE;
	}
	if (j == NULL)
		return FALSE;
	job_status(out, ev, j);
	return TRUE;
}
