/*
 * bwait: one evaluation of a -w condition against the state, with the
 * same parser and evaluator the scheduler uses for bsub -w, so bwait and
 * a dependent job agree on when a condition holds.  bwait polls (with a
 * growing interval); an evaluation is a few hash lookups per reference,
 * and the request's length is bounded by the parser (BS_DEPEND_MAX_LEN).
 * Names mean the caller's own jobs, as in bsub -w; an unknown caller (an
 * unauthenticated peer) owns no jobs, so only IDs resolve for it.
 */
#include "config.h"

#include "mbatchd/svc/svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code

typedef struct {
	Manager *m;
	const char *user;         /* interned, or NULL: a user without jobs */
} WaitCtx;

static void
lookup(const BsDependRef *ref, GArray *out, void *data)
{
	const WaitCtx *c = data;

	if (ref->name != NULL && c->user == NULL)
		return;
	state_dep_lookup(c->m->st, c->user, ref, out);
}

void
svc_wait(Basalt__BatchService_Service *svc, const Basalt__WaitRequest *req,
    Basalt__WaitReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__WaitReply reply = BASALT__WAIT_REPLY__INIT;
	g_autoptr(BsDepend) dep = NULL;
	GError *err = NULL;
	Caller c;
	WaitCtx wc = { m, NULL };

	svc_caller(m, call, &c);
	if (c.known)
		wc.user = g_hash_table_lookup(m->st->interned, c.user);
	if (req->condition == NULL || *req->condition == '\0')
		reply.error = svc_error(E(BAD_REQUEST), "No wait condition given");
	else if ((dep = bs_depend_parse(req->condition, &err)) == NULL ||
	    !bs_depend_check_refs(dep, lookup, &wc, &err)) {
		reply.error = svc_error(E(BAD_REQUEST), "%s", err->message);
		g_error_free(err);
	} else {
		switch (bs_depend_eval(dep, lookup, &wc)) {
		case BS_DEPEND_SATISFIED:
			reply.state = BASALT__WAIT_STATE__WAIT_STATE_SATISFIED;
			break;
		case BS_DEPEND_NEVER:
			reply.state = BASALT__WAIT_STATE__WAIT_STATE_NEVER;
			break;
		default:
			reply.state = BASALT__WAIT_STATE__WAIT_STATE_WAIT;
			break;
		}
	}
	closure(&reply, call);
	svc_error_free(reply.error);
}
