/*
 * Accounting and limit ends as text (see usage-format.h).
 */
#include "config.h"

#include "cmd-util.h"
#include "usage-format.h"

static const struct {
	const char *term, *text;
} terms[] = {
	{ "TERM_RUNLIMIT", "job killed after reaching LSF run time limit" },
	{ "TERM_CPULIMIT", "job killed after reaching LSF CPU usage limit" },
	{ "TERM_MEMLIMIT", "job killed after reaching LSF memory usage limit" },
	{ "TERM_SWAP", "job killed after reaching LSF swap usage limit" },
	{ "TERM_PROCESSLIMIT", "job killed after reaching LSF process limit" },
	{ "TERM_THREADLIMIT", "job killed after reaching LSF thread limit" },
	{ "TERM_DEADLINE", "job killed after deadline" },           /* bsub -t */
};

const char *
usage_term_text(const char *term)
{
	for (gsize i = 0; term != NULL && i < G_N_ELEMENTS(terms); i++)
		if (g_str_equal(term, terms[i].term))
			return terms[i].text;
	return NULL;
}

void
usage_format_completed(GString *out, gboolean done, const char *term)
{
	const char *text = usage_term_text(term);

	if (term == NULL || *term == '\0')
		return;
	g_string_append_printf(out, "Completed <%s>; %s", done ? "done" : "exit",
			       term);
	if (text != NULL)
		g_string_append_printf(out, ": %s", text);
	g_string_append_c(out, '.');
}

void
usage_format_block(GString *out, const char *indent,
		   const Basalt__ResourceUsage *u)
{
	if (u == NULL || (u->max_rss_kb == 0 && u->max_nprocs == 0))
		return;
	g_string_append_printf(out, "\n%sMEMORY USAGE:\n%sMAX MEM: ", indent, indent);
	cmd_mem_kb(out, u->max_rss_kb);
	if (u->avg_rss_kb > 0 || u->max_nprocs > 0) {
		g_string_append(out, ";  AVG MEM: ");
		cmd_mem_kb(out, u->avg_rss_kb);
	}
	g_string_append_c(out, '\n');
	if (u->max_swap_kb > 0) {
		g_string_append_printf(out, "%sMAX SWAP: ", indent);
		cmd_mem_kb(out, u->max_swap_kb);
		g_string_append_c(out, '\n');
	}
	if (u->max_nprocs > 0)
		g_string_append_printf(out, "%sMAX PROCS: %u;  MAX THREADS: %u\n",
				       indent, u->max_nprocs, u->max_nthreads);
}
