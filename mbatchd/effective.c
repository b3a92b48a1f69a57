/*
 * A job's effective parameters, resolved in one place (see effective.h for
 * the precedence).  Before this file the rule lived three times: the start
 * order (hosts.c), the scheduler's MAX_JOB_PREEMPT (snapshot.c) and the
 * submission checks (svc/submit.c), each with its own idea of which level
 * wins; and what a job started with was never written down, so a
 * reconfiguration silently changed it for running jobs after a restart.
 *
 * A configured limit of 0 counts as "not set", as it did in the start
 * order before: the next level applies.  CPU normalisation (`/host` after
 * a time limit) is not applied; the stamped value is the raw one.
 * THREADLIMIT is not parsed by lib/conf, so it has no field yet.
 */
#include "config.h"

#include "mbatchd/effective.h"
#include "mbatchd/state/state.h"

#define MINUTE 60

const BsAppConf *
effective_app(const BsConfig *cfg, const Basalt__JobSpec *spec)
{
	if (spec != NULL && spec->app_profile != NULL && *spec->app_profile)
		return bs_config_app(cfg, spec->app_profile);
	return bs_config_default_app(cfg);
}

/* The value a level offers: its default, else its maximum; 0 = none. */
static guint64
level(const BsLimit *l, guint64 unit)
{
	if (l->def > 0)
		return (guint64)l->def * unit;
	if (l->max > 0)
		return (guint64)l->max * unit;
	return 0;
}

/* A level's hard limit; 0 = none. */
static guint64
hard(const BsLimit *l, guint64 unit)
{
	return l->max > 0 ? (guint64)l->max * unit : 0;
}

static guint64
bound(guint64 v, guint64 max)
{
	return max > 0 && (v == 0 || v > max) ? max : v;
}

/*
 * One limit: the job's own value, else the profile's, else the queue's;
 * then every hard limit bounds it.  `app` and `q` point at the same limit
 * of the profile and the queue, or are NULL.
 */
static guint64
limit(guint64 job, const BsLimit *app, const BsLimit *q, guint64 unit)
{
	guint64 v = job;

	if (v == 0 && app != NULL)
		v = level(app, unit);
	if (v == 0 && q != NULL)
		v = level(q, unit);
	if (app != NULL)
		v = bound(v, hard(app, unit));
	if (q != NULL)
		v = bound(v, hard(q, unit));
	return v;
}

/* A string the profile overrides when it sets it; NULL = neither. */
static const char *
either(const char *app, const char *q)
{
	if (app != NULL && *app)
		return app;
	return q != NULL && *q ? q : NULL;
}

Basalt__JobEffective *
effective_resolve(const BsConfig *cfg, const BsQueueConf *q,
    const BsAppConf *app, const Basalt__JobSpec *spec)
{
	Basalt__JobEffective e = BASALT__JOB_EFFECTIVE__INIT;
	static const Basalt__JobSpec none = BASALT__JOB_SPEC__INIT;
	const char *cmd;
	int max_preempt;

	if (spec == NULL)
		spec = &none;
#define LIM(field) (app != NULL ? &app->field : NULL), (q != NULL ? &q->field : NULL)
	e.runlimit_s = limit(spec->runlimit_s, LIM(runlimit), MINUTE);
	e.cpulimit_s = limit(spec->cpulimit_s, LIM(cpulimit), MINUTE);
	e.memlimit_kb = limit(spec->memlimit_kb, LIM(memlimit), 1);
	e.corelimit_kb = limit(0, LIM(corelimit), 1);
	e.datalimit_kb = limit(0, LIM(datalimit), 1);
	e.filelimit_kb = limit(0, LIM(filelimit), 1);
	e.stacklimit_kb = limit(0, LIM(stacklimit), 1);
	e.swaplimit_kb = limit(0, LIM(swaplimit), 1);
#undef LIM
	if (app != NULL && app->processlimit > 0)
		e.processlimit = (guint32)app->processlimit;
	else if (q != NULL && q->processlimit > 0)
		e.processlimit = (guint32)q->processlimit;
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
	if (app != NULL && app->env_vars != NULL) {
		e.env = app->env_vars;
		e.n_env = g_strv_length(app->env_vars);
	}
	/* The one rule for MAX_JOB_PREEMPT lives with the configuration,
	 * which tests it on its own; here it becomes part of the stamp. */
	max_preempt = bs_config_max_job_preempt(cfg, q, app);
	e.max_preempt = max_preempt > 0 ? (guint32)max_preempt : 0;
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

EffectiveCheck
effective_check_spec(const BsQueueConf *q, const BsAppConf *app,
    const Basalt__JobSpec *spec)
{
	const guint64 asked[] = { spec->runlimit_s, spec->cpulimit_s, spec->memlimit_kb };
	const guint64 unit[] = { MINUTE, MINUTE, 1 };

	for (guint i = 0; i < G_N_ELEMENTS(asked); i++) {
		const BsLimit *al = app == NULL ? NULL : i == 0 ? &app->runlimit :
		    i == 1 ? &app->cpulimit : &app->memlimit;
		const BsLimit *ql = q == NULL ? NULL : i == 0 ? &q->runlimit :
		    i == 1 ? &q->cpulimit : &q->memlimit;

		if (asked[i] == 0)
			continue;
		if (al != NULL && hard(al, unit[i]) > 0 && asked[i] > hard(al, unit[i]))
			return EFFECTIVE_OVER_APP;
		if (ql != NULL && hard(ql, unit[i]) > 0 && asked[i] > hard(ql, unit[i]))
			return EFFECTIVE_OVER_QUEUE;
	}
	return EFFECTIVE_OK;
}

guint
effective_max_preempt(const BsConfig *cfg, const Job *j)
{
	g_autoptr(Basalt__JobEffective) e = NULL;

	if (j->effective != NULL)
		return j->effective->max_preempt;
	e = effective_resolve_job(cfg, j);
	return e->max_preempt;
}

void
effective_fill_start(const Basalt__JobEffective *e,
    Basalt__StartJobRequest *req, GPtrArray *env)
{
	req->runlimit_s = e->runlimit_s;
	req->nice = e->nice;
	req->pre_exec = e->pre_exec;
	req->post_exec = e->post_exec;
	req->job_starter = e->job_starter;
	for (size_t i = 0; i < e->n_env; i++)
		g_ptr_array_add(env, g_strdup(e->env[i]));
	req->env = (char **)env->pdata;
	req->n_env = env->len;
}
