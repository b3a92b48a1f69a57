/*
 * lsb.applications: application profiles, one `Begin Application` section
 * each, chosen at submission with `bsub -app name` or by
 * DEFAULT_APPLICATION in lsb.params.
 *
 * A profile carries values that override the job's queue: MAX_JOB_PREEMPT
 * (application > queue > lsb.params, bs_config_max_job_preempt below),
 * the resource limits, RES_REQ, the pre/post-exec and starter commands,
 * the job controls, requeue, rerun and success exit values, NICE and
 * ENV_VARS.  So unlike a queue, whose unset keys take LSF's defaults, an
 * unset profile key must stay distinguishable from every value: the types
 * are those of BsQueueConf where the queue type has a "not set" state, and
 * BsOptInt where it has not (NICE, RERUNNABLE).
 *
 * Keys shared with lsb.queues are parsed by the same table types and
 * custom parsers (conf_schema.c, conf_queue_values.c), so a value means
 * the same thing in both files.  Only JOB_SIZE_LIST, ENV_VARS and the
 * "set or not" wrappers are parsed here.  NAME follows the QUEUE_NAME
 * rules.  CHKPNT_DIR, CHKPNT_PERIOD and JOB_SIZE_LIST are read and kept
 * but not acted on (lsb.applications(5) says so).
 *
 * Diagnostics: the lexer's (duplicate key, missing End); bad values;
 * a section without NAME at its Begin line; a duplicate NAME at the second
 * NAME line naming the first; unknown keys and sections are warnings.
 * DEFAULT_APPLICATION is checked in conf_check.c once both files are read.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

#define A(f) offsetof(BsAppConf, f)
#define IMAX 2147483647.0

/* ---- value parsers only lsb.applications has ------------------------------ */

/* An int in the key's range that overrides the queue's only when given. */
static gboolean
parse_opt_int(const BsConfKey *k, const char *value, void *field, GString *why)
{
	BsOptInt *o = field;
	int v;

	if (!bs_conf_parse_int(value, k->min, k->max, &v, why))
		return FALSE;
	o->value = v;
	o->set = TRUE;
	return TRUE;
}

static gboolean
parse_opt_bool(const BsConfKey *k, const char *value, void *field, GString *why)
{
	BsOptInt *o = field;
	gboolean b;

	if (!bs_conf_parse_bool(value, &b, why))
		return FALSE;
	o->value = b;
	o->set = TRUE;
	return TRUE;
}

/* JOB_SIZE_LIST = default_size [size ...]: slot counts, the first is the
 * default and is itself allowed, so it may be repeated once among the sizes
 * (`4 2 4 8`); no other size twice. */
static gboolean
parse_job_size_list(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(value);
	g_autoptr(GArray) sizes = g_array_new(FALSE, FALSE, sizeof(int));

	for (guint i = 0; w[i] != NULL; i++) {
		int n;

		if (!bs_conf_parse_int(w[i], 1, IMAX - 1, &n, why)) {
			g_string_prepend(why, "job size: ");
			return FALSE;
		}
		for (guint j = 1; j < sizes->len; j++)
			if (g_array_index(sizes, int, j) == n) {
				g_string_append_printf(why, "size %d given twice", n);
				return FALSE;
			}
		g_array_append_val(sizes, n);
	}
	if (sizes->len == 0) {
		g_string_append(why, "expected default_size [size ...]");
		return FALSE;
	}
	bs_conf_int_array_clear(field);
	*(GArray **)field = g_steal_pointer(&sizes);
	return TRUE;
}

/* Length of `NAME=` at p (a shell variable name and `=`), or 0. */
static gsize
env_name_len(const char *p)
{
	gsize n = 0;

	if (!g_ascii_isalpha(p[0]) && p[0] != '_')
		return 0;
	while (g_ascii_isalnum(p[n]) || p[n] == '_')
		n++;
	return p[n] == '=' ? n + 1 : 0;
}

/* One `NAME=value` or `NAME='value'` item: the single quotes go. */
static char *
env_item(const char *s, gsize len, GString *why)
{
	g_autofree char *item = g_strndup(s, len);
	gsize n = env_name_len(item), vlen;
	char *v;

	if (n == 0) {
		g_string_append_printf(why, "'%s' is not NAME=value", item);
		return NULL;
	}
	v = item + n;
	vlen = strlen(v);
	if (vlen >= 2 && v[0] == '\'' && v[vlen - 1] == '\'') {
		v[vlen - 1] = '\0';
		memmove(v, v + 1, vlen - 1);
	}
	return g_steal_pointer(&item);
}

/* Split one word at the commas that start a new `NAME=` item outside
 * single quotes (LSF writes "A='x',B='y'"; a comma inside a value such as
 * PATH=/a,/b stays). */
static gboolean
env_split(const char *word, GPtrArray *out, GString *why)
{
	const char *start = word;
	gboolean quoted = FALSE;

	for (const char *p = word;; p++) {
		if (*p == '\'')
			quoted = !quoted;
		if (*p == '\0' || (!quoted && *p == ',' && env_name_len(p + 1) > 0)) {
			char *item = env_item(start, (gsize)(p - start), why);

			if (item == NULL)
				return FALSE;
			g_ptr_array_add(out, item);
			if (*p == '\0')
				return TRUE;
			start = p + 1;
		}
	}
}

/* ENV_VARS = "NAME=value" ... or LSF's "NAME='value',NAME2='value2'":
 * blank-separated words, each in optional double quotes. */
static gboolean
parse_env_vars(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_autoptr(GPtrArray) vars = g_ptr_array_new_with_free_func(g_free);
	const char *p = value;

	for (;;) {
		g_autofree char *word = NULL;
		const char *end;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '\0')
			break;
		if (*p == '"') {
			if ((end = strchr(p + 1, '"')) == NULL) {
				g_string_append(why, "unbalanced \"");
				return FALSE;
			}
			word = g_strndup(p + 1, (gsize)(end - p - 1));
			p = end + 1;
		} else {
			for (end = p; *end != '\0' && !g_ascii_isspace(*end); end++)
				;
			word = g_strndup(p, (gsize)(end - p));
			p = end;
		}
		if (!env_split(word, vars, why))
			return FALSE;
	}
	if (vars->len == 0) {
		g_string_append(why, "expected \"NAME=value\" ...");
		return FALSE;
	}
	g_ptr_array_add(vars, NULL);
	g_strfreev(*(char ***)field);
	*(char ***)field = (char **)g_ptr_array_free(g_steal_pointer(&vars), FALSE);
	return TRUE;
}

static void
strv_clear(void *field)
{
	g_clear_pointer((char ***)field, g_strfreev);
}

/* ---- the table ------------------------------------------------------------- */

#define CUSTOM(name, field, fn, freefn) \
	{ name, BS_CT_CUSTOM, .offset = A(field), .parse = fn, .free_fn = freefn }
#define ALIAS(name, field, fn) \
	{ name, BS_CT_CUSTOM, .offset = A(field), .parse = fn, .alias = TRUE }

static const BsConfKey app_table[] = {
	CUSTOM("NAME", name, bs_conf_parse_queue_name, bs_conf_string_clear),
	{ "DESCRIPTION", BS_CT_STRING, .offset = A(description), 0, 512 },
	{ "MAX_JOB_PREEMPT", BS_CT_INT, .offset = A(max_job_preempt), 1, IMAX, .def = "-1" },
	{ "MAX_PREEXEC_RETRY", BS_CT_INT, .offset = A(max_preexec_retry), 1, IMAX, .def = "-1" },
	{ "LOCAL_MAX_PREEXEC_RETRY", BS_CT_INT, .offset = A(local_max_preexec_retry), 1, IMAX,
	    .def = "-1" },
	CUSTOM("LOCAL_MAX_PREEXEC_RETRY_ACTION", local_max_preexec_retry_action,
	    bs_conf_parse_preexec_action, NULL),
	{ "JOB_PREPROC_TIMEOUT", BS_CT_INT, .offset = A(job_preproc_timeout), 1, IMAX / 60,
	    .def = "-1" },
	{ "JOB_POSTPROC_TIMEOUT", BS_CT_INT, .offset = A(job_postproc_timeout), 1, IMAX / 60,
	    .def = "-1" },
	{ "RUNLIMIT", BS_CT_TIME_LIMIT, .offset = A(runlimit) },
	{ "RUNTIME", BS_CT_TIME_LIMIT, .offset = A(runtime) },
	{ "CPULIMIT", BS_CT_TIME_LIMIT, .offset = A(cpulimit) },
	{ "MEMLIMIT", BS_CT_SIZE_LIMIT, .offset = A(memlimit) },
	{ "CORELIMIT", BS_CT_SIZE_LIMIT, .offset = A(corelimit) },
	{ "DATALIMIT", BS_CT_SIZE_LIMIT, .offset = A(datalimit) },
	{ "FILELIMIT", BS_CT_SIZE_LIMIT, .offset = A(filelimit) },
	{ "STACKLIMIT", BS_CT_SIZE_LIMIT, .offset = A(stacklimit) },
	{ "SWAPLIMIT", BS_CT_SIZE_LIMIT, .offset = A(swaplimit) },
	{ "PROCESSLIMIT", BS_CT_INT, .offset = A(processlimit), 1, IMAX, .def = "-1" },
	{ "THREADLIMIT", BS_CT_INT, .offset = A(threadlimit), 1, IMAX, .def = "-1" },
	CUSTOM("TASKLIMIT", proclimit, bs_conf_parse_proclimit, NULL),
	ALIAS("PROCLIMIT", proclimit, bs_conf_parse_proclimit),
	{ "RES_REQ", BS_CT_STRING, .offset = A(res_req), 0, 4095 },
	{ "JOB_STARTER", BS_CT_STRING, .offset = A(job_starter), 0, 4095 },
	{ "JOB_WARNING_ACTION", BS_CT_CUSTOM, .offset = A(job_warning_action),
	    .parse = bs_conf_parse_warning_action, .free_fn = bs_conf_free_string },
	{ "JOB_ACTION_WARNING_TIME", BS_CT_CUSTOM, .offset = A(job_action_warning_time),
	    .parse = bs_conf_parse_warning_time },
	{ "PRE_EXEC", BS_CT_STRING, .offset = A(pre_exec), 0, 4095 },
	{ "POST_EXEC", BS_CT_STRING, .offset = A(post_exec), 0, 4095 },
	CUSTOM("REQUEUE_EXIT_VALUES", requeue_exit_values, bs_conf_parse_requeue,
	    bs_conf_requeue_clear),
	{ "RERUNNABLE", BS_CT_CUSTOM, .offset = A(rerunnable), .parse = parse_opt_bool },
	CUSTOM("SUCCESS_EXIT_VALUES", success_exit_values, bs_conf_parse_exit_codes,
	    bs_conf_int_array_clear),
	{ "NICE", BS_CT_CUSTOM, .offset = A(nice), -20, 19, .parse = parse_opt_int },
	CUSTOM("JOB_CONTROLS", job_controls, bs_conf_parse_job_controls,
	    bs_conf_job_controls_clear),
	ALIAS("SUSPEND_CONTROL", job_controls, bs_conf_parse_control_alias),
	ALIAS("RESUME_CONTROL", job_controls, bs_conf_parse_control_alias),
	ALIAS("TERMINATE_CONTROL", job_controls, bs_conf_parse_control_alias),
	{ "CHKPNT_DIR", BS_CT_STRING, .offset = A(chkpnt_dir), 0, 4095 },
	{ "CHKPNT_PERIOD", BS_CT_INT, .offset = A(chkpnt_period), 1, IMAX, .def = "-1" },
	CUSTOM("JOB_SIZE_LIST", job_size_list, parse_job_size_list, bs_conf_int_array_clear),
	CUSTOM("ENV_VARS", env_vars, parse_env_vars, strv_clear),
	{ NULL },
};

/* ---- loading ---------------------------------------------------------------- */

static BsAppConf *
app_new(void)
{
	BsAppConf *a = g_new0(BsAppConf, 1);

	bs_conf_schema_init(app_table, a);
	a->proclimit.min = a->proclimit.def = a->proclimit.max = BS_CONF_UNLIMITED;
	return a;
}

void
bs_conf_app_free(BsAppConf *a)
{
	if (a == NULL)
		return;
	bs_conf_schema_clear(app_table, a);
	g_clear_pointer(&a->key_lines, g_hash_table_unref);
	g_free(a);
}

static BsAppConf *
app_from_section(const BsConfCtx *ctx, const BsLexSection *s)
{
	BsAppConf *a = app_new();

	a->line = s->line;
	for (guint i = 0; i < s->pairs->len; i++) {
		const BsLexPair *pr = s->pairs->pdata[i];

		bs_conf_record_line(&a->key_lines, pr->key, pr->line);
		if (!bs_conf_set_pair(ctx, app_table, a, pr->key, pr->value, pr->line))
			ctx_warning(ctx, pr->line, "unknown parameter %s, ignoring", pr->key);
	}
	return a;
}

static int
app_line(const BsAppConf *a, const char *key)
{
	int l = bs_conf_key_line(a->key_lines, key);

	return l > 0 ? l : a->line;
}

static void
add_app(BsConfig *cfg, const BsConfCtx *ctx, BsAppConf *a)
{
	const BsAppConf *first;

	if (a->name == NULL) {
		/* A NAME with a bad value has been reported already. */
		if (bs_conf_key_line(a->key_lines, "NAME") == 0)
			ctx_error(ctx, a->line, "Application section without NAME");
		bs_conf_app_free(a);
		return;
	}
	first = g_hash_table_lookup(cfg->app_by_name, a->name);
	if (first != NULL) {
		ctx_error(ctx, app_line(a, "NAME"),
		    "duplicate application profile %s (first defined at line %d)", a->name,
		    app_line(first, "NAME"));
		bs_conf_app_free(a);
		return;
	}
	if (a->chkpnt_period != BS_CONF_UNLIMITED && a->chkpnt_dir == NULL)
		ctx_warning(ctx, app_line(a, "CHKPNT_PERIOD"),
		    "application profile %s: CHKPNT_PERIOD without CHKPNT_DIR, ignoring", a->name);
	g_ptr_array_add(cfg->apps, a);
	g_hash_table_insert(cfg->app_by_name, a->name, a);
}

void
bs_conf_apps_load(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	for (guint i = 0; f != NULL && i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		if (g_ascii_strcasecmp(s->name, "Application") != 0 || s->table) {
			bs_conf_unknown_section(ctx, s);
			continue;
		}
		add_app(cfg, ctx, app_from_section(ctx, s));
	}
}

/* ---- lookups ----------------------------------------------------------------- */

const BsAppConf *
bs_config_app(const BsConfig *cfg, const char *name)
{
	return name != NULL ? g_hash_table_lookup(cfg->app_by_name, name) : NULL;
}

const BsAppConf *
bs_config_default_app(const BsConfig *cfg)
{
	return bs_config_app(cfg, cfg->params->default_application);
}

int
bs_config_max_job_preempt(const BsConfig *cfg, const BsQueueConf *q, const BsAppConf *app)
{
	if (app != NULL && app->max_job_preempt != BS_CONF_UNLIMITED)
		return app->max_job_preempt;
	if (q != NULL && q->max_job_preempt != BS_CONF_UNLIMITED)
		return q->max_job_preempt;
	return cfg->params->max_job_preempt;
}

int
bs_config_local_preexec_retry(const BsConfig *cfg, const BsAppConf *app)
{
	if (app != NULL && app->local_max_preexec_retry != BS_CONF_UNLIMITED)
		return app->local_max_preexec_retry;
	return cfg->params->local_max_preexec_retry;
}

BsPreexecAction
bs_config_preexec_action(const BsConfig *cfg, const BsQueueConf *q,
    const BsAppConf *app)
{
	if (app != NULL && app->local_max_preexec_retry_action != BS_PREEXEC_ACTION_UNSET)
		return app->local_max_preexec_retry_action;
	if (q != NULL && q->local_max_preexec_retry_action != BS_PREEXEC_ACTION_UNSET)
		return q->local_max_preexec_retry_action;
	if (cfg->params->local_max_preexec_retry_action != BS_PREEXEC_ACTION_UNSET)
		return cfg->params->local_max_preexec_retry_action;
	return BS_PREEXEC_ACTION_SUSPEND;
}

int
bs_config_prepost_timeout(const BsConfig *cfg, const BsAppConf *app, gboolean post)
{
	int a = app == NULL ? BS_CONF_UNLIMITED :
	    post ? app->job_postproc_timeout : app->job_preproc_timeout;

	if (a != BS_CONF_UNLIMITED)
		return a;
	return post ? cfg->params->job_postproc_timeout : cfg->params->job_preproc_timeout;
}
