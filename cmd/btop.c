/*
 * btop: move a pending job relative to the others of its queue and user,
 * to position N counted from the first (default 1).  LSF prints the
 * confirmation on stderr, and so does this.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "jobctl-format.h"

#define USAGE "btop [-h] [-V] job_ID | \"job_ID[index]\" [position]"

static int
usage(void)
{
	fprintf(stderr, "Usage: %s\n", USAGE);
	return CMD_EXIT_FAIL;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) line = g_string_new(NULL);
	Basalt__MoveRequest req = BASALT__MOVE_REQUEST__INIT;
	Basalt__MoveReply *r;
	guint64 pos = 1;
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	if (argc < 2 || argc > 3 || argv[1][0] == '-')
		return usage();
	if (!cmd_parse_jobid(argv[1], &req.job_id, &req.array_index, &err))
		return cmd_main_fail(err);
	if (req.job_id == 0)
		return usage();
	if (argc == 3 && (!cmd_parse_uint(argv[2], &pos) || pos == 0 ||
	    pos > G_MAXUINT32)) {
		fprintf(stderr, "%s: Illegal position\n", argv[2]);
		return CMD_EXIT_FAIL;
	}
	req.position = (guint32)pos;
	req.to_bottom = FALSE;
	r = (Basalt__MoveReply *)cmd_main_call(LSB_MOVE, &req.base);
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (r->error != NULL &&
	    r->error->code != BASALT__ERROR_CODE__ERROR_CODE_OK) {
		g_string_append(line, "Job <");
		cmd_jobid(line, req.job_id, req.array_index);
		g_string_append_printf(line, ">: %s\n",
		    cmd_error_text(r->error));
		code = CMD_EXIT_FAIL;
	} else {
		jobctl_format_move(line, req.job_id, req.array_index,
		    r->position != 0 ? r->position : req.position, FALSE);
		code = CMD_EXIT_OK;
	}
	cmd_main_err(line);
	basalt__move_reply__free_unpacked(r, NULL);
	return code;
}
