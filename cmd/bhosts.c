/*
 * bhosts: host status, the default table, -l, -o or -json, for every
 * host or the named hosts and host groups; -R keeps the hosts that
 * satisfy a resource requirement (mbatchd evaluates it as its scheduler
 * does); -s lists shared numeric resources, of which Basalt has none.
 */
#include "config.h"

#include <stdio.h>

#include "bqueues-format.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BHOSTS_USAGE \
	"bhosts [-h] [-V] [-w | -l | -o \"field[:[-]width] ... " \
	"[delimiter='char']\" [-json]] [-noheader] [-R \"res_req\"] " \
	"[host_name ... | host_group ...]\n       bhosts -s [resource_name ...]"

enum { O_L, O_W, O_O, O_JSON, O_NOHEADER, O_R, O_S, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_W] = { "-w", FALSE },
	[O_O] = { "-o", TRUE }, [O_JSON] = { "-json", FALSE },
	[O_NOHEADER] = { "-noheader", FALSE }, [O_R] = { "-R", TRUE },
	[O_S] = { "-s", FALSE }, [O_N] = { NULL, FALSE },
};

static gboolean
format(GString *out, const char **v, const Basalt__HostList *l,
    GError **err)
{
	g_autoptr(CmdFields) f = NULL;

	if (v[O_O] != NULL || v[O_JSON] != NULL) {
		f = bhosts_fields_parse(v[O_O], err);
		if (f == NULL)
			return FALSE;
		if (v[O_JSON] != NULL)
			bhosts_format_json(out, f, l);
		else
			bhosts_format_custom(out, f, l, v[O_NOHEADER] != NULL);
	} else if (v[O_L] != NULL) {
		bhosts_format_long(out, l);
	} else {
		bhosts_format_table(out, l, v[O_W] != NULL);
	}
	return TRUE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) names = NULL;
	Basalt__HostQuery q = BASALT__HOST_QUERY__INIT;
	Basalt__HostList *l;
	const char *v[O_N];
	int code;

	if (cmd_main_hv(argc, argv, BHOSTS_USAGE, &code))
		return code;
	names = cmd_main_opts("bhosts", argc, argv, opts, v, BHOSTS_USAGE,
	    &err);
	if (names == NULL)
		return cmd_main_fail(err);
	if (v[O_S] != NULL) {
		/* Basalt defines no shared or numeric site resources (no
		 * ResourceMap): nothing for -s to list. */
		fprintf(stderr, "No resource found\n");
		return CMD_EXIT_FAIL;
	}
	q.names = names;
	q.n_names = g_strv_length(names);
	q.detail = v[O_L] != NULL;
	q.res_req = (char *)(v[O_R] != NULL ? v[O_R] : "");
	l = (Basalt__HostList *)cmd_main_call(LSB_HOSTS, &q.base);
	if (l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(q.n_names == 1 && v[O_R] == NULL ? names[0] :
	    NULL, l->error)) {
		code = CMD_EXIT_FAIL;
	} else if (l->n_hosts == 0 && v[O_JSON] == NULL) {
		fprintf(stderr, "No matching host found\n");
		code = CMD_EXIT_FAIL;
	} else if (!format(out, v, l, &err)) {
		code = cmd_main_fail(err);
	} else {
		cmd_main_out(out);
	}
	basalt__host_list__free_unpacked(l, NULL);
	return code;
}
