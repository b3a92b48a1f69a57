/*
 * bconsumers: the resource plans of lsb.consumers, per consumer and
 * resource group, with what the scheduler's entitlement stage made of
 * them in its last cycle (mbatchd keeps that table and serves it; any
 * user may read it).  Consumer paths as operands select those consumers
 * and their subtrees; -g keeps one resource group; -l adds why each
 * quota is what it is, -w does not cut paths, -json prints every column
 * as cmd-fields.c's JSON.  -at TIME runs the scheduler's pass for that
 * time in mbatchd (the plans in force then, TIME_WINDOW) and shows each
 * consumer's quota then against now, and the running jobs that pass would
 * reclaim or preempt (consumers-preview.c).
 */
#include "config.h"

#include <stdio.h>

#include <time.h>

#include "bconsumers-format.h"
#include "bsub-args.h"
#include "consumers-preview.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BCONSUMERS_USAGE \
	"bconsumers [-h] [-V] [-w | -l | -json] [-g resource_group] " \
	"[-at [[month:]day:]hour:minute] [consumer_path ...]"

enum { O_L, O_W, O_JSON, O_G, O_AT, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_W] = { "-w", FALSE },
	[O_JSON] = { "-json", FALSE }, [O_G] = { "-g", TRUE },
	[O_AT] = { "-at", TRUE },
	[O_N] = { NULL, FALSE },
};

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_auto(GStrv) paths = NULL;
	Basalt__ConsumerQuery q = BASALT__CONSUMER_QUERY__INIT;
	Basalt__ConsumerList *l;
	const char *v[O_N];
	int code;

	if (cmd_main_hv(argc, argv, BCONSUMERS_USAGE, &code))
		return code;
	paths = cmd_main_opts("bconsumers", argc, argv, opts, v,
	    BCONSUMERS_USAGE, &err);
	if (paths == NULL)
		return cmd_main_fail(err);
	for (guint i = 0; paths[i] != NULL; i++)
		if (paths[i][0] != '/') {
			fprintf(stderr, "bconsumers: %s: a consumer is an absolute "
			    "path such as /dept/team\nUsage: %s\n", paths[i],
			    BCONSUMERS_USAGE);
			return CMD_EXIT_FAIL;
		}
	q.paths = paths;
	q.n_paths = g_strv_length(paths);
	q.resource_group = (char *)(v[O_G] != NULL ? v[O_G] : "");
	/* The preview has one layout: asking for another is an error, not
	 * an option silently dropped. */
	if (v[O_AT] != NULL && (v[O_L] != NULL || v[O_W] != NULL)) {
		fprintf(stderr, "bconsumers: -at cannot be used with %s\n"
		    "Usage: %s\n", v[O_L] != NULL ? "-l" : "-w", BCONSUMERS_USAGE);
		return CMD_EXIT_FAIL;
	}
	/* -at: bsub -b's time format, the next such moment. */
	if (v[O_AT] != NULL &&
	    !bsub_parse_time(v[O_AT], (gint64)time(NULL), &q.at)) {
		fprintf(stderr, "bconsumers: Bad time specification for -at: %s\n"
		    "Usage: %s\n", v[O_AT], BCONSUMERS_USAGE);
		return CMD_EXIT_FAIL;
	}
	l = (Basalt__ConsumerList *)cmd_main_call(LSB_CONSUMERS, &q.base);
	if (l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused("bconsumers", l->error)) {
		code = CMD_EXIT_FAIL;
	} else if (l->at != 0 && v[O_JSON] == NULL) {
		consumers_preview_format(out, l->at, l->consumers, l->n_consumers,
		    l->preview_jobs, l->n_preview_jobs);
		cmd_main_out(out);
	} else if (v[O_JSON] != NULL) {
		bconsumers_format_json(out, l);
		cmd_main_out(out);
	} else if (l->n_consumers == 0) {
		fprintf(stderr, "No consumer is configured in lsb.consumers\n");
		code = CMD_EXIT_FAIL;
	} else {
		if (v[O_L] != NULL)
			bconsumers_format_long(out, l);
		else
			bconsumers_format_table(out, l, v[O_W] != NULL);
		cmd_main_out(out);
	}
	basalt__consumer_list__free_unpacked(l, NULL);
	return code;
}
