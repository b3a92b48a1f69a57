/*
 * bswitch: move jobs to another queue, which must accept them.  The first
 * operand is the destination queue, the rest are job ids (0 = every job
 * matching the filters); select-args.c parses the rest once the queue is
 * taken out of argv.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "jobctl-format.h"
#include "select-args.h"

#define BSWITCH_USAGE \
	"bswitch [-h] [-V] [-J job_name] [-m host_name] [-q queue_name] " \
	"[-u user_name | -u all] destination_queue [0] " \
	"[job_ID | \"job_ID[index_list]\"] ..."

/* Index of the first operand in argv, skipping the filters' values. */
static int
first_operand(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		if (strlen(a) == 2 && strchr("uqmJ", a[1]) != NULL)
			i++;
	}
	return -1;
}

static int
print_results(const Basalt__JobControlReply *r, const char *queue)
{
	g_autoptr(GString) line = g_string_new(NULL);
	int code = CMD_EXIT_OK;

	if (cmd_main_refused(NULL, r->error))
		return CMD_EXIT_FAIL;
	if (r->n_results == 0) {
		fprintf(stderr, "No matching job found\n");
		return CMD_EXIT_FAIL;
	}
	for (size_t i = 0; i < r->n_results; i++) {
		if (jobctl_format_switch(line, queue, r->results[i])) {
			cmd_main_out(line);
		} else {
			cmd_main_err(line);
			code = CMD_EXIT_FAIL;
		}
	}
	return code;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	g_autofree char **rest = NULL;
	Basalt__SwitchRequest req = BASALT__SWITCH_REQUEST__INIT;
	Basalt__JobControlReply *r;
	int qi, n = 0, code;

	if (cmd_main_hv(argc, argv, BSWITCH_USAGE, &code))
		return code;
	qi = first_operand(argc, argv);
	if (qi < 0) {
		fprintf(stderr, "Usage: %s\n", BSWITCH_USAGE);
		return CMD_EXIT_FAIL;
	}
	rest = g_new0(char *, argc);
	for (int i = 0; i < argc; i++)
		if (i != qi)
			rest[n++] = argv[i];
	sa = select_args_parse("bswitch", n, rest, NULL, NULL, BSWITCH_USAGE,
	    &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	if (sa->query->n_job_ids == 0 && !sa->all_matching) {
		fprintf(stderr, "Usage: %s\n", BSWITCH_USAGE);
		return CMD_EXIT_FAIL;
	}
	req.select = sa->query;
	req.queue = argv[qi];
	req.all_matching = sa->all_matching;
	r = (Basalt__JobControlReply *)cmd_main_call(LSB_SWITCH, &req.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	code = print_results(r, argv[qi]);
	basalt__job_control_reply__free_unpacked(r, NULL);
	return code;
}
