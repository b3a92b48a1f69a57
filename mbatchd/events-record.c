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
put_str(GString *out, const char *s)
{
	acct_put_str(out, s);
}

static void
put_int(GString *out, gint64 v)
{
	g_string_append_printf(out, " %" G_GINT64_FORMAT, v);
}

static void
head(GString *out, const char *type, const Basalt__Event *ev, guint64 id)
{
	g_string_append_printf(out, "\"%s\" \"10.1\"", type);
	put_int(out, ev->time);
	put_int(out, (gint64)id);
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
	put_int(out, j->uid);
	put_int(out, 0);                        /* options */
	put_int(out, 0);                        /* options2 */
	put_int(out, nproc);
	put_int(out, j->submit_time);
	put_int(out, s->begin_time);
	put_int(out, 0);                        /* termTime */
	put_int(out, 0);                        /* sigValue */
	put_int(out, 0);                        /* chkpntPeriod */
	put_int(out, 0);                        /* restartPid */
	put_str(out, j->user);
	/* rLimits: cpu fsize data stack core rss nofile open_max swap run
	 * process; -1 where none. */
	put_int(out, s->cpulimit_s > 0 ? (gint64)s->cpulimit_s : -1);
	for (int i = 0; i < 4; i++)
		put_int(out, -1);
	put_int(out, s->memlimit_kb > 0 ? (gint64)s->memlimit_kb : -1);
	for (int i = 0; i < 3; i++)
		put_int(out, -1);
	put_int(out, s->runlimit_s > 0 ? (gint64)s->runlimit_s : -1);
	put_int(out, -1);
	put_str(out, "");                       /* hostSpec */
	g_string_append(out, " 1.000000");      /* hostFactor */
	put_int(out, 18);                       /* umask 022 */
	put_str(out, j->queue);
	put_str(out, s->resreq);
	put_str(out, j->from_host);
	put_str(out, s->cwd);
	put_str(out, "");                       /* chkpntDir */
	put_str(out, s->stdin_path);
	put_str(out, s->stdout_path);
	put_str(out, s->stderr_path);
	put_str(out, "");                       /* inFileSpool */
	put_str(out, "");                       /* commandSpool */
	put_str(out, "");                       /* jobSpoolDir */
	put_str(out, "");                       /* subHomeDir */
	put_str(out, job_file);
	put_int(out, (gint64)s->n_hosts);
	for (size_t i = 0; i < s->n_hosts; i++)
		put_str(out, s->hosts[i]);
	put_str(out, s->dependency);
	put_str(out, "");                       /* timeEvent */
	put_str(out, name);
	put_str(out, s->command != NULL && *s->command != '\0' ?
	    s->command : s->script);
	put_int(out, 0);                        /* nxf */
	put_str(out, s->mail_user);
	put_str(out, s->project != NULL && *s->project != '\0' ?
	    s->project : "default");
	put_int(out, 0);                        /* niosPort */
	put_int(out, s->max_slots > (guint32)nproc ? (int)s->max_slots : nproc);
	put_str(out, "");                       /* schedHostType */
	put_str(out, "");                       /* loginShell */
	put_str(out, s->user_group);
	put_str(out, "");                       /* exceptList */
	put_int(out, 0);                        /* idx */
	put_int(out, -1);                       /* userPriority */
	put_str(out, "");                       /* rsvId */
	put_str(out, "");                       /* jobGroup */
	put_str(out, "");                       /* extsched */
	put_int(out, -1);                       /* warningTimePeriod */
	put_str(out, "");                       /* warningAction */
	put_str(out, "");                       /* sla */
	put_int(out, 0);                        /* SLArunLimit */
	put_str(out, "");                       /* licenseProject */
	put_int(out, 0);                        /* options3 */
	put_str(out, s->app_profile);
	put_str(out, "");                       /* postExecCmd */
	put_int(out, -1);                       /* runtimeEstimation */
	put_str(out, "");                       /* requeueEValues */
	put_int(out, 0);                        /* initChkpntPeriod */
	put_int(out, -1);                       /* migThresh */
	put_str(out, "");                       /* notifyCmd */
	put_str(out, "");                       /* jobDescription */
	put_int(out, 0);                        /* submitEXT: no pairs */
	g_string_append_c(out, '\n');
}

static void
job_start(GString *out, const Basalt__Event *ev, const Job *j)
{
	guint n = j->exec_hosts != NULL ? g_strv_length(j->exec_hosts) : 0;

	head(out, "JOB_START", ev, j->id);
	put_int(out, lsf_status(JS_RUN));
	put_int(out, 0);                        /* jobPid: not known yet */
	put_int(out, 0);                        /* jobPGid */
	g_string_append(out, " 1.000000");      /* hostFactor */
	put_int(out, n);
	for (guint i = 0; i < n; i++)
		put_str(out, j->exec_hosts[i]);
	put_str(out, "");                       /* queuePreCmd */
	put_str(out, "");                       /* queuePostCmd */
	put_int(out, 0);                        /* jFlags */
	put_str(out, "");                       /* userGroup */
	put_int(out, j->index);
	put_str(out, "");                       /* additionalInfo */
	put_int(out, 0);                        /* duration4PreemptBackfill */
	put_int(out, 0);                        /* jFlags2 */
	g_string_append_c(out, '\n');
}

static void
job_status(GString *out, const Basalt__Event *ev, const Job *j)
{
	gboolean ended = j->state == JS_DONE || j->state == JS_EXIT;
	double cpu = (double)(j->usage.utime_us + j->usage.stime_us) /
	    G_USEC_PER_SEC;
	int wstatus = j->term_signal > 0 ? (j->term_signal & 0x7f) :
	    (j->exit_status & 0xff) << 8;

	head(out, "JOB_STATUS", ev, j->id);
	put_int(out, lsf_status(j->state));
	put_int(out, 0);                        /* reason */
	put_int(out, 0);                        /* subreasons */
	g_string_append_printf(out, " %f", cpu);
	put_int(out, ended ? ev->time : 0);     /* endTime */
	put_int(out, 0);                        /* ru: no lsfRusage follows */
	put_int(out, 0);                        /* jFlags */
	put_int(out, ended ? wstatus : 0);
	put_int(out, j->index);
	put_int(out, 0);                        /* exitInfo */
	put_int(out, 0);                        /* numHostRusage */
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
