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

#include "mbatchd/svc/svc.h"

static void
add_param(gpointer key, gpointer value, gpointer data)
{
	Basalt__KeyValue *e = g_new(Basalt__KeyValue, 1);

	basalt__key_value__init(e);
	e->key = key;
	e->value = value;
	g_ptr_array_add(data, e);
}

void
svc_params_lsf_conf(Manager *m, Basalt__ParamsReply_Closure closure,
    void *call)
{
	const BsLsfConf *lsf = m->cfg->lsf;
	Basalt__ParamsReply reply = BASALT__PARAMS_REPLY__INIT;
	GPtrArray *kv = g_ptr_array_new_with_free_func(g_free);

	bs_conf_lsf_shown_foreach(lsf, m->envdir, m->sharedir, add_param, kv);
	reply.params = (Basalt__KeyValue **)kv->pdata;
	reply.n_params = kv->len;
	closure(&reply, call);
	g_ptr_array_free(kv, TRUE);
}
