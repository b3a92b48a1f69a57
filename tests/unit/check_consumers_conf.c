/* lib/conf: lsb.consumers (conf_consumers.c).  A good file reads back
 * field by field (tree, policies, plan rows with their defaults, resource
 * groups resolved to hosts, USERS), lsb.queues CONSUMER and the two
 * lsb.params switches are read, a missing file means no plans, and each
 * kind of mistake gives its exact `file:line: message`. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"
#include "conf/conf_consumers.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", "lsb.users", NULL,
};

static BsConfig *
load(const char *consumers, const char *queues, const char *params, char **diags)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	BsConfig *cfg;

	if (consumers != NULL)
		conf_write(dir, "lsb.consumers", consumers);
	if (queues != NULL)
		conf_write(dir, "lsb.queues", queues);
	if (params != NULL)
		conf_write(dir, "lsb.params", params);
	cfg = conf_load_dir(dir, diags);
	conf_rmtree(dir);
	return cfg;
}

#define RG "Begin ResourceGroup\nNAME = rg1\nHOSTS = groupA hostB\nPLAN_SLOTS = 30\n" \
	"End ResourceGroup\n"
#define C(path) "Begin Consumer\nNAME = " path "\nEnd Consumer\n"

START_TEST(test_good)
{
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = load(
	    RG
	    "Begin Consumer\nNAME = /X\nPOLICY = ownership\nUSERS = groupB user9\nEnd Consumer\n"
	    C("/X/A")
	    C("/Y")
	    "Begin Plan\n"
	    "RESOURCE_GROUP = rg1   # the plan of rg1\n"
	    "CONSUMER OWNED RESERVED LIMIT RANK GRACE_PERIOD LEND_LIMIT\n"
	    "/X       20    5        -     2    60           4\n"
	    "/X/A     10    -        12    -    -            -\n"
	    "/Y       10    0        -     -    -            -\n"
	    "End Plan\n",
	    "Begin Queue\nQUEUE_NAME = normal\nCONSUMER = /X/A\nEnd Queue\n",
	    "Begin Parameters\nHYBRID_EVENLY_DISTRIBUTE_SLOTS = Y\n"
	    "CONSUMER_RANK_DEFAULT = 3\nEnd Parameters\n", &diags);
	const BsConsumerConf *x, *a, *y;
	const BsPlanConf *pl;
	const BsPlanRow *r;
	g_auto(GStrv) hosts = NULL;
	g_autofree char *hs = NULL;

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert(cfg->params->hybrid_evenly_distribute_slots);
	ck_assert_int_eq(cfg->params->consumer_rank_default, 3);
	ck_assert_str_eq(bs_config_queue(cfg, "normal")->consumer, "/X/A");
	x = bs_config_consumer(cfg, "/X");
	a = bs_config_consumer(cfg, "/X/A");
	y = bs_config_consumer(cfg, "/Y");
	ck_assert(x != NULL && a != NULL && y != NULL);
	ck_assert(!x->leaf && a->leaf && y->leaf);
	ck_assert_int_eq(a->parent, 0);
	ck_assert_int_eq(a->depth, 2);
	ck_assert_int_eq(x->effective, BS_CONSUMER_POLICY_OWNERSHIP);
	ck_assert_int_eq(a->effective, BS_CONSUMER_POLICY_OWNERSHIP);
	ck_assert_int_eq(a->policy, BS_CONSUMER_POLICY_UNSET);
	ck_assert_int_eq(y->effective, BS_CONSUMER_POLICY_HYBRID);
	ck_assert(bs_config_consumer_allows(cfg, x, "user5"));
	ck_assert(bs_config_consumer_allows(cfg, x, "user9"));
	ck_assert(!bs_config_consumer_allows(cfg, x, "user1"));
	ck_assert(bs_config_consumer_allows(cfg, y, "anyone"));
	hosts = bs_config_resource_group_hosts(cfg, bs_config_resource_group(cfg, "rg1"));
	hs = g_strjoinv(" ", hosts);
	ck_assert_str_eq(hs, "hostA hostB hostD");
	ck_assert_int_eq(bs_config_resource_group(cfg, "rg1")->plan_slots, 30);
	ck_assert_uint_eq(cfg->consumers->plans->len, 1);
	pl = cfg->consumers->plans->pdata[0];
	ck_assert_int_eq(pl->group, 0);
	ck_assert_uint_eq(pl->rows->len, 3);
	r = pl->rows->pdata[0];
	ck_assert_int_eq(r->owned, 20);
	ck_assert_int_eq(r->reserved, 5);
	ck_assert_int_eq(r->limit, BS_CONF_UNLIMITED);
	ck_assert_int_eq(r->rank, 2);
	ck_assert_int_eq(r->grace_period, 60);
	ck_assert_int_eq(r->lend_limit, 4);
	ck_assert_int_eq(r->borrow_limit, BS_CONF_UNLIMITED);
	r = pl->rows->pdata[1];
	ck_assert_int_eq(r->reserved, 0);
	ck_assert_int_eq(r->limit, 12);
	ck_assert_int_eq(r->rank, BS_CONF_UNLIMITED);
	ck_assert_int_eq(bs_config_plan_rank(cfg, r), 3);
}
END_TEST

START_TEST(test_no_file)
{
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = load(NULL, NULL, NULL, &diags);

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_ptr_null(cfg->consumers);
	ck_assert_ptr_null(bs_config_consumer(cfg, "/X"));
	ck_assert(!cfg->params->hybrid_evenly_distribute_slots);
	ck_assert_int_eq(cfg->params->consumer_rank_default, BS_CONF_UNLIMITED);
}
END_TEST

typedef struct {
	const char *text;
	const char *want;
	gboolean loads;
} ErrCase;

#define P(rows) "Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER OWNED RESERVED LIMIT\n" rows \
	"End Plan\n"

#define PW(w, rows) "Begin Plan\nRESOURCE_GROUP = rg1\nTIME_WINDOW = " w "\n" \
	"CONSUMER OWNED RESERVED LIMIT\n" rows "End Plan\n"

static const ErrCase err_cases[] = {
	/* Time-windowed plans: several per group, windows apart. */
	{ RG C("/X") P("/X 30 0 -\n") PW("8:00-17:00", "/X 30 0 -\n")
	  PW("(17:00-8:00)", "/X 30 0 -\n"), "", TRUE },
	{ RG C("/X") PW("8:00-17:00", "/X 30 0 -\n") PW("1:16:59-1:18:00", "/X 30 0 -\n"),
	  "lsb.consumers:17: TIME_WINDOW of resource group rg1 overlaps the plan at line 9\n",
	  FALSE },
	{ RG C("/X") P("/X 30 0 -\n") PW("8:00-17:00", "/X 30 0 -\n")
	  PW("20:00-9:00", "/X 30 0 -\n"),
	  "lsb.consumers:22: TIME_WINDOW of resource group rg1 overlaps the plan at line 14\n",
	  FALSE },
	{ RG C("/X") PW("8:00-17:00", "/X 30 0 -\n") PW("0:17:00-0:20:00", "/X 30 0 -\n"),
	  "", TRUE },
	{ RG C("/X") PW("8:00-25:00", "/X 30 0 -\n"),
	  "lsb.consumers:11: bad TIME_WINDOW \"8:00-25:00\": hour '25' is not 0-23\n", FALSE },
	/* POLICY in a plan: first level only, one of the three. */
	{ RG C("/X") C("/X/A") "Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER OWNED POLICY\n"
	  "/X 30 ownership\n/X/A 10 hybrid\nEnd Plan\n",
	  "lsb.consumers:16: consumer /X/A: POLICY is set on first-level consumers only "
	  "(it holds for their whole subtree)\n", FALSE },
	{ RG C("/X") "Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER OWNED POLICY\n"
	  "/X 30 fair\nEnd Plan\n",
	  "lsb.consumers:12: bad value 'fair' for POLICY: use hybrid, ownership or share\n",
	  FALSE },
	{ RG C("/X") "Begin Plan\nRESOURCE_GROUP = rg1\nCONSUMER OWNED POLICY LEND_LIMIT\n"
	  "/X 30 ownership 2\nEnd Plan\n", "", TRUE },
	{ RG C("/X") "Begin Plan\nRESOURCE_GROUP = rg1\nTIME_WINDOW = 8:00-9:00\n"
	  "TIME_WINDOW = 9:00-10:00\nCONSUMER OWNED\n/X 30\nEnd Plan\n",
	  "lsb.consumers:12: TIME_WINDOW given twice (first at line 11)\n", FALSE },

	/* RG takes lines 1-5, C() three lines each. */
	{ RG C("/X") C("/X/A") P("/X 10 0 -\n/X/A 12 0 -\n/Y 0 0 -\n"),
	  "lsb.consumers:12: warning: plan for resource group rg1: the first-level consumers "
	  "own 10 slots, PLAN_SLOTS is 30\n"
	  "lsb.consumers:16: consumer /X/A owns 12 slots, more than its parent /X (10)\n"
	  "lsb.consumers:17: unknown consumer /Y (declare it in a Consumer section)\n", FALSE },
	{ RG C("/X") P("/X 10 11 -\n"),
	  "lsb.consumers:9: warning: plan for resource group rg1: the first-level consumers "
	  "own 10 slots, PLAN_SLOTS is 30\n"
	  "lsb.consumers:12: consumer /X reserves 11 slots but owns only 10\n", FALSE },
	{ RG C("/X") P("/X 30 5 4\n"),
	  "lsb.consumers:12: consumer /X: LIMIT 4 is below its RESERVED 5\n", FALSE },
	{ RG C("/X") P("/X 29 0 -\n"),
	  "lsb.consumers:9: warning: plan for resource group rg1: the first-level consumers "
	  "own 29 slots, PLAN_SLOTS is 30\n", TRUE },
	{ RG C("/X") "Begin Consumer\nNAME = /X/A\nPOLICY = share\nEnd Consumer\n",
	  "lsb.consumers:11: consumer /X/A: POLICY is set on first-level consumers only "
	  "(it holds for their whole subtree)\n", FALSE },
	{ RG C("/X/A"),
	  "lsb.consumers:7: consumer /X/A: its parent /X is not declared (a parent comes "
	  "before its children)\n", FALSE },
	{ RG C("/X") C("/X"),
	  "lsb.consumers:10: consumer /X is defined twice\n", FALSE },
	{ RG C("X/A"),
	  "lsb.consumers:7: bad value 'X/A' for NAME: a consumer is an absolute path such as "
	  "/X/A\n", FALSE },
	{ RG "Begin Consumer\nNAME = /X\nPOLICY = fair\nEnd Consumer\n",
	  "lsb.consumers:8: bad value 'fair' for POLICY: use hybrid, ownership or share\n",
	  FALSE },
	{ C("/X") "Begin Plan\nRESOURCE_GROUP = rg9\nCONSUMER OWNED\n/X 1\nEnd Plan\n",
	  "lsb.consumers:5: unknown resource group rg9 (define it in a ResourceGroup section "
	  "before its plan)\n", FALSE },
	{ C("/X") "Begin Plan\nCONSUMER OWNED\n/X 1\nEnd Plan\n",
	  "lsb.consumers:4: Plan section without RESOURCE_GROUP\n", FALSE },
	{ "Begin ResourceGroup\nNAME = rg1\nHOSTS = hostA nohost\nEnd ResourceGroup\n",
	  "lsb.consumers:3: resource group rg1: unknown host or host group nohost\n", FALSE },
	{ RG RG, "lsb.consumers:7: resource group rg1 is defined twice\n", FALSE },
	{ RG C("/X") P("/X x 0 -\n"),
	  "lsb.consumers:9: warning: plan for resource group rg1: the first-level consumers "
	  "own 0 slots, PLAN_SLOTS is 30\n"
	  "lsb.consumers:12: bad value 'x' for OWNED: not an integer\n", FALSE },
	{ RG C("/X") P("/X 30 0 -\n") P("/X 30 0 -\n"),
	  "lsb.consumers:15: resource group rg1 has a plan without TIME_WINDOW already (line 9)\n", FALSE },
};

START_TEST(test_errors)
{
	const ErrCase *c = &err_cases[_i];
	g_autofree char *diags = NULL;
	BsConfig *cfg = load(c->text, NULL, NULL, &diags);

	ck_assert_str_eq(diags, c->want);
	ck_assert(c->loads == (cfg != NULL));
	bs_config_free(cfg);
}
END_TEST

START_TEST(test_queue_consumer_shape)
{
	g_autofree char *diags = NULL;
	BsConfig *cfg = load(NULL, "Begin Queue\nQUEUE_NAME = q\nCONSUMER = X/A\nEnd Queue\n",
	    NULL, &diags);

	ck_assert_ptr_null(cfg);
	ck_assert_str_eq(diags, "lsb.queues:3: bad value 'X/A' for CONSUMER: a consumer is an "
	    "absolute path such as /X/A\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("consumers_conf");
	TCase *good = tcase_create("good");
	TCase *errors = tcase_create("errors");

	tcase_add_test(good, test_good);
	tcase_add_test(good, test_no_file);
	tcase_add_loop_test(errors, test_errors, 0, G_N_ELEMENTS(err_cases));
	tcase_add_test(errors, test_queue_consumer_shape);
	suite_add_tcase(s, good);
	suite_add_tcase(s, errors);
	return bs_run_suite(s);
}
