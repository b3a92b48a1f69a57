/*
 * bkill: kill jobs (the queue's termination sequence), send one signal
 * (-s), or remove jobs at once (-r).  Job id 0 with the filters means
 * every matching job; filters without an id mean the most recent
 * matching job, mbatchd's rule.  A bare "bkill" is refused, because
 * killing one's last job by accident is worse than a usage line.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "select-args.h"

#define BKILL_USAGE \
	"bkill [-h] [-V] [-l] [-r | -s signal_value | -s signal_name] " \
	"[-J job_name] [-m host_name] [-q queue_name] " \
	"[-u user_name | -u all] [0] [job_ID ... | \"job_ID[index]\" ...]"

static const CmdOpt bkill_opts[] = {
	{ "-s", TRUE }, { "-r", FALSE }, { "-l", FALSE }, { NULL, FALSE },
};

static gboolean
has_selection(const SelectArgs *sa)
{
	const Basalt__JobQuery *q = sa->query;

	return sa->all_matching || q->n_job_ids > 0 || q->n_users > 0 ||
	    q->n_queues > 0 || q->n_hosts > 0 ||
	    (q->job_name != NULL && q->job_name[0] != '\0');
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	Basalt__JobControlRequest req = BASALT__JOB_CONTROL_REQUEST__INIT;
	const char *sig;
	int code;

	if (cmd_main_hv(argc, argv, BKILL_USAGE, &code))
		return code;
	sa = select_args_parse("bkill", argc, argv, NULL, bkill_opts,
	    BKILL_USAGE, &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	if (select_args_has(sa, "-l")) {
		g_autoptr(GString) s = g_string_new(NULL);

		cmd_signal_list(s);
		if (s->len == 0 || s->str[s->len - 1] != '\n')
			g_string_append_c(s, '\n');
		cmd_main_out(s);
		return CMD_EXIT_OK;
	}
	if (!has_selection(sa) ||
	    (select_args_has(sa, "-r") && select_args_has(sa, "-s"))) {
		fprintf(stderr, "Usage: %s\n", BKILL_USAGE);
		return CMD_EXIT_FAIL;
	}
	req.action = BASALT__JOB_ACTION__JOB_ACTION_KILL;
	if (select_args_has(sa, "-r"))
		req.action = BASALT__JOB_ACTION__JOB_ACTION_REMOVE;
	if ((sig = select_args_get(sa, "-s")) != NULL) {
		req.action = BASALT__JOB_ACTION__JOB_ACTION_SIGNAL;
		req.signal = cmd_signal_parse(sig);
		if (req.signal < 0) {
			fprintf(stderr, "%s: Illegal signal value\n", sig);
			return CMD_EXIT_FAIL;
		}
	}
	return cmd_main_control(&req, sa);
}
