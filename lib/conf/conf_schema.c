/*
 * Typed schema engine and shared value parsers (see conf_schema.h for why
 * this is not libconfuse).  Everything here is pure: text in, typed value or
 * a reason out; the loaders turn reasons into `file:line:` diagnostics.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "conf/conf_schema.h"
#include "util/memunit.h"

/* LSF_UNIT_FOR_LIMITS while a configuration loads (see conf_schema.h). */
static BsMemUnit limit_unit = BS_MEM_KB;

void
bs_conf_set_limit_unit(int unit)
{
	limit_unit = (BsMemUnit)unit;
}

#define FIELD(obj, k) ((char *)(obj) + (k)->offset)

static const char *const load_indices[] = {
	"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp", "mem", NULL,
};

gboolean
bs_conf_is_load_index(const char *name)
{
	for (guint i = 0; load_indices[i] != NULL; i++)
		if (strcmp(load_indices[i], name) == 0)
			return TRUE;
	return FALSE;
}

/* ---- scalar parsers ------------------------------------------------------ */

gboolean
bs_conf_parse_int(const char *s, double min, double max, int *out, GString *why)
{
	gint64 v;

	if (!g_ascii_string_to_signed(s, 10, G_MININT64, G_MAXINT64, &v, NULL) ||
	    g_ascii_isspace(s[0]) || s[0] == '+') {
		g_string_append(why, "not an integer");
		return FALSE;
	}
	if ((double)v < min || (double)v > max) {
		g_string_append_printf(why, "out of range %.0f..%.0f", min, max);
		return FALSE;
	}
	*out = (int)v;
	return TRUE;
}

gboolean
bs_conf_parse_double(const char *s, double min, double max, double *out, GString *why)
{
	char *end = NULL;
	double v;

	if (s[0] == '\0' || g_ascii_isspace(s[0]))
		goto bad;
	v = g_ascii_strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v))
		goto bad;
	if (v < min || v > max) {
		g_string_append_printf(why, "out of range %g..%g", min, max);
		return FALSE;
	}
	*out = v;
	return TRUE;
bad:
	g_string_append(why, "not a number");
	return FALSE;
}

gboolean
bs_conf_parse_bool(const char *s, gboolean *out, GString *why)
{
	if (g_ascii_strcasecmp(s, "y") == 0 || g_ascii_strcasecmp(s, "yes") == 0) {
		*out = TRUE;
		return TRUE;
	}
	if (g_ascii_strcasecmp(s, "n") == 0 || g_ascii_strcasecmp(s, "no") == 0) {
		*out = FALSE;
		return TRUE;
	}
	g_string_append(why, "expected Y or N");
	return FALSE;
}

char **
bs_conf_split_words(const char *s)
{
	g_auto(GStrv) parts = g_strsplit_set(s, " \t", -1);
	GPtrArray *w = g_ptr_array_new();

	for (guint i = 0; parts[i] != NULL; i++)
		if (parts[i][0] != '\0')
			g_ptr_array_add(w, g_strdup(parts[i]));
	g_ptr_array_add(w, NULL);
	return (char **)g_ptr_array_free(w, FALSE);
}

/* `[hours:]minutes` (time) or a plain number (size), optional `/spec`. */
static gboolean
parse_limit_value(const char *s, gboolean time, gint64 *out, char **spec, GString *why)
{
	g_autofree char *v = g_strdup(s);
	char *slash = strchr(v, '/'), *colon;
	gint64 h = 0, m;

	if (slash != NULL) {
		*slash = '\0';
		if (!time || slash[1] == '\0') {
			g_string_append_printf(why, "'%s' is not a limit", s);
			return FALSE;
		}
		g_free(*spec);
		*spec = g_strdup(slash + 1);
	}
	if (!time) {
		guint64 kb;

		if (!bs_mem_parse_kb(v, limit_unit, &kb) || kb > G_MAXINT64) {
			g_string_append_printf(why, "'%s' is not a size (a number, "
			    "optionally with a unit KB MB GB TB PB)", s);
			return FALSE;
		}
		*out = (gint64)kb;
		return TRUE;
	}
	colon = strchr(v, ':');
	if (colon != NULL) {
		*colon = '\0';
		if (!bs_conf_parse_uint(v, G_MAXINT32, &h)) {
			g_string_append_printf(why, "'%s' is not [hours:]minutes", s);
			return FALSE;
		}
	}
	if (!bs_conf_parse_uint(colon != NULL ? colon + 1 : v, G_MAXINT32, &m)) {
		g_string_append_printf(why, time ? "'%s' is not [hours:]minutes" :
		    "'%s' is not a number", s);
		return FALSE;
	}
	*out = h * 60 + m;
	return TRUE;
}

static gboolean
parse_limit(const char *s, gboolean time, BsLimit *out, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(s);
	guint n = g_strv_length(w);
	BsLimit l = { BS_CONF_UNLIMITED, BS_CONF_UNLIMITED, NULL };

	if (n < 1 || n > 2) {
		g_string_append(why, "expected [default] maximum");
		return FALSE;
	}
	if (!parse_limit_value(w[n - 1], time, &l.max, &l.spec, why) ||
	    (n == 2 && !parse_limit_value(w[0], time, &l.def, &l.spec, why))) {
		g_free(l.spec);
		return FALSE;
	}
	if (n == 2 && l.def > l.max) {
		g_string_append_printf(why, "default %s is above maximum %s", w[0], w[1]);
		g_free(l.spec);
		return FALSE;
	}
	g_free(out->spec);
	*out = l;
	return TRUE;
}

static gboolean
parse_keyword(const char *s, const char *const *names, int *out, GString *why)
{
	for (int i = 0; names[i] != NULL; i++)
		if (g_ascii_strcasecmp(s, names[i]) == 0) {
			*out = i;
			return TRUE;
		}
	g_string_append_printf(why, "unknown keyword %s (expected", s);
	for (int i = 0; names[i] != NULL; i++)
		g_string_append_printf(why, " %s", names[i]);
	g_string_append_c(why, ')');
	return FALSE;
}

static gboolean
parse_flags(const char *s, const char *const *names, guint *out, GString *why)
{
	g_auto(GStrv) w = bs_conf_split_words(s);
	guint bits = 0;

	for (guint i = 0; w[i] != NULL; i++) {
		int idx = 0;

		if (!parse_keyword(w[i], names, &idx, why))
			return FALSE;
		bits |= 1u << idx;
	}
	*out = bits;
	return TRUE;
}

static char *
unquote(const char *s)
{
	gsize n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
		return g_strndup(s + 1, n - 2);
	return g_strdup(s);
}

/* Windows may be written bare or in one pair of parentheses. */
static gboolean
parse_windows_value(const char *s, GArray **field, GString *why)
{
	g_autofree char *v = g_strdup(s);
	GArray *w = NULL;
	gsize n = strlen(v);

	if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
		v[n - 1] = '\0';
		memmove(v, v + 1, n - 1);
	}
	if (!bs_conf_windows_parse(v, &w, why))
		return FALSE;
	if (*field != NULL)
		g_array_unref(*field);
	*field = w;
	return TRUE;
}

/* ---- the table engine ----------------------------------------------------- */

static gboolean
schema_set(const BsConfKey *k, void *obj, const char *value, GString *why, gboolean strict)
{
	void *f = FIELD(obj, k);
	double lo = strict ? k->min : -G_MAXDOUBLE, hi = strict ? k->max : G_MAXDOUBLE;

	switch (k->type) {
	case BS_CT_INT:
		return bs_conf_parse_int(value, lo, hi, f, why);
	case BS_CT_FLOAT:
		return bs_conf_parse_double(value, lo, hi, f, why);
	case BS_CT_BOOL:
		return bs_conf_parse_bool(value, f, why);
	case BS_CT_STRING: {
		char *s = unquote(value);

		if (k->max > 0 && strlen(s) > (gsize)k->max) {
			g_string_append_printf(why, "longer than %.0f characters", k->max);
			g_free(s);
			return FALSE;
		}
		g_free(*(char **)f);
		*(char **)f = s;
		return TRUE;
	}
	case BS_CT_NAMES:
		g_strfreev(*(char ***)f);
		*(char ***)f = bs_conf_split_words(value);
		return TRUE;
	case BS_CT_ENUM:
		return parse_keyword(value, k->names, f, why);
	case BS_CT_FLAGS:
		return parse_flags(value, k->names, f, why);
	case BS_CT_WINDOWS:
		return parse_windows_value(value, f, why);
	case BS_CT_TIME_LIMIT:
	case BS_CT_SIZE_LIMIT:
		return parse_limit(value, k->type == BS_CT_TIME_LIMIT, f, why);
	case BS_CT_CUSTOM:
		return k->parse(k, value, f, why);
	}
	return FALSE;
}

gboolean
bs_conf_schema_set(const BsConfKey *k, void *obj, const char *value, GString *why)
{
	return schema_set(k, obj, value, why, TRUE);
}

void
bs_conf_schema_init(const BsConfKey *table, void *obj)
{
	for (const BsConfKey *k = table; k->key != NULL; k++) {
		g_autoptr(GString) why = g_string_new(NULL);

		if (k->type == BS_CT_TIME_LIMIT || k->type == BS_CT_SIZE_LIMIT) {
			BsLimit *l = (BsLimit *)FIELD(obj, k);

			l->def = l->max = BS_CONF_UNLIMITED;
		}
		if (k->def != NULL && !k->alias && !schema_set(k, obj, k->def, why, FALSE))
			g_error("schema default '%s' for %s: %s", k->def, k->key, why->str);
	}
}

void
bs_conf_schema_clear(const BsConfKey *table, void *obj)
{
	for (const BsConfKey *k = table; k->key != NULL; k++) {
		void *f = FIELD(obj, k);

		if (k->alias)
			continue;
		switch (k->type) {
		case BS_CT_STRING:
			g_clear_pointer((char **)f, g_free);
			break;
		case BS_CT_NAMES:
			g_clear_pointer((char ***)f, g_strfreev);
			break;
		case BS_CT_WINDOWS:
			g_clear_pointer((GArray **)f, g_array_unref);
			break;
		case BS_CT_TIME_LIMIT:
		case BS_CT_SIZE_LIMIT:
			g_clear_pointer(&((BsLimit *)f)->spec, g_free);
			break;
		case BS_CT_CUSTOM:
			if (k->free_fn != NULL)
				k->free_fn(f);
			break;
		default:
			break;
		}
	}
}

const BsConfKey *
bs_conf_schema_find(const BsConfKey *table, const char *key)
{
	for (const BsConfKey *k = table; k->key != NULL; k++)
		if (g_ascii_strcasecmp(k->key, key) == 0)
			return k;
	return NULL;
}

static void
report_bad(const BsConfCtx *ctx, int line, const char *key, const char *value,
    const GString *why)
{
	if (strlen(value) > 60)
		ctx_error(ctx, line, "bad value '%.57s...' for %s: %s", value, key, why->str);
	else
		ctx_error(ctx, line, "bad value '%s' for %s: %s", value, key, why->str);
}

gboolean
bs_conf_set_pair(const BsConfCtx *ctx, const BsConfKey *table, void *obj,
    const char *key, const char *value, int line)
{
	const BsConfKey *k = bs_conf_schema_find(table, key);
	g_autoptr(GString) why = g_string_new(NULL);

	if (k == NULL)
		return FALSE;
	if (value[0] == '\0')
		return TRUE;	/* `KEY =` leaves the default, as LSF does */
	if (!bs_conf_schema_set(k, obj, value, why))
		report_bad(ctx, line, k->key, value, why);
	return TRUE;
}

void
bs_conf_set_cell(const BsConfCtx *ctx, const BsConfKey *k, void *obj,
    const BsLexCell *cell, int line)
{
	g_autoptr(GString) why = g_string_new(NULL);

	if (bs_lex_cell_is_default(cell))
		return;
	if (!bs_conf_schema_set(k, obj, cell->text, why))
		report_bad(ctx, line, k->key, cell->text, why);
}

void
bs_conf_check_columns(const BsConfCtx *ctx, const BsLexSection *s,
    const BsConfKey *table, const char *const *also)
{
	for (guint i = 0; i < s->columns->len; i++) {
		const char *c = s->columns->pdata[i];
		gboolean known = bs_conf_schema_find(table, c) != NULL || bs_conf_is_load_index(c);

		for (guint j = 0; !known && also != NULL && also[j] != NULL; j++)
			known = g_ascii_strcasecmp(also[j], c) == 0;
		if (!known)
			ctx_warning(ctx, s->header_line, "unknown column %s in section %s, ignoring",
			    c, s->name);
	}
}

void
bs_conf_record_line(GHashTable **lines, const char *key, int line)
{
	if (*lines == NULL)
		*lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_hash_table_replace(*lines, g_ascii_strup(key, -1), GINT_TO_POINTER(line));
}

int
bs_conf_key_line(GHashTable *key_lines, const char *key)
{
	g_autofree char *up = g_ascii_strup(key, -1);

	if (key_lines == NULL)
		return 0;
	return GPOINTER_TO_INT(g_hash_table_lookup(key_lines, up));
}
