/* lib/conf: lsb.resources Limit sections typed (conf_limits.c).  Both
 * forms read back field by field, unnamed rows get NONAME names, and each
 * kind of bad value gives its exact `file:line: message`. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"

/* The cluster, lsb.hosts, lsb.users and lsb.queues of the good directory. */
static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", "lsb.queues",
	"lsb.users", NULL,
};

static BsConfig *
load(const char *text, char **diags)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	BsConfig *cfg;

	conf_write(dir, "lsb.resources", text);
	cfg = conf_load_dir(dir, diags);
	conf_rmtree(dir);
	return cfg;
}

static char *
words(char **v)
{
	return v != NULL ? g_strjoinv(" ", v) : g_strdup("(null)");
}

START_TEST(test_parameter_form)
{
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = load(
	    "Begin Limit\n"
	    "NAME        = lim1\n"
	    "PER_USER    = all ~user1 ~groupB\n"
	    "QUEUES      = normal low\n"
	    "PER_HOST    = groupA/ hostC\n"
	    "PROJECTS    = p1\n"
	    "SLOTS       = 4\n"
	    "SLOTS_PER_PROCESSOR = 1.5\n"
	    "JOBS        = 3\n"
	    "MEM         = 20%\n"
	    "SWP         = 100\n"
	    "RESOURCE    = [lic, 2] [tape,1]\n"
	    "End Limit\n", &diags);
	const BsLimitConf *l;
	g_autofree char *u = NULL, *ux = NULL, *q = NULL, *h = NULL;

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_uint_eq(cfg->resources->limits->len, 1);
	l = bs_config_limit(cfg, "lim1");
	ck_assert_ptr_nonnull(l);
	ck_assert(l->cons[BS_LIMIT_USERS].per && l->cons[BS_LIMIT_USERS].all);
	u = words(l->cons[BS_LIMIT_USERS].names);
	ux = words(l->cons[BS_LIMIT_USERS].excluded);
	ck_assert_str_eq(u, "");
	ck_assert_str_eq(ux, "user1 groupB");
	q = words(l->cons[BS_LIMIT_QUEUES].names);
	ck_assert_str_eq(q, "normal low");
	ck_assert(!l->cons[BS_LIMIT_QUEUES].per);
	h = words(l->cons[BS_LIMIT_HOSTS].names);
	ck_assert_str_eq(h, "groupA/ hostC");
	ck_assert(l->cons[BS_LIMIT_PROJECTS].set && !l->cons[BS_LIMIT_APPS].set);
	ck_assert_int_eq(l->slots, 4);
	ck_assert(l->slots_per_processor == 1.5);
	ck_assert_int_eq(l->jobs, 3);
	ck_assert(l->mem.value == 20 && l->mem.percent);
	ck_assert(l->swp.value == 100 && !l->swp.percent);
	ck_assert(l->tmp.value < 0);
	ck_assert_uint_eq(l->resources->len, 2);
	ck_assert_str_eq(((BsLimitResource *)l->resources->pdata[0])->name, "lic");
	ck_assert(((BsLimitResource *)l->resources->pdata[1])->value == 1);
}
END_TEST

START_TEST(test_column_form)
{
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = load(
	    "Begin Limit\n"
	    "NAME   USERS            PER_QUEUE   SLOTS  MEM  APPS\n"
	    "a      (user1 user2)    -           2      -    -\n"
	    "-      -                (normal)    -      500  ()\n"
	    "-      all              -           -      -    -\n"
	    "End Limit\n", &diags);
	const BsLimitConf *a, *n0;

	/* The last row has no limit at all. */
	ck_assert_str_eq(diags, "lsb.resources:5: Limit section without a resource "
	    "(SLOTS, SLOTS_PER_PROCESSOR, JOBS, MEM, SWP, TMP or RESOURCE)\n");
	ck_assert_ptr_null(cfg);
	g_clear_pointer(&diags, g_free);
	cfg = load(
	    "Begin Limit\n"
	    "NAME   USERS            PER_QUEUE   SLOTS  MEM  APPS\n"
	    "a      (user1 user2)    -           2      -    -\n"
	    "-      -                (normal)    -      500  ()\n"
	    "End Limit\n", &diags);
	ck_assert_str_eq(diags, "");
	ck_assert_uint_eq(cfg->resources->limits->len, 2);
	a = bs_config_limit(cfg, "a");
	ck_assert_int_eq(a->line, 3);
	ck_assert_int_eq(a->slots, 2);
	ck_assert(a->mem.value < 0 && !a->cons[BS_LIMIT_QUEUES].set);
	n0 = bs_config_limit(cfg, "NONAME000");
	ck_assert_ptr_nonnull(n0);
	ck_assert(n0->cons[BS_LIMIT_QUEUES].per);
	ck_assert(!n0->cons[BS_LIMIT_APPS].set);
	ck_assert(n0->mem.value == 500);
}
END_TEST

typedef struct {
	const char *text;
	const char *want;
	gboolean loads;
} ErrCase;

#define L "Begin Limit\nNAME = x\n"
#define LEND "End Limit\n"

static const ErrCase err_cases[] = {
	{ L "SLOTS = lots\n" LEND,
	  "lsb.resources:3: bad value 'lots' for SLOTS: not an integer\n", FALSE },
	{ L "SLOTS = -1\n" LEND,
	  "lsb.resources:3: bad value '-1' for SLOTS: out of range 0..2147483647\n", FALSE },
	{ L "USERS = a\nPER_USER = b\nSLOTS = 1\n" LEND,
	  "lsb.resources:4: bad value 'b' for PER_USER: USERS and PER_USER both given\n",
	  FALSE },
	{ L "USERS = ~a\nSLOTS = 1\n" LEND,
	  "lsb.resources:3: bad value '~a' for USERS: '~name' is allowed only after "
	  "'all'\n", FALSE },
	{ L "MEM = 10%\nSLOTS = 1\n" LEND,
	  "lsb.resources:1: MEM as a percentage needs PER_HOST\n", FALSE },
	{ L "RESOURCE = lic 2\n" LEND,
	  "lsb.resources:3: bad value 'lic 2' for RESOURCE: expected [resource,value]\n",
	  FALSE },
	{ L "LICENSE = [a,1]\nSLOTS = 1\n" LEND,
	  "lsb.resources:3: unknown key LICENSE in Limit section\n", FALSE },
	{ L "USERS = user1\n" LEND,
	  "lsb.resources:1: Limit section without a resource (SLOTS, "
	  "SLOTS_PER_PROCESSOR, JOBS, MEM, SWP, TMP or RESOURCE)\n", FALSE },
	{ L "SLOTS = 1\n" LEND L "JOBS = 1\n" LEND,
	  "lsb.resources:5: Limit x is defined twice (first at line 1)\n", FALSE },
	{ L "QUEUES = nosuch\nPER_HOST = nohost\nSLOTS = 1\n" LEND,
	  "lsb.resources:1: warning: Limit x: QUEUES names unknown 'nosuch'; ignored\n"
	  "lsb.resources:1: warning: Limit x: PER_HOST names unknown 'nohost'; ignored\n",
	  TRUE },
};

START_TEST(test_errors)
{
	const ErrCase *c = &err_cases[_i];
	g_autofree char *diags = NULL;
	BsConfig *cfg = load(c->text, &diags);

	ck_assert_str_eq(diags, c->want);
	ck_assert(c->loads == (cfg != NULL));
	bs_config_free(cfg);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_limits");
	TCase *good = tcase_create("good");
	TCase *errors = tcase_create("errors");

	tcase_add_test(good, test_parameter_form);
	tcase_add_test(good, test_column_form);
	tcase_add_loop_test(errors, test_errors, 0, G_N_ELEMENTS(err_cases));
	suite_add_tcase(s, good);
	suite_add_tcase(s, errors);
	return bs_run_suite(s);
}
