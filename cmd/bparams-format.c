/*
 * bparams output (see bqueues-format.h).  The reply carries the
 * parameters lsb.params sets; the built-in defaults of the ones bparams
 * always shows live here so an unset parameter still prints its value.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bqueues-format.h"
#include "cmd-util.h"

typedef struct {
	const char *key;
	const char *dflt;      /* NULL: shown only when configured */
	const char *unit;      /* after the value in -l, or NULL */
	const char *what;      /* the -l explanation, ours */
} ParamDef;

static const ParamDef param_defs[] = {
	{ "DEFAULT_QUEUE", "default", NULL,
	  "Queues for jobs submitted without a queue:" },
	{ "DEFAULT_PROJECT", "default", NULL,
	  "Project of jobs submitted without a project:" },
	{ "MBD_SLEEP_TIME", "60", "(seconds)",
	  "Interval at which jobs are scheduled and dispatched:" },
	{ "SBD_SLEEP_TIME", "30", "(seconds)",
	  "Interval at which each host checks its jobs:" },
	{ "JOB_ACCEPT_INTERVAL", "1", "(* MBD_SLEEP_TIME)",
	  "Wait before a host that got a job is given another:" },
	{ "CLEAN_PERIOD", "3600", "(seconds)",
	  "Time finished jobs stay visible to bjobs:" },
	{ "MAX_JOB_NUM", "1000", NULL,
	  "Finished jobs logged before the event file is switched:" },
	{ "MAX_SBD_FAIL", "3", NULL,
	  "Failed contacts before a host is considered unreachable:" },
	{ "MAX_JOB_ARRAY_SIZE", "1000", NULL,
	  "Largest index of a job array:" },
	{ "MAX_JOBID", "999999", NULL,
	  "Highest job ID before job IDs start again from 1:" },
	{ "JOB_TERMINATE_INTERVAL", "10", "(seconds)",
	  "Time between the signals that terminate a job:" },
	{ "HIST_HOURS", "5", "(hours)",
	  "Decay time of past resource usage in fairshare:" },
	{ "MAX_JOB_PREEMPT", NULL, NULL,
	  "Times a job may be preempted:" },
	{ "PREEMPT_FOR", NULL, NULL,
	  "Preemption policy options:" },
	{ "DEFAULT_JOBGROUP", NULL, NULL,
	  "Job group of jobs submitted without one:" },
	{ "JOB_GROUP_CLEAN", NULL, NULL,
	  "Empty implicit job groups are deleted:" },
};

static const char *
lookup(const Basalt__ParamsReply *r, const char *key)
{
	for (size_t i = 0; i < r->n_params; i++)
		if (g_ascii_strcasecmp(r->params[i]->key, key) == 0)
			return r->params[i]->value;
	for (gsize i = 0; i < G_N_ELEMENTS(param_defs); i++)
		if (strcmp(param_defs[i].key, key) == 0)
			return param_defs[i].dflt;
	return NULL;
}

void
bparams_format_short(GString *out, const Basalt__ParamsReply *r)
{
	const char *mbd = lookup(r, "MBD_SLEEP_TIME");
	const char *accept = lookup(r, "JOB_ACCEPT_INTERVAL");

	g_string_append_printf(out, "Default Queues:  %s\n",
			       lookup(r, "DEFAULT_QUEUE"));
	g_string_append_printf(out, "Job Dispatch Interval:  %s seconds\n", mbd);
	g_string_append_printf(out, "Job Checking Interval:  %s seconds\n",
			       lookup(r, "SBD_SLEEP_TIME"));
	/* JOB_ACCEPT_INTERVAL counts dispatch intervals. */
	g_string_append_printf(out, "Job Accepting Interval:  %ld seconds\n",
			       atol(accept) * atol(mbd));
}

void
bparams_format_long(GString *out, const Basalt__ParamsReply *r)
{
	gboolean first = TRUE;

	for (gsize i = 0; i < G_N_ELEMENTS(param_defs); i++) {
		const ParamDef *d = &param_defs[i];
		const char *v = lookup(r, d->key);

		if (v == NULL)
			continue;
		g_string_append_printf(out, "%s%s\n    %s = %s%s%s\n",
				       first ? "" : "\n", d->what, d->key, v,
				       d->unit ? " " : "", d->unit ? d->unit : "");
		first = FALSE;
	}
}

static gint
by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
bparams_format_all(GString *out, const Basalt__ParamsReply *r)
{
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);

	for (gsize i = 0; i < G_N_ELEMENTS(param_defs); i++)
		if (lookup(r, param_defs[i].key) != NULL)
			g_ptr_array_add(keys, g_strdup(param_defs[i].key));
	for (size_t i = 0; i < r->n_params; i++) {
		g_autofree char *k = g_ascii_strup(r->params[i]->key, -1);

		if (!g_ptr_array_find_with_equal_func(keys, k, g_str_equal, NULL))
			g_ptr_array_add(keys, g_steal_pointer(&k));
	}
	g_ptr_array_sort(keys, by_name);
	for (guint i = 0; i < keys->len; i++)
		g_string_append_printf(out, "    %s = %s\n",
				       (char *)keys->pdata[i],
				       lookup(r, keys->pdata[i]));
}
