/*
 * A job's effective parameters: the one place where the job's own request
 * (bsub -W, -c, -M), its application profile, its queue and lsb.params
 * are combined into the limits, nice, commands, environment additions and
 * MAX_JOB_PREEMPT the job runs with.  mbatchd resolves them once, when it
 * dispatches the job, and journals the result in EvJobDispatch; everything
 * after that (the start order, the scheduler's snapshot, bjobs -l, bhist
 * -l) reads the stamp, so a reconfiguration does not change a running
 * job's terms behind its back.
 *
 * The functions here need only the configuration and the job's spec: no
 * Manager, no I/O, so tests and tools call them alone.
 */
#ifndef BS_MBATCHD_EFFECTIVE_H
#define BS_MBATCHD_EFFECTIVE_H

#include <glib.h>

#include "conf/conf.h"
#include "common.pb-c.h"
#include "host.pb-c.h"

struct Job;

/* The profile a job of this spec belongs to: its -app, else
 * DEFAULT_APPLICATION; NULL = none (or a profile since removed). */
const BsAppConf *effective_app(const BsConfig *cfg, const Basalt__JobSpec *spec);

/*
 * Resolve.  `q` and `app` may be NULL (no such queue or profile).
 * Precedence, for every value: the job's own (limits given with bsub),
 * else the application profile's, else the queue's, else lsb.params'
 * (MAX_JOB_PREEMPT only), else none.  A limit's default wins over its
 * maximum at the same level; whatever is chosen is then bounded by every
 * maximum that applies (profile and queue), so a job never runs with more
 * than a hard limit allows.  A limit left absent (NULL) means none.
 * `spec` may be NULL (no limits of its own).  Free with effective_free().
 */
Basalt__JobEffective *effective_resolve(const BsConfig *cfg,
    const BsQueueConf *q, const BsAppConf *app, const Basalt__JobSpec *spec);
void effective_free(Basalt__JobEffective *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Basalt__JobEffective, effective_free)

/* Resolve for a job in mbatchd's state, from its queue and profile by name. */
Basalt__JobEffective *effective_resolve_job(const BsConfig *cfg,
    const struct Job *j);

/* Why a submission's own limits are refused. */
typedef enum {
	EFFECTIVE_OK,
	EFFECTIVE_OVER_APP,     /* above a hard limit of the profile */
	EFFECTIVE_OVER_QUEUE,   /* above a hard limit of the queue */
} EffectiveCheck;

/* bsub/bmod: the job's -W, -c and -M against the maxima of its profile
 * and queue (either may be NULL); the same maxima that bound
 * effective_resolve(). */
EffectiveCheck effective_check_spec(const BsQueueConf *q, const BsAppConf *app,
    const Basalt__JobSpec *spec);

/* MAX_JOB_PREEMPT of a started job, 0 = unlimited, from today's
 * configuration (a reconfiguration applies to running jobs, as in LSF);
 * the stamp keeps the bound at dispatch for history. */
guint effective_max_preempt(const BsConfig *cfg, const struct Job *j);

/* Copy the stamp into a start order: run limit, nice, the commands, and
 * the profile's ENV_VARS appended to `env` (whose pdata becomes req->env,
 * so the caller frees env after the request is sent).  The request
 * borrows strings from `e`. */
void effective_fill_start(const Basalt__JobEffective *e,
    Basalt__StartJobRequest *req, GPtrArray *env);

#endif
