/*
 * lsb.acct's JOB_FINISH record (mbatchd/acct-record.c) as accounting tools
 * read it: fields split on blanks outside double quotes, a quote inside a
 * field doubled.  exitInfo carries LSF's number for the run's TERM_*
 * reason, postExecCmd the job's post-exec, and a hostile post-exec (quotes,
 * a newline, blanks) stays one field without moving the ones after it.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-acct.h"
#include "tap.h"

#define APP "appmark"

/* The record's fields, quotes removed and doubled quotes undone. */
static GPtrArray *
fields(const char *line)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	const char *p = line;

	while (*p != '\0' && *p != '\n') {
		GString *f = g_string_new(NULL);

		while (*p == ' ')
			p++;
		if (*p == '"') {
			for (p++; *p != '\0'; p++) {
				if (*p == '"' && p[1] == '"') {
					g_string_append_c(f, '"');
					p++;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					g_string_append_c(f, *p);
				}
			}
		} else {
			while (*p != '\0' && *p != ' ' && *p != '\n')
				g_string_append_c(f, *p++);
		}
		g_ptr_array_add(out, g_string_free(f, FALSE));
	}
	return out;
}

static guint
index_of(GPtrArray *f, const char *s)
{
	for (guint i = 0; i < f->len; i++)
		if (strcmp(f->pdata[i], s) == 0)
			return i;
	ck_abort_msg("field %s not in the record", s);
	return 0;
}

typedef struct {
	Basalt__JobSpec spec;
	Basalt__JobEffective eff;
	JobSpecRef ref;
	Job job;
} Fixture;

static void
fixture(Fixture *x)
{
	memset(x, 0, sizeof *x);
	basalt__job_spec__init(&x->spec);
	basalt__job_effective__init(&x->eff);
	x->spec.app_profile = (char *)APP;
	x->spec.command = (char *)"sleep 1";
	x->ref.spec = &x->spec;
	x->job.spec = &x->ref;
	x->job.id = 42;
	x->job.user = "alice";
	x->job.queue = "normal";
	x->job.state = JS_EXIT;
}

static GPtrArray *
record(const Job *j)
{
	g_autoptr(GString) out = g_string_new(NULL);

	acct_format_finish(out, j, 1700000000);
	ck_assert_int_eq(strchr(out->str, '\n') - out->str, (long)out->len - 1);
	return fields(out->str);
}

START_TEST(test_exit_info)
{
	static const struct { const char *reason; const char *want; } cases[] = {
		{ NULL, "0" }, { "TERM_RUNLIMIT", "5" }, { "TERM_DEADLINE", "6" },
		{ "TERM_PROCESSLIMIT", "7" }, { "TERM_CPULIMIT", "12" },
		{ "TERM_MEMLIMIT", "16" }, { "TERM_SWAP", "20" },
		{ "TERM_THREADLIMIT", "21" }, { "TERM_CWD_NOTEXIST", "25" },
		{ "TERM_NOT_A_REASON", "0" },
	};
	Fixture x;

	fixture(&x);
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GPtrArray) f = NULL;

		x.job.term_reason = (char *)cases[i].reason;
		f = record(&x.job);
		/* exitInfo, warningAction, warningTimePeriod, chargedSAAP,
		 * licenseProject, app. */
		ck_assert_str_eq(f->pdata[index_of(f, APP) - 5], cases[i].want);
	}
}
END_TEST

START_TEST(test_post_exec_cmd)
{
	Fixture x;
	g_autoptr(GPtrArray) none = NULL, stamped = NULL, own = NULL;

	fixture(&x);
	none = record(&x.job);
	ck_assert_str_eq(none->pdata[index_of(none, APP) + 1], "");

	x.eff.post_exec = (char *)"/bin/queue-post";
	x.job.effective = &x.eff;
	stamped = record(&x.job);
	ck_assert_str_eq(stamped->pdata[index_of(stamped, APP) + 1], "/bin/queue-post");

	x.spec.post_exec = (char *)"/bin/mine";
	own = record(&x.job);
	ck_assert_str_eq(own->pdata[index_of(own, APP) + 1], "/bin/mine");
	ck_assert_uint_eq(own->len, none->len);
}
END_TEST

START_TEST(test_hostile_post_exec)
{
	Fixture x;
	g_autoptr(GPtrArray) plain = NULL, hostile = NULL;
	guint app;

	fixture(&x);
	x.spec.job_group = (char *)"/grp";
	plain = record(&x.job);
	x.spec.post_exec = (char *)"echo \" 1 2 \"JOB_FINISH\"\nrm -rf x \"\"";
	hostile = record(&x.job);
	ck_assert_uint_eq(hostile->len, plain->len);
	app = index_of(hostile, APP);
	ck_assert_uint_eq(app, index_of(plain, APP));
	/* A newline becomes ';' (one record per line); quotes survive. */
	ck_assert_str_eq(hostile->pdata[app + 1],
	    "echo \" 1 2 \"JOB_FINISH\";rm -rf x \"\"");
	/* The fields after it are where they were. */
	ck_assert_str_eq(hostile->pdata[app + 3], "/grp");
	for (guint i = app + 2; i < hostile->len; i++)
		ck_assert_str_eq(hostile->pdata[i], plain->pdata[i]);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("acct_record");
	TCase *tc = tcase_create("acct_record");

	tcase_add_test(tc, test_exit_info);
	tcase_add_test(tc, test_post_exec_cmd);
	tcase_add_test(tc, test_hostile_post_exec);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
