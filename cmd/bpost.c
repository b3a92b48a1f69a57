/*
 * bpost [-i message_index] [-d "description"] job_ID: posts a message to
 * a job, as LSF's bpost (BatchService Post).  The message index is 0 by
 * default and the description "no description", as in LSF.  Data files
 * (-a) are not carried: the option is refused with a message, so a
 * script relying on it fails loudly instead of losing its data.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"

#define USAGE "bpost [-i message_index] [-d \"description\"] job_ID | " \
	"\"job_ID[index]\"\n       bpost -h | -V"

static int
usage_fail(const char *why)
{
	if (why != NULL)
		fprintf(stderr, "bpost: %s\n", why);
	fprintf(stderr, "Usage: %s\n", USAGE);
	return CMD_EXIT_FAIL;
}

int
main(int argc, char **argv)
{
	Basalt__PostRequest q = BASALT__POST_REQUEST__INIT;
	Basalt__PostReply *r;
	const char *job = NULL, *text = "no description";
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
		} else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
			text = argv[++i];
		else if (strcmp(argv[i], "-a") == 0) {
			fprintf(stderr, "bpost: -a: attaching data files is "
			    "not supported\n");
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
	q.text = (char *)text;
	cmd_jobid(id, q.job_id, q.array_index);
	r = (Basalt__PostReply *)cmd_main_call(LSB_POST, &q.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (r->error != NULL) {
		fprintf(stderr, "Job <%s>: ", id->str);
		cmd_main_refused(NULL, r->error);
		basalt__post_reply__free_unpacked(r, NULL);
		return CMD_EXIT_FAIL;
	}
	basalt__post_reply__free_unpacked(r, NULL);
	printf("Job <%s>: message posted.\n", id->str);
	return CMD_EXIT_OK;
}
