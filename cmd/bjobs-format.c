/*
 * bjobs' fixed layouts (see bjobs-format.h).
 *
 * Column widths are OpenLava's: JOBID 7, USER 7, STAT 5, QUEUE 10,
 * FROM_HOST 11, EXEC_HOST 11, JOB_NAME 10, one blank between columns.
 * JOB_NAME keeps its end behind a '*' as LSF does; for the other columns
 * we keep the start and end with a '*', so a cut value never passes for a
 * whole one.  A parallel job's further EXEC_HOST groups go on lines of
 * their own under the column, as LSF prints them.
 */
#include "config.h"

#include <string.h>

#include "bjobs-format.h"
#include "cmd-util.h"
#include "effective-format.h"
#include "usage-format.h"

#define EXEC_COLUMN 45    /* where EXEC_HOST starts in the default table */
#define LONGFORM_WIDTH 80     /* -l lines */
#define UNFORMATTED_WIDTH (G_MAXUINT / 2)   /* -UF: no line is wrapped */
#define LONGFORM_INDENT 21    /* strlen("Mon Nov 21 10:02:00: ") */

static const char table_header[] =
	"JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   "
	"SUBMIT_TIME\n";
static const char wide_header[] =
	"JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   "
	"SUBMIT_TIME  PROJ_NAME CPU_USED MEM SWAP PIDS START_TIME FINISH_TIME\n";

char *
bjobs_job_name(const Basalt__JobInfo *j)
{
	const char *name = j->job_name;
	const char *br;

	if ((name == NULL || name[0] == '\0') && j->spec != NULL)
		name = j->spec->command;
	if (name == NULL)
		name = "";
	if (j->array_index == 0)
		return g_strdup(name);
	/* An element shows the array's name with its own index. */
	br = strchr(name, '[');
	return g_strdup_printf("%.*s[%u]",
			       br != NULL ? (int)(br - name) : (int)strlen(name),
			       name, j->array_index);
}

char **
bjobs_exec_groups(const Basalt__JobInfo *j)
{
	GPtrArray *g = g_ptr_array_new();

	for (size_t i = 0; i < j->n_exec_hosts;) {
		size_t n = 1;

		while (i + n < j->n_exec_hosts &&
		       strcmp(j->exec_hosts[i + n], j->exec_hosts[i]) == 0)
			n++;
		g_ptr_array_add(g, n > 1 ?
				g_strdup_printf("%zu*%s", n, j->exec_hosts[i]) :
				g_strdup(j->exec_hosts[i]));
		i += n;
	}
	g_ptr_array_add(g, NULL);
	return (char **)g_ptr_array_free(g, FALSE);
}

double
bjobs_cpu_seconds(const Basalt__JobInfo *j)
{
	if (j->usage == NULL)
		return 0;
	return (double)(j->usage->utime_us + j->usage->stime_us) / 1e6;
}

static gboolean
is_pending(const Basalt__JobInfo *j)
{
	return j->state == BASALT__JOB_STATE__JOB_STATE_PEND ||
	       j->state == BASALT__JOB_STATE__JOB_STATE_PSUSP;
}

static gboolean
is_suspended(const Basalt__JobInfo *j)
{
	return j->state == BASALT__JOB_STATE__JOB_STATE_USUSP ||
	       j->state == BASALT__JOB_STATE__JOB_STATE_SSUSP ||
	       j->state == BASALT__JOB_STATE__JOB_STATE_PSUSP;
}

/* v in decimal into buf (at least 21 bytes): printf's work for a row
 * field, without its format parsing. */
static void
decimal(char *buf, gsize size, guint64 v)
{
	char tmp[24];
	gsize n = 0, k = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	g_assert(n < size);
	while (n > 0)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
}

/* bjobs_job_name of an element named name (not empty) into buf; NULL
 * when it does not fit there. */
static const char *
element_name(char *buf, gsize size, const char *name, guint32 index)
{
	const char *br = strchr(name, '[');
	gsize base = br != NULL ? (gsize)(br - name) : strlen(name);
	char idx[24];
	gsize ilen;

	decimal(idx, sizeof(idx), index);
	ilen = strlen(idx);
	if (base + ilen + 3 > size)
		return NULL;
	memcpy(buf, name, base);
	buf[base] = '[';
	memcpy(buf + base + 1, idx, ilen);
	buf[base + 1 + ilen] = ']';
	buf[base + 2 + ilen] = '\0';
	return buf;
}

/* The seven columns before SUBMIT_TIME, each followed by a blank. */
static void
lead_columns(GString *out, const Basalt__JobInfo *j, const char *exec,
	     gboolean wide)
{
	char id[24], element[128];
	g_autofree char *made = NULL;
	const char *name = j->job_name;
	CmdFit head = wide ? CMD_FIT_WIDE : CMD_FIT_HEAD;

	/* Nothing allocated for the usual row (a listing has a million):
	 * the id and an element's name in buffers, a name as it came, and
	 * bjobs_job_name only for what does not fit. */
	if (name == NULL || name[0] == '\0' ||
	    (j->array_index != 0 &&
	     (name = element_name(element, sizeof(element), name,
				  j->array_index)) == NULL))
		name = made = bjobs_job_name(j);
	decimal(id, sizeof(id), j->job_id);
	cmd_cell(out, id, 7, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, j->user, 7, head, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, cmd_state_name(j->state), 5, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, j->queue, 10, head, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, j->from_host, 11, head, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, exec, 11, head, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, name, 10, wide ? CMD_FIT_WIDE : CMD_FIT_TAIL, FALSE);
	g_string_append_c(out, ' ');
}

/* " New job is waiting for scheduling;" under a pending or suspended job. */
static void
reason_line(GString *out, const Basalt__JobInfo *j)
{
	const char *r = is_pending(j) ? j->pending_reason
		      : is_suspended(j) ? j->suspend_reason : NULL;

	if (r == NULL || r[0] == '\0')
		return;
	g_string_append_printf(out, " %s%s\n", r,
			       g_str_has_suffix(r, ";") ? "" : ";");
}

static void
table_row(GString *out, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	g_auto(GStrv) groups = NULL;
	g_autofree char *joined = NULL;

	/* A job on one slot or none (nearly every row): its host as it is,
	 * with no groups to make and no further lines. */
	if (j->n_exec_hosts <= 1) {
		lead_columns(out, j, j->n_exec_hosts == 1 ? j->exec_hosts[0] : "",
			     o->wide);
		cmd_time_short(out, j->submit_time);
		g_string_append_c(out, '\n');
		if (o->reasons)
			reason_line(out, j);
		return;
	}
	groups = bjobs_exec_groups(j);
	joined = g_strjoinv(":", groups);
	lead_columns(out, j, o->wide ? joined : (groups[0] ? groups[0] : ""),
		     o->wide);
	cmd_time_short(out, j->submit_time);
	g_string_append_c(out, '\n');
	/* groups[0] is NULL for a job that has not started. */
	for (guint i = 1; !o->wide && groups[0] != NULL && groups[i] != NULL;
	     i++) {
		cmd_cell(out, "", EXEC_COLUMN, CMD_FIT_WIDE, FALSE);
		g_string_append_printf(out, "%s\n", groups[i]);
	}
	if (o->reasons)
		reason_line(out, j);
}

void
bjobs_format_table(GString *out, const Basalt__JobList *list,
		   const BjobsOpts *o)
{
	if (!o->noheader)
		g_string_append(out, table_header);
	for (size_t i = 0; i < list->n_jobs; i++)
		table_row(out, list->jobs[i], o);
}

static void
cpu_hms(GString *out, double secs)
{
	guint64 cs = (guint64)(secs * 100 + 0.5);

	g_string_append_printf(out, "%03" G_GUINT64_FORMAT ":%02u:%02u.%02u",
			       cs / 360000, (guint)(cs / 6000 % 60),
			       (guint)(cs / 100 % 60), (guint)(cs % 100));
}

static void
time_or_dash(GString *out, gint64 t)
{
	if (t > 0)
		cmd_time_wide(out, t);
	else
		g_string_append_c(out, '-');
}

/* The -W columns after JOB_NAME. */
static void
wide_tail(GString *out, const Basalt__JobInfo *j)
{
	const char *proj = j->spec != NULL ? j->spec->project : NULL;
	const Basalt__ResourceUsage *u = j->usage;

	cmd_time_wide(out, j->submit_time);
	g_string_append_printf(out, " %s ", proj && *proj ? proj : "default");
	cpu_hms(out, bjobs_cpu_seconds(j));
	if (u != NULL && u->rss_kb > 0)
		g_string_append_printf(out, " %" G_GUINT64_FORMAT " - ", u->rss_kb);
	else
		g_string_append(out, " - - ");
	for (size_t i = 0; u != NULL && i < u->n_pids; i++)
		g_string_append_printf(out, "%s%d", i ? "," : "", u->pids[i]);
	if (u == NULL || u->n_pids == 0)
		g_string_append_c(out, '-');
	g_string_append_c(out, ' ');
	time_or_dash(out, j->start_time);
	g_string_append_c(out, ' ');
	time_or_dash(out, j->end_time);
	g_string_append_c(out, '\n');
}

void
bjobs_format_wide(GString *out, const Basalt__JobList *list,
		  const BjobsOpts *o)
{
	if (!o->noheader)
		g_string_append(out, wide_header);
	for (size_t i = 0; i < list->n_jobs; i++) {
		const Basalt__JobInfo *j = list->jobs[i];
		g_auto(GStrv) groups = bjobs_exec_groups(j);
		g_autofree char *joined = g_strjoinv(":", groups);

		lead_columns(out, j, joined, TRUE);
		wide_tail(out, j);
	}
}

/* The -l line width of the listing being formatted: LONGFORM_WIDTH, or
 * UNFORMATTED_WIDTH under -UF.  Set by bjobs_format_long for its call. */
static guint long_width = LONGFORM_WIDTH;

/* One long-form statement, wrapped: "Mon Nov 21 10:02:00: text". */
static void
long_event(GString *out, gint64 t, const char *text)
{
	g_autoptr(GString) line = g_string_new(NULL);

	cmd_time_long(line, t);
	g_string_append_printf(line, ": %s", text);
	cmd_wrap(out, line->str, long_width, LONGFORM_INDENT);
}

static void
long_header(GString *out, const Basalt__JobInfo *j)
{
	g_autoptr(GString) l = g_string_new("Job <");
	g_autofree char *name = bjobs_job_name(j);
	const Basalt__JobSpec *s = j->spec;
	const char *proj = s != NULL && s->project[0] ? s->project : "default";

	cmd_jobid(l, j->job_id, j->array_index);
	g_string_append_printf(l, ">, Job Name <%s>, User <%s>, Project <%s>, "
			       "%s%s%sStatus <%s>, Queue <%s>", name, j->user,
			       proj, j->job_group[0] ? "Job Group <" : "",
			       j->job_group, j->job_group[0] ? ">, " : "",
			       cmd_state_name(j->state), j->queue);
	if (j->consumer != NULL && j->consumer[0] != '\0')
		g_string_append_printf(l, ", Consumer <%s>", j->consumer);
	if (s != NULL && s->mail_user[0] != '\0')
		g_string_append_printf(l, ", Mail <%s>", s->mail_user);
	if (s != NULL)
		g_string_append_printf(l, ", Command <%s>", s->command);
	cmd_wrap(out, l->str, long_width, LONGFORM_INDENT);
}

/* What the job asked for, appended to the "Submitted from" statement. */
static void
submit_details(GString *l, const Basalt__JobSpec *s)
{
	if (s->stdin_path[0] != '\0')
		g_string_append_printf(l, ", Input File <%s>", s->stdin_path);
	if (s->stdout_path[0] != '\0')
		g_string_append_printf(l, ", Output File%s <%s>",
				       s->stdout_overwrite ? " (overwrite)" : "",
				       s->stdout_path);
	if (s->stderr_path[0] != '\0')
		g_string_append_printf(l, ", Error File%s <%s>",
				       s->stderr_overwrite ? " (overwrite)" : "",
				       s->stderr_path);
	if (s->rerunnable)
		g_string_append(l, ", Re-runnable");
	if (s->min_slots > 1 || s->max_slots > 1) {
		if (s->max_slots > s->min_slots)
			g_string_append_printf(l, ", %u to %u Task(s)",
					       s->min_slots, s->max_slots);
		else
			g_string_append_printf(l, ", %u Task(s)", s->min_slots);
	}
	for (size_t i = 0; i < s->n_hosts; i++)
		g_string_append_printf(l, "%s<%s>", i ? " " : ", Specified Hosts ",
				       s->hosts[i]);
	if (s->resreq[0] != '\0')
		g_string_append_printf(l, ", Requested Resources <%s>", s->resreq);
	if (s->dependency[0] != '\0')
		g_string_append_printf(l, ", Dependency Condition <%s>",
				       s->dependency);
	if (s->pre_exec[0] != '\0')
		g_string_append_printf(l, ", Pre-execute Command <%s>", s->pre_exec);
	if (s->post_exec[0] != '\0')
		g_string_append_printf(l, ", Post-execute Command <%s>", s->post_exec);
	if (s->warning_action[0] != '\0')
		g_string_append_printf(l, ", Job Warning Action <%s>",
		    s->warning_action);
	if (s->warning_time > 0)
		g_string_append_printf(l, ", Job Action Warning Time <%d seconds>",
		    s->warning_time);
}

/* Resource reclaim: the notice and its grace deadline while the run
 * lasts; once requeued, why. */
static void
long_reclaim(GString *out, const Basalt__JobInfo *j)
{
	g_autoptr(GString) l = g_string_new(NULL);
	const char *why = j->reclaim_for[0] != '\0' ? j->reclaim_for : NULL;
	/* Reclaimed for no one: a plan change (TIME_WINDOW boundary, badmin
	 * reconfig) took back what its consumer held above the new plan. */
	gboolean plan = why == NULL && j->reclaim_kind[0] != '\0' &&
	    strcmp(j->reclaim_kind, "host") != 0;

	if (j->reclaim_deadline != 0 && j->start_time > 0 && j->end_time == 0) {
		if (why != NULL)
			g_string_append_printf(l, "Reclaimed for consumer <%s>", why);
		else if (plan)
			g_string_append(l, "Reclaimed at a plan change");
		else
			g_string_append(l, "Reclaimed: its host is closed with -reclaim");
		g_string_append(l, "; grace period ends ");
		if (j->reclaim_deadline > 0)
			cmd_time_long(l, j->reclaim_deadline);
		else
			g_string_append(l, "now");
		g_string_append(l, ", then the job is terminated and requeued;");
		cmd_wrap(out, l->str, long_width, LONGFORM_INDENT);
	} else if (j->reclaim_count > 0 && (j->state == BASALT__JOB_STATE__JOB_STATE_PEND ||
	    j->state == BASALT__JOB_STATE__JOB_STATE_PSUSP)) {
		if (why != NULL)
			g_string_append_printf(l, "Requeued: reclaimed for consumer <%s>", why);
		else if (plan)
			g_string_append(l, "Requeued: reclaimed at a plan change");
		else
			g_string_append(l, "Requeued: reclaimed, its host was closed");
		g_string_append_printf(l, " (reclaimed %u time%s);", j->reclaim_count,
		    j->reclaim_count == 1 ? "" : "s");
		cmd_wrap(out, l->str, long_width, LONGFORM_INDENT);
	}
}

/* LSF's words for bsub -I, -Ip, -Is in bjobs -l and bhist -l. */
const char *
bjobs_interactive_words(guint32 mode)
{
	switch (mode) {
	case 1: return "Interactive mode";
	case 2: return "Interactive pseudo-terminal mode";
	case 3: return "Interactive pseudo-terminal shell mode";
	default: return NULL;
	}
}

static void
long_submitted(GString *out, const Basalt__JobInfo *j)
{
	g_autoptr(GString) l = g_string_new(NULL);

	g_string_append_printf(l, "Submitted from host <%s>", j->from_host);
	if (j->spec != NULL) {
		g_string_append_printf(l, ", CWD <%s>", j->spec->cwd);
		if (bjobs_interactive_words(j->spec->interactive) != NULL)
			g_string_append_printf(l, ", %s",
			    bjobs_interactive_words(j->spec->interactive));
		submit_details(l, j->spec);
		bjobs_subopts_details(l, j);
	}
	g_string_append_c(l, ';');
	long_event(out, j->submit_time, l->str);
	if (j->spec != NULL && j->spec->begin_time > 0) {
		g_autoptr(GString) b = g_string_new(NULL);

		cmd_time_long(b, j->spec->begin_time);
		g_string_prepend(b, "Job will be scheduled after ");
		g_string_append_c(b, ';');
		long_event(out, j->submit_time, b->str);
	}
}

static void
long_started(GString *out, const Basalt__JobInfo *j)
{
	g_auto(GStrv) groups = bjobs_exec_groups(j);
	g_autoptr(GString) l = g_string_new("Started ");

	if (j->n_exec_hosts > 1)
		g_string_append_printf(l, "%zu Task(s) ", j->n_exec_hosts);
	g_string_append(l, "on Host(s) ");
	for (guint i = 0; groups[i] != NULL; i++)
		g_string_append_printf(l, "%s<%s>", i ? " " : "", groups[i]);
	if (j->spec != NULL)
		g_string_append_printf(l, ", Execution CWD <%s>", j->spec->cwd);
	g_string_append_c(l, ';');
	long_event(out, j->start_time, l->str);
}

/* SLOT_RESERVE: the slots a pending job holds, since when, and when the
 * scheduler expects it to start. */
static void
long_reserved(GString *out, const Basalt__JobInfo *j)
{
	Basalt__JobInfo view = *j;
	g_auto(GStrv) groups = NULL;
	g_autoptr(GString) l = g_string_new(NULL);

	view.exec_hosts = j->reserved_hosts;
	view.n_exec_hosts = j->n_reserved_hosts;
	groups = bjobs_exec_groups(&view);
	g_string_append_printf(l, "Reserved <%zu> job slot(s) on host(s) ",
			       j->n_reserved_hosts);
	for (guint i = 0; groups[i] != NULL; i++)
		g_string_append_printf(l, "%s<%s>", i ? " " : "", groups[i]);
	g_string_append_c(l, ';');
	if (j->reserve_start > 0) {
		g_string_append(l, " Estimated job start time: ");
		cmd_time_long(l, j->reserve_start);
		g_string_append_c(l, ';');
	}
	long_event(out, j->reserve_time, l->str);
}

static void
long_usage(GString *out, const Basalt__JobInfo *j, gint64 now)
{
	const Basalt__ResourceUsage *u = j->usage;
	g_autoptr(GString) l = g_string_new(NULL);

	long_event(out, now, "Resource usage collected.");
	g_string_append_printf(l, "The CPU time used is %.0f seconds.",
			       bjobs_cpu_seconds(j));
	cmd_cell(out, "", LONGFORM_INDENT, CMD_FIT_WIDE, FALSE);
	cmd_wrap(out, l->str, long_width - LONGFORM_INDENT, 0);
	cmd_cell(out, "", LONGFORM_INDENT, CMD_FIT_WIDE, FALSE);
	g_string_append(out, "MEM: ");
	cmd_mem_kb(out, u->rss_kb);
	if (u->swap_kb > 0) {
		g_string_append(out, ";  SWAP: ");
		cmd_mem_kb(out, u->swap_kb);
	}
	g_string_append_printf(out, ";  NPROCS: %u", u->nprocs);
	if (u->nthreads > 0)
		g_string_append_printf(out, ";  NTHREAD: %u", u->nthreads);
	g_string_append_c(out, '\n');
	cmd_cell(out, "", LONGFORM_INDENT, CMD_FIT_WIDE, FALSE);
	g_string_append_printf(out, "PGID: %d;  PIDs:", u->pgid);
	for (size_t i = 0; i < u->n_pids; i++)
		g_string_append_printf(out, " %d", u->pids[i]);
	g_string_append_c(out, '\n');
	usage_format_block(out, " ", u);
}

static void
long_finished(GString *out, const Basalt__JobInfo *j)
{
	g_autoptr(GString) l = g_string_new(NULL);

	if (j->state == BASALT__JOB_STATE__JOB_STATE_DONE)
		g_string_append(l, "Done successfully.");
	else if (j->term_signal > 0)
		g_string_append_printf(l, "Exited by signal %d.", j->term_signal);
	else
		g_string_append_printf(l, "Exited with exit code %d.",
				       j->exit_status);
	g_string_append_printf(l, " The CPU time used is %.1f seconds.",
			       bjobs_cpu_seconds(j));
	if (j->exit_reason != NULL && j->exit_reason[0] != '\0')
		g_string_append_printf(l, " %s", j->exit_reason);
	long_event(out, j->end_time, l->str);
	if (j->term_reason != NULL && j->term_reason[0] != '\0') {
		g_string_truncate(l, 0);
		usage_format_completed(l, j->state ==
		    BASALT__JOB_STATE__JOB_STATE_DONE, j->term_reason);
		long_event(out, j->end_time, l->str);
	}
	usage_format_block(out, " ", j->usage);
}

static void
long_limits(GString *out, const Basalt__JobSpec *s)
{
	if (s->runlimit_s > 0)
		g_string_append_printf(out, "\n RUNLIMIT\n %.1f min\n",
				       (double)s->runlimit_s / 60.0);
	if (s->cpulimit_s > 0)
		g_string_append_printf(out, "\n CPULIMIT\n %.1f min\n",
				       (double)s->cpulimit_s / 60.0);
	if (s->memlimit_kb > 0) {
		g_string_append(out, "\n MEMLIMIT\n ");
		cmd_limit_kb(out, s->memlimit_kb);
		g_string_append_c(out, '\n');
	}
	effective_format_job_limits(out, s);
}

static void
long_reasons(GString *out, const Basalt__JobInfo *j)
{
	if (is_pending(j) && j->pending_reason[0] != '\0') {
		g_string_append(out, " PENDING REASONS:\n");
		reason_line(out, j);
	} else if (is_suspended(j) && j->suspend_reason[0] != '\0') {
		g_string_append(out, " SUSPENDING REASONS:\n");
		reason_line(out, j);
	}
}

static void
long_job(GString *out, const Basalt__JobInfo *j, const BjobsOpts *o)
{
	g_string_append_c(out, '\n');
	long_header(out, j);
	long_submitted(out, j);
	if (is_pending(j) && j->n_reserved_hosts > 0)
		long_reserved(out, j);
	if (j->start_time > 0 && j->n_exec_hosts > 0)
		long_started(out, j);
	long_reclaim(out, j);
	if (j->end_time > 0)
		long_finished(out, j);
	else if (j->usage != NULL && j->start_time > 0)
		long_usage(out, j, o->now);
	long_reasons(out, j);
	/* A started job shows the limits it started with; a pending one
	 * the limits it asked for. */
	if (j->effective != NULL)
		effective_format_limits(out, j->effective);
	else if (j->spec != NULL)
		long_limits(out, j->spec);
}

void
bjobs_format_long(GString *out, const Basalt__JobList *list,
		  const BjobsOpts *o)
{
	long_width = o->unformatted ? UNFORMATTED_WIDTH : LONGFORM_WIDTH;
	for (size_t i = 0; i < list->n_jobs; i++) {
		if (i > 0)
			g_string_append(out, "------------------------------"
					"------------------------------------"
					"------------\n");
		long_job(out, list->jobs[i], o);
	}
}

static gboolean
listed(const Basalt__JobList *list, guint64 id, guint32 idx)
{
	for (size_t i = 0; i < list->n_jobs; i++)
		if (list->jobs[i]->job_id == id &&
		    (idx == 0 || list->jobs[i]->array_index == idx))
			return TRUE;
	return FALSE;
}

static const char *
state_words(const Basalt__JobQuery *q)
{
	if (q->all_states)
		return "No job found";
	if (q->pending)
		return "No pending job found";
	if (q->running)
		return "No running job found";
	if (q->suspended)
		return "No suspended job found";
	if (q->finished)
		return "No DONE/EXIT job found";
	return "No unfinished job found";
}

char **
bjobs_missing_ids(const Basalt__JobQuery *q, const Basalt__JobList *list)
{
	GPtrArray *ids = g_ptr_array_new();

	for (size_t i = 0; i < q->n_job_ids; i++) {
		guint32 idx = i < q->n_array_indexes ? q->array_indexes[i] : 0;
		GString *id;

		if (listed(list, q->job_ids[i], idx))
			continue;
		id = g_string_new(NULL);
		cmd_jobid(id, q->job_ids[i], idx);
		g_ptr_array_add(ids, g_string_free(id, FALSE));
	}
	g_ptr_array_add(ids, NULL);
	return (char **)g_ptr_array_free(ids, FALSE);
}

gboolean
bjobs_format_not_found(GString *err, const Basalt__JobQuery *q,
		       const Basalt__JobList *list)
{
	g_auto(GStrv) missing = bjobs_missing_ids(q, list);

	for (char **m = missing; *m != NULL; m++)
		g_string_append_printf(err, "Job <%s> is not found\n", *m);
	if (q->n_job_ids > 0 || list->n_jobs > 0)
		return missing[0] != NULL;
	g_string_append(err, state_words(q));
	if (q->n_queues == 1)
		g_string_append_printf(err, " in queue <%s>", q->queues[0]);
	if (q->n_hosts == 1)
		g_string_append_printf(err, " on host/group <%s>", q->hosts[0]);
	g_string_append_c(err, '\n');
	return TRUE;
}
