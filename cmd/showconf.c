/*
 * badmin showconf mbd and lsadmin showconf lim: the lsf.conf parameters a
 * daemon runs with, as LSF prints them ("MBD configuration at <date>",
 * then "    KEY = value"), which tools split on " = " to find
 * LSB_SHAREDIR, LSF_CONFDIR and LSF_UNIT_FOR_LIMITS.
 *
 * mbd: asked of mbatchd (ParamsQuery.lsf_conf), so it is what the master
 * really loaded.  lim: Basalt has no LIM; what a LIM would hold on this
 * host is the lsf.conf this host reads, loaded here by the daemons' own
 * loader with the same path resolution.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "conf/conf.h"
/* bs_conf_lsf_load: lsf.conf alone, without the cluster files. */
#include "conf/conf_internal.h"
#include "ls-format.h"
#include "showconf.h"

int
showconf_mbd(void)
{
	g_autoptr(GString) out = g_string_new(NULL);
	Basalt__ParamsQuery q = BASALT__PARAMS_QUERY__INIT;
	Basalt__ParamsReply *r;
	int code = CMD_EXIT_OK;

	q.lsf_conf = TRUE;
	r = (Basalt__ParamsReply *)cmd_main_call(LSB_PARAMS, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(NULL, r->error))
		code = CMD_EXIT_FAIL;
	else {
		ls_format_showconf(out, "MBD", g_get_real_time() / G_USEC_PER_SEC,
		    (const Basalt__KeyValue *const *)r->params, r->n_params);
		cmd_main_out(out);
	}
	basalt__params_reply__free_unpacked(r, NULL);
	return code;
}

static void
show_param(gpointer key, gpointer value, gpointer out)
{
	ls_format_showconf_line(out, key, value);
}

int
showconf_lim(void)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *envdir = lsb_envdir();
	g_autoptr(BsDiags) diags = bs_diags_new();
	BsLsfConf *lsf = bs_conf_lsf_load(envdir,
	    g_get_real_time() / G_USEC_PER_SEC, diags);

	if (lsf == NULL) {
		g_autofree char *text = bs_diags_to_string(diags);

		fprintf(stderr, "lsadmin: cannot read %s/lsf.conf:\n%s", envdir,
		    text);
		return CMD_EXIT_FAIL;
	}
	ls_format_showconf_head(out, "LIM", g_get_real_time() / G_USEC_PER_SEC);
	bs_conf_lsf_shown_foreach(lsf, envdir, lsf->lsb_sharedir, show_param,
	    out);
	cmd_main_out(out);
	bs_conf_lsf_free(lsf);
	return CMD_EXIT_OK;
}
