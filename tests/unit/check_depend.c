/*
 * lib/job/depend: canonical forms, exact error messages, references, and
 * evaluation over a fake job table (every state, exit codes, names with
 * several matches, wildcards, array counts, && || ! precedence).
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "job/depend.h"
#include "util/error.h"

/* ------------------------------------------------------------------ */
/* Helpers */

static void
check_canon(const char *in, const char *want)
{
	GError *err = NULL;
	BsDepend *d = bs_depend_parse(in, &err), *again;
	char *s, *s2;

	ck_assert_msg(d != NULL, "\"%s\": %s", in, err ? err->message : "?");
	s = bs_depend_to_string(d);
	ck_assert_str_eq(s, want);
	again = bs_depend_parse(s, &err);
	ck_assert_msg(again != NULL, "\"%s\": %s", s, err ? err->message : "?");
	s2 = bs_depend_to_string(again);
	ck_assert_str_eq(s2, want);
	g_free(s);
	g_free(s2);
	bs_depend_free(d);
	bs_depend_free(again);
}

static void
check_fails(const char *in, const char *detail)
{
	GError *err = NULL;
	BsDepend *d = bs_depend_parse(in, &err);
	char *want = g_strdup_printf("bad dependency condition \"%s\": %s",
	    in, detail);

	ck_assert_msg(d == NULL, "\"%s\" parsed", in);
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_FAILED));
	ck_assert_str_eq(err->message, want);
	g_error_free(err);
	g_free(want);
}

typedef struct {
	guint64 id;
	const char *name;
	guint index;            /* 0: not an array element */
	BsDependJobState state;
	int exit_code;
	BsDependPost post;
} FakeJob;

#define PEND BS_DEPEND_JOB_PEND
#define HELD BS_DEPEND_JOB_HELD
#define RUN BS_DEPEND_JOB_RUN
#define SUSP BS_DEPEND_JOB_SUSP
#define DONE BS_DEPEND_JOB_DONE
#define EXIT BS_DEPEND_JOB_EXIT
#define P_NONE BS_DEPEND_POST_NONE
#define P_DONE BS_DEPEND_POST_DONE
#define P_ERR BS_DEPEND_POST_ERR

static const FakeJob jobs[] = {
	{ 1, "build", 0, DONE, 0, P_DONE },
	{ 2, "test", 0, EXIT, 3, P_ERR },
	{ 3, "run1", 0, RUN, 0, P_NONE },
	{ 4, "pend1", 0, PEND, 0, P_NONE },
	{ 5, "held1", 0, HELD, 0, P_NONE },
	{ 6, "susp1", 0, SUSP, 0, P_NONE },
	{ 7, "build", 0, PEND, 0, P_NONE },       /* a second "build" */
	{ 8, "nightly-a", 0, DONE, 0, P_DONE },
	{ 9, "nightly-b", 0, DONE, 0, P_DONE },
	{ 10, "nightlyx", 0, EXIT, 1, P_DONE },
	{ 11, "postpending", 0, DONE, 0, P_NONE },
	{ 200, "arr", 1, DONE, 0, P_DONE },
	{ 200, "arr", 2, DONE, 0, P_DONE },
	{ 200, "arr", 3, EXIT, 2, P_DONE },
	{ 200, "arr", 4, RUN, 0, P_NONE },
	{ 200, "arr", 5, PEND, 0, P_NONE },
	{ 300, "all", 1, DONE, 0, P_DONE },
	{ 300, "all", 2, DONE, 0, P_DONE },
	{ 300, "all", 3, DONE, 0, P_DONE },
};

static void
fake_lookup(const BsDependRef *ref, GArray *out, void *data)
{
	for (gsize i = 0; i < G_N_ELEMENTS(jobs); i++) {
		const FakeJob *j = &jobs[i];
		BsDependJob info = { j->state, j->exit_code, j->post };
		gboolean same = ref->name ? bs_depend_name_matches(ref->name, j->name) :
		    ref->job_id == j->id;

		if (same && (ref->index == 0 || ref->index == j->index))
			g_array_append_val(out, info);
	}
}

/* want: 'S'atisfied, 'W'ait or 'N'ever */
static void
check_eval(const char *in, char want)
{
	GError *err = NULL;
	BsDepend *d = bs_depend_parse(in, &err);
	BsDependResult r;
	char got;

	ck_assert_msg(d != NULL, "\"%s\": %s", in, err ? err->message : "?");
	r = bs_depend_eval(d, fake_lookup, NULL);
	got = r == BS_DEPEND_SATISFIED ? 'S' : r == BS_DEPEND_WAIT ? 'W' : 'N';
	ck_assert_msg(got == want, "\"%s\": got %c, want %c", in, got, want);
	bs_depend_free(d);
}

/* ------------------------------------------------------------------ */
/* Parsing */

START_TEST(test_canon_jobs)
{
	check_canon("done(1)", "done(1)");
	check_canon("1", "done(1)");
	check_canon("  done ( 1 )  ", "done(1)");
	check_canon("123[4]", "done(123[4])");
	check_canon("done(123 [ 4 ])", "done(123[4])");
	check_canon("myjob", "done(myjob)");
	check_canon("\"my job\"", "done(\"my job\")");
	check_canon("'my job'", "done(\"my job\")");
	check_canon("done(\"abc\")", "done(abc)");
	check_canon("done(\"123\")", "done(\"123\")");
	check_canon("done(\"arr[3]\")", "done(arr[3])");
	check_canon("done(\"a b[3]\")", "done(\"a b[3]\")");
	check_canon("done(arr[3])", "done(arr[3])");
	check_canon("done(nightly*)", "done(nightly*)");
	check_canon("done(job.v1-2)", "done(job.v1-2)");
	check_canon("done(1abc)", "done(1abc)");
	check_canon("done('say \"hi\"')", "done('say \"hi\"')");
	check_canon("done", "done(done)");
}
END_TEST

START_TEST(test_canon_conditions)
{
	check_canon("exit(12)", "exit(12)");
	check_canon("exit(12, 3)", "exit(12,==3)");
	check_canon("exit(12,>3)", "exit(12,>3)");
	check_canon("exit( 12 , >= 3 )", "exit(12,>=3)");
	check_canon("exit(12,=3)", "exit(12,==3)");
	check_canon("exit(12,!=0)", "exit(12,!=0)");
	check_canon("numdone(200, *)", "numdone(200,*)");
	check_canon("numrun(200, > 5)", "numrun(200,>5)");
	check_canon("numhold(200,0)", "numhold(200,==0)");
	check_canon("numended(1,*) && numexit(1,<2) && numstart(1,!=0) && numpend(1,<=3)",
	    "numended(1,*) && numexit(1,<2) && numstart(1,!=0) && numpend(1,<=3)");
	check_canon("post_done(5) || post_err(5) || started(6) || ended(7)",
	    "post_done(5) || post_err(5) || started(6) || ended(7)");
}
END_TEST

START_TEST(test_canon_operators)
{
	check_canon("done(1) && done(2) || !exit(3)", "done(1) && done(2) || !exit(3)");
	check_canon("done(1) && (done(2) || done(3))", "done(1) && (done(2) || done(3))");
	check_canon("(done(1) && done(2)) || done(3)", "done(1) && done(2) || done(3)");
	check_canon("done(1) || (done(2) || done(3))", "done(1) || (done(2) || done(3))");
	check_canon("!(done(1) && done(2))", "!(done(1) && done(2))");
	check_canon("!!done(1)", "!!done(1)");
	check_canon("! ( 1 )", "!done(1)");
	check_canon("done(1)&&done(2)", "done(1) && done(2)");
	check_canon("1 && a || b", "done(1) && done(a) || done(b)");
}
END_TEST

START_TEST(test_errors)
{
	check_fails("", "expected a condition or a job at column 1");
	check_fails("done(", "expected a job ID or name at column 6");
	check_fails("done(1", "missing ')' for this '(' at column 5");
	check_fails("done(1 2)", "unexpected '2' at column 8");
	check_fails("done()", "expected a job ID or name at column 6");
	check_fails("done(0)", "job ID out of range at column 6");
	check_fails("done(2147483647)", "job ID out of range at column 6");
	check_fails("foo(1)", "unknown condition 'foo' at column 1");
	check_fails("done(1) &&", "expected a condition after '&&' at column 9");
	check_fails("done(1) ||", "expected a condition after '||' at column 9");
	check_fails("!", "expected a condition after '!' at column 1");
	check_fails("done(1) & done(2)", "unexpected '&' at column 9");
	check_fails("done(1) done(2)", "unexpected 'done' at column 9");
	check_fails("done(1))", "unexpected ')' at column 8");
	check_fails("(done(1)", "missing ')' for this '(' at column 1");
	check_fails("()", "expected a condition or a job at column 2");
	check_fails("done(1) \x01", "unexpected byte 0x01 at column 9");
}
END_TEST

START_TEST(test_errors_jobs)
{
	check_fails("done(ab*c)", "'*' is allowed only at the end of a job name at column 8");
	check_fails("done(1[0])", "expected an array index (1 or more) at column 8");
	check_fails("done(1[x])", "expected an array index (1 or more) at column 8");
	check_fails("done(1[2)", "missing ']' after the array index at column 9");
	check_fails("done(\"abc)", "unterminated string at column 6");
	check_fails("done(\"\")", "empty job name at column 6");
	check_fails("done(\"a[0]\")", "expected an array index (1 or more) at column 9");
}
END_TEST

START_TEST(test_errors_args)
{
	check_fails("exit(1, >)", "expected an exit code after '>' at column 9");
	check_fails("exit(1,)", "expected an exit code after ',' at column 7");
	check_fails("exit(1, *)", "expected an exit code after ',' at column 7");
	check_fails("exit(1, 256)", "exit code must be a number from 0 to 255 at column 9");
	check_fails("exit(1, 3x)", "exit code must be a number from 0 to 255 at column 9");
	check_fails("numdone(1)",
	    "numdone() needs a count: numdone(job, op N) or numdone(job, *) at column 10");
	check_fails("numrun(1, >)", "expected a count after '>' at column 11");
	check_fails("done(1, 2)", "done() takes one job at column 7");
	check_fails("numdone(1[2], *)",
	    "numdone() takes a whole job array, not an element at column 1");
	check_fails("exit(1, 2, 3)", "unexpected ',' at column 10");
}
END_TEST

START_TEST(test_errors_limits)
{
	GError *err = NULL;
	GString *s = g_string_new(NULL);

	while (s->len <= BS_DEPEND_MAX_LEN)
		g_string_append_c(s, '1');
	ck_assert(bs_depend_parse(s->str, &err) == NULL);
	ck_assert_str_eq(err->message,
	    "dependency condition too long (4097 bytes, at most 4096)");
	g_clear_error(&err);

	g_string_truncate(s, 0);
	for (int i = 0; i < BS_DEPEND_MAX_DEPTH + 1; i++)
		g_string_append_c(s, '!');
	g_string_append(s, "done(1)");
	check_fails(s->str, "nested too deeply (more than 64 levels) at column 65");
	g_string_truncate(s, 0);
	for (int i = 0; i < BS_DEPEND_MAX_DEPTH; i++)
		g_string_append_c(s, '(');
	g_string_append(s, "1");
	for (int i = 0; i < BS_DEPEND_MAX_DEPTH; i++)
		g_string_append_c(s, ')');
	check_canon(s->str, "done(1)");
	g_string_free(s, TRUE);
}
END_TEST

/* ------------------------------------------------------------------ */
/* References */

START_TEST(test_refs)
{
	BsDepend *d = bs_depend_parse(
	    "done(1) && (exit(b*, 2) || numdone(200,*)) || 300[2]", NULL);
	GPtrArray *refs = bs_depend_collect_refs(d);
	const BsDependRef *r;
	GError *err = NULL;
	char *s;

	ck_assert_uint_eq(refs->len, 4);
	r = g_ptr_array_index(refs, 0);
	ck_assert(r->job_id == 1 && r->name == NULL && r->index == 0);
	r = g_ptr_array_index(refs, 1);
	ck_assert(r->job_id == 0 && strcmp(r->name, "b*") == 0);
	r = g_ptr_array_index(refs, 2);
	ck_assert(r->job_id == 200 && r->index == 0);
	r = g_ptr_array_index(refs, 3);
	ck_assert(r->job_id == 300 && r->index == 2);
	s = bs_depend_ref_to_string(r);
	ck_assert_str_eq(s, "300[2]");
	g_free(s);
	g_ptr_array_free(refs, TRUE);
	/* "b*" matches build: every reference exists */
	ck_assert(bs_depend_check_refs(d, fake_lookup, NULL, &err));
	bs_depend_free(d);

	d = bs_depend_parse("done(1) && done(99)", NULL);
	ck_assert(!bs_depend_check_refs(d, fake_lookup, NULL, &err));
	ck_assert_str_eq(err->message, "Job <99> is not found");
	g_clear_error(&err);
	bs_depend_free(d);

	d = bs_depend_parse("ended(nomatch*) || arr[9]", NULL);
	ck_assert(!bs_depend_check_refs(d, fake_lookup, NULL, &err));
	ck_assert_str_eq(err->message, "Job <nomatch*> is not found");
	g_clear_error(&err);
	bs_depend_free(d);
}
END_TEST

START_TEST(test_name_matches)
{
	ck_assert(bs_depend_name_matches("ab*", "abc"));
	ck_assert(bs_depend_name_matches("ab*", "ab"));
	ck_assert(!bs_depend_name_matches("ab*", "a"));
	ck_assert(bs_depend_name_matches("abc", "abc"));
	ck_assert(!bs_depend_name_matches("abc", "abcd"));
	ck_assert(!bs_depend_name_matches("abc", "ab"));
	ck_assert(bs_depend_name_matches("*", "x"));
}
END_TEST

/* ------------------------------------------------------------------ */
/* Evaluation.  Jobs: 1 DONE, 2 EXIT(3), 3 RUN, 4 PEND, 5 PSUSP, 6 SUSP;
 * "build" = 1 (DONE) and 7 (PEND); array 200 = DONE DONE EXIT(2) RUN PEND;
 * array 300 = three DONE. */

START_TEST(test_eval_states)
{
	check_eval("done(1)", 'S');
	check_eval("done(2)", 'N');
	check_eval("done(3)", 'W');
	check_eval("done(4)", 'W');
	check_eval("done(5)", 'W');
	check_eval("done(6)", 'W');
	check_eval("done(99)", 'N');
	check_eval("1", 'S');
	check_eval("2", 'N');
	check_eval("ended(1)", 'S');
	check_eval("ended(2)", 'S');
	check_eval("ended(3)", 'W');
	check_eval("started(1)", 'S');
	check_eval("started(2)", 'S');
	check_eval("started(3)", 'S');
	check_eval("started(4)", 'W');
	check_eval("started(5)", 'W');
	check_eval("started(6)", 'S');
	check_eval("post_done(1)", 'S');
	check_eval("post_done(2)", 'N');
	check_eval("post_err(2)", 'S');
	check_eval("post_err(1)", 'N');
	check_eval("post_done(11)", 'W');
	check_eval("post_done(3)", 'W');
}
END_TEST

START_TEST(test_eval_exit_codes)
{
	check_eval("exit(2)", 'S');
	check_eval("exit(1)", 'N');
	check_eval("exit(3)", 'W');
	check_eval("exit(2,3)", 'S');
	check_eval("exit(2,==3)", 'S');
	check_eval("exit(2,!=3)", 'N');
	check_eval("exit(2,>2)", 'S');
	check_eval("exit(2,<3)", 'N');
	check_eval("exit(2,>=4)", 'N');
	check_eval("exit(2,<=3)", 'S');
	check_eval("exit(3,>0)", 'W');
	check_eval("exit(1,0)", 'N');
}
END_TEST

START_TEST(test_eval_names)
{
	check_eval("build", 'W');            /* 1 done, 7 pending */
	check_eval("started(build)", 'W');
	check_eval("ended(build) || done(1)", 'S');
	check_eval("\"build\"", 'W');
	check_eval("done(nightly-*)", 'S');
	check_eval("done(nightly*)", 'N');   /* nightlyx exited */
	check_eval("ended(nightly*)", 'S');
	check_eval("exit(nightlyx)", 'S');
	check_eval("exit(nightly*)", 'N');
	check_eval("done(nosuch)", 'N');
	check_eval("done(nosuch*) || done(1)", 'S');
}
END_TEST

START_TEST(test_eval_operators)
{
	check_eval("!done(1)", 'N');
	check_eval("!done(2)", 'S');
	check_eval("!done(3)", 'S');
	check_eval("!started(3)", 'N');
	check_eval("done(1) && done(2)", 'N');
	check_eval("done(1) && done(3)", 'W');
	check_eval("done(1) || done(3)", 'S');
	check_eval("done(2) || done(3)", 'W');
	check_eval("done(2) || exit(1)", 'N');
	check_eval("!done(2) && done(1)", 'S');
	/* && binds tighter than || */
	check_eval("done(1) || done(2) && done(3)", 'S');
	check_eval("(done(1) || done(2)) && done(3)", 'W');
	/* ! binds tightest */
	check_eval("!done(1) || done(3)", 'W');
	check_eval("!(done(1) || done(3))", 'N');
	check_eval("!(done(2) && done(3))", 'S');
	check_eval("!!done(3)", 'W');
}
END_TEST

START_TEST(test_eval_arrays)
{
	check_eval("done(200)", 'N');        /* element 3 exited */
	check_eval("ended(200)", 'W');
	check_eval("done(300)", 'S');
	check_eval("done(200[1])", 'S');
	check_eval("done(200[3])", 'N');
	check_eval("done(200[4])", 'W');
	check_eval("done(200[9])", 'N');     /* no such element */
	check_eval("exit(200[3], 2)", 'S');
	check_eval("done(arr[2])", 'S');
	check_eval("done(all)", 'S');
}
END_TEST

START_TEST(test_eval_counts)
{
	check_eval("numdone(200, >=2)", 'S');
	check_eval("numdone(200, >2)", 'W');   /* 2 done, 2 still open */
	check_eval("numdone(200, >4)", 'N');   /* at most 4 can be done */
	check_eval("numdone(200, *)", 'N');
	check_eval("numdone(300, *)", 'S');
	check_eval("numended(200, ==3)", 'S');
	check_eval("numended(200, *)", 'W');
	check_eval("numexit(200, >1)", 'W');
	check_eval("numexit(200, ==0)", 'N');  /* already 1, only grows */
	check_eval("numrun(200, ==1)", 'S');
	check_eval("numrun(200, >1)", 'W');
	check_eval("numpend(200, 1)", 'S');
	check_eval("numstart(200, ==1)", 'S');
	check_eval("numhold(200, >0)", 'W');
	check_eval("numended(300, <3)", 'N');
	check_eval("numrun(300, >0)", 'N');    /* all finished: final */
	check_eval("numrun(300, ==0)", 'S');
	check_eval("!numdone(200, >=2)", 'N'); /* stays true */
	check_eval("!numrun(200, ==1)", 'W');  /* may stop running */
	check_eval("numdone(99, *)", 'N');
	check_eval("numdone(arr, 2)", 'S');
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("depend");
	TCase *tp = tcase_create("parse");
	TCase *te = tcase_create("errors");
	TCase *tv = tcase_create("eval");

	tcase_add_test(tp, test_canon_jobs);
	tcase_add_test(tp, test_canon_conditions);
	tcase_add_test(tp, test_canon_operators);
	tcase_add_test(tp, test_refs);
	tcase_add_test(tp, test_name_matches);
	tcase_add_test(te, test_errors);
	tcase_add_test(te, test_errors_jobs);
	tcase_add_test(te, test_errors_args);
	tcase_add_test(te, test_errors_limits);
	tcase_add_test(tv, test_eval_states);
	tcase_add_test(tv, test_eval_exit_codes);
	tcase_add_test(tv, test_eval_names);
	tcase_add_test(tv, test_eval_operators);
	tcase_add_test(tv, test_eval_arrays);
	tcase_add_test(tv, test_eval_counts);
	suite_add_tcase(s, tp);
	suite_add_tcase(s, te);
	suite_add_tcase(s, tv);
	return bs_run_suite(s);
}
