/*
 * cmd/bjobs-fields.c, bjobs-custom.c, bjobs-summary.c: every field of the
 * -o table by each of its names, the values of the fields Basalt has data
 * for, -hms, widths, delimiters, memory units, -json error records, the
 * -A and -sum summaries and -UF.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "bjobs-fields.h"

#define T0 1669024920      /* Mon Nov 21 10:02:00 2022 UTC */
#define S(x) BASALT__JOB_STATE__JOB_STATE_##x

typedef struct {
	Basalt__JobList list;
	Basalt__JobInfo *jobs[5];
	Basalt__JobInfo info[5];
	Basalt__JobSpec spec[5];
	Basalt__ResourceUsage usage;
	Basalt__JobEffective eff;
	Basalt__JobLimit run, mem, file, core, stack, procs;
} Fixture;

static char *two_hosts[] = { "hostB", "hostB", "hostC" };
static char *one_host[] = { "hostB" };
static char *ask[] = { "hostB", "hostC" };
static int32_t pids[] = { 4321, 4322 };

static void
job(Basalt__JobInfo *j, Basalt__JobSpec *s, guint64 id, Basalt__JobState st,
    const char *name)
{
	basalt__job_info__init(j);
	basalt__job_spec__init(s);
	j->job_id = id;
	j->user = "alice";
	j->state = st;
	j->queue = "normal";
	j->from_host = "hostA";
	j->job_name = (char *)name;
	j->submit_time = T0;
	j->spec = s;
	s->command = "sleep 100";
	s->cwd = "/home/alice";
}

static Fixture *
fixture(void)
{
	Fixture *f = g_new0(Fixture, 1);
	Basalt__JobInfo *j = f->info;
	Basalt__JobSpec *s = f->spec;

	basalt__job_list__init(&f->list);
	/* 0: running for 100 s of a one-hour limit, on three slots. */
	job(&j[0], &s[0], 101, S(RUN), "sim");
	j[0].start_time = T0 + 20;
	j[0].n_exec_hosts = 3;
	j[0].exec_hosts = two_hosts;
	s[0].min_slots = 3;
	s[0].max_slots = 4;
	s[0].user_group = "physics";
	s[0].app_profile = "fluent";
	s[0].dependency = "done(100)";
	s[0].resreq = "select[mem>100]";
	s[0].stdin_path = "/in";
	s[0].stdout_path = "/out/%J";
	s[0].stderr_path = "/err";
	s[0].n_hosts = 2;
	s[0].hosts = ask;
	basalt__resource_usage__init(&f->usage);
	f->usage.utime_us = 45000000;
	f->usage.stime_us = 5000000;
	f->usage.rss_kb = 2048;
	f->usage.max_rss_kb = 4096;
	f->usage.n_pids = 2;
	f->usage.nthreads = 7;
	f->usage.pids = pids;
	j[0].usage = &f->usage;
	basalt__job_effective__init(&f->eff);
	basalt__job_limit__init(&f->run);
	basalt__job_limit__init(&f->mem);
	basalt__job_limit__init(&f->file);
	basalt__job_limit__init(&f->core);
	basalt__job_limit__init(&f->stack);
	basalt__job_limit__init(&f->procs);
	f->run.value = 3600;
	f->mem.value = 1048576;
	f->file.value = 2048;
	f->core.value = 0;
	f->stack.value = 8192;
	f->procs.value = 64;
	f->eff.runlimit_s = &f->run;
	f->eff.memlimit_kb = &f->mem;
	f->eff.filelimit_kb = &f->file;
	f->eff.corelimit_kb = &f->core;
	f->eff.stacklimit_kb = &f->stack;
	f->eff.processlimit = &f->procs;
	f->eff.post_exec = "/bin/cleanup";
	j[0].effective = &f->eff;
	/* 1: held, with a begin time. */
	job(&j[1], &s[1], 102, S(PSUSP), "held");
	j[1].pending_reason = "The job was suspended by the user while pending;";
	s[1].begin_time = T0 + 7200;
	s[1].project = "proj1";
	s[1].pre_exec = "/bin/check";
	/* 2-4: array 103, "arr[1-3]": DONE, RUN, PEND. */
	job(&j[2], &s[2], 103, S(DONE), "arr[1]");
	job(&j[3], &s[3], 103, S(RUN), "arr[2]");
	job(&j[4], &s[4], 103, S(PEND), "arr[3]");
	for (int i = 2; i < 5; i++) {
		j[i].array_index = (guint32)i - 1;
		s[i].job_name = "arr[1-3]";
	}
	j[2].start_time = T0 + 1;
	j[2].end_time = T0 + 2;
	j[3].start_time = T0 + 1;
	j[3].n_exec_hosts = 1;
	j[3].exec_hosts = one_host;
	for (int i = 0; i < 5; i++)
		f->jobs[i] = &j[i];
	f->list.jobs = f->jobs;
	f->list.n_jobs = 5;
	return f;
}

static Basalt__JobList *
only(Fixture *f, size_t first, size_t n)
{
	f->list.jobs = f->jobs + first;
	f->list.n_jobs = n;
	return &f->list;
}

#define FIX g_autofree Fixture *f = fixture()
#define GS(name) g_autoptr(GString) name = g_string_new(NULL)

static char *
custom(const char *spec, const Basalt__JobList *l, const BjobsOpts *o)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(BjobsFields) fl = bjobs_fields_parse(spec, &err);
	GString *out = g_string_new(NULL);

	ck_assert_msg(fl != NULL, "%s: %s", spec, err ? err->message : "");
	bjobs_format_custom(out, fl, l, o);
	return g_string_free(out, FALSE);
}

/* Every field LSF 10.1's bjobs -o documents, by its name. */
static const char *const lsf_fields[] = {
	"jobid", "jobindex", "stat", "user", "user_group", "queue", "job_name",
	"job_description", "proj_name", "application", "service_class",
	"job_group", "job_priority", "rsvid", "esub", "kill_reason",
	"dependency", "pend_reason", "charged_saap", "command",
	"pre_exec_command", "post_exec_command", "resize_notification_command",
	"pids", "exit_code", "exit_reason", "interactive", "from_host",
	"first_host", "exec_host", "nexec_host", "alloc_slot", "nalloc_slot",
	"host_file", "exclusive", "nreq_slot", "submit_time", "start_time",
	"estimated_start_time", "specified_start_time",
	"specified_terminate_time", "time_left", "finish_time",
	"estimated_run_time", "ru_utime", "ru_stime", "%complete",
	"pct_complete", "warning_action", "action_warning_time", "pendstate",
	"pend_time", "ependtime", "ipendtime", "estimated_sim_start_time",
	"effective_plimit", "plimit_remain", "effective_eplimit",
	"eplimit_remain", "cpu_used", "run_time", "idle_factor",
	"exception_status", "slots", "mem", "max_mem", "avg_mem", "memlimit",
	"swap", "swaplimit", "min_req_proc", "max_req_proc",
	"effective_resreq", "network_req", "filelimit", "corelimit",
	"stacklimit", "processlimit", "runtimelimit", "plimit", "input_file",
	"output_file", "error_file", "output_dir", "sub_cwd", "exec_home",
	"exec_cwd", "licproject", "forward_cluster", "forward_time",
	"srcjobid", "dstjobid", "source_cluster", "energy", "gpu_num",
	"suspend_reason", "resume_reason", "kill_issue_host",
	"suspend_issue_host", "resume_issue_host", "combined_resreq",
	"gpu_mode", "j_exclusive", "gpu_alloc", "nthreads", "hrusage",
	"eplimit", "gpfsio", "cpu_peak", "cpu_efficiency",
	"cpu_peak_efficiency", "mem_efficiency", "average_cpu_efficiency",
	"cpu_peak_reached_duration",
};

START_TEST(test_every_lsf_field_known)
{
	for (gsize i = 0; i < G_N_ELEMENTS(lsf_fields); i++) {
		g_autofree char *up = g_ascii_strup(lsf_fields[i], -1);

		ck_assert_msg(bjobs_field_find(lsf_fields[i]) != NULL, "%s",
			      lsf_fields[i]);
		ck_assert_ptr_nonnull(bjobs_field_find(up));
	}
}
END_TEST

/* Each row by each of its names: the header at the recommended width,
 * a value or "-" for every kind of job, the same key in JSON. */
START_TEST(test_every_row_renders)
{
	FIX;
	gsize n;
	const BjobsFieldDef *t = bjobs_field_table(&n);
	BjobsOpts o = { .now = T0 + 120 };

	/* Less the aliases listed: pct_complete, cpu_peak_efficiency. */
	ck_assert_uint_ge(n, G_N_ELEMENTS(lsf_fields) - 2);
	for (gsize i = 0; i < n; i++) {
		g_auto(GStrv) names = g_strsplit(t[i].names, " ", -1);

		ck_assert_uint_gt(t[i].width, 0);
		for (char **nm = names; *nm != NULL; nm++) {
			g_autofree char *spec = g_strdup_printf("%s: jobid", *nm);
			g_autofree char *out = custom(spec, &f->list, &o);
			g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
			g_autofree char *head = g_strndup(t[i].header, t[i].width);
			g_autoptr(BjobsFields) fl = bjobs_fields_parse(*nm, NULL);
			GS(json);
			g_autofree char *key = g_strdup_printf("\"%s\":", t[i].header);

			ck_assert_ptr_eq(bjobs_field_find(*nm), &t[i]);
			ck_assert_uint_eq(g_strv_length(lines), 7);
			ck_assert_msg(g_str_has_prefix(lines[0], head), "%s", out);
			for (int k = 1; k <= 5; k++)
				ck_assert_uint_gt(strlen(lines[k]), t[i].width);
			bjobs_format_json(json, fl, &f->list, NULL, &o);
			ck_assert_msg(strstr(json->str, key) != NULL, "%s", key);
		}
	}
}
END_TEST

START_TEST(test_values_running)
{
	FIX;
	BjobsOpts o = { .now = T0 + 120 };
	g_autofree char *out = custom(
		"jobid jobindex user_group application dependency command pids "
		"first_host nexec_host alloc_slot nalloc_slot nreq_slot "
		"min_req_proc max_req_proc ask_hosts time_left %complete "
		"finish_time ru_utime ru_stime pendstate pend_time cpu_used "
		"run_time idle_factor mem max_mem memlimit filelimit corelimit "
		"stacklimit processlimit runtimelimit input_file output_file "
		"error_file sub_cwd exec_cwd effective_resreq post_exec_command "
		"exit_code delimiter='|'", only(f, 0, 1), &o);

	ck_assert_str_eq(out,
		"JOBID|JOBINDEX|USER_GROUP|APPLICATION|DEPENDENCY|COMMAND|PIDS|"
		"FIRST_HOST|NEXEC_HOST|ALLOC_SLOT|NALLOC_SLOT|NREQ_SLOT|"
		"MIN_REQ_PROC|MAX_REQ_PROC|ASK_HOSTS|TIME_LEFT|%COMPLETE|"
		"FINISH_TIME|RU_UTIME|RU_STIME|PENDSTATE|PEND_TIME|CPU_USED|"
		"RUN_TIME|IDLE_FACTOR|MEM|MAX_MEM|MEMLIMIT|FILELIMIT|CORELIMIT|"
		"STACKLIMIT|PROCESSLIMIT|RUNTIMELIMIT|INPUT_FILE|OUTPUT_FILE|"
		"ERROR_FILE|SUB_CWD|EXEC_CWD|EFFECTIVE_RESREQ|POST_EXEC_COMMAND|"
		"EXIT_CODE\n"
		"101|0|physics|fluent|done(100)|sleep 100|4321,4322|hostB|2|"
		"2*hostB:hostC|3|3|3|4|hostB hostC|0:58 L|2.78% L|"
		"Nov 21 11:02 L|45.0 second(s)|5.0 second(s)|-|20|"
		"50.0 second(s)|100 second(s)|0.50|2 Mbytes|4 Mbytes|1.0 Gbytes|"
		"2 Mbytes|0 Kbytes|8 Mbytes|64|60.0 min|/in|/out/%J|/err|"
		"/home/alice|/home/alice|select[mem>100]|/bin/cleanup|-\n");
}
END_TEST

/* The fields of LSF 10.1 FP13/FP14: computed where Basalt has the data,
 * "-" where it has none; "all" and "all:N". */
START_TEST(test_efficiency_and_all)
{
	FIX;
	BjobsOpts o = { .now = T0 + 120 };
	gsize n;
	const BjobsFieldDef *t = bjobs_field_table(&n);
	const char *spec = "nthreads mem_efficiency average_cpu_efficiency "
	    "cpu_peak cpu_peak_efficiency cpu_peak_reached_duration "
	    "kill_issue_host gpfsio delimiter='|'";
	g_autofree char *run = custom(spec, only(f, 0, 1), &o);
	g_autofree char *held = NULL;
	g_autofree char *all = NULL;
	g_autofree char *all6 = NULL;
	g_auto(GStrv) lines = NULL;
	g_auto(GStrv) heads = NULL;

	/* 4 MB peak of a 1 GB limit; 50 s of CPU over 100 s on 3 slots. */
	ck_assert_str_eq(run, "NTHREADS|MEM_EFFICIENCY|AVERAGE_CPU_EFFICIENCY|"
	    "CPU_PEAK|CPU_EFFICIENCY|CPU_PEAK_REACHED_DURATION|KILL_ISSUE_HOST|"
	    "GPFSIO\n7|0.39%|16.67%|-|-|-|-|-\n");
	f->list.jobs = f->jobs;
	held = custom(spec, only(f, 1, 1), &o);
	ck_assert(g_str_has_suffix(held, "\n-|-|-|-|-|-|-|-\n"));

	all = custom("all delimiter='|'", only(f, 0, 1), &o);
	lines = g_strsplit(all, "\n", -1);
	heads = g_strsplit(lines[0], "|", -1);
	ck_assert_uint_eq(g_strv_length(heads), n);
	for (gsize i = 0; i < n; i++)
		ck_assert_str_eq(heads[i], t[i].header);
	/* all:6: every column six wide, cut where longer. */
	all6 = custom("all:6", only(f, 0, 1), &o);
	ck_assert(g_str_has_prefix(all6, "JOBID  JOBIND STAT   USER   "));
}
END_TEST

START_TEST(test_values_pending)
{
	FIX;
	BjobsOpts o = { .now = T0 + 60 };
	g_autofree char *out = custom(
		"jobid stat proj_name pendstate pend_time ependtime ipendtime "
		"pend_reason specified_start_time estimated_start_time "
		"time_left run_time exec_cwd first_host nalloc_slot slots "
		"pre_exec_command job_group exclusive interactive "
		"delimiter='|'", only(f, 1, 2), &o);

	ck_assert_str_eq(out,
		"JOBID|STAT|PROJ_NAME|PENDSTATE|PEND_TIME|EPENDTIME|IPENDTIME|"
		"PEND_REASON|SPECIFIED_START_TIME|ESTIMATED_START_TIME|TIME_LEFT|"
		"RUN_TIME|EXEC_CWD|FIRST_HOST|NALLOC_SLOT|SLOTS|PRE_EXEC_COMMAND|"
		"JOB_GROUP|EXCLUSIVE|INTERACTIVE\n"
		"102|PSUSP|proj1|IPEND|60|-|60|"
		"The job was suspended by the user while pending;|Nov 21 12:02|-|"
		"-|0 second(s)|-|-|-|1|/bin/check|-|-|N\n"
		"103|DONE|default|-|1|-|-|-|-|-|-|1 second(s)|/home/alice|-|-|1|"
		"-|-|-|N\n");
}
END_TEST

START_TEST(test_hms)
{
	FIX;
	BjobsOpts o = { .now = T0 + 20 + 123, .hms = TRUE };
	g_autofree char *out = custom(
		"cpu_used run_time time_left pend_time runtimelimit ru_utime "
		"jobid:-4", only(f, 0, 1), &o);

	ck_assert_str_eq(out,
		"CPU_USED RUN_TIME TIME_LEFT PEND_TIME RUNTIMELIMIT RU_UTIME JOBI\n"
		"00:00:50 00:02:03 00:57:57 L 00:00:20 01:00:00 00:00:45  101\n");
}
END_TEST

START_TEST(test_widths_and_delimiters)
{
	FIX;
	BjobsOpts o = { .now = T0 + 120 };
	g_autofree char *w = custom("jobid: stat:-6 command:5 user:",
				    only(f, 0, 1), &o);
	g_autofree char *dq = custom("jobid stat delimiter=\",\"",
				     only(f, 0, 2), &o);
	g_autofree char *blank = custom("jobid delimiter=' ' stat",
					only(f, 0, 1), &o);
	g_autofree char *quote = custom("jobid stat delimiter='\"'",
					only(f, 0, 1), &o);
	GError *err = NULL;

	ck_assert_str_eq(w,
		"JOBID     STAT COMMA USER\n"
		"101        RUN sleep alice\n");
	ck_assert_str_eq(dq, "JOBID,STAT\n101,RUN\n102,PSUSP\n");
	ck_assert_str_eq(blank, "JOBID STAT\n101 RUN\n");
	ck_assert_str_eq(quote, "JOBID\"STAT\n101\"RUN\n");
	ck_assert_ptr_null(bjobs_fields_parse("jobid delimiter='ab'", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("jobid delimiter=',", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("jobid delimiter=\",'", &err));
	g_clear_error(&err);
}
END_TEST

START_TEST(test_mem_units)
{
	FIX;
	BjobsOpts o = { .now = T0 + 120 };
	g_autofree char *out = custom("max_mem:10:MB memlimit::G mem:-12:kb",
				      only(f, 0, 1), &o);
	GError *err = NULL;

	ck_assert_str_eq(out,
		"MAX_MEM    MEMLIMIT                 MEM\n"
		"4.00 MB    1.00 GB           2048.00 KB\n");
	ck_assert_ptr_null(bjobs_fields_parse("jobid:7:MB", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("mem:7:XB", &err));
	g_clear_error(&err);
}
END_TEST

START_TEST(test_json_missing_ids)
{
	FIX;
	GS(out);
	BjobsOpts o = { 0 };
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	uint64_t ids[] = { 101, 999 };
	uint32_t idx[] = { 0, 2 };
	g_autoptr(BjobsFields) fl = bjobs_fields_parse("jobid stat", NULL);

	q.n_job_ids = q.n_array_indexes = 2;
	q.job_ids = ids;
	q.array_indexes = idx;
	bjobs_format_json(out, fl, only(f, 0, 1), &q, &o);
	ck_assert_str_eq(out->str,
		"{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":2,\n  \"RECORDS\":[\n"
		"    {\n      \"JOBID\":\"101\",\n      \"STAT\":\"RUN\"\n    },\n"
		"    {\n      \"JOBID\":\"999[2]\",\n"
		"      \"ERROR\":\"Job <999[2]> is not found\"\n    }\n"
		"  ]\n}\n");
}
END_TEST

START_TEST(test_arrays)
{
	FIX;
	GS(out);
	GS(none);
	GS(done);
	BjobsOpts o = { 0 };
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;

	/* Without the spec the name is cut back from the element's. */
	f->info[2].spec = NULL;
	ck_assert_uint_eq(bjobs_format_arrays(out, &f->list, &q, &o), 1);
	ck_assert_str_eq(out->str,
		"JOBID    ARRAY_SPEC  OWNER   NJOBS PEND DONE  RUN EXIT SSUSP USUSP PSUSP\n"
		"103      arr         alice       3    1    1    1    0     0     0     0\n");
	f->info[2].spec = &f->spec[2];
	f->jobs[0] = &f->info[3];
	f->jobs[1] = &f->info[2];
	o.noheader = TRUE;
	g_string_truncate(out, 0);
	bjobs_format_arrays(out, only(f, 0, 2), &q, &o);
	ck_assert_str_eq(out->str,
		"103      arr[1-3]    alice       2    0    1    1    0     0     0     0\n");
	/* -d: only arrays with a finished element; none when only DONE is
	 * missing from a pending-only query. */
	q.finished = TRUE;
	ck_assert_uint_eq(bjobs_format_arrays(done, only(f, 0, 2), &q, &o), 1);
	q.finished = FALSE;
	q.pending = TRUE;
	ck_assert_uint_eq(bjobs_format_arrays(none, only(f, 0, 2), &q, &o), 0);
	ck_assert_str_eq(none->str, "");
	/* A finished array asked for by id shows; by default it does not. */
	{
		Basalt__JobQuery byid = BASALT__JOB_QUERY__INIT;
		uint64_t ids[] = { 103 };

		ck_assert_uint_eq(bjobs_format_arrays(none, only(f, 1, 1), &byid,
						      &o), 0);
		byid.n_job_ids = 1;
		byid.job_ids = ids;
		ck_assert_uint_eq(bjobs_format_arrays(none, only(f, 1, 1), &byid,
						      &o), 1);
	}
}
END_TEST

START_TEST(test_sum)
{
	FIX;
	GS(out);
	BjobsOpts o = { 0 };

	f->info[2].state = S(SSUSP);
	f->spec[4].min_slots = 4;
	bjobs_format_sum(out, &f->list, &o);
	ck_assert_str_eq(out->str,
		"RUN        SSUSP      USUSP      UNKNOWN    PEND       FWD_PEND\n"
		"4          1          0          0          5          0\n");
}
END_TEST

START_TEST(test_long_unformatted)
{
	FIX;
	GS(wrapped);
	GS(flat);
	BjobsOpts o = { .now = T0 + 120 };

	f->spec[0].command = "a command long enough that the -l form must "
			     "wrap it over more than one line of eighty";
	bjobs_format_long(wrapped, only(f, 0, 1), &o);
	o.unformatted = TRUE;
	bjobs_format_long(flat, only(f, 0, 1), &o);
	ck_assert_msg(strstr(flat->str, "Queue <normal>, Command <a command long "
			     "enough that the -l form must wrap it over more "
			     "than one line of eighty>\n") != NULL, "%s",
		      flat->str);
	ck_assert_ptr_null(strstr(wrapped->str, "Queue <normal>, Command <a "
				  "command long enough that the -l form must "
				  "wrap it over more than one line of eighty>"));
	/* -l again after -UF wraps again. */
	o.unformatted = FALSE;
	g_string_truncate(flat, 0);
	bjobs_format_long(flat, only(f, 0, 1), &o);
	ck_assert_str_eq(flat->str, wrapped->str);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_bjobs_fields");
	TCase *fl = tcase_create("fields");
	TCase *sm = tcase_create("summaries");

	setenv("TZ", "UTC", 1);
	tcase_add_test(fl, test_every_lsf_field_known);
	tcase_add_test(fl, test_every_row_renders);
	tcase_add_test(fl, test_values_running);
	tcase_add_test(fl, test_values_pending);
	tcase_add_test(fl, test_efficiency_and_all);
	tcase_add_test(fl, test_hms);
	tcase_add_test(fl, test_widths_and_delimiters);
	tcase_add_test(fl, test_mem_units);
	tcase_add_test(fl, test_json_missing_ids);
	tcase_add_test(sm, test_arrays);
	tcase_add_test(sm, test_sum);
	tcase_add_test(sm, test_long_unformatted);
	suite_add_tcase(s, fl);
	suite_add_tcase(s, sm);
	return bs_run_suite(s);
}
