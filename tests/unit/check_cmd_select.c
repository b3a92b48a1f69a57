/* cmd/select-args: the job selection options shared by bjobs, bkill, ... */
#include "config.h"

#include "tap.h"
#include "select-args.h"

static const CmdOpt bjobs_opts[] = {
	{ "-l", FALSE }, { "-w", FALSE }, { "-o", TRUE }, { "-noheader", FALSE },
	{ NULL, FALSE },
};

static SelectArgs *
parse(const char *line, const char *states, const CmdOpt *extra,
      GError **error)
{
	g_auto(GStrv) argv = NULL;
	int argc;

	ck_assert(g_shell_parse_argv(line, &argc, &argv, NULL));
	return select_args_parse(argv[0], argc, argv, states, extra,
				 "x [-h]", error);
}

START_TEST(test_filters)
{
	g_autoptr(SelectArgs) sa = parse("bjobs -u \"alice bob\" -q normal "
					 "-m hostA -J 'job*' -a -p -r -s -d",
					 "adprs", bjobs_opts, NULL);
	Basalt__JobQuery *q = sa->query;

	ck_assert_uint_eq(q->n_users, 2);
	ck_assert_str_eq(q->users[1], "bob");
	ck_assert_uint_eq(q->n_queues, 1);
	ck_assert_str_eq(q->queues[0], "normal");
	ck_assert_str_eq(q->hosts[0], "hostA");
	ck_assert_str_eq(q->job_name, "job*");
	ck_assert(q->all_states && q->pending && q->running && q->suspended &&
		  q->finished);
	ck_assert_uint_eq(q->n_job_ids, 0);
	ck_assert(!sa->all_matching);
}
END_TEST

START_TEST(test_jobids_and_extra)
{
	g_autoptr(SelectArgs) sa = parse("bjobs -l 12 \"13[4]\" -o 'jobid stat' 0",
					 "adprs", bjobs_opts, NULL);
	Basalt__JobQuery *q = sa->query;

	ck_assert_uint_eq(q->n_job_ids, 2);
	ck_assert_uint_eq(q->n_array_indexes, 2);
	ck_assert(q->job_ids[0] == 12 && q->array_indexes[0] == 0);
	ck_assert(q->job_ids[1] == 13 && q->array_indexes[1] == 4);
	ck_assert(sa->all_matching);
	ck_assert(select_args_has(sa, "-l"));
	ck_assert(!select_args_has(sa, "-w"));
	ck_assert_str_eq(select_args_get(sa, "-l"), "");
	ck_assert_str_eq(select_args_get(sa, "-o"), "jobid stat");
	ck_assert_ptr_null(select_args_get(sa, "-noheader"));
}
END_TEST

START_TEST(test_repeated_lists_accumulate)
{
	g_autoptr(SelectArgs) sa = parse("bkill -q a -q b -J x -J y 5", "",
					 NULL, NULL);

	ck_assert_uint_eq(sa->query->n_queues, 2);
	ck_assert_str_eq(sa->query->job_name, "y");
}
END_TEST

START_TEST(test_state_letters_per_command)
{
	static const CmdOpt bkill_opts[] = {
		{ "-s", TRUE }, { "-r", FALSE }, { "-l", FALSE }, { NULL, FALSE },
	};
	GError *err = NULL;
	g_autoptr(SelectArgs) sa = parse("bkill -s KILL -r 7", "", bkill_opts,
					 NULL);
	SelectArgs *bad;

	ck_assert_str_eq(select_args_get(sa, "-s"), "KILL");
	ck_assert(select_args_has(sa, "-r"));
	ck_assert(!sa->query->running);
	bad = parse("bkill -p 7", "", bkill_opts, &err);
	ck_assert_ptr_null(bad);
	ck_assert_str_eq(err->message, "bkill: illegal option -- p\nUsage: x [-h]");
	g_clear_error(&err);
}
END_TEST

START_TEST(test_errors)
{
	GError *err = NULL;

	ck_assert_ptr_null(parse("bjobs -z", "adprs", bjobs_opts, &err));
	ck_assert_str_eq(err->message, "bjobs: illegal option -- z\nUsage: x [-h]");
	g_clear_error(&err);
	ck_assert_ptr_null(parse("bjobs -q", "adprs", bjobs_opts, &err));
	ck_assert_str_eq(err->message,
			 "bjobs: option requires an argument -- q\nUsage: x [-h]");
	g_clear_error(&err);
	ck_assert_ptr_null(parse("bjobs -o", "adprs", bjobs_opts, &err));
	ck_assert_str_eq(err->message,
			 "bjobs: option requires an argument -- o\nUsage: x [-h]");
	g_clear_error(&err);
	ck_assert_ptr_null(parse("bjobs 12a", "adprs", bjobs_opts, &err));
	ck_assert_str_eq(err->message, "12a: Illegal job ID.");
	g_clear_error(&err);
}
END_TEST

/* getopt-style bundles: "-aw", "-aJ name", "-wu all". */
START_TEST(test_bundled_flags)
{
	GError *err = NULL;
	g_autoptr(SelectArgs) a = parse("bjobs -aw", "adprs", bjobs_opts, NULL);
	g_autoptr(SelectArgs) b = parse("bjobs -aJ 'run*' -wu all -pl 7",
					"adprs", bjobs_opts, NULL);

	ck_assert(a->query->all_states);
	ck_assert(select_args_has(a, "-w"));
	ck_assert(b->query->all_states && b->query->pending);
	ck_assert_str_eq(b->query->job_name, "run*");
	ck_assert_uint_eq(b->query->n_users, 1);
	ck_assert_str_eq(b->query->users[0], "all");
	ck_assert(select_args_has(b, "-w") && select_args_has(b, "-l"));
	ck_assert_uint_eq(b->query->n_job_ids, 1);
	/* A value-taking letter only at the end; unknown letters refuse the
	 * whole word; a known long option is never split. */
	ck_assert_ptr_null(parse("bjobs -Ja x", "adprs", bjobs_opts, &err));
	ck_assert_str_eq(err->message, "bjobs: illegal option -- Ja\nUsage: x [-h]");
	g_clear_error(&err);
	ck_assert_ptr_null(parse("bjobs -az", "adprs", bjobs_opts, &err));
	g_clear_error(&err);
	ck_assert_ptr_null(parse("bjobs -aJ", "adprs", bjobs_opts, &err));
	ck_assert_str_eq(err->message,
			 "bjobs: option requires an argument -- J\nUsage: x [-h]");
	g_clear_error(&err);
	{
		g_autoptr(SelectArgs) c = parse("bjobs -noheader", "adprs",
						bjobs_opts, NULL);

		ck_assert(select_args_has(c, "-noheader"));
		ck_assert(!c->query->all_states);
	}
}
END_TEST

START_TEST(test_double_dash_operands)
{
	g_autoptr(SelectArgs) sa = parse("bstop -- 9", "", NULL, NULL);

	ck_assert_uint_eq(sa->query->n_job_ids, 1);
	ck_assert(sa->query->job_ids[0] == 9);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_select");
	TCase *tc = tcase_create("select");

	tcase_add_test(tc, test_filters);
	tcase_add_test(tc, test_jobids_and_extra);
	tcase_add_test(tc, test_repeated_lists_accumulate);
	tcase_add_test(tc, test_state_letters_per_command);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_double_dash_operands);
	tcase_add_test(tc, test_bundled_flags);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
