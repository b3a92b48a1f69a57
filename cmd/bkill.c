/*
 * bkill: kill jobs (the queue's termination sequence), send one signal
 * (-s), or remove jobs at once (-r).  Job id 0 with the filters means
 * every matching job; filters without an id mean the most recent
 * matching job, mbatchd's rule.  A bare "bkill" is refused, because
 * killing one's last job by accident is worse than a usage line.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "jobctl-format.h"
#include "cmd-jobgroup.h"
#include "select-args.h"

#define BKILL_USAGE \
	"bkill [-h] [-V] [-l] [-b | -stat run | pend | susp | all] " \
	"[-app application_profile_name] [-g job_group_name] " \
	"[-r | -s signal_value | -s signal_name | -d] [-J job_name] " \
	"[-m host_name] [-q queue_name] " \
	"[-u user_name | -u all] [0] [job_ID ... | \"job_ID[index]\" ...]"

static const CmdOpt bkill_opts[] = {
	{ "-s", TRUE }, { "-r", FALSE }, { "-l", FALSE }, { "-b", FALSE },
	{ "-stat", TRUE }, { "-app", TRUE }, { "-g", TRUE }, { "-d", FALSE },
	{ NULL, FALSE },
};

static gboolean
has_selection(const SelectArgs *sa)
{
	const Basalt__JobQuery *q = sa->query;

	return sa->all_matching || q->n_job_ids > 0 || q->n_users > 0 ||
	    q->n_queues > 0 || q->n_hosts > 0 ||
	    (q->job_name != NULL && q->job_name[0] != '\0') ||
	    select_args_has(sa, "-app") || select_args_has(sa, "-g") ||
	    select_args_has(sa, "-stat");
}

/* -stat run|pend|susp|all as the query's state filters; FALSE if none. */
static gboolean
take_stat(Basalt__JobQuery *q, const char *stat)
{
	if (strcmp(stat, "run") == 0)
		q->running = TRUE;
	else if (strcmp(stat, "pend") == 0)
		q->pending = TRUE;
	else if (strcmp(stat, "susp") == 0)
		q->suspended = TRUE;
	else if (strcmp(stat, "all") == 0)
		q->pending = q->running = q->suspended = TRUE;
	else
		return FALSE;
	return TRUE;
}

/*
 * bkill -b 0: every job killed is reported, the ones that could not be
 * (finished meanwhile, someone else's) are skipped without a word.
 */
static int
bulk_kill(Basalt__JobControlRequest *req, const SelectArgs *sa)
{
	g_autoptr(GString) line = g_string_new(NULL);
	Basalt__JobControlReply *r;
	int code = CMD_EXIT_OK;
	size_t done = 0;

	req->select = sa->query;
	req->all_matching = TRUE;
	r = (Basalt__JobControlReply *)cmd_main_call(LSB_CONTROL, &req->base);
	req->select = NULL;
	if (r == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(NULL, r->error))
		code = CMD_EXIT_FAIL;
	for (size_t i = 0; i < r->n_results; i++) {
		if (r->results[i]->error != NULL)
			continue;
		if (jobctl_format_result(line, req->action, req->signal,
		    r->results[i])) {
			cmd_main_out(line);
			done++;
		}
	}
	if (code == CMD_EXIT_OK && done == 0) {
		fprintf(stderr, "No matching job found\n");
		code = CMD_EXIT_FAIL;
	}
	basalt__job_control_reply__free_unpacked(r, NULL);
	return code;
}

static void
query_filters(SelectArgs *sa)
{
	const char *v;

	if ((v = select_args_get(sa, "-app")) != NULL)
		cmd_pb_set_str(&sa->query->app_profile, v);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	Basalt__JobControlRequest req = BASALT__JOB_CONTROL_REQUEST__INIT;
	const char *sig, *stat;
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
	    (select_args_has(sa, "-r") && select_args_has(sa, "-s")) ||
	    (select_args_has(sa, "-b") && select_args_has(sa, "-stat"))) {
		fprintf(stderr, "Usage: %s\n", BKILL_USAGE);
		return CMD_EXIT_FAIL;
	}
	if ((stat = select_args_get(sa, "-stat")) != NULL &&
	    !take_stat(sa->query, stat)) {
		fprintf(stderr, "%s: Illegal job status; use run, pend, susp "
		    "or all\nUsage: %s\n", stat, BKILL_USAGE);
		return CMD_EXIT_FAIL;
	}
	query_filters(sa);
	/* LSF: bkill -g kills the jobs of that group, not of its subgroups. */
	if (!cmd_job_group_query(sa, "bkill", TRUE))
		return CMD_EXIT_FAIL;
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
	if (select_args_has(sa, "-d") &&
	    req.action == BASALT__JOB_ACTION__JOB_ACTION_KILL)
		req.record_done = TRUE;
	/* As LSF: -b is ignored with -r or -s, and means the sweep only
	 * with job id 0. */
	if (select_args_has(sa, "-b") && sa->all_matching &&
	    req.action == BASALT__JOB_ACTION__JOB_ACTION_KILL)
		return bulk_kill(&req, sa);
	return cmd_main_control(&req, sa);
}
