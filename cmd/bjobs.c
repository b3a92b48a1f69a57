/*
 * bjobs: list jobs.  Selection is select-args.c's, the layouts are
 * bjobs-format.c's and bjobs-fields.c's; this picks the layout and
 * LSF's exit code: 255 whenever a "No ... job found" or "Job <N> is not
 * found" line was printed, even next to jobs that were found.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "bjobs-format.h"
#include "cmd-main.h"
#include "cmd-util.h"
#include "select-args.h"

#define BJOBS_USAGE \
	"bjobs [-h] [-V] [-a] [-d] [-p] [-r] [-s] [-l | -w | -W] " \
	"[-noheader] [-o \"field[:[-]width] ... [delimiter='char']\"] " \
	"[-json] [-J job_name] [-m host_name] [-q queue_name] " \
	"[-u user_name | -u all] [job_ID | \"job_ID[index]\" ...]"

static const CmdOpt bjobs_opts[] = {
	{ "-l", FALSE }, { "-w", FALSE }, { "-W", FALSE },
	{ "-noheader", FALSE }, { "-o", TRUE }, { "-json", FALSE },
	{ NULL, FALSE },
};

/* Formats the list the way the options ask; FALSE on a bad -o spec. */
static gboolean
format(GString *out, const SelectArgs *sa, const Basalt__JobList *l,
    GError **err)
{
	BjobsOpts o = { 0 };
	const char *spec = select_args_get(sa, "-o");
	g_autoptr(BjobsFields) f = NULL;

	o.wide = select_args_has(sa, "-w");
	o.noheader = select_args_has(sa, "-noheader");
	o.reasons = sa->query->pending || sa->query->suspended;
	o.now = (gint64)time(NULL);
	if (spec != NULL && (f = bjobs_fields_parse(spec, err)) == NULL)
		return FALSE;
	if (select_args_has(sa, "-json"))
		bjobs_format_json(out, f, l, &o);
	else if (l->n_jobs == 0)
		return TRUE;
	else if (f != NULL)
		bjobs_format_custom(out, f, l, &o);
	else if (select_args_has(sa, "-l"))
		bjobs_format_long(out, l, &o);
	else if (select_args_has(sa, "-W"))
		bjobs_format_wide(out, l, &o);
	else
		bjobs_format_table(out, l, &o);
	return TRUE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) errs = g_string_new(NULL);
	LsbJobPages pages;
	Basalt__JobList *l;
	int code;

	if (cmd_main_hv(argc, argv, BJOBS_USAGE, &code))
		return code;
	/* Limits show in LSF_UNIT_FOR_LIMITS; a bad value shows KB. */
	(void)cmd_main_mem_unit(NULL);
	sa = select_args_parse("bjobs", argc, argv, "adprs", bjobs_opts,
	    BJOBS_USAGE, &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	sa->query->detail = select_args_has(sa, "-l") ||
	    select_args_has(sa, "-W") || select_args_has(sa, "-o") ||
	    select_args_has(sa, "-json");
	fflush(stdout);
	if (!lsb_jobs_all(sa->query, &pages, &err)) {
		fprintf(stderr, "%s\n", err->message);
		return CMD_EXIT_FAIL;
	}
	l = &pages.list;
	if (cmd_main_refused(NULL, l->error)) {
		lsb_job_pages_clear(&pages);
		return CMD_EXIT_FAIL;
	}
	code = CMD_EXIT_OK;
	if (!format(out, sa, l, &err))
		code = cmd_main_fail(err);
	else if (bjobs_format_not_found(errs, sa->query, l))
		code = CMD_EXIT_FAIL;
	cmd_main_out(out);
	cmd_main_err(errs);
	lsb_job_pages_clear(&pages);
	return code;
}
