/*
 * brequeue: kill a started job and put it back to PEND (PSUSP with -H)
 * under the same job id.  -d, -e, -r, -a pick the states to act on
 * (DONE, EXIT, RUN and suspended, all); the finished states cannot be
 * told apart in a JobQuery, so -d and -e both ask for finished jobs.
 */
#include "config.h"

#include "cmd-main.h"
#include "cmd-util.h"
#include "select-args.h"

#define BREQUEUE_USAGE \
	"brequeue [-h] [-V] [-J job_name | -J \"job_name[index_list]\"] " \
	"[-u user_name | -u all] [-d] [-e] [-r] [-a] [-H] " \
	"[job_ID | \"job_ID[index_list]\"] ..."

static const CmdOpt brequeue_opts[] = {
	{ "-H", FALSE }, { "-e", FALSE }, { NULL, FALSE },
};

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	Basalt__JobControlRequest req = BASALT__JOB_CONTROL_REQUEST__INIT;
	int code;

	if (cmd_main_hv(argc, argv, BREQUEUE_USAGE, &code))
		return code;
	sa = select_args_parse("brequeue", argc, argv, "adr", brequeue_opts,
	    BREQUEUE_USAGE, &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	if (select_args_has(sa, "-e"))
		sa->query->finished = TRUE;
	/* -r alone also covers suspended jobs, which LSF requeues too. */
	if (sa->query->running)
		sa->query->suspended = TRUE;
	req.action = BASALT__JOB_ACTION__JOB_ACTION_REQUEUE;
	req.requeue_hold = select_args_has(sa, "-H");
	return cmd_main_control(&req, sa);
}
