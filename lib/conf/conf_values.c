/*
 * Structured LSF values shared by several files: share lists
 * `[name, n] ...`, load thresholds `sched/stop`, and keyword lists with
 * bracketed arguments `PREEMPTIVE[a b+1] PREEMPTABLE`.  Pure parsers: a
 * value or a reason.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_schema.h"

void
bs_conf_share_free(gpointer p)
{
	BsShare *s = p;

	g_free(s->name);
	g_free(s);
}

/* One `[name, n]` at *pp. */
static BsShare *
parse_one_share(const char **pp, GString *why)
{
	const char *p = *pp + 1, *close = strchr(p, ']'), *comma;
	g_autofree char *name = NULL, *num = NULL;
	BsShare *sh;
	int n;

	if (close == NULL || (comma = memchr(p, ',', (gsize)(close - p))) == NULL) {
		g_string_append(why, "expected [name, shares]");
		return NULL;
	}
	name = g_strstrip(g_strndup(p, (gsize)(comma - p)));
	num = g_strstrip(g_strndup(comma + 1, (gsize)(close - comma - 1)));
	if (name[0] == '\0' || strpbrk(name, " \t[") != NULL) {
		g_string_append(why, "expected [name, shares]");
		return NULL;
	}
	if (!bs_conf_parse_int(num, 1, G_MAXINT32, &n, why)) {
		g_string_prepend(why, "shares: ");
		return NULL;
	}
	sh = g_new0(BsShare, 1);
	sh->name = g_steal_pointer(&name);
	sh->shares = n;
	*pp = close + 1;
	return sh;
}

gboolean
bs_conf_parse_shares(const char *s, GPtrArray **out, GString *why)
{
	g_autoptr(GPtrArray) arr = g_ptr_array_new_with_free_func(bs_conf_share_free);
	const char *p = s;

	for (;;) {
		BsShare *sh;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '\0')
			break;
		if (*p != '[') {
			g_string_append(why, "expected [name, shares]");
			return FALSE;
		}
		if ((sh = parse_one_share(&p, why)) == NULL)
			return FALSE;
		g_ptr_array_add(arr, sh);
	}
	if (arr->len == 0) {
		g_string_append(why, "no [name, shares] given");
		return FALSE;
	}
	*out = g_steal_pointer(&arr);
	return TRUE;
}

void
bs_conf_threshold_free(gpointer p)
{
	BsLoadThreshold *t = p;

	g_free(t->index);
	g_free(t);
}

gboolean
bs_conf_parse_threshold(const char *index, const char *s, BsLoadThreshold **out,
    GString *why)
{
	g_auto(GStrv) parts = g_strsplit(s, "/", -1);
	BsLoadThreshold t = { 0 };
	guint n = g_strv_length(parts);

	if (n < 1 || n > 2) {
		g_string_append(why, "expected sched/stop");
		return FALSE;
	}
	if (parts[0][0] != '\0') {
		if (!bs_conf_parse_double(parts[0], -G_MAXDOUBLE, G_MAXDOUBLE, &t.sched, why))
			return FALSE;
		t.has_sched = TRUE;
	}
	if (n == 2 && parts[1][0] != '\0') {
		if (!bs_conf_parse_double(parts[1], -G_MAXDOUBLE, G_MAXDOUBLE, &t.stop, why))
			return FALSE;
		t.has_stop = TRUE;
	}
	if (!t.has_sched && !t.has_stop) {
		g_string_append(why, "expected sched/stop");
		return FALSE;
	}
	*out = g_new0(BsLoadThreshold, 1);
	**out = t;
	(*out)->index = g_strdup(index);
	return TRUE;
}

static void
kwarg_free(gpointer p)
{
	BsKwArg *a = p;

	g_free(a->name);
	g_free(a->arg);
	g_free(a);
}

/* The text inside balanced brackets starting at p ('['); NULL if unbalanced. */
static char *
bracket_body(const char *p, const char **end)
{
	int depth = 0;

	for (const char *q = p; *q != '\0'; q++) {
		depth += (*q == '[') - (*q == ']');
		if (depth == 0) {
			*end = q + 1;
			return g_strndup(p + 1, (gsize)(q - p - 1));
		}
	}
	return NULL;
}

gboolean
bs_conf_parse_kwargs(const char *s, GPtrArray **out, GString *why)
{
	g_autoptr(GPtrArray) arr = g_ptr_array_new_with_free_func(kwarg_free);
	const char *p = s;

	for (;;) {
		const char *start;
		BsKwArg *a;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '\0')
			break;
		start = p;
		while (g_ascii_isalnum(*p) || *p == '_')
			p++;
		if (p == start) {
			g_string_append_printf(why, "unexpected '%c'", *p);
			return FALSE;
		}
		a = g_new0(BsKwArg, 1);
		a->name = g_strndup(start, (gsize)(p - start));
		g_ptr_array_add(arr, a);
		if (*p == '[' && (a->arg = bracket_body(p, &p)) == NULL) {
			g_string_append_printf(why, "unbalanced [ after %s", a->name);
			return FALSE;
		}
		if (*p != '\0' && !g_ascii_isspace(*p)) {
			g_string_append_printf(why, "unexpected '%c' after %s", *p, a->name);
			return FALSE;
		}
	}
	*out = g_steal_pointer(&arr);
	return TRUE;
}

typedef struct {
	const BsConfCtx *ctx;
	const char *what;
	BsGroupMembersFn members;
	gconstpointer data;
	GHashTable *state;      /* name -> 1 on the path, 2 done */
	GPtrArray *path;
} CycleSearch;

static char *
member_group_name(const char *m)
{
	gsize n;

	if (m[0] == '~')
		m++;
	n = strlen(m);
	return g_strndup(m, n > 0 && m[n - 1] == '@' ? n - 1 : n);
}

static void
visit(CycleSearch *cs, const char *name)
{
	int line = 0;
	const char *const *mem = cs->members(cs->data, name, &line);

	g_hash_table_insert(cs->state, g_strdup(name), GINT_TO_POINTER(1));
	g_ptr_array_add(cs->path, g_strdup(name));
	for (guint i = 0; mem != NULL && mem[i] != NULL; i++) {
		g_autofree char *m = member_group_name(mem[i]);
		int sub_line, st;

		if (cs->members(cs->data, m, &sub_line) == NULL)
			continue;
		st = GPOINTER_TO_INT(g_hash_table_lookup(cs->state, m));
		if (st == 1) {
			g_autoptr(GString) cyc = g_string_new(NULL);
			guint j = 0;

			while (strcmp(cs->path->pdata[j], m) != 0)
				j++;
			for (; j < cs->path->len; j++)
				g_string_append_printf(cyc, "%s -> ", (char *)cs->path->pdata[j]);
			g_string_append(cyc, m);
			ctx_error(cs->ctx, line, "%s cycle: %s", cs->what, cyc->str);
		} else if (st == 0) {
			visit(cs, m);
		}
	}
	g_ptr_array_set_size(cs->path, cs->path->len - 1);
	g_hash_table_insert(cs->state, g_strdup(name), GINT_TO_POINTER(2));
}

void
bs_conf_find_cycles(const BsConfCtx *ctx, const char *what, GPtrArray *names,
    BsGroupMembersFn members, gconstpointer data)
{
	CycleSearch cs = { ctx, what, members, data,
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
	    g_ptr_array_new_with_free_func(g_free) };

	for (guint i = 0; i < names->len; i++)
		if (!g_hash_table_contains(cs.state, names->pdata[i]))
			visit(&cs, names->pdata[i]);
	g_hash_table_unref(cs.state);
	g_ptr_array_unref(cs.path);
}
