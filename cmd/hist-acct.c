/*
 * bacct's layout (see hist-format.h): what was selected, then per job
 * with -l, then the SUMMARY block whose labels scripts grep for.  The
 * figures follow LSF's definitions, computed from the history model:
 *
 *   CPU time     utime + stime of the job's latest run, as sbatchd measured
 *   wait         seconds the job spent pending (PEND and PSUSP), over all
 *                its runs, so a requeued job's second wait counts too
 *   turnaround   completion minus first submission
 *   hog factor   CPU time / turnaround
 *
 * Each "label: value" cell is 34 characters wide with the value right
 * aligned, two cells to a line, as LSF prints them.
 */
#include "config.h"

#include <string.h>

#include "cmd-util.h"
#include "hist-format.h"
#include "usage-format.h"

#define CELL_WIDTH 34

typedef struct {
	double cpu;
	gint64 wait;
	gint64 turnaround;
	double hog;
} Acct;

static Acct
acct_of(const HistJob *j)
{
	gint64 secs[HIST_NCOLS];
	Acct a;

	hist_job_times(j, j->end_time, secs);
	a.cpu = (double)j->cpu_us / 1e6;
	a.wait = secs[HIST_PEND] + secs[HIST_PSUSP];
	a.turnaround = MAX(j->end_time - j->submit_time, 0);
	a.hog = a.turnaround > 0 ? a.cpu / (double)a.turnaround : 0.0;
	return a;
}

/* ---- the header ----------------------------------------------------------- */

static void
range_text(GString *out, const char *what, const HistRange *r)
{
	g_string_append_printf(out, "  - %s between ", what);
	cmd_time_long(out, r->from);
	g_string_append(out, " and ");
	cmd_time_long(out, r->to);
	g_string_append(out, ".\n");
}

static void
acct_header(GString *out, const HistAcctHeader *h)
{
	g_string_append(out, "Accounting information about jobs that are: \n");
	if (h->user != NULL)
		g_string_append_printf(out, "  - submitted by users %s,\n",
		    h->user);
	else
		g_string_append(out, "  - submitted by all users.\n");
	const char *how = h->done_only ? "completed normally" :
	    h->exit_only ? "exited" : "completed normally or exited";

	if (h->project != NULL)
		g_string_append_printf(out, "  - accounted on projects %s,\n",
		    h->project);
	else
		g_string_append(out, "  - accounted on all projects.\n");
	if (h->complete != NULL && h->complete->set)
		range_text(out, how, h->complete);
	else
		g_string_append_printf(out, "  - %s\n", how);
	if (h->submit != NULL && h->submit->set)
		range_text(out, "submitted", h->submit);
	if (h->dispatch != NULL && h->dispatch->set)
		range_text(out, "dispatched", h->dispatch);
	if (h->host != NULL)
		g_string_append_printf(out, "  - executed on hosts %s,\n",
		    h->host);
	else
		g_string_append(out, "  - executed on all hosts.\n");
	if (h->queue != NULL)
		g_string_append_printf(out, "  - submitted to queues %s,\n",
		    h->queue);
	else
		g_string_append(out, "  - submitted to all queues.\n");
	g_string_append(out, HIST_RULE);
}

/* ---- -l ------------------------------------------------------------------- */

/* LSF's short memory form: "512K", "2M", "1.5G". */
static void
mem_short(GString *out, guint64 kb)
{
	if (kb < 1024)
		g_string_append_printf(out, "%" G_GUINT64_FORMAT "K", kb);
	else if (kb < 1024 * 1024)
		g_string_append_printf(out, "%" G_GUINT64_FORMAT "M",
		    (kb + 512) / 1024);
	else
		g_string_append_printf(out, "%.1fG",
		    (double)kb / (1024.0 * 1024.0));
}

static void
acct_job(GString *out, const HistJob *j, gboolean wide)
{
	g_autoptr(GString) l = g_string_new("Job <");
	g_autoptr(GString) mem = g_string_new(NULL);
	g_autoptr(GString) swap = g_string_new(NULL);
	Acct a = acct_of(j);
	gboolean done = j->state == BASALT__JOB_STATE__JOB_STATE_DONE;

	cmd_jobid(l, j->id, j->index);
	g_string_append_printf(l, ">, Job Name <%s>, User <%s>, Project <%s>, "
	    "Status <%s>, Queue <%s>, Command <%s>", j->name, j->user,
	    hist_job_project(j), done ? "DONE" : "EXIT", j->queue,
	    hist_job_spec(j)->command);
	g_string_append_c(out, '\n');
	if (wide)
		g_string_append_printf(out, "%s\n", l->str);
	else
		cmd_wrap(out, l->str, 80, 21);
	for (guint k = 0; k < j->steps->len; k++)
		hist_format_step(out, j, g_ptr_array_index(j->steps, k));
	mem_short(mem, j->max_rss_kb);
	if (j->acct.max_swap_kb > 0)
		mem_short(swap, j->acct.max_swap_kb);
	else
		g_string_append_c(swap, '-');
	g_string_append(out, "\nAccounting information about this job:\n");
	g_string_append(out, "     CPU_T     WAIT     TURNAROUND   STATUS     "
	    "HOG_FACTOR    MEM    SWAP\n");
	g_string_append_printf(out, "%10.2f%9" G_GINT64_FORMAT "%15"
	    G_GINT64_FORMAT "%9s%15.4f%7s%8s\n", a.cpu, a.wait, a.turnaround,
	    done ? "done" : "exit", a.hog, mem->str, swap->str);
	if (j->acct.max_nprocs > 0)
		usage_format_block(out, "", &j->acct);
	g_string_append(out, HIST_RULE);
}

/* ---- -b ------------------------------------------------------------------ */

static void
brief_cell(GString *out, const char *text, guint width, gboolean wide)
{
	cmd_cell(out, text, width, wide ? CMD_FIT_WIDE : CMD_FIT_HEAD, FALSE);
	g_string_append_c(out, ' ');
}

/* One line per job: who, where and how long, as LSF's brief format. */
static void
acct_brief(GString *out, GPtrArray *jobs, gboolean wide)
{
	g_string_append(out, "\nU/UID    QUEUE      SUBMIT_TIME  "
	    "   CPU_T     WAIT TURNAROUND FROM       EXEC_ON    JOB_NAME\n");
	for (guint i = 0; i < jobs->len; i++) {
		const HistJob *j = g_ptr_array_index(jobs, i);
		g_autoptr(GString) t = g_string_new(NULL);
		Acct a = acct_of(j);

		brief_cell(out, j->user, 8, wide);
		brief_cell(out, j->queue, 10, wide);
		cmd_time_short(t, j->submit_time);
		brief_cell(out, t->str, 12, TRUE);
		g_string_append_printf(out, "%8.1f %8" G_GINT64_FORMAT " %10"
		    G_GINT64_FORMAT " ", a.cpu, a.wait, a.turnaround);
		brief_cell(out, j->from_host != NULL ? j->from_host : "-", 10,
		    wide);
		brief_cell(out, j->exec_hosts != NULL && j->exec_hosts[0] ?
		    j->exec_hosts[0] : "-", 10, wide);
		g_string_append_printf(out, "%s\n", j->name);
	}
}

/* ---- SUMMARY --------------------------------------------------------------- */

static void
cell(GString *out, const char *label, const char *value)
{
	gsize used = strlen(label) + strlen(value);

	g_string_append(out, label);
	for (gsize i = used; i < CELL_WIDTH - 1; i++)
		g_string_append_c(out, ' ');
	g_string_append_c(out, ' ');
	g_string_append(out, value);
}

/* One line: one or two cells; tail (may be NULL) follows the first. */
static void
line(GString *out, const char *l1, const char *v1, const char *tail,
    const char *l2, const char *v2)
{
	g_string_append_c(out, ' ');
	cell(out, l1, v1);
	if (tail != NULL)
		g_string_append(out, tail);
	if (l2 != NULL) {
		g_string_append(out, "      ");
		cell(out, l2, v2);
	}
	g_string_append_c(out, '\n');
}

typedef struct {
	guint done, exited;
	guint reclaimed;            /* jobs with a reclaimed run (EvJobReclaim) */
	double cpu_sum, cpu_max, cpu_min;
	gint64 wait_sum, wait_max, wait_min;
	gint64 turn_sum, turn_max, turn_min;
	double hog_sum, hog_max, hog_min;
} Totals;

static void
totals_add(Totals *t, const HistJob *j)
{
	Acct a = acct_of(j);
	gboolean first = t->done + t->exited == 0;

	if (j->state == BASALT__JOB_STATE__JOB_STATE_DONE)
		t->done++;
	else
		t->exited++;
	for (guint i = 0; j->steps != NULL && i < j->steps->len; i++)
		if (((const HistStep *)j->steps->pdata[i])->kind == HIST_STEP_RECLAIM) {
			t->reclaimed++;
			break;
		}
	t->cpu_sum += a.cpu;
	t->wait_sum += a.wait;
	t->turn_sum += a.turnaround;
	t->hog_sum += a.hog;
	t->cpu_max = first ? a.cpu : MAX(t->cpu_max, a.cpu);
	t->cpu_min = first ? a.cpu : MIN(t->cpu_min, a.cpu);
	t->wait_max = first ? a.wait : MAX(t->wait_max, a.wait);
	t->wait_min = first ? a.wait : MIN(t->wait_min, a.wait);
	t->turn_max = first ? a.turnaround : MAX(t->turn_max, a.turnaround);
	t->turn_min = first ? a.turnaround : MIN(t->turn_min, a.turnaround);
	t->hog_max = first ? a.hog : MAX(t->hog_max, a.hog);
	t->hog_min = first ? a.hog : MIN(t->hog_min, a.hog);
}

static void
two(GString *out, const char *l1, double v1, const char *l2, double v2,
    int decimals)
{
	char a[48], b[48];

	g_snprintf(a, sizeof a, "%.*f", decimals, v1);
	g_snprintf(b, sizeof b, "%.*f", decimals, v2);
	line(out, l1, a, NULL, l2, b);
}

static void
one(GString *out, const char *l1, double v1, int decimals,
    const char *tail)
{
	char a[48];

	g_snprintf(a, sizeof a, "%.*f", decimals, v1);
	line(out, l1, a, tail, NULL, NULL);
}

static void
summary(GString *out, const Totals *t)
{
	double n = (double)(t->done + t->exited);

	g_string_append(out, "\nSUMMARY:      ( time unit: second ) \n");
	two(out, "Total number of done jobs:", t->done,
	    "Total number of exited jobs:", t->exited, 0);
	/* Resource reclaim: only when some job had a run reclaimed. */
	if (t->reclaimed > 0)
		one(out, "Total number of reclaimed jobs:", t->reclaimed, 0, NULL);
	two(out, "Total CPU time consumed:", t->cpu_sum,
	    "Average CPU time consumed:", t->cpu_sum / n, 1);
	two(out, "Maximum CPU time of a job:", t->cpu_max,
	    "Minimum CPU time of a job:", t->cpu_min, 1);
	one(out, "Total wait time in queues:", (double)t->wait_sum, 1,
	    NULL);
	one(out, "Average wait time in queue:", (double)t->wait_sum / n,
	    1, NULL);
	two(out, "Maximum wait time in queue:", (double)t->wait_max,
	    "Minimum wait time in queue:", (double)t->wait_min, 1);
	/* Whole seconds, rounded down, as LSF prints turnaround. */
	one(out, "Average turnaround time:",
	    (double)(t->turn_sum / (gint64)n), 0, " (seconds/job)");
	two(out, "Maximum turnaround time:", (double)t->turn_max,
	    "Minimum turnaround time:", (double)t->turn_min, 0);
	one(out, "Average hog factor of a job:", t->hog_sum / n, 2,
	    " ( cpu time / turnaround time )");
	two(out, "Maximum hog factor of a job:", t->hog_max,
	    "Minimum hog factor of a job:", t->hog_min, 2);
}

void
hist_format_acct(GString *out, GPtrArray *jobs, const HistAcctHeader *h,
    gboolean lng)
{
	Totals t = { 0 };

	acct_header(out, h);
	if (h->brief && !lng)
		acct_brief(out, jobs, h->wide);
	for (guint i = 0; i < jobs->len; i++) {
		const HistJob *j = g_ptr_array_index(jobs, i);

		if (lng)
			acct_job(out, j, h->wide);
		totals_add(&t, j);
	}
	if (t.done + t.exited > 0)
		summary(out, &t);
}
