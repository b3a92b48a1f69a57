/*
 * Small constructors for the job events everyone commits, so each caller
 * says what happened in one line and the event is built one way.
 */
#include "config.h"

#include "mbatchd/mbd.h"

gboolean
commit_job_status(Manager *m, const Job *j, JobState state,
    const JobOutcome *out, const char *reason)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStatus s = BASALT__EV_JOB_STATUS__INIT;

	s.job_id = j->id;
	s.array_index = j->index;
	s.state = state;
	if (out != NULL) {
		s.exit_status = out->exit_status;
		s.term_signal = out->term_signal;
		s.usage = (Basalt__ResourceUsage *)out->usage;
		s.term_reason = (char *)out->term_reason;
	}
	s.reason = (char *)reason;
	ev.body_case = BASALT__EVENT__BODY_JOB_STATUS;
	ev.job_status = &s;
	return manager_commit(m, &ev, NULL);
}

gboolean
commit_job_requeue(Manager *m, const Job *j, gboolean hold, const char *reason)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobRequeue r = BASALT__EV_JOB_REQUEUE__INIT;

	r.job_id = j->id;
	r.array_index = j->index;
	r.hold = hold;
	r.reason = (char *)reason;
	ev.body_case = BASALT__EVENT__BODY_JOB_REQUEUE;
	ev.job_requeue = &r;
	return manager_commit(m, &ev, NULL);
}

gboolean
commit_job_start(Manager *m, const Job *j, int pgid)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobStart s = BASALT__EV_JOB_START__INIT;

	s.job_id = j->id;
	s.array_index = j->index;
	s.pgid = pgid;
	ev.body_case = BASALT__EVENT__BODY_JOB_START;
	ev.job_start = &s;
	return manager_commit(m, &ev, NULL);
}
