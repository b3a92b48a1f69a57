/*
 * A job's effective parameters, resolved in one place (see effective.h for
 * the precedence).  Before this file the rule lived three times: the start
 * order (then in hosts.c), the scheduler's MAX_JOB_PREEMPT (then in
 * snapshot.c) and the
 * submission checks (svc/submit.c), each with its own idea of which level
 * wins; and what a job started with was never written down, so a
 * reconfiguration silently changed it for running jobs after a restart.
 *
 * A configured time limit of 0 counts as "not set", as it did in the start
 * order before (the next level applies); a size limit of 0 is a limit.
 * CPU normalisation (`/host` after a time limit) is not applied; the
 * stamped value is the raw one.
 * The per-job limits of bsub -v -F -D -S -C -p -T come as JobLimit
 * messages, so a job's -C 0 (no core file) differs from "not given".
 */
#include "config.h"

#include "mbatchd/effective.h"
#include "conf/conf_consumers.h"
#include "util/warning.h"
#include "mbatchd/effective-prepost.h"
#include "mbatchd/state/state.h"

#define MINUTE 60

const BsAppConf *
effective_app(const BsConfig *cfg, const Basalt__JobSpec *spec)
{
	if (spec != NULL && spec->app_profile != NULL && *spec->app_profile)
		return bs_config_app(cfg, spec->app_profile);
	return bs_config_default_app(cfg);
}

/* A limit as resolved: its value when `set`. */
typedef struct {
	guint64 v;
	gboolean set;
} Lim;

/* What a level's value counts as.  Time limits of 0 count as not set
 * (bsub -W 0 and a RUNLIMIT of 0 have always meant "none"); a size limit
 * of 0 is a limit (CORELIMIT = 0: no core file). */
typedef struct {
	guint64 unit;           /* seconds or KB per configured unit */
	gboolean zero_is_limit;
} Kind;

static const Kind TIME = { MINUTE, FALSE };
static const Kind SIZE = { 1, TRUE };

static gboolean
given(gint64 x, Kind k)
{
	return x > 0 || (x == 0 && k.zero_is_limit);
}

/* The value a level offers: its default, else its maximum. */
static Lim
level(const BsLimit *l, Kind k)
{
	if (given(l->def, k))
		return (Lim){ (guint64)l->def * k.unit, TRUE };
	if (given(l->max, k))
		return (Lim){ (guint64)l->max * k.unit, TRUE };
	return (Lim){ 0, FALSE };
}

/* A level's hard limit. */
static Lim
hard(const BsLimit *l, Kind k)
{
	return given(l->max, k) ? (Lim){ (guint64)l->max * k.unit, TRUE } :
	    (Lim){ 0, FALSE };
}

static Lim
bound(Lim v, Lim max)
{
	return max.set && (!v.set || v.v > max.v) ? max : v;
}

/*
 * One limit: the job's own value (0 = none given), else the profile's,
 * else the queue's; then every hard limit bounds it.  `app` and `q` point
 * at the same limit of the profile and the queue, or are NULL.
 */
static Lim
limit(guint64 job, const BsLimit *app, const BsLimit *q, Kind k)
{
	Lim v = { job, job > 0 };

	if (!v.set && app != NULL)
		v = level(app, k);
	if (!v.set && q != NULL)
		v = level(q, k);
	if (app != NULL)
		v = bound(v, hard(app, k));
	if (q != NULL)
		v = bound(v, hard(q, k));
	return v;
}

/* A plain count (PROCESSLIMIT, THREADLIMIT): the profile's, else the
 * queue's; no default/maximum pair, so the configured value is also the
 * bound of the job's own (bsub -p, -T): the smaller wins, as in LSF. */
static Lim
count(const Basalt__JobLimit *job, int app, int q)
{
	Lim cfg = { 0, FALSE };

	if (app > 0)
		cfg = (Lim){ (guint64)app, TRUE };
	else if (q > 0)
		cfg = (Lim){ (guint64)q, TRUE };
	if (job == NULL)
		return cfg;
	return bound((Lim){ job->value, TRUE }, cfg);
}

/* A size limit the job may give as a JobLimit (bsub -v -F -D -S -C). */
static Lim
limit_msg(const Basalt__JobLimit *job, const BsLimit *app, const BsLimit *q)
{
	Lim v = { 0, FALSE };

	if (job != NULL)
		v = (Lim){ job->value, TRUE };
	if (!v.set && app != NULL)
		v = level(app, SIZE);
	if (!v.set && q != NULL)
		v = level(q, SIZE);
	if (app != NULL)
		v = bound(v, hard(app, SIZE));
	if (q != NULL)
		v = bound(v, hard(q, SIZE));
	return v;
}

/* The same limit of the profile and of the queue, each NULL when absent,
 * in the order limit() and over() take them. */
#define LIM(field) (app != NULL ? &app->field : NULL), (q != NULL ? &q->field : NULL)

/* A string the profile overrides when it sets it; NULL = neither. */
static const char *
either(const char *app, const char *q)
{
	if (app != NULL && *app)
		return app;
	return q != NULL && *q ? q : NULL;
}

/* The job's consumer's WARNING_ACTION, else its closest ancestor's. */
static const char *
consumer_warning_action(const BsConfig *cfg, const BsQueueConf *q,
    const Basalt__JobSpec *spec)
{
	const char *path = spec->consumer != NULL && *spec->consumer ?
	    spec->consumer : q != NULL ? q->consumer : NULL;
	const BsConsumerConf *c;

	if (cfg == NULL || path == NULL || (c = bs_config_consumer(cfg, path)) == NULL)
		return NULL;
	while (c->warning_action == NULL && c->parent >= 0)
		c = cfg->consumers->consumers->pdata[c->parent];
	return c->warning_action;
}

/* bsub -wa/-wt, else the profile's, else the queue's warning action and
 * time (LSF: the job's option overrides the queue's default), else for
 * the action its lsb.consumers consumer's WARNING_ACTION. */
static void
effective_resolve_warning(const BsConfig *cfg, const BsQueueConf *q,
    const BsAppConf *app, const Basalt__JobSpec *spec,
    Basalt__JobEffective *e)
{
	const char *wa = NULL;
	int sig;

	if (spec->warning_action != NULL && *spec->warning_action)
		wa = spec->warning_action;
	else
		wa = either(app ? app->job_warning_action : NULL,
		    q ? q->job_warning_action : NULL);
	if (wa == NULL)
		wa = consumer_warning_action(cfg, q, spec);
	sig = wa != NULL ? bs_warning_signal_parse(wa) : -1;
	e->warning_signal = sig > 0 ? sig : 0;
	if (spec->warning_time > 0)
		e->warning_time = spec->warning_time;
	else if (app != NULL && app->job_action_warning_time > 0)
		e->warning_time = app->job_action_warning_time;
	else if (q != NULL)
		e->warning_time = q->job_action_warning_time;
}

Basalt__JobEffective *
effective_resolve(const BsConfig *cfg, const BsQueueConf *q,
    const BsAppConf *app, const Basalt__JobSpec *spec)
{
	Basalt__JobEffective e = BASALT__JOB_EFFECTIVE__INIT;
	static const Basalt__JobSpec none = BASALT__JOB_SPEC__INIT;
	Basalt__JobLimit lims[10];    /* borrowed: job_effective_copy() owns the result */
	guint n = 0;
	const char *cmd;
	int max_preempt;

	if (spec == NULL)
		spec = &none;

#define SET(field, l) do { \
		Lim l_ = (l); \
		basalt__job_limit__init(&lims[n]); \
		lims[n].value = l_.v; \
		e.field = l_.set ? &lims[n] : NULL; \
		n++; \
	} while (0)
	SET(runlimit_s, limit(spec->runlimit_s, LIM(runlimit), TIME));
	SET(cpulimit_s, limit(spec->cpulimit_s, LIM(cpulimit), TIME));
	SET(memlimit_kb, limit(spec->memlimit_kb, LIM(memlimit), SIZE));
	SET(corelimit_kb, limit_msg(spec->corelimit_kb, LIM(corelimit)));
	SET(datalimit_kb, limit_msg(spec->datalimit_kb, LIM(datalimit)));
	SET(filelimit_kb, limit_msg(spec->filelimit_kb, LIM(filelimit)));
	SET(stacklimit_kb, limit_msg(spec->stacklimit_kb, LIM(stacklimit)));
	SET(swaplimit_kb, limit_msg(spec->swaplimit_kb, LIM(swaplimit)));
	SET(processlimit, count(spec->processlimit,
	    app != NULL ? app->processlimit : BS_CONF_UNLIMITED,
	    q != NULL ? q->processlimit : BS_CONF_UNLIMITED));
	SET(threadlimit, count(spec->threadlimit,
	    app != NULL ? app->threadlimit : BS_CONF_UNLIMITED,
	    q != NULL ? q->threadlimit : BS_CONF_UNLIMITED));
#undef SET
	if (app != NULL && app->nice.set)
		e.nice = app->nice.value;
	else if (q != NULL)
		e.nice = q->nice;
	if ((cmd = either(app ? app->pre_exec : NULL, q ? q->pre_exec : NULL)) != NULL)
		e.pre_exec = (char *)cmd;
	if ((cmd = either(app ? app->post_exec : NULL, q ? q->post_exec : NULL)) != NULL)
		e.post_exec = (char *)cmd;
	if ((cmd = either(app ? app->job_starter : NULL, q ? q->job_starter : NULL)) != NULL)
		e.job_starter = (char *)cmd;
	/* The queue's PRE_EXEC/POST_EXEC run besides the job's level (the
	 * profile's, or bsub -E/-Ep): mbd-prepost.c. */
	effective_resolve_prepost(cfg, q, app, &e);
	if (app != NULL && app->env_vars != NULL) {
		e.env = app->env_vars;
		e.n_env = g_strv_length(app->env_vars);
	}
	/* The one rule for MAX_JOB_PREEMPT lives with the configuration,
	 * which tests it on its own; here it becomes part of the stamp. */
	max_preempt = bs_config_max_job_preempt(cfg, q, app);
	e.max_preempt = max_preempt > 0 ? (guint32)max_preempt : 0;
	effective_resolve_warning(cfg, q, app, spec, &e);
	return job_effective_copy(&e);
}

void
effective_free(Basalt__JobEffective *e)
{
	if (e != NULL)
		basalt__job_effective__free_unpacked(e, NULL);
}

Basalt__JobEffective *
effective_resolve_job(const BsConfig *cfg, const Job *j)
{
	const Basalt__JobSpec *spec = job_spec(j);

	/* A job keeps the profile it was submitted with (svc/submit.c writes
	 * DEFAULT_APPLICATION into the spec), so no default applies here. */
	return effective_resolve(cfg, bs_config_queue(cfg, j->queue),
	    bs_config_app(cfg, spec->app_profile), spec);
}

/* One of the job's own limits against the hard limits above it. */
static EffectiveCheck
over(guint64 asked, const BsLimit *app, const BsLimit *q, Kind k)
{
	Lim a = { asked, TRUE };

	if (asked == 0)
		return EFFECTIVE_OK;
	if (app != NULL && bound(a, hard(app, k)).v < asked)
		return EFFECTIVE_OVER_APP;
	if (q != NULL && bound(a, hard(q, k)).v < asked)
		return EFFECTIVE_OVER_QUEUE;
	return EFFECTIVE_OK;
}

/* A JobLimit as over() takes it: 0 = not asked (a 0 exceeds nothing). */
#define MSG(l) ((l) != NULL ? (l)->value : 0)

EffectiveCheck
effective_check_spec(const BsQueueConf *q, const BsAppConf *app,
    const Basalt__JobSpec *spec)
{
	EffectiveCheck c;

	if ((c = over(spec->runlimit_s, LIM(runlimit), TIME)) != EFFECTIVE_OK ||
	    (c = over(spec->cpulimit_s, LIM(cpulimit), TIME)) != EFFECTIVE_OK ||
	    (c = over(MSG(spec->swaplimit_kb), LIM(swaplimit), SIZE)) != EFFECTIVE_OK ||
	    (c = over(MSG(spec->filelimit_kb), LIM(filelimit), SIZE)) != EFFECTIVE_OK ||
	    (c = over(MSG(spec->datalimit_kb), LIM(datalimit), SIZE)) != EFFECTIVE_OK ||
	    (c = over(MSG(spec->stacklimit_kb), LIM(stacklimit), SIZE)) != EFFECTIVE_OK ||
	    (c = over(MSG(spec->corelimit_kb), LIM(corelimit), SIZE)) != EFFECTIVE_OK)
		return c;
	return over(spec->memlimit_kb, LIM(memlimit), SIZE);
}

/*
 * MAX_JOB_PREEMPT is a scheduling policy, not something the job runs
 * with: like LSF, a reconfiguration applies to jobs already running (the
 * preemption count itself is journaled and survives).  So the scheduler
 * asks today's configuration, through the same precedence as the stamp,
 * which records the bound that held at dispatch for bhist -l.
 */
guint
effective_max_preempt(const BsConfig *cfg, const Job *j)
{
	int n = bs_config_max_job_preempt(cfg, bs_config_queue(cfg, j->queue),
	    bs_config_app(cfg, job_spec(j)->app_profile));

	return n > 0 ? (guint)n : 0;
}

void
effective_fill_start(const Basalt__JobEffective *e,
    Basalt__StartJobRequest *req, GPtrArray *env)
{
	req->runlimit_s = e->runlimit_s != NULL ? e->runlimit_s->value : 0;
	/* sbatchd applies every limit of the stamp (sbatchd/job-limits.c). */
	req->effective = (Basalt__JobEffective *)e;
	req->nice = e->nice;
	req->pre_exec = e->pre_exec;
	req->post_exec = e->post_exec;
	req->job_starter = e->job_starter;
	for (size_t i = 0; i < e->n_env; i++)
		g_ptr_array_add(env, g_strdup(e->env[i]));
	req->env = (char **)env->pdata;
	req->n_env = env->len;
}
