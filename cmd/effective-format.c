/*
 * JobEffective as text (see effective-format.h).  The limit blocks follow
 * LSF's bjobs -l: the name on one line, the value below it, times in
 * minutes with one decimal, sizes in LSF's memory units.
 */
#include "config.h"

#include "cmd-util.h"
#include "effective-format.h"

static void
minutes(GString *out, const char *name, const Basalt__JobLimit *l)
{
	if (l != NULL)
		g_string_append_printf(out, "\n %s\n %.1f min\n", name,
		    (double)l->value / 60.0);
}

static void
size(GString *out, const char *name, const Basalt__JobLimit *l)
{
	if (l == NULL)
		return;
	g_string_append_printf(out, "\n %s\n ", name);
	cmd_limit_kb(out, l->value);
	g_string_append_c(out, '\n');
}

void
effective_format_limits(GString *out, const Basalt__JobEffective *e)
{
	minutes(out, "RUNLIMIT", e->runlimit_s);
	minutes(out, "CPULIMIT", e->cpulimit_s);
	size(out, "MEMLIMIT", e->memlimit_kb);
	size(out, "CORELIMIT", e->corelimit_kb);
	size(out, "DATALIMIT", e->datalimit_kb);
	size(out, "FILELIMIT", e->filelimit_kb);
	size(out, "STACKLIMIT", e->stacklimit_kb);
	size(out, "SWAPLIMIT", e->swaplimit_kb);
	if (e->processlimit != NULL)
		g_string_append_printf(out, "\n PROCESSLIMIT\n %" G_GUINT64_FORMAT
		    "\n", e->processlimit->value);
	if (e->threadlimit != NULL)
		g_string_append_printf(out, "\n THREADLIMIT\n %" G_GUINT64_FORMAT
		    "\n", e->threadlimit->value);
}

void
effective_format_job_limits(GString *out, const Basalt__JobSpec *s)
{
	size(out, "CORELIMIT", s->corelimit_kb);
	size(out, "DATALIMIT", s->datalimit_kb);
	size(out, "FILELIMIT", s->filelimit_kb);
	size(out, "STACKLIMIT", s->stacklimit_kb);
	size(out, "SWAPLIMIT", s->swaplimit_kb);
	if (s->processlimit != NULL)
		g_string_append_printf(out, "\n PROCESSLIMIT\n %" G_GUINT64_FORMAT
		    "\n", s->processlimit->value);
	if (s->threadlimit != NULL)
		g_string_append_printf(out, "\n THREADLIMIT\n %" G_GUINT64_FORMAT
		    "\n", s->threadlimit->value);
}

static void
text(GString *out, const char *name, const char *value)
{
	if (value != NULL && *value)
		g_string_append_printf(out, "\n %s\n %s\n", name, value);
}

void
effective_format_settings(GString *out, const Basalt__JobEffective *e)
{
	if (e->nice != 0)
		g_string_append_printf(out, "\n NICE\n %d\n", e->nice);
	text(out, "JOB_STARTER", e->job_starter);
	text(out, "PRE_EXEC", e->pre_exec);
	text(out, "POST_EXEC", e->post_exec);
	text(out, "QUEUE PRE_EXEC", e->queue_pre_exec);
	text(out, "QUEUE POST_EXEC", e->queue_post_exec);
	if (e->n_env > 0) {
		/* <> around each: a value may hold blanks. */
		g_string_append(out, "\n ENV_VARS\n");
		for (size_t i = 0; i < e->n_env; i++)
			g_string_append_printf(out, " <%s>", e->env[i]);
		g_string_append_c(out, '\n');
	}
	if (e->max_preempt > 0)
		g_string_append_printf(out, "\n MAX_JOB_PREEMPT\n %u\n",
		    e->max_preempt);
}
