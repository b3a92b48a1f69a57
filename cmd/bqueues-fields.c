/*
 * bqueues -o and -json: LSF 10.1's bqueues field list with its default
 * widths, over a QueueInfo asked for with detail (its KEY = value
 * parameters carry the limits, USERS, HOSTS and RES_REQ).  A field
 * Basalt's queues do not have, or that the queue does not set, has no
 * value: "-" in custom output, "" in JSON.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bqueues-format.h"
#include "cmd-fields.h"

/* The text after "KEY = " in the queue's parameters, or NULL. */
static const char *
param(const Basalt__QueueInfo *q, const char *key)
{
	gsize n = strlen(key);

	for (size_t i = 0; i < q->n_params; i++) {
		const char *kv = q->params[i];

		if (strncmp(kv, key, n) != 0)
			continue;
		kv += n + strspn(kv + n, " ");
		if (*kv == '=')
			return kv + 1 + strspn(kv + 1, " ");
	}
	return NULL;
}

/*
 * RUNLIMIT/CPULIMIT as mbatchd reports them: "max min" or, with a
 * default, "def min max min".  want_default picks the first of two.
 */
static gboolean
limit(GString *v, const Basalt__QueueInfo *q, const char *key,
      gboolean want_default)
{
	const char *s = param(q, key);
	g_auto(GStrv) w = NULL;
	guint n;

	if (s == NULL)
		return FALSE;
	w = g_strsplit_set(s, " ", -1);
	n = g_strv_length(w);
	if (n >= 4)
		g_string_append_printf(v, "%s %s", w[want_default ? 0 : 2],
				       w[want_default ? 1 : 3]);
	else if (!want_default)
		g_string_append(v, s);
	else
		return FALSE;
	return TRUE;
}

#define Q(rec) ((const Basalt__QueueInfo *)(rec))

static gboolean
f_name(GString *v, const void *r) { return cmd_field_str(v, Q(r)->name); }
static gboolean
f_desc(GString *v, const void *r) { return cmd_field_str(v, Q(r)->description); }
static gboolean
f_prio(GString *v, const void *r)
{
	g_string_append_printf(v, "%d", Q(r)->priority);
	return TRUE;
}
static gboolean
f_status(GString *v, const void *r)
{
	g_string_append_printf(v, "%s:%s", Q(r)->open ? "Open" : "Closed",
			       Q(r)->active ? "Active" : "Inactive");
	return TRUE;
}
static gboolean
f_max(GString *v, const void *r) { return cmd_field_limit(v, Q(r)->qjob_limit); }
static gboolean
f_jlu(GString *v, const void *r) { return cmd_field_limit(v, Q(r)->ujob_limit); }
static gboolean
f_jlh(GString *v, const void *r) { return cmd_field_limit(v, Q(r)->hjob_limit); }
static gboolean
f_jlp(GString *v, const void *r)
{
	if (Q(r)->pjob_limit < 0)
		return FALSE;
	g_string_append_printf(v, "%g", Q(r)->pjob_limit);
	return TRUE;
}
static gboolean
f_njobs(GString *v, const void *r) { return cmd_field_int(v, Q(r)->njobs); }
static gboolean
f_pend(GString *v, const void *r) { return cmd_field_int(v, Q(r)->pend); }
static gboolean
f_run(GString *v, const void *r) { return cmd_field_int(v, Q(r)->run); }
static gboolean
f_susp(GString *v, const void *r) { return cmd_field_int(v, Q(r)->susp); }
static gboolean
f_ususp(GString *v, const void *r) { return cmd_field_int(v, Q(r)->ususp); }
static gboolean
f_ssusp(GString *v, const void *r) { return cmd_field_int(v, Q(r)->ssusp); }
/* mbatchd keeps no per-queue reservation count: reserved slots are 0. */
static gboolean
f_rsv(GString *v, const void *r) { (void)r; return cmd_field_int(v, 0); }
static gboolean
f_nice(GString *v, const void *r)
{
	const char *s = param(Q(r), "NICE");

	g_string_append_printf(v, "%d", s != NULL ? atoi(s) : 0);
	return TRUE;
}
static gboolean
f_max_cpu(GString *v, const void *r) { return limit(v, Q(r), "CPULIMIT", FALSE); }
static gboolean
f_def_cpu(GString *v, const void *r) { return limit(v, Q(r), "CPULIMIT", TRUE); }
static gboolean
f_max_run(GString *v, const void *r) { return limit(v, Q(r), "RUNLIMIT", FALSE); }
static gboolean
f_def_run(GString *v, const void *r) { return limit(v, Q(r), "RUNLIMIT", TRUE); }
static gboolean
f_res_req(GString *v, const void *r) { return cmd_field_str(v, param(Q(r), "RES_REQ")); }
static gboolean
f_hosts(GString *v, const void *r) { return cmd_field_str(v, param(Q(r), "HOSTS")); }
/* Limits mbatchd does not report per queue. */
static gboolean
f_none(GString *v, const void *r) { (void)v; (void)r; return FALSE; }

static const CmdFieldDef table[] = {
	{ "queue_name qname", "QUEUE_NAME", 15, f_name },
	{ "description desc", "DESCRIPTION", 50, f_desc },
	{ "priority prio", "PRIORITY", 10, f_prio },
	{ "status stat", "STATUS", 12, f_status },
	{ "max", "MAX", 10, f_max },
	{ "jl_u jlu", "JL_U", 10, f_jlu },
	{ "jl_p jlp", "JL_P", 10, f_jlp },
	{ "jl_h jlh", "JL_H", 10, f_jlh },
	{ "njobs", "NJOBS", 10, f_njobs },
	{ "pend", "PEND", 10, f_pend },
	{ "run", "RUN", 10, f_run },
	{ "susp", "SUSP", 10, f_susp },
	{ "rsv", "RSV", 10, f_rsv },
	{ "ususp", "USUSP", 10, f_ususp },
	{ "ssusp", "SSUSP", 10, f_ssusp },
	{ "nice", "NICE", 6, f_nice },
	{ "max_corelimit corelimit", "MAX_CORELIMIT", 8, f_none },
	{ "max_cpulimit cpulimit", "MAX_CPULIMIT", 30, f_max_cpu },
	{ "default_cpulimit def_cpulimit", "DEFAULT_CPULIMIT", 30, f_def_cpu },
	{ "max_datalimit datalimit", "MAX_DATALIMIT", 8, f_none },
	{ "default_datalimit def_datalimit", "DEFAULT_DATALIMIT", 8, f_none },
	{ "max_filelimit filelimit", "MAX_FILELIMIT", 8, f_none },
	{ "max_memlimit memlimit", "MAX_MEMLIMIT", 8, f_none },
	{ "default_memlimit def_memlimit", "DEFAULT_MEMLIMIT", 8, f_none },
	{ "max_processlimit processlimit", "MAX_PROCESSLIMIT", 8, f_none },
	{ "default_processlimit def_processlimit", "DEFAULT_PROCESSLIMIT", 8,
	  f_none },
	{ "max_runlimit runlimit", "MAX_RUNLIMIT", 12, f_max_run },
	{ "default_runlimit def_runlimit", "DEFAULT_RUNLIMIT", 12, f_def_run },
	{ "max_stacklimit stacklimit", "MAX_STACKLIMIT", 8, f_none },
	{ "max_swaplimit swaplimit", "MAX_SWAPLIMIT", 8, f_none },
	{ "max_tasklimit tasklimit", "MAX_TASKLIMIT", 6, f_none },
	{ "min_tasklimit", "MIN_TASKLIMIT", 6, f_none },
	{ "default_tasklimit def_tasklimit", "DEFAULT_TASKLIMIT", 6, f_none },
	{ "max_threadlimit threadlimit", "MAX_THREADLIMIT", 6, f_none },
	{ "default_threadlimit def_threadlimit", "DEFAULT_THREADLIMIT", 6,
	  f_none },
	{ "res_req", "RES_REQ", 20, f_res_req },
	{ "hosts", "HOSTS", 50, f_hosts },
};

/* -json without -o: the default listing's columns. */
static const char default_fields[] =
	"queue_name priority status max jl_u jl_p jl_h njobs pend run susp";

/* What "all" stands for. */
static const char all_fields[] =
	"queue_name description priority status max jl_u jl_p jl_h njobs "
	"pend run susp rsv ususp ssusp nice max_corelimit max_cpulimit "
	"default_cpulimit max_datalimit default_datalimit max_filelimit "
	"max_memlimit default_memlimit max_processlimit default_processlimit "
	"max_runlimit default_runlimit max_stacklimit max_swaplimit "
	"max_tasklimit min_tasklimit default_tasklimit max_threadlimit "
	"default_threadlimit res_req hosts";

static gboolean
find(const char *name, CmdFieldRef *ref)
{
	return cmd_field_def_ref(table, G_N_ELEMENTS(table), name, ref);
}

CmdFields *
bqueues_fields_parse(const char *spec, GError **error)
{
	return cmd_fields_parse("bqueues", spec != NULL ? spec : default_fields,
				find, all_fields, error);
}

void
bqueues_format_custom(GString *out, const CmdFields *f,
		      const Basalt__QueueList *l, gboolean noheader)
{
	cmd_fields_print(out, f, noheader, (const void *const *)l->queues,
			 l->n_queues);
}

void
bqueues_format_json(GString *out, const CmdFields *f,
		    const Basalt__QueueList *l)
{
	cmd_fields_json(out, f, "bqueues", "QUEUES",
			(const void *const *)l->queues, l->n_queues);
}
