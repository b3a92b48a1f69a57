/*
 * bread [-i message_index] job_ID: shows the message posted to a job
 * with bpost (BatchService Read), in LSF's table: JOBID, MSG_ID, FROM,
 * POST_TIME, MESSAGE, ATTACHMENT (always N: data files are not carried,
 * so -a is refused).  The index is 0 by default, as in LSF.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"

#define USAGE "bread [-i message_index] job_ID | \"job_ID[index]\"\n" \
	"       bread -h | -V"

static int
usage_fail(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "bread: %s\n", why);
	fprintf(stderr, "Usage: %s\n", USAGE);
	return CMD_EXIT_FAIL;
}

int
main(int argc, char **argv)
{
	Basalt__ReadRequest q = BASALT__READ_REQUEST__INIT;
	Basalt__ReadReply *r;
	const char *job = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) id = g_string_new(NULL);
	guint64 v;
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
			if (!cmd_parse_uint(argv[++i], &v) || v > G_MAXUINT32)
				return usage_fail("-i: the message index is a "
				    "non-negative number");
			q.index = (guint32)v;
		} else if (strcmp(argv[i], "-a") == 0) {
			fprintf(stderr, "bread: -a: data files are not "
			    "supported\n");
			return CMD_EXIT_FAIL;
		} else if (argv[i][0] != '-' && job == NULL)
			job = argv[i];
		else
			return usage_fail(NULL);
	}
	if (job == NULL)
		return usage_fail("a job ID is required");
	if (!cmd_parse_jobid(job, &q.job_id, &q.array_index, &err) ||
	    q.job_id == 0) {
		fprintf(stderr, "%s: Illegal job ID.\n", job);
		return CMD_EXIT_FAIL;
	}
	cmd_jobid(id, q.job_id, q.array_index);
	r = (Basalt__ReadReply *)cmd_main_call(LSB_READ, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (r->error != NULL) {
		fprintf(stderr, "Job <%s>: ", id->str);
		cmd_main_refused(NULL, r->error);
		basalt__read_reply__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	if (r->n_messages == 0) {
		fprintf(stderr, "Job <%s>: No message available\n", id->str);
		basalt__read_reply__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	printf("%-7s %-6s %-10s %-14s %-30s %s\n", "JOBID", "MSG_ID", "FROM",
	    "POST_TIME", "MESSAGE", "ATTACHMENT");
	for (size_t i = 0; i < r->n_messages; i++) {
		const Basalt__JobMessage *m = r->messages[i];
		g_autoptr(GString) t = g_string_new(NULL);

		cmd_time_short(t, m->time);
		printf("%-7s %-6u %-10s %-14s %-30s %s\n", id->str, m->index,
		    m->user, t->str, m->text, "N");
	}
	basalt__read_reply__free_unpacked(r, NULL);
	return CMD_EXIT_OK;
}
