/*
 * bs_config_load(): find the files (rule in conf.h), lex and load each one,
 * run the cross-file checks, and hand back a complete BsConfig or NULL.
 * Also the lookups mbatchd uses.  Nothing here is global, so two configs
 * can live side by side while a daemon reloads.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf_consumers.h"
#include "conf/conf_internal.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

static const char *const file_order[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster", "lsb.params", "lsb.queues", "lsb.hosts",
	"lsb.users", "lsb.resources", "lsb.applications", "lsb.consumers", NULL,
};

BsLexFile *
bs_conf_read(const char *path, const char *name, BsLexMode mode, gint64 now, BsDiags *d,
    gboolean *missing)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	gsize len = 0;

	*missing = FALSE;
	if (!g_file_get_contents(path, &text, &len, &err)) {
		if (g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			*missing = TRUE;
		else
			bs_diag_error(d, name, 0, "%s", err->message);
		return NULL;
	}
	return bs_lex_text(name, text, len, mode, now, d);
}

void
bs_conf_unknown_section(const BsConfCtx *ctx, const BsLexSection *s)
{
	ctx_warning(ctx, s->line, "unknown section %s, ignoring", s->name);
}

BsConfig *
bs_config_new_empty(void)
{
	BsConfig *cfg = g_new0(BsConfig, 1);

	cfg->cluster = bs_conf_cluster_new();
	cfg->params = bs_conf_params_new();
	cfg->queues = g_ptr_array_new_with_free_func((GDestroyNotify)bs_conf_queue_free);
	cfg->queue_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	cfg->hosts = bs_conf_hosts_new();
	cfg->users = bs_conf_users_new();
	cfg->resources = bs_conf_resources_new();
	cfg->apps = g_ptr_array_new_with_free_func((GDestroyNotify)bs_conf_app_free);
	cfg->app_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	return cfg;
}

void
bs_config_free(BsConfig *cfg)
{
	if (cfg == NULL)
		return;
	g_free(cfg->envdir);
	g_free(cfg->lsb_dir);
	bs_conf_lsf_free(cfg->lsf);
	bs_conf_cluster_free(cfg->cluster);
	bs_conf_params_free(cfg->params);
	g_hash_table_unref(cfg->queue_by_name);
	g_ptr_array_unref(cfg->queues);
	bs_conf_hosts_free(cfg->hosts);
	bs_conf_users_free(cfg->users);
	bs_conf_resources_free(cfg->resources);
	g_hash_table_unref(cfg->app_by_name);
	g_ptr_array_unref(cfg->apps);
	bs_conf_consumers_free(cfg->consumers);
	g_free(cfg);
}

/* Read one optional or required file and hand it to its loader. */
typedef void (*LoadFn)(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f);

static gboolean
load_file(BsConfig *cfg, const char *dir, const char *file, const char *shown,
    gint64 now, BsDiags *d, LoadFn fn)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	BsConfCtx ctx = { d, shown, now };
	gboolean missing;
	g_autoptr(BsLexFile) f = bs_conf_read(path, shown, BS_LEX_SECTIONS, now, d, &missing);

	if (f != NULL)
		fn(cfg, &ctx, f);
	return !missing;
}

static void
load_shared(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_shared_load(cfg->cluster, ctx, f);
}

static void
load_cluster_file(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_cluster_file_load(cfg->cluster, ctx, f);
}

static void
load_params(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_params_load(cfg->params, ctx, f);
}

static void
load_hosts(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_hosts_load(cfg->hosts, ctx, f);
}

static void
load_users(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_users_load(cfg->users, ctx, f);
}

static void
load_resources(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_resources_load(cfg->resources, ctx, f);
}

static void
load_apps(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f)
{
	bs_conf_apps_load(cfg, ctx, f);
}

/* lsf.shared, then lsf.cluster.<name>; see conf_cluster.c for the name rule. */
static void
load_cluster(BsConfig *cfg, gint64 now, BsDiags *d)
{
	const char *dir = cfg->lsf->lsf_confdir;
	g_autofree char *file = NULL;
	gboolean have_shared = load_file(cfg, dir, "lsf.shared", "lsf.shared", now, d, load_shared);

	if (cfg->lsf->lsf_cluster_name != NULL)
		cfg->cluster->name = g_strdup(cfg->lsf->lsf_cluster_name);
	else if (cfg->cluster->clusters->len > 0)
		cfg->cluster->name = g_strdup(((BsClusterEntry *)cfg->cluster->clusters->pdata[0])->name);
	else if (!have_shared)
		bs_diag_error(d, "lsf.shared", 0, "cannot read %s/lsf.shared: no such file, "
		    "and LSF_CLUSTER_NAME is not set", dir);
	else
		bs_diag_error(d, "lsf.shared", 0, "no ClusterName in the Cluster section");
	if (cfg->cluster->name == NULL)
		return;
	file = g_strconcat("lsf.cluster.", cfg->cluster->name, NULL);
	/* Diagnostics name it "lsf.cluster.<name>"; sorting uses the prefix. */
	if (!load_file(cfg, dir, file, file, now, d, load_cluster_file))
		bs_diag_error(d, file, 0, "cannot read %s/%s: no such file", dir, file);
}

/* LSB_CONFDIR/<cluster>/configdir if it exists (LSF's layout), else flat. */
static char *
lsb_dir(const BsConfig *cfg)
{
	const char *base = cfg->lsf->lsb_confdir;
	g_autofree char *lsf_layout = NULL;

	if (cfg->cluster->name != NULL) {
		lsf_layout = g_build_filename(base, cfg->cluster->name, "configdir", NULL);
		if (g_file_test(lsf_layout, G_FILE_TEST_IS_DIR))
			return g_steal_pointer(&lsf_layout);
	}
	return g_strdup(base);
}

static void
load_lsb_files(BsConfig *cfg, gint64 now, BsDiags *d)
{
	g_autofree char *path = NULL;
	g_autofree char *text = NULL;
	gsize len;

	cfg->lsb_dir = lsb_dir(cfg);
	load_file(cfg, cfg->lsb_dir, "lsb.params", "lsb.params", now, d, load_params);
	bs_conf_params_finish(cfg->params);
	path = g_build_filename(cfg->lsb_dir, "lsb.queues", NULL);
	if (g_file_get_contents(path, &text, &len, NULL))
		bs_conf_queues_load_text(cfg, "lsb.queues", text, len, now, d);
	else if (g_file_test(path, G_FILE_TEST_EXISTS))
		bs_diag_error(d, "lsb.queues", 0, "cannot read %s", path);
	if (cfg->queues->len == 0)
		bs_conf_queues_add_default(cfg);
	load_file(cfg, cfg->lsb_dir, "lsb.hosts", "lsb.hosts", now, d, load_hosts);
	load_file(cfg, cfg->lsb_dir, "lsb.users", "lsb.users", now, d, load_users);
	load_file(cfg, cfg->lsb_dir, "lsb.resources", "lsb.resources", now, d, load_resources);
	load_file(cfg, cfg->lsb_dir, "lsb.applications", "lsb.applications", now, d, load_apps);
	/* Last: its resource groups name hosts and groups, USERS user groups. */
	g_free(path);
	g_free(text);
	text = NULL;
	path = g_build_filename(cfg->lsb_dir, "lsb.consumers", NULL);
	if (g_file_get_contents(path, &text, &len, NULL))
		bs_conf_consumers_load_text(cfg, "lsb.consumers", text, len, now, d);
	else if (g_file_test(path, G_FILE_TEST_EXISTS))
		bs_diag_error(d, "lsb.consumers", 0, "cannot read %s", path);
}

void
bs_conf_queues_load_text(BsConfig *cfg, const char *name, const char *text, gsize len,
    gint64 now, BsDiags *diags)
{
	BsConfCtx ctx = { diags, name, now };
	g_autoptr(BsLexFile) f = bs_lex_text(name, text, len, BS_LEX_SECTIONS, now, diags);

	bs_conf_queues_load(cfg, &ctx, f);
}

/* Diagnostics of lsf.cluster.<name> sort as "lsf.cluster". */
static void
sort_diags(BsDiags *d, guint mark, const BsConfig *cfg)
{
	g_autofree char *cluster_file = NULL;
	const char *order[G_N_ELEMENTS(file_order)];

	memcpy(order, file_order, sizeof(order));
	if (cfg->cluster->name != NULL) {
		cluster_file = g_strconcat("lsf.cluster.", cfg->cluster->name, NULL);
		order[2] = cluster_file;
	}
	bs_diags_sort_from(d, mark, order);
}

BsConfig *
bs_config_load(const char *envdir, gint64 now, BsDiags *diags)
{
	g_autoptr(BsDiags) own = NULL;
	BsConfig *cfg = bs_config_new_empty();
	guint errors0, mark;

	if (diags == NULL)
		diags = own = bs_diags_new();
	errors0 = diags->n_errors;
	mark = diags->items->len;
	if (envdir == NULL)
		envdir = g_getenv("LSF_ENVDIR");
	if (envdir == NULL)
		envdir = SYSCONFDIR "/basalt";
	/* Absolute, so paths derived from it survive a chdir. */
	cfg->envdir = g_canonicalize_filename(envdir, NULL);
	envdir = cfg->envdir;
	cfg->lsf = bs_conf_lsf_load(envdir, now, diags);
	if (diags->n_errors == errors0) {
		bs_conf_set_limit_unit(cfg->lsf->unit_for_limits);
		load_cluster(cfg, now, diags);
		load_lsb_files(cfg, now, diags);
		bs_conf_set_limit_unit(0);
		bs_conf_check(cfg, diags);
	}
	sort_diags(diags, mark, cfg);
	if (diags->n_errors > errors0) {
		bs_config_free(cfg);
		return NULL;
	}
	return cfg;
}
