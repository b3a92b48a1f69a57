/*
 * LSF configuration lexer (see lsf_lex.h).
 *
 * Two passes in one loop: physical lines become logical lines (comments
 * stripped, `\` continuations joined, `#if time()` blocks evaluated), and
 * each logical line is fed to a small section state machine.  All problems
 * are reported with the line on which the logical line started; the caller
 * sorts diagnostics by line afterwards, so the order here does not matter.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_time.h"
#include "conf/lsf_lex.h"

typedef struct {
	int line;
	gboolean parent_active;  /* the enclosing block is being read */
	gboolean taken;          /* some branch of this #if was (or must not be) taken */
	gboolean active;         /* the current branch is being read */
	gboolean seen_else;
} CondFrame;

typedef struct {
	const char *name;
	BsDiags *diags;
	BsLexMode mode;
	gint64 now;
	BsLexFile *file;
	BsLexSection *cur;       /* open section, or the implicit one in flat mode */
	GHashTable *cur_keys;    /* upper-case key -> first line, for duplicates */
	GArray *conds;           /* of CondFrame */
} Lexer;

/* Sections whose form is known; others are recognised by their first line. */
static const char *const horizontal_sections[] = {
	"Queue", "Parameters", "HostExport", "SharedResourceExport",
	"GuaranteedResourcePool", "HybridPlan", "ClusterAdmins", "ServiceClass",
	"Application", NULL,
};
static const char *const table_sections[] = {
	"Host", "HostGroup", "User", "UserGroup", "UserMap", "Cluster",
	"RemoteClusters", "HybridConsumer", "HostType", "HostModel", "Resource",
	"ResourceMap", NULL,
};

#define lex_error(lx, line, ...) bs_diag_error((lx)->diags, (lx)->name, (line), __VA_ARGS__)

static gboolean
name_in(const char *name, const char *const *list)
{
	for (; *list != NULL; list++)
		if (g_ascii_strcasecmp(name, *list) == 0)
			return TRUE;
	return FALSE;
}

static void
cell_free(gpointer p)
{
	BsLexCell *c = p;

	g_free(c->text);
	g_free(c);
}

static void
row_free(gpointer p)
{
	BsLexRow *r = p;

	g_ptr_array_unref(r->cells);
	g_free(r);
}

static void
pair_free(gpointer p)
{
	BsLexPair *pair = p;

	g_free(pair->key);
	g_free(pair->value);
	g_free(pair);
}

void
bs_lex_section_free(BsLexSection *s)
{
	if (s == NULL)
		return;
	g_free(s->name);
	g_ptr_array_unref(s->pairs);
	g_ptr_array_unref(s->columns);
	g_ptr_array_unref(s->rows);
	g_free(s);
}

void
bs_lex_file_free(BsLexFile *f)
{
	if (f == NULL)
		return;
	g_free(f->name);
	g_ptr_array_unref(f->sections);
	g_free(f);
}

gboolean
bs_lex_cell_is_default(const BsLexCell *c)
{
	if (c->kind == BS_CELL_WORD)
		return strcmp(c->text, "-") == 0;
	return c->kind == BS_CELL_GROUP && c->text[0] == '\0';
}

int
bs_lex_column(const BsLexSection *s, const char *name)
{
	for (guint i = 0; s->columns != NULL && i < s->columns->len; i++)
		if (g_ascii_strcasecmp(s->columns->pdata[i], name) == 0)
			return (int)i;
	return -1;
}

static BsLexSection *
section_new(const char *name, int line)
{
	BsLexSection *s = g_new0(BsLexSection, 1);

	s->name = g_strdup(name);
	s->line = line;
	s->pairs = g_ptr_array_new_with_free_func(pair_free);
	s->columns = g_ptr_array_new_with_free_func(g_free);
	s->rows = g_ptr_array_new_with_free_func(row_free);
	return s;
}

static void
open_section(Lexer *lx, const char *name, int line)
{
	lx->cur = section_new(name, line);
	g_ptr_array_add(lx->file->sections, lx->cur);
	lx->cur_keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (name != NULL && name_in(name, table_sections))
		lx->cur->table = TRUE;
}

static void
close_section(Lexer *lx)
{
	lx->cur = NULL;
	g_clear_pointer(&lx->cur_keys, g_hash_table_unref);
}

/* ---- #if time(...) directives ------------------------------------------ */

gboolean
bs_lex_eval_time(const char *expr, gint64 now, gboolean *value, GString *why)
{
	g_autofree char *e = g_strstrip(g_strdup(expr));
	gsize n = strlen(e);
	g_autoptr(GTimeZone) tz = NULL;
	g_autoptr(GDateTime) t = NULL;
	g_autoptr(GArray) w = NULL;
	char *inner, *last;

	if (strncmp(e, "time(", 5) != 0 || n < 6 || e[n - 1] != ')') {
		g_string_append_printf(why, "'%s' is not time(window ...)", e);
		return FALSE;
	}
	e[n - 1] = '\0';
	inner = g_strstrip(e + 5);
	/* An optional last word that is not a window names a time zone. */
	last = strrchr(inner, ' ');
	last = last != NULL ? last + 1 : inner;
	if (*last != '\0' && strchr(last, '-') == NULL && strchr(last, ':') == NULL) {
		tz = g_time_zone_new_identifier(last);
		if (tz == NULL) {
			g_string_append_printf(why, "unknown time zone '%s'", last);
			return FALSE;
		}
		*last = '\0';
	}
	if (!bs_conf_windows_parse(inner, &w, why))
		return FALSE;
	t = tz != NULL ? g_date_time_new_from_unix_utc(now) : g_date_time_new_from_unix_local(now);
	if (tz != NULL) {
		GDateTime *u = g_date_time_to_timezone(t, tz);

		g_date_time_unref(t);
		t = u;
	}
	*value = bs_conf_windows_open(w, t);
	return TRUE;
}

static gboolean
cond_active(const Lexer *lx)
{
	if (lx->conds->len == 0)
		return TRUE;
	return g_array_index(lx->conds, CondFrame, lx->conds->len - 1).active;
}

static gboolean
eval_or_report(Lexer *lx, const char *expr, int line)
{
	g_autoptr(GString) why = g_string_new(NULL);
	gboolean v = FALSE;

	if (!bs_lex_eval_time(expr, lx->now, &v, why)) {
		lex_error(lx, line, "bad #if expression: %s", why->str);
		return FALSE;
	}
	return v;
}

/* Returns the directive word length if `p` (left-trimmed) is one, else 0. */
static gsize
directive_len(const char *p, const char *word)
{
	gsize n = strlen(word);

	if (strncmp(p, word, n) != 0)
		return 0;
	if (p[n] != '\0' && !g_ascii_isspace(p[n]) && p[n] != '(')
		return 0;
	return n;
}

static void
do_if(Lexer *lx, const char *expr, int line)
{
	CondFrame f = { .line = line, .parent_active = cond_active(lx) };

	if (f.parent_active) {
		f.active = eval_or_report(lx, expr, line);
		f.taken = f.active;
	} else {
		f.taken = TRUE;
	}
	g_array_append_val(lx->conds, f);
}

static CondFrame *
top_frame(Lexer *lx, const char *what, int line)
{
	CondFrame *f;

	if (lx->conds->len == 0) {
		lex_error(lx, line, "%s without #if", what);
		return NULL;
	}
	f = &g_array_index(lx->conds, CondFrame, lx->conds->len - 1);
	if (f->seen_else && strcmp(what, "#endif") != 0) {
		lex_error(lx, line, "%s after #else (the #if is at line %d)", what, f->line);
		return NULL;
	}
	return f;
}

/* TRUE if the physical line was a directive (and was handled). */
static gboolean
handle_directive(Lexer *lx, const char *line_text, int line)
{
	const char *p = line_text;
	CondFrame *f;
	gsize n;

	while (g_ascii_isspace(*p))
		p++;
	if ((n = directive_len(p, "#if")) > 0) {
		do_if(lx, p + n, line);
	} else if ((n = directive_len(p, "#elif")) > 0) {
		if ((f = top_frame(lx, "#elif", line)) == NULL)
			return TRUE;
		if (f->parent_active && !f->taken) {
			f->active = eval_or_report(lx, p + n, line);
			f->taken = f->active;
		} else {
			f->active = FALSE;
		}
	} else if (directive_len(p, "#else") > 0) {
		if ((f = top_frame(lx, "#else", line)) == NULL)
			return TRUE;
		f->active = f->parent_active && !f->taken;
		f->taken = TRUE;
		f->seen_else = TRUE;
	} else if (directive_len(p, "#endif") > 0) {
		if (top_frame(lx, "#endif", line) != NULL)
			g_array_set_size(lx->conds, lx->conds->len - 1);
	} else {
		return FALSE;
	}
	return TRUE;
}

/* ---- logical lines ------------------------------------------------------ */

/* Cut a `#` comment that is not inside double quotes. */
static void
strip_comment(char *s)
{
	gboolean quoted = FALSE;

	for (char *p = s; *p != '\0'; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '#' && !quoted) {
			*p = '\0';
			return;
		}
	}
}

/* `KEY =` at the start of the line; returns the key length or 0. */
static gsize
pair_key_len(const char *s)
{
	gsize n = 0;

	if (!g_ascii_isalpha(s[0]) && s[0] != '_')
		return 0;
	while (g_ascii_isalnum(s[n]) || s[n] == '_')
		n++;
	for (gsize i = n; s[i] != '\0'; i++) {
		if (s[i] == '=')
			return n;
		if (!g_ascii_isspace(s[i]))
			return 0;
	}
	return 0;
}

static void
add_pair(Lexer *lx, const char *s, gsize klen, int line)
{
	g_autofree char *key = g_strndup(s, klen);
	char *upper = g_ascii_strup(key, -1);
	gpointer first;
	BsLexPair *pair;

	if (g_hash_table_lookup_extended(lx->cur_keys, upper, NULL, &first)) {
		lex_error(lx, line, "duplicate %s (first set at line %d)", key,
		    GPOINTER_TO_INT(first));
		g_free(upper);
		return;
	}
	g_hash_table_insert(lx->cur_keys, upper, GINT_TO_POINTER(line));
	pair = g_new0(BsLexPair, 1);
	pair->key = g_steal_pointer(&key);
	pair->value = g_strstrip(g_strdup(strchr(s + klen, '=') + 1));
	pair->line = line;
	g_ptr_array_add(lx->cur->pairs, pair);
}

/* Read one cell starting at *pp; NULL (after a diagnostic) on bad syntax. */
static BsLexCell *
read_cell(Lexer *lx, const char **pp, int line)
{
	const char *p = *pp, *start = p;
	BsLexCell *c = g_new0(BsLexCell, 1);
	int depth = 0;

	if (*p == '"') {
		const char *q = strchr(p + 1, '"');

		if (q == NULL)
			goto unterminated;
		c->kind = BS_CELL_QUOTED;
		c->text = g_strndup(p + 1, (gsize)(q - p - 1));
		*pp = q + 1;
		return c;
	}
	if (*p == '(') {
		for (; *p != '\0'; p++) {
			depth += (*p == '(') - (*p == ')');
			if (depth == 0)
				break;
		}
		if (*p == '\0')
			goto unterminated;
		c->kind = BS_CELL_GROUP;
		c->text = g_strstrip(g_strndup(start + 1, (gsize)(p - start - 1)));
		*pp = p + 1;
		return c;
	}
	/* A word; `[...]` inside it may hold blanks (select[a && b]). */
	for (; *p != '\0'; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		else if (depth == 0 && (g_ascii_isspace(*p) || *p == '(' || *p == '"'))
			break;
		else if (*p == ')')
			goto unterminated;
	}
	if (depth != 0)
		goto unterminated;
	c->kind = BS_CELL_WORD;
	c->text = g_strndup(start, (gsize)(p - start));
	*pp = p;
	return c;
unterminated:
	lex_error(lx, line, "unbalanced quotes, parentheses or brackets in row");
	cell_free(c);
	return NULL;
}

static void
add_header(Lexer *lx, const char *s, int line)
{
	g_auto(GStrv) words = g_strsplit_set(s, " \t", -1);

	lx->cur->header_line = line;
	for (guint i = 0; words[i] != NULL; i++) {
		if (words[i][0] == '\0')
			continue;
		if (bs_lex_column(lx->cur, words[i]) >= 0) {
			lex_error(lx, line, "duplicate column %s", words[i]);
			continue;
		}
		g_ptr_array_add(lx->cur->columns, g_strdup(words[i]));
	}
}

static void
add_row(Lexer *lx, const char *s, int line)
{
	BsLexRow *row = g_new0(BsLexRow, 1);
	const char *p = s;

	row->line = line;
	row->cells = g_ptr_array_new_with_free_func(cell_free);
	for (;;) {
		BsLexCell *c;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '\0')
			break;
		if ((c = read_cell(lx, &p, line)) == NULL) {
			row_free(row);
			return;
		}
		g_ptr_array_add(row->cells, c);
	}
	if (row->cells->len != lx->cur->columns->len) {
		lex_error(lx, line, "row has %u values but the %s header at line %d has %u columns",
		    row->cells->len, lx->cur->name, lx->cur->header_line, lx->cur->columns->len);
		row_free(row);
		return;
	}
	g_ptr_array_add(lx->cur->rows, row);
}

static void
section_line(Lexer *lx, const char *s, int line)
{
	BsLexSection *sec = lx->cur;
	gsize klen = pair_key_len(s);
	gboolean first = sec->pairs->len == 0 && sec->columns->len == 0;

	if (first && !sec->table && klen == 0 &&
	    (sec->name == NULL || name_in(sec->name, horizontal_sections))) {
		lex_error(lx, line, "expected KEY = value in section %s",
		    sec->name != NULL ? sec->name : "(none)");
		return;
	}
	if (first && !sec->table && klen == 0)
		sec->table = TRUE;
	if (!sec->table) {
		if (klen == 0)
			lex_error(lx, line, "expected KEY = value in section %s",
			    sec->name != NULL ? sec->name : "(none)");
		else
			add_pair(lx, s, klen, line);
	} else if (sec->columns->len == 0) {
		add_header(lx, s, line);
	} else {
		add_row(lx, s, line);
	}
}

static void
begin_end(Lexer *lx, gboolean begin, const char *name, int line)
{
	if (begin) {
		if (lx->cur != NULL) {
			lex_error(lx, line, "Begin %s inside section %s begun at line %d (missing End %s?)",
			    name, lx->cur->name, lx->cur->line, lx->cur->name);
			close_section(lx);
		}
		open_section(lx, name, line);
		return;
	}
	if (lx->cur == NULL)
		lex_error(lx, line, "End %s without Begin %s", name, name);
	else if (g_ascii_strcasecmp(name, lx->cur->name) != 0)
		lex_error(lx, line, "End %s does not match Begin %s at line %d",
		    name, lx->cur->name, lx->cur->line);
	close_section(lx);
}

static void
logical_line(Lexer *lx, char *s, int line)
{
	g_auto(GStrv) w = NULL;
	gboolean begin, end;

	g_strstrip(s);
	if (*s == '\0')
		return;
	w = g_strsplit_set(s, " \t", 3);
	begin = g_ascii_strcasecmp(w[0], "Begin") == 0;
	end = g_ascii_strcasecmp(w[0], "End") == 0;
	if (lx->mode == BS_LEX_FLAT) {
		if (begin || end)
			lex_error(lx, line, "sections are not used in %s", lx->name);
		else
			section_line(lx, s, line);
		return;
	}
	if (begin || end) {
		if (w[1] == NULL || w[1][0] == '\0') {
			lex_error(lx, line, "%s without a section name", w[0]);
			return;
		}
		begin_end(lx, begin, w[1], line);
		return;
	}
	if (lx->cur == NULL) {
		lex_error(lx, line, "text outside a section: %.40s", s);
		return;
	}
	section_line(lx, s, line);
}

static void
finish(Lexer *lx)
{
	for (guint i = 0; i < lx->conds->len; i++)
		lex_error(lx, g_array_index(lx->conds, CondFrame, i).line, "#if without #endif");
	if (lx->mode == BS_LEX_SECTIONS && lx->cur != NULL)
		lex_error(lx, lx->cur->line, "Begin %s without End %s", lx->cur->name, lx->cur->name);
	close_section(lx);
	g_array_unref(lx->conds);
}

/* Feed one physical line; `logical` accumulates continuations. */
static void
physical_line(Lexer *lx, char *p, int lineno, GString **logical, int *start)
{
	gsize n;
	gboolean cont;

	if (*logical == NULL && handle_directive(lx, p, lineno))
		return;
	if (!cond_active(lx))
		return;
	strip_comment(p);
	g_strchomp(p);
	n = strlen(p);
	cont = n > 0 && p[n - 1] == '\\';
	if (cont) {
		p[n - 1] = '\0';
		g_strchomp(p);
	}
	if (*logical == NULL) {
		*logical = g_string_new(p);
		*start = lineno;
	} else {
		g_string_append_c(*logical, ' ');
		g_string_append(*logical, g_strchug(p));
	}
	if ((*logical)->len > BS_LEX_MAX_VALUE) {
		lex_error(lx, *start, "value longer than %d characters", BS_LEX_MAX_VALUE);
		g_string_truncate(*logical, 0);
	}
	if (!cont) {
		logical_line(lx, (*logical)->str, *start);
		g_string_free(*logical, TRUE);
		*logical = NULL;
	}
}

BsLexFile *
bs_lex_text(const char *name, const char *text, gsize len, BsLexMode mode,
    gint64 now, BsDiags *diags)
{
	Lexer lx = { .name = name, .diags = diags, .mode = mode, .now = now };
	GString *logical = NULL;
	gsize pos = 0;
	int lineno = 0, start = 0;

	lx.file = g_new0(BsLexFile, 1);
	lx.file->name = g_strdup(name);
	lx.file->sections = g_ptr_array_new_with_free_func((GDestroyNotify)bs_lex_section_free);
	lx.conds = g_array_new(FALSE, FALSE, sizeof(CondFrame));
	if (mode == BS_LEX_FLAT)
		open_section(&lx, NULL, 1);
	if (memchr(text, '\0', len) != NULL) {
		lex_error(&lx, 0, "file contains a NUL byte");
		len = 0;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		gsize plen = nl != NULL ? (gsize)(nl - (text + pos)) : len - pos;
		g_autofree char *p = NULL;

		lineno++;
		if (plen > 0 && text[pos + plen - 1] == '\r')
			plen--;
		if (plen > BS_LEX_MAX_LINE) {
			lex_error(&lx, lineno, "line longer than %d characters", BS_LEX_MAX_LINE);
		} else {
			p = g_strndup(text + pos, plen);
			physical_line(&lx, p, lineno, &logical, &start);
		}
		pos = nl != NULL ? (gsize)(nl - text) + 1 : len;
	}
	if (logical != NULL) {
		logical_line(&lx, logical->str, start);
		g_string_free(logical, TRUE);
	}
	finish(&lx);
	return lx.file;
}
