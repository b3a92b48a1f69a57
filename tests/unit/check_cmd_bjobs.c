/* cmd/bjobs-format: golden output of every bjobs layout. */
#include "config.h"

#include <stdlib.h>

#include "tap.h"
#include "bjobs-format.h"

#define T0 1669024920      /* Mon Nov 21 10:02:00 2022 UTC */

/* Test jobs live in a GPtrArray of allocations freed with the list. */
typedef struct {
	Basalt__JobList list;
	Basalt__JobInfo *jobs[4];
	Basalt__JobInfo info[4];
	Basalt__JobSpec spec[4];
	Basalt__ResourceUsage usage;
} Fixture;

static char *hosts1[] = { "hostB" };
static char *hosts3[] = { "hostB", "hostB", "hostB", "hostB", "hostC", "hostC" };
static int32_t pids[] = { 4321, 4322 };

static void
job(Basalt__JobInfo *j, Basalt__JobSpec *s, guint64 id, const char *user,
    Basalt__JobState st, const char *queue, const char *name)
{
	basalt__job_info__init(j);
	basalt__job_spec__init(s);
	j->job_id = id;
	j->user = (char *)user;
	j->state = st;
	j->queue = (char *)queue;
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

	basalt__job_list__init(&f->list);
	job(&j[0], &f->spec[0], 101, "alice", BASALT__JOB_STATE__JOB_STATE_RUN,
	    "normal", "sleep");
	j[0].n_exec_hosts = 1;
	j[0].exec_hosts = hosts1;
	j[0].start_time = T0 + 5;
	f->spec[0].stdout_path = "/tmp/o";
	f->spec[0].runlimit_s = 3600;
	basalt__resource_usage__init(&f->usage);
	f->usage.utime_us = 1500000;
	f->usage.stime_us = 500000;
	f->usage.rss_kb = 2048;
	f->usage.max_rss_kb = 4096;
	f->usage.nprocs = 1;
	f->usage.pgid = 4321;
	f->usage.n_pids = 2;
	f->usage.pids = pids;
	j[0].usage = &f->usage;
	job(&j[1], &f->spec[1], 102, "verylonguser",
	    BASALT__JOB_STATE__JOB_STATE_PEND, "verylongqueuename",
	    "a_very_long_job_name");
	j[1].pending_reason = "New job is waiting for scheduling";
	job(&j[2], &f->spec[2], 1234567890, "bob",
	    BASALT__JOB_STATE__JOB_STATE_RUN, "normal", "arr[1-10]");
	j[2].array_index = 3;
	j[2].n_exec_hosts = 6;
	j[2].exec_hosts = hosts3;
	j[2].start_time = T0 + 60;
	job(&j[3], &f->spec[3], 104, "carol", BASALT__JOB_STATE__JOB_STATE_EXIT,
	    "short", "say \"hi\"");
	j[3].n_exec_hosts = 1;
	j[3].exec_hosts = hosts1;
	j[3].start_time = T0 + 10;
	j[3].end_time = T0 + 70;
	j[3].term_signal = 9;
	for (int i = 0; i < 4; i++)
		f->jobs[i] = &j[i];
	f->list.jobs = f->jobs;
	f->list.n_jobs = 4;
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

START_TEST(test_table_default)
{
	FIX;
	GS(out);
	BjobsOpts o = { .now = T0 + 80 };

	bjobs_format_table(out, only(f, 0, 3), &o);
	ck_assert_str_eq(out->str,
		"JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME\n"
		"101     alice   RUN   normal     hostA       hostB       sleep      Nov 21 10:02\n"
		"102     verylo* PEND  verylongq* hostA                   *_job_name Nov 21 10:02\n"
		"1234567890 bob     RUN   normal     hostA       4*hostB     arr[3]     Nov 21 10:02\n"
		"                                             2*hostC\n");
}
END_TEST

/* An element's name is built in a buffer in the table and by
 * bjobs_job_name elsewhere: the same text at every length, the buffer's
 * edge (128 bytes) and past it included, and ids of every width. */
START_TEST(test_table_element_names)
{
	FIX;
	BjobsOpts o = { .wide = TRUE, .noheader = TRUE };
	static const guint32 indexes[] = { 1, 9, 10, 999999, G_MAXUINT32 };

	for (gsize len = 1; len < 300; len++) {
		g_autofree char *base = g_strnfill(len, 'n');
		g_autofree char *arr = g_strdup_printf("%s[1-10]", base);
		const char *names[] = { base, arr };

		for (gsize k = 0; k < G_N_ELEMENTS(names); k++)
			for (gsize i = 0; i < G_N_ELEMENTS(indexes); i++) {
				GS(out);
				g_autofree char *want = NULL;
				g_autofree char *row = NULL;

				f->info[2].job_name = (char *)names[k];
				f->info[2].array_index = indexes[i];
				f->info[2].job_id = G_MAXUINT64 - len;
				want = bjobs_job_name(&f->info[2]);
				bjobs_format_table(out, only(f, 2, 1), &o);
				row = g_strdup_printf("%" G_GUINT64_FORMAT " bob     RUN   "
				    "normal     hostA       4*hostB:2*hostC %s ",
				    G_MAXUINT64 - len, want);
				ck_assert_msg(g_str_has_prefix(out->str, row),
				    "%s\nis not\n%s", out->str, row);
			}
	}
}
END_TEST

START_TEST(test_table_wide_noheader)
{
	FIX;
	GS(out);
	BjobsOpts o = { .wide = TRUE, .noheader = TRUE };

	bjobs_format_table(out, only(f, 1, 2), &o);
	ck_assert_str_eq(out->str,
		"102     verylonguser PEND  verylongqueuename hostA                   "
		"a_very_long_job_name Nov 21 10:02\n"
		"1234567890 bob     RUN   normal     hostA       4*hostB:2*hostC "
		"arr[3]     Nov 21 10:02\n");
}
END_TEST

START_TEST(test_table_reasons)
{
	FIX;
	GS(out);
	BjobsOpts o = { .reasons = TRUE, .noheader = TRUE };

	f->info[0].state = BASALT__JOB_STATE__JOB_STATE_SSUSP;
	f->info[0].suspend_reason = "The job was suspended by user;";
	bjobs_format_table(out, only(f, 0, 2), &o);
	ck_assert_str_eq(out->str,
		"101     alice   SSUSP normal     hostA       hostB       sleep      Nov 21 10:02\n"
		" The job was suspended by user;\n"
		"102     verylo* PEND  verylongq* hostA                   *_job_name Nov 21 10:02\n"
		" New job is waiting for scheduling;\n");
}
END_TEST

START_TEST(test_wide_W)
{
	FIX;
	GS(out);
	BjobsOpts o = { 0 };

	f->spec[1].project = "proj1";
	bjobs_format_wide(out, only(f, 0, 2), &o);
	ck_assert_str_eq(out->str,
		"JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   "
		"SUBMIT_TIME  PROJ_NAME CPU_USED MEM SWAP PIDS START_TIME FINISH_TIME\n"
		"101     alice   RUN   normal     hostA       hostB       sleep      "
		"11/21-10:02:00 default 000:00:02.00 2048 - 4321,4322 11/21-10:02:05 -\n"
		"102     verylonguser PEND  verylongqueuename hostA                   "
		"a_very_long_job_name 11/21-10:02:00 proj1 000:00:00.00 - - - - -\n");
}
END_TEST

START_TEST(test_long_running)
{
	FIX;
	GS(out);
	BjobsOpts o = { .now = T0 + 200 };

	bjobs_format_long(out, only(f, 0, 1), &o);
	ck_assert_str_eq(out->str,
		"\n"
		"Job <101>, Job Name <sleep>, User <alice>, Project <default>, Status <RUN>, Queu\n"
		"                     e <normal>, Command <sleep 100>\n"
		"Mon Nov 21 10:02:00: Submitted from host <hostA>, CWD </home/alice>, Output File\n"
		"                      </tmp/o>;\n"
		"Mon Nov 21 10:02:05: Started on Host(s) <hostB>, Execution CWD </home/alice>;\n"
		"Mon Nov 21 10:05:20: Resource usage collected.\n"
		"                     The CPU time used is 2 seconds.\n"
		"                     MEM: 2 Mbytes;  NPROCS: 1\n"
		"                     PGID: 4321;  PIDs: 4321 4322\n"
		"\n"
		" MEMORY USAGE:\n"
		" MAX MEM: 4 Mbytes\n"
		"\n"
		" RUNLIMIT\n"
		" 60.0 min\n");
}
END_TEST

/* A started job shows the limits it started with (mbatchd's stamp), not
 * the ones it asked for: here the queue's MEMLIMIT bounded its run limit
 * down and added a memory limit. */
START_TEST(test_long_effective_limits)
{
	FIX;
	GS(out);
	BjobsOpts o = { .now = T0 + 200 };
	Basalt__JobEffective eff = BASALT__JOB_EFFECTIVE__INIT;
	Basalt__JobLimit run = BASALT__JOB_LIMIT__INIT, mem = BASALT__JOB_LIMIT__INIT;

	run.value = 1800;
	mem.value = 4096;
	eff.runlimit_s = &run;
	eff.memlimit_kb = &mem;
	eff.nice = 3;                       /* settings: bhist -l only */
	f->info[0].effective = &eff;
	f->info[0].usage = NULL;
	bjobs_format_long(out, only(f, 0, 1), &o);
	ck_assert_ptr_nonnull(strstr(out->str,
		"\n"
		" RUNLIMIT\n"
		" 30.0 min\n"
		"\n"
		" MEMLIMIT\n"
		" 4096 K\n"));
	ck_assert_ptr_null(strstr(out->str, "60.0 min"));
	ck_assert_ptr_null(strstr(out->str, "NICE"));
}
END_TEST

START_TEST(test_long_pending_and_exited)
{
	FIX;
	GS(out);
	BjobsOpts o = { .now = T0 };

	f->spec[1].min_slots = 4;
	f->spec[1].max_slots = 4;
	f->spec[1].resreq = "span[hosts=1]";
	f->spec[1].project = "p";
	f->jobs[2] = f->jobs[3];
	f->spec[3].memlimit_kb = 1048576;
	f->info[3].usage = &f->usage;
	bjobs_format_long(out, only(f, 1, 2), &o);
	ck_assert_str_eq(out->str,
		"\n"
		"Job <102>, Job Name <a_very_long_job_name>, User <verylonguser>, Project <p>, St\n"
		"                     atus <PEND>, Queue <verylongqueuename>, Command <sleep 100>\n"
		"Mon Nov 21 10:02:00: Submitted from host <hostA>, CWD </home/alice>, 4 Task(s), \n"
		"                     Requested Resources <span[hosts=1]>;\n"
		" PENDING REASONS:\n"
		" New job is waiting for scheduling;\n"
		"------------------------------------------------------------------------------\n"
		"\n"
		"Job <104>, Job Name <say \"hi\">, User <carol>, Project <default>, Status <EXIT>, \n"
		"                     Queue <short>, Command <sleep 100>\n"
		"Mon Nov 21 10:02:00: Submitted from host <hostA>, CWD </home/alice>;\n"
		"Mon Nov 21 10:02:10: Started on Host(s) <hostB>, Execution CWD </home/alice>;\n"
		"Mon Nov 21 10:03:10: Exited by signal 9. The CPU time used is 2.0 seconds.\n"
		"\n"
		" MEMORY USAGE:\n"
		" MAX MEM: 4 Mbytes\n"
		"\n"
		" MEMLIMIT\n"
		" 1048576 K\n");
}
END_TEST

/* A job a limit ended: LSF's "Completed <exit>; TERM_..." line after the
 * exit, and the run's accounting in the memory block. */
START_TEST(test_long_term_reason)
{
	FIX;
	GS(out);
	BjobsOpts o = { .now = T0 };

	f->info[3].usage = &f->usage;
	f->info[3].term_reason = "TERM_MEMLIMIT";
	f->usage.avg_rss_kb = 3072;
	f->usage.max_nprocs = 3;
	f->usage.max_nthreads = 5;
	f->usage.max_swap_kb = 20480;
	bjobs_format_long(out, only(f, 3, 1), &o);
	ck_assert_ptr_nonnull(strstr(out->str,
		"Mon Nov 21 10:03:10: Exited by signal 9. The CPU time used is 2.0 seconds.\n"
		"Mon Nov 21 10:03:10: Completed <exit>; TERM_MEMLIMIT: job killed after reaching \n"
		"                     LSF memory usage limit.\n"
		"\n"
		" MEMORY USAGE:\n"
		" MAX MEM: 4 Mbytes;  AVG MEM: 3 Mbytes\n"
		" MAX SWAP: 20 Mbytes\n"
		" MAX PROCS: 3;  MAX THREADS: 5\n"));
}
END_TEST

START_TEST(test_long_array_parallel)
{
	FIX;
	GS(out);
	BjobsOpts o = { .now = T0 };

	f->spec[2].command = "./a.out";
	f->spec[2].mail_user = "bob@x";
	bjobs_format_long(out, only(f, 2, 1), &o);
	ck_assert_str_eq(out->str,
		"\n"
		"Job <1234567890[3]>, Job Name <arr[3]>, User <bob>, Project <default>, Status <R\n"
		"                     UN>, Queue <normal>, Mail <bob@x>, Command <./a.out>\n"
		"Mon Nov 21 10:02:00: Submitted from host <hostA>, CWD </home/alice>;\n"
		"Mon Nov 21 10:03:00: Started 6 Task(s) on Host(s) <4*hostB> <2*hostC>, Execution\n"
		"                      CWD </home/alice>;\n");
}
END_TEST

START_TEST(test_custom_fields)
{
	FIX;
	GS(out);
	BjobsOpts o = { 0 };
	g_autoptr(BjobsFields) fl = bjobs_fields_parse("jobid stat: queue:-8 name:6",
						       NULL);

	ck_assert_ptr_nonnull(fl);
	bjobs_format_custom(out, fl, only(f, 0, 2), &o);
	ck_assert_str_eq(out->str,
		"JOBID STAT     QUEUE JOB_NA\n"
		"101 RUN     normal sleep\n"
		"102 PEND  verylong *_name\n");
}
END_TEST

START_TEST(test_custom_delimiter_and_values)
{
	FIX;
	GS(out);
	BjobsOpts o = { .noheader = FALSE };
	g_autoptr(BjobsFields) fl = bjobs_fields_parse(
		"JOBID pend_reason exit_code slots cpu_used max_mem proj_name "
		"exec_host from_host user start_time finish_time submit_time "
		"delimiter='^'", NULL);

	ck_assert_ptr_nonnull(fl);
	f->spec[1].min_slots = 4;
	bjobs_format_custom(out, fl, &f->list, &o);
	ck_assert_str_eq(out->str,
		"JOBID^PEND_REASON^EXIT_CODE^SLOTS^CPU_USED^MAX_MEM^PROJ_NAME^"
		"EXEC_HOST^FROM_HOST^USER^START_TIME^FINISH_TIME^SUBMIT_TIME\n"
		"101^-^-^1^2.0 second(s)^4 Mbytes^default^hostB^hostA^alice^"
		"Nov 21 10:02^Nov 21 11:02 L^Nov 21 10:02\n"
		"102^New job is waiting for scheduling^-^4^-^-^default^-^hostA^"
		"verylonguser^-^-^Nov 21 10:02\n"
		"1234567890^-^-^6^-^-^default^4*hostB:2*hostC^hostA^bob^"
		"Nov 21 10:03^-^Nov 21 10:02\n"
		"104^-^137^1^-^-^default^hostB^hostA^carol^Nov 21 10:02^"
		"Nov 21 10:03^Nov 21 10:02\n");
}
END_TEST

START_TEST(test_custom_errors)
{
	GError *err = NULL;

	ck_assert_ptr_null(bjobs_fields_parse("jobid bogus", &err));
	ck_assert_str_eq(err->message, "bjobs: Invalid field name or format in -o: bogus");
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("jobid:x", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("jobid:0", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("jobid delimiter=x", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("delimiter=','", &err));
	g_clear_error(&err);
	ck_assert_ptr_null(bjobs_fields_parse("", &err));
	g_clear_error(&err);
}
END_TEST

START_TEST(test_json)
{
	FIX;
	GS(out);
	BjobsOpts o = { 0 };
	g_autoptr(BjobsFields) fl = bjobs_fields_parse("jobid stat exit_code name",
						       NULL);

	f->jobs[1] = f->jobs[3];
	bjobs_format_json(out, fl, only(f, 0, 2), NULL, &o);
	ck_assert_str_eq(out->str,
		"{\n"
		"  \"COMMAND\":\"bjobs\",\n"
		"  \"JOBS\":2,\n"
		"  \"RECORDS\":[\n"
		"    {\n"
		"      \"JOBID\":\"101\",\n"
		"      \"STAT\":\"RUN\",\n"
		"      \"EXIT_CODE\":\"\",\n"
		"      \"JOB_NAME\":\"sleep\"\n"
		"    },\n"
		"    {\n"
		"      \"JOBID\":\"104\",\n"
		"      \"STAT\":\"EXIT\",\n"
		"      \"EXIT_CODE\":\"137\",\n"
		"      \"JOB_NAME\":\"say \\\"hi\\\"\"\n"
		"    }\n"
		"  ]\n"
		"}\n");
}
END_TEST

START_TEST(test_json_default_fields_and_empty)
{
	FIX;
	GS(out);
	GS(empty);
	BjobsOpts o = { 0 };

	bjobs_format_json(out, NULL, only(f, 1, 1), NULL, &o);
	ck_assert_str_eq(out->str,
		"{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":1,\n  \"RECORDS\":[\n"
		"    {\n"
		"      \"JOBID\":\"102\",\n"
		"      \"USER\":\"verylonguser\",\n"
		"      \"STAT\":\"PEND\",\n"
		"      \"QUEUE\":\"verylongqueuename\",\n"
		"      \"FROM_HOST\":\"hostA\",\n"
		"      \"EXEC_HOST\":\"\",\n"
		"      \"JOB_NAME\":\"a_very_long_job_name\",\n"
		"      \"SUBMIT_TIME\":\"Nov 21 10:02\"\n"
		"    }\n  ]\n}\n");
	bjobs_format_json(empty, NULL, only(f, 0, 0), NULL, &o);
	ck_assert_str_eq(empty->str,
		"{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":0,\n  \"RECORDS\":[\n  ]\n}\n");
}
END_TEST

static const char *
not_found(Basalt__JobQuery *q, Basalt__JobList *l)
{
	static char buf[256];
	GS(err);

	bjobs_format_not_found(err, q, l);
	g_strlcpy(buf, err->str, sizeof(buf));
	return buf;
}

START_TEST(test_not_found_messages)
{
	FIX;
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	Basalt__JobList *none = only(f, 0, 0);
	char *queues[] = { "short" };
	char *hosts[] = { "hostZ" };

	ck_assert_str_eq(not_found(&q, none), "No unfinished job found\n");
	q.all_states = TRUE;
	ck_assert_str_eq(not_found(&q, none), "No job found\n");
	q.all_states = FALSE;
	q.pending = TRUE;
	ck_assert_str_eq(not_found(&q, none), "No pending job found\n");
	q.pending = FALSE;
	q.running = TRUE;
	ck_assert_str_eq(not_found(&q, none), "No running job found\n");
	q.running = FALSE;
	q.suspended = TRUE;
	ck_assert_str_eq(not_found(&q, none), "No suspended job found\n");
	q.suspended = FALSE;
	q.finished = TRUE;
	ck_assert_str_eq(not_found(&q, none), "No DONE/EXIT job found\n");
	q.finished = FALSE;
	q.n_queues = 1;
	q.queues = queues;
	ck_assert_str_eq(not_found(&q, none),
			 "No unfinished job found in queue <short>\n");
	q.n_queues = 0;
	q.n_hosts = 1;
	q.hosts = hosts;
	ck_assert_str_eq(not_found(&q, none),
			 "No unfinished job found on host/group <hostZ>\n");
}
END_TEST

START_TEST(test_not_found_ids)
{
	FIX;
	GS(err);
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	uint64_t ids[] = { 101, 999, 1234567890, 1234567890 };
	uint32_t idx[] = { 0, 0, 3, 4 };

	q.n_job_ids = 4;
	q.job_ids = ids;
	q.n_array_indexes = 4;
	q.array_indexes = idx;
	ck_assert(bjobs_format_not_found(err, &q, only(f, 0, 3)));
	ck_assert_str_eq(err->str, "Job <999> is not found\n"
			 "Job <1234567890[4]> is not found\n");
	g_string_truncate(err, 0);
	q.n_job_ids = q.n_array_indexes = 1;
	ck_assert(!bjobs_format_not_found(err, &q, only(f, 0, 3)));
	ck_assert_str_eq(err->str, "");
	q.n_job_ids = q.n_array_indexes = 0;
	ck_assert(!bjobs_format_not_found(err, &q, only(f, 0, 1)));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_bjobs");
	TCase *tab = tcase_create("table");
	TCase *lng = tcase_create("long");
	TCase *cus = tcase_create("custom");
	TCase *msg = tcase_create("messages");

	setenv("TZ", "UTC", 1);
	tcase_add_test(tab, test_table_default);
	tcase_add_test(tab, test_table_wide_noheader);
	tcase_add_test(tab, test_table_element_names);
	tcase_add_test(tab, test_table_reasons);
	tcase_add_test(tab, test_wide_W);
	tcase_add_test(lng, test_long_running);
	tcase_add_test(lng, test_long_effective_limits);
	tcase_add_test(lng, test_long_pending_and_exited);
	tcase_add_test(lng, test_long_term_reason);
	tcase_add_test(lng, test_long_array_parallel);
	tcase_add_test(cus, test_custom_fields);
	tcase_add_test(cus, test_custom_delimiter_and_values);
	tcase_add_test(cus, test_custom_errors);
	tcase_add_test(cus, test_json);
	tcase_add_test(cus, test_json_default_fields_and_empty);
	tcase_add_test(msg, test_not_found_messages);
	tcase_add_test(msg, test_not_found_ids);
	suite_add_tcase(s, tab);
	suite_add_tcase(s, lng);
	suite_add_tcase(s, cus);
	suite_add_tcase(s, msg);
	return bs_run_suite(s);
}
