/* lib/conf: lsb.resources HostExport sections typed (conf_export.c), the
 * consumer side gathered from lsb.queues HOSTS, and each error of the
 * lease model as its exact `file:line: message`. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"

/* The cluster (basalt, with peer cluster `other`) and its lsb.hosts. */
static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", NULL,
};

static BsConfig *
load(const char *resources, const char *queues, char **diags)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	BsConfig *cfg;

	conf_write(dir, "lsb.resources", resources);
	if (queues != NULL)
		conf_write(dir, "lsb.queues", queues);
	cfg = conf_load_dir(dir, diags);
	conf_rmtree(dir);
	return cfg;
}

START_TEST(test_typed)
{
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = load(
	    "Begin HostExport\n"
	    "NAME         = big\n"
	    "PER_HOST     = hostA hostB\n"
	    "SLOTS        = 8\n"
	    "DISTRIBUTION = ([other, 1] [basalt, 5])\n"
	    "MEM          = 512\n"
	    "SWAP         = -\n"
	    "TYPE         = shared\n"
	    "End HostExport\n"
	    "Begin HostExport\n"
	    "RES_SELECT   = type==LINUX86 && mem>100\n"
	    "NHOSTS       = 3\n"
	    "DISTRIBUTION = ([other, 2])\n"
	    "End HostExport\n", NULL, &diags);
	const BsHostExport *b, *r;

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_uint_eq(cfg->resources->exports->len, 2);
	b = bs_config_host_export(cfg, "big");
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(b->line, 1);
	ck_assert_int_eq(b->kind, BS_EXPORT_PER_HOST);
	ck_assert_str_eq(b->per_host[0], "hostA");
	ck_assert_str_eq(b->per_host[1], "hostB");
	ck_assert_ptr_null(b->per_host[2]);
	ck_assert_int_eq(b->slots, 8);
	ck_assert_int_eq(b->mem, 512);
	ck_assert_int_eq(b->swp, BS_CONF_UNLIMITED);
	ck_assert(b->shared);
	/* The local cluster is dropped: one consumer, so shared is fine. */
	ck_assert_uint_eq(b->distribution->len, 1);
	ck_assert_str_eq(((BsShare *)b->distribution->pdata[0])->name, "other");
	ck_assert_int_eq(bs_conf_key_line(b->key_lines, "TYPE"), 8);
	/* Unnamed: export<N>, N its place among the HostExport sections. */
	r = bs_config_host_export(cfg, "export2");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->kind, BS_EXPORT_RES_SELECT);
	ck_assert_str_eq(r->res_select, "type==LINUX86 && mem>100");
	ck_assert_int_eq(r->nhosts, 3);
	ck_assert_int_eq(r->slots, 0);
	ck_assert(!r->shared);
	ck_assert_int_eq(((BsShare *)r->distribution->pdata[0])->shares, 2);
	ck_assert_ptr_null(bs_config_host_export(cfg, "nosuch"));
}
END_TEST

START_TEST(test_imports_from_queue_hosts)
{
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = load(NULL,
	    "Begin Queue\nQUEUE_NAME = borrow\nHOSTS = allremote hostA\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = one\nHOSTS = hostX@other all@third\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = grp\nHOSTS = groupR\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = local\nHOSTS = hostA\nEnd Queue\n", &diags);
	const BsHostImport *im;

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	ck_assert_uint_eq(cfg->resources->imports->len, 4);
	im = cfg->resources->imports->pdata[0];
	ck_assert_str_eq(im->queue, "borrow");
	ck_assert_ptr_null(im->cluster);
	ck_assert_ptr_null(im->host);
	ck_assert_int_eq(im->line, 3);
	im = cfg->resources->imports->pdata[1];
	ck_assert_str_eq(im->queue, "one");
	ck_assert_str_eq(im->cluster, "other");
	ck_assert_str_eq(im->host, "hostX");
	im = cfg->resources->imports->pdata[2];
	ck_assert_str_eq(im->cluster, "third");
	ck_assert_ptr_null(im->host);
	im = cfg->resources->imports->pdata[3];
	ck_assert_str_eq(im->queue, "grp");
	ck_assert_ptr_null(im->cluster);
}
END_TEST

/* lsb.params MC_RECLAIM_DELAY: minutes as LSF, `s` for seconds, default
 * 10 minutes, stored in seconds. */
START_TEST(test_reclaim_delay)
{
	static const struct {
		const char *value;
		int seconds;        /* -1: refused with `error` */
		const char *error;
	} cases[] = {
		{ NULL, 600, NULL },
		{ "7", 420, NULL },
		{ "45s", 45, NULL },
		{ "1S", 1, NULL },
		{ "0", -1, "lsb.params:2: bad value '0' for MC_RECLAIM_DELAY: out of range "
		  "1..35791394\n" },
		{ "2m", -1, "lsb.params:2: bad value '2m' for MC_RECLAIM_DELAY: not an integer\n" },
		{ "s", -1, "lsb.params:2: bad value 's' for MC_RECLAIM_DELAY: not an integer\n" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *dir = conf_tmpdir(base_files);
		g_autofree char *diags = NULL;
		g_autofree char *text = cases[i].value == NULL ? NULL :
		    g_strdup_printf("Begin Parameters\nMC_RECLAIM_DELAY = %s\nEnd Parameters\n",
		    cases[i].value);
		BsConfig *cfg;

		conf_write(dir, "lsb.params", text);
		cfg = conf_load_dir(dir, &diags);
		conf_rmtree(dir);
		if (cases[i].seconds < 0) {
			ck_assert_ptr_null(cfg);
			ck_assert_str_eq(diags, cases[i].error);
			continue;
		}
		ck_assert_str_eq(diags, "");
		ck_assert_ptr_nonnull(cfg);
		ck_assert_int_eq(cfg->params->mc_reclaim_delay, cases[i].seconds);
		bs_config_free(cfg);
	}
}
END_TEST

typedef struct {
	const char *text;
	const char *want;     /* every diagnostic, in order */
	gboolean loads;       /* warnings only */
} Case;

#define EXP "Begin HostExport\n"
#define END "End HostExport\n"

static const Case cases[] = {
	{ EXP "PER_HOST = hostA\nRES_SELECT = type==any\nSLOTS = 1\nNHOSTS = 1\n"
	  "DISTRIBUTION = ([other, 1])\n" END,
	  "lsb.resources:1: HostExport section needs exactly one of PER_HOST and RES_SELECT\n",
	  FALSE },
	{ EXP "DISTRIBUTION = ([other, 1])\n" END,
	  "lsb.resources:1: HostExport section needs exactly one of PER_HOST and RES_SELECT\n",
	  FALSE },
	{ EXP "RES_SELECT = type==any\nDISTRIBUTION = ([other, 1])\n" END,
	  "lsb.resources:1: HostExport section without NHOSTS (required with RES_SELECT)\n",
	  FALSE },
	{ EXP "PER_HOST = hostA\nSLOTS = 0\n" END,
	  "lsb.resources:1: HostExport section without DISTRIBUTION\n"
	  "lsb.resources:3: bad value '0' for SLOTS: out of range 1..2147483647\n", FALSE },
	{ EXP "PER_HOST = hostA\nSLOTS = 2\nDISTRIBUTION = ([other, 0])\nTYPE = lent\n"
	  "MEM = lots\n" END,
	  "lsb.resources:4: bad value '([other, 0])' for DISTRIBUTION: shares: out of range "
	  "1..2147483647\n"
	  "lsb.resources:5: bad value 'lent' for TYPE: only 'shared' (leave TYPE out for an "
	  "exclusive lease)\n"
	  "lsb.resources:6: bad value 'lots' for MEM: not an integer\n", FALSE },
	{ EXP "PER_HOST = hostA\nSLOTS = 2\nDISTRIBUTION = ([nowhere, 1] [other, 1] [other, 2])\n"
	  END,
	  "lsb.resources:4: DISTRIBUTION names cluster other twice\n"
	  "lsb.resources:4: HostExport export1: DISTRIBUTION names cluster nowhere, which is "
	  "not in lsf.shared\n", FALSE },
	{ EXP "PER_HOST = hostA hostQ hostA\nSLOTS = 2\nDISTRIBUTION = ([other, 1])\n" END,
	  "lsb.resources:2: HostExport export1: PER_HOST names hostQ, which is not a host of "
	  "cluster basalt\n"
	  "lsb.resources:2: HostExport export1: PER_HOST names hostA twice\n", FALSE },
	/* The seed: with shared leasing each host goes to one consumer. */
	{ EXP "PER_HOST = hostA\nSLOTS = 2\nDISTRIBUTION = ([other, 1] [third, 1])\n"
	  "TYPE = shared\n" END,
	  "lsb.resources:4: HostExport export1: DISTRIBUTION names cluster third, which is "
	  "not in lsf.shared\n"
	  "lsb.resources:4: HostExport export1: a shared lease (TYPE = shared) with PER_HOST "
	  "exports each host to one consumer cluster only, but DISTRIBUTION names 2\n", FALSE },
	{ EXP "NAME = s\nPER_HOST = hostA hostB\nSLOTS = 2\nDISTRIBUTION = ([other, 1])\n"
	  "TYPE = shared\n" END
	  EXP "NAME = x\nPER_HOST = hostB\nSLOTS = 2\nDISTRIBUTION = ([basalt, 1] [third, 1])\n"
	  END,
	  "lsb.resources:3: HostExport s: host hostB is exported by a shared lease to other, "
	  "and HostExport x (line 8) also exports it to third: with shared leasing a host "
	  "goes to one consumer cluster only\n"
	  "lsb.resources:12: HostExport x: DISTRIBUTION names cluster third, which is not in "
	  "lsf.shared\n", FALSE },
	/* The same consumer from two sections is allowed. */
	{ EXP "NAME = s\nPER_HOST = hostA\nSLOTS = 2\nDISTRIBUTION = ([other, 1])\n"
	  "TYPE = shared\n" END
	  EXP "NAME = t\nPER_HOST = hostA\nSLOTS = 2\nDISTRIBUTION = ([other, 1])\n"
	  "TYPE = shared\n" END, "", TRUE },
	{ EXP "NAME = a b\nPER_HOST = hostA\nSLOTS = 1\nDISTRIBUTION = ([other, 1])\n" END
	  EXP "NAME = export1\nPER_HOST = hostB\nSLOTS = 1\nDISTRIBUTION = ([other, 1])\n" END,
	  "lsb.resources:2: bad value 'a b' for NAME: letters, digits, '_', '-' and '.' "
	  "only, at most 60\n"
	  "lsb.resources:8: HostExport name export1 is used twice (first at line 1)\n", FALSE },
	{ EXP "PER_HOST = hostA\nSLOTS = 1\nNHOSTS = 2\nDISTRIBUTION = ([basalt, 1])\n"
	  "COLOR = red\n" END,
	  "lsb.resources:4: warning: NHOSTS is for RES_SELECT exports (ignored)\n"
	  "lsb.resources:5: warning: HostExport export1: DISTRIBUTION names no cluster but "
	  "this one: nothing is exported\n"
	  "lsb.resources:6: warning: unknown key COLOR in HostExport section (ignored)\n", TRUE },
};

START_TEST(test_errors)
{
	const Case *c = &cases[_i];
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	cfg = load(c->text, NULL, &diags);
	ck_assert_str_eq(diags, c->want);
	ck_assert_int_eq(cfg != NULL, c->loads);
	if (cfg != NULL)
		bs_config_free(cfg);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_export");
	TCase *good = tcase_create("good");
	TCase *errors = tcase_create("errors");

	tcase_add_test(good, test_typed);
	tcase_add_test(good, test_imports_from_queue_hosts);
	tcase_add_test(good, test_reclaim_delay);
	tcase_add_loop_test(errors, test_errors, 0, G_N_ELEMENTS(cases));
	suite_add_tcase(s, good);
	suite_add_tcase(s, errors);
	return bs_run_suite(s);
}
