/*
 * blaunch's question to the master: may this host run a task of that job?
 *
 * A parallel job's processes start on its first host only; blaunch, run
 * inside the job, asks the sbatchd of another host of the allocation to
 * start a task there (sbatchd/sbd-tasks.c).  That sbatchd knows nothing of
 * the job, so it asks here (HostService.TaskJob) over its authenticated
 * host link: the job must be running and have slots on the asking host,
 * which is the link's own registered name, never a name in the request.
 * The answer is the job's start order rebuilt as the first host got it
 * (owner, environment, hosts, the stamped effective parameters), so a
 * task runs as the job's owner with the job's environment.  The owner
 * check against blaunch's credential is sbatchd's (it has the credential).
 *
 * Nothing is journaled: a task is part of a running job and ends with it.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mbd-orders.h"
#include "util/log.h"

static Manager *
from_host_service(Basalt__HostService_Service *svc)
{
	return (Manager *)((char *)svc - offsetof(Manager, host_service));
}

/* The registered host this call came over, or NULL. */
static const char *
calling_host(Manager *m, void *call)
{
	const BsRpcPeer *peer = bs_rpc_call_peer(call);
	HostLink *l = peer->name != NULL ? manager_link(m, peer->name) : NULL;

	return l != NULL && l->conn == bs_rpc_call_conn(call) ? l->name : NULL;
}

static gboolean
has_slots_on(const Job *j, const char *host)
{
	for (guint i = 0; j->exec_hosts != NULL && j->exec_hosts[i] != NULL; i++)
		if (strcmp(j->exec_hosts[i], host) == 0)
			return TRUE;
	return FALSE;
}

void
tasks_task_job(Basalt__HostService_Service *svc,
    const Basalt__TaskJobRequest *req, Basalt__TaskJobReply_Closure closure,
    void *call)
{
	Manager *m = from_host_service(svc);
	Basalt__TaskJobReply reply = BASALT__TASK_JOB_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	const char *host = calling_host(m, call);
	Job *j = state_job(m->st, req->job_id, req->array_index);
	g_autoptr(Basalt__JobEffective) eff = NULL;
	g_autofree char *msg = NULL;
	StartOrder so;

	if (host == NULL) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
		msg = g_strdup("only a registered execution host may ask");
	} else if (j == NULL) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_NO_JOB;
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> is not found",
		    req->job_id);
	} else if (j->state != JS_RUN) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_JOB_STATE;
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> is not running",
		    req->job_id);
	} else if (!has_slots_on(j, host)) {
		e.code = BASALT__ERROR_CODE__ERROR_CODE_PERMISSION;
		msg = g_strdup_printf("Job <%" G_GUINT64_FORMAT "> has no slot on "
		    "host %s", req->job_id, host);
	}
	if (msg != NULL) {
		e.message = msg;
		reply.error = &e;
		closure(&reply, call);
		return;
	}
	if (j->effective == NULL)
		eff = effective_resolve_job(m->cfg, j);
	orders_start_request_build(m, j, j->exec_hosts, j->instance,
	    j->effective != NULL ? j->effective : eff, &so);
	reply.start = &so.req;
	log_info("job %" G_GUINT64_FORMAT "[%u]: host %s starts a blaunch task",
	    j->id, j->index, host);
	closure(&reply, call);
	orders_start_request_clear(&so);
}

/*
 * A task ended on one of the job's hosts: its CPU time adds to the job's,
 * its peak memory counts toward the job's peak.  Kept per run in memory
 * and folded into every usage the first host reports, so bjobs shows it
 * while the job runs and the job's final status event journals it (a
 * restart of mbatchd while the job runs forgets what ended before).
 */
void
tasks_task_usage(Basalt__HostService_Service *svc,
    const Basalt__TaskUsageRequest *req, Basalt__TaskUsageReply_Closure closure,
    void *call)
{
	Manager *m = from_host_service(svc);
	Basalt__TaskUsageReply reply = BASALT__TASK_USAGE_REPLY__INIT;
	const char *host = calling_host(m, call);
	Job *j = state_job(m->st, req->job_id, req->array_index);
	JobUsage *ju;
	Basalt__ResourceUsage *t;

	if (host == NULL || j == NULL || req->usage == NULL ||
	    !job_is_started(j) || req->instance != j->instance ||
	    !has_slots_on(j, host)) {
		closure(&reply, call);
		return;
	}
	ju = job_usage_ensure(j);
	t = &ju->task_usage;
	if (ju->task_usage_instance != j->instance) {
		basalt__resource_usage__init(t);
		ju->task_usage_instance = j->instance;
	}
	t->utime_us += req->usage->utime_us;
	t->stime_us += req->usage->stime_us;
	t->max_rss_kb = MAX(t->max_rss_kb, req->usage->max_rss_kb);
	closure(&reply, call);
}

const Basalt__ResourceUsage *
tasks_fold_usage(const Job *j, const Basalt__ResourceUsage *in,
    Basalt__ResourceUsage *out)
{
	if (in == NULL)
		return NULL;
	*out = *in;
	out->base.n_unknown_fields = 0;
	out->base.unknown_fields = NULL;
	out->n_pids = 0;
	out->pids = NULL;
	if (j->usage != NULL && j->usage->task_usage_instance == j->instance &&
	    j->instance != 0) {
		const Basalt__ResourceUsage *t = &j->usage->task_usage;

		out->utime_us += t->utime_us;
		out->stime_us += t->stime_us;
		out->max_rss_kb = MAX(out->max_rss_kb, t->max_rss_kb);
	}
	return out;
}
