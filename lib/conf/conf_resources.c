/*
 * lsb.resources: section skeleton (lsf-reference.md 3.4, 5.4, 5.5).
 *
 * Limit sections are typed by conf_limits.c (r->limits), HostExport
 * sections by conf_export.c (r->exports).  Every section (Limit,
 * HostExport, SharedResourceExport, GuaranteedResourcePool, HybridPlan and
 * HybridConsumer) is also kept as a generic record (keys or rows with
 * their line numbers), so the pool and hybrid work can type them later
 * without re-reading the file.  What is cheap to check now is checked:
 * the required keys of SharedResourceExport and that its DISTRIBUTION is a
 * `([name, n] ...)` share list.  Other sections are warnings.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_internal.h"

static const char *const known_sections[] = {
	"Limit", "HostExport", "SharedResourceExport", "GuaranteedResourcePool",
	"HybridPlan", "HybridConsumer", NULL,
};

static void
pair_free(gpointer p)
{
	BsConfPair *pr = p;

	g_free(pr->key);
	g_free(pr->value);
	g_free(pr);
}

static void
section_free(gpointer p)
{
	BsResourceSection *s = p;

	g_free(s->kind);
	g_ptr_array_unref(s->pairs);
	g_ptr_array_unref(s->columns);
	g_ptr_array_unref(s->rows);
	g_ptr_array_unref(s->row_lines);
	g_free(s);
}

BsResourcesConf *
bs_conf_resources_new(void)
{
	BsResourcesConf *r = g_new0(BsResourcesConf, 1);

	r->sections = g_ptr_array_new_with_free_func(section_free);
	r->limits = g_ptr_array_new_with_free_func(bs_conf_limit_free);
	r->exports = g_ptr_array_new_with_free_func(bs_conf_export_free);
	r->imports = g_ptr_array_new_with_free_func(bs_conf_import_free);
	return r;
}

void
bs_conf_resources_free(BsResourcesConf *r)
{
	if (r == NULL)
		return;
	g_ptr_array_unref(r->sections);
	g_ptr_array_unref(r->limits);
	g_ptr_array_unref(r->exports);
	g_ptr_array_unref(r->imports);
	g_free(r);
}

static BsResourceSection *
copy_section(const BsLexSection *ls)
{
	BsResourceSection *s = g_new0(BsResourceSection, 1);

	s->kind = g_strdup(ls->name);
	s->line = ls->line;
	s->pairs = g_ptr_array_new_with_free_func(pair_free);
	s->columns = g_ptr_array_new_with_free_func(g_free);
	s->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	s->row_lines = g_ptr_array_new();
	for (guint i = 0; i < ls->pairs->len; i++) {
		const BsLexPair *lp = ls->pairs->pdata[i];
		BsConfPair *pr = g_new0(BsConfPair, 1);

		pr->key = g_strdup(lp->key);
		pr->value = g_strdup(lp->value);
		pr->line = lp->line;
		g_ptr_array_add(s->pairs, pr);
	}
	for (guint i = 0; i < ls->columns->len; i++)
		g_ptr_array_add(s->columns, g_strdup(ls->columns->pdata[i]));
	for (guint i = 0; i < ls->rows->len; i++) {
		const BsLexRow *lr = ls->rows->pdata[i];
		GPtrArray *row = g_ptr_array_new_with_free_func(g_free);

		for (guint c = 0; c < lr->cells->len; c++)
			g_ptr_array_add(row, g_strdup(((BsLexCell *)lr->cells->pdata[c])->text));
		g_ptr_array_add(s->rows, row);
		g_ptr_array_add(s->row_lines, GINT_TO_POINTER(lr->line));
	}
	return s;
}

static const BsConfPair *
find_pair(const BsResourceSection *s, const char *key)
{
	for (guint i = 0; i < s->pairs->len; i++)
		if (g_ascii_strcasecmp(((BsConfPair *)s->pairs->pdata[i])->key, key) == 0)
			return s->pairs->pdata[i];
	return NULL;
}

static void
check_distribution(const BsConfCtx *ctx, const BsResourceSection *s)
{
	const BsConfPair *d = find_pair(s, "DISTRIBUTION");
	g_autoptr(GString) why = g_string_new(NULL);
	g_autoptr(GPtrArray) shares = NULL;
	g_autofree char *v = NULL;
	gsize n;

	if (d == NULL) {
		ctx_error(ctx, s->line, "%s section without DISTRIBUTION", s->kind);
		return;
	}
	v = g_strdup(d->value);
	n = strlen(v);
	if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
		v[n - 1] = '\0';
		v[0] = ' ';
	}
	if (!bs_conf_parse_shares(v, &shares, why))
		ctx_error(ctx, d->line, "bad value '%s' for DISTRIBUTION: %s", d->value, why->str);
}

static void
require(const BsConfCtx *ctx, const BsResourceSection *s, const char *key, const char *why)
{
	if (find_pair(s, key) == NULL)
		ctx_error(ctx, s->line, "%s section without %s%s", s->kind, key, why);
}

static void
check_export(const BsConfCtx *ctx, const BsResourceSection *s)
{
	if (g_ascii_strcasecmp(s->kind, "SharedResourceExport") == 0) {
		require(ctx, s, "NAME", "");
		require(ctx, s, "NINSTANCES", "");
		check_distribution(ctx, s);
		return;
	}
	/* HostExport is typed by conf_export.c. */
}

void
bs_conf_resources_load(BsResourcesConf *r, const BsConfCtx *ctx, const BsLexFile *f)
{
	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *ls = f->sections->pdata[i];
		gboolean known = FALSE;

		for (guint k = 0; known_sections[k] != NULL; k++)
			known |= g_ascii_strcasecmp(ls->name, known_sections[k]) == 0;
		if (!known) {
			bs_conf_unknown_section(ctx, ls);
			continue;
		}
		g_ptr_array_add(r->sections, copy_section(ls));
		if (g_ascii_strcasecmp(ls->name, "Limit") == 0)
			bs_conf_limits_load(r, ctx, ls);
		if (g_ascii_strcasecmp(ls->name, "HostExport") == 0)
			bs_conf_export_load(r, ctx, r->sections->pdata[r->sections->len - 1]);
		check_export(ctx, r->sections->pdata[r->sections->len - 1]);
	}
}
