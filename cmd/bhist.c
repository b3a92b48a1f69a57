/*
 * bhist: the history of jobs, read from mbatchd's journal files, so it
 * works with mbatchd down and shows jobs mbatchd has long forgotten.
 *
 * Selection is LSF's: your own unfinished jobs by default; -a, -d, -p, -r
 * and -s pick states; named job IDs are shown whoever owns them and in
 * any state; a time range (-C, -S, -D) without a state option looks at
 * every state, since a completion range means finished jobs.  One
 * deliberate difference: without -n every journal file is read, because
 * our segments do not repeat the unfinished jobs at each rotation the way
 * LSF's lsb.events switch does, and reading only the newest would lose
 * them.
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

#define BHIST_USAGE \
	"bhist [-h] [-V] [-a | -d | -p | -r | -s] [-l | -t] [-w] " \
	"[-n number_logfiles] [-C start_time,end_time] " \
	"[-D start_time,end_time] [-S start_time,end_time] [-J job_name] " \
	"[-q queue_name] [-u user_name | -u all] " \
	"[job_ID | \"job_ID[index]\" ...]"

typedef struct {
	HistFilter f;
	guint states;           /* from -a -d -p -r -s, 0: none given */
	gboolean lng, timeline, wide;
	guint nfiles;
	const char *user;
} BhistArgs;

static gboolean
opt_range(const char *arg, HistRange *r, gint64 now, GError **err)
{
	return hist_parse_range(arg, now, r, err);
}

static gboolean
opt(BhistArgs *a, int c, const char *arg, gint64 now, GError **err)
{
	guint64 n;

	switch (c) {
	case 'a': a->states |= HIST_SEL_ALL; return TRUE;
	case 'd': a->states |= HIST_SEL_DONE; return TRUE;
	case 'p': a->states |= HIST_SEL_PEND; return TRUE;
	case 'r': a->states |= HIST_SEL_RUN; return TRUE;
	case 's': a->states |= HIST_SEL_SUSP; return TRUE;
	case 'l': a->lng = TRUE; return TRUE;
	case 't': a->timeline = TRUE; return TRUE;
	case 'w': a->wide = TRUE; return TRUE;
	case 'u': a->user = arg; return TRUE;
	case 'q': a->f.queue = arg; return TRUE;
	case 'J': a->f.name = arg; return TRUE;
	case 'C': return opt_range(arg, &a->f.complete, now, err);
	case 'S': return opt_range(arg, &a->f.submit, now, err);
	case 'D': return opt_range(arg, &a->f.dispatch, now, err);
	case 'n':
		if (!cmd_parse_uint(arg, &n) || n > G_MAXUINT) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "%s: Illegal number of log files", arg);
			return FALSE;
		}
		a->nfiles = (guint)n;
		return TRUE;
	default:
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
		    "bhist: illegal option -- %c\nUsage: %s", optopt, BHIST_USAGE);
		return FALSE;
	}
}

static gboolean
parse(BhistArgs *a, int argc, char **argv, gint64 now, GError **err)
{
	int c;

	opterr = 0;
	while ((c = getopt(argc, argv, "adprsltwu:q:J:n:C:S:D:")) != -1)
		if (!opt(a, c, optarg, now, err))
			return FALSE;
	if (!hist_parse_jobs(&a->f, argv + optind, argc - optind, err))
		return FALSE;
	if (a->states != 0)
		a->f.states = a->states;
	else if (a->f.jobs->len > 0 || a->f.complete.set || a->f.submit.set ||
	    a->f.dispatch.set)
		a->f.states = HIST_SEL_ALL;
	/* Named jobs are shown whoever owns them, unless -u says otherwise. */
	if (a->user == NULL && a->f.jobs->len == 0)
		a->user = cmd_main_user();
	a->f.user = a->user != NULL && strcmp(a->user, "all") != 0 ?
	    a->user : NULL;
	return TRUE;
}

static int
show(const BhistArgs *a, const HistModel *m, gint64 now)
{
	g_autoptr(GPtrArray) jobs = hist_filter_select(&a->f, m);
	g_autoptr(GString) out = g_string_new(NULL);

	if (jobs->len == 0) {
		fprintf(stderr, "No matching job found\n");
		return CMD_EXIT_FAIL;
	}
	if (a->timeline)
		hist_format_timeline(out, jobs);
	else if (a->lng)
		hist_format_long(out, jobs, now);
	else
		hist_format_summary(out, jobs, now, a->wide);
	cmd_main_out(out);
	return CMD_EXIT_OK;
}

int
main(int argc, char **argv)
{
	BhistArgs a = { 0 };
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *warning = NULL;
	gint64 now = (gint64)time(NULL);
	HistModel *m = NULL;
	int code;

	if (cmd_main_hv(argc, argv, BHIST_USAGE, &code))
		return code;
	/* Limits show in LSF_UNIT_FOR_LIMITS; a bad value shows KB. */
	(void)cmd_main_mem_unit(NULL);
	hist_filter_init(&a.f);
	if (!parse(&a, argc, argv, now, &err) ||
	    (dir = hist_journal_dir(&err)) == NULL ||
	    (m = hist_load(dir, a.nfiles, &warning, &err)) == NULL) {
		code = cmd_main_fail(err);
	} else {
		if (warning != NULL)
			fprintf(stderr, "%s\n", warning);
		code = show(&a, m, now);
	}
	hist_model_free(m);
	hist_filter_clear(&a.f);
	return code;
}
