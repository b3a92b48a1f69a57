/*
 * bjobs: list jobs.  Selection is select-args.c's, the layouts are
 * bjobs-format.c's, bjobs-custom.c's and bjobs-summary.c's; this picks
 * the layout and LSF's exit code: 255 whenever a "No ... job found" or
 * "Job <N> is not found" line was printed, even next to jobs that were
 * found.  -json never prints those lines: its document is the answer,
 * with empty RECORDS when nothing matched.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bjobs-format.h"
#include "cmd-main.h"
#include "cmd-util.h"
#include "cmd-jobgroup.h"
#include "select-args.h"

#define BJOBS_USAGE \
	"bjobs [-h] [-V] [-A] [-a] [-d] [-p] [-r] [-s] [-x] [-X] " \
	"[-l | -w | -W | -UF] [-sum] [-noheader] [-hms] " \
	"[-o \"field[:[-]width[:unit]] ... [delimiter='char']\"] [-json] " \
	"[-J job_name] [-m host_name] [-q queue_name] [-P project_name] " \
	"[-G user_group] [-app application_profile] [-g job_group] " \
	"[-N host_name | -N cpu_factor] " \
	"[-u user_name | -u all] [job_ID | \"job_ID[index]\" ...]"

static const CmdOpt bjobs_opts[] = {
	{ "-l", FALSE }, { "-w", FALSE }, { "-W", FALSE }, { "-UF", FALSE },
	{ "-noheader", FALSE }, { "-o", TRUE }, { "-json", FALSE },
	{ "-hms", FALSE }, { "-A", FALSE }, { "-X", FALSE }, { "-x", FALSE },
	{ "-sum", FALSE }, { "-N", TRUE }, { "-P", TRUE }, { "-G", TRUE },
	{ "-app", TRUE }, { "-g", TRUE },
	{ NULL, FALSE },
};

/* -P, -G and -app go to mbatchd, which selects on them (-g too, through
 * cmd_job_group_query). */
static void
query_filters(SelectArgs *sa)
{
	static const struct { const char *opt; gsize off; } map[] = {
		{ "-P", G_STRUCT_OFFSET(Basalt__JobQuery, project) },
		{ "-G", G_STRUCT_OFFSET(Basalt__JobQuery, user_group) },
		{ "-app", G_STRUCT_OFFSET(Basalt__JobQuery, app_profile) },
	};

	for (guint i = 0; i < G_N_ELEMENTS(map); i++) {
		const char *v = select_args_get(sa, map[i].opt);

		if (v != NULL)
			cmd_pb_set_str(G_STRUCT_MEMBER_P(sa->query, map[i].off),
				       v);
	}
}

/*
 * The default table, written out a block of rows at a time: a 100,000-job
 * listing is 8 MB of text, and building it whole grew the string by
 * copying it over and over and faulted in every page of it.
 */
#define TABLE_BLOCK 2048

static void
format_table_blocks(GString *out, const Basalt__JobList *l, BjobsOpts *o)
{
	for (size_t i = 0; i < l->n_jobs; i += TABLE_BLOCK) {
		Basalt__JobList part = *l;

		part.jobs = l->jobs + i;
		part.n_jobs = MIN(l->n_jobs - i, TABLE_BLOCK);
		bjobs_format_table(out, &part, o);
		o->noheader = TRUE;
		cmd_main_out(out);
	}
}

static void
layout_opts(const SelectArgs *sa, BjobsOpts *o)
{
	memset(o, 0, sizeof(*o));
	o->wide = select_args_has(sa, "-w");
	o->noheader = select_args_has(sa, "-noheader");
	o->reasons = sa->query->pending || sa->query->suspended;
	o->now = (gint64)time(NULL);
	o->hms = select_args_has(sa, "-hms");
	o->unformatted = select_args_has(sa, "-UF");
}

/* Formats the list the way the options ask; FALSE on a bad -o spec. */
static gboolean
format(GString *out, const SelectArgs *sa, const Basalt__JobList *l,
    const Basalt__JobQuery *asked, guint *shown, GError **err)
{
	BjobsOpts o;
	const char *spec = select_args_get(sa, "-o");
	g_autoptr(BjobsFields) f = NULL;

	layout_opts(sa, &o);
	*shown = (guint)l->n_jobs;
	if (spec != NULL && (f = bjobs_fields_parse(spec, err)) == NULL)
		return FALSE;
	if (select_args_has(sa, "-sum"))
		bjobs_format_sum(out, l, &o);
	else if (select_args_has(sa, "-A"))
		*shown = bjobs_format_arrays(out, l, asked, &o);
	else if (select_args_has(sa, "-json"))
		bjobs_format_json(out, f, l, sa->query, &o);
	else if (l->n_jobs == 0)
		return TRUE;
	else if (f != NULL)
		bjobs_format_custom(out, f, l, &o);
	else if (select_args_has(sa, "-l") || o.unformatted)
		bjobs_format_long(out, l, &o);
	else if (select_args_has(sa, "-W"))
		bjobs_format_wide(out, l, &o);
	else
		format_table_blocks(out, l, &o);
	return TRUE;
}

/*
 * The table of a listing that names no job ids, printed a page at a time
 * as the pages come: nothing else needs the whole listing, and a million
 * jobs held at once cost 400 MB and their page faults, and kept the
 * printing from overlapping mbatchd's packing of the next page.
 */
typedef struct {
	GString *out;
	BjobsOpts o;
	gsize shown;
	guint pages;
	gboolean refused;
} TableStream;

static gboolean
table_page(const Basalt__JobList *l, gpointer data)
{
	TableStream *t = data;

	if (t->pages++ == 0 && cmd_main_refused(NULL, l->error)) {
		t->refused = TRUE;
		return FALSE;
	}
	t->shown += l->n_jobs;
	format_table_blocks(t->out, l, &t->o);
	return TRUE;
}

static int
stream_table(const SelectArgs *sa, const Basalt__JobQuery *asked)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) errs = g_string_new(NULL);
	g_autoptr(GError) err = NULL;
	Basalt__JobList none = BASALT__JOB_LIST__INIT;
	TableStream t = { .out = out };
	gboolean ok;

	layout_opts(sa, &t.o);
	ok = lsb_jobs_each(sa->query, table_page, &t, &err);
	cmd_main_out(out);
	if (!ok) {
		fprintf(stderr, "%s\n", err->message);
		return CMD_EXIT_FAIL;
	}
	if (t.refused)
		return CMD_EXIT_FAIL;
	if (t.shown > 0)
		return CMD_EXIT_OK;
	bjobs_format_not_found(errs, asked, &none);
	cmd_main_err(errs);
	return CMD_EXIT_FAIL;
}

/* -x: jobs with exceptions.  Basalt raises no job exceptions (overrun,
 * underrun, idle), so none is listed. */
static void
drop_all(Basalt__JobList *l)
{
	l->n_jobs = 0;
}

/*
 * The "not found" lines (on errs) and whether bjobs fails with 255.
 * -sum always answers, with zeros; -json names missing ids inside its
 * document and fails only for those; -A counts arrays, not jobs.
 */
static gboolean
not_found(GString *errs, const SelectArgs *sa, const Basalt__JobQuery *asked,
	  const Basalt__JobList *l, guint shown)
{
	Basalt__JobList none = BASALT__JOB_LIST__INIT;
	g_auto(GStrv) missing = NULL;

	if (select_args_has(sa, "-sum"))
		return FALSE;
	if (select_args_has(sa, "-A"))
		return bjobs_format_not_found(errs, asked, shown > 0 ? l : &none);
	if (select_args_has(sa, "-json")) {
		missing = bjobs_missing_ids(asked, l);
		return missing[0] != NULL;
	}
	return bjobs_format_not_found(errs, asked, l);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(SelectArgs) sa = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) errs = g_string_new(NULL);
	Basalt__JobQuery asked;
	LsbJobPages pages = { 0 };
	Basalt__JobList *l;
	size_t n_all;
	guint shown;
	int code;

	if (cmd_main_hv(argc, argv, BJOBS_USAGE, &code))
		return code;
	/* Limits show in LSF_UNIT_FOR_LIMITS; a bad value shows KB. */
	(void)cmd_main_mem_unit(NULL);
	sa = select_args_parse("bjobs", argc, argv, "adprs", bjobs_opts,
	    BJOBS_USAGE, &err);
	if (sa == NULL)
		return cmd_main_fail(err);
	query_filters(sa);
	if (!cmd_job_group_query(sa, "bjobs", FALSE))
		return CMD_EXIT_FAIL;
	sa->query->detail = select_args_has(sa, "-l") ||
	    select_args_has(sa, "-W") || select_args_has(sa, "-o") ||
	    select_args_has(sa, "-json") || select_args_has(sa, "-UF") ||
	    select_args_has(sa, "-A") || select_args_has(sa, "-sum");
	/* Without detail the table is printed (-w too): its nine columns,
	 * and with -p or -s the reasons under each row, are all it reads. */
	if (!sa->query->detail)
		sa->query->fields = BASALT__JOB_FIELDS__JOB_FIELDS_TABLE |
		    (sa->query->pending || sa->query->suspended ?
		    BASALT__JOB_FIELDS__JOB_FIELDS_REASONS : 0);
	/* -A counts every element of an array, whatever states were asked
	 * for; the states then choose which arrays are shown. */
	asked = *sa->query;
	if (select_args_has(sa, "-A") && !select_args_has(sa, "-sum"))
		sa->query->all_states = TRUE;
	fflush(stdout);
	if (!sa->query->detail && sa->query->n_job_ids == 0 &&
	    !select_args_has(sa, "-x"))
		return stream_table(sa, &asked);
	if (!lsb_jobs_all(sa->query, &pages, &err)) {
		fprintf(stderr, "%s\n", err->message);
		return CMD_EXIT_FAIL;
	}
	l = &pages.list;
	if (cmd_main_refused(NULL, l->error)) {
		lsb_job_pages_clear(&pages);
		return CMD_EXIT_FAIL;
	}
	n_all = l->n_jobs;
	if (select_args_has(sa, "-x"))
		drop_all(l);
	code = CMD_EXIT_OK;
	if (!format(out, sa, l, &asked, &shown, &err))
		code = cmd_main_fail(err);
	else if (not_found(errs, sa, &asked, l, shown))
		code = CMD_EXIT_FAIL;
	cmd_main_out(out);
	cmd_main_err(errs);
	l->n_jobs = n_all;
	/* The pages were unpacked into one arena: freed a chunk at a time. */
	lsb_job_pages_clear(&pages);
	return code;
}
