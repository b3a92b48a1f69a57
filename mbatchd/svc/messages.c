/*
 * bpost and bread: LSF's job messages.  Who may post follows LSF: the
 * job's owner and the cluster administrators (svc_may_control).  Who may
 * read follows SECURE_JOB_INFO_LEVEL (sight.c): a message is the job's
 * own text, as private as its command, so reading needs the detail
 * sight; a caller who may not see the job at all is told it does not
 * exist, so bread cannot probe for others' jobs.  A post is bounded
 * (BS_JOB_MSG_MAX indexes, BS_JOB_MSG_TEXT_MAX bytes each) so one user
 * cannot grow mbatchd's state or journal without limit through one job.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/svc/svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code

static Basalt__Error *
post_check(Manager *m, const Caller *c, const Job *j,
    const Basalt__PostRequest *req)
{
	const char *text = req->text != NULL ? req->text : "";

	if (m->storage_failed)
		return svc_storage_error(m);
	if (j == NULL)
		return svc_error(E(NO_JOB), "No matching job found");
	if (!svc_may_control(c, j))
		return svc_error(E(PERMISSION), "User permission denied");
	if (req->index >= BS_JOB_MSG_MAX)
		return svc_error(E(BAD_REQUEST), "Bad message index %u: "
		    "the index is from 0 to %d", req->index, BS_JOB_MSG_MAX - 1);
	if (strlen(text) > BS_JOB_MSG_TEXT_MAX)
		return svc_error(E(BAD_REQUEST), "Message description is "
		    "longer than %d bytes", BS_JOB_MSG_TEXT_MAX);
	if (!g_utf8_validate(text, -1, NULL))
		return svc_error(E(BAD_REQUEST),
		    "Message description is not valid UTF-8");
	return NULL;
}

void
svc_post(Basalt__BatchService_Service *svc, const Basalt__PostRequest *req,
    Basalt__PostReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__PostReply reply = BASALT__POST_REPLY__INIT;
	Job *j = state_job(m->st, req->job_id, req->array_index);
	Caller c;

	svc_caller(m, call, &c);
	reply.error = post_check(m, &c, j, req);
	if (reply.error == NULL) {
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobMessage e = BASALT__EV_JOB_MESSAGE__INIT;
		g_autoptr(GError) err = NULL;

		e.job_id = j->id;
		e.array_index = j->index;
		e.index = req->index;
		e.text = req->text != NULL ? req->text : (char *)"";
		e.user = c.user;
		ev.body_case = BASALT__EVENT__BODY_JOB_MESSAGE;
		ev.job_message = &e;
		if (!manager_commit(m, &ev, &err) &&
		    (reply.error = svc_storage_error(m)) == NULL)
			reply.error = svc_error(E(INTERNAL), "%s", err->message);
	}
	closure(&reply, call);
	svc_error_free(reply.error);
}

void
svc_read(Basalt__BatchService_Service *svc, const Basalt__ReadRequest *req,
    Basalt__ReadReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__ReadReply reply = BASALT__READ_REPLY__INIT;
	Basalt__JobMessage one = BASALT__JOB_MESSAGE__INIT;
	Basalt__JobMessage *list[1] = { &one };
	Job *j = state_job(m->st, req->job_id, req->array_index);
	Sight *s;
	SightLevel lv = SIGHT_NONE;
	Caller c;

	svc_caller(m, call, &c);
	s = svc_sight_new(m, &c);
	if (j != NULL)
		lv = svc_sight_of(s, j);
	svc_sight_free(s);
	if (j == NULL || lv == SIGHT_NONE)
		reply.error = svc_error(E(NO_JOB), "No matching job found");
	else if (lv != SIGHT_DETAIL)
		reply.error = svc_error(E(PERMISSION), "User permission denied");
	else {
		const JobMsg *msg = job_msg_get(j, req->index);

		if (msg != NULL) {
			one.index = msg->index;
			one.text = msg->text;
			one.user = msg->user;
			one.time = msg->time;
			reply.messages = list;
			reply.n_messages = 1;
		}
	}
	closure(&reply, call);
	svc_error_free(reply.error);
}
