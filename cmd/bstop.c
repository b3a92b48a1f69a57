/*
 * bstop: suspend: RUN becomes USUSP, PEND becomes PSUSP.
 * Job id 0 with the filters means every matching job; no id means the
 * caller's most recent matching job, mbatchd's rule as LSF's.
 */
#include "config.h"

#include "cmd-jobaction.h"

#define USAGE \
	"bstop [-h] [-V] [-a] [-d] [-J job_name] [-m host_name] " \
	"[-q queue_name] [-g job_group_name] [-u user_name | -u all] [0] " \
	"[job_ID ... | \"job_ID[index]\" ...]"

int
main(int argc, char **argv)
{
	return cmd_main_job_action(argc, argv, "bstop", USAGE,
	    BASALT__JOB_ACTION__JOB_ACTION_STOP);
}
