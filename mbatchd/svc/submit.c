/*
 * bsub: choose the queue, check the request against it, give the job its
 * id and commit it.  Everything that can be wrong with a submission is
 * found here, before the job exists: a bad -R, a dependency on a job that
 * does not exist, a limit over a hard limit of the profile or queue (the
 * maxima mbatchd/effective.c bounds a job by), a malformed array.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "job/array.h"
#include "job/depend.h"
#include "mbatchd/effective.h"
#include "mbatchd/svc/svc.h"
#include "resreq/resreq.h"
#include "rpc/frame.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/log.h"
#include "util/warning.h"

/*
 * The largest submission (command, script, environment and options, as
 * packed) a job may have.  What mbatchd later sends about the job (its
 * start order, a bjobs page that carries its command and name) must fit
 * a frame; a quarter of the frame leaves room for both, so one user's
 * oversized job can neither sit in RUN without a process nor make bjobs
 * fail for everyone.
 */
#define SPEC_MAX_BYTES (BS_FRAME_MAX_DEFAULT / 4)

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code

typedef struct {
	Manager *m;
	const char *user;
} RefCtx;

/* Whether a -w reference names any job: through the dependency index,
 * not a walk over every job.  A user never interned has no jobs. */
static void
ref_lookup(const BsDependRef *ref, GArray *out, void *data)
{
	RefCtx *c = data;
	const char *user = g_hash_table_lookup(c->m->st->interned, c->user);

	if (ref->name != NULL && user == NULL)
		return;
	state_dep_lookup(c->m->st, user, ref, out);
}

/*
 * -x, -sp, -t and -L against the queue and lsb.params, with LSF's words:
 * -x only where EXCLUSIVE = Y; -sp only with MAX_USER_PRIORITY, and a
 * user (not an administrator) at most up to it.
 */
static Basalt__Error *
check_sub_options(Manager *m, const Caller *c, const BsQueueConf *q,
    const Basalt__JobSpec *spec)
{
	int max_prio = m->cfg->params->max_user_priority;

	if (spec->exclusive && (q == NULL || !q->exclusive.enabled))
		return svc_error(E(BAD_REQUEST), "%s: Queue does not accept "
		    "EXCLUSIVE jobs", q != NULL ? q->name : "");
	if (spec->user_priority > 0 && max_prio <= 0)
		return svc_error(E(BAD_REQUEST), "Job priority control undefined");
	if (spec->user_priority > 0 && !c->admin &&
	    spec->user_priority > (guint32)max_prio)
		return svc_error(E(BAD_REQUEST), "Bad user priority: %u is above "
		    "MAX_USER_PRIORITY (%d)", spec->user_priority, max_prio);
	if (spec->login_shell != NULL && *spec->login_shell != '\0' &&
	    (!g_path_is_absolute(spec->login_shell) ||
	     !bs_escape_clean(spec->login_shell)))
		return svc_error(E(BAD_REQUEST), "Bad login shell: the login "
		    "shell must be an absolute path");
	if (spec->term_time < 0 || (spec->term_time > 0 &&
	    spec->begin_time > 0 && spec->term_time <= spec->begin_time))
		return svc_error(E(BAD_REQUEST), "Bad termination time: it must "
		    "be later than the begin time");
	return NULL;
}

/* lsb.queues INTERACTIVE = NO | ONLY, with LSF's words. */
static gboolean
interactive_fits(const BsQueueConf *q, const Basalt__JobSpec *spec,
    Basalt__Error **err)
{
	if (spec->interactive != 0 && q->interactive == BS_INTERACTIVE_NO) {
		*err = svc_error(E(QUEUE_USER), "%s: Queue does not accept "
		    "interactive jobs", q->name);
		return FALSE;
	}
	if (spec->interactive == 0 && q->interactive == BS_INTERACTIVE_ONLY) {
		*err = svc_error(E(QUEUE_USER), "%s: Queue only accepts "
		    "interactive jobs", q->name);
		return FALSE;
	}
	return TRUE;
}

Basalt__Error *
svc_check_spec(Manager *m, const Caller *c, const Basalt__JobSpec *spec,
    const char *queue)
{
	const BsQueueConf *q = bs_config_queue(m->cfg, queue);
	const BsAppConf *app = NULL;
	GError *err = NULL;

	Basalt__Error *sub_err;
	gsize size;

	if (spec->command == NULL || *spec->command == '\0')
		return svc_error(E(BAD_REQUEST), "No job command specified");
	/* Again here for bswitch and bmod -q, which move a job to q. */
	if (q != NULL && !interactive_fits(q, spec, &sub_err))
		return sub_err;
	if ((sub_err = svc_check_job_group(spec->job_group)) != NULL ||
	    (spec->job_group != NULL && *spec->job_group != '\0' &&
	    (sub_err = svc_check_job_group_room(m, c, spec->job_group)) != NULL))
		return sub_err;
	/* bsub refuses these too, but mbatchd does not trust bsub: a
	 * newline in a name would forge lines in logs and listings. */
	if (!bs_escape_clean(spec->job_name))
		return svc_error(E(BAD_REQUEST), "Bad job name: a job name cannot "
		    "contain a newline or other control characters");
	size = basalt__job_spec__get_packed_size(spec);
	if (size > SPEC_MAX_BYTES)
		return svc_error(E(BAD_REQUEST), "Job submission too large: %zu "
		    "bytes of command, script and environment; the limit is %u",
		    size, SPEC_MAX_BYTES);
	if (spec->app_profile != NULL && *spec->app_profile &&
	    (app = bs_config_app(m->cfg, spec->app_profile)) == NULL)
		return svc_error(E(BAD_REQUEST), "%s: Application profile does not "
		    "exist", spec->app_profile);
	if (app == NULL)
		app = effective_app(m->cfg, spec);
	switch (effective_check_spec(q, app, spec)) {
	case EFFECTIVE_OVER_APP:
		return svc_error(E(LIMIT), "Cannot exceed the application "
		    "profile's hard limit(s)");
	case EFFECTIVE_OVER_QUEUE:
		return svc_error(E(LIMIT), "Cannot exceed queue's hard limit(s)");
	case EFFECTIVE_OK:
		break;
	}
	if ((sub_err = check_sub_options(m, c, q, spec)) != NULL)
		return sub_err;
	if ((sub_err = svc_check_consumer(m, c, spec)) != NULL)
		return sub_err;
	/* bsub -wa/-wt: bsub checks them, mbatchd does not trust bsub. */
	if (spec->warning_action != NULL && *spec->warning_action &&
	    bs_warning_signal_parse(spec->warning_action) < 0)
		return svc_error(E(BAD_REQUEST), "Bad job warning action: a signal "
		    "name or number");
	if (spec->warning_time < 0)
		return svc_error(E(BAD_REQUEST), "Bad job warning time");
	/* LSF: interactive jobs are not rerunnable; their user is gone when
	 * a rerun would start. */
	if (spec->interactive != 0 && spec->rerunnable)
		return svc_error(E(BAD_REQUEST), "Interactive jobs are not "
		    "rerunnable");
	if (spec->max_slots > 0 && spec->max_slots < spec->min_slots)
		return svc_error(E(BAD_REQUEST),
		    "Bad argument for option -n: maximum is below minimum");
	if (spec->resreq != NULL && *spec->resreq) {
		BsResReq *rr = bs_resreq_parse(spec->resreq, &err);

		if (rr == NULL) {
			Basalt__Error *e = svc_error(E(BAD_REQUEST), "%s", err->message);

			g_error_free(err);
			return e;
		}
		bs_resreq_free(rr);
	}
	if (spec->dependency != NULL && *spec->dependency) {
		BsDepend *dep = bs_depend_parse(spec->dependency, &err);
		RefCtx rc = { m, c->user };

		if (dep == NULL || !bs_depend_check_refs(dep, ref_lookup, &rc, &err)) {
			Basalt__Error *e = svc_error(E(BAD_REQUEST), "%s", err->message);

			g_error_free(err);
			bs_depend_free(dep);
			return e;
		}
		bs_depend_free(dep);
	}
	return NULL;
}

/* The first queue of the list (or DEFAULT_QUEUE) that takes the job. */
static const BsQueueConf *
choose_queue(Manager *m, const Caller *c, const Basalt__JobSpec *spec,
    Basalt__Error **err)
{
	const char *const *names = spec->n_queues > 0 ?
	    (const char *const *)spec->queues : bs_config_default_queues(m->cfg);
	size_t n = spec->n_queues > 0 ? spec->n_queues : g_strv_length((char **)names);

	for (size_t i = 0; i < n; i++) {
		const BsQueueConf *q = bs_config_queue(m->cfg, names[i]);
		QueueRt *rt;

		svc_error_free(*err);
		*err = NULL;
		if (q == NULL) {
			*err = svc_error(E(NO_QUEUE), "%s: No such queue", names[i]);
			continue;
		}
		rt = state_queue_ensure(m->st, q->name);
		if (!rt->open) {
			*err = svc_error(E(QUEUE_CLOSED), "%s: Queue has been closed", q->name);
			continue;
		}
		if (!c->admin && !svc_queue_accepts_user(m, q, c->user)) {
			*err = svc_error(E(QUEUE_USER), "%s: User cannot use the queue", q->name);
			continue;
		}
		if (!interactive_fits(q, spec, err))
			continue;
		return q;
	}
	if (*err == NULL)
		*err = svc_error(E(NO_QUEUE), "No default queue is configured");
	return NULL;
}

guint64
svc_next_job_id(Manager *m)
{
	guint64 max = (guint64)m->cfg->params->max_jobid;
	guint64 id = m->st->last_job_id;

	/* Ids wrap after MAX_JOBID, skipping any still in use. */
	for (guint64 tries = 0; tries < max; tries++) {
		id = id >= max ? 1 : id + 1;
		if (state_job(m->st, id, 0) == NULL && state_job(m->st, id, 1) == NULL)
			return id;
	}
	return 0;
}

/* A token bsub could have sent: bounded, printable. */
static gboolean
token_ok(const char *t)
{
	return strlen(t) <= STATE_TOKEN_MAX && bs_escape_clean(t) &&
	    strchr(t, ':') == NULL;
}

/*
 * Test-only fault points (tests/integration/t0620-submit-retry.sh), named
 * by BS_TEST_SUBMIT_FAULT in mbatchd's environment: "exit" makes mbatchd
 * exit at once after a submission is durable in the journal,
 * before its reply is sent (a crash at the worst moment); "drop" closes
 * the connection instead of replying.  Unset, nothing changes.
 */
static gboolean
submit_fault(Manager *m, void *call)
{
	const char *f = g_getenv("BS_TEST_SUBMIT_FAULT");

	if (f == NULL || *f == '\0')
		return FALSE;
	if (strcmp(f, "exit") == 0) {
		(void)journal_flush(m);
		log_warning("BS_TEST_SUBMIT_FAULT=exit: exiting after the commit");
		_exit(137);
	}
	if (strcmp(f, "drop") == 0) {
		log_warning("BS_TEST_SUBMIT_FAULT=drop: dropping the reply");
		bs_rpc_conn_close(bs_rpc_call_conn(call), "test fault: reply dropped");
		return TRUE;
	}
	return FALSE;
}

void
svc_submit(Basalt__BatchService_Service *svc, const Basalt__SubmitRequest *req,
    Basalt__SubmitReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__SubmitReply reply = BASALT__SUBMIT_REPLY__INIT;
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobNew e = BASALT__EV_JOB_NEW__INIT;
	const Basalt__JobSpec *spec = req->spec;
	const BsQueueConf *q = NULL;
	const BsAppConf *dflt;
	Basalt__JobSpec with_app;
	BsArraySpec *array = NULL;
	GError *gerr = NULL;
	const char *seen_queue = NULL;
	g_autofree char *dflt_group = NULL;
	Caller c;

	svc_caller(m, call, &c);
	if ((reply.error = svc_storage_error(m)) != NULL)
		;
	else if (!c.known)
		reply.error = svc_error(E(PERMISSION),
		    "User permission denied: unauthenticated client");
	else if (spec == NULL)
		reply.error = svc_error(E(BAD_REQUEST), "No job specification");
	else if (req->token != NULL && !token_ok(req->token))
		reply.error = svc_error(E(BAD_REQUEST), "Bad submission token");
	else if (req->token != NULL && *req->token != '\0' &&
	    state_token_find(m->st, c.uid, req->token, &reply.job_id, &seen_queue)) {
		/* A retry of a submission already accepted: the same job. */
		log_info("submission token of job %" G_GUINT64_FORMAT " seen again "
		    "(uid %u): answering with that job", reply.job_id, c.uid);
		reply.queue = (char *)seen_queue;
		reply.default_queue = spec->n_queues == 0;
		closure(&reply, call);
		return;
	}
	if (reply.error == NULL)
		q = choose_queue(m, &c, spec, &reply.error);
	if (q != NULL)
		reply.error = svc_check_spec(m, &c, spec, q->name);
	if (reply.error == NULL && !bs_array_parse(spec->job_name,
	    (guint)m->cfg->params->max_job_array_size, &array, &gerr)) {
		reply.error = svc_error(E(BAD_REQUEST), "%s", gerr->message);
		g_error_free(gerr);
	}
	if (reply.error == NULL && (e.job_id = svc_next_job_id(m)) == 0)
		reply.error = svc_error(E(LIMIT), "No job id is free below MAX_JOBID");
	if (reply.error == NULL) {
		/* The job keeps the profile it got: -app, else DEFAULT_APPLICATION. */
		if ((spec->app_profile == NULL || *spec->app_profile == '\0') &&
		    (dflt = bs_config_default_app(m->cfg)) != NULL) {
			with_app = *spec;
			with_app.app_profile = dflt->name;
			spec = &with_app;
		}
		/* -g, else DEFAULT_JOBGROUP with %u and %p. */
		if ((spec->job_group == NULL || *spec->job_group == '\0') &&
		    (dflt_group = svc_default_job_group(m, c.user,
		    spec->project)) != NULL) {
			if (spec != &with_app) {
				with_app = *spec;
				spec = &with_app;
			}
			with_app.job_group = dflt_group;
			/* DEFAULT_JOBGROUP's %p is the submitter's to choose:
			 * the groups it makes count as bsub -g's do. */
			reply.error = svc_check_job_group_room(m, &c, dflt_group);
		}
	}
	if (reply.error == NULL) {
		e.spec = (Basalt__JobSpec *)spec;
		e.user = c.user;
		e.uid = c.uid;
		e.gid = c.gid;
		e.queue = q->name;
		e.from_host = spec->submit_host;
		e.submit_token = req->token;
		if (array != NULL) {
			guint n = 0;

			e.array_indexes = (guint32 *)bs_array_spec_indices(array, &n);
			e.n_array_indexes = n;
			e.array_limit = (gint32)bs_array_spec_limit(array);
			e.job_name = (char *)bs_array_spec_name(array);
		} else {
			e.job_name = spec->job_name;
		}
		ev.body_case = BASALT__EVENT__BODY_JOB_NEW;
		ev.job_new = &e;
		if (!manager_commit(m, &ev, &gerr)) {
			reply.error = svc_error(g_error_matches(gerr, BS_ERROR,
			    BS_ERROR_IO) ? E(STORAGE) : E(INTERNAL), "%s", gerr->message);
			g_error_free(gerr);
		}
	}
	if (reply.error == NULL) {
		reply.job_id = e.job_id;
		reply.queue = q->name;
		reply.default_queue = spec->n_queues == 0;
		manager_schedule_soon(m);
		if (submit_fault(m, call)) {
			bs_array_spec_free(array);
			return;
		}
	}
	closure(&reply, call);
	svc_error_free(reply.error);
	bs_array_spec_free(array);
}
