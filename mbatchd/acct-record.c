/*
 * One JOB_FINISH record of lsb.acct in LSF 10.1's text format, from a
 * job as the state holds it right after its DONE/EXIT event was applied.
 *
 * Accounting tools (Open XDMoD's LSF shredder, site scripts, LSF's own
 * readers) split a record on spaces, honour double quotes, and read the
 * fields by position, so the order and count below follow LSF 10.1's
 * lsb.acct(5) exactly, with LSF's "nothing here" values (empty string,
 * 0, -1) where Basalt has no such concept.  The record is a pure function
 * of the job and the event time: a restart that replays the journal
 * writes the same bytes again (mbatchd/mbd-acct.c relies on that).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-acct.h"

/* LSF's job-status codes in jStatus. */
#define LSF_JOB_STAT_EXIT 0x20
#define LSF_JOB_STAT_DONE 0x40

/* The submission-option bits of LSF's lsbatch.h Basalt can say. */
#define SUB_JOB_NAME      0x01
#define SUB_QUEUE         0x02
#define SUB_HOST          0x04
#define SUB_IN_FILE       0x08
#define SUB_OUT_FILE      0x10
#define SUB_ERR_FILE      0x20
#define SUB_USER_GROUP    0x200
#define SUB_RERUNNABLE    0x4000
#define SUB_DEPEND_COND   0x20000
#define SUB_RES_REQ       0x40000
#define SUB_PRE_EXEC      0x100000
#define SUB_MAIL_USER     0x400000
#define SUB_PROJECT_NAME  0x2000000

/*
 * A quoted string field.  LSF doubles an embedded quote; a record is one
 * line, so a newline in a script becomes ';' (as LSF shows a script's
 * command) and other control characters a space.
 */
void
acct_put_str(GString *out, const char *s)
{
	g_string_append(out, " \"");
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"')
			g_string_append(out, "\"\"");
		else if (c == '\n')
			g_string_append_c(out, ';');
		else if (c < 0x20 || c == 0x7f)
			g_string_append_c(out, ' ');
		else
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
}

/* A number field. */
void
acct_put_int(GString *out, gint64 v)
{
	g_string_append_printf(out, " %" G_GINT64_FORMAT, v);
}

static void
put_float(GString *out, double v)
{
	g_string_append_printf(out, " %f", v);
}

static int
submit_options(const Basalt__JobSpec *s)
{
	int o = 0;

	if (s->job_name != NULL && *s->job_name != '\0')
		o |= SUB_JOB_NAME;
	if (s->n_queues > 0)
		o |= SUB_QUEUE;
	if (s->n_hosts > 0)
		o |= SUB_HOST;
	if (s->stdin_path != NULL && *s->stdin_path != '\0')
		o |= SUB_IN_FILE;
	if (s->stdout_path != NULL && *s->stdout_path != '\0')
		o |= SUB_OUT_FILE;
	if (s->stderr_path != NULL && *s->stderr_path != '\0')
		o |= SUB_ERR_FILE;
	if (s->user_group != NULL && *s->user_group != '\0')
		o |= SUB_USER_GROUP;
	if (s->rerunnable)
		o |= SUB_RERUNNABLE;
	if (s->dependency != NULL && *s->dependency != '\0')
		o |= SUB_DEPEND_COND;
	if (s->resreq != NULL && *s->resreq != '\0')
		o |= SUB_RES_REQ;
	if (s->pre_exec != NULL && *s->pre_exec != '\0')
		o |= SUB_PRE_EXEC;
	if (s->mail_user != NULL && *s->mail_user != '\0')
		o |= SUB_MAIL_USER;
	if (s->project != NULL && *s->project != '\0')
		o |= SUB_PROJECT_NAME;
	return o;
}

/*
 * exitInfo: LSF's termination reason numbers (lsbatch.h TERM_*), for the
 * TERM_* name Basalt keeps of a run's end (Job.term_reason: a limit, the
 * termination time, sbatchd refusing the job's cwd).  Any other end -- a
 * normal exit, bkill, a failed pre-exec -- is TERM_UNKNOWN (0): the state
 * does not say who killed the job in a form this record could trust.
 */
static const struct {
	const char *name;
	int code;
} term_codes[] = {
	{ "TERM_PREEMPT", 1 }, { "TERM_WINDOW", 2 }, { "TERM_LOAD", 3 },
	{ "TERM_OTHER", 4 }, { "TERM_RUNLIMIT", 5 }, { "TERM_DEADLINE", 6 },
	{ "TERM_PROCESSLIMIT", 7 }, { "TERM_FORCE_OWNER", 8 },
	{ "TERM_FORCE_ADMIN", 9 }, { "TERM_REQUEUE_OWNER", 10 },
	{ "TERM_REQUEUE_ADMIN", 11 }, { "TERM_CPULIMIT", 12 },
	{ "TERM_CHKPNT", 13 }, { "TERM_OWNER", 14 }, { "TERM_ADMIN", 15 },
	{ "TERM_MEMLIMIT", 16 }, { "TERM_EXTERNAL_SIGNAL", 17 },
	{ "TERM_RMS", 18 }, { "TERM_ZOMBIE", 19 }, { "TERM_SWAP", 20 },
	{ "TERM_THREADLIMIT", 21 }, { "TERM_CWD_NOTEXIST", 25 },
};

static int
exit_info(const Job *j)
{
	if (j->term_reason == NULL)
		return 0;
	for (gsize i = 0; i < G_N_ELEMENTS(term_codes); i++)
		if (strcmp(j->term_reason, term_codes[i].name) == 0)
			return term_codes[i].code;
	return 0;
}

/* postExecCmd: bsub -Ep (or its bmod), else the post-exec the run was
 * stamped with (the profile's, else the queue's: what bjobs -l shows). */
static const char *
post_exec_cmd(const Job *j, const Basalt__JobSpec *s)
{
	if (s->post_exec != NULL && *s->post_exec != '\0')
		return s->post_exec;
	if (j->effective != NULL && j->effective->post_exec != NULL)
		return j->effective->post_exec;
	return "";
}

static guint
n_exec_hosts(const Job *j)
{
	return j->exec_hosts != NULL ? g_strv_length(j->exec_hosts) : 0;
}

/* The exec hosts, one per slot, as LSF lists them; or "" when none ran. */
static void
put_hosts(GString *out, const Job *j)
{
	guint n = n_exec_hosts(j);

	acct_put_int(out, n);
	for (guint i = 0; i < n; i++)
		acct_put_str(out, j->exec_hosts[i]);
}

/* The wait(2) status LSF logs in exitStatus: the code in the high byte,
 * or the signal that ended the job in the low bits. */
static int
wait_status(const Job *j)
{
	if (j->term_signal > 0)
		return j->term_signal & 0x7f;
	return (j->exit_status & 0xff) << 8;
}

void
acct_format_finish(GString *out, const Job *j, gint64 event_time)
{
	static const Basalt__JobSpec empty = BASALT__JOB_SPEC__INIT;
	const Basalt__JobSpec *s = job_spec(j) != NULL ? job_spec(j) : &empty;
	const Basalt__ResourceUsage *u = job_usage(j);
	const char *cwd = s->cwd != NULL ? s->cwd : "";
	const char *command = s->command != NULL && *s->command != '\0' ?
	    s->command : s->script;
	int nproc = s->min_slots > 0 ? (int)s->min_slots : 1;
	int maxproc = s->max_slots > (guint32)nproc ? (int)s->max_slots : nproc;
	gint64 run_time = j->start_time > 0 && event_time > j->start_time ?
	    event_time - j->start_time : 0;
	g_autofree char *job_file = g_strdup_printf("%" G_GINT64_FORMAT ".%"
	    G_GUINT64_FORMAT, j->submit_time, j->id);

	g_string_append(out, "\"JOB_FINISH\" \"10.1\"");
	acct_put_int(out, event_time);
	acct_put_int(out, (gint64)j->id);
	acct_put_int(out, j->uid);
	acct_put_int(out, submit_options(s));
	acct_put_int(out, nproc);
	acct_put_int(out, j->submit_time);
	acct_put_int(out, s->begin_time);
	acct_put_int(out, 0);                        /* termTime: no -t */
	acct_put_int(out, j->start_time);
	acct_put_str(out, j->user);
	acct_put_str(out, j->queue);
	acct_put_str(out, s->resreq);
	acct_put_str(out, s->dependency);
	acct_put_str(out, s->pre_exec);
	acct_put_str(out, j->from_host);
	acct_put_str(out, cwd);
	acct_put_str(out, s->stdin_path);
	acct_put_str(out, s->stdout_path);
	acct_put_str(out, s->stderr_path);
	acct_put_str(out, job_file);
	acct_put_int(out, (gint64)s->n_hosts);       /* numAskedHosts, askedHosts */
	for (size_t i = 0; i < s->n_hosts; i++)
		acct_put_str(out, s->hosts[i]);
	put_hosts(out, j);                      /* numExHosts, execHosts */
	acct_put_int(out, j->state == JS_DONE ? LSF_JOB_STAT_DONE : LSF_JOB_STAT_EXIT);
	put_float(out, 1.0);                    /* hostFactor */
	acct_put_str(out, j->name);
	acct_put_str(out, command);
	/* lsfRusage: what sbatchd measures; -1 for what it does not. */
	put_float(out, (double)u->utime_us / G_USEC_PER_SEC);
	put_float(out, (double)u->stime_us / G_USEC_PER_SEC);
	put_float(out, (double)u->max_rss_kb);
	for (int i = 0; i < 16; i++)            /* ru_ixrss .. ru_exutime */
		put_float(out, -1.0);
	acct_put_str(out, s->mail_user);
	acct_put_str(out, s->project != NULL && *s->project != '\0' ?
	    s->project : "default");
	acct_put_int(out, wait_status(j));
	acct_put_int(out, maxproc);
	acct_put_str(out, "");                       /* loginShell */
	acct_put_str(out, "");                       /* timeEvent */
	acct_put_int(out, j->index);
	acct_put_int(out, (gint64)u->max_rss_kb);    /* maxRMem */
	acct_put_int(out, 0);                        /* maxRSwap */
	acct_put_str(out, "");                       /* inFileSpool */
	acct_put_str(out, s->script != NULL && *s->script != '\0' ? job_file : "");
	acct_put_str(out, "");                       /* rsvId */
	acct_put_str(out, "");                       /* sla */
	acct_put_int(out, 0);                        /* exceptMask */
	acct_put_str(out, "");                       /* additionalInfo */
	acct_put_int(out, exit_info(j));             /* exitInfo */
	acct_put_str(out, "");                       /* warningAction */
	acct_put_int(out, -1);                       /* warningTimePeriod */
	acct_put_str(out, "");                       /* chargedSAAP */
	acct_put_str(out, "");                       /* licenseProject */
	acct_put_str(out, s->app_profile);
	acct_put_str(out, post_exec_cmd(j, s));      /* postExecCmd */
	acct_put_int(out, -1);                       /* runtimeEstimation */
	acct_put_str(out, s->job_group);             /* jobGroupName */
	acct_put_str(out, "");                       /* requeueEValues */
	acct_put_int(out, 0);                        /* options2 */
	acct_put_str(out, "");                       /* resizeNotifyCmd */
	acct_put_int(out, -1);                       /* lastResizeTime */
	acct_put_str(out, "");                       /* rsvId (long form) */
	acct_put_str(out, "");                       /* jobDescription */
	acct_put_int(out, 0);                        /* submitEXT: no pairs */
	acct_put_int(out, 0);                        /* numHostRusage */
	acct_put_int(out, 0);                        /* options3 */
	acct_put_int(out, s->runlimit_s > 0 ? (gint64)s->runlimit_s : -1);
	acct_put_int(out, 0);                        /* avgMem */
	acct_put_str(out, s->resreq);                /* effectiveResReq */
	acct_put_str(out, "");                       /* srcCluster */
	acct_put_int(out, -1);                       /* srcJobId */
	acct_put_str(out, "");                       /* dstCluster */
	acct_put_int(out, -1);                       /* dstJobId */
	acct_put_int(out, -1);                       /* forwardTime */
	acct_put_int(out, 0);                        /* flow_id */
	acct_put_int(out, 0);                        /* acJobWaitTime */
	acct_put_int(out, 0);                        /* totalProvisionTime */
	acct_put_str(out, "");                       /* outdir */
	acct_put_int(out, run_time);
	acct_put_str(out, cwd);                      /* subcwd */
	acct_put_int(out, 0);                        /* num_network */
	acct_put_str(out, "");                       /* affinity */
	for (int i = 0; i < 5; i++)             /* energy, cpi, gips, gbs, gflops */
		put_float(out, 0.0);
	put_hosts(out, j);                      /* numAllocSlots, allocSlots */
	acct_put_int(out, 0);                        /* ineligiblePendTime */
	acct_put_int(out, 0);                        /* indexRangeCnt */
	acct_put_int(out, 0);                        /* requeueTime */
	acct_put_int(out, 0);                        /* numGPURusages */
	acct_put_int(out, 0);                        /* storageInfoC */
	acct_put_int(out, 0);                        /* numKVP */
	g_string_append_c(out, '\n');
}
