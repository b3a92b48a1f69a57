/*
 * The -o field language shared by bjobs, bqueues and bhosts (see
 * cmd-fields.h).
 *
 * Widths follow LSF's -o rules: no width means the value's own length;
 * "field:" the recommended width; "field:N" at most N characters;
 * "field:-N" right-aligns; "field:N:unit" shows a memory field in KB, MB,
 * GB, TB, PB or EB.  delimiter='x' or delimiter="x" replaces the blank
 * between fields.
 */
#include "config.h"

#include <string.h>

#include "cmd-fields.h"
#include "util/error.h"

void
cmd_fields_free(CmdFields *f)
{
	if (f == NULL)
		return;
	g_array_unref(f->fields);
	g_free(f->delimiter);
	g_free(f);
}

static gboolean
bad_field(GError **error, const char *prog, const char *tok)
{
	g_set_error(error, BS_ERROR, BS_ERROR_FAILED,
		    "%s: Invalid field name or format in -o: %s", prog, tok);
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
parse_field(CmdFields *f, const char *prog, CmdFieldFind find,
	    const char *tok, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(tok, ":", 3);
	CmdFieldRef ref = { 0 };
	CmdField fld = { NULL, 0, FALSE, -1 };
	const char *w = parts[1];
	guint64 n;

	if (!find(parts[0], &ref))
		return bad_field(error, prog, tok);
	fld.def = ref.def;
	if (w != NULL) {
		fld.right = w[0] == '-';
		w += fld.right;
		if (w[0] == '\0')
			fld.width = ref.width;
		else if (cmd_parse_uint(w, &n) && n > 0 && n < 4096)
			fld.width = (guint)n;
		else
			return bad_field(error, prog, tok);
	}
	if (w != NULL && parts[2] != NULL) {
		fld.unit = mem_unit(parts[2]);
		if (fld.unit < 0 || !ref.has_kb)
			return bad_field(error, prog, tok);
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
split_spec(const char *prog, const char *spec, GError **error)
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
				bad_field(error, prog, start);
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
parse_delimiter(CmdFields *f, const char *prog, const char *tok,
		GError **error)
{
	const char *d = tok + 10;
	gsize len = strlen(d);

	if (len != 3 || (d[0] != '\'' && d[0] != '"') || d[2] != d[0])
		return bad_field(error, prog, tok);
	g_free(f->delimiter);
	f->delimiter = g_strndup(d + 1, 1);
	return TRUE;
}

/* "all:N" (LSF 10.1 FP14): every field, each with the ":N..." that
 * followed "all". */
static gboolean
parse_all_with(CmdFields *f, const char *prog, const char *all_spec,
	       const char *suffix, CmdFieldFind find, GError **error)
{
	g_auto(GStrv) names = g_strsplit(all_spec, " ", -1);

	for (char **n = names; *n != NULL; n++) {
		g_autofree char *word = NULL;

		if (**n == '\0')
			continue;
		word = g_strconcat(*n, suffix, NULL);
		if (!parse_field(f, prog, find, word, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
parse_words(CmdFields *f, const char *prog, const char *spec,
	    CmdFieldFind find, const char *all_spec, GError **error)
{
	g_auto(GStrv) toks = split_spec(prog, spec, error);

	if (toks == NULL)
		return FALSE;
	for (char **t = toks; *t != NULL; t++) {
		gboolean ok;

		if (g_ascii_strncasecmp(*t, "delimiter=", 10) == 0)
			ok = parse_delimiter(f, prog, *t, error);
		else if (all_spec != NULL && g_ascii_strcasecmp(*t, "all") == 0)
			ok = parse_words(f, prog, all_spec, find, NULL, error);
		else if (all_spec != NULL && g_ascii_strncasecmp(*t, "all:", 4) == 0)
			ok = parse_all_with(f, prog, all_spec, *t + 3, find,
			    error);
		else
			ok = parse_field(f, prog, find, *t, error);
		if (!ok)
			return FALSE;
	}
	return TRUE;
}

CmdFields *
cmd_fields_parse(const char *prog, const char *spec, CmdFieldFind find,
		 const char *all_spec, GError **error)
{
	g_autoptr(CmdFields) f = g_new0(CmdFields, 1);

	f->fields = g_array_new(FALSE, FALSE, sizeof(CmdField));
	f->delimiter = g_strdup(" ");
	if (!parse_words(f, prog, spec, find, all_spec, error))
		return NULL;
	if (f->fields->len == 0) {
		bad_field(error, prog, spec);
		return NULL;
	}
	return g_steal_pointer(&f);
}

void
cmd_fields_mem(GString *v, int unit, guint64 kb)
{
	static const char *const names[] = { "KB", "MB", "GB", "TB", "PB", "EB" };

	g_string_append_printf(v, "%.2f %s",
			       (double)kb / (double)(1ull << (10 * unit)),
			       names[unit]);
}

void
cmd_fields_cell(GString *out, const CmdField *fld, const char *text,
		CmdFit fit, gboolean last)
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
cmd_json_string(GString *out, const char *s)
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

gboolean
cmd_field_def_ref(const CmdFieldDef *table, gsize n, const char *name,
		  CmdFieldRef *ref)
{
	const CmdFieldDef *d = cmd_field_def_find(table, n, name);

	if (d == NULL)
		return FALSE;
	ref->def = d;
	ref->width = d->width;
	ref->has_kb = FALSE;
	return TRUE;
}

gboolean
cmd_field_str(GString *v, const char *s)
{
	if (s == NULL || s[0] == '\0')
		return FALSE;
	g_string_append(v, s);
	return TRUE;
}

gboolean
cmd_field_int(GString *v, gint64 n)
{
	g_string_append_printf(v, "%" G_GINT64_FORMAT, n);
	return TRUE;
}

gboolean
cmd_field_limit(GString *v, gint64 n)
{
	return n >= 0 && cmd_field_int(v, n);
}

const CmdFieldDef *
cmd_field_def_find(const CmdFieldDef *table, gsize n, const char *name)
{
	for (gsize i = 0; i < n; i++) {
		g_auto(GStrv) names = g_strsplit(table[i].names, " ", -1);

		for (char **nm = names; *nm != NULL; nm++)
			if (g_ascii_strcasecmp(*nm, name) == 0)
				return &table[i];
	}
	return NULL;
}

static const CmdFieldDef *
def_of(const CmdFields *f, guint i)
{
	return g_array_index(f->fields, CmdField, i).def;
}

void
cmd_fields_print(GString *out, const CmdFields *f, gboolean noheader,
		 const void *const *recs, gsize n)
{
	guint nf = f->fields->len;

	for (guint i = 0; !noheader && i < nf; i++) {
		cmd_fields_cell(out, &g_array_index(f->fields, CmdField, i),
				def_of(f, i)->header, CMD_FIT_CUT, i + 1 == nf);
		g_string_append(out, i + 1 < nf ? f->delimiter : "\n");
	}
	for (gsize k = 0; k < n; k++)
		for (guint i = 0; i < nf; i++) {
			g_autoptr(GString) v = g_string_new(NULL);

			if (!def_of(f, i)->get(v, recs[k]))
				g_string_assign(v, "-");
			cmd_fields_cell(out,
					&g_array_index(f->fields, CmdField, i),
					v->str, CMD_FIT_CUT, i + 1 == nf);
			g_string_append(out, i + 1 < nf ? f->delimiter : "\n");
		}
}

void
cmd_fields_json(GString *out, const CmdFields *f, const char *command,
		const char *count_key, const void *const *recs, gsize n)
{
	guint nf = f->fields->len;

	g_string_append(out, "{\n  \"COMMAND\":");
	cmd_json_string(out, command);
	g_string_append(out, ",\n  ");
	cmd_json_string(out, count_key);
	g_string_append_printf(out, ":%zu,\n  \"RECORDS\":[\n", n);
	for (gsize k = 0; k < n; k++) {
		g_string_append(out, "    {\n");
		for (guint i = 0; i < nf; i++) {
			g_autoptr(GString) v = g_string_new(NULL);

			if (!def_of(f, i)->get(v, recs[k]))
				g_string_truncate(v, 0);
			g_string_append(out, "      ");
			cmd_json_string(out, def_of(f, i)->header);
			g_string_append_c(out, ':');
			cmd_json_string(out, v->str);
			g_string_append(out, i + 1 < nf ? ",\n" : "\n");
		}
		g_string_append(out, k + 1 < n ? "    },\n" : "    }\n");
	}
	g_string_append(out, "  ]\n}\n");
}
