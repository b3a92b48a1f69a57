/* cmd/bsub-args: -x, -t, -sp, -L and -We reach the JobSpec mbatchd gets,
 * and bjobs -l shows them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "bjobs-fields.h"
#include "bjobs-format.h"
#include "bsub-args.h"

static char *test_env[] = { "HOME=/home/alice", "PATH=/bin", NULL };

static BsubArgs *
parse(const char *line, GError **error)
{
	g_auto(GStrv) argv = NULL;
	int argc;
	/* Tue Nov 22 2022 10:00:00 UTC */
	BsubContext c = { test_env, "/home/alice/w", "hostA", 1669111200 };

	ck_assert(g_shell_parse_argv(line, &argc, &argv, NULL));
	return bsub_args_parse(argc, argv, &c, error);
}

static void
parse_fails(const char *line, const char *msg)
{
	GError *err = NULL;
	BsubArgs *a = parse(line, &err);

	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->message, msg);
	g_error_free(err);
}

START_TEST(test_options_in_spec)
{
	g_autoptr(BsubArgs) a = parse("bsub -x -t 12:25:23:59 -sp 7 -L /bin/bash "
	    "-We 1:30 ls", NULL);
	g_autoptr(BsubArgs) b = parse("bsub -We 45/hostB ls", NULL);
	g_autoptr(BsubArgs) none = parse("bsub ls", NULL);
	const Basalt__JobSpec *s;

	ck_assert_ptr_nonnull(a);
	s = a->req->spec;
	ck_assert(s->exclusive);
	ck_assert_int_eq(s->term_time, 1672012740);            /* Dec 25 23:59 */
	ck_assert_uint_eq(s->user_priority, 7);
	ck_assert_str_eq(s->login_shell, "/bin/bash");
	ck_assert_uint_eq(s->est_runtime_s, 90 * 60);
	ck_assert_uint_eq(b->req->spec->est_runtime_s, 45 * 60);
	s = none->req->spec;
	ck_assert(!s->exclusive);
	ck_assert_int_eq(s->term_time, 0);
	ck_assert_uint_eq(s->user_priority, 0);
	ck_assert_str_eq(s->login_shell, "");
	ck_assert_uint_eq(s->est_runtime_s, 0);
}
END_TEST

START_TEST(test_bad_options)
{
	parse_fails("bsub -L bash ls", "bsub: Bad login shell: bash: the login "
	    "shell must be an absolute path");
	parse_fails("bsub -We 0 ls", "bsub: Bad estimated run time "
	    "specification: 0");
	parse_fails("bsub -We x ls", "bsub: Bad estimated run time "
	    "specification: x");
	parse_fails("bsub -sp 0 ls", "bsub: Bad argument for option -sp: 0");
}
END_TEST

START_TEST(test_bjobs_long_shows_them)
{
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__JobInfo j = BASALT__JOB_INFO__INIT;
	g_autoptr(GString) l = g_string_new(NULL);

	spec.exclusive = TRUE;
	spec.term_time = 1672012740;
	spec.login_shell = (char *)"/bin/csh";
	spec.est_runtime_s = 90;
	j.spec = &spec;
	j.user_priority = 50;
	bjobs_subopts_details(l, &j);
	ck_assert_str_eq(l->str, ", Exclusive Execution, Specified Termination "
	    "Time <Sun Dec 25 23:59:00>, Job Priority <50>, Login Shell "
	    "</bin/csh>, Estimated Run Time <2 minutes>");
}
END_TEST

/* The value bjobs -o prints for one field, "-" for none. */
static char *
field(const char *name, const Basalt__JobInfo *j, gboolean hms)
{
	const BjobsFieldDef *f = bjobs_field_find(name);
	BjobsOpts o = { 0 };
	GString *v = g_string_new(NULL);

	ck_assert_ptr_nonnull(f);
	o.hms = hms;
	if (!f->get(v, j, &o))
		g_string_assign(v, "-");
	return g_string_free(v, FALSE);
}

START_TEST(test_bjobs_fields)
{
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__JobInfo j = BASALT__JOB_INFO__INIT;
	char *v;

	j.spec = &spec;
	v = field("job_priority", &j, FALSE);
	ck_assert_str_eq(v, "-");
	g_free(v);
	v = field("exclusive", &j, FALSE);
	ck_assert_str_eq(v, "-");
	g_free(v);
	v = field("ertime", &j, FALSE);
	ck_assert_str_eq(v, "-");
	g_free(v);
	j.user_priority = 80;
	spec.exclusive = TRUE;
	spec.term_time = 1672012740;
	spec.est_runtime_s = 5400;
	v = field("priority", &j, FALSE);
	ck_assert_str_eq(v, "80");
	g_free(v);
	v = field("exclusive", &j, FALSE);
	ck_assert_str_eq(v, "Y");
	g_free(v);
	v = field("sterminate_time", &j, FALSE);
	ck_assert_str_eq(v, "Dec 25 23:59");
	g_free(v);
	v = field("estimated_run_time", &j, FALSE);
	ck_assert_str_eq(v, "5400 second(s)");
	g_free(v);
	v = field("estimated_run_time", &j, TRUE);
	ck_assert_str_eq(v, "01:30:00");
	g_free(v);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_bsub_subopts");
	TCase *tc = tcase_create("subopts");

	setenv("TZ", "UTC", 1);
	tcase_add_test(tc, test_options_in_spec);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_bjobs_long_shows_them);
	tcase_add_test(tc, test_bjobs_fields);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
