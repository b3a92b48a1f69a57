/*
 * lsid: the product banner, the cluster's name and its master host, in
 * LSF's layout: banner lines, an empty line, then "My cluster name is"
 * and "My master name is", kept word for word for the scripts that grep
 * them.  The banner keeps Basalt's name but its first version number is
 * the LSF release Basalt follows: tools read the first dotted number of
 * lsid's output as the LSF version (dask-jobqueue's lsf_version(), for
 * one, picks its memory units by it).
 */
#include "config.h"

#include "cmd-main.h"
#include "cmd-util.h"

#define LSID_USAGE "lsid [-h] [-V]"

static const char *const flags[] = { NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) ops = NULL;
	Basalt__ClusterInfoRequest q = BASALT__CLUSTER_INFO_REQUEST__INIT;
	Basalt__ClusterInfo *r;
	guint seen;
	int code;

	if (cmd_main_hv(argc, argv, LSID_USAGE, &code))
		return code;
	ops = cmd_main_flags("lsid", argc, argv, flags, &seen, LSID_USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	r = (Basalt__ClusterInfo *)cmd_main_call(LSB_CLUSTER, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	g_string_append_printf(out, "Basalt for the IBM Spectrum LSF %s "
	    "interface, Basalt version %s\n"
	    "An open-source batch system whose commands, files and output "
	    "follow LSF %.4s.\n", CMD_LSF_VERSION,
	    r->version != NULL && r->version[0] != '\0' ? r->version :
	    PACKAGE_VERSION, CMD_LSF_VERSION);
	g_string_append_printf(out, "\nMy cluster name is %s\n"
	    "My master name is %s\n", r->cluster_name, r->master_name);
	cmd_main_out(out);
	basalt__cluster_info__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}
