/*
 * mbatchd/effective.c: a job's effective parameters from its own request,
 * its application profile, its queue and lsb.params.  Every level is
 * exercised on its own and in combination, with the bounds (a job's value
 * and a profile's value never exceed a hard limit above them), the
 * submission check that shares those bounds, the stamp a dispatched job
 * carries, and the start order filled from it.
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/state/state.h"
#include "tap.h"
#include "conf_test.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", NULL,
};

static const char queues[] =
	"Begin Queue\n"
	"QUEUE_NAME   = q\n"
	"RUNLIMIT     = 30 60\n"
	"CPULIMIT     = 90\n"
	"MEMLIMIT     = 1000 4000\n"
	"CORELIMIT    = 0\n"
	"DATALIMIT    = 200 300\n"
	"FILELIMIT    = 400\n"
	"STACKLIMIT   = 500\n"
	"SWAPLIMIT    = 600\n"
	"PROCESSLIMIT = 7\n"
	"THREADLIMIT  = 9\n"
	"NICE         = 5\n"
	"PRE_EXEC     = /bin/qpre\n"
	"POST_EXEC    = /bin/qpost\n"
	"JOB_STARTER  = qstart %USRCMD\n"
	"MAX_JOB_PREEMPT = 3\n"
	"End Queue\n"
	"Begin Queue\n"
	"QUEUE_NAME = bare\n"
	"End Queue\n";

static const char apps[] =
	"Begin Application\n"
	"NAME         = app\n"
	"RUNLIMIT     = 20 120\n"
	"MEMLIMIT     = 2000\n"
	"DATALIMIT    = 250\n"
	"PROCESSLIMIT = 2\n"
	"NICE         = -2\n"
	"PRE_EXEC     = /bin/apre\n"
	"JOB_STARTER  = astart\n"
	"ENV_VARS     = \"A=1\" \"B=two words\"\n"
	"MAX_JOB_PREEMPT = 1\n"
	"End Application\n"
	"Begin Application\n"
	"NAME     = big\n"
	"RUNLIMIT = 90\n"
	"CORELIMIT = 50\n"
	"End Application\n"
	"Begin Application\n"
	"NAME = empty\n"
	"End Application\n";

static BsConfig *
load(const char *params)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	conf_write(dir, "lsb.queues", queues);
	conf_write(dir, "lsb.applications", apps);
	conf_write(dir, "lsb.params", params);
	cfg = conf_load_dir(dir, &diags);
	conf_rmtree(dir);
	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	return cfg;
}

static BsConfig *
load_default(void)
{
	return load("Begin Parameters\nMAX_JOB_PREEMPT = 5\n"
	    "DEFAULT_APPLICATION = empty\nEnd Parameters\n");
}

static Basalt__JobEffective *
resolve(const BsConfig *cfg, const char *queue, const char *app,
    const Basalt__JobSpec *spec)
{
	return effective_resolve(cfg, bs_config_queue(cfg, queue),
	    bs_config_app(cfg, app), spec);
}

/* A limit's value, or -1 when there is none. */
static gint64
lim(const Basalt__JobLimit *l)
{
	return l != NULL ? (gint64)l->value : -1;
}

START_TEST(test_queue_only)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(Basalt__JobEffective) e = resolve(cfg, "q", NULL, NULL);

	ck_assert_int_eq(lim(e->runlimit_s), 30 * 60);      /* the default */
	ck_assert_int_eq(lim(e->cpulimit_s), 90 * 60);      /* the maximum alone */
	ck_assert_int_eq(lim(e->memlimit_kb), 1000);
	ck_assert_int_eq(lim(e->corelimit_kb), 0);          /* a real limit */
	ck_assert_int_eq(lim(e->datalimit_kb), 200);
	ck_assert_int_eq(lim(e->filelimit_kb), 400);
	ck_assert_int_eq(lim(e->stacklimit_kb), 500);
	ck_assert_int_eq(lim(e->swaplimit_kb), 600);
	ck_assert_int_eq(lim(e->processlimit), 7);
	ck_assert_int_eq(lim(e->threadlimit), 9);
	ck_assert_int_eq(e->nice, 5);
	ck_assert_str_eq(e->pre_exec, "/bin/qpre");
	ck_assert_str_eq(e->post_exec, "/bin/qpost");
	ck_assert_str_eq(e->job_starter, "qstart %USRCMD");
	ck_assert_uint_eq(e->n_env, 0);
	ck_assert_uint_eq(e->max_preempt, 3);
}
END_TEST

START_TEST(test_application_over_queue)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(Basalt__JobEffective) e = resolve(cfg, "q", "app", NULL);

	ck_assert_int_eq(lim(e->runlimit_s), 20 * 60);
	ck_assert_int_eq(lim(e->cpulimit_s), 90 * 60);      /* profile leaves it: queue */
	ck_assert_int_eq(lim(e->memlimit_kb), 2000);
	ck_assert_int_eq(lim(e->corelimit_kb), 0);
	ck_assert_int_eq(lim(e->datalimit_kb), 250);
	ck_assert_int_eq(lim(e->processlimit), 2);
	ck_assert_int_eq(e->nice, -2);
	ck_assert_str_eq(e->pre_exec, "/bin/apre");
	ck_assert_str_eq(e->post_exec, "/bin/qpost");        /* profile leaves it: queue */
	ck_assert_str_eq(e->job_starter, "astart");
	ck_assert_uint_eq(e->n_env, 2);
	ck_assert_str_eq(e->env[0], "A=1");
	ck_assert_str_eq(e->env[1], "B=two words");
	ck_assert_uint_eq(e->max_preempt, 1);
}
END_TEST

/* An empty profile changes nothing: the queue's values apply. */
START_TEST(test_empty_profile)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(Basalt__JobEffective) a = resolve(cfg, "q", "empty", NULL);
	g_autoptr(Basalt__JobEffective) b = resolve(cfg, "q", NULL, NULL);
	size_t la = basalt__job_effective__get_packed_size(a);
	g_autofree guint8 *pa = g_malloc(la), *pb = NULL;

	ck_assert_uint_eq(la, basalt__job_effective__get_packed_size(b));
	pb = g_malloc(la);
	basalt__job_effective__pack(a, pa);
	basalt__job_effective__pack(b, pb);
	ck_assert(memcmp(pa, pb, la) == 0);
}
END_TEST

/* The job's own -W, -c, -M win over every level, within the hard limits. */
START_TEST(test_job_over_application)
{
	g_autoptr(BsConfig) cfg = load_default();
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	g_autoptr(Basalt__JobEffective) e = NULL;

	spec.runlimit_s = 45 * 60;
	spec.cpulimit_s = 10 * 60;
	spec.memlimit_kb = 1500;
	e = resolve(cfg, "q", "app", &spec);
	ck_assert_int_eq(lim(e->runlimit_s), 45 * 60);
	ck_assert_int_eq(lim(e->cpulimit_s), 10 * 60);
	ck_assert_int_eq(lim(e->memlimit_kb), 1500);
	ck_assert_int_eq(effective_check_spec(bs_config_queue(cfg, "q"),
	    bs_config_app(cfg, "app"), &spec), EFFECTIVE_OK);
}
END_TEST

/* Above a hard limit: bsub refuses it, naming the level; a job that got
 * there anyway (a queue lowered after bsub) is held to the hard limit. */
START_TEST(test_job_bounded)
{
	g_autoptr(BsConfig) cfg = load_default();
	const BsQueueConf *q = bs_config_queue(cfg, "q");
	const BsAppConf *app = bs_config_app(cfg, "app");
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	g_autoptr(Basalt__JobEffective) e1 = NULL, e2 = NULL, e3 = NULL;

	spec.memlimit_kb = 3000;            /* under the queue's 4000, over the profile's 2000 */
	ck_assert_int_eq(effective_check_spec(q, app, &spec), EFFECTIVE_OVER_APP);
	ck_assert_int_eq(effective_check_spec(q, NULL, &spec), EFFECTIVE_OK);
	e1 = effective_resolve(cfg, q, app, &spec);
	ck_assert_int_eq(lim(e1->memlimit_kb), 2000);
	e2 = effective_resolve(cfg, q, NULL, &spec);
	ck_assert_int_eq(lim(e2->memlimit_kb), 3000);

	spec.memlimit_kb = 0;
	spec.runlimit_s = 100 * 60;         /* under the profile's 120, over the queue's 60 */
	ck_assert_int_eq(effective_check_spec(q, app, &spec), EFFECTIVE_OVER_QUEUE);
	e3 = effective_resolve(cfg, q, app, &spec);
	ck_assert_int_eq(lim(e3->runlimit_s), 60 * 60);

	spec.runlimit_s = 60 * 60;          /* at the limit is allowed */
	ck_assert_int_eq(effective_check_spec(q, app, &spec), EFFECTIVE_OK);
	spec.runlimit_s = 0;
	spec.cpulimit_s = 91 * 60;
	ck_assert_int_eq(effective_check_spec(q, app, &spec), EFFECTIVE_OVER_QUEUE);
	ck_assert_int_eq(effective_check_spec(bs_config_queue(cfg, "bare"), NULL, &spec),
	    EFFECTIVE_OK);
}
END_TEST

/* A profile's own value above the queue's hard limit is held to it; a
 * profile limit the queue does not bound stays. */
START_TEST(test_application_bounded_by_queue)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(Basalt__JobEffective) e = resolve(cfg, "q", "big", NULL);
	g_autoptr(Basalt__JobEffective) f = resolve(cfg, "bare", "big", NULL);

	ck_assert_int_eq(lim(e->runlimit_s), 60 * 60);
	ck_assert_int_eq(lim(e->corelimit_kb), 0);          /* queue's 0 is the tighter */
	ck_assert_int_eq(lim(f->runlimit_s), 90 * 60);
	ck_assert_int_eq(lim(f->corelimit_kb), 50);
}
END_TEST

/* Nothing configured anywhere: no limits, nice 0, no commands, and
 * MAX_JOB_PREEMPT from lsb.params, or unlimited (0) without it. */
START_TEST(test_nothing_set)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(BsConfig) bare_cfg = load("Begin Parameters\nEnd Parameters\n");
	g_autoptr(Basalt__JobEffective) e = resolve(cfg, "bare", "empty", NULL);
	g_autoptr(Basalt__JobEffective) lost = effective_resolve(cfg, NULL, NULL, NULL);
	g_autoptr(Basalt__JobEffective) u = resolve(bare_cfg, "bare", NULL, NULL);

	ck_assert_ptr_null(e->runlimit_s);
	ck_assert_ptr_null(e->cpulimit_s);
	ck_assert_ptr_null(e->memlimit_kb);
	ck_assert_ptr_null(e->corelimit_kb);
	ck_assert_ptr_null(e->swaplimit_kb);
	ck_assert_ptr_null(e->processlimit);
	ck_assert_int_eq(e->nice, 0);
	ck_assert_str_eq(e->pre_exec, "");
	ck_assert_str_eq(e->job_starter, "");
	ck_assert_uint_eq(e->max_preempt, 5);
	ck_assert_uint_eq(lost->max_preempt, 5);
	ck_assert_ptr_null(lost->runlimit_s);
	ck_assert_uint_eq(u->max_preempt, 0);
}
END_TEST

/* MAX_JOB_PREEMPT: application > queue > lsb.params. */
START_TEST(test_max_preempt_levels)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(Basalt__JobEffective) a = resolve(cfg, "bare", "app", NULL);
	g_autoptr(Basalt__JobEffective) q = resolve(cfg, "q", "big", NULL);
	g_autoptr(Basalt__JobEffective) p = resolve(cfg, "bare", "big", NULL);

	ck_assert_uint_eq(a->max_preempt, 1);
	ck_assert_uint_eq(q->max_preempt, 3);
	ck_assert_uint_eq(p->max_preempt, 5);
}
END_TEST

/* -app wins; without it DEFAULT_APPLICATION; a profile since removed is
 * none. */
START_TEST(test_effective_app)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(BsConfig) nodef = load("Begin Parameters\nEnd Parameters\n");
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	ck_assert_ptr_eq(effective_app(cfg, &spec), bs_config_app(cfg, "empty"));
	ck_assert_ptr_null(effective_app(nodef, &spec));
	spec.app_profile = "app";
	ck_assert_ptr_eq(effective_app(cfg, &spec), bs_config_app(cfg, "app"));
	spec.app_profile = "gone";
	ck_assert_ptr_null(effective_app(cfg, &spec));
}
END_TEST

/* A job in mbatchd's state: resolved from its queue and profile by name;
 * once dispatched with a stamp, MAX_JOB_PREEMPT comes from the stamp
 * whatever the configuration says. */
START_TEST(test_job_stamp)
{
	g_autoptr(BsConfig) cfg = load_default();
	State *st = state_new();
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew n = BASALT__EV_JOB_NEW__INIT;
	Basalt__EvJobDispatch d = BASALT__EV_JOB_DISPATCH__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	char *hosts[] = { "hostA" };
	g_autoptr(Basalt__JobEffective) e = NULL;
	GError *err = NULL;
	Job *j;

	spec.command = "true";
	spec.app_profile = "app";
	n.job_id = 1;
	n.spec = &spec;
	n.user = "alice";
	n.queue = "q";
	ev.seq = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &n;
	ck_assert(state_apply(st, &ev, &err));
	j = state_job(st, 1, 0);
	ck_assert_ptr_null(j->effective);
	ck_assert_uint_eq(effective_max_preempt(cfg, j), 1);   /* today's config */

	e = effective_resolve_job(cfg, j);
	ck_assert_int_eq(lim(e->runlimit_s), 20 * 60);
	e->max_preempt = 9;                 /* as if the configuration said 9 then */
	d.job_id = 1;
	d.exec_hosts = hosts;
	d.n_exec_hosts = 1;
	d.effective = e;
	ev.seq = 2;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &d;
	ck_assert(state_apply(st, &ev, &err));
	ck_assert_ptr_nonnull(j->effective);
	ck_assert_ptr_ne(j->effective, e);  /* the job owns a copy */
	ck_assert_uint_eq(j->effective->max_preempt, 9);
	/* The scheduler follows today's configuration, not the stamp. */
	ck_assert_uint_eq(effective_max_preempt(cfg, j), 1);
	ck_assert_int_eq(lim(j->effective->runlimit_s), 20 * 60);
	state_free(st);
}
END_TEST

/* The start order: the stamp's run limit, nice and commands, the
 * profile's ENV_VARS after mbatchd's own LSB_* variables. */
START_TEST(test_fill_start)
{
	g_autoptr(BsConfig) cfg = load_default();
	g_autoptr(Basalt__JobEffective) e = resolve(cfg, "q", "app", NULL);
	g_autoptr(Basalt__JobEffective) none = resolve(cfg, "bare", NULL, NULL);
	Basalt__StartJobRequest req = BASALT__START_JOB_REQUEST__INIT;
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(env, g_strdup("LSB_JOBID=1"));
	effective_fill_start(e, &req, env);
	ck_assert_uint_eq(req.runlimit_s, 20 * 60);
	ck_assert_ptr_eq(req.effective, e);   /* sbatchd applies the limits */
	ck_assert_int_eq(req.nice, -2);
	ck_assert_str_eq(req.pre_exec, "/bin/apre");
	ck_assert_str_eq(req.post_exec, "/bin/qpost");
	ck_assert_str_eq(req.job_starter, "astart");
	ck_assert_uint_eq(req.n_env, 3);
	ck_assert_ptr_eq(req.env, (char **)env->pdata);
	ck_assert_str_eq(req.env[0], "LSB_JOBID=1");
	ck_assert_str_eq(req.env[1], "A=1");
	ck_assert_str_eq(req.env[2], "B=two words");
	g_ptr_array_free(env, TRUE);

	env = g_ptr_array_new_with_free_func(g_free);
	effective_fill_start(none, &req, env);
	ck_assert_uint_eq(req.runlimit_s, 0);
	ck_assert_uint_eq(req.n_env, 0);
	g_ptr_array_free(env, TRUE);
}
END_TEST

static Basalt__JobLimit *
job_lim(guint64 v)
{
	Basalt__JobLimit *l = g_new(Basalt__JobLimit, 1);

	basalt__job_limit__init(l);
	l->value = v;
	return l;
}

/* bsub -v -F -D -S -C -p -T: the job's own value, bounded by the hard
 * limits above it (the smaller wins), and refused at submission above a
 * queue's maximum. */
START_TEST(test_job_host_limits)
{
	g_autoptr(BsConfig) cfg = load_default();
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__JobEffective *e;

	spec.datalimit_kb = job_lim(280);
	spec.swaplimit_kb = job_lim(100);
	spec.corelimit_kb = job_lim(0);
	spec.processlimit = job_lim(3);
	spec.threadlimit = job_lim(20);
	e = resolve(cfg, "q", NULL, &spec);
	ck_assert_int_eq(lim(e->datalimit_kb), 280);
	ck_assert_int_eq(lim(e->swaplimit_kb), 100);
	ck_assert_int_eq(lim(e->corelimit_kb), 0);
	ck_assert_int_eq(lim(e->processlimit), 3);
	ck_assert_int_eq(lim(e->threadlimit), 9);      /* the queue's is smaller */
	ck_assert_int_eq(lim(e->filelimit_kb), 400);   /* not given: the queue's */
	ck_assert_int_eq(effective_check_spec(bs_config_queue(cfg, "q"), NULL,
	    &spec), EFFECTIVE_OK);
	effective_free(e);

	spec.datalimit_kb->value = 500;                /* queue maximum 300 */
	spec.processlimit->value = 10;
	e = resolve(cfg, "q", NULL, &spec);
	ck_assert_int_eq(lim(e->datalimit_kb), 300);
	ck_assert_int_eq(lim(e->processlimit), 7);
	ck_assert_int_eq(effective_check_spec(bs_config_queue(cfg, "q"), NULL,
	    &spec), EFFECTIVE_OVER_QUEUE);
	effective_free(e);

	e = resolve(cfg, "bare", NULL, &spec);          /* nothing above it */
	ck_assert_int_eq(lim(e->datalimit_kb), 500);
	ck_assert_int_eq(lim(e->threadlimit), 20);
	ck_assert_ptr_null(e->filelimit_kb);
	effective_free(e);
	g_free(spec.datalimit_kb); g_free(spec.swaplimit_kb);
	g_free(spec.corelimit_kb); g_free(spec.processlimit);
	g_free(spec.threadlimit);
}
END_TEST

/* The warning action (bsub -wa/-wt, issue 18): the job's, else the
 * profile's, else the queue's, else its consumer's (or an ancestor's)
 * WARNING_ACTION; the time as the action.  Signals as numbers. */
START_TEST(test_warning_action)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	g_autoptr(BsConfig) cfg = NULL;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__JobEffective *e;

	conf_write(dir, "lsb.queues",
	    "Begin Queue\nQUEUE_NAME = wq\nJOB_WARNING_ACTION = USR2\n"
	    "JOB_ACTION_WARNING_TIME = 1:30\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = cq\nCONSUMER = /p/c\nEnd Queue\n");
	conf_write(dir, "lsb.applications",
	    "Begin Application\nNAME = wa\nJOB_WARNING_ACTION = HUP\n"
	    "End Application\n");
	conf_write(dir, "lsb.consumers",
	    "Begin ResourceGroup\nNAME = rg\nHOSTS = all\nEnd ResourceGroup\n"
	    "Begin Consumer\nNAME = /p\nWARNING_ACTION = URG\nEnd Consumer\n"
	    "Begin Consumer\nNAME = /p/c\nEnd Consumer\n"
	    "Begin Plan\nRESOURCE_GROUP = rg\nCONSUMER OWNED\n/p 1\n/p/c 1\n"
	    "End Plan\n");
	cfg = conf_load_dir(dir, &diags);
	conf_rmtree(dir);
	ck_assert_ptr_nonnull(cfg);
	e = resolve(cfg, "wq", NULL, NULL);
	ck_assert_int_eq(e->warning_signal, SIGUSR2);
	ck_assert_int_eq(e->warning_time, 90 * 60);
	effective_free(e);
	e = resolve(cfg, "wq", "wa", NULL);
	ck_assert_int_eq(e->warning_signal, SIGHUP);
	effective_free(e);
	spec.warning_action = (char *)"10";
	spec.warning_time = 120;
	e = resolve(cfg, "wq", "wa", &spec);
	ck_assert_int_eq(e->warning_signal, 10);
	ck_assert_int_eq(e->warning_time, 120);
	effective_free(e);
	/* The queue's consumer /p/c has none: its parent /p's URG. */
	e = resolve(cfg, "cq", NULL, NULL);
	ck_assert_int_eq(e->warning_signal, SIGURG);
	effective_free(e);
	/* Nothing set: no notice. */
	e = resolve(cfg, "wq", NULL, NULL);
	effective_free(e);
	e = effective_resolve(cfg, NULL, NULL, NULL);
	ck_assert_int_eq(e->warning_signal, 0);
	effective_free(e);
}
END_TEST

/* A warning action that is not a signal is refused at its line. */
START_TEST(test_warning_action_bad)
{
	static const char *const files[][2] = {
		{ "lsb.queues", "Begin Queue\nQUEUE_NAME = wq\n"
		    "JOB_WARNING_ACTION = NOPE\nEnd Queue\n" },
		{ "lsb.queues", "Begin Queue\nQUEUE_NAME = wq\n"
		    "JOB_ACTION_WARNING_TIME = 1:75\nEnd Queue\n" },
		{ "lsb.consumers", "Begin ResourceGroup\nNAME = rg\nHOSTS = all\n"
		    "End ResourceGroup\nBegin Consumer\nNAME = /p\n"
		    "WARNING_ACTION = 99\nEnd Consumer\n" },
	};
	static const char *const want[] = {
		"lsb.queues:3:", "lsb.queues:3:", "lsb.consumers:7:",
	};

	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *dir = conf_tmpdir(base_files);
		g_autofree char *diags = NULL;
		g_autoptr(BsConfig) cfg = NULL;

		conf_write(dir, files[i][0], files[i][1]);
		cfg = conf_load_dir(dir, &diags);
		conf_rmtree(dir);
		ck_assert_msg(strstr(diags, want[i]) != NULL, "%u: %s", i, diags);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("effective");
	TCase *tc = tcase_create("precedence");

	tcase_add_test(tc, test_queue_only);
	tcase_add_test(tc, test_application_over_queue);
	tcase_add_test(tc, test_empty_profile);
	tcase_add_test(tc, test_job_over_application);
	tcase_add_test(tc, test_job_bounded);
	tcase_add_test(tc, test_application_bounded_by_queue);
	tcase_add_test(tc, test_nothing_set);
	tcase_add_test(tc, test_max_preempt_levels);
	tcase_add_test(tc, test_effective_app);
	tcase_add_test(tc, test_job_stamp);
	tcase_add_test(tc, test_fill_start);
	tcase_add_test(tc, test_job_host_limits);
	tcase_add_test(tc, test_warning_action);
	tcase_add_test(tc, test_warning_action_bad);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
