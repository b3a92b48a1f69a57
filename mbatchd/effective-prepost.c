/*
 * Which pre/post-exec commands a job runs and how often a failing pre-exec
 * is retried: see effective-prepost.h for LSF's rules.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective-prepost.h"

static gboolean
set(const char *s)
{
	return s != NULL && *s != '\0';
}

void
effective_resolve_prepost(const BsConfig *cfg, const BsQueueConf *q,
    const BsAppConf *app, Basalt__JobEffective *e)
{
	int local = bs_config_local_preexec_retry(cfg, app);

	if (q != NULL && set(q->pre_exec))
		e->queue_pre_exec = q->pre_exec;
	if (q != NULL && set(q->post_exec))
		e->queue_post_exec = q->post_exec;
	e->local_max_preexec_retry = local > 0 ? (guint32)local : 0;
	e->preexec_retry_exit =
	    bs_config_preexec_action(cfg, q, app) == BS_PREEXEC_ACTION_EXIT;
}

/*
 * The stamp's pre_exec is the profile's, else the queue's (what bjobs -l
 * shows as the job's PRE_EXEC); the job's level is the profile's only, so
 * a pre_exec equal to the queue's is the queue's, run once.  A stamp from
 * before queue_pre_exec existed has it empty: its pre_exec runs as the
 * job's level, as it did.
 */
static const char *
job_level(const char *own, const char *stamped, const char *queue)
{
	if (set(own))
		return own;
	if (!set(stamped) || (set(queue) && strcmp(stamped, queue) == 0))
		return NULL;
	return stamped;
}

void
effective_fill_prepost(const Basalt__JobEffective *e,
    const Basalt__JobSpec *spec, Basalt__StartJobRequest *req)
{
	const char *q_pre = e != NULL ? e->queue_pre_exec : NULL;
	const char *q_post = e != NULL ? e->queue_post_exec : NULL;

	req->queue_pre_exec = set(q_pre) ? (char *)q_pre : NULL;
	req->queue_post_exec = set(q_post) ? (char *)q_post : NULL;
	req->pre_exec = (char *)job_level(spec ? spec->pre_exec : NULL,
	    e != NULL ? e->pre_exec : NULL, q_pre);
	req->post_exec = (char *)job_level(spec ? spec->post_exec : NULL,
	    e != NULL ? e->post_exec : NULL, q_post);
}

static guint32
minutes_to_s(int minutes)
{
	return minutes > 0 ? (guint32)minutes * 60 : 0;
}

void
effective_fill_prepost_timeouts(const BsConfig *cfg, const BsAppConf *app,
    Basalt__StartJobRequest *req)
{
	req->preexec_timeout_s = minutes_to_s(bs_config_prepost_timeout(cfg, app, FALSE));
	req->postexec_timeout_s = minutes_to_s(bs_config_prepost_timeout(cfg, app, TRUE));
}
