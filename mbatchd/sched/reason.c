/*
 * Pending reasons in LSF's words, so scripts that grep `bjobs -p` output
 * keep working.  Host reasons are summarised per reason with a host count,
 * as LSF prints them without -l.
 */
#include "config.h"
#include "sched.h"

static const char *const pend_text[_SCHED_PEND_MAX] = {
	[SCHED_PEND_NONE] = "New job is waiting for scheduling",
	[SCHED_PEND_HELD] = "The job was suspended by the user while pending",
	[SCHED_PEND_BEGIN_TIME] = "The job has a specified start time",
	[SCHED_PEND_DEP_WAIT] = "Job dependency condition not satisfied",
	[SCHED_PEND_DEP_NEVER] = "Dependency condition invalid or never satisfied",
	[SCHED_PEND_QUEUE_INACTIVE_ADM] =
	    "The queue is inactivated by the administrator",
	[SCHED_PEND_QUEUE_INACTIVE_WIN] =
	    "The queue is inactivated by its time windows",
	[SCHED_PEND_QUEUE_LIMIT] = "The queue has reached its job slot limit",
	[SCHED_PEND_QUEUE_USER_LIMIT] =
	    "User has reached the per-user job slot limit of the queue",
	[SCHED_PEND_USER_LIMIT] = "The user has reached his/her job slot limit",
	[SCHED_PEND_GROUP_LIMIT] =
	    "One of the user's groups has reached its job slot limit",
	[SCHED_PEND_ARRAY_LIMIT] =
	    "The job array has reached its running element limit",
	[SCHED_PEND_NO_HOSTS] = "No host can run the job",
	[SCHED_PEND_POOL_SHARE] = "Queue's slot-pool share reached",
	[SCHED_PEND_RES_LIMIT] = "Resource limit has been reached",
	[SCHED_PEND_DEADLINE] = "The job's termination time has passed",
	[SCHED_PEND_JOBGROUP_LIMIT] =
	    "The job group has reached its job slot limit",
	[SCHED_PEND_CONSUMER_QUOTA] = "The consumer's quota is reached",
};

static const char *const host_text[_SCHED_HR_MAX] = {
	[SCHED_HR_NOT_USABLE] = "Not usable to the queue",
	[SCHED_HR_NOT_ASKED] = "Not specified in job submission",
	[SCHED_HR_CLOSED_ADM] = "Closed by LSF administrator",
	[SCHED_HR_CLOSED_WIND] = "Dispatch windows closed",
	[SCHED_HR_UNAVAIL] = "Host is unavailable",
	[SCHED_HR_SLOTS] = "Job slot limit reached",
	[SCHED_HR_QUEUE_HOST] = "Queue's per-host job slot limit reached",
	[SCHED_HR_QUEUE_CPU] = "Queue's per-CPU job slot limit reached",
	[SCHED_HR_USER_HOST] = "Host's per-user job slot limit reached",
	[SCHED_HR_USER_CPU] = "User's per-CPU job slot limit reached",
	[SCHED_HR_GROUP_CPU] = "User group's per-CPU job slot limit reached",
	[SCHED_HR_RESREQ] = "Job's resource requirements not satisfied",
	[SCHED_HR_NOT_ENOUGH] = "Not enough job slot(s)",
	[SCHED_HR_RES_LIMIT] =
	    "Resource limit defined on host and/or host group has been reached",
	[SCHED_HR_NONEXCLUSIVE] =
	    "Job's requirement for exclusive execution not satisfied",
	[SCHED_HR_EXCL_RUNNING] = "Running an exclusive job",
	[SCHED_HR_REFUSED] = "The execution host refused to run the job",
};

const char *
sched_pend_reason_text(SchedPendReason r)
{
	return r < _SCHED_PEND_MAX ? pend_text[r] : "Unknown reason";
}

const char *
sched_host_reason_text(SchedHostReason r)
{
	return r < _SCHED_HR_MAX ? host_text[r] : "Unknown host reason";
}

char *
sched_pending_format(const SchedPending *p)
{
	GString *s = g_string_new(NULL);

	/* SLOT_RESERVE: the job is collecting slots (stage-reserve.c). */
	if (p->reserved > 0)
		g_string_append_printf(s, "Waiting for reserved job slots: %d of %d "
		    "reserved;\n", p->reserved, p->reserve_need);
	if (p->reason == SCHED_PEND_POOL_SHARE) {
		g_string_append_printf(s, "%s (pool %s);",
		    sched_pend_reason_text(p->reason),
		    p->pool != NULL ? p->pool : "?");
		return g_string_free(s, FALSE);
	}
	if (p->reason == SCHED_PEND_RES_LIMIT) {
		/* LSF's wording, with the limit's NAME as blimits shows it. */
		g_string_append_printf(s, "Resource (%s) limit defined %s%s has "
		    "been reached (Limit Name: %s);",
		    p->limit_res != NULL ? p->limit_res : "slot",
		    p->limit_on != NULL ? "on " : "cluster-wide",
		    p->limit_on != NULL ? p->limit_on : "",
		    p->limit != NULL ? p->limit : "?");
		return g_string_free(s, FALSE);
	}
	if (p->reason == SCHED_PEND_CONSUMER_QUOTA) {
		g_string_append_printf(s, "The consumer's quota in resource group %s is "
		    "reached;", p->rgroup != NULL ? p->rgroup : "?");
		return g_string_free(s, FALSE);
	}
	if (p->reason != SCHED_PEND_NO_HOSTS) {
		g_string_append_printf(s, "%s;", sched_pend_reason_text(p->reason));
		return g_string_free(s, FALSE);
	}
	for (int r = 0; r < _SCHED_HR_MAX; r++) {
		guint32 n = p->host_counts[r];

		if (n == 0)
			continue;
		if (s->len > 0 && s->str[s->len - 1] != '\n')
			g_string_append_c(s, '\n');
		if (r == SCHED_HR_RES_LIMIT && p->limit != NULL) {
			g_string_append_printf(s, "Resource (%s) limit defined on "
			    "host and/or host group has been reached (Limit Name: "
			    "%s): %u host%s;", p->limit_res != NULL ?
			    p->limit_res : "slot", p->limit, n, n == 1 ? "" : "s");
			continue;
		}
		g_string_append_printf(s, "%s: %u host%s;",
		    sched_host_reason_text((SchedHostReason)r), n, n == 1 ? "" : "s");
	}
	if (s->len == 0 || s->str[s->len - 1] == '\n')
		g_string_append_printf(s, "%s;", pend_text[SCHED_PEND_NO_HOSTS]);
	return g_string_free(s, FALSE);
}
