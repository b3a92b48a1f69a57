/*
 * Pre- and post-exec in mbatchd, without daemons: which commands a start
 * order carries (mbatchd/effective-prepost.c: the queue's, then the job's
 * bsub -E over the profile's), the retry bounds stamped at dispatch, and
 * what an EvJobPreexec does to the state (state/apply.c): pending again at
 * the head of the queue, held, or EXIT, with the failed host remembered
 * across a checkpoint.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/effective-prepost.h"
#include "mbatchd/state/state.h"
#include "tap.h"
#include "conf_test.h"

static const char *const base_files[] = {
	"lsf.conf", "lsf.shared", "lsf.cluster.basalt", "lsb.hosts", NULL,
};

static BsConfig *
load(void)
{
	g_autofree char *dir = conf_tmpdir(base_files);
	g_autofree char *diags = NULL;
	BsConfig *cfg;

	conf_write(dir, "lsb.queues",
	    "Begin Queue\nQUEUE_NAME = q\nPRE_EXEC = /bin/qpre\nPOST_EXEC = /bin/qpost\n"
	    "LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT\nEnd Queue\n"
	    "Begin Queue\nQUEUE_NAME = bare\nEnd Queue\n");
	conf_write(dir, "lsb.applications",
	    "Begin Application\nNAME = app\nPRE_EXEC = /bin/apre\n"
	    "LOCAL_MAX_PREEXEC_RETRY = 2\nLOCAL_MAX_PREEXEC_RETRY_ACTION = SUSPEND\n"
	    "End Application\n"
	    "Begin Application\nNAME = same\nPRE_EXEC = /bin/qpre\nEnd Application\n");
	conf_write(dir, "lsb.params", "Begin Parameters\nLOCAL_MAX_PREEXEC_RETRY = 7\n"
	    "MAX_PREEXEC_RETRY = 3\nEnd Parameters\n");
	cfg = conf_load_dir(dir, &diags);
	conf_rmtree(dir);
	ck_assert_str_eq(diags, "");
	ck_assert_ptr_nonnull(cfg);
	return cfg;
}

static Basalt__JobEffective *
resolve(const BsConfig *cfg, const char *queue, const char *app,
    const Basalt__JobSpec *spec)
{
	return effective_resolve(cfg, bs_config_queue(cfg, queue),
	    bs_config_app(cfg, app), spec);
}

static const char *
str(const char *s)
{
	return s != NULL ? s : "(none)";
}

START_TEST(test_commands_by_level)
{
	g_autoptr(BsConfig) cfg = load();
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;
	Basalt__StartJobRequest req = BASALT__START_JOB_REQUEST__INIT;
	g_autoptr(Basalt__JobEffective) q = resolve(cfg, "q", NULL, NULL);
	g_autoptr(Basalt__JobEffective) qa = resolve(cfg, "q", "app", NULL);
	g_autoptr(Basalt__JobEffective) same = resolve(cfg, "q", "same", NULL);
	g_autoptr(Basalt__JobEffective) bare = resolve(cfg, "bare", "app", NULL);

	/* The queue's alone: it runs at the queue's level only. */
	effective_fill_prepost(q, &spec, &req);
	ck_assert_str_eq(str(req.queue_pre_exec), "/bin/qpre");
	ck_assert_str_eq(str(req.pre_exec), "(none)");
	ck_assert_str_eq(str(req.queue_post_exec), "/bin/qpost");
	ck_assert_str_eq(str(req.post_exec), "(none)");
	/* The profile's runs after the queue's. */
	effective_fill_prepost(qa, &spec, &req);
	ck_assert_str_eq(str(req.queue_pre_exec), "/bin/qpre");
	ck_assert_str_eq(str(req.pre_exec), "/bin/apre");
	/* bsub -E and -Ep replace the profile's, not the queue's. */
	spec.pre_exec = "myjob-pre";
	spec.post_exec = "myjob-post";
	effective_fill_prepost(qa, &spec, &req);
	ck_assert_str_eq(str(req.queue_pre_exec), "/bin/qpre");
	ck_assert_str_eq(str(req.pre_exec), "myjob-pre");
	ck_assert_str_eq(str(req.post_exec), "myjob-post");
	ck_assert_str_eq(str(req.queue_post_exec), "/bin/qpost");
	spec.pre_exec = spec.post_exec = "";
	/* A profile whose command is the queue's runs it once. */
	effective_fill_prepost(same, &spec, &req);
	ck_assert_str_eq(str(req.queue_pre_exec), "/bin/qpre");
	ck_assert_str_eq(str(req.pre_exec), "(none)");
	/* A queue without any: the profile's only. */
	effective_fill_prepost(bare, &spec, &req);
	ck_assert_str_eq(str(req.queue_pre_exec), "(none)");
	ck_assert_str_eq(str(req.pre_exec), "/bin/apre");
	/* Nothing stamped (an old journal): the job's own only. */
	spec.pre_exec = "own";
	effective_fill_prepost(NULL, &spec, &req);
	ck_assert_str_eq(str(req.queue_pre_exec), "(none)");
	ck_assert_str_eq(str(req.pre_exec), "own");
}
END_TEST

START_TEST(test_retry_bounds)
{
	g_autoptr(BsConfig) cfg = load();
	g_autoptr(Basalt__JobEffective) q = resolve(cfg, "q", NULL, NULL);
	g_autoptr(Basalt__JobEffective) qa = resolve(cfg, "q", "app", NULL);
	g_autoptr(Basalt__JobEffective) bare = resolve(cfg, "bare", NULL, NULL);

	/* lsb.params' bound, the queue's action. */
	ck_assert_uint_eq(q->local_max_preexec_retry, 7);
	ck_assert(q->preexec_retry_exit);
	/* The profile's bound and action over both. */
	ck_assert_uint_eq(qa->local_max_preexec_retry, 2);
	ck_assert(!qa->preexec_retry_exit);
	/* Default action: SUSPEND. */
	ck_assert(!bare->preexec_retry_exit);
	ck_assert_int_eq(cfg->params->max_preexec_retry, 3);
}
END_TEST

/* ---- EvJobPreexec in the state --------------------------------------- */

static guint64 seq;

static gboolean
apply(State *st, Basalt__Event *ev)
{
	GError *err = NULL;
	gboolean ok;

	ev->seq = ++seq;
	ev->time = (gint64)seq * 10;
	ok = state_apply(st, ev, &err);
	g_clear_error(&err);
	return ok;
}

static void
submit(State *st, guint64 id)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	Basalt__JobSpec spec = BASALT__JOB_SPEC__INIT;

	spec.command = "true";
	e.job_id = id;
	e.spec = &spec;
	e.user = "alice";
	e.queue = "normal";
	e.from_host = "hA";
	e.job_name = "";
	ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
	ev.job_new = &e;
	ck_assert(apply(st, &ev));
}

static gboolean
dispatch(State *st, guint64 id, const char *host)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobDispatch e = BASALT__EV_JOB_DISPATCH__INIT;
	char *hosts[] = { (char *)host };

	e.job_id = id;
	e.exec_hosts = hosts;
	e.n_exec_hosts = 1;
	ev.body_case = BASALT__EVENT__BODY_JOB_DISPATCH;
	ev.job_dispatch = &e;
	return apply(st, &ev);
}

static gboolean
preexec(State *st, guint64 id, const char *host, gboolean give_up, gboolean hold)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobPreexec e = BASALT__EV_JOB_PREEXEC__INIT;

	e.job_id = id;
	e.host = (char *)host;
	e.exit_status = 3;
	e.level = 2;
	e.give_up = give_up;
	e.hold = hold;
	e.reason = "The job's pre-exec command exited with non-zero status 3;";
	ev.body_case = BASALT__EVENT__BODY_JOB_PREEXEC;
	ev.job_preexec = &e;
	return apply(st, &ev);
}

START_TEST(test_state_preexec)
{
	State *st = state_new();
	State *copy;
	GPtrArray *events, *blocks;
	Job *j;

	submit(st, 1);
	submit(st, 2);
	submit(st, 3);
	/* Not started: refused, nothing counted. */
	ck_assert(!preexec(st, 1, "hA", FALSE, FALSE));
	j = state_job(st, 1, 0);
	ck_assert_uint_eq(job_preexec_fails(j, NULL), 0);

	/* Job 2 fails on hA: pending again, before job 1 (head of the queue). */
	ck_assert(dispatch(st, 2, "hA"));
	ck_assert(preexec(st, 2, "hA", FALSE, FALSE));
	j = state_job(st, 2, 0);
	ck_assert_int_eq(j->state, JS_PEND);
	ck_assert_ptr_null(j->exec_hosts);
	ck_assert_str_eq(j->pending_reason,
	    "The job's pre-exec command exited with non-zero status 3;");
	ck_assert_ptr_eq(state_queue(st, "normal")->pending.head->data, j);
	/* Again on hB, then held (SUSPEND action). */
	ck_assert(dispatch(st, 2, "hB"));
	ck_assert(preexec(st, 2, "hB", FALSE, FALSE));
	ck_assert(dispatch(st, 2, "hA"));
	ck_assert(preexec(st, 2, "hA", TRUE, TRUE));
	ck_assert_int_eq(j->state, JS_PSUSP);
	ck_assert(j->preexec_held);
	ck_assert_uint_eq(job_preexec_fails(j, NULL), 3);
	ck_assert_uint_eq(job_preexec_fails(j, "hA"), 2);
	ck_assert_uint_eq(job_preexec_fails(j, "hB"), 1);
	ck_assert_uint_eq(job_preexec_fails(j, "hC"), 0);

	/* Job 3 gives up: EXIT with the pre-exec's code and the reason. */
	ck_assert(dispatch(st, 3, "hC"));
	ck_assert(preexec(st, 3, "hC", TRUE, FALSE));
	j = state_job(st, 3, 0);
	ck_assert_int_eq(j->state, JS_EXIT);
	ck_assert_int_eq(j->exit_status, 3);
	ck_assert_str_eq(j->exit_reason,
	    "The job's pre-exec command exited with non-zero status 3;");
	/* A finished job has no pre-exec to fail. */
	ck_assert(!preexec(st, 3, "hC", FALSE, FALSE));

	/* A checkpoint keeps the failures and where they were. */
	events = state_export_events(st, &blocks);
	copy = state_new();
	for (guint i = 0; i < events->len; i++)
		ck_assert(state_apply(copy, events->pdata[i], NULL));
	j = state_job(copy, 2, 0);
	ck_assert_int_eq(j->state, JS_PSUSP);
	ck_assert_uint_eq(job_preexec_fails(j, "hA"), 2);
	ck_assert_uint_eq(job_preexec_fails(j, "hB"), 1);
	ck_assert_int_eq(state_job(copy, 3, 0)->state, JS_EXIT);
	ck_assert_uint_eq(job_preexec_fails(state_job(copy, 3, 0), NULL), 1);
	g_ptr_array_free(events, TRUE);
	g_ptr_array_free(blocks, TRUE);
	state_free(copy);
	state_free(st);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("prepost");
	TCase *tc = tcase_create("prepost");

	tcase_add_test(tc, test_commands_by_level);
	tcase_add_test(tc, test_retry_bounds);
	tcase_add_test(tc, test_state_preexec);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
