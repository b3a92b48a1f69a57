/*
 * lsf.shared and lsf.cluster.<name> (lsf-reference.md 3.5).
 *
 * lsf.shared: the Cluster table (ClusterName, Servers) names every
 * cluster; HostType and HostModel tables give the type and model names
 * lsb.hosts may use; Resource and other LIM sections are tolerated.
 * lsf.cluster.<name>: ClusterAdmins (Administrators = users), the Host
 * table (HOSTNAME and optional model, type, server, RESOURCES; LIM's load
 * columns are accepted and ignored), and RemoteClusters.
 *
 * The cluster name: LSF_CLUSTER_NAME from lsf.conf if set, else the first
 * ClusterName in lsf.shared.  (LSF picks the cluster whose Servers list
 * this host; Basalt keeps it explicit and simple, since several clusters'
 * masters may share one machine.)
 *
 * MultiCluster: every other cluster of the Cluster section with Servers is
 * a peer mbatchd links to (mbatchd/mc-links.c), unless lsf.cluster.<name>
 * has a RemoteClusters section that leaves it out.  A peer's master is
 * reached at one of its Servers on this cluster's LSB_MBD_PORT, the same
 * port everywhere as in LSF; the names resolve through LSF_ENVDIR/hosts
 * first, so clusters on one machine give each master its own loopback
 * address.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_queue_values.h"

#define CH(f) offsetof(BsClusterHost, f)
#define RC(f) offsetof(BsRemoteCluster, f)

/* server: 1/0 as LIM writes it, or Y/N. */
static gboolean
parse_server(const BsConfKey *k, const char *value, void *field, GString *why)
{
	if (strcmp(value, "1") == 0 || strcmp(value, "0") == 0) {
		*(gboolean *)field = value[0] == '1';
		return TRUE;
	}
	return bs_conf_parse_bool(value, field, why);
}

static gboolean
parse_detected(const BsConfKey *k, const char *value, void *field, GString *why)
{
	g_free(*(char **)field);
	*(char **)field = strcmp(value, "!") == 0 ? NULL : g_strdup(value);
	return TRUE;
}

static const BsConfKey cluster_host_table[] = {
	{ "model", BS_CT_CUSTOM, .offset = CH(model), .parse = parse_detected, .free_fn = bs_conf_string_clear },
	{ "type", BS_CT_CUSTOM, .offset = CH(type), .parse = parse_detected, .free_fn = bs_conf_string_clear },
	{ "server", BS_CT_CUSTOM, .offset = CH(server), .def = "1", .parse = parse_server },
	{ "RESOURCES", BS_CT_NAMES, .offset = CH(resources) },
	{ NULL },
};

static const BsConfKey remote_table[] = {
	{ "EQUIV", BS_CT_BOOL, .offset = RC(equiv), .def = "N" },
	{ "CACHE_INTERVAL", BS_CT_INT, .offset = RC(cache_interval), 1, 2147483647.0, .def = "60" },
	{ "RECV_FROM", BS_CT_BOOL, .offset = RC(recv_from), .def = "Y" },
	{ "AUTH", BS_CT_STRING, .offset = RC(auth), 0, 255 },
	{ NULL },
};

static const char *const shared_tolerated[] = {
	"Resource", "HostType", "HostModel", "Cluster", NULL,
};
static const char *const cluster_tolerated[] = {
	"Parameters", "ResourceMap", NULL,
};

static void
entry_free(gpointer p)
{
	BsClusterEntry *e = p;

	g_free(e->name);
	g_strfreev(e->servers);
	g_free(e);
}

static void
host_free(gpointer p)
{
	BsClusterHost *h = p;

	bs_conf_schema_clear(cluster_host_table, h);
	g_free(h->name);
	g_free(h);
}

static void
remote_free(gpointer p)
{
	BsRemoteCluster *r = p;

	bs_conf_schema_clear(remote_table, r);
	g_free(r->name);
	g_free(r);
}

BsClusterConf *
bs_conf_cluster_new(void)
{
	BsClusterConf *c = g_new0(BsClusterConf, 1);

	c->clusters = g_ptr_array_new_with_free_func(entry_free);
	c->host_types = g_ptr_array_new_with_free_func(g_free);
	c->host_models = g_ptr_array_new_with_free_func(g_free);
	c->hosts = g_ptr_array_new_with_free_func(host_free);
	c->host_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	c->remote_clusters = g_ptr_array_new_with_free_func(remote_free);
	return c;
}

void
bs_conf_cluster_free(BsClusterConf *c)
{
	if (c == NULL)
		return;
	g_free(c->name);
	g_ptr_array_unref(c->clusters);
	g_ptr_array_unref(c->host_types);
	g_ptr_array_unref(c->host_models);
	g_strfreev(c->admins);
	g_hash_table_unref(c->host_by_name);
	g_ptr_array_unref(c->hosts);
	g_ptr_array_unref(c->remote_clusters);
	g_free(c);
}

static gboolean
is_section(const BsLexSection *s, const char *name)
{
	return g_ascii_strcasecmp(s->name, name) == 0;
}

static void
first_column_names(const BsLexSection *s, GPtrArray *to)
{
	for (guint i = 0; s->table && i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];

		g_ptr_array_add(to, g_strdup(((BsLexCell *)r->cells->pdata[0])->text));
	}
}

/* One Cluster line: a valid name, listed once; Servers valid host names. */
static gboolean
cluster_entry_ok(BsClusterConf *c, const BsConfCtx *ctx, const char *name,
    char **servers, int line)
{
	const BsClusterEntry *first = bs_conf_cluster_find(c, name);

	if (!bs_conf_valid_name(name, FALSE) || strlen(name) > BS_CLUSTER_NAME_MAX) {
		ctx_error(ctx, line, "bad cluster name '%s': use letters, digits, "
		    "_ and - only, at most %d characters", name, BS_CLUSTER_NAME_MAX);
		return FALSE;
	}
	if (first != NULL) {
		ctx_error(ctx, line, "cluster %s listed twice (first at line %d)",
		    name, first->line);
		return FALSE;
	}
	for (guint i = 0; servers != NULL && servers[i] != NULL; i++) {
		if (!bs_conf_valid_name(servers[i], TRUE) || strlen(servers[i]) > 255) {
			ctx_error(ctx, line, "cluster %s: bad server host name '%s'",
			    name, servers[i]);
			return FALSE;
		}
		for (guint k = 0; k < i; k++)
			if (g_ascii_strcasecmp(servers[k], servers[i]) == 0) {
				ctx_error(ctx, line, "cluster %s: server %s listed twice",
				    name, servers[i]);
				return FALSE;
			}
	}
	return TRUE;
}

static void
load_cluster_table(BsClusterConf *c, const BsConfCtx *ctx, const BsLexSection *s)
{
	int nc = bs_lex_column(s, "ClusterName"), sc = bs_lex_column(s, "Servers");

	if (nc < 0) {
		ctx_error(ctx, s->header_line > 0 ? s->header_line : s->line,
		    "Cluster section without a ClusterName column");
		return;
	}
	bs_conf_check_columns(ctx, s, (const BsConfKey[]){ { NULL } },
	    (const char *const[]){ "ClusterName", "Servers", NULL });
	if (s->rows->len == 0)
		ctx_error(ctx, s->line, "Cluster section lists no cluster");
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		const char *name = ((BsLexCell *)r->cells->pdata[nc])->text;
		char **servers = NULL;
		BsClusterEntry *e;

		if (sc >= 0 && !bs_lex_cell_is_default(r->cells->pdata[sc]))
			servers = bs_conf_split_words(((BsLexCell *)r->cells->pdata[sc])->text);
		if (!cluster_entry_ok(c, ctx, name, servers, r->line)) {
			g_strfreev(servers);
			continue;
		}
		e = g_new0(BsClusterEntry, 1);
		e->name = g_strdup(name);
		e->line = r->line;
		e->servers = servers;
		g_ptr_array_add(c->clusters, e);
	}
}

const BsClusterEntry *
bs_conf_cluster_find(const BsClusterConf *c, const char *name)
{
	for (guint i = 0; c != NULL && name != NULL && i < c->clusters->len; i++) {
		const BsClusterEntry *e = c->clusters->pdata[i];

		if (strcmp(e->name, name) == 0)
			return e;
	}
	return NULL;
}

static const BsRemoteCluster *
remote_find(const BsClusterConf *c, const char *name)
{
	for (guint i = 0; i < c->remote_clusters->len; i++) {
		const BsRemoteCluster *r = c->remote_clusters->pdata[i];

		if (strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

const BsClusterEntry *
bs_conf_cluster_peer(const BsClusterConf *c, const char *name)
{
	const BsClusterEntry *e = bs_conf_cluster_find(c, name);

	if (e == NULL || c->name == NULL || strcmp(e->name, c->name) == 0 ||
	    e->servers == NULL || e->servers[0] == NULL)
		return NULL;
	if (c->remote_clusters->len > 0 && remote_find(c, name) == NULL)
		return NULL;
	return e;
}

GPtrArray *
bs_conf_cluster_peers(const BsClusterConf *c)
{
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < c->clusters->len; i++) {
		const BsClusterEntry *e = c->clusters->pdata[i];

		if (bs_conf_cluster_peer(c, e->name) != NULL)
			g_ptr_array_add(out, (gpointer)e);
	}
	return out;
}

void
bs_conf_cluster_check(const BsClusterConf *c, const char *cluster_file, BsDiags *d)
{
	if (c->name == NULL)
		return;
	if (c->clusters->len > 0 && bs_conf_cluster_find(c, c->name) == NULL)
		bs_diag_error(d, "lsf.shared", 0, "the local cluster %s (LSF_CLUSTER_NAME "
		    "in lsf.conf) is not in the Cluster section", c->name);
	for (guint i = 0; i < c->remote_clusters->len; i++) {
		const BsRemoteCluster *r = c->remote_clusters->pdata[i];

		if (strcmp(r->name, c->name) == 0)
			bs_diag_warning(d, cluster_file, r->line, "RemoteClusters: %s is "
			    "the local cluster, ignoring", r->name);
		else if (bs_conf_cluster_find(c, r->name) == NULL)
			bs_diag_error(d, cluster_file, r->line, "RemoteClusters: cluster "
			    "%s is not in lsf.shared's Cluster section", r->name);
		else if (bs_conf_cluster_peer(c, r->name) == NULL)
			bs_diag_warning(d, cluster_file, r->line, "RemoteClusters: cluster "
			    "%s has no Servers in lsf.shared: it cannot be reached", r->name);
	}
}

void
bs_conf_shared_load(BsClusterConf *c, const BsConfCtx *ctx, const BsLexFile *f)
{
	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];
		gboolean known = FALSE;

		if (is_section(s, "Cluster") && s->table)
			load_cluster_table(c, ctx, s);
		else if (is_section(s, "HostType"))
			first_column_names(s, c->host_types);
		else if (is_section(s, "HostModel"))
			first_column_names(s, c->host_models);
		for (guint k = 0; shared_tolerated[k] != NULL; k++)
			known |= is_section(s, shared_tolerated[k]);
		if (!known)
			bs_conf_unknown_section(ctx, s);
	}
}

static void
load_hosts(BsClusterConf *c, const BsConfCtx *ctx, const BsLexSection *s)
{
	int nc = bs_lex_column(s, "HOSTNAME");

	if (nc < 0) {
		ctx_error(ctx, s->header_line > 0 ? s->header_line : s->line,
		    "Host section without a HOSTNAME column");
		return;
	}
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		const char *name = ((BsLexCell *)r->cells->pdata[nc])->text;
		const BsClusterHost *first = g_hash_table_lookup(c->host_by_name, name);
		BsClusterHost *h;

		if (!bs_conf_valid_name(name, TRUE)) {
			ctx_error(ctx, r->line, "bad host name '%s'", name);
			continue;
		}
		if (first != NULL) {
			ctx_error(ctx, r->line, "duplicate host %s (first at line %d)", name, first->line);
			continue;
		}
		h = g_new0(BsClusterHost, 1);
		bs_conf_schema_init(cluster_host_table, h);
		h->name = g_strdup(name);
		h->line = r->line;
		for (guint k = 0; k < r->cells->len; k++) {
			const BsConfKey *key = bs_conf_schema_find(cluster_host_table,
			    s->columns->pdata[k]);

			if (key != NULL)
				bs_conf_set_cell(ctx, key, h, r->cells->pdata[k], r->line);
		}
		g_ptr_array_add(c->hosts, h);
		g_hash_table_insert(c->host_by_name, h->name, h);
	}
}

static void
load_remote(BsClusterConf *c, const BsConfCtx *ctx, const BsLexSection *s)
{
	int nc = bs_lex_column(s, "CLUSTERNAME");

	if (nc < 0) {
		ctx_error(ctx, s->header_line > 0 ? s->header_line : s->line,
		    "RemoteClusters section without a CLUSTERNAME column");
		return;
	}
	bs_conf_check_columns(ctx, s, remote_table, (const char *const[]){ "CLUSTERNAME", NULL });
	for (guint i = 0; i < s->rows->len; i++) {
		const BsLexRow *r = s->rows->pdata[i];
		BsRemoteCluster *rc = g_new0(BsRemoteCluster, 1);

		bs_conf_schema_init(remote_table, rc);
		rc->name = g_strdup(((BsLexCell *)r->cells->pdata[nc])->text);
		rc->line = r->line;
		for (guint k = 0; k < r->cells->len; k++) {
			const BsConfKey *key = bs_conf_schema_find(remote_table, s->columns->pdata[k]);

			if (key != NULL)
				bs_conf_set_cell(ctx, key, rc, r->cells->pdata[k], r->line);
		}
		g_ptr_array_add(c->remote_clusters, rc);
	}
}

static void
load_admins(BsClusterConf *c, const BsConfCtx *ctx, const BsLexSection *s)
{
	for (guint i = 0; !s->table && i < s->pairs->len; i++) {
		const BsLexPair *pr = s->pairs->pdata[i];

		if (g_ascii_strcasecmp(pr->key, "Administrators") == 0) {
			g_strfreev(c->admins);
			c->admins = bs_conf_split_words(pr->value);
		} else {
			ctx_warning(ctx, pr->line, "unknown parameter %s, ignoring", pr->key);
		}
	}
}

void
bs_conf_cluster_file_load(BsClusterConf *c, const BsConfCtx *ctx, const BsLexFile *f)
{
	for (guint i = 0; i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];
		gboolean known = FALSE;

		if (is_section(s, "ClusterAdmins"))
			load_admins(c, ctx, s);
		else if (is_section(s, "Host") && s->table)
			load_hosts(c, ctx, s);
		else if (is_section(s, "RemoteClusters") && s->table)
			load_remote(c, ctx, s);
		else {
			for (guint k = 0; cluster_tolerated[k] != NULL; k++)
				known |= is_section(s, cluster_tolerated[k]);
			if (!known)
				bs_conf_unknown_section(ctx, s);
		}
	}
}
