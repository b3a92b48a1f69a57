/*
 * lsb.resources Limit sections, typed (lsb.resources(5)).  Both forms LSF
 * accepts are read into the same BsLimitConf:
 *
 *   Begin Limit                    Begin Limit
 *   NAME     = lim1                NAME  USERS        QUEUES  SLOTS  MEM
 *   PER_USER = all ~root           lim2  (u1 u2)      normal  4      -
 *   QUEUES   = normal              lim3  -            short   -      500
 *   SLOTS    = 2                   End Limit
 *   End Limit
 *
 * The first is one limit; in the second every row is one.  Consumers are
 * USERS, QUEUES, HOSTS, PROJECTS and APPS (all members together) or their
 * PER_ forms (each member apart), each a list of names and groups with
 * `all` and `~name` exclusions (only after `all`); in a PER_ list a group
 * written `name/` is one consumer as a whole.  Resources are SLOTS,
 * SLOTS_PER_PROCESSOR, JOBS, MEM, SWP, TMP (MB, or N% with PER_HOST) and
 * RESOURCE = [name,n] ... for numeric resources.  A section needs at least
 * one resource; a bad value, a keyword and its PER_ form together, or a
 * duplicate NAME is an error at its line, so ckconfig and mbatchd -C
 * refuse the file rather than run with a limit half read.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "conf/conf_internal.h"

static const char *const cons_words[BS_LIMIT_NCONS][2] = {
	{ "USERS", "PER_USER" },
	{ "QUEUES", "PER_QUEUE" },
	{ "HOSTS", "PER_HOST" },
	{ "PROJECTS", "PER_PROJECT" },
	{ "APPS", "PER_APP" },
};

const char *
bs_limit_cons_keyword(BsLimitConsKind k, gboolean per)
{
	return cons_words[k][per ? 1 : 0];
}

static void
resource_free(gpointer p)
{
	BsLimitResource *r = p;

	g_free(r->name);
	g_free(r);
}

void
bs_conf_limit_free(gpointer p)
{
	BsLimitConf *l = p;

	g_free(l->name);
	for (int k = 0; k < BS_LIMIT_NCONS; k++) {
		g_strfreev(l->cons[k].names);
		g_strfreev(l->cons[k].excluded);
	}
	if (l->resources != NULL)
		g_ptr_array_unref(l->resources);
	g_free(l);
}

static BsLimitConf *
limit_new(int line)
{
	BsLimitConf *l = g_new0(BsLimitConf, 1);

	l->line = line;
	l->slots = BS_CONF_UNLIMITED;
	l->slots_per_processor = -1;
	l->jobs = BS_CONF_UNLIMITED;
	l->mem.value = l->swp.value = l->tmp.value = -1;
	return l;
}

/* A value that means "not set" in the column form. */
static gboolean
is_dash(const char *v)
{
	return v[0] == '\0' || strcmp(v, "-") == 0;
}

static gboolean
parse_cons(const char *value, BsLimitCons *c, gboolean per, GString *why)
{
	g_auto(GStrv) words = bs_conf_split_words(value);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) excl = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; words[i] != NULL; i++) {
		const char *w = words[i];

		if (strcmp(w, "all") == 0) {
			c->all = TRUE;
		} else if (w[0] == '~') {
			if (w[1] == '\0') {
				g_string_append(why, "'~' without a name");
				return FALSE;
			}
			g_ptr_array_add(excl, g_strdup(w + 1));
		} else if (strcmp(w, "/") == 0 || (w[0] == '/' && w[1] != '\0')) {
			g_string_append_printf(why, "'%s' is not a name", w);
			return FALSE;
		} else {
			g_ptr_array_add(names, g_strdup(w));
		}
	}
	if (excl->len > 0 && !c->all) {
		g_string_append(why, "'~name' is allowed only after 'all'");
		return FALSE;
	}
	if (!c->all && names->len == 0) {
		g_string_append(why, "no names given");
		return FALSE;
	}
	c->set = TRUE;
	c->per = per;
	g_ptr_array_add(names, NULL);
	g_ptr_array_add(excl, NULL);
	c->names = (char **)g_ptr_array_free(g_steal_pointer(&names), FALSE);
	c->excluded = (char **)g_ptr_array_free(g_steal_pointer(&excl), FALSE);
	return TRUE;
}

/* MEM, SWP, TMP: MB, or a percentage of each host's memory. */
static gboolean
parse_amount(const char *v, BsLimitAmount *a, GString *why)
{
	g_autofree char *s = g_strstrip(g_strdup(v));
	gsize n = strlen(s);

	a->percent = n > 0 && s[n - 1] == '%';
	if (a->percent)
		s[n - 1] = '\0';
	if (!bs_conf_parse_double(s, 0, a->percent ? 100 : 1e15, &a->value, why))
		return FALSE;
	return TRUE;
}

/* RESOURCE = [name,n] [name,n] ... */
static gboolean
parse_resources(const char *v, BsLimitConf *l, GString *why)
{
	const char *p = v;

	if (l->resources == NULL)
		l->resources = g_ptr_array_new_with_free_func(resource_free);
	for (;;) {
		const char *close, *comma;
		g_autofree char *name = NULL, *num = NULL;
		BsLimitResource *r;
		double d;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '\0')
			break;
		if (*p != '[' || (close = strchr(p, ']')) == NULL ||
		    (comma = memchr(p, ',', (gsize)(close - p))) == NULL) {
			g_string_append(why, "expected [resource,value]");
			return FALSE;
		}
		name = g_strstrip(g_strndup(p + 1, (gsize)(comma - p - 1)));
		num = g_strstrip(g_strndup(comma + 1, (gsize)(close - comma - 1)));
		if (name[0] == '\0' || strpbrk(name, " \t[") != NULL) {
			g_string_append(why, "expected [resource,value]");
			return FALSE;
		}
		if (!bs_conf_parse_double(num, 0, 1e15, &d, why))
			return FALSE;
		r = g_new0(BsLimitResource, 1);
		r->name = g_steal_pointer(&name);
		r->value = d;
		g_ptr_array_add(l->resources, r);
		p = close + 1;
	}
	if (l->resources->len == 0) {
		g_string_append(why, "no [resource,value] given");
		return FALSE;
	}
	return TRUE;
}

/* One KEY = value of a limit; FALSE with why for a bad value. *known is
 * FALSE for a key no Limit section has. */
static gboolean
set_key(BsLimitConf *l, const char *key, const char *value, gboolean *known,
    GString *why)
{
	*known = TRUE;
	for (int k = 0; k < BS_LIMIT_NCONS; k++)
		for (int per = 0; per < 2; per++) {
			if (g_ascii_strcasecmp(key, cons_words[k][per]) != 0)
				continue;
			if (l->cons[k].set) {
				g_string_append_printf(why, "%s and %s both given",
				    cons_words[k][0], cons_words[k][1]);
				return FALSE;
			}
			return parse_cons(value, &l->cons[k], per, why);
		}
	if (g_ascii_strcasecmp(key, "NAME") == 0) {
		if (strpbrk(value, " \t") != NULL || value[0] == '\0') {
			g_string_append(why, "a name is one word");
			return FALSE;
		}
		g_free(l->name);
		l->name = g_strdup(value);
		return TRUE;
	}
	if (g_ascii_strcasecmp(key, "SLOTS") == 0)
		return bs_conf_parse_int(value, 0, G_MAXINT32, &l->slots, why);
	if (g_ascii_strcasecmp(key, "JOBS") == 0)
		return bs_conf_parse_int(value, 0, G_MAXINT32, &l->jobs, why);
	if (g_ascii_strcasecmp(key, "SLOTS_PER_PROCESSOR") == 0)
		return bs_conf_parse_double(value, 0, 1e9, &l->slots_per_processor, why);
	if (g_ascii_strcasecmp(key, "MEM") == 0)
		return parse_amount(value, &l->mem, why);
	if (g_ascii_strcasecmp(key, "SWP") == 0)
		return parse_amount(value, &l->swp, why);
	if (g_ascii_strcasecmp(key, "TMP") == 0)
		return parse_amount(value, &l->tmp, why);
	if (g_ascii_strcasecmp(key, "RESOURCE") == 0)
		return parse_resources(value, l, why);
	*known = FALSE;
	return FALSE;
}

static gboolean
has_resource(const BsLimitConf *l)
{
	return l->slots >= 0 || l->slots_per_processor >= 0 || l->jobs >= 0 ||
	    l->mem.value >= 0 || l->swp.value >= 0 || l->tmp.value >= 0 ||
	    (l->resources != NULL && l->resources->len > 0);
}

/* Whole-limit rules, once every key is in; FALSE drops the limit. */
static gboolean
finish_limit(const BsConfCtx *ctx, BsResourcesConf *r, BsLimitConf *l)
{
	const BsLimitAmount *amt[] = { &l->mem, &l->swp, &l->tmp };
	static const char *const amt_names[] = { "MEM", "SWP", "TMP" };

	if (!has_resource(l)) {
		ctx_error(ctx, l->line, "Limit section without a resource "
		    "(SLOTS, SLOTS_PER_PROCESSOR, JOBS, MEM, SWP, TMP or RESOURCE)");
		return FALSE;
	}
	for (guint i = 0; i < G_N_ELEMENTS(amt); i++)
		if (amt[i]->value >= 0 && amt[i]->percent &&
		    !(l->cons[BS_LIMIT_HOSTS].set && l->cons[BS_LIMIT_HOSTS].per)) {
			ctx_error(ctx, l->line, "%s as a percentage needs PER_HOST",
			    amt_names[i]);
			return FALSE;
		}
	if (l->name == NULL) {
		guint unnamed = 0;

		for (guint i = 0; i < r->limits->len; i++)
			if (g_str_has_prefix(((BsLimitConf *)r->limits->pdata[i])->name,
			    "NONAME"))
				unnamed++;
		l->name = g_strdup_printf("NONAME%03u", unnamed);
	}
	for (guint i = 0; i < r->limits->len; i++)
		if (strcmp(((BsLimitConf *)r->limits->pdata[i])->name, l->name) == 0) {
			ctx_error(ctx, l->line, "Limit %s is defined twice (first at line %d)",
			    l->name, ((BsLimitConf *)r->limits->pdata[i])->line);
			return FALSE;
		}
	return TRUE;
}

static gboolean
apply(const BsConfCtx *ctx, BsLimitConf *l, const char *key, const char *value,
    int line)
{
	g_autoptr(GString) why = g_string_new(NULL);
	gboolean known;

	if (set_key(l, key, value, &known, why))
		return TRUE;
	if (!known)
		ctx_error(ctx, line, "unknown key %s in Limit section", key);
	else
		ctx_error(ctx, line, "bad value '%s' for %s: %s", value, key, why->str);
	return FALSE;
}

static void
add_limit(const BsConfCtx *ctx, BsResourcesConf *r, BsLimitConf *l, gboolean ok)
{
	if (ok && finish_limit(ctx, r, l))
		g_ptr_array_add(r->limits, l);
	else
		bs_conf_limit_free(l);
}

void
bs_conf_limits_load(BsResourcesConf *r, const BsConfCtx *ctx, const BsLexSection *s)
{
	if (!s->table) {
		BsLimitConf *l = limit_new(s->line);
		gboolean ok = TRUE;

		for (guint i = 0; i < s->pairs->len; i++) {
			const BsLexPair *p = s->pairs->pdata[i];

			ok &= apply(ctx, l, p->key, p->value, p->line);
		}
		add_limit(ctx, r, l, ok);
		return;
	}
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *row = s->rows->pdata[i];
		BsLimitConf *l = limit_new(row->line);
		gboolean ok = TRUE;

		for (guint c = 0; c < s->columns->len && c < row->cells->len; c++) {
			const BsLexCell *cell = row->cells->pdata[c];
			g_autofree char *v = g_strstrip(g_strdup(cell->text));

			/* `-` and `()` leave the column unset. */
			if (cell->kind != BS_CELL_QUOTED && is_dash(v))
				continue;
			ok &= apply(ctx, l, s->columns->pdata[c], v, row->line);
		}
		add_limit(ctx, r, l, ok);
	}
}

const BsLimitConf *
bs_config_limit(const BsConfig *cfg, const char *name)
{
	for (guint i = 0; cfg->resources != NULL && i < cfg->resources->limits->len; i++) {
		const BsLimitConf *l = cfg->resources->limits->pdata[i];

		if (strcmp(l->name, name) == 0)
			return l;
	}
	return NULL;
}

/* A name with the group-as-a-whole slash taken off. */
static char *
bare(const char *name)
{
	gsize n = strlen(name);

	return g_strndup(name, n > 1 && name[n - 1] == '/' ? n - 1 : n);
}

static gboolean
known_name(const BsConfig *cfg, BsLimitConsKind k, const char *name)
{
	switch (k) {
	case BS_LIMIT_QUEUES:
		return bs_config_queue(cfg, name) != NULL;
	case BS_LIMIT_HOSTS:
		return bs_config_cluster_host(cfg, name) != NULL ||
		    bs_config_host_group(cfg, name) != NULL;
	case BS_LIMIT_APPS:
		return bs_config_app(cfg, name) != NULL;
	default:
		/* Users need not be known to LSF; projects are free text. */
		return TRUE;
	}
}

void
bs_conf_limits_check(const BsConfig *cfg, const BsConfCtx *ctx)
{
	for (guint i = 0; cfg->resources != NULL && i < cfg->resources->limits->len; i++) {
		const BsLimitConf *l = cfg->resources->limits->pdata[i];

		for (int k = 0; k < BS_LIMIT_NCONS; k++) {
			const BsLimitCons *c = &l->cons[k];

			for (int pass = 0; c->set && pass < 2; pass++) {
				char **list = pass == 0 ? c->names : c->excluded;

				for (guint n = 0; list != NULL && list[n] != NULL; n++) {
					g_autofree char *b = bare(list[n]);

					if (!known_name(cfg, (BsLimitConsKind)k, b))
						ctx_warning(ctx, l->line, "Limit %s: %s names "
						    "unknown '%s'; ignored", l->name,
						    bs_limit_cons_keyword((BsLimitConsKind)k,
						    c->per), b);
				}
			}
		}
	}
}
