/*
 * Read-only lookups over a loaded BsConfig: what mbatchd asks of its
 * configuration (a queue by name, a host's lsb.hosts row, who is in a
 * group, which hosts a queue may use).  Group expansion resolves nesting
 * and `~` exclusion and always returns hosts in lsf.cluster order, so the
 * result is deterministic.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_internal.h"

const BsQueueConf *
bs_config_queue(const BsConfig *cfg, const char *name)
{
	return g_hash_table_lookup(cfg->queue_by_name, name);
}

const BsClusterHost *
bs_config_cluster_host(const BsConfig *cfg, const char *name)
{
	return g_hash_table_lookup(cfg->cluster->host_by_name, name);
}

/* The host's own row, else its model's, else its type's, else `default`. */
const BsHostConf *
bs_config_host(const BsConfig *cfg, const char *name)
{
	GHashTable *rows = cfg->hosts->host_by_name;
	const BsClusterHost *ch = bs_config_cluster_host(cfg, name);
	const BsHostConf *h = g_hash_table_lookup(rows, name);

	if (h == NULL && ch != NULL && ch->model != NULL)
		h = g_hash_table_lookup(rows, ch->model);
	if (h == NULL && ch != NULL && ch->type != NULL)
		h = g_hash_table_lookup(rows, ch->type);
	if (h == NULL)
		h = g_hash_table_lookup(rows, "default");
	return h;
}

const BsHostGroupConf *
bs_config_host_group(const BsConfig *cfg, const char *name)
{
	return g_hash_table_lookup(cfg->hosts->group_by_name, name);
}

const BsUserGroupConf *
bs_config_user_group(const BsConfig *cfg, const char *name)
{
	/* No lsb.users: no user groups. */
	if (cfg->users == NULL)
		return NULL;
	return g_hash_table_lookup(cfg->users->group_by_name, name);
}

char **
bs_config_host_group_expand(const BsConfig *cfg, const char *group)
{
	g_autoptr(GHashTable) in = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) out = g_hash_table_new(g_str_hash, g_str_equal);

	if (bs_config_host_group(cfg, group) == NULL)
		return NULL;
	bs_conf_expand_word(cfg, group, FALSE, in, out, 0);
	return bs_conf_hosts_in_order(cfg, in, out);
}

char **
bs_config_queue_hosts(const BsConfig *cfg, const BsQueueConf *q)
{
	g_autoptr(GHashTable) in = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) out = g_hash_table_new(g_str_hash, g_str_equal);

	if (q->hosts == NULL)
		bs_conf_expand_word(cfg, "all", FALSE, in, out, 0);
	for (guint i = 0; q->hosts != NULL && i < q->hosts->len; i++) {
		const BsHostRef *h = q->hosts->pdata[i];

		switch (h->kind) {
		case BS_HOSTREF_ALL:
		case BS_HOSTREF_OTHERS:
			bs_conf_expand_word(cfg, "all", FALSE, in, out, 0);
			break;
		case BS_HOSTREF_HOST:
		case BS_HOSTREF_GROUP:
			bs_conf_expand_word(cfg, h->name, h->exclude, in, out, 0);
			break;
		default:
			break;	/* none and borrowed hosts add no local host */
		}
	}
	return bs_conf_hosts_in_order(cfg, in, out);
}

static void
expand_users(const BsConfig *cfg, const char *name, GPtrArray *acc, GHashTable *seen, int depth)
{
	const BsUserGroupConf *g = bs_config_user_group(cfg, name);

	if (g == NULL) {
		if (!g_hash_table_contains(seen, name)) {
			g_hash_table_add(seen, (gpointer)name);
			g_ptr_array_add(acc, g_strdup(name));
		}
		return;
	}
	for (guint i = 0; depth < 64 && g->members[i] != NULL; i++)
		expand_users(cfg, g->members[i], acc, seen, depth + 1);
}

char **
bs_config_user_group_expand(const BsConfig *cfg, const char *group)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *acc;

	if (bs_config_user_group(cfg, group) == NULL)
		return NULL;
	acc = g_ptr_array_new();
	expand_users(cfg, group, acc, seen, 0);
	g_ptr_array_add(acc, NULL);
	return (char **)g_ptr_array_free(acc, FALSE);
}

const char *const *
bs_config_default_queues(const BsConfig *cfg)
{
	static const char *const fallback[] = { "default", NULL };

	if (cfg->params->default_queue != NULL && cfg->params->default_queue[0] != NULL)
		return (const char *const *)cfg->params->default_queue;
	return fallback;
}
