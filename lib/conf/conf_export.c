/*
 * lsb.resources HostExport sections, typed, and the consumer side of the
 * lease model gathered from lsb.queues HOSTS (lsf-reference.md 3.4, 3.6;
 * seeds/lsf-multicluster-shared-lease.txt; decisions.md "MultiCluster
 * shared lease").
 *
 * bs_conf_export_load() types one section as the file is read: the keys
 * and their values, each error at its own line.  bs_conf_exports_check()
 * runs with the other cross-file checks, once lsf.shared, lsb.hosts and
 * lsb.queues are known: DISTRIBUTION names clusters of lsf.shared (the
 * local one is dropped, as LSF ignores it), PER_HOST names hosts of this
 * cluster, and the shared-lease rules of the seed: "each host can only be
 * exported to a single consumer cluster" (so PER_HOST with TYPE = shared
 * names one consumer, and no other export gives that host to another
 * one).  The seed's "shared lease is not compatible with advance
 * reservation" has nothing to check: Basalt has no advance reservations
 * (no brsvadd, no ResourceReservation section), so no host can be in one.
 *
 * NAME is Basalt's: LSF's sections have no name, but a lease is journaled
 * and shown by its policy, so it needs one that survives a restart.  An
 * unnamed section is "export<N>", N its place among the HostExport
 * sections.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

static const char *const export_keys[] = {
	"NAME", "PER_HOST", "RES_SELECT", "NHOSTS", "SLOTS", "DISTRIBUTION",
	"MEM", "SWP", "SWAP", "TYPE", NULL,
};

void
bs_conf_export_free(gpointer p)
{
	BsHostExport *e = p;

	if (e == NULL)
		return;
	g_free(e->name);
	g_strfreev(e->per_host);
	g_free(e->res_select);
	if (e->distribution != NULL)
		g_ptr_array_unref(e->distribution);
	if (e->key_lines != NULL)
		g_hash_table_unref(e->key_lines);
	g_free(e);
}

void
bs_conf_import_free(gpointer p)
{
	BsHostImport *i = p;

	if (i == NULL)
		return;
	g_free(i->queue);
	g_free(i->cluster);
	g_free(i->host);
	g_free(i);
}

static gboolean
valid_name(const char *s)
{
	return strlen(s) <= 60 && bs_conf_valid_name(s, TRUE);
}

/* MEM / SWP: MB per host, or `-` for none exported. */
static void
set_mb(const BsConfCtx *ctx, const BsConfPair *pr, int *out)
{
	g_autoptr(GString) why = g_string_new(NULL);

	if (strcmp(pr->value, "-") == 0) {
		*out = BS_CONF_UNLIMITED;
		return;
	}
	if (!bs_conf_parse_int(pr->value, 0, G_MAXINT, out, why))
		ctx_error(ctx, pr->line, "bad value '%s' for %s: %s", pr->value, pr->key, why->str);
}

static void
set_distribution(const BsConfCtx *ctx, BsHostExport *e, const BsConfPair *pr)
{
	g_autoptr(GString) why = g_string_new(NULL);
	g_autofree char *v = g_strstrip(g_strdup(pr->value));
	gsize n = strlen(v);

	if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
		v[n - 1] = '\0';
		v[0] = ' ';
	}
	if (!bs_conf_parse_shares(v, &e->distribution, why)) {
		ctx_error(ctx, pr->line, "bad value '%s' for DISTRIBUTION: %s", pr->value, why->str);
		return;
	}
	for (guint i = 0; i < e->distribution->len; i++) {
		const BsShare *sh = e->distribution->pdata[i];

		for (guint j = 0; j < i; j++)
			if (strcmp(((const BsShare *)e->distribution->pdata[j])->name, sh->name) == 0)
				ctx_error(ctx, pr->line, "DISTRIBUTION names cluster %s twice", sh->name);
	}
}

static void
set_key(const BsConfCtx *ctx, BsHostExport *e, const BsConfPair *pr)
{
	g_autoptr(GString) why = g_string_new(NULL);
	const char *k = pr->key;

	if (g_ascii_strcasecmp(k, "NAME") == 0) {
		if (!valid_name(pr->value))
			ctx_error(ctx, pr->line, "bad value '%s' for NAME: letters, digits, "
			    "'_', '-' and '.' only, at most 60", pr->value);
		else {
			g_free(e->name);
			e->name = g_strdup(pr->value);
		}
	} else if (g_ascii_strcasecmp(k, "PER_HOST") == 0) {
		g_strfreev(e->per_host);
		e->per_host = bs_conf_split_words(pr->value);
		if (e->per_host == NULL || e->per_host[0] == NULL)
			ctx_error(ctx, pr->line, "PER_HOST names no host");
		e->kind = BS_EXPORT_PER_HOST;
	} else if (g_ascii_strcasecmp(k, "RES_SELECT") == 0) {
		g_free(e->res_select);
		e->res_select = g_strstrip(g_strdup(pr->value));
		if (*e->res_select == '\0')
			ctx_error(ctx, pr->line, "RES_SELECT is empty");
		e->kind = BS_EXPORT_RES_SELECT;
	} else if (g_ascii_strcasecmp(k, "NHOSTS") == 0) {
		if (!bs_conf_parse_int(pr->value, 1, G_MAXINT, &e->nhosts, why))
			ctx_error(ctx, pr->line, "bad value '%s' for NHOSTS: %s", pr->value, why->str);
	} else if (g_ascii_strcasecmp(k, "SLOTS") == 0) {
		if (!bs_conf_parse_int(pr->value, 1, G_MAXINT, &e->slots, why))
			ctx_error(ctx, pr->line, "bad value '%s' for SLOTS: %s", pr->value, why->str);
	} else if (g_ascii_strcasecmp(k, "DISTRIBUTION") == 0) {
		set_distribution(ctx, e, pr);
	} else if (g_ascii_strcasecmp(k, "MEM") == 0) {
		set_mb(ctx, pr, &e->mem);
	} else if (g_ascii_strcasecmp(k, "SWP") == 0 || g_ascii_strcasecmp(k, "SWAP") == 0) {
		set_mb(ctx, pr, &e->swp);
	} else if (g_ascii_strcasecmp(k, "TYPE") == 0) {
		if (g_ascii_strcasecmp(pr->value, "shared") == 0)
			e->shared = TRUE;
		else
			ctx_error(ctx, pr->line, "bad value '%s' for TYPE: only 'shared' "
			    "(leave TYPE out for an exclusive lease)", pr->value);
	}
}

static const BsConfPair *
pair(const BsResourceSection *s, const char *key)
{
	for (guint i = 0; i < s->pairs->len; i++)
		if (g_ascii_strcasecmp(((BsConfPair *)s->pairs->pdata[i])->key, key) == 0)
			return s->pairs->pdata[i];
	return NULL;
}

void
bs_conf_export_load(BsResourcesConf *r, const BsConfCtx *ctx, const BsResourceSection *s)
{
	BsHostExport *e = g_new0(BsHostExport, 1);
	const BsConfPair *ph = pair(s, "PER_HOST"), *rs = pair(s, "RES_SELECT");

	e->line = s->line;
	e->mem = e->swp = BS_CONF_UNLIMITED;
	e->name = g_strdup_printf("export%u", r->exports->len + 1);
	for (guint i = 0; i < s->pairs->len; i++) {
		const BsConfPair *pr = s->pairs->pdata[i];
		gboolean known = FALSE;

		for (guint k = 0; export_keys[k] != NULL; k++)
			known |= g_ascii_strcasecmp(pr->key, export_keys[k]) == 0;
		if (!known) {
			ctx_warning(ctx, pr->line, "unknown key %s in HostExport section (ignored)",
			    pr->key);
			continue;
		}
		bs_conf_record_line(&e->key_lines, pr->key, pr->line);
		set_key(ctx, e, pr);
	}
	if ((ph == NULL) == (rs == NULL))
		ctx_error(ctx, s->line, "HostExport section needs exactly one of PER_HOST and RES_SELECT");
	if (ph != NULL && pair(s, "SLOTS") == NULL)
		ctx_error(ctx, s->line, "HostExport section without SLOTS (required with PER_HOST)");
	if (rs != NULL && pair(s, "NHOSTS") == NULL)
		ctx_error(ctx, s->line, "HostExport section without NHOSTS (required with RES_SELECT)");
	if (ph == NULL && rs != NULL && pair(s, "SLOTS") != NULL)
		ctx_warning(ctx, pair(s, "SLOTS")->line, "SLOTS is for PER_HOST exports: "
		    "RES_SELECT exports whole hosts (ignored)");
	if (ph == NULL && rs != NULL && (pair(s, "MEM") != NULL || pair(s, "SWP") != NULL ||
	    pair(s, "SWAP") != NULL)) {
		ctx_warning(ctx, s->line, "MEM and SWP are for PER_HOST exports (ignored)");
		e->mem = e->swp = BS_CONF_UNLIMITED;
	}
	if (ph != NULL && rs == NULL && pair(s, "NHOSTS") != NULL)
		ctx_warning(ctx, pair(s, "NHOSTS")->line, "NHOSTS is for RES_SELECT exports (ignored)");
	if (pair(s, "DISTRIBUTION") == NULL)
		ctx_error(ctx, s->line, "HostExport section without DISTRIBUTION");
	if (e->distribution == NULL)
		e->distribution = g_ptr_array_new_with_free_func(bs_conf_share_free);
	for (guint i = 0; i < r->exports->len; i++)
		if (strcmp(((BsHostExport *)r->exports->pdata[i])->name, e->name) == 0)
			ctx_error(ctx, bs_conf_key_line(e->key_lines, "NAME") > 0 ?
			    bs_conf_key_line(e->key_lines, "NAME") : s->line,
			    "HostExport name %s is used twice (first at line %d)", e->name,
			    ((BsHostExport *)r->exports->pdata[i])->line);
	g_ptr_array_add(r->exports, e);
}

static int
eline(const BsHostExport *e, const char *key)
{
	int l = bs_conf_key_line(e->key_lines, key);

	return l > 0 ? l : e->line;
}

static gboolean
names_host(const BsHostExport *e, const char *host)
{
	for (guint i = 0; e->per_host != NULL && e->per_host[i] != NULL; i++)
		if (strcmp(e->per_host[i], host) == 0)
			return TRUE;
	return FALSE;
}

/* The local cluster is dropped from DISTRIBUTION (LSF ignores it); other
 * names must be clusters of lsf.shared. */
static void
check_distribution(const BsConfig *cfg, const BsConfCtx *ctx, BsHostExport *e)
{
	const BsClusterConf *cl = cfg->cluster;
	gboolean dropped = FALSE;

	for (guint i = 0; i < e->distribution->len;) {
		const BsShare *sh = e->distribution->pdata[i];
		gboolean known = FALSE;

		if (cl->name != NULL && strcmp(sh->name, cl->name) == 0) {
			g_ptr_array_remove_index(e->distribution, i);
			dropped = TRUE;
			continue;
		}
		for (guint c = 0; cl->clusters != NULL && c < cl->clusters->len; c++)
			known |= strcmp(((BsClusterEntry *)cl->clusters->pdata[c])->name, sh->name) == 0;
		if (!known)
			ctx_error(ctx, eline(e, "DISTRIBUTION"), "HostExport %s: DISTRIBUTION names "
			    "cluster %s, which is not in lsf.shared", e->name, sh->name);
		i++;
	}
	if (e->distribution->len == 0 && dropped)
		ctx_warning(ctx, eline(e, "DISTRIBUTION"), "HostExport %s: DISTRIBUTION names no "
		    "cluster but this one: nothing is exported", e->name);
}

static void
check_shared(const BsConfig *cfg, const BsConfCtx *ctx, const BsHostExport *e, guint idx)
{
	const GPtrArray *ex = cfg->resources->exports;

	if (!e->shared || e->kind != BS_EXPORT_PER_HOST)
		return;
	if (e->distribution->len > 1)
		ctx_error(ctx, eline(e, "DISTRIBUTION"), "HostExport %s: a shared lease "
		    "(TYPE = shared) with PER_HOST exports each host to one consumer "
		    "cluster only, but DISTRIBUTION names %u", e->name, e->distribution->len);
	for (guint h = 0; e->per_host != NULL && e->per_host[h] != NULL; h++) {
		const char *host = e->per_host[h];

		if (e->distribution->len != 1)
			continue;
		for (guint j = 0; j < ex->len; j++) {
			const BsHostExport *o = ex->pdata[j];
			const char *mine = ((const BsShare *)e->distribution->pdata[0])->name;

			if (j == idx || !names_host(o, host))
				continue;
			/* Two shared exports of one host: say it once. */
			if (o->shared && o->distribution->len == 1 && j < idx)
				continue;
			for (guint c = 0; c < o->distribution->len; c++) {
				const char *theirs = ((const BsShare *)o->distribution->pdata[c])->name;

				if (strcmp(theirs, mine) == 0)
					continue;
				ctx_error(ctx, eline(e, "PER_HOST"), "HostExport %s: host %s is "
				    "exported by a shared lease to %s, and HostExport %s (line %d) "
				    "also exports it to %s: with shared leasing a host goes to "
				    "one consumer cluster only", e->name, host, mine, o->name,
				    o->line, theirs);
			}
		}
	}
}

static void
add_import(BsResourcesConf *r, const BsQueueConf *q, const char *cluster, const char *host,
    int line)
{
	BsHostImport *im = g_new0(BsHostImport, 1);

	im->queue = g_strdup(q->name);
	im->cluster = g_strdup(cluster);
	im->host = host != NULL && strcmp(host, "all") != 0 ? g_strdup(host) : NULL;
	im->line = line;
	g_ptr_array_add(r->imports, im);
}

static gboolean
group_has_allremote(const BsConfig *cfg, const char *name, int depth)
{
	const BsHostGroupConf *g = bs_config_host_group(cfg, name);

	if (g == NULL || depth > 16)
		return FALSE;
	if (g->allremote)
		return TRUE;
	for (guint i = 0; g->members != NULL && g->members[i] != NULL; i++)
		if (g->members[i][0] != '~' && group_has_allremote(cfg, g->members[i], depth + 1))
			return TRUE;
	return FALSE;
}

/* The consumer side: each queue HOSTS word that borrows hosts. */
static void
gather_imports(BsConfig *cfg)
{
	BsResourcesConf *r = cfg->resources;

	g_ptr_array_set_size(r->imports, 0);
	for (guint i = 0; i < cfg->queues->len; i++) {
		const BsQueueConf *q = cfg->queues->pdata[i];
		int line = bs_conf_key_line(q->key_lines, "HOSTS");

		if (line <= 0)
			line = q->line;
		for (guint k = 0; q->hosts != NULL && k < q->hosts->len; k++) {
			const BsHostRef *h = q->hosts->pdata[k];

			if (h->exclude)
				continue;
			if (h->kind == BS_HOSTREF_ALLREMOTE)
				add_import(r, q, NULL, NULL, line);
			else if (h->kind == BS_HOSTREF_REMOTE)
				add_import(r, q, h->cluster, h->name, line);
			else if (h->kind == BS_HOSTREF_GROUP && group_has_allremote(cfg, h->name, 0))
				add_import(r, q, NULL, NULL, line);
		}
	}
}

void
bs_conf_exports_check(BsConfig *cfg, const BsConfCtx *ctx)
{
	GPtrArray *ex = cfg->resources->exports;

	for (guint i = 0; i < ex->len; i++) {
		BsHostExport *e = ex->pdata[i];

		check_distribution(cfg, ctx, e);
		for (guint h = 0; e->per_host != NULL && e->per_host[h] != NULL; h++) {
			if (bs_config_cluster_host(cfg, e->per_host[h]) == NULL)
				ctx_error(ctx, eline(e, "PER_HOST"), "HostExport %s: PER_HOST names %s, "
				    "which is not a host of cluster %s", e->name, e->per_host[h],
				    cfg->cluster->name != NULL ? cfg->cluster->name : "?");
			for (guint j = 0; j < h; j++)
				if (strcmp(e->per_host[j], e->per_host[h]) == 0)
					ctx_error(ctx, eline(e, "PER_HOST"), "HostExport %s: PER_HOST "
					    "names %s twice", e->name, e->per_host[h]);
		}
	}
	for (guint i = 0; i < ex->len; i++)
		check_shared(cfg, ctx, ex->pdata[i], i);
	gather_imports(cfg);
}

const BsHostExport *
bs_config_host_export(const BsConfig *cfg, const char *name)
{
	const GPtrArray *ex = cfg->resources->exports;

	for (guint i = 0; name != NULL && i < ex->len; i++)
		if (strcmp(((const BsHostExport *)ex->pdata[i])->name, name) == 0)
			return ex->pdata[i];
	return NULL;
}
