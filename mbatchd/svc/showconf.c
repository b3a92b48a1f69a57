/*
 * badmin showconf mbd: the lsf.conf parameters mbatchd runs with, as
 * LSF's mbatchd shows its own.  Paths are given as mbatchd resolved them
 * (a relative LSB_SHAREDIR is relative to LSF_ENVDIR), and LSF_ENVDIR,
 * LSF_CONFDIR and LSB_SHAREDIR are always present, with their defaults
 * when lsf.conf does not set them: tools build paths from them
 * (LSB_SHAREDIR/<cluster>/logdir, LSF_CONFDIR/lsbatch/<cluster>/configdir).
 * Nothing here is secret: lsf.conf is readable by every user on a host.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/svc/svc.h"

static gint
by_key(gconstpointer a, gconstpointer b)
{
	const Basalt__KeyValue *x = *(Basalt__KeyValue *const *)a;
	const Basalt__KeyValue *y = *(Basalt__KeyValue *const *)b;

	return strcmp(x->key, y->key);
}

void
svc_params_lsf_conf(Manager *m, Basalt__ParamsReply_Closure closure,
    void *call)
{
	const BsLsfConf *lsf = m->cfg->lsf;
	Basalt__ParamsReply reply = BASALT__PARAMS_REPLY__INIT;
	g_autoptr(GHashTable) values = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *kv = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, lsf->values);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_hash_table_insert(values, k, v);
	g_hash_table_insert(values, "LSF_ENVDIR", m->envdir);
	g_hash_table_insert(values, "LSB_SHAREDIR", m->sharedir);
	if (lsf->lsf_confdir != NULL)
		g_hash_table_insert(values, "LSF_CONFDIR", lsf->lsf_confdir);
	if (lsf->lsb_confdir != NULL)
		g_hash_table_insert(values, "LSB_CONFDIR", lsf->lsb_confdir);
	if (lsf->lsf_logdir != NULL)
		g_hash_table_insert(values, "LSF_LOGDIR", lsf->lsf_logdir);
	if (lsf->lsf_serverdir != NULL)
		g_hash_table_insert(values, "LSF_SERVERDIR", lsf->lsf_serverdir);
	g_hash_table_iter_init(&it, values);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		Basalt__KeyValue *e = g_new(Basalt__KeyValue, 1);

		basalt__key_value__init(e);
		e->key = k;
		e->value = v;
		g_ptr_array_add(kv, e);
	}
	g_ptr_array_sort(kv, by_key);
	reply.params = (Basalt__KeyValue **)kv->pdata;
	reply.n_params = kv->len;
	closure(&reply, call);
	g_ptr_array_free(kv, TRUE);
}
