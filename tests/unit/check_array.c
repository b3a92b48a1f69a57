/*
 * lib/job/array: job array specs (counts, steps, limits, the maximum
 * index, overlaps, malformed specs with their exact messages) and job ID
 * strings as the commands take them.
 */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "job/array.h"
#include "util/error.h"

#define MAXIDX BS_ARRAY_MAX_INDEX_DEFAULT

/* Parses in, checks its count and canonical text, and that the text
 * parses to the same; returns the spec for more checks. */
static BsArraySpec *
check_spec(const char *in, guint max, guint count, const char *canon)
{
	GError *err = NULL;
	BsArraySpec *spec = NULL, *again = NULL;
	char *s, *s2;

	ck_assert_msg(bs_array_parse(in, max, &spec, &err), "\"%s\": %s", in,
	    err ? err->message : "?");
	ck_assert(spec != NULL);
	ck_assert_uint_eq(bs_array_spec_count(spec), count);
	s = bs_array_spec_to_string(spec);
	ck_assert_str_eq(s, canon);
	ck_assert(bs_array_parse(s, max, &again, NULL));
	s2 = bs_array_spec_to_string(again);
	ck_assert_str_eq(s2, canon);
	ck_assert_uint_eq(bs_array_spec_count(again), count);
	g_free(s);
	g_free(s2);
	bs_array_spec_free(again);
	return spec;
}

static void
check_array_fails(const char *in, guint max, const char *detail)
{
	GError *err = NULL;
	BsArraySpec *spec = NULL;
	char *want = g_strdup_printf("bad job array \"%s\": %s", in, detail);

	ck_assert_msg(!bs_array_parse(in, max, &spec, &err), "\"%s\" parsed", in);
	ck_assert(spec == NULL);
	ck_assert(g_error_matches(err, BS_ERROR, BS_ERROR_FAILED));
	ck_assert_str_eq(err->message, want);
	g_error_free(err);
	g_free(want);
}

static void
check_jobid_fails(const char *in, const char *detail)
{
	GError *err = NULL;
	BsArraySpec *spec = NULL;
	guint64 id = 42;
	char *want = g_strdup_printf("bad job ID \"%s\": %s", in, detail);

	ck_assert_msg(!bs_jobid_parse(in, MAXIDX, &id, &spec, &err), "\"%s\" parsed", in);
	ck_assert(spec == NULL);
	ck_assert_str_eq(err->message, want);
	g_error_free(err);
	g_free(want);
}

/* ------------------------------------------------------------------ */
/* Arrays */

START_TEST(test_plain_name)
{
	BsArraySpec *spec = (BsArraySpec *)1;

	ck_assert(bs_array_parse("myjob", MAXIDX, &spec, NULL));
	ck_assert(spec == NULL);
	ck_assert(bs_array_parse("", MAXIDX, &spec, NULL));
	ck_assert(spec == NULL);
}
END_TEST

START_TEST(test_counts)
{
	BsArraySpec *s;

	s = check_spec("name[1-10]", MAXIDX, 10, "name[1-10]");
	ck_assert_str_eq(bs_array_spec_name(s), "name");
	ck_assert_uint_eq(bs_array_spec_index(s, 0), 1);
	ck_assert_uint_eq(bs_array_spec_index(s, 9), 10);
	ck_assert_uint_eq(bs_array_spec_limit(s), 0);
	bs_array_spec_free(s);

	s = check_spec("a[5]", MAXIDX, 1, "a[5]");
	ck_assert_uint_eq(bs_array_spec_index(s, 0), 5);
	bs_array_spec_free(s);

	s = check_spec("a[10,1-3]", MAXIDX, 4, "a[10,1-3]");
	ck_assert_uint_eq(bs_array_spec_index(s, 0), 1);
	ck_assert_uint_eq(bs_array_spec_index(s, 3), 10);
	bs_array_spec_free(s);

	s = check_spec("my.job-1[1000]", MAXIDX, 1, "my.job-1[1000]");
	bs_array_spec_free(s);
	s = check_spec("a[1-5000]", 10000, 5000, "a[1-5000]");
	bs_array_spec_free(s);
}
END_TEST

START_TEST(test_steps)
{
	BsArraySpec *s;
	const guint *idx;
	guint n;

	s = check_spec("a[1-10:3]", MAXIDX, 4, "a[1-10:3]");
	idx = bs_array_spec_indices(s, &n);
	ck_assert_uint_eq(n, 4);
	ck_assert(idx[0] == 1 && idx[1] == 4 && idx[2] == 7 && idx[3] == 10);
	bs_array_spec_free(s);

	s = check_spec("a[1-10:4]", MAXIDX, 3, "a[1-10:4]");
	ck_assert_uint_eq(bs_array_spec_index(s, 2), 9);
	ck_assert(!bs_array_spec_contains(s, 10));
	bs_array_spec_free(s);

	s = check_spec("a[1-5:1]", MAXIDX, 5, "a[1-5]");
	bs_array_spec_free(s);
	s = check_spec("a[3-3:7]", MAXIDX, 1, "a[3-3:7]");
	bs_array_spec_free(s);
}
END_TEST

START_TEST(test_full_example)
{
	BsArraySpec *s = check_spec("name[1-100:2,200,300-310]%10", MAXIDX, 62,
	    "name[1-100:2,200,300-310]%10");

	ck_assert_uint_eq(bs_array_spec_limit(s), 10);
	ck_assert(bs_array_spec_contains(s, 99));
	ck_assert(!bs_array_spec_contains(s, 100));
	ck_assert(bs_array_spec_contains(s, 200));
	ck_assert(bs_array_spec_contains(s, 305));
	ck_assert(!bs_array_spec_contains(s, 311));
	ck_assert(!bs_array_spec_contains(s, 0));
	ck_assert_uint_eq(bs_array_spec_index(s, 50), 200);
	ck_assert_uint_eq(bs_array_spec_index(s, 61), 310);
	bs_array_spec_free(s);
}
END_TEST

START_TEST(test_limits)
{
	BsArraySpec *s = check_spec("a[1-10]%1", MAXIDX, 10, "a[1-10]%1");
	char *name;

	ck_assert_uint_eq(bs_array_spec_limit(s), 1);
	bs_array_spec_free(s);
	s = check_spec("a[1-2]%50", MAXIDX, 2, "a[1-2]%50");
	ck_assert_uint_eq(bs_array_spec_limit(s), 50);
	bs_array_spec_free(s);
	s = check_spec("a[1000]", MAXIDX, 1, "a[1000]");
	bs_array_spec_free(s);

	check_array_fails("a[1001]", MAXIDX, "index 1001 is above the maximum 1000 at column 3");
	check_array_fails("a[1-1001]", MAXIDX, "index 1001 is above the maximum 1000 at column 5");
	check_array_fails("a[5]", 4, "index 5 is above the maximum 4 at column 3");
	check_array_fails("a[1-4294967295]", G_MAXUINT, "more than 10000000 elements at column 1");
	check_array_fails("a[1-10]%0", MAXIDX, "the running limit must be at least 1 at column 9");
	check_array_fails("a[1-10]%", MAXIDX, "expected a running limit, not the end at column 9");
	check_array_fails("a[1-10]%x", MAXIDX, "expected a running limit, not 'x' at column 9");
	check_array_fails("a[1-10]%2x", MAXIDX, "expected the end, not 'x' at column 10");

	name = bs_array_element_name("name", 7);
	ck_assert_str_eq(name, "name[7]");
	g_free(name);
}
END_TEST

START_TEST(test_malformed)
{
	GError *err = NULL;
	BsArraySpec *spec = NULL;
	char *s;

	check_array_fails("[1-10]", MAXIDX, "a job array needs a name before '[' at column 1");
	check_array_fails("a[]", MAXIDX, "expected an index, not ']' at column 3");
	check_array_fails("a[0]", MAXIDX, "index 0: indices start at 1 at column 3");
	check_array_fails("a[5-3]", MAXIDX, "range end 3 is below its start 5 at column 5");
	check_array_fails("a[1-10:0]", MAXIDX, "the step must be at least 1 at column 8");
	check_array_fails("a[5:2]", MAXIDX, "a step needs a range (start-end:step) at column 4");
	check_array_fails("a[1-10", MAXIDX, "missing ']' for this '[' at column 2");
	check_array_fails("a[1-10;", MAXIDX, "expected ',' or ']', not ';' at column 7");
	check_array_fails("a[1,]", MAXIDX, "expected an index, not ']' at column 5");
	check_array_fails("a[1-]", MAXIDX, "expected the end of the range, not ']' at column 5");
	check_array_fails("a[1-x]", MAXIDX, "expected the end of the range, not 'x' at column 5");
	check_array_fails("a[1-10:]", MAXIDX, "expected a step, not ']' at column 8");
	check_array_fails("a[99999999999]", MAXIDX, "number too large at column 3");
	check_array_fails("a[ 1]", MAXIDX, "expected an index, not ' ' at column 3");
	check_array_fails("a[1]x", MAXIDX, "expected '%' or the end, not 'x' at column 5");
	check_array_fails("a[1][2]", MAXIDX, "expected '%' or the end, not '[' at column 5");
	check_array_fails("a[\x01]", MAXIDX, "expected an index, not byte 0x01 at column 3");

	s = g_strnfill(BS_ARRAY_MAX_LEN + 1, 'a');
	ck_assert(!bs_array_parse(s, MAXIDX, &spec, &err));
	ck_assert_str_eq(err->message, "job name too long (4097 bytes, at most 4096)");
	g_clear_error(&err);
	g_free(s);
}
END_TEST

START_TEST(test_overlaps)
{
	check_array_fails("a[1-10,5]", MAXIDX, "index 5 is given more than once at column 8");
	check_array_fails("a[1-10:2,3-4]", MAXIDX, "index 3 is given more than once at column 10");
	check_array_fails("a[7,7]", MAXIDX, "index 7 is given more than once at column 5");
	/* interleaved steps do not overlap */
	bs_array_spec_free(check_spec("a[1-10:2,2-10:2]", MAXIDX, 10, "a[1-10:2,2-10:2]"));
}
END_TEST

/* ------------------------------------------------------------------ */
/* Job IDs */

START_TEST(test_jobid)
{
	BsArraySpec *spec = NULL;
	guint64 id = 0;
	char *s;

	ck_assert(bs_jobid_parse("123", MAXIDX, &id, &spec, NULL));
	ck_assert(id == 123 && spec == NULL);
	ck_assert(bs_jobid_parse("0", MAXIDX, &id, &spec, NULL));
	ck_assert(id == 0 && spec == NULL);
	ck_assert(bs_jobid_parse("2147483646", MAXIDX, &id, &spec, NULL));
	ck_assert(id == 2147483646 && spec == NULL);

	ck_assert(bs_jobid_parse("123[4]", MAXIDX, &id, &spec, NULL));
	ck_assert(id == 123);
	ck_assert_uint_eq(bs_array_spec_count(spec), 1);
	ck_assert_uint_eq(bs_array_spec_index(spec, 0), 4);
	s = bs_array_spec_to_string(spec);
	ck_assert_str_eq(s, "123[4]");
	g_free(s);
	bs_array_spec_free(spec);

	ck_assert(bs_jobid_parse("123[1-5,7]", MAXIDX, &id, &spec, NULL));
	ck_assert_uint_eq(bs_array_spec_count(spec), 6);
	ck_assert(bs_array_spec_contains(spec, 7));
	ck_assert(!bs_array_spec_contains(spec, 6));
	bs_array_spec_free(spec);

	/* overlaps merge in a job ID */
	ck_assert(bs_jobid_parse("123[1-5,3]", MAXIDX, &id, &spec, NULL));
	ck_assert_uint_eq(bs_array_spec_count(spec), 5);
	bs_array_spec_free(spec);
	ck_assert(bs_jobid_parse("123[1-5,3-7:2]", MAXIDX, &id, &spec, NULL));
	ck_assert_uint_eq(bs_array_spec_count(spec), 6);
	ck_assert_uint_eq(bs_array_spec_index(spec, 5), 7);
	bs_array_spec_free(spec);
}
END_TEST

START_TEST(test_jobid_errors)
{
	check_jobid_fails("", "expected a job ID, not the end at column 1");
	check_jobid_fails("abc", "expected a job ID, not 'a' at column 1");
	check_jobid_fails("12a", "expected '[' or the end, not 'a' at column 3");
	check_jobid_fails("0[1]", "job 0 (all jobs) has no elements at column 1");
	check_jobid_fails("123[4]x", "expected the end, not 'x' at column 7");
	check_jobid_fails("123[4]%2", "expected the end, not '%' at column 7");
	check_jobid_fails("2147483647", "job ID out of range at column 1");
	check_jobid_fails("123[0]", "index 0: indices start at 1 at column 5");
	check_jobid_fails("123[1001]", "index 1001 is above the maximum 1000 at column 5");
	check_jobid_fails("123[", "expected an index, not the end at column 5");
	check_jobid_fails("-1", "expected a job ID, not '-' at column 1");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("array");
	TCase *ta = tcase_create("array");
	TCase *tj = tcase_create("jobid");

	tcase_add_test(ta, test_plain_name);
	tcase_add_test(ta, test_counts);
	tcase_add_test(ta, test_steps);
	tcase_add_test(ta, test_full_example);
	tcase_add_test(ta, test_limits);
	tcase_add_test(ta, test_malformed);
	tcase_add_test(ta, test_overlaps);
	tcase_add_test(tj, test_jobid);
	tcase_add_test(tj, test_jobid_errors);
	suite_add_tcase(s, ta);
	suite_add_tcase(s, tj);
	return bs_run_suite(s);
}
