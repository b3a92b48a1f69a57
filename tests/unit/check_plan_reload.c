/* mbatchd/plan-reload.c: which resource groups a badmin reconfig changes.
 * Real configuration directories are loaded before and after an edit and
 * compared as mbatchd does: an edit outside lsb.consumers (a queue's
 * description) changes no group; an edit of one group's plan in force,
 * HOSTS or POLICY column changes that group only; an edit of the consumer
 * tree changes every group; an edit of a plan not in force changes none;
 * an edit undone before the next pass changes none; and a POLICY switched
 * by the reconfig is reported as the previous plan's POLICY. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"
#include "conf/conf_consumers.h"
#include "mbatchd/plan-reload.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", "lsb.users", NULL,
};

#define QUEUES(desc) "Begin Queue\nQUEUE_NAME = normal\nDESCRIPTION = " desc \
	"\nCONSUMER = /A\nEnd Queue\n"
#define GROUPS(h2) "Begin ResourceGroup\nNAME = rg1\nHOSTS = hostA\nEnd ResourceGroup\n" \
	"Begin ResourceGroup\nNAME = rg2\nHOSTS = " h2 "\nEnd ResourceGroup\n"
#define TREE "Begin Consumer\nNAME = /A\nPOLICY = ownership\nEnd Consumer\n" \
	"Begin Consumer\nNAME = /B\nPOLICY = ownership\nEnd Consumer\n"
#define PLAN(rg, a, pol) "Begin Plan\nRESOURCE_GROUP = " rg "\n" \
	"CONSUMER OWNED POLICY\n/A " a " " pol "\n/B 2 -\nEnd Plan\n"
/* A night plan for rg1, not in force at noon. */
#define NIGHT(a) "Begin Plan\nRESOURCE_GROUP = rg1\nTIME_WINDOW = 20:00-23:00\n" \
	"CONSUMER OWNED\n/A " a "\n/B 2\nEnd Plan\n"

static BsConfig *
load(const char *consumers, const char *queues)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	conf_write(dir, "lsb.consumers", consumers);
	conf_write(dir, "lsb.queues", queues);
	cfg = conf_load_dir(dir, &diags);
	conf_rmtree(dir);
	ck_assert_msg(cfg != NULL, "%s", diags);
	return cfg;
}

/* The groups changed between before and after (a pass at noon both
 * times), written "rg1 rg2", with the previous POLICY of /A in rg1 in
 * *pol_a (-1: none reported). */
static char *
changed(const BsConfig *before, const BsConfig *after, const BsConfig *third,
    int *pol_a)
{
	g_autoptr(GDateTime) noon = g_date_time_new_local(2026, 1, 5, 12, 0, 0);
	g_autoptr(GHashTable) prev = plan_reload_table_new();
	g_autoptr(GPtrArray) store = g_ptr_array_new_with_free_func(g_free);
	const BsConfig *last = third != NULL ? third : after;
	SchedConsumer consumers[2] = { { "/A", -1, 0 }, { "/B", -1, 0 } };
	SchedResourceGroup rgroups[2] = { { .name = "rg1" }, { .name = "rg2" } };
	SchedSnapshot snap = { 0 };
	GString *out = g_string_new(NULL);

	snap.consumers = consumers;
	snap.n_consumers = 2;
	snap.rgroups = rgroups;
	snap.n_rgroups = 2;
	plan_reload_keep(prev, before, after, noon);
	if (third != NULL)   /* a second reconfig before any pass */
		plan_reload_keep(prev, after, third, noon);
	plan_reload_mark(prev, last, noon, &snap, store);
	/* Marked on the snapshot's own copy of the groups. */
	ck_assert_ptr_ne(snap.rgroups, rgroups);
	ck_assert(!rgroups[0].plan_changed && !rgroups[1].plan_changed);
	*pol_a = snap.rgroups[0].prev_policy != NULL ? snap.rgroups[0].prev_policy[0] : -1;
	for (guint g = 0; g < 2; g++)
		if (snap.rgroups[g].plan_changed)
			g_string_append_printf(out, "%s%s", out->len > 0 ? " " : "",
			    snap.rgroups[g].name);
	return g_string_free(out, FALSE);
}

#define BASE GROUPS("hostB") TREE PLAN("rg1", "4", "-") PLAN("rg2", "3", "-") NIGHT("1")

START_TEST(test_unrelated_reconfig)
{
	g_autoptr(BsConfig) a = load(BASE, QUEUES("day queue"));
	g_autoptr(BsConfig) b = load(BASE, QUEUES("another description"));
	g_autofree char *c = NULL;
	int pol;

	c = changed(a, b, NULL, &pol);
	ck_assert_str_eq(c, "");
	ck_assert_int_eq(pol, -1);
}
END_TEST

START_TEST(test_one_group_plan)
{
	g_autoptr(BsConfig) a = load(BASE, QUEUES("q"));
	g_autoptr(BsConfig) b = load(GROUPS("hostB") TREE PLAN("rg1", "5", "-")
	    PLAN("rg2", "3", "-") NIGHT("1"), QUEUES("q"));
	g_autoptr(BsConfig) h = load(GROUPS("hostC") TREE PLAN("rg1", "4", "-")
	    PLAN("rg2", "3", "-") NIGHT("1"), QUEUES("q"));
	g_autofree char *c1 = NULL, *c2 = NULL;
	int pol;

	c1 = changed(a, b, NULL, &pol);
	ck_assert_str_eq(c1, "rg1");
	ck_assert_int_eq(pol, SCHED_POLICY_OWNERSHIP);
	c2 = changed(a, h, NULL, &pol);
	ck_assert_str_eq(c2, "rg2");
}
END_TEST

START_TEST(test_policy_switch)
{
	g_autoptr(BsConfig) a = load(BASE, QUEUES("q"));
	g_autoptr(BsConfig) b = load(GROUPS("hostB") TREE PLAN("rg1", "4", "hybrid")
	    PLAN("rg2", "3", "-") NIGHT("1"), QUEUES("q"));
	g_autofree char *c1 = NULL, *c2 = NULL;
	int pol;

	c1 = changed(a, b, NULL, &pol);
	ck_assert_str_eq(c1, "rg1");
	ck_assert_int_eq(pol, SCHED_POLICY_OWNERSHIP);
	/* And back: the previous POLICY is hybrid. */
	c2 = changed(b, a, NULL, &pol);
	ck_assert_str_eq(c2, "rg1");
	ck_assert_int_eq(pol, SCHED_POLICY_HYBRID);
}
END_TEST

START_TEST(test_tree_and_windows)
{
	g_autoptr(BsConfig) a = load(BASE, QUEUES("q"));
	g_autoptr(BsConfig) tree = load(GROUPS("hostB") TREE
	    "Begin Consumer\nNAME = /C\nEnd Consumer\n"
	    PLAN("rg1", "4", "-") PLAN("rg2", "3", "-") NIGHT("1"), QUEUES("q"));
	g_autoptr(BsConfig) night = load(GROUPS("hostB") TREE PLAN("rg1", "4", "-")
	    PLAN("rg2", "3", "-") NIGHT("2"), QUEUES("q"));
	g_autofree char *c1 = NULL, *c2 = NULL, *c3 = NULL;
	int pol;

	c1 = changed(a, tree, NULL, &pol);
	ck_assert_str_eq(c1, "rg1 rg2");
	/* The night plan is not in force at noon: no change now (its
	 * window's boundary is a plan change of its own). */
	c2 = changed(a, night, NULL, &pol);
	ck_assert_str_eq(c2, "");
	/* Changed and changed back before any pass: nothing changed. */
	c3 = changed(a, tree, a, &pol);
	ck_assert_str_eq(c3, "");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("plan_reload");
	TCase *tc = tcase_create("reconfig");

	tcase_add_test(tc, test_unrelated_reconfig);
	tcase_add_test(tc, test_one_group_plan);
	tcase_add_test(tc, test_policy_switch);
	tcase_add_test(tc, test_tree_and_windows);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
