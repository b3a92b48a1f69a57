/*
 * bacct: accounting of finished jobs, read from mbatchd's journal files
 * (our lsb.acct is the journal itself: a job's DONE or EXIT event carries
 * its exit code and resource usage).  Your own jobs by default, -u all
 * for everyone's; named job IDs are accounted whoever owns them.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "hist-format.h"
#include "hist-io.h"

#define BACCT_USAGE \
	"bacct [-h] [-V] [-b | -l] [-d] [-e] [-w] [-x] " \
	"[-C start_time,end_time] " \
	"[-D start_time,end_time] [-S start_time,end_time] [-q queue_name] " \
	"[-m host_name] [-P project_name] " \
	"[-u user_name | -u all] [job_ID | \"job_ID[index]\" ...]"

typedef struct {
	HistFilter f;
	gboolean lng, brief, done_only, exit_only, wide, exceptions;
	const char *user;
	const char *project;        /* -P */
	const char *host;           /* -m */
} BacctArgs;

static gboolean
opt(BacctArgs *a, int c, const char *arg, gint64 now, GError **err)
{
	switch (c) {
	case 'l': a->lng = TRUE; return TRUE;
	case 'b': a->brief = TRUE; return TRUE;
	case 'd': a->done_only = TRUE; return TRUE;
	case 'e': a->exit_only = TRUE; return TRUE;
	case 'w': a->wide = TRUE; return TRUE;
	case 'x': a->exceptions = TRUE; return TRUE;
	case 'P': a->project = arg; return TRUE;
	case 'm': a->host = arg; return TRUE;
	case 'u': a->user = arg; return TRUE;
	case 'q': a->f.queue = arg; return TRUE;
	case 'C': return hist_parse_range(arg, now, &a->f.complete, err);
	case 'S': return hist_parse_range(arg, now, &a->f.submit, err);
	case 'D': return hist_parse_range(arg, now, &a->f.dispatch, err);
	default:
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
		    "bacct: illegal option -- %c\nUsage: %s", optopt, BACCT_USAGE);
		return FALSE;
	}
}

static gboolean
parse(BacctArgs *a, int argc, char **argv, gint64 now, GError **err)
{
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, "lbdewxP:m:u:q:C:S:D:")) != -1)
		if (!opt(a, c, optarg, now, err))
			return FALSE;
	if (a->lng && a->brief) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "bacct: -b and -l cannot be used together\nUsage: %s",
		    BACCT_USAGE);
		return FALSE;
	}
	if (!hist_parse_jobs(&a->f, argv + optind, argc - optind, err))
		return FALSE;
	a->f.states = HIST_SEL_DONE;
	if (a->user == NULL && a->f.jobs->len == 0)
		a->user = cmd_main_user();
	a->f.user = a->user != NULL && strcmp(a->user, "all") != 0 ?
	    a->user : NULL;
	return TRUE;
}

/*
 * What the history filter does not select on: -d, -e, -P, -m, -x.
 * Basalt raises no job exceptions (overrun, underrun, idle), so -x
 * keeps no job.
 */
static gboolean
keep(const BacctArgs *a, const HistJob *j)
{
	gboolean done = j->state == BASALT__JOB_STATE__JOB_STATE_DONE;

	/* -d and -e together ask for both kinds: no filter. */
	if (a->exceptions || (a->done_only && !a->exit_only && !done) ||
	    (a->exit_only && !a->done_only && done))
		return FALSE;
	if (a->project != NULL && strcmp(a->project, hist_job_project(j)) != 0)
		return FALSE;
	return a->host == NULL || (j->exec_hosts != NULL &&
	    g_strv_contains((const char *const *)j->exec_hosts, a->host));
}

static int
show(const BacctArgs *a, const HistModel *m)
{
	g_autoptr(GPtrArray) jobs = hist_filter_select(&a->f, m);
	g_autoptr(GString) out = g_string_new(NULL);
	HistAcctHeader h = {
		.user = a->f.user, .queue = a->f.queue, .submit = &a->f.submit,
		.dispatch = &a->f.dispatch, .complete = &a->f.complete,
		.project = a->project, .host = a->host,
		.done_only = a->done_only && !a->exit_only,
		.exit_only = a->exit_only && !a->done_only,
		.brief = a->brief, .wide = a->wide,
	};

	for (guint i = jobs->len; i > 0; i--)
		if (!keep(a, g_ptr_array_index(jobs, i - 1)))
			g_ptr_array_remove_index(jobs, i - 1);

	if (jobs->len == 0) {
		fprintf(stderr, "No matching job found\n");
		return CMD_EXIT_FAIL;
	}
	hist_format_acct(out, jobs, &h, a->lng);
	cmd_main_out(out);
	return CMD_EXIT_OK;
}

int
main(int argc, char **argv)
{
	BacctArgs a = { 0 };
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *warning = NULL;
	HistModel *m = NULL;
	int code;

	if (cmd_main_hv(argc, argv, BACCT_USAGE, &code))
		return code;
	hist_filter_init(&a.f);
	if (!parse(&a, argc, argv, (gint64)time(NULL), &err) ||
	    (dir = hist_journal_dir(&err)) == NULL ||
	    (m = hist_load(dir, 0, &warning, &err)) == NULL) {
		code = cmd_main_fail(err);
	} else {
		if (warning != NULL)
			fprintf(stderr, "%s\n", warning);
		code = show(&a, m);
	}
	hist_model_free(m);
	hist_filter_clear(&a.f);
	return code;
}
