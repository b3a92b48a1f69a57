/*
 * What `badmin showconf mbd` and `lsadmin showconf lim` print: lsf.conf's
 * values plus the directories the loader resolved (LSF_ENVDIR, LSF_CONFDIR,
 * LSB_CONFDIR, LSB_SHAREDIR, LSF_LOGDIR, LSF_SERVERDIR), in key order.
 * mbatchd answers the first and the command computes the second; the list
 * is built here once so both show the same keys the same way.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"

static gint
by_key(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
bs_conf_lsf_shown_foreach(const BsLsfConf *lsf, const char *envdir,
    const char *sharedir, GHFunc fn, gpointer data)
{
	g_autoptr(GHashTable) values = g_hash_table_new(g_str_hash,
	    g_str_equal);
	g_autofree gpointer *keys = NULL;
	GHashTableIter it;
	gpointer k, v;
	guint n;

	g_hash_table_iter_init(&it, lsf->values);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_hash_table_insert(values, k, v);
	g_hash_table_insert(values, "LSF_ENVDIR", (gpointer)envdir);
	if (sharedir != NULL)
		g_hash_table_insert(values, "LSB_SHAREDIR", (gpointer)sharedir);
	if (lsf->lsf_confdir != NULL)
		g_hash_table_insert(values, "LSF_CONFDIR", lsf->lsf_confdir);
	if (lsf->lsb_confdir != NULL)
		g_hash_table_insert(values, "LSB_CONFDIR", lsf->lsb_confdir);
	if (lsf->lsf_logdir != NULL)
		g_hash_table_insert(values, "LSF_LOGDIR", lsf->lsf_logdir);
	if (lsf->lsf_serverdir != NULL)
		g_hash_table_insert(values, "LSF_SERVERDIR", lsf->lsf_serverdir);
	keys = g_hash_table_get_keys_as_array(values, &n);
	qsort(keys, n, sizeof *keys, by_key);
	for (guint i = 0; i < n; i++)
		fn(keys[i], g_hash_table_lookup(values, keys[i]), data);
}
