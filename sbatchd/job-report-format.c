/*
 * LSF's job report laid out as LSF does with LSB_STDOUT_DIRECT: the job
 * wrote its -o file directly, so the report follows the output and says
 * so.  Times are the execution host's local time, as LSF prints them.
 */
#include "config.h"

#include <string.h>

#include "job-report-format.h"

#define RULE "------------------------------------------------------------"

static char *
when(gint64 t)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local(t);

	return dt ? g_date_time_format(dt, "%a %b %e %H:%M:%S %Y") : g_strdup("-");
}

/* "<2*hostA> <hostB>": slots per host, in order. */
static char *
hosts_text(char **hosts)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; hosts != NULL && hosts[i] != NULL; i++) {
		guint n = 1;

		while (hosts[i + 1] != NULL && strcmp(hosts[i + 1], hosts[i]) == 0) {
			n++;
			i++;
		}
		if (s->len > 0)
			g_string_append_c(s, ' ');
		if (n > 1)
			g_string_append_printf(s, "<%u*%s>", n, hosts[i]);
		else
			g_string_append_printf(s, "<%s>", hosts[i]);
	}
	return g_string_free(s, FALSE);
}

static char *
job_label(const SbdReportFacts *f)
{
	if (f->index > 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT "[%u]", f->job_id, f->index);
	return g_strdup_printf("%" G_GUINT64_FORMAT, f->job_id);
}

static void
header(GString *s, const SbdReportFacts *f, const char *status)
{
	g_autofree char *label = job_label(f);
	g_autofree char *sub = when(f->submit_time);
	g_autofree char *start = when(f->start_time);
	g_autofree char *hosts = hosts_text(f->hosts);

	g_string_append_printf(s, "Sender: LSF System <%s>\n", f->sender);
	g_string_append_printf(s, "Subject: Job %s: <%s> in cluster <%s> %s\n\n",
	    label, f->name, f->cluster, status);
	g_string_append_printf(s, "Job <%s> was submitted from host <%s> by user "
	    "<%s> in cluster <%s> at %s\n", f->name, f->submit_host, f->user,
	    f->cluster, sub);
	g_string_append_printf(s, "Job was executed on host(s) %s, in queue <%s>, "
	    "as user <%s> in cluster <%s> at %s\n", hosts, f->queue, f->user,
	    f->cluster, start);
	g_string_append_printf(s, "<%s> was used as the home directory.\n", f->home);
	g_string_append_printf(s, "<%s> was used as the working directory.\n", f->cwd);
	g_string_append_printf(s, "Started at %s\n", start);
}

static void
figure(GString *s, const char *label, gint64 v, const char *unit)
{
	g_string_append_printf(s, "    %-45s", label);
	if (v < 0)
		g_string_append(s, "-\n");
	else
		g_string_append_printf(s, "%" G_GINT64_FORMAT "%s\n", v, unit);
}

static void
figure_mb(GString *s, const char *label, gint64 kb, gboolean frac)
{
	g_string_append_printf(s, "    %-45s", label);
	if (kb < 0)
		g_string_append(s, "-\n");
	else if (frac)
		g_string_append_printf(s, "%.2f MB\n", (double)kb / 1024.0);
	else
		g_string_append_printf(s, "%" G_GINT64_FORMAT " MB\n", (kb + 1023) / 1024);
}

static void
usage_block(GString *s, const SbdReportUsage *u)
{
	g_string_append(s, "Resource usage summary:\n\n");
	g_string_append_printf(s, "    %-45s", "CPU time :");
	if (u->cpu_s < 0)
		g_string_append(s, "-\n");
	else
		g_string_append_printf(s, "%.2f sec.\n", u->cpu_s);
	figure_mb(s, "Max Memory :", u->max_mem_kb, FALSE);
	figure_mb(s, "Average Memory :", u->avg_mem_kb, TRUE);
	figure(s, "Total Requested Memory :", -1, "");
	figure(s, "Delta Memory :", -1, "");
	figure_mb(s, "Max Swap :", u->max_swap_kb, FALSE);
	figure(s, "Max Processes :", u->max_procs, "");
	figure(s, "Max Threads :", u->max_threads, "");
	figure(s, "Run time :", u->run_time_s, " sec.");
	figure(s, "Turnaround time :", u->turnaround_s, " sec.");
	g_string_append_c(s, '\n');
}

char *
sbd_report_format(const SbdReportFacts *f, const SbdReportUsage *u)
{
	GString *s = g_string_new(NULL);
	g_autofree char *end = when(f->end_time);

	header(s, f, f->done ? "Done" : "Exited");
	g_string_append_printf(s, "Terminated at %s\n", end);
	g_string_append_printf(s, "Results reported at %s\n\n", end);
	g_string_append_printf(s, "Your job looked like:\n\n%s\n# LSBATCH: User input\n"
	    "%s\n%s\n\n", RULE, f->command, RULE);
	if (f->done) {
		g_string_append(s, "Successfully completed.\n\n");
	} else {
		if (f->reason != NULL && *f->reason != '\0')
			g_string_append_printf(s, "%s\n", f->reason);
		if (f->exit.kind == BS_EXIT_SIGNAL)
			g_string_append_printf(s, "Exited with signal termination: %s.\n\n",
			    g_strsignal(f->exit.signo));
		else if (f->exit.kind == BS_EXIT_CODE)
			g_string_append_printf(s, "Exited with exit code %d.\n\n",
			    f->exit.code);
		else
			g_string_append(s, "Exited with an unknown exit status.\n\n");
	}
	usage_block(s, u);
	if (!f->output_follows)
		g_string_append(s, "The output (if any) is above this job summary.\n");
	if (f->err_path != NULL)
		g_string_append_printf(s, "\nPS:\n\nRead file <%s> for stderr output "
		    "of this job.\n", f->err_path);
	g_string_append_c(s, '\n');
	/* A mail of a job without -o: its output is appended after this. */
	if (f->output_follows)
		g_string_append(s, "The output (if any) follows:\n\n");
	return g_string_free(s, FALSE);
}

char *
sbd_report_format_begin(const SbdReportFacts *f)
{
	GString *s = g_string_new(NULL);

	header(s, f, "started");
	return g_string_free(s, FALSE);
}

