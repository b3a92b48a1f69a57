/*
 * lsid: the product banner, the cluster's name and its master host.  LSF
 * prints its product and copyright lines first; scripts look only at the
 * two "My ... is" lines, which are kept word for word.
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
	if (r->version != NULL && r->version[0] != '\0')
		g_string_append_printf(out, "Basalt %s, an LSF-compatible "
		    "batch system\n", r->version);
	else
		cmd_format_version(out);
	g_string_append_printf(out, "\nMy cluster name is %s\n"
	    "My master name is %s\n", r->cluster_name, r->master_name);
	cmd_main_out(out);
	basalt__cluster_info__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}
