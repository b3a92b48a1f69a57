/* lib/conf: lsb.applications.  The apps directory of conf-data (every
 * parameter, DEFAULT_APPLICATION) reads back field by field; MAX_JOB_PREEMPT
 * precedence is application > queue > lsb.params; an absent file means no
 * profiles; each kind of diagnostic gives its exact `file:line: message`;
 * the shipped sample profile loads. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf_test.h"

/* The cluster, lsb.hosts and lsb.queues of the good directory. */
static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", "lsb.queues", NULL,
};

/* A base directory plus the files of conf-data/apps. */
static char *
apps_dir(void)
{
	char *dir = conf_tmpdir(base_files);

	for (const char *const *f = (const char *const[]){ "lsb.applications", "lsb.params", NULL };
	    *f != NULL; f++) {
		g_autofree char *rel = g_build_filename("apps", *f, NULL);
		g_autofree char *from = conf_data(rel);
		g_autofree char *to = g_build_filename(dir, *f, NULL);

		copy_file(from, to);
	}
	return dir;
}

static BsConfig *
load_apps(void)
{
	g_autofree char *dir = apps_dir();
	g_autofree char *diags = NULL;
	BsConfig *cfg = conf_load_dir(dir, &diags);

	conf_rmtree(dir);
	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	return cfg;
}

static char *
ints(const GArray *a)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; a != NULL && i < a->len; i++)
		g_string_append_printf(s, "%s%d", i > 0 ? " " : "", g_array_index(a, int, i));
	return g_string_free(s, FALSE);
}

START_TEST(test_every_parameter)
{
	g_autoptr(BsConfig) cfg = load_apps();
	const BsAppConf *a = bs_config_app(cfg, "fluent");
	g_autofree char *requeue = NULL, *exclude = NULL, *success = NULL, *sizes = NULL;
	g_autofree char *env = NULL;

	ck_assert_uint_eq(cfg->apps->len, 3);
	ck_assert_ptr_eq(cfg->apps->pdata[0], a);
	ck_assert_str_eq(a->name, "fluent");
	ck_assert_int_eq(a->line, 4);
	ck_assert_str_eq(a->description, "CFD solver runs; may be preempted once");
	ck_assert_int_eq(a->max_job_preempt, 1);
	ck_assert_int_eq(a->runlimit.def, 30);
	ck_assert_int_eq(a->runlimit.max, 180);
	ck_assert_str_eq(a->runlimit.spec, "hostA");
	ck_assert_int_eq(a->cpulimit.def, BS_CONF_UNLIMITED);
	ck_assert_int_eq(a->cpulimit.max, 120);
	ck_assert_ptr_null(a->cpulimit.spec);
	ck_assert_int_eq(a->memlimit.def, 1000);
	ck_assert_int_eq(a->memlimit.max, 4000);
	ck_assert_int_eq(a->processlimit, 64);
	ck_assert_int_eq(a->corelimit.max, 0);
	ck_assert_int_eq(a->datalimit.max, 8000);
	ck_assert_int_eq(a->filelimit.max, 100000);
	ck_assert_int_eq(a->stacklimit.max, 2048);
	ck_assert_int_eq(a->swaplimit.max, 16000);
	ck_assert_int_eq(a->proclimit.min, 2);
	ck_assert_int_eq(a->proclimit.def, 4);
	ck_assert_int_eq(a->proclimit.max, 16);
	ck_assert_str_eq(a->res_req, "select[type==any] rusage[mem=500]");
	ck_assert_str_eq(a->job_starter, "/usr/bin/env %USRCMD");
	ck_assert_str_eq(a->pre_exec, "/bin/true pre");
	ck_assert_str_eq(a->post_exec, "/bin/true post");
	requeue = ints(a->requeue_exit_values.codes);
	exclude = ints(a->requeue_exit_values.exclude);
	ck_assert_str_eq(requeue, "99 100");
	ck_assert_str_eq(exclude, "101");
	ck_assert(a->rerunnable.set && !a->rerunnable.value);
	success = ints(a->success_exit_values);
	ck_assert_str_eq(success, "0 3 7");
	ck_assert(a->nice.set);
	ck_assert_int_eq(a->nice.value, -1);
	ck_assert_str_eq(a->job_controls.suspend, "SIGTSTP");
	ck_assert_str_eq(a->job_controls.resume, "SIGCONT");
	ck_assert_str_eq(a->job_controls.terminate, "kill -9 $LSB_JOBPGIDS");
	ck_assert_str_eq(a->chkpnt_dir, "/var/tmp/chk");
	ck_assert_int_eq(a->chkpnt_period, 30);
	sizes = ints(a->job_size_list);
	ck_assert_str_eq(sizes, "4 2 8 16");
	env = g_strjoinv("|", a->env_vars);
	ck_assert_str_eq(env, "FLUENT_ARCH=lnamd64|LM_LICENSE_FILE=27000@lic1,27000@lic2");
	ck_assert_int_eq(bs_conf_key_line(a->key_lines, "ENV_VARS"), 32);
	ck_assert_int_eq(bs_conf_key_line(a->key_lines, "MAX_JOB_PREEMPT"), 8);
}
END_TEST

/* Aliases, LSF's ENV_VARS form, and a profile that sets nothing. */
START_TEST(test_other_profiles)
{
	g_autoptr(BsConfig) cfg = load_apps();
	const BsAppConf *s = bs_config_app(cfg, "short");
	const BsAppConf *b = bs_config_app(cfg, "bare");
	g_autofree char *env = g_strjoinv("|", s->env_vars);

	ck_assert_int_eq(s->proclimit.min, BS_CONF_UNLIMITED);
	ck_assert_int_eq(s->proclimit.max, 1);
	ck_assert(s->rerunnable.set && s->rerunnable.value);
	ck_assert(s->nice.set);
	ck_assert_int_eq(s->nice.value, 0);
	ck_assert_str_eq(env, "TEST_FRUIT=apple|TEST_CAR=B M W|PLAIN=1");
	/* nothing set: everything reads as "the queue's value" */
	ck_assert_int_eq(b->line, 43);
	ck_assert_ptr_null(b->description);
	ck_assert_int_eq(b->max_job_preempt, BS_CONF_UNLIMITED);
	ck_assert_int_eq(b->runlimit.max, BS_CONF_UNLIMITED);
	ck_assert_int_eq(b->runlimit.def, BS_CONF_UNLIMITED);
	ck_assert_int_eq(b->memlimit.max, BS_CONF_UNLIMITED);
	ck_assert_int_eq(b->processlimit, BS_CONF_UNLIMITED);
	ck_assert_int_eq(b->proclimit.max, BS_CONF_UNLIMITED);
	ck_assert_int_eq(b->chkpnt_period, BS_CONF_UNLIMITED);
	ck_assert(!b->nice.set && !b->rerunnable.set);
	ck_assert_ptr_null(b->requeue_exit_values.codes);
	ck_assert_ptr_null(b->success_exit_values);
	ck_assert_ptr_null(b->job_size_list);
	ck_assert_ptr_null(b->env_vars);
	ck_assert_ptr_null(b->job_controls.suspend);
	ck_assert_ptr_null(b->res_req);
	ck_assert_ptr_null(bs_config_app(cfg, "nosuch"));
	ck_assert_ptr_null(bs_config_app(cfg, NULL));
}
END_TEST

START_TEST(test_default_application)
{
	g_autoptr(BsConfig) cfg = load_apps();

	ck_assert_str_eq(cfg->params->default_application, "short");
	ck_assert_ptr_eq(bs_config_default_app(cfg), bs_config_app(cfg, "short"));
}
END_TEST

/* MAX_JOB_PREEMPT: fluent 1, queue low 2, lsb.params 5. */
START_TEST(test_max_job_preempt_precedence)
{
	g_autoptr(BsConfig) cfg = load_apps();
	const BsAppConf *fluent = bs_config_app(cfg, "fluent");
	const BsAppConf *bare = bs_config_app(cfg, "bare");
	const BsQueueConf *low = bs_config_queue(cfg, "low");
	const BsQueueConf *high = bs_config_queue(cfg, "high");

	ck_assert_int_eq(bs_config_max_job_preempt(cfg, low, fluent), 1);
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, high, fluent), 1);
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, low, bare), 2);
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, low, NULL), 2);
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, high, bare), 5);
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, high, NULL), 5);
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, NULL, NULL), 5);
}
END_TEST

START_TEST(test_absent_file)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = conf_load_dir(dir, &diags);

	conf_rmtree(dir);
	ck_assert_str_eq(diags, "");
	ck_assert_uint_eq(cfg->apps->len, 0);
	ck_assert_ptr_null(bs_config_app(cfg, "short"));
	ck_assert_ptr_null(cfg->params->default_application);
	ck_assert_ptr_null(bs_config_default_app(cfg));
	ck_assert_int_eq(bs_config_max_job_preempt(cfg, bs_config_queue(cfg, "high"), NULL),
	    BS_CONF_UNLIMITED);
}
END_TEST

/* The shipped conf/ has one commented profile, `short`. */
START_TEST(test_shipped_profile)
{
	const char *top = g_getenv("top_srcdir");
	g_autofree char *envdir = g_build_filename(top != NULL ? top : "..", "conf", NULL);
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = conf_load_dir(envdir, &diags);
	const BsAppConf *s;

	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	s = bs_config_app(cfg, "short");
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->runlimit.max, 10);
	ck_assert_int_eq(s->max_job_preempt, 1);
}
END_TEST

/* ---- one case per kind of diagnostic --------------------------------------- */

typedef struct {
	const char *file;
	const char *text;
	const char *params;     /* lsb.params text, or NULL for none */
	const char *want;       /* every diagnostic, in order */
	gboolean loads;         /* warnings only */
} ErrCase;

#define A1 "Begin Application\nNAME = a\n"
#define AEND "End Application\n"
#define APP "lsb.applications"
#define PARAMS(body) "Begin Parameters\nMBD_SLEEP_TIME = 10\n" body "End Parameters\n"

static const ErrCase err_cases[] = {
	{ APP, A1 "MAX_JOB_PREEMPT = 0\n" AEND, NULL,
	  "lsb.applications:3: bad value '0' for MAX_JOB_PREEMPT: out of range 1..2147483647\n",
	  FALSE },
	{ APP, A1 "MAX_JOB_PREEMPT = -1\n" AEND, NULL,
	  "lsb.applications:3: bad value '-1' for MAX_JOB_PREEMPT: out of range 1..2147483647\n",
	  FALSE },
	{ APP, A1 "RUNLIMIT = 1:xx\n" AEND, NULL,
	  "lsb.applications:3: bad value '1:xx' for RUNLIMIT: '1:xx' is not [hours:]minutes\n",
	  FALSE },
	{ APP, A1 "RUNLIMIT = 60 30\n" AEND, NULL,
	  "lsb.applications:3: bad value '60 30' for RUNLIMIT: default 60 is above maximum 30\n",
	  FALSE },
	{ APP, A1 AEND "\n" A1 AEND, NULL,
	  "lsb.applications:6: duplicate application profile a (first defined at line 2)\n",
	  FALSE },
	{ APP, "Begin Application\nDESCRIPTION = no name\n" AEND, NULL,
	  "lsb.applications:1: Application section without NAME\n", FALSE },
	{ APP, "Begin Application\nNAME = a b\n" AEND, NULL,
	  "lsb.applications:2: bad value 'a b' for NAME: use letters, digits, _ and - only\n",
	  FALSE },
	{ APP, A1 "QUEUE_NAME = x\nr1m = 0.5\n" AEND "Begin Queue\nQUEUE_NAME = q\nEnd Queue\n",
	  NULL,
	  "lsb.applications:3: warning: unknown parameter QUEUE_NAME, ignoring\n"
	  "lsb.applications:4: warning: unknown parameter r1m, ignoring\n"
	  "lsb.applications:6: warning: unknown section Queue, ignoring\n", TRUE },
	{ APP, A1 AEND, PARAMS("DEFAULT_APPLICATION = nosuch\n"),
	  "lsb.params:3: DEFAULT_APPLICATION names unknown application profile nosuch\n", FALSE },
	/* No lsb.applications at all: DEFAULT_APPLICATION can name nothing. */
	{ "lsb.params", PARAMS("DEFAULT_APPLICATION = short\n"), NULL,
	  "lsb.params:3: DEFAULT_APPLICATION names unknown application profile short\n", FALSE },
	{ APP, A1 "NICE = 20\nRERUNNABLE = maybe\nSUCCESS_EXIT_VALUES = 0 256\n"
	  "JOB_SIZE_LIST = 4 2 2\nENV_VARS = \"A=1\" 2B=x\nTASKLIMIT = 8 4\n" AEND, NULL,
	  "lsb.applications:3: bad value '20' for NICE: out of range -20..19\n"
	  "lsb.applications:4: bad value 'maybe' for RERUNNABLE: expected Y or N\n"
	  "lsb.applications:5: bad value '0 256' for SUCCESS_EXIT_VALUES: exit code: out of "
	  "range 0..255\n"
	  "lsb.applications:6: bad value '4 2 2' for JOB_SIZE_LIST: size 2 given twice\n"
	  "lsb.applications:7: bad value '\"A=1\" 2B=x' for ENV_VARS: '2B=x' is not NAME=value\n"
	  "lsb.applications:8: bad value '8 4' for TASKLIMIT: values must not decrease\n", FALSE },
	/* The default size may be repeated once among the sizes. */
	{ APP, A1 "JOB_SIZE_LIST = 4 2 4 8\n" AEND, NULL, "", TRUE },
	{ APP, A1 "JOB_SIZE_LIST = 0\nENV_VARS = \"A=1\nCHKPNT_PERIOD = 0\n"
	  "JOB_CONTROLS = SUSPEND[SIGSTOP]\nSUSPEND_CONTROL = SIGTSTP\n" AEND, NULL,
	  "lsb.applications:3: bad value '0' for JOB_SIZE_LIST: job size: out of range "
	  "1..2147483646\n"
	  "lsb.applications:4: bad value '\"A=1' for ENV_VARS: unbalanced \"\n"
	  "lsb.applications:5: bad value '0' for CHKPNT_PERIOD: out of range 1..2147483647\n"
	  "lsb.applications:7: bad value 'SIGTSTP' for SUSPEND_CONTROL: the SUSPEND action is "
	  "set twice\n", FALSE },
	{ APP, A1 "CHKPNT_PERIOD = 10\n" AEND, NULL,
	  "lsb.applications:3: warning: application profile a: CHKPNT_PERIOD without "
	  "CHKPNT_DIR, ignoring\n", TRUE },
	{ APP, A1 "NICE = 1\nNICE = 2\n", NULL,
	  "lsb.applications:1: Begin Application without End Application\n"
	  "lsb.applications:4: duplicate NICE (first set at line 3)\n", FALSE },
	/* Diagnostics of several files come out in file order, then by line. */
	{ APP, A1 "BOGUS = 1\n" AEND "Begin Application\nNAME = b\nMAX_JOB_PREEMPT = x\n" AEND,
	  PARAMS("DEFAULT_APPLICATION = short\n"),
	  "lsb.params:3: DEFAULT_APPLICATION names unknown application profile short\n"
	  "lsb.applications:3: warning: unknown parameter BOGUS, ignoring\n"
	  "lsb.applications:7: bad value 'x' for MAX_JOB_PREEMPT: not an integer\n", FALSE },
};

START_TEST(test_errors)
{
	const ErrCase *c = &err_cases[_i];
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	conf_write(dir, c->file, c->text);
	if (c->params != NULL)
		conf_write(dir, "lsb.params", c->params);
	cfg = conf_load_dir(dir, &diags);
	ck_assert_str_eq(diags, c->want);
	ck_assert(c->loads == (cfg != NULL));
	bs_config_free(cfg);
	conf_rmtree(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_apps");
	TCase *good = tcase_create("good");
	TCase *errors = tcase_create("errors");

	tcase_add_test(good, test_every_parameter);
	tcase_add_test(good, test_other_profiles);
	tcase_add_test(good, test_default_application);
	tcase_add_test(good, test_max_job_preempt_precedence);
	tcase_add_test(good, test_absent_file);
	tcase_add_test(good, test_shipped_profile);
	tcase_add_loop_test(errors, test_errors, 0, G_N_ELEMENTS(err_cases));
	suite_add_tcase(s, good);
	suite_add_tcase(s, errors);
	return bs_run_suite(s);
}
