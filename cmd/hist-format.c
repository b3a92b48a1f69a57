/*
 * bhist's three layouts (see hist-format.h): the default table of seconds
 * per state, -l's story of each job and -t's merged time line.  The -l
 * statements are LSF's words, so that people and scripts who read LSF's
 * bhist -l read ours; -t says the same things in lower case after
 * "Job <id>", as LSF's -t does.
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "bjobs-format.h"
#include "cmd-util.h"
#include "effective-format.h"
#include "hist-format.h"
#include "usage-format.h"

#define HIST_LONG_WIDTH 80           /* -l lines */
#define HIST_LONG_INDENT 21          /* strlen("Mon Nov 21 10:02:00: ") */

static const char *const col_names[HIST_NCOLS] = {
	"PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN",
};

/* ---- the default table --------------------------------------------------- */

static void
summary_row(GString *out, const char *id, const char *user, const char *name,
    const char *const nums[HIST_NCOLS + 1], gboolean wide)
{
	cmd_cell(out, id, 7, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, user, 7, wide ? CMD_FIT_WIDE : CMD_FIT_HEAD, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, name, 9, wide ? CMD_FIT_WIDE : CMD_FIT_TAIL, FALSE);
	g_string_append_c(out, ' ');
	for (int i = 0; i < HIST_NCOLS; i++) {
		cmd_cell(out, nums[i], 7, CMD_FIT_WIDE, FALSE);
		g_string_append_c(out, ' ');
	}
	g_string_append(out, nums[HIST_NCOLS]);
	g_string_append_c(out, '\n');
}

void
hist_format_summary(GString *out, GPtrArray *jobs, gint64 now, gboolean wide)
{
	const char *head[HIST_NCOLS + 1] = {
		"PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN", "TOTAL",
	};

	g_string_append(out, "Summary of time in seconds spent in various "
	    "states:\n");
	summary_row(out, "JOBID", "USER", "JOB_NAME", head, wide);
	for (guint i = 0; i < jobs->len; i++) {
		const HistJob *j = g_ptr_array_index(jobs, i);
		g_autoptr(GString) id = g_string_new(NULL);
		gint64 secs[HIST_NCOLS];
		char buf[HIST_NCOLS + 1][24];
		const char *nums[HIST_NCOLS + 1];
		gint64 total = hist_job_times(j, now, secs);

		cmd_jobid(id, j->id, j->index);
		for (int c = 0; c <= HIST_NCOLS; c++) {
			g_snprintf(buf[c], sizeof buf[c], "%" G_GINT64_FORMAT,
			    c < HIST_NCOLS ? secs[c] : total);
			nums[c] = buf[c];
		}
		summary_row(out, id->str, j->user, j->name, nums, wide);
	}
}

/* ---- statements ---------------------------------------------------------- */

/* "<4*hostA> <hostB>": one entry per run of equal hosts. */
static void
host_groups(GString *out, const char *hosts, guint *nslots)
{
	g_auto(GStrv) h = g_strsplit(hosts != NULL ? hosts : "", " ", -1);
	guint n = g_strv_length(h);

	*nslots = n;
	for (guint i = 0; i < n;) {
		guint k = i;

		while (k < n && strcmp(h[k], h[i]) == 0)
			k++;
		if (i > 0)
			g_string_append_c(out, ' ');
		if (k - i > 1)
			g_string_append_printf(out, "<%u*%s>", k - i, h[i]);
		else
			g_string_append_printf(out, "<%s>", h[i]);
		i = k;
	}
}

static void
dispatch_text(GString *out, const HistStep *s)
{
	g_autoptr(GString) groups = g_string_new(NULL);
	guint n;

	host_groups(groups, s->text, &n);
	if (n > 1)
		g_string_append_printf(out, "Dispatched to %u Hosts/Processors "
		    "%s;", n, groups->str);
	else
		g_string_append_printf(out, "Dispatched to %s;", groups->str);
}

/* A reason without the ';' LSF's reason texts may end with. */
static char *
reason(const char *r)
{
	char *s = g_strstrip(g_strdup(r != NULL ? r : ""));
	gsize n = strlen(s);

	if (n > 0 && (s[n - 1] == ';' || s[n - 1] == '.'))
		s[n - 1] = '\0';
	return s;
}

static void
finish_text(GString *out, const HistStep *s)
{
	double cpu = (double)s->cpu_us / 1e6;

	if (s->state == BASALT__JOB_STATE__JOB_STATE_DONE)
		g_string_append(out, "Done successfully.");
	else if (s->term_signal > 0)
		g_string_append_printf(out, "Exited by signal %d.",
		    s->term_signal);
	else
		g_string_append_printf(out, "Exited with exit code %d.",
		    s->exit_status);
	g_string_append_printf(out, " The CPU time used is %.1f seconds;", cpu);
}

static void
status_text(GString *out, const HistStep *s)
{
	g_autofree char *why = reason(s->text);

	switch (s->state) {
	case BASALT__JOB_STATE__JOB_STATE_RUN:
		g_string_append(out, "Running;");
		break;
	case BASALT__JOB_STATE__JOB_STATE_USUSP:
	case BASALT__JOB_STATE__JOB_STATE_PSUSP:
		g_string_append(out, "Suspended by the user or administrator");
		if (*why != '\0')
			g_string_append_printf(out, ": %s", why);
		g_string_append_c(out, ';');
		break;
	case BASALT__JOB_STATE__JOB_STATE_SSUSP:
		if (*why != '\0')
			g_string_append_printf(out, "Suspended: %s;", why);
		else
			g_string_append(out, "Suspended by the system;");
		break;
	case BASALT__JOB_STATE__JOB_STATE_PEND:
		g_string_append(out, "Resumed by the user or administrator;");
		break;
	case BASALT__JOB_STATE__JOB_STATE_DONE:
	case BASALT__JOB_STATE__JOB_STATE_EXIT:
		finish_text(out, s);
		/* Why it ended, when mbatchd or the host said: a start order
		 * that could never be sent, a runlimit, bkill -r. */
		if (*why != '\0')
			g_string_append_printf(out, " %s;", why);
		break;
	default:
		g_string_append(out, "Unknown; unable to reach the execution "
		    "host;");
		break;
	}
}

void
hist_submit_text(GString *out, const HistJob *j, gboolean timeline)
{
	const Basalt__JobSpec *sp = hist_job_spec(j);
	const HistStep *s = g_ptr_array_index(j->steps, 0);

	g_string_append_printf(out, timeline ? "submitted from host <%s> to "
	    "queue <%s>, CWD <%s>" : "Submitted from host <%s>, to Queue <%s>, "
	    "CWD <%s>", j->from_host, s->text, sp->cwd);
	if (timeline) {
		g_string_append_c(out, ';');
		return;
	}
	if (bjobs_interactive_words(sp->interactive) != NULL)
		g_string_append_printf(out, ", %s",
		    bjobs_interactive_words(sp->interactive));
	if (sp->stdin_path[0] != '\0')
		g_string_append_printf(out, ", Input File <%s>", sp->stdin_path);
	if (sp->stdout_path[0] != '\0')
		g_string_append_printf(out, ", Output File <%s>", sp->stdout_path);
	if (sp->stderr_path[0] != '\0')
		g_string_append_printf(out, ", Error File <%s>", sp->stderr_path);
	if (sp->min_slots > 1)
		g_string_append_printf(out, ", %u Processors Requested",
		    sp->min_slots);
	if (sp->resreq[0] != '\0')
		g_string_append_printf(out, ", Requested Resources <%s>",
		    sp->resreq);
	if (sp->dependency[0] != '\0')
		g_string_append_printf(out, ", Dependency Condition <%s>",
		    sp->dependency);
	g_string_append_c(out, ';');
}

/* The statement of one step, without its time: what -l prints. */
static void
step_body(GString *out, const HistJob *j, const HistStep *s)
{
	g_autofree char *why = NULL;

	switch (s->kind) {
	case HIST_STEP_SUBMIT:
		hist_submit_text(out, j, FALSE);
		break;
	case HIST_STEP_DISPATCH:
		dispatch_text(out, s);
		break;
	case HIST_STEP_START:
		g_string_append_printf(out, "Starting (Pid %d);", s->pid);
		break;
	case HIST_STEP_STATUS:
		status_text(out, s);
		break;
	case HIST_STEP_REQUEUE:
		why = reason(s->text);
		g_string_append(out, s->state ==
		    BASALT__JOB_STATE__JOB_STATE_PSUSP ? "Requeued and held" :
		    "Requeued");
		if (*why != '\0')
			g_string_append_printf(out, ": %s", why);
		g_string_append_c(out, ';');
		break;
	case HIST_STEP_SWITCH:
		g_string_append_printf(out, "Switched to Queue <%s>;", s->text);
		break;
	case HIST_STEP_MODIFY:
		g_string_append(out, "Parameters of Job are changed:");
		break;
	case HIST_STEP_MOVE:
		g_string_append_printf(out, "Job moved to position %u relative "
		    "to <%s>;", s->position, s->to_bottom ? "bottom" : "top");
		break;
	case HIST_STEP_SIGNAL:
		if (s->pid == 0)
			g_string_append_printf(out, "Signal <KILL> requested by "
			    "user or administrator <%s>;", s->text ? s->text : "");
		else if (cmd_signal_name(s->pid) != NULL)
			g_string_append_printf(out, "Signal <%s> requested by user "
			    "or administrator <%s>;", cmd_signal_name(s->pid),
			    s->text ? s->text : "");
		else
			g_string_append_printf(out, "Signal <%d> requested by user "
			    "or administrator <%s>;", s->pid, s->text ? s->text : "");
		break;
	case HIST_STEP_MESSAGE:
		g_string_append_printf(out, "Message <%u> posted by user or "
		    "administrator <%s>;", s->position, s->text ? s->text : "");
		break;
	case HIST_STEP_RECLAIM:
		g_string_append(out, s->text != NULL ? s->text : "Reclaimed;");
		break;
	case HIST_STEP_LEASE:
		g_string_append(out, s->text != NULL ? s->text : "");
		break;
	case HIST_STEP_QUOTA_PEND:
		if (s->text != NULL && *s->text != '\0')
			g_string_append_printf(out, "Pending: %s", s->text);
		else
			g_string_append(out, "No longer pending for its "
			    "consumer's quota;");
		break;
	}
}

void
hist_format_step(GString *out, const HistJob *j, const HistStep *s)
{
	g_autoptr(GString) line = g_string_new(NULL);

	cmd_time_long(line, s->time);
	g_string_append(line, ": ");
	step_body(line, j, s);
	cmd_wrap(out, line->str, HIST_LONG_WIDTH, HIST_LONG_INDENT);
	if (s->kind == HIST_STEP_STATUS && s->term_reason != NULL) {
		g_string_truncate(line, 0);
		cmd_time_long(line, s->time);
		g_string_append(line, ": ");
		usage_format_completed(line, s->state ==
		    BASALT__JOB_STATE__JOB_STATE_DONE, s->term_reason);
		cmd_wrap(out, line->str, HIST_LONG_WIDTH, HIST_LONG_INDENT);
	}
	if (s->kind == HIST_STEP_MODIFY && s->text != NULL && *s->text) {
		g_auto(GStrv) lines = g_strsplit(s->text, "\n", -1);

		for (guint i = 0; lines[i] != NULL; i++)
			g_string_append_printf(out, "    %s\n", lines[i]);
	}
}

/* ---- -l ------------------------------------------------------------------ */

static void
long_header(GString *out, const HistJob *j)
{
	g_autoptr(GString) l = g_string_new("Job <");
	const char *group = hist_job_spec(j)->job_group;

	cmd_jobid(l, j->id, j->index);
	g_string_append_printf(l, ">, Job Name <%s>, User <%s>, Project <%s>, "
	    "%s%s%sCommand <%s>", j->name, j->user, hist_job_project(j),
	    group[0] ? "Job Group <" : "", group, group[0] ? ">, " : "",
	    hist_job_spec(j)->command);
	cmd_wrap(out, l->str, HIST_LONG_WIDTH, HIST_LONG_INDENT);
}

static void
long_times(GString *out, const HistJob *j, gint64 now)
{
	gint64 secs[HIST_NCOLS];
	gint64 total = hist_job_times(j, now, secs);

	g_string_append(out, "\nSummary of time in seconds spent in various "
	    "states by  ");
	cmd_time_long(out, hist_job_finished(j) ? j->end_time : now);
	g_string_append(out, "\n  ");
	for (int c = 0; c < HIST_NCOLS; c++)
		g_string_append_printf(out, "%-9s", col_names[c]);
	g_string_append(out, "TOTAL\n  ");
	for (int c = 0; c < HIST_NCOLS; c++)
		g_string_append_printf(out, "%-9" G_GINT64_FORMAT, secs[c]);
	g_string_append_printf(out, "%" G_GINT64_FORMAT "\n", total);
}

void
hist_format_long(GString *out, GPtrArray *jobs, gint64 now)
{
	for (guint i = 0; i < jobs->len; i++) {
		const HistJob *j = g_ptr_array_index(jobs, i);

		if (i > 0)
			g_string_append(out, HIST_RULE);
		g_string_append_c(out, '\n');
		long_header(out, j);
		for (guint k = 0; k < j->steps->len; k++) {
			const HistStep *s = g_ptr_array_index(j->steps, k);

			hist_format_step(out, j, s);
			/* What this run started with, below its dispatch,
			 * in the blocks LSF's bhist -l prints limits in;
			 * each run has its own, a rerun may differ. */
			if (s->kind == HIST_STEP_DISPATCH && s->effective != NULL) {
				effective_format_limits(out, s->effective);
				effective_format_settings(out, s->effective);
			}
		}
		/* Only a run sbatchd sampled has the block (older journals
		 * carry the peak memory alone). */
		if (j->acct.max_nprocs > 0)
			usage_format_block(out, "", &j->acct);
		long_times(out, j, now);
		g_string_append_c(out, '\n');
	}
}

/* ---- -t ------------------------------------------------------------------ */

typedef struct {
	const HistJob *job;
	const HistStep *step;
} Entry;

static gint
entry_cmp(gconstpointer a, gconstpointer b)
{
	const Entry *x = a, *y = b;

	if (x->step->seq != y->step->seq)
		return x->step->seq < y->step->seq ? -1 : 1;
	/* The elements of one array share their events' seq. */
	if (x->job->index != y->job->index)
		return x->job->index < y->job->index ? -1 : 1;
	return 0;
}

static void
timeline_time(GString *out, gint64 t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[64];

	if (localtime_r(&tt, &tm) != NULL &&
	    strftime(buf, sizeof buf, "%b %e %H:%M:%S %Y", &tm) > 0)
		g_string_append(out, buf);
	else
		g_string_append_c(out, '-');
}

static void
timeline_entry(GString *out, const Entry *e)
{
	g_autoptr(GString) body = g_string_new(NULL);

	timeline_time(out, e->step->time);
	g_string_append(out, ": Job <");
	cmd_jobid(out, e->job->id, e->job->index);
	g_string_append(out, "> ");
	if (e->step->kind == HIST_STEP_SUBMIT)
		hist_submit_text(body, e->job, TRUE);
	else if (e->step->kind == HIST_STEP_MODIFY)
		g_string_append(body, "parameters are changed;");
	else
		step_body(body, e->job, e->step);
	body->str[0] = g_ascii_tolower(body->str[0]);
	g_string_append(out, body->str);
	g_string_append_c(out, '\n');
}

void
hist_format_timeline(GString *out, GPtrArray *jobs)
{
	g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(Entry));

	for (guint i = 0; i < jobs->len; i++) {
		const HistJob *j = g_ptr_array_index(jobs, i);

		for (guint k = 0; k < j->steps->len; k++) {
			Entry e = { j, g_ptr_array_index(j->steps, k) };

			g_array_append_val(all, e);
		}
	}
	g_array_sort(all, entry_cmp);
	for (guint i = 0; i < all->len; i++)
		timeline_entry(out, &g_array_index(all, Entry, i));
}
