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
 * are bounded before any handler runs (bounds.c).
 *
 * -consumer: the path must name a leaf of the plan and the submitter
 * must be in its USERS (an administrator too: USERS says whose work the
 * consumer's slots are for, not who may manage it).
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "mbatchd/mbd-consumers.h"
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
consumer_info(Manager *m, const BsConsumersConf *cc,
    const BsResourceGroupConf *g, const BsPlanRow *row)
{
	const BsConsumerConf *c = cc->consumers->pdata[row->consumer];
	const MbdConsumerFig *f = consumers_fig(m, g->name, c->path);
	Basalt__ConsumerInfo *ci = g_new(Basalt__ConsumerInfo, 1);

	basalt__consumer_info__init(ci);
	ci->path = c->path;
	ci->resource_group = g->name;
	ci->policy = (char *)policy_name(c->effective);
	ci->depth = (guint32)c->depth;
	ci->leaf = c->leaf;
	ci->owned = row->owned;
	ci->reserved = row->reserved;
	ci->limit = row->limit;
	ci->rank = bs_config_plan_rank(m->cfg, row);
	/* SHARE means something under the share policy only. */
	ci->share = c->effective == BS_CONSUMER_POLICY_SHARE ?
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
		ci->reason = f->reason != NULL ? f->reason : (char *)"";
	} else {
		ci->owned_scaled = row->owned;
	}
	return ci;
}

static Basalt__ResourceGroupInfo *
group_info(Manager *m, const BsConsumersConf *cc, const BsResourceGroupConf *g)
{
	Basalt__ResourceGroupInfo *gi = g_new(Basalt__ResourceGroupInfo, 1);
	int plan = g->plan_slots;

	basalt__resource_group_info__init(gi);
	gi->name = g->name;
	/* Unset PLAN_SLOTS: the sum of the root-level OWNED of its plan. */
	for (guint p = 0; plan < 0 && p < cc->plans->len; p++) {
		const BsPlanConf *pl = cc->plans->pdata[p];

		if (g_ptr_array_index(cc->groups, pl->group) != g)
			continue;
		plan = 0;
		for (guint r = 0; r < pl->rows->len; r++) {
			const BsPlanRow *row = pl->rows->pdata[r];
			const BsConsumerConf *c = cc->consumers->pdata[row->consumer];

			if (c->depth == 1)
				plan += row->owned;
		}
	}
	gi->plan_slots = plan < 0 ? 0 : plan;
	gi->slots = consumers_group_slots(m, g->name);
	gi->hosts = g->hosts;
	gi->n_hosts = g->hosts != NULL ? g_strv_length(g->hosts) : 0;
	return gi;
}

static const BsPlanConf *
plan_of(const BsConsumersConf *cc, guint group)
{
	for (guint p = 0; p < cc->plans->len; p++)
		if (((const BsPlanConf *)cc->plans->pdata[p])->group == (int)group)
			return cc->plans->pdata[p];
	return NULL;
}

/*
 * One group's rows, as the scheduler sees the group (consumers-input.c):
 * its Plan rows in plan order, then every consumer the plan does not
 * name, in tree order, with the defaults (own nothing, reserve nothing,
 * no limit).  Returns how many were selected.
 */
static guint
list_group(Manager *m, const BsConsumersConf *cc, guint g,
    const Basalt__ConsumerQuery *req, GPtrArray *rows)
{
	const BsResourceGroupConf *rg = cc->groups->pdata[g];
	const BsPlanConf *pl = plan_of(cc, g);
	g_autofree gboolean *named = g_new0(gboolean, cc->consumers->len);
	guint n = 0;

	for (guint r = 0; pl != NULL && r < pl->rows->len; r++) {
		const BsPlanRow *row = pl->rows->pdata[r];

		named[row->consumer] = TRUE;
		if (!selected(cc->consumers->pdata[row->consumer], req))
			continue;
		g_ptr_array_add(rows, consumer_info(m, cc, rg, row));
		n++;
	}
	for (guint c = 0; c < cc->consumers->len; c++) {
		BsPlanRow dflt = {
			.consumer = (int)c, .limit = BS_CONF_UNLIMITED,
			.rank = BS_CONF_UNLIMITED, .share = -1,
		};

		if (named[c] || !selected(cc->consumers->pdata[c], req))
			continue;
		g_ptr_array_add(rows, consumer_info(m, cc, rg, &dflt));
		n++;
	}
	return n;
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
	Caller c;

	svc_caller(m, call, &c);
	if (!c.known)
		reply.error = svc_error(E(PERMISSION),
		    "User permission denied: unauthenticated client");
	else if (req->n_paths > MAX_QUERY_PATHS)
		reply.error = svc_error(E(BAD_REQUEST), "Too many consumer paths: "
		    "%zu; at most %d", req->n_paths, MAX_QUERY_PATHS);
	else if (cc == NULL && (req->n_paths > 0 ||
	    (req->resource_group != NULL && req->resource_group[0] != '\0')))
		reply.error = svc_error(E(BAD_REQUEST),
		    "No consumer is configured in lsb.consumers");
	else if (cc != NULL)
		reply.error = check_query(m->cfg, req);
	for (guint g = 0; reply.error == NULL && cc != NULL &&
	    g < cc->groups->len; g++) {
		const BsResourceGroupConf *rg = cc->groups->pdata[g];

		if (req->resource_group != NULL && req->resource_group[0] != '\0' &&
		    strcmp(req->resource_group, rg->name) != 0)
			continue;
		if (list_group(m, cc, g, req, rows) > 0)
			g_ptr_array_add(groups, group_info(m, cc, rg));
	}
	if (reply.error == NULL) {
		reply.consumers = (Basalt__ConsumerInfo **)rows->pdata;
		reply.n_consumers = rows->len;
		reply.groups = (Basalt__ResourceGroupInfo **)groups->pdata;
		reply.n_groups = groups->len;
		reply.cycle_time = m->consumer_figs != NULL ?
		    m->consumer_figs->time : 0;
	}
	closure(&reply, call);
	svc_error_free(reply.error);
	g_ptr_array_free(rows, TRUE);
	g_ptr_array_free(groups, TRUE);
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
	SchedInput in;
	guint q, c;

	if (cc == NULL)
		return NULL;
	for (q = 0; q < m->cfg->queues->len; q++)
		if (strcmp(((const BsQueueConf *)m->cfg->queues->pdata[q])->name,
		    j->queue) == 0)
			break;
	/* The one rule of which consumer a job counts against is the
	 * scheduler input's; it reads nothing of `in` but the config. */
	memset(&in, 0, sizeof in);
	in.cfg = m->cfg;
	c = sched_input_job_consumer(&in, q, spec != NULL ? spec->consumer : NULL);
	if (c == 0 || c > cc->consumers->len)
		return NULL;
	return ((const BsConsumerConf *)cc->consumers->pdata[c - 1])->path;
}
