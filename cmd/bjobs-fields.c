/*
 * bjobs -o and -json (see bjobs-format.h).
 *
 * A table names each field once: its -o names (aliases included), its
 * header, LSF's recommended width (for "field:"), and a getter that gives
 * the value or FALSE when the job has none.  Custom output prints "-" for
 * no value, JSON an empty string, as LSF does.
 *
 * Widths follow LSF's -o rules: no width means the value's own length;
 * "field:" the recommended width; "field:N" at most N characters, cut at
 * the end except JOB_NAME, which keeps its end behind a '*'; "field:-N"
 * right-aligns.  delimiter='x' replaces the blank between fields.
 */
#include "config.h"

#include <string.h>

#include "bjobs-format.h"
#include "cmd-util.h"
#include "util/error.h"

typedef gboolean (*FieldGet)(GString *v, const Basalt__JobInfo *j);

typedef struct {
	const char *names;     /* blank-separated: name then aliases */
	const char *header;
	guint width;           /* LSF's recommended width */
	FieldGet get;
} FieldDef;

typedef struct {
	const FieldDef *def;
	guint width;           /* 0: the value's own length */
	gboolean right;
} Field;

struct BjobsFields {
	GArray *fields;        /* of Field */
	char *delimiter;
};

static gboolean
get_jobid(GString *v, const Basalt__JobInfo *j)
{
	cmd_jobid(v, j->job_id, 0);
	return TRUE;
}

static gboolean
get_stat(GString *v, const Basalt__JobInfo *j)
{
	g_string_append(v, cmd_state_name(j->state));
	return TRUE;
}

static gboolean
get_str(GString *v, const char *s)
{
	if (s == NULL || s[0] == '\0')
		return FALSE;
	g_string_append(v, s);
	return TRUE;
}

static gboolean
get_user(GString *v, const Basalt__JobInfo *j)
{
	return get_str(v, j->user);
}

static gboolean
get_queue(GString *v, const Basalt__JobInfo *j)
{
	return get_str(v, j->queue);
}

static gboolean
get_name(GString *v, const Basalt__JobInfo *j)
{
	g_autofree char *n = bjobs_job_name(j);

	return get_str(v, n);
}

static gboolean
get_from(GString *v, const Basalt__JobInfo *j)
{
	return get_str(v, j->from_host);
}

static gboolean
get_exec(GString *v, const Basalt__JobInfo *j)
{
	g_auto(GStrv) groups = bjobs_exec_groups(j);
	g_autofree char *joined = g_strjoinv(":", groups);

	return get_str(v, joined);
}

static gboolean
get_time(GString *v, gint64 t)
{
	if (t <= 0)
		return FALSE;
	cmd_time_short(v, t);
	return TRUE;
}

static gboolean
get_submit(GString *v, const Basalt__JobInfo *j)
{
	return get_time(v, j->submit_time);
}

static gboolean
get_start(GString *v, const Basalt__JobInfo *j)
{
	return get_time(v, j->start_time);
}

static gboolean
get_finish(GString *v, const Basalt__JobInfo *j)
{
	return get_time(v, j->end_time);
}

/* Only an EXIT job has an exit code worth showing; a signal counts as
 * 128 + signal, as the shell reports it. */
static gboolean
get_exit(GString *v, const Basalt__JobInfo *j)
{
	if (j->state != BASALT__JOB_STATE__JOB_STATE_EXIT)
		return FALSE;
	g_string_append_printf(v, "%d", j->term_signal > 0 ?
			       128 + j->term_signal : j->exit_status);
	return TRUE;
}

static gboolean
get_reason(GString *v, const Basalt__JobInfo *j)
{
	if (j->state != BASALT__JOB_STATE__JOB_STATE_PEND &&
	    j->state != BASALT__JOB_STATE__JOB_STATE_PSUSP)
		return FALSE;
	return get_str(v, j->pending_reason);
}

static gboolean
get_slots(GString *v, const Basalt__JobInfo *j)
{
	guint n = (guint)j->n_exec_hosts;

	if (n == 0)
		n = j->spec != NULL && j->spec->min_slots > 0 ?
		    j->spec->min_slots : 1;
	g_string_append_printf(v, "%u", n);
	return TRUE;
}

static gboolean
get_cpu(GString *v, const Basalt__JobInfo *j)
{
	if (j->usage == NULL)
		return FALSE;
	g_string_append_printf(v, "%.1f second(s)", bjobs_cpu_seconds(j));
	return TRUE;
}

static gboolean
get_max_mem(GString *v, const Basalt__JobInfo *j)
{
	if (j->usage == NULL || j->usage->max_rss_kb == 0)
		return FALSE;
	cmd_mem_kb(v, j->usage->max_rss_kb);
	return TRUE;
}

static gboolean
get_proj(GString *v, const Basalt__JobInfo *j)
{
	if (j->spec == NULL || j->spec->project[0] == '\0') {
		g_string_append(v, "default");
		return TRUE;
	}
	return get_str(v, j->spec->project);
}

/* bsub -I, -Ip, -Is: Y, else N (LSF's interactive field). */
static gboolean
get_interactive(GString *v, const Basalt__JobInfo *j)
{
	g_string_append(v, j->interactive != 0 ? "Y" : "N");
	return TRUE;
}

static const FieldDef field_defs[] = {
	{ "jobid id", "JOBID", 7, get_jobid },
	{ "stat", "STAT", 5, get_stat },
	{ "user", "USER", 7, get_user },
	{ "queue", "QUEUE", 10, get_queue },
	{ "job_name name", "JOB_NAME", 10, get_name },
	{ "from_host", "FROM_HOST", 11, get_from },
	{ "exec_host", "EXEC_HOST", 11, get_exec },
	{ "submit_time", "SUBMIT_TIME", 15, get_submit },
	{ "start_time", "START_TIME", 15, get_start },
	{ "finish_time", "FINISH_TIME", 16, get_finish },
	{ "exit_code", "EXIT_CODE", 10, get_exit },
	{ "pend_reason", "PEND_REASON", 11, get_reason },
	{ "slots nalloc_slot", "SLOTS", 5, get_slots },
	{ "cpu_used", "CPU_USED", 10, get_cpu },
	{ "max_mem", "MAX_MEM", 15, get_max_mem },
	{ "proj_name proj project", "PROJ_NAME", 11, get_proj },
	{ "interactive", "INTERACTIVE", 11, get_interactive },
};

/* The default table's columns, for -json without -o. */
static const char default_fields[] =
	"jobid user stat queue from_host exec_host job_name submit_time";

static const FieldDef *
find_field(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(field_defs); i++) {
		g_auto(GStrv) names = g_strsplit(field_defs[i].names, " ", -1);

		for (char **n = names; *n != NULL; n++)
			if (g_ascii_strcasecmp(*n, name) == 0)
				return &field_defs[i];
	}
	return NULL;
}

void
bjobs_fields_free(BjobsFields *f)
{
	if (f == NULL)
		return;
	g_array_unref(f->fields);
	g_free(f->delimiter);
	g_free(f);
}

static gboolean
bad_field(GError **error, const char *tok)
{
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "bjobs: Invalid field name or format in -o: %s", tok);
	return FALSE;
}

/* "name", "name:", "name:12", "name:-12", with an ignored ":unit". */
static gboolean
parse_field(BjobsFields *f, const char *tok, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(tok, ":", 3);
	Field fld = { find_field(parts[0]), 0, FALSE };
	const char *w = parts[1];
	guint64 n;

	if (fld.def == NULL)
		return bad_field(error, tok);
	if (w != NULL) {
		fld.right = w[0] == '-';
		w += fld.right;
		if (w[0] == '\0' && !fld.right)
			fld.width = fld.def->width;
		else if (cmd_parse_uint(w, &n) && n > 0 && n < 4096)
			fld.width = (guint)n;
		else
			return bad_field(error, tok);
	}
	g_array_append_val(f->fields, fld);
	return TRUE;
}

BjobsFields *
bjobs_fields_parse(const char *spec, GError **error)
{
	g_autoptr(BjobsFields) f = g_new0(BjobsFields, 1);
	g_auto(GStrv) toks = cmd_split_words(spec);

	f->fields = g_array_new(FALSE, FALSE, sizeof(Field));
	f->delimiter = g_strdup(" ");
	for (char **t = toks; *t != NULL; t++) {
		if (g_ascii_strncasecmp(*t, "delimiter=", 10) == 0) {
			const char *d = *t + 10;
			gsize len = strlen(d);

			if (len < 3 || d[0] != '\'' || d[len - 1] != '\'') {
				bad_field(error, *t);
				return NULL;
			}
			g_free(f->delimiter);
			f->delimiter = g_strndup(d + 1, len - 2);
			continue;
		}
		if (!parse_field(f, *t, error))
			return NULL;
	}
	if (f->fields->len == 0) {
		bad_field(error, spec);
		return NULL;
	}
	return g_steal_pointer(&f);
}

/* Headers are always cut at the end; values of JOB_NAME keep the end. */
static void
custom_cell(GString *out, const Field *fld, const char *text, CmdFit fit,
	    gboolean last)
{

	if (fld->width == 0 || (last && !fld->right)) {
		/* Nothing to pad to, or trailing blanks nobody sees. */
		if (fld->width > 0 && strlen(text) > fld->width)
			cmd_cell(out, text, fld->width, fit, FALSE);
		else
			g_string_append(out, text);
		return;
	}
	cmd_cell(out, text, fld->width, fit, fld->right);
}

void
bjobs_format_custom(GString *out, const BjobsFields *f,
		    const Basalt__JobList *list, const BjobsOpts *o)
{
	guint n = f->fields->len;

	for (guint i = 0; !o->noheader && i < n; i++) {
		const Field *fld = &g_array_index(f->fields, Field, i);

		custom_cell(out, fld, fld->def->header, CMD_FIT_CUT, i + 1 == n);
		g_string_append(out, i + 1 < n ? f->delimiter : "\n");
	}
	for (size_t k = 0; k < list->n_jobs; k++) {
		for (guint i = 0; i < n; i++) {
			const Field *fld = &g_array_index(f->fields, Field, i);
			g_autoptr(GString) v = g_string_new(NULL);

			if (!fld->def->get(v, list->jobs[k]))
				g_string_assign(v, "-");
			custom_cell(out, fld, v->str,
				    fld->def->get == get_name ? CMD_FIT_TAIL
							      : CMD_FIT_CUT,
				    i + 1 == n);
			g_string_append(out, i + 1 < n ? f->delimiter : "\n");
		}
	}
}

static void
json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s != '\0'; s++) {
		guchar c = (guchar)*s;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c == '\n')
			g_string_append(out, "\\n");
		else if (c == '\t')
			g_string_append(out, "\\t");
		else if (c < 0x20)
			g_string_append_printf(out, "\\u%04x", c);
		else
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
}

static void
json_record(GString *out, const BjobsFields *f, const Basalt__JobInfo *j)
{
	g_string_append(out, "    {\n");
	for (guint i = 0; i < f->fields->len; i++) {
		const Field *fld = &g_array_index(f->fields, Field, i);
		g_autoptr(GString) v = g_string_new(NULL);

		if (!fld->def->get(v, j))
			g_string_truncate(v, 0);
		g_string_append(out, "      ");
		json_string(out, fld->def->header);
		g_string_append_c(out, ':');
		json_string(out, v->str);
		g_string_append(out, i + 1 < f->fields->len ? ",\n" : "\n");
	}
	g_string_append(out, "    }");
}

void
bjobs_format_json(GString *out, const BjobsFields *f,
		  const Basalt__JobList *list, const BjobsOpts *o)
{
	g_autoptr(BjobsFields) dflt = NULL;

	if (f == NULL)
		f = dflt = bjobs_fields_parse(default_fields, NULL);
	g_string_append_printf(out, "{\n  \"COMMAND\":\"bjobs\",\n"
			       "  \"JOBS\":%zu,\n  \"RECORDS\":[\n",
			       list->n_jobs);
	for (size_t k = 0; k < list->n_jobs; k++) {
		json_record(out, f, list->jobs[k]);
		g_string_append(out, k + 1 < list->n_jobs ? ",\n" : "\n");
	}
	g_string_append(out, "  ]\n}\n");
}
