/*
 * bresume: resume: USUSP becomes SSUSP (the scheduler resumes it), PSUSP becomes PEND.
 * Job id 0 with the filters means every matching job; no id means the
 * caller's most recent matching job, mbatchd's rule as LSF's.
 */
#include "config.h"

#include "cmd-main.h"
#include "cmd-util.h"
#include "cmd-jobgroup.h"
#include "select-args.h"

#define USAGE \
	"bresume [-h] [-V] [-a] [-d] [-J job_name] [-m host_name] " \
	"[-q queue_name] [-g job_group_name] [-u user_name | -u all] [0] " \
	"[job_ID ... | \"job_ID[index]\" ...]"

/* -g: the jobs of the group and of its subgroups. */
static const CmdOpt bresume_opts[] = { CMD_JOBGROUP_OPT, { NULL, FALSE } };

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	Basalt__JobControlRequest req = BASALT__JOB_CONTROL_REQUEST__INIT;
	int code;

	if (cmd_main_hv(argc, argv, USAGE, &code))
		return code;
	sa = select_args_parse("bresume", argc, argv, "ad", bresume_opts, USAGE,
	    &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	if (!cmd_job_group_query(sa, "bresume", FALSE))
		return CMD_EXIT_FAIL;
	req.action = BASALT__JOB_ACTION__JOB_ACTION_RESUME;
	return cmd_main_control(&req, sa);
}
