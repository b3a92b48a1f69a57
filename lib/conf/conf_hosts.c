/*
 * lsb.hosts: the Host table (slots, per-user limits, dispatch windows, load
 * thresholds per host, model, type or `default`) and the HostGroup table
 * (lsf-reference.md 3.1, 3.2).
 *
 * Group rules enforced here: names must not be reserved words, must be
 * unique, and groups must not contain themselves through nesting (a cycle
 * is an error at the group that closes it).  Whether member and Host row
 * names are cluster hosts is a cross-file check (conf_check.c).  Expansion
 * (nested groups, `all`, `~` exclusion) is here too, used by the lookups.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

#define H(f) offsetof(BsHostConf, f)
#define IMAX 2147483647.0

static gboolean
parse_mxj(const BsConfKey *k, const char *value, void *field, GString *why)
{
	if (strcmp(value, "!") == 0) {
		*(int *)field = BS_CONF_MXJ_NCPUS;
		return TRUE;
	}
	return bs_conf_parse_int(value, 0, IMAX, field, why);
}

static const BsConfKey host_table[] = {
	{ "MXJ", BS_CT_CUSTOM, .offset = H(mxj), .parse = parse_mxj },
	{ "JL/U", BS_CT_INT, .offset = H(jl_u), 0, IMAX, .def = "-1" },
	{ "DISPATCH_WINDOW", BS_CT_WINDOWS, .offset = H(dispatch_window) },
	{ "MIG", BS_CT_INT, .offset = H(mig), 0, IMAX, .def = "-1" },
	{ NULL },
};
static const char *const host_extra_columns[] = { "HOST_NAME", NULL };
static const char *const group_columns[] = {
	"GROUP_NAME", "GROUP_MEMBER", "CONDENSE", "GROUP_ADMIN", NULL,
};
static const BsConfKey no_keys[] = { { NULL } };
static const char *const reserved_group_names[] = {
	"all", "others", "none", "allremote", "default", NULL,
};

static void
host_free(gpointer p)
{
	BsHostConf *h = p;

	bs_conf_schema_clear(host_table, h);
	g_free(h->name);
	if (h->load_thresholds != NULL)
		g_ptr_array_unref(h->load_thresholds);
	g_free(h);
}

static void
group_free(gpointer p)
{
	BsHostGroupConf *g = p;

	g_free(g->name);
	g_strfreev(g->members);
	g_free(g);
}

BsHostsConf *
bs_conf_hosts_new(void)
{
	BsHostsConf *h = g_new0(BsHostsConf, 1);

	h->hosts = g_ptr_array_new_with_free_func(host_free);
	h->host_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	h->groups = g_ptr_array_new_with_free_func(group_free);
	h->group_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	return h;
}

void
bs_conf_hosts_free(BsHostsConf *h)
{
	if (h == NULL)
		return;
	g_hash_table_unref(h->host_by_name);
	g_hash_table_unref(h->group_by_name);
	g_ptr_array_unref(h->hosts);
	g_ptr_array_unref(h->groups);
	g_free(h);
}

static void
host_cell(const BsConfCtx *ctx, BsHostConf *h, const char *col, const BsLexCell *c, int line)
{
	const BsConfKey *k = bs_conf_schema_find(host_table, col);
	g_autoptr(GString) why = g_string_new(NULL);
	BsLoadThreshold *t;

	if (k != NULL) {
		bs_conf_set_cell(ctx, k, h, c, line);
		return;
	}
	if (!bs_conf_is_load_index(col) || bs_lex_cell_is_default(c))
		return;
	if (!bs_conf_parse_threshold(col, c->text, &t, why)) {
		ctx_error(ctx, line, "bad value '%s' for %s: %s", c->text, col, why->str);
		return;
	}
	if (h->load_thresholds == NULL)
		h->load_thresholds = g_ptr_array_new_with_free_func(bs_conf_threshold_free);
	g_ptr_array_add(h->load_thresholds, t);
}

static void
load_host_section(BsHostsConf *hc, const BsConfCtx *ctx, const BsLexSection *s)
{
	int name_col = bs_lex_column(s, "HOST_NAME");

	if (name_col < 0) {
		if (s->columns->len > 0 || s->rows->len > 0)
			ctx_error(ctx, s->header_line > 0 ? s->header_line : s->line,
			    "Host section without a HOST_NAME column");
		return;
	}
	bs_conf_check_columns(ctx, s, host_table, host_extra_columns);
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		const BsLexCell *nc = r->cells->pdata[name_col];
		const BsHostConf *first = g_hash_table_lookup(hc->host_by_name, nc->text);
		BsHostConf *h;

		if (!bs_conf_valid_name(nc->text, TRUE)) {
			ctx_error(ctx, r->line, "bad host name '%s'", nc->text);
			continue;
		}
		if (first != NULL) {
			ctx_error(ctx, r->line, "duplicate host %s (first at line %d)",
			    nc->text, first->line);
			continue;
		}
		h = g_new0(BsHostConf, 1);
		bs_conf_schema_init(host_table, h);
		h->mxj = BS_CONF_UNLIMITED;
		h->name = g_strdup(nc->text);
		h->line = r->line;
		for (guint c = 0; c < r->cells->len; c++)
			if ((int)c != name_col)
				host_cell(ctx, h, s->columns->pdata[c], r->cells->pdata[c], r->line);
		g_ptr_array_add(hc->hosts, h);
		g_hash_table_insert(hc->host_by_name, h->name, h);
	}
}

static gboolean
name_in(const char *name, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(name, *list) == 0)
			return TRUE;
	return FALSE;
}

static BsHostGroupConf *
group_from_row(const BsConfCtx *ctx, const BsLexCell *nc, const BsLexCell *mc, int line)
{
	BsHostGroupConf *g;

	if (!bs_conf_valid_name(nc->text, TRUE)) {
		ctx_error(ctx, line, "bad host group name '%s'", nc->text);
		return NULL;
	}
	if (name_in(nc->text, reserved_group_names)) {
		ctx_error(ctx, line, "host group name %s is reserved", nc->text);
		return NULL;
	}
	g = g_new0(BsHostGroupConf, 1);
	g->name = g_strdup(nc->text);
	g->line = line;
	g->members = bs_conf_split_words(mc->kind == BS_CELL_WORD && strcmp(mc->text, "-") == 0 ?
	    "" : mc->text);
	for (guint i = 0; g->members[i] != NULL; i++) {
		g->allremote |= strcmp(g->members[i], "allremote") == 0;
		g->egroup |= strcmp(g->members[i], "!") == 0;
	}
	if (g->egroup)
		ctx_warning(ctx, line, "host group %s: egroup membership (!) is not supported, "
		    "the group is empty", g->name);
	return g;
}

static void
load_group_section(BsHostsConf *hc, const BsConfCtx *ctx, const BsLexSection *s)
{
	int nc = bs_lex_column(s, "GROUP_NAME"), mc = bs_lex_column(s, "GROUP_MEMBER");

	if (nc < 0 || mc < 0) {
		if (s->columns->len > 0)
			ctx_error(ctx, s->header_line,
			    "HostGroup section needs GROUP_NAME and GROUP_MEMBER columns");
		return;
	}
	bs_conf_check_columns(ctx, s, no_keys, group_columns);
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		const BsHostGroupConf *first;
		BsHostGroupConf *g = group_from_row(ctx, r->cells->pdata[nc], r->cells->pdata[mc],
		    r->line);

		if (g == NULL)
			continue;
		if ((first = g_hash_table_lookup(hc->group_by_name, g->name)) != NULL) {
			ctx_error(ctx, r->line, "duplicate host group %s (first at line %d)",
			    g->name, first->line);
			group_free(g);
			continue;
		}
		g_ptr_array_add(hc->groups, g);
		g_hash_table_insert(hc->group_by_name, g->name, g);
	}
}

static const char *const *
group_members(gconstpointer data, const char *name, int *line)
{
	const BsHostGroupConf *g = g_hash_table_lookup(((const BsHostsConf *)data)->group_by_name,
	    name);

	if (g == NULL)
		return NULL;
	*line = g->line;
	return (const char *const *)g->members;
}

void
bs_conf_hosts_load(BsHostsConf *hc, const BsConfCtx *ctx, const BsLexFile *f)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		if (g_ascii_strcasecmp(s->name, "Host") == 0 && s->table)
			load_host_section(hc, ctx, s);
		else if (g_ascii_strcasecmp(s->name, "HostGroup") == 0 && s->table)
			load_group_section(hc, ctx, s);
		else
			bs_conf_unknown_section(ctx, s);
	}
	for (guint i = 0; i < hc->groups->len; i++)
		g_ptr_array_add(names, ((BsHostGroupConf *)hc->groups->pdata[i])->name);
	bs_conf_find_cycles(ctx, "host group", names, group_members, hc);
}

/* ---- expansion -------------------------------------------------------- */

/* Add the local hosts a member word names to `in` or, with `~`, to `out`.
 * `depth` stops runaway recursion should a cycle slip through. */
void
bs_conf_expand_word(const BsConfig *cfg, const char *word, gboolean exclude,
    GHashTable *in, GHashTable *out, int depth)
{
	GHashTable *to = exclude ? out : in;
	const BsHostGroupConf *g;

	if (word[0] == '~') {
		bs_conf_expand_word(cfg, word + 1, !exclude, in, out, depth);
		return;
	}
	if (strcmp(word, "all") == 0) {
		for (guint i = 0; cfg->cluster != NULL && i < cfg->cluster->hosts->len; i++)
			g_hash_table_add(to, ((BsClusterHost *)cfg->cluster->hosts->pdata[i])->name);
		return;
	}
	g = cfg->hosts != NULL ? g_hash_table_lookup(cfg->hosts->group_by_name, word) : NULL;
	if (g != NULL && depth < 64) {
		/* A group's own exclusions apply inside the group. */
		g_autoptr(GHashTable) gin = g_hash_table_new(g_str_hash, g_str_equal);
		g_autoptr(GHashTable) gout = g_hash_table_new(g_str_hash, g_str_equal);
		GHashTableIter it;
		gpointer k;

		for (guint i = 0; g->members[i] != NULL; i++)
			bs_conf_expand_word(cfg, g->members[i], FALSE, gin, gout, depth + 1);
		g_hash_table_iter_init(&it, gin);
		while (g_hash_table_iter_next(&it, &k, NULL))
			if (!g_hash_table_contains(gout, k))
				g_hash_table_add(to, k);
		return;
	}
	if (cfg->cluster != NULL && g_hash_table_contains(cfg->cluster->host_by_name, word))
		g_hash_table_add(to, ((BsClusterHost *)g_hash_table_lookup(
		    cfg->cluster->host_by_name, word))->name);
}

/* The cluster hosts in `in` and not in `out`, in cluster order. */
char **
bs_conf_hosts_in_order(const BsConfig *cfg, GHashTable *in, GHashTable *out)
{
	GPtrArray *r = g_ptr_array_new();

	for (guint i = 0; cfg->cluster != NULL && i < cfg->cluster->hosts->len; i++) {
		const char *n = ((BsClusterHost *)cfg->cluster->hosts->pdata[i])->name;

		if (g_hash_table_contains(in, n) && !g_hash_table_contains(out, n))
			g_ptr_array_add(r, g_strdup(n));
	}
	g_ptr_array_add(r, NULL);
	return (char **)g_ptr_array_free(r, FALSE);
}
