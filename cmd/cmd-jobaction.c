/* bstop and bresume's main() body (cmd-jobaction.h). */
#include "config.h"

#include "cmd-jobaction.h"
#include "cmd-jobgroup.h"
#include "cmd-main.h"
#include "cmd-util.h"

int
cmd_main_job_action(int argc, char **argv, const char *prog,
    const char *usage, Basalt__JobAction action)
{
	/* -g: the jobs of the group and of its subgroups. */
	static const CmdOpt opts[] = { CMD_JOBGROUP_OPT, { NULL, FALSE } };
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	Basalt__JobControlRequest req = BASALT__JOB_CONTROL_REQUEST__INIT;
	int code;

	if (cmd_main_hv(argc, argv, usage, &code))
		return code;
	sa = select_args_parse(prog, argc, argv, "ad", opts, usage, &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	if (!cmd_job_group_query(sa, prog, FALSE))
		return CMD_EXIT_FAIL;
	req.action = action;
	return cmd_main_control(&req, sa);
}
