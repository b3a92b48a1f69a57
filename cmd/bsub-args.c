/*
 * bsub option parsing (see bsub-args.h).
 *
 * Design: options are first collected as (definition, value) pairs, one
 * list per source (the command line, the #BSUB lines of a script), with the
 * checks that concern one source only (unknown options, -o with -oo).  The
 * lists are then applied to a fresh JobSpec in order script, command line,
 * so a later value simply replaces an earlier one and "the command line
 * overrides #BSUB" needs no special case.
 */
#include "config.h"

#include <string.h>

#include "bsub-args.h"
#include "job/jobgroup.h"
#include "bsub-limits.h"
#include "util/warning.h"
#include "cmd-util.h"
#include "util/error.h"
#include "util/escape.h"
#include "resreq/resreq.h"

typedef enum {
	O_QUEUE, O_NAME, O_OUT, O_ERR, O_OUT_OW, O_ERR_OW, O_IN, O_SLOTS,
	O_RESREQ, O_MEM, O_RUNLIMIT, O_CPULIMIT, O_CWD, O_HOLD, O_PROJECT,
	O_GROUP, O_JOBGROUP, O_HOSTS, O_DEPEND, O_RERUN, O_WAIT, O_ENV, O_MAIL, O_BEGIN,
	O_PREEXEC, O_APP, O_EXCL, O_PRIO, O_TERM, O_NOTIFY_B, O_NOTIFY_N,
	O_LOGIN, O_IA_PIPES, O_IA_PTY, O_IA_SHELL, O_TTY,
	O_POSTEXEC, O_EST_RUN,
	O_HOSTLIMIT,    /* -v -F -D -S -C -p -T: bsub-limits.c */
	O_OUTDIR,
	O_CONSUMER,     /* -consumer: an lsb.consumers leaf */
	O_WARN_ACTION,  /* -wa 'signal': LSF's job warning action */
	O_WARN_TIME,    /* -wt '[hour:]minute' */
	O_NNODES,       /* -nnodes: LSF with CSM (apply_nnodes) */
} OptId;

typedef struct {
	const char *name;
	gboolean has_arg;
	OptId id;
} OptDef;

static const OptDef opt_defs[] = {
	{ "-q", TRUE, O_QUEUE }, { "-J", TRUE, O_NAME },
	{ "-o", TRUE, O_OUT }, { "-e", TRUE, O_ERR },
	{ "-oo", TRUE, O_OUT_OW }, { "-eo", TRUE, O_ERR_OW },
	{ "-i", TRUE, O_IN }, { "-n", TRUE, O_SLOTS },
	{ "-R", TRUE, O_RESREQ }, { "-M", TRUE, O_MEM },
	{ "-W", TRUE, O_RUNLIMIT }, { "-c", TRUE, O_CPULIMIT },
	{ "-cwd", TRUE, O_CWD }, { "-H", FALSE, O_HOLD },
	{ "-P", TRUE, O_PROJECT }, { "-G", TRUE, O_GROUP },
	{ "-g", TRUE, O_JOBGROUP },
	{ "-m", TRUE, O_HOSTS }, { "-w", TRUE, O_DEPEND },
	{ "-r", FALSE, O_RERUN }, { "-K", FALSE, O_WAIT },
	{ "-env", TRUE, O_ENV }, { "-u", TRUE, O_MAIL },
	{ "-b", TRUE, O_BEGIN }, { "-E", TRUE, O_PREEXEC },
	{ "-app", TRUE, O_APP }, { "-x", FALSE, O_EXCL },
	{ "-sp", TRUE, O_PRIO }, { "-t", TRUE, O_TERM },
	{ "-B", FALSE, O_NOTIFY_B }, { "-N", FALSE, O_NOTIFY_N },
	{ "-L", TRUE, O_LOGIN }, { "-We", TRUE, O_EST_RUN },
	{ "-I", FALSE, O_IA_PIPES }, { "-Ip", FALSE, O_IA_PTY },
	{ "-Is", FALSE, O_IA_SHELL }, { "-tty", FALSE, O_TTY },
	{ "-Ep", TRUE, O_POSTEXEC },
	{ "-v", TRUE, O_HOSTLIMIT }, { "-F", TRUE, O_HOSTLIMIT },
	{ "-D", TRUE, O_HOSTLIMIT }, { "-S", TRUE, O_HOSTLIMIT },
	{ "-C", TRUE, O_HOSTLIMIT }, { "-p", TRUE, O_HOSTLIMIT },
	{ "-T", TRUE, O_HOSTLIMIT },
	{ "-outdir", TRUE, O_OUTDIR },
	{ "-consumer", TRUE, O_CONSUMER },
	{ "-wa", TRUE, O_WARN_ACTION }, { "-wt", TRUE, O_WARN_TIME },
	{ "-nnodes", TRUE, O_NNODES },
};

typedef struct {
	const OptDef *def;
	char *value;
} OptVal;

static void
optval_free(gpointer p)
{
	OptVal *ov = p;

	g_free(ov->value);
	g_free(ov);
}

static const OptDef *
find_def(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(opt_defs); i++)
		if (strcmp(opt_defs[i].name, name) == 0)
			return &opt_defs[i];
	return NULL;
}

static gboolean
fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean
fail(GError **error, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, BS_ERROR, BS_ERROR_FAILED, msg);
	return FALSE;
}

static gboolean
has_opt(GPtrArray *opts, OptId id)
{
	for (guint i = 0; i < opts->len; i++)
		if (((OptVal *)opts->pdata[i])->def->id == id)
			return TRUE;
	return FALSE;
}

/* Checks that concern one source of options on its own. */
static gboolean
check_source(GPtrArray *opts, GError **error)
{
	gboolean ia = has_opt(opts, O_IA_PIPES) || has_opt(opts, O_IA_PTY) ||
	    has_opt(opts, O_IA_SHELL);

	if (ia && has_opt(opts, O_WAIT))
		return fail(error, "bsub: -K cannot be used with -I, -Ip or -Is. "
			    "Job not submitted.");
	if (has_opt(opts, O_TTY) && !ia)
		return fail(error, "bsub: -tty can only be used with -I, -Ip or "
			    "-Is. Job not submitted.");
	if (has_opt(opts, O_OUT) && has_opt(opts, O_OUT_OW))
		return fail(error, "bsub: -o and -oo cannot be used together");
	if (has_opt(opts, O_ERR) && has_opt(opts, O_ERR_OW))
		return fail(error, "bsub: -e and -eo cannot be used together");
	return TRUE;
}

/*
 * Collects options from args[0..n) into opts; *first_operand gets the
 * index of the first argument that is not an option (n when none).
 */
static gboolean
collect(char **args, int n, GPtrArray *opts, int *first_operand,
	GError **error)
{
	int i;

	for (i = 0; i < n; i++) {
		const OptDef *def;
		OptVal *ov;

		if (strcmp(args[i], "--") == 0) {
			i++;
			break;
		}
		if (args[i][0] != '-' || args[i][1] == '\0')
			break;
		def = find_def(args[i]);
		if (def == NULL)
			return fail(error, "bsub: illegal option -- %s\nUsage: %s",
				    args[i] + 1, BSUB_USAGE);
		if (def->has_arg && i + 1 >= n)
			return fail(error, "bsub: option requires an argument -- %s\n"
				    "Usage: %s", args[i] + 1, BSUB_USAGE);
		ov = g_new0(OptVal, 1);
		ov->def = def;
		ov->value = g_strdup(def->has_arg ? args[++i] : "");
		g_ptr_array_add(opts, ov);
	}
	*first_operand = i;
	return check_source(opts, error);
}

gboolean
bsub_parse_minutes(const char *s, guint64 *secs)
{
	g_auto(GStrv) parts = g_strsplit(s, ":", -1);
	guint n = g_strv_length(parts);
	guint64 h = 0, m;

	if (n < 1 || n > 2)
		return FALSE;
	if (n == 2 && !cmd_parse_uint(parts[0], &h))
		return FALSE;
	if (!cmd_parse_uint(parts[n - 1], &m))
		return FALSE;
	if (h > G_MAXUINT32 || m > G_MAXUINT32 || h * 60 + m == 0)
		return FALSE;
	*secs = (h * 60 + m) * 60;
	return TRUE;
}

/* "[hh:]mm[/host]" for -W and -c. */
static gboolean
parse_limit(const char *s, guint64 *secs, char **host)
{
	const char *slash = strchr(s, '/');
	g_autofree char *time = slash ? g_strndup(s, (gsize)(slash - s))
				      : g_strdup(s);

	if (slash != NULL && slash[1] == '\0')
		return FALSE;
	if (!bsub_parse_minutes(time, secs))
		return FALSE;
	g_free(*host);
	*host = slash != NULL ? g_strdup(slash + 1) : NULL;
	return TRUE;
}

static gboolean
time_fields(const char *s, guint64 f[4], guint *n)
{
	g_auto(GStrv) parts = g_strsplit(s, ":", -1);

	*n = g_strv_length(parts);
	if (*n < 2 || *n > 4)
		return FALSE;
	for (guint i = 0; i < *n; i++)
		if (!cmd_parse_uint(parts[i], &f[i]) || f[i] > 9999)
			return FALSE;
	return TRUE;
}

gboolean
bsub_parse_time(const char *s, gint64 now, gint64 *out)
{
	guint64 f[4];
	guint n;
	time_t tnow = (time_t)now, t;
	struct tm tm;

	if (!time_fields(s, f, &n) || localtime_r(&tnow, &tm) == NULL)
		return FALSE;
	/* Fields are read from the right: minute, hour, day, month. */
	if (f[n - 1] > 59 || f[n - 2] > 23 ||
	    (n >= 3 && (f[n - 3] < 1 || f[n - 3] > 31)) ||
	    (n == 4 && (f[0] < 1 || f[0] > 12)))
		return FALSE;
	tm.tm_min = (int)f[n - 1];
	tm.tm_hour = (int)f[n - 2];
	tm.tm_sec = 0;
	if (n >= 3)
		tm.tm_mday = (int)f[n - 3];
	if (n == 4)
		tm.tm_mon = (int)f[0] - 1;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	/* A moment already past means its next occurrence, as in LSF. */
	if (t < tnow) {
		if (n == 2)
			tm.tm_mday++;
		else if (n == 3)
			tm.tm_mon++;
		else
			tm.tm_year++;
		tm.tm_isdst = -1;
		t = mktime(&tm);
	}
	if (t == (time_t)-1)
		return FALSE;
	*out = (gint64)t;
	return TRUE;
}

/* One "start[-end[:step]]" element of an array spec. */
static gboolean
check_range(const char *r)
{
	g_auto(GStrv) se = g_strsplit(r, "-", 2);
	guint64 start, end, step = 1;
	g_auto(GStrv) es = NULL;

	if (!cmd_parse_uint(se[0], &start) || start == 0)
		return FALSE;
	if (se[1] == NULL)
		return TRUE;
	es = g_strsplit(se[1], ":", 2);
	if (!cmd_parse_uint(es[0], &end) || end < start)
		return FALSE;
	return es[1] == NULL || (cmd_parse_uint(es[1], &step) && step > 0);
}

gboolean
bsub_check_job_name(const char *name)
{
	const char *open = strchr(name, '['), *close;
	g_autofree char *inner = NULL;
	g_auto(GStrv) ranges = NULL;
	guint64 limit;

	if (name[0] == '\0')
		return FALSE;
	if (open == NULL)
		return strchr(name, ']') == NULL;
	close = strchr(open, ']');
	if (close == NULL || strchr(open + 1, '[') != NULL ||
	    strchr(close + 1, ']') != NULL)
		return FALSE;
	if (close[1] != '\0' && (close[1] != '%' ||
				 !cmd_parse_uint(close + 2, &limit) || limit == 0))
		return FALSE;
	inner = g_strndup(open + 1, (gsize)(close - open - 1));
	ranges = g_strsplit(inner, ",", -1);
	if (ranges[0] == NULL)
		return FALSE;
	for (char **r = ranges; *r != NULL; r++)
		if (!check_range(*r))
			return FALSE;
	return TRUE;
}

static gboolean
parse_slots(Basalt__JobSpec *spec, const char *v)
{
	g_auto(GStrv) mm = g_strsplit(v, ",", -1);
	guint64 min, max;

	if (g_strv_length(mm) > 2 || !cmd_parse_uint(mm[0], &min))
		return FALSE;
	max = min;
	if (mm[1] != NULL && !cmd_parse_uint(mm[1], &max))
		return FALSE;
	if (min == 0 || max < min || max > G_MAXUINT32)
		return FALSE;
	spec->min_slots = (uint32_t)min;
	spec->max_slots = (uint32_t)max;
	return TRUE;
}

/*
 * The job's environment as it is built: the entries in order, and an
 * index of those that have a "KEY=", by KEY, so that -env "all" over a
 * login environment of hundreds of variables costs one lookup per
 * variable rather than a scan of all before it.  The index's keys are the
 * entries themselves, compared up to their '='.
 */
typedef struct {
	GPtrArray *list;
	GHashTable *by_key;        /* entry -> position + 1 */
} EnvBuild;

static gsize
env_key_len(const char *e)
{
	const char *eq = strchr(e, '=');

	return eq != NULL ? (gsize)(eq - e) : strlen(e);
}

static guint
env_key_hash(gconstpointer p)
{
	const char *e = p;
	guint h = 5381;

	for (; *e != '\0' && *e != '='; e++)
		h = h * 33 + (guchar)*e;
	return h;
}

static gboolean
env_key_equal(gconstpointer a, gconstpointer b)
{
	gsize n = env_key_len(a);

	return n == env_key_len(b) && strncmp(a, b, n) == 0;
}

/* Sets one entry "KEY=value", replacing an existing "KEY=...". */
static void
env_set(EnvBuild *env, const char *entry)
{
	gpointer old, pos;
	char *copy = g_strdup(entry);
	guint i;

	if (g_hash_table_lookup_extended(env->by_key, entry, &old, &pos)) {
		i = GPOINTER_TO_UINT(pos) - 1;
		g_hash_table_remove(env->by_key, old);
		g_free(env->list->pdata[i]);
		env->list->pdata[i] = copy;
	} else {
		i = env->list->len;
		g_ptr_array_add(env->list, copy);
	}
	/* An entry without '=' is kept but never replaced. */
	if (strchr(copy, '=') != NULL)
		g_hash_table_insert(env->by_key, copy, GUINT_TO_POINTER(i + 1));
}

/* A bare name in -env takes its value from the submission environment. */
static void
env_add_named(EnvBuild *env, const char *name, char **envp)
{
	const char *val = g_environ_getenv(envp, name);

	if (val != NULL) {
		g_autofree char *e = g_strdup_printf("%s=%s", name, val);
		env_set(env, e);
	}
}

/*
 * -env "all" | "none" | "all, A=1, B" | "A, B=2": builds the job's
 * environment from the submission one.
 */
static gboolean
build_env(const char *spec, char **envp, EnvBuild *env, gboolean *none)
{
	g_auto(GStrv) items = g_strsplit(spec, ",", -1);
	gboolean first = TRUE;

	*none = FALSE;
	for (char **it = items; *it != NULL; it++) {
		char *item = g_strstrip(*it);

		if (*item == '\0')
			return FALSE;
		if (first && g_ascii_strcasecmp(item, "none") == 0) {
			*none = TRUE;
			return it[1] == NULL;
		}
		if (first && g_ascii_strcasecmp(item, "all") == 0) {
			for (char **e = envp; e != NULL && *e != NULL; e++)
				env_set(env, *e);
		} else if (strchr(item, '=') != NULL) {
			env_set(env, item);
		} else {
			env_add_named(env, item, envp);
		}
		first = FALSE;
	}
	return !first;
}

static void
set_words(size_t *n, char ***arr, const char *value)
{
	for (size_t i = 0; i < *n; i++)
		g_free((*arr)[i]);
	g_free(*arr);
	*arr = cmd_split_words(value);
	*n = g_strv_length(*arr);
}

static void
set_env(Basalt__JobSpec *spec, GPtrArray *env)
{
	for (size_t i = 0; i < spec->n_env; i++)
		g_free(spec->env[i]);
	g_free(spec->env);
	spec->n_env = env->len;
	spec->env = (char **)g_ptr_array_free(env, FALSE);
}

/* Options that only fill a string field. */
static char **
string_field(Basalt__JobSpec *s, OptId id)
{
	switch (id) {
	case O_NAME: return &s->job_name;
	case O_IN: return &s->stdin_path;
	case O_CWD: return &s->cwd;
	case O_PROJECT: return &s->project;
	case O_GROUP: return &s->user_group;
	case O_JOBGROUP: return &s->job_group;
	case O_DEPEND: return &s->dependency;
	case O_MAIL: return &s->mail_user;
	case O_PREEXEC: return &s->pre_exec;
	case O_POSTEXEC: return &s->post_exec;
	case O_APP: return &s->app_profile;
	case O_OUTDIR: return &s->outdir;
	case O_CONSUMER: return &s->consumer;
	default: return NULL;
	}
}

static gboolean
apply_flag(BsubArgs *a, Basalt__JobSpec *s, OptId id)
{
	switch (id) {
	case O_HOLD: s->hold = TRUE; return TRUE;
	case O_RERUN: s->rerunnable = TRUE; return TRUE;
	case O_WAIT: s->interactive_wait = TRUE; return TRUE;
	case O_IA_PIPES: s->interactive = 1; return TRUE;
	case O_IA_PTY: s->interactive = 2; return TRUE;
	case O_IA_SHELL: s->interactive = 3; return TRUE;
	case O_TTY: s->interactive_tty = TRUE; return TRUE;
	case O_EXCL: a->exclusive = s->exclusive = TRUE; return TRUE;
	case O_NOTIFY_B: a->notify_begin = s->notify_begin = TRUE; return TRUE;
	case O_NOTIFY_N: a->notify_end = s->notify_end = TRUE; return TRUE;
	default: return FALSE;
	}
}

static gboolean
apply_output(Basalt__JobSpec *s, OptId id, const char *v)
{
	switch (id) {
	case O_OUT: case O_OUT_OW:
		cmd_pb_set_str(&s->stdout_path, v);
		s->stdout_overwrite = id == O_OUT_OW;
		return TRUE;
	case O_ERR: case O_ERR_OW:
		cmd_pb_set_str(&s->stderr_path, v);
		s->stderr_overwrite = id == O_ERR_OW;
		return TRUE;
	default:
		return FALSE;
	}
}

static gboolean
apply_limit(BsubArgs *a, Basalt__JobSpec *s, OptId id, const char *v,
	    GError **error)
{
	guint64 n;

	switch (id) {
	case O_RUNLIMIT:
		if (!parse_limit(v, &n, &a->runlimit_host))
			return fail(error, "bsub: Bad RUNLIMIT specification: %s", v);
		s->runlimit_s = n;
		return TRUE;
	case O_CPULIMIT:
		if (!parse_limit(v, &n, &a->cpulimit_host))
			return fail(error, "bsub: Bad CPULIMIT specification: %s", v);
		s->cpulimit_s = n;
		return TRUE;
	case O_MEM:
		if (!cmd_parse_mem_kb(v, &n) || n == 0)
			return fail(error, "bsub: Bad MEMLIMIT specification: %s", v);
		s->memlimit_kb = n;
		return TRUE;
	case O_EST_RUN:
		/* The host or model after '/' normalises the estimate on
		 * other clusters; on one cluster it is read and ignored, as
		 * -W's is. */
		if (!parse_limit(v, &n, &a->est_run_host) || n == 0)
			return fail(error, "bsub: Bad estimated run time "
			    "specification: %s", v);
		s->est_runtime_s = n;
		return TRUE;
	case O_SLOTS:
		if (!parse_slots(s, v))
			return fail(error, "bsub: Bad argument for option -n: %s", v);
		return TRUE;
	default:
		g_assert_not_reached();
	}
}

static gboolean
apply_time(BsubArgs *a, Basalt__JobSpec *s, OptId id, const char *v,
	   const BsubContext *ctx, GError **error)
{
	gint64 t;

	if (!bsub_parse_time(v, ctx->now, &t))
		return fail(error, "bsub: Bad %s time specification: %s",
			    id == O_BEGIN ? "begin" : "termination", v);
	if (id == O_BEGIN)
		s->begin_time = t;
	else
		a->term_time = s->term_time = t;
	return TRUE;
}

static gboolean
apply_one(BsubArgs *a, Basalt__JobSpec *s, const OptVal *ov,
	  const BsubContext *ctx, GError **error)
{
	OptId id = ov->def->id;
	const char *v = ov->value;
	char **field = string_field(s, id);
	guint64 n;

	if (field != NULL) {
		if (id == O_NAME && !bs_escape_clean(v)) {
			g_autofree char *shown = bs_escape(v);

			/* It would forge lines in logs and listings. */
			return fail(error, "bsub: Bad job name: %s: a job name "
			    "cannot contain a newline or other control "
			    "characters", shown);
		}
		if (id == O_CONSUMER && (v[0] != '/' || !bs_escape_clean(v))) {
			g_autofree char *shown = bs_escape(v);

			return fail(error, "bsub: Bad consumer: %s: a consumer is "
			    "an absolute path such as /dept/team. Job not "
			    "submitted.", shown);
		}
		if (id == O_NAME && !bsub_check_job_name(v))
			return fail(error, "bsub: Bad job name: %s", v);
		cmd_pb_set_str(field, v);
		return TRUE;
	}
	if (apply_flag(a, s, id) || apply_output(s, id, v))
		return TRUE;
	switch (id) {
	case O_QUEUE:
		set_words(&s->n_queues, &s->queues, v);
		return TRUE;
	case O_HOSTS:
		set_words(&s->n_hosts, &s->hosts, v);
		return TRUE;
	case O_RUNLIMIT: case O_CPULIMIT: case O_MEM: case O_SLOTS:
	case O_EST_RUN:
		return apply_limit(a, s, id, v, error);
	case O_HOSTLIMIT:
		return bsub_limits_apply(s, ov->def->name, v, error);
	case O_NNODES:
		return TRUE;    /* apply_nnodes, once -n and -R are known */
	case O_BEGIN: case O_TERM:
		return apply_time(a, s, id, v, ctx, error);
	case O_PRIO:
		if (!cmd_parse_uint(v, &n) || n == 0 || n > G_MAXUINT32)
			return fail(error, "bsub: Bad argument for option -sp: %s", v);
		a->user_priority = s->user_priority = (guint32)n;
		return TRUE;
	case O_WARN_ACTION:
		if (bs_warning_signal_parse(v) < 0)
			return fail(error, "bsub: Bad job warning action: %s: a "
			    "signal name or number such as URG or USR1", v);
		cmd_pb_set_str(&s->warning_action, v);
		return TRUE;
	case O_WARN_TIME: {
		int t = bs_warning_time_parse(v);

		if (t < 0)
			return fail(error, "bsub: Bad job warning time "
			    "specification: %s", v);
		s->warning_time = t;
		return TRUE;
	}
	case O_LOGIN:
		/* sbatchd runs it as a login shell: only a full path
		 * names one program whatever the job's PATH. */
		if (!g_path_is_absolute(v))
			return fail(error, "bsub: Bad login shell: %s: the "
			    "login shell must be an absolute path", v);
		g_free(a->login_shell);
		a->login_shell = g_strdup(v);
		cmd_pb_set_str(&s->login_shell, v);
		return TRUE;
	default:
		/* -env is applied once, after all sources (see build_spec). */
		return TRUE;
	}
}

static const char *
last_value(GPtrArray *opts, OptId id)
{
	for (guint i = opts->len; i > 0; i--)
		if (((OptVal *)opts->pdata[i - 1])->def->id == id)
			return ((OptVal *)opts->pdata[i - 1])->value;
	return NULL;
}

static gboolean
apply_env(BsubArgs *a, Basalt__JobSpec *s, GPtrArray *script_opts,
	  const BsubContext *ctx, GError **error)
{
	const char *spec = last_value(a->cli_opts, O_ENV);
	EnvBuild env = {
		g_ptr_array_new_with_free_func(g_free),
		g_hash_table_new(env_key_hash, env_key_equal),
	};
	gboolean ok;

	if (spec == NULL && script_opts != NULL)
		spec = last_value(script_opts, O_ENV);
	ok = build_env(spec != NULL ? spec : "all", ctx->envp, &env,
	    &a->env_none);
	g_hash_table_unref(env.by_key);
	if (!ok) {
		g_ptr_array_unref(env.list);
		return fail(error, "bsub: Bad argument for option -env: %s", spec);
	}
	g_ptr_array_set_free_func(env.list, NULL);
	set_env(s, env.list);
	return TRUE;
}

/*
 * A relative -cwd or -outdir is taken against the submission directory, as
 * LSF does: the execution host has no other directory to resolve it with.
 * Patterns (%J, %U ...) stay for the execution host to expand.
 */
static void
absolute_against(char **field, const char *base)
{
	char *abs;

	if (*field == NULL || **field == '\0' || g_path_is_absolute(*field) ||
	    base == NULL || *base == '\0')
		return;
	abs = g_build_filename(base, *field, NULL);
	cmd_pb_set_str(field, abs);
	g_free(abs);
}

/*
 * A compound requirement (n*{...} + m*{...}) asks for n + m slots: that
 * is the job's slot count, as in LSF; an -n that says otherwise is an
 * error rather than one of the two silently winning.
 */
static gboolean
apply_compound_slots(Basalt__JobSpec *s, int slots, GError **error)
{
	if (slots <= 0)
		return TRUE;
	if (s->min_slots == 0) {
		s->min_slots = s->max_slots = (uint32_t)slots;
		return TRUE;
	}
	if (s->min_slots != (uint32_t)slots || s->max_slots != (uint32_t)slots)
		return fail(error, "bsub: -n %u does not match the compound "
		    "resource requirement's %d slots. Job not submitted.",
		    s->min_slots, slots);
	return TRUE;
}

/*
 * -R may be given many times; LSF merges the strings (lib/resreq has the
 * rules).  The command line's -R strings replace the script's, as for
 * every other option; within one source they merge.  One string is sent
 * as written (bjobs -l then shows it so) unless LSF_UNIT_FOR_LIMITS makes
 * bare sizes mean something else than mbatchd reads; merged strings are
 * sent in canonical form, which carries its units.
 */
static gboolean
apply_resreq(Basalt__JobSpec *s, GPtrArray *script_opts, GPtrArray *cli_opts,
	     GError **error)
{
	GPtrArray *src = has_opt(cli_opts, O_RESREQ) ? cli_opts : script_opts;
	g_autoptr(GPtrArray) texts = g_ptr_array_new();
	g_autoptr(GError) perr = NULL;
	g_autoptr(BsResReq) rr = NULL;
	BsMemUnit unit = cmd_mem_unit();
	g_autofree char *canon = NULL;

	for (guint i = 0; src != NULL && i < src->len; i++)
		if (((OptVal *)src->pdata[i])->def->id == O_RESREQ)
			g_ptr_array_add(texts, ((OptVal *)src->pdata[i])->value);
	if (texts->len == 0)
		return TRUE;
	rr = bs_resreq_parse_many((const char *const *)texts->pdata, texts->len,
	    unit, &perr);
	if (rr == NULL)
		return fail(error, "bsub: %s. Job not submitted.", perr->message);
	if (!apply_compound_slots(s, bs_resreq_compound_slots(rr), error))
		return FALSE;
	if (texts->len == 1 && bs_mem_unit_for_resources(unit) == BS_MEM_MB) {
		cmd_pb_set_str(&s->resreq, texts->pdata[0]);
		return TRUE;
	}
	canon = bs_resreq_to_string(rr);
	if (strlen(canon) > BS_RESREQ_MAX_LEN)
		return fail(error, "bsub: the -R strings together are too long "
		    "(%zu bytes merged, at most %d). Job not submitted.",
		    strlen(canon), BS_RESREQ_MAX_LEN);
	cmd_pb_set_str(&s->resreq, canon);
	return TRUE;
}

/*
 * -g, else LSB_DEFAULT_JOBGROUP (with LSF's %u and %p), sent in its
 * normal form; a bad path is refused here, before anything is sent.
 * Without either, mbatchd applies lsb.params DEFAULT_JOBGROUP.
 */
static gboolean
apply_job_group(Basalt__JobSpec *s, const BsubContext *ctx, GError **error)
{
	const char *env = g_environ_getenv(ctx->envp, "LSB_DEFAULT_JOBGROUP");
	g_autofree char *want = NULL;
	g_autofree char *norm = NULL;
	g_autoptr(GError) perr = NULL;

	if (s->job_group != NULL && *s->job_group != '\0')
		want = g_strdup(s->job_group);
	else if (env != NULL && *env != '\0')
		want = bs_jobgroup_expand(env, g_get_user_name(), s->project);
	else
		return TRUE;
	if (!bs_jobgroup_normalize(want, &norm, &perr))
		return fail(error, "bsub: %s. Job not submitted.", perr->message);
	cmd_pb_set_str(&s->job_group, norm);
	return TRUE;
}

/*
 * -nnodes N (LSF on IBM CSM systems, written by Parsl's LSFProvider): N
 * whole hosts for the job, exclusively.  Basalt gives it as -x -n N with
 * span[ptile=1]: one slot on each of N hosts, and no other job on them
 * while it runs.  The command line's wins over the script's; -n with it
 * is refused, as CSM LSF refuses it.
 */
static gboolean
apply_nnodes(Basalt__JobSpec *s, GPtrArray *script_opts, GPtrArray *cli_opts,
	     GError **error)
{
	GPtrArray *src = has_opt(cli_opts, O_NNODES) ? cli_opts :
	    script_opts != NULL && has_opt(script_opts, O_NNODES) ? script_opts : NULL;
	const char *v = NULL;
	const char *texts[2];
	g_autoptr(BsResReq) rr = NULL;
	g_autoptr(GError) perr = NULL;
	g_autofree char *canon = NULL;
	guint64 n;

	if (src == NULL)
		return TRUE;
	for (guint i = 0; i < src->len; i++)
		if (((OptVal *)src->pdata[i])->def->id == O_NNODES)
			v = ((OptVal *)src->pdata[i])->value;
	if (!cmd_parse_uint(v, &n) || n == 0 || n > G_MAXUINT32)
		return fail(error, "bsub: Bad argument for option -nnodes: %s. "
			    "Job not submitted.", v);
	if (has_opt(cli_opts, O_SLOTS) ||
	    (script_opts != NULL && has_opt(script_opts, O_SLOTS)))
		return fail(error, "bsub: -nnodes and -n cannot be used together. "
			    "Job not submitted.");
	texts[0] = s->resreq != NULL && *s->resreq ? s->resreq : "span[ptile=1]";
	texts[1] = "span[ptile=1]";
	rr = bs_resreq_parse_many(texts, 2, BS_MEM_MB, &perr);
	if (rr == NULL)
		return fail(error, "bsub: -nnodes gives one slot per host "
			    "(span[ptile=1]): %s. Job not submitted.", perr->message);
	canon = bs_resreq_to_string(rr);
	cmd_pb_set_str(&s->resreq, canon);
	s->min_slots = s->max_slots = (uint32_t)n;
	s->exclusive = TRUE;
	return TRUE;
}

/* Builds the request from the script's options, then the command line's. */
static gboolean
build_spec(BsubArgs *a, GPtrArray *script_opts, const BsubContext *ctx,
	   GError **error)
{
	Basalt__JobSpec *s = g_new(Basalt__JobSpec, 1);
	GPtrArray *sources[2] = { script_opts, a->cli_opts };

	basalt__job_spec__init(s);
	a->req = g_new(Basalt__SubmitRequest, 1);
	basalt__submit_request__init(a->req);
	a->req->spec = s;
	cmd_pb_set_str(&s->cwd, ctx->cwd);
	cmd_pb_set_str(&s->sub_cwd, ctx->cwd);
	cmd_pb_set_str(&s->submit_host, ctx->submit_host);
	for (guint k = 0; k < 2; k++)
		for (guint i = 0; sources[k] != NULL && i < sources[k]->len; i++)
			if (!apply_one(a, s, sources[k]->pdata[i], ctx, error))
				return FALSE;
	absolute_against(&s->cwd, ctx->cwd);
	absolute_against(&s->outdir, ctx->cwd);
	if (!apply_job_group(s, ctx, error))
		return FALSE;
	if (!apply_resreq(s, script_opts, a->cli_opts, error) ||
	    !apply_nnodes(s, script_opts, a->cli_opts, error))
		return FALSE;
	if (s->exclusive)
		a->exclusive = TRUE;
	/* One bsub relays one job: not an array, not also -K. */
	if (s->interactive != 0 && strchr(s->job_name, '[') != NULL)
		return fail(error, "bsub: An interactive job cannot be a job "
			    "array. Job not submitted.");
	if (s->interactive != 0 && s->interactive_wait)
		return fail(error, "bsub: -K cannot be used with -I, -Ip or -Is. "
			    "Job not submitted.");
	if (s->interactive != 0 && s->rerunnable)
		return fail(error, "bsub: Interactive jobs are not rerunnable: -r "
			    "cannot be used with -I, -Ip or -Is. Job not submitted.");
	return apply_env(a, s, script_opts, ctx, error);
}

BsubArgs *
bsub_args_parse(int argc, char **argv, const BsubContext *ctx,
		GError **error)
{
	g_autoptr(BsubArgs) a = g_new0(BsubArgs, 1);
	int first;

	a->cli_opts = g_ptr_array_new_with_free_func(optval_free);
	if (!collect(argv + 1, argc - 1, a->cli_opts, &first, error))
		return NULL;
	if (first >= argc - 1) {
		a->needs_script = TRUE;
		return g_steal_pointer(&a);
	}
	if (!build_spec(a, NULL, ctx, error))
		return NULL;
	/* build_spec left command at the shared empty string. */
	a->req->spec->command = g_strjoinv(" ", argv + 1 + first);
	return g_steal_pointer(&a);
}

/*
 * #BSUB lines count only at the top of the script: before the first line
 * that is neither blank nor a comment.  The shebang is a comment.
 */
static gboolean
collect_script(const char *script, GPtrArray *opts, GError **error)
{
	g_auto(GStrv) lines = g_strsplit(script, "\n", -1);

	for (char **l = lines; *l != NULL; l++) {
		const char *line = *l + strspn(*l, " \t");
		g_auto(GStrv) args = NULL;
		int n, first;
		GError *perr = NULL;

		if (*line == '\0' || *line == '\r')
			continue;
		if (line[0] != '#')
			break;
		if (strncmp(line, "#BSUB", 5) != 0 ||
		    (line[5] != ' ' && line[5] != '\t'))
			continue;
		if (!g_shell_parse_argv(line + 5, &n, &args, &perr)) {
			fail(error, "bsub: bad #BSUB line: %s", line);
			g_error_free(perr);
			return FALSE;
		}
		if (!collect(args, n, opts, &first, error))
			return FALSE;
		if (first < n)
			return fail(error, "bsub: bad #BSUB line: %s", line);
	}
	return TRUE;
}

/* LSF shows a spooled script as its lines joined with "; ". */
static char *
script_command(const char *script)
{
	g_auto(GStrv) lines = g_strsplit(script, "\n", -1);
	GString *cmd = g_string_new(NULL);

	for (char **l = lines; *l != NULL; l++) {
		char *line = g_strstrip(*l);

		if (*line == '\0')
			continue;
		if (cmd->len > 0)
			g_string_append(cmd, "; ");
		g_string_append(cmd, line);
	}
	return g_string_free(cmd, FALSE);
}

gboolean
bsub_args_add_script(BsubArgs *a, const char *script, const BsubContext *ctx,
		     GError **error)
{
	g_autoptr(GPtrArray) opts = g_ptr_array_new_with_free_func(optval_free);
	g_autofree char *command = NULL;

	g_return_val_if_fail(a->needs_script && a->req == NULL, FALSE);
	command = script != NULL ? script_command(script) : NULL;
	if (command == NULL || command[0] == '\0')
		return fail(error, "bsub: a job command or script is required");
	if (!collect_script(script, opts, error) ||
	    !build_spec(a, opts, ctx, error))
		return FALSE;
	cmd_pb_set_str(&a->req->spec->script, script);
	a->req->spec->command = g_steal_pointer(&command);
	a->needs_script = FALSE;
	return TRUE;
}

void
bsub_args_free(BsubArgs *a)
{
	if (a == NULL)
		return;
	if (a->req != NULL)
		basalt__submit_request__free_unpacked(a->req, NULL);
	if (a->cli_opts != NULL)
		g_ptr_array_unref(a->cli_opts);
	g_free(a->login_shell);
	g_free(a->runlimit_host);
	g_free(a->est_run_host);
	g_free(a->cpulimit_host);
	g_free(a);
}
