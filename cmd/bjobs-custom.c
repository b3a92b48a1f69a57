/*
 * bjobs -o and -json (see bjobs-format.h); the fields themselves are in
 * bjobs-fields.c.
 *
 * Widths follow LSF's -o rules: no width means the value's own length;
 * "field:" the recommended width; "field:N" at most N characters, cut at
 * the end except JOB_NAME, which keeps its end behind a '*'; "field:-N"
 * right-aligns; "field:N:unit" shows a memory field in KB, MB, GB, TB, PB
 * or EB.  delimiter='x' or delimiter="x" replaces the blank between
 * fields.  Custom output prints "-" for no value, JSON an empty string.
 */
#include "config.h"

#include <string.h>

#include "bjobs-fields.h"
#include "cmd-util.h"
#include "util/error.h"

typedef struct {
	const BjobsFieldDef *def;
	guint width;           /* 0: the value's own length */
	gboolean right;
	int unit;              /* memory unit as a power of 1024 over KB, -1 none */
} Field;

struct BjobsFields {
	GArray *fields;        /* of Field */
	char *delimiter;
};

/* The default table's columns, for -json without -o. */
static const char default_fields[] =
	"jobid user stat queue from_host exec_host job_name submit_time";

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

/* "KB".."EB" (or "K".."E") as a power of 1024 over KB, -1 otherwise. */
static int
mem_unit(const char *u)
{
	static const char *const units[] = { "KB", "MB", "GB", "TB", "PB", "EB" };

	for (guint i = 0; i < G_N_ELEMENTS(units); i++)
		if (g_ascii_strcasecmp(u, units[i]) == 0 ||
		    (u[0] != '\0' && u[1] == '\0' &&
		     g_ascii_toupper(u[0]) == units[i][0]))
			return (int)i;
	return -1;
}

/* "name", "name:", "name:12", "name:-12", "name:12:MB", "name::GB". */
static gboolean
parse_field(BjobsFields *f, const char *tok, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(tok, ":", 3);
	Field fld = { bjobs_field_find(parts[0]), 0, FALSE, -1 };
	const char *w = parts[1];
	guint64 n;

	if (fld.def == NULL)
		return bad_field(error, tok);
	if (w != NULL) {
		fld.right = w[0] == '-';
		w += fld.right;
		if (w[0] == '\0')
			fld.width = fld.def->width;
		else if (cmd_parse_uint(w, &n) && n > 0 && n < 4096)
			fld.width = (guint)n;
		else
			return bad_field(error, tok);
	}
	if (w != NULL && parts[2] != NULL) {
		fld.unit = mem_unit(parts[2]);
		if (fld.unit < 0 || fld.def->kb == NULL)
			return bad_field(error, tok);
	}
	g_array_append_val(f->fields, fld);
	return TRUE;
}

/*
 * The words of an -o string: blank-separated, except that the character
 * of delimiter='c' or delimiter="c" may itself be a blank or the other
 * quote.
 */
static char **
split_spec(const char *spec, GError **error)
{
	g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(g_free);
	const char *p = spec;

	while (*p != '\0') {
		const char *start;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '\0')
			break;
		start = p;
		if (g_ascii_strncasecmp(p, "delimiter=", 10) == 0 &&
		    (p[10] == '\'' || p[10] == '"') && p[11] != '\0') {
			/* The character after the quote is the delimiter,
			 * whatever it is; the same quote must close it. */
			if (p[12] != p[10]) {
				bad_field(error, start);
				return NULL;
			}
			p += 13;
		} else {
			while (*p != '\0' && !g_ascii_isspace(*p))
				p++;
		}
		g_ptr_array_add(words, g_strndup(start, (gsize)(p - start)));
	}
	g_ptr_array_add(words, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&words), FALSE);
}

static gboolean
parse_delimiter(BjobsFields *f, const char *tok, GError **error)
{
	const char *d = tok + 10;
	gsize len = strlen(d);

	if (len != 3 || (d[0] != '\'' && d[0] != '"') || d[2] != d[0])
		return bad_field(error, tok);
	g_free(f->delimiter);
	f->delimiter = g_strndup(d + 1, 1);
	return TRUE;
}

BjobsFields *
bjobs_fields_parse(const char *spec, GError **error)
{
	g_autoptr(BjobsFields) f = g_new0(BjobsFields, 1);
	g_auto(GStrv) toks = NULL;

	f->fields = g_array_new(FALSE, FALSE, sizeof(Field));
	f->delimiter = g_strdup(" ");
	toks = split_spec(spec, error);
	if (toks == NULL)
		return NULL;
	for (char **t = toks; *t != NULL; t++) {
		gboolean ok = g_ascii_strncasecmp(*t, "delimiter=", 10) == 0 ?
		    parse_delimiter(f, *t, error) : parse_field(f, *t, error);

		if (!ok)
			return NULL;
	}
	if (f->fields->len == 0) {
		bad_field(error, spec);
		return NULL;
	}
	return g_steal_pointer(&f);
}

/* One job's value of a field; FALSE when it has none. */
static gboolean
field_value(GString *v, const Field *fld, const Basalt__JobInfo *j,
	    const BjobsOpts *o)
{
	static const char *const names[] = { "KB", "MB", "GB", "TB", "PB", "EB" };
	guint64 kb;

	if (fld->unit < 0)
		return fld->def->get(v, j, o);
	if (!fld->def->kb(j, &kb))
		return FALSE;
	g_string_append_printf(v, "%.2f %s",
			       (double)kb / (double)(1ull << (10 * fld->unit)),
			       names[fld->unit]);
	return TRUE;
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

			if (!field_value(v, fld, list->jobs[k], o))
				g_string_assign(v, "-");
			custom_cell(out, fld, v->str,
				    fld->def->flags & BJOBS_FIELD_TAIL ?
				    CMD_FIT_TAIL : CMD_FIT_CUT, i + 1 == n);
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
json_record(GString *out, const BjobsFields *f, const Basalt__JobInfo *j,
	    const BjobsOpts *o)
{
	g_string_append(out, "    {\n");
	for (guint i = 0; i < f->fields->len; i++) {
		const Field *fld = &g_array_index(f->fields, Field, i);
		g_autoptr(GString) v = g_string_new(NULL);

		if (!field_value(v, fld, j, o))
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
		  const Basalt__JobList *list, const Basalt__JobQuery *q,
		  const BjobsOpts *o)
{
	g_autoptr(BjobsFields) dflt = NULL;
	g_auto(GStrv) missing = q != NULL ? bjobs_missing_ids(q, list) : NULL;
	guint n_missing = missing != NULL ? g_strv_length(missing) : 0;
	size_t total = list->n_jobs + n_missing;

	if (f == NULL)
		f = dflt = bjobs_fields_parse(default_fields, NULL);
	g_string_append_printf(out, "{\n  \"COMMAND\":\"bjobs\",\n"
			       "  \"JOBS\":%zu,\n  \"RECORDS\":[\n", total);
	for (size_t k = 0; k < list->n_jobs; k++) {
		json_record(out, f, list->jobs[k], o);
		g_string_append(out, k + 1 < total ? ",\n" : "\n");
	}
	/* A job asked for by id and not found: LSF's error record. */
	for (guint k = 0; k < n_missing; k++) {
		g_autofree char *msg = g_strdup_printf("Job <%s> is not found",
						       missing[k]);

		g_string_append(out, "    {\n      \"JOBID\":");
		json_string(out, missing[k]);
		g_string_append(out, ",\n      \"ERROR\":");
		json_string(out, msg);
		g_string_append(out, list->n_jobs + k + 1 < total ?
				"\n    },\n" : "\n    }\n");
	}
	g_string_append(out, "  ]\n}\n");
}
