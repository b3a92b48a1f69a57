/*
 * Resource plans as people see them: the Consumers query behind
 * bconsumers, and the check of bsub -consumer at submission.
 *
 * Consumers: every consumer in every resource group of lsb.consumers
 * (the group's Plan rows, then the consumers its plan does not name, as
 * the scheduler sees them), the configured columns, and the figures the
 * entitlement stage computed in the last scheduling cycle (mbd-consumers.c
 * keeps them).  Read-only, and any user may ask, as the configuration
 * files are readable: it names consumers, their USERS, groups and slot
 * counts, never a job.  A path selects that consumer and
 * its subtree; each costs a prefix test per row, and the request's lists
 * are bounded before any handler runs (bounds.c).  The Plan rows are
 * those of the plan in force (TIME_WINDOW).
 *
 * -at TIME (ConsumerQuery.at): the plans in force then and the figures of
 * a scheduling pass run for then on the live state (mbd-preview.c),
 * nothing applied, with the running jobs that pass would reclaim or
 * preempt (job ids, users, queues: those bjobs would show the caller,
 * by SECURE_JOB_INFO_LEVEL).
 * Any user may ask; a pass's answer serves every ask of the same
 * scheduling cycle with the same plans in force, and a user who is not
 * an administrator may start only a few passes a minute
 * (mbd-preview-cache.c).
 *
 * -consumer: the path must name a leaf of the plan and the submitter
 * must be in its USERS (an administrator too: USERS says whose work the
 * consumer's slots are for, not who may manage it).
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "conf/conf_time.h"
#include "mbatchd/mbd-consumers.h"
#include "mbatchd/mbd-preview.h"
#include "mbatchd/sched-input.h"
#include "mbatchd/svc/svc.h"
#include "util/escape.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code

/* Each path costs a prefix test per row: a query naming more is refused
 * rather than let one client spin mbatchd (the tree is rarely larger). */
#define MAX_QUERY_PATHS 1024

static const char *
policy_name(BsConsumerPolicy p)
{
	switch (p) {
	case BS_CONSUMER_POLICY_OWNERSHIP: return "ownership";
	case BS_CONSUMER_POLICY_SHARE: return "share";
	case BS_CONSUMER_POLICY_HYBRID: return "hybrid";
	default: return "";
	}
}

/* path is `top` or below it. */
static gboolean
under(const char *path, const char *top)
{
	gsize n = strlen(top);

	while (n > 1 && top[n - 1] == '/')
		n--;
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static gboolean
selected(const BsConsumerConf *c, const Basalt__ConsumerQuery *q)
{
	if (q->n_paths == 0)
		return TRUE;
	for (size_t i = 0; i < q->n_paths; i++)
		if (under(c->path, q->paths[i]))
			return TRUE;
	return FALSE;
}

/* An unknown name in the request, as its reply's error, or NULL. */
static Basalt__Error *
check_query(const BsConfig *cfg, const Basalt__ConsumerQuery *q)
{
	for (size_t i = 0; i < q->n_paths; i++) {
		g_autofree char *p = g_strdup(q->paths[i]);
		gsize n = strlen(p);

		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		if (bs_config_consumer(cfg, p) == NULL) {
			g_autofree char *shown = bs_escape(p);

			return svc_error(E(BAD_REQUEST), "%s: No such consumer", shown);
		}
	}
	if (q->resource_group != NULL && q->resource_group[0] != '\0' &&
	    bs_config_resource_group(cfg, q->resource_group) == NULL) {
		g_autofree char *shown = bs_escape(q->resource_group);

		return svc_error(E(BAD_REQUEST), "%s: No such resource group",
		    shown);
	}
	return NULL;
}

static Basalt__ConsumerInfo *
consumer_info(const ConsumerView *v, const BsResourceGroupConf *g,
    const BsPlanConf *pl, const BsPlanRow *row)
{
	const BsConsumersConf *cc = v->cfg->consumers;
	const BsConsumerConf *c = cc->consumers->pdata[row->consumer];
	const MbdConsumerFig *f = consumers_figures_fig(v->figs, g->name, c->path);
	Basalt__ConsumerInfo *ci = g_new(Basalt__ConsumerInfo, 1);
	/* The plan in force may switch the branch's policy (POLICY). */
	BsConsumerPolicy policy = bs_config_plan_policy(v->cfg, pl, row->consumer);

	basalt__consumer_info__init(ci);
	ci->path = c->path;
	ci->resource_group = g->name;
	ci->policy = (char *)policy_name(policy);
	ci->depth = (guint32)c->depth;
	ci->leaf = c->leaf;
	ci->owned = row->owned;
	ci->reserved = row->reserved;
	ci->limit = row->limit;
	ci->rank = bs_config_plan_rank(v->cfg, row);
	/* SHARE means something under the share policy only. */
	ci->share = policy == BS_CONSUMER_POLICY_SHARE ?
	    (row->share >= 0 ? row->share : 1) : 0;
	ci->users = c->users;
	ci->n_users = c->users != NULL ? g_strv_length(c->users) : 0;
	if (f != NULL) {
		ci->owned_scaled = f->owned_scaled;
		ci->demand = f->demand;
		ci->quota = f->quota;
		ci->alloc = f->alloc;
		ci->borrowed = f->borrowed;
		ci->lent = f->lent;
		ci->reclaiming = f->reclaiming;
		ci->reason = (char *)f->reason;
	} else {
		ci->owned_scaled = row->owned;
	}
	if (v->now_figs != NULL) {
		const MbdConsumerFig *n = consumers_figures_fig(v->now_figs, g->name,
		    c->path);

		ci->quota_now = n != NULL ? n->quota : 0;
	}
	ci->time_window = (char *)"";
	if (pl != NULL && pl->windows != NULL) {
		ci->time_window = bs_conf_windows_format(pl->windows);
		g_ptr_array_add(v->strings, ci->time_window);
	}
	return ci;
}

static Basalt__ResourceGroupInfo *
group_info(const ConsumerView *v, const BsResourceGroupConf *g,
    const BsPlanConf *pl)
{
	const BsConsumersConf *cc = v->cfg->consumers;
	Basalt__ResourceGroupInfo *gi = g_new(Basalt__ResourceGroupInfo, 1);
	int plan = g->plan_slots;

	basalt__resource_group_info__init(gi);
	gi->name = g->name;
	/* Unset PLAN_SLOTS: the sum of the root-level OWNED of its plan. */
	if (plan < 0 && pl != NULL) {
		plan = 0;
		for (guint r = 0; r < pl->rows->len; r++) {
			const BsPlanRow *row = pl->rows->pdata[r];
			const BsConsumerConf *c = cc->consumers->pdata[row->consumer];

			if (c->depth == 1)
				plan += row->owned;
		}
	}
	gi->plan_slots = plan < 0 ? 0 : plan;
	gi->slots = consumers_figures_group_slots(v->figs, g->name);
	gi->hosts = g->hosts;
	gi->n_hosts = g->hosts != NULL ? g_strv_length(g->hosts) : 0;
	return gi;
}

/*
 * One group's rows, as the scheduler sees the group (consumers-input.c):
 * the rows of its plan in force at the view's time (TIME_WINDOW), in plan
 * order, then every consumer the plan does not name, in tree order, with
 * the defaults (own nothing, reserve nothing, no limit).  Returns how
 * many were selected.
 */
static guint
list_group(const ConsumerView *v, guint g, const Basalt__ConsumerQuery *req,
    GPtrArray *rows, const BsPlanConf *pl)
{
	const BsConsumersConf *cc = v->cfg->consumers;
	const BsResourceGroupConf *rg = cc->groups->pdata[g];
	g_autofree gboolean *named = g_new0(gboolean, cc->consumers->len);
	guint n = 0;

	for (guint r = 0; pl != NULL && r < pl->rows->len; r++) {
		const BsPlanRow *row = pl->rows->pdata[r];

		named[row->consumer] = TRUE;
		if (!selected(cc->consumers->pdata[row->consumer], req))
			continue;
		g_ptr_array_add(rows, consumer_info(v, rg, pl, row));
		n++;
	}
	for (guint c = 0; c < cc->consumers->len; c++) {
		BsPlanRow dflt = {
			.consumer = (int)c, .limit = BS_CONF_UNLIMITED,
			.rank = BS_CONF_UNLIMITED, .share = -1,
		};

		if (named[c] || !selected(cc->consumers->pdata[c], req))
			continue;
		g_ptr_array_add(rows, consumer_info(v, rg, pl, &dflt));
		n++;
	}
	return n;
}

void
svc_consumers_list(const ConsumerView *v, const Basalt__ConsumerQuery *req,
    GPtrArray *rows, GPtrArray *groups)
{
	const BsConsumersConf *cc = v->cfg->consumers;
	g_autoptr(GDateTime) t = g_date_time_new_from_unix_local(v->time);

	for (guint g = 0; cc != NULL && g < cc->groups->len; g++) {
		const BsResourceGroupConf *rg = cc->groups->pdata[g];
		const BsPlanConf *pl = bs_config_plan_in_force(v->cfg, (int)g, t);

		if (req->resource_group != NULL && req->resource_group[0] != '\0' &&
		    strcmp(req->resource_group, rg->name) != 0)
			continue;
		if (list_group(v, g, req, rows, pl) > 0)
			g_ptr_array_add(groups, group_info(v, rg, pl));
	}
}

/* -at lists jobs: those SECURE_JOB_INFO_LEVEL hides from the caller
 * (sight.c) are left out, as bjobs leaves them out.  `jobs` gets
 * pointers to the answer's. */
static void
jobs_seen(Manager *m, const Caller *c, const MbdPreviewAnswer *a,
    GPtrArray *jobs)
{
	Sight *sight = svc_sight_new(m, c);

	for (guint i = 0; i < a->jobs->len; i++) {
		Basalt__PreviewJob *pj = a->jobs->pdata[i];
		const Job *j = state_job(m->st, pj->job_id, pj->array_index);

		if (j != NULL && svc_sight_of(sight, j) != SIGHT_NONE)
			g_ptr_array_add(jobs, pj);
	}
	svc_sight_free(sight);
}

void
svc_consumers(Basalt__BatchService_Service *svc,
    const Basalt__ConsumerQuery *req, Basalt__ConsumerList_Closure closure,
    void *call)
{
	Manager *m = svc_manager(svc);
	const BsConsumersConf *cc = m->cfg->consumers;
	Basalt__ConsumerList reply = BASALT__CONSUMER_LIST__INIT;
	GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *groups = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *jobs = g_ptr_array_new();
	g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func(g_free);
	ConsumerView v = { m->cfg, m->consumer_figs, NULL, manager_now(), strings };
	const MbdPreviewAnswer *pv = NULL;
	gint64 retry_in = 0;
	Caller c;

	svc_caller(m, call, &c);
	if (!c.known)
		reply.error = svc_error(E(PERMISSION),
		    "User permission denied: unauthenticated client");
	else if (req->n_paths > MAX_QUERY_PATHS)
		reply.error = svc_error(E(BAD_REQUEST), "Too many consumer paths: "
		    "%zu; at most %d", req->n_paths, MAX_QUERY_PATHS);
	else if (req->at < 0 || req->at > G_GINT64_CONSTANT(253402300799))
		reply.error = svc_error(E(BAD_REQUEST), "Bad time for -at");
	else if (cc == NULL && (req->n_paths > 0 || req->at != 0 ||
	    (req->resource_group != NULL && req->resource_group[0] != '\0')))
		reply.error = svc_error(E(BAD_REQUEST),
		    "No consumer is configured in lsb.consumers");
	else if (cc != NULL)
		reply.error = check_query(m->cfg, req);
	/* -at: a pass run for that time on the live state, its figures
	 * against the last cycle's.  Open to all, as bconsumers is: it
	 * shows slot counts and the jobs the pass would take back, which
	 * bjobs shows to all too; its cost is bounded per user. */
	if (reply.error == NULL && req->at != 0) {
		pv = preview_answer(m, c.user, c.admin, req->at, &retry_in);
		if (pv == NULL)
			reply.error = svc_error(E(LIMIT), "Too many previews: "
			    "at most %d scheduling passes in %d seconds per user; "
			    "try again in %" G_GINT64_FORMAT " seconds",
			    PREVIEW_USER_PASSES, PREVIEW_USER_SECONDS, retry_in);
	}
	if (pv != NULL) {
		v.figs = pv->figs;
		v.now_figs = m->consumer_figs;
		v.time = pv->at;
		jobs_seen(m, &c, pv, jobs);
	}
	if (reply.error == NULL)
		svc_consumers_list(&v, req, rows, groups);
	if (reply.error == NULL) {
		reply.consumers = (Basalt__ConsumerInfo **)rows->pdata;
		reply.n_consumers = rows->len;
		reply.groups = (Basalt__ResourceGroupInfo **)groups->pdata;
		reply.n_groups = groups->len;
		reply.cycle_time = m->consumer_figs != NULL ?
		    m->consumer_figs->time : 0;
		reply.preview_jobs = (Basalt__PreviewJob **)jobs->pdata;
		reply.n_preview_jobs = jobs->len;
		reply.at = pv != NULL ? pv->at : 0;
	}
	closure(&reply, call);
	svc_error_free(reply.error);
	g_ptr_array_free(rows, TRUE);
	g_ptr_array_free(groups, TRUE);
	g_ptr_array_free(jobs, TRUE);
}

Basalt__Error *
svc_check_consumer(Manager *m, const Caller *c, const Basalt__JobSpec *spec)
{
	const BsConsumerConf *cons;

	if (spec->consumer == NULL || spec->consumer[0] == '\0')
		return NULL;
	/* bsub refuses these too, but mbatchd does not trust bsub. */
	if (!bs_escape_clean(spec->consumer))
		return svc_error(E(BAD_REQUEST), "Bad consumer: a consumer path "
		    "cannot contain control characters. Job not submitted.");
	cons = bs_config_consumer(m->cfg, spec->consumer);
	if (cons == NULL)
		return svc_error(E(BAD_REQUEST), "%s: No such consumer. Job not "
		    "submitted.", spec->consumer);
	if (!cons->leaf)
		return svc_error(E(BAD_REQUEST), "%s: The consumer is not a leaf: "
		    "jobs go to a consumer without sub-consumers. Job not "
		    "submitted.", spec->consumer);
	if (!bs_config_consumer_allows(m->cfg, cons, c->user))
		return svc_error(E(PERMISSION), "%s: User %s is not in the "
		    "consumer's USERS. Job not submitted.", spec->consumer,
		    c->user);
	return NULL;
}

const char *
svc_job_consumer(Manager *m, const Job *j)
{
	const BsConsumersConf *cc = m->cfg->consumers;
	const Basalt__JobSpec *spec = job_spec(j);
	guint c;

	if (cc == NULL)
		return NULL;
	/* The one rule of which consumer a job counts against is the
	 * scheduler input's; the queue by the config's index, once a row. */
	c = sched_input_consumer_of(m->cfg, bs_config_queue(m->cfg, j->queue),
	    spec != NULL ? spec->consumer : NULL);
	if (c == 0 || c > cc->consumers->len)
		return NULL;
	return ((const BsConsumerConf *)cc->consumers->pdata[c - 1])->path;
}
