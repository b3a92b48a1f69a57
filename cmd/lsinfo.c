/*
 * lsinfo: the resources -R can name, and the host types and models of
 * lsf.shared, in LSF's layout.  Basalt has no LIM to ask, so the types
 * and models come from the configuration this host reads (LSF_ENVDIR),
 * the same files mbatchd reads.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "conf/conf.h"
#include "ls-format.h"

#define USAGE "lsinfo [-h] [-V] [-l] [-m | -M] [-r] [-t] [resource_name ...]"

enum { F_LONG = 1, F_M = 2, F_MM = 4, F_R = 8, F_T = 16 };
static const char *const flags[] = { "-l", "-m", "-M", "-r", "-t", NULL };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) ops = NULL;
	g_autofree char *envdir = NULL;
	g_autoptr(BsDiags) diags = bs_diags_new();
	g_autoptr(BsConfig) cfg = NULL;
	guint seen, sections = 0;
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	ops = cmd_main_flags("lsinfo", argc, argv, flags, &seen, USAGE, &err);
	if (ops == NULL)
		return cmd_main_fail(err);
	if (seen & (F_M | F_MM))
		sections |= LSINFO_MODELS;
	if (seen & F_R)
		sections |= LSINFO_RES;
	if (seen & F_T)
		sections |= LSINFO_TYPES;
	if (ops[0] != NULL)
		sections |= LSINFO_RES;
	if (sections == 0)
		sections = LSINFO_RES | LSINFO_TYPES | LSINFO_MODELS;
	envdir = lsb_envdir();
	cfg = bs_config_load(envdir, g_get_real_time() / G_USEC_PER_SEC, diags);
	if (cfg == NULL) {
		g_autofree char *text = bs_diags_to_string(diags);

		fprintf(stderr, "lsinfo: cannot read the configuration in %s:\n%s",
		    envdir, text);
		return CMD_EXIT_FAIL;
	}
	/* With a resource named and -l, only that resource, as LSF. */
	if (ops[0] != NULL && (seen & F_LONG))
		sections &= LSINFO_RES;
	if (!ls_format_info(out, sections, seen & F_LONG, ops,
	    cfg->cluster->host_types, cfg->cluster->host_models, &err)) {
		fprintf(stderr, "lsinfo: %s\n", err->message);
		return CMD_EXIT_FAIL;
	}
	cmd_main_out(out);
	return CMD_EXIT_OK;
}
