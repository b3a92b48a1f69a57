/*
 * badmin: reconfiguration and the open/close/activate controls of queues
 * and hosts.  Only cluster administrators (lsf.cluster ClusterAdmins, and
 * root) may run these.  A reconfiguration is all or nothing: an invalid
 * set of files is reported line by line and the running configuration
 * stays as it was.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "mbatchd/mbd-preview.h"
#include "mbatchd/mbd-orders.h"
#include "mbatchd/svc/svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code
#define AA(x) BASALT__ADMIN_ACTION__ADMIN_ACTION_##x

typedef struct {
	GPtrArray *messages;
	GPtrArray *config_errors;
} Out;

static void
say(Out *o, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
say(Out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(o->messages, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

static void
add_diags(Out *o, const BsDiags *d)
{
	for (guint i = 0; i < d->items->len; i++)
		g_ptr_array_add(o->config_errors,
		    bs_diag_format(g_ptr_array_index(d->items, i)));
}

static Basalt__Error *
reconfig(Manager *m, const Caller *c, Out *o)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvReconfig e = BASALT__EV_RECONFIG__INIT;

	if (!manager_reconfig(m, d)) {
		add_diags(o, d);
		return svc_error(E(CONFIG), "The configuration has %u error(s); "
		    "the running configuration is unchanged", d->n_errors);
	}
	e.user = (char *)c->user;
	e.queues = m->cfg->queues->len;
	ev.body_case = BASALT__EVENT__BODY_RECONFIG;
	ev.reconfig = &e;
	manager_commit(m, &ev, NULL);
	add_diags(o, d);
	say(o, "Reconfiguration initiated");
	return NULL;
}

/* What a reconfig -preview reply points into, freed after it is sent. */
typedef struct {
	MbdPreview *next, *now;
	GPtrArray *rows, *groups, *jobs, *strings;
} Preview;

static void
preview_clear(Preview *p)
{
	if (p->rows == NULL)
		return;
	g_ptr_array_free(p->rows, TRUE);
	g_ptr_array_free(p->groups, TRUE);
	g_ptr_array_free(p->jobs, TRUE);
	g_ptr_array_free(p->strings, TRUE);
	preview_free(p->next);
	preview_free(p->now);
}

/*
 * badmin reconfig -preview: the files on disk loaded as a reconfiguration
 * would load them (all or nothing, the same errors), then one scheduling
 * pass on the live state with them and one with the running configuration,
 * both for this moment; nothing applied, nothing journaled.  Reported: each
 * consumer's quota under the new plans against the running ones, and the
 * running jobs the new pass would reclaim or preempt, with their grace
 * deadlines.  Administrators only, as every badmin action that reads the
 * files: mbatchd reads them as root.
 */
static Basalt__Error *
reconfig_preview(Manager *m, Out *o, Preview *p, Basalt__AdminReply *reply)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	BsConfig *cfg = bs_config_load(m->envdir, manager_now(), d);
	Basalt__ConsumerQuery all = BASALT__CONSUMER_QUERY__INIT;
	ConsumerView v;

	add_diags(o, d);
	if (cfg == NULL)
		return svc_error(E(CONFIG), "The configuration has %u error(s); "
		    "nothing to preview", d->n_errors);
	p->rows = g_ptr_array_new_with_free_func(g_free);
	p->groups = g_ptr_array_new_with_free_func(g_free);
	p->jobs = g_ptr_array_new_with_free_func(g_free);
	p->strings = g_ptr_array_new_with_free_func(g_free);
	p->now = preview_run(m, NULL, 0);
	p->next = preview_run(m, cfg, p->now->at);
	v = (ConsumerView){ p->next->cfg, p->next->figs, p->now->figs,
	    p->next->at, p->strings };
	svc_consumers_list(&v, &all, p->rows, p->groups);
	preview_jobs(p->next, p->jobs);
	reply->preview_consumers = (Basalt__ConsumerInfo **)p->rows->pdata;
	reply->n_preview_consumers = p->rows->len;
	reply->preview_groups = (Basalt__ResourceGroupInfo **)p->groups->pdata;
	reply->n_preview_groups = p->groups->len;
	reply->preview_jobs = (Basalt__PreviewJob **)p->jobs->pdata;
	reply->n_preview_jobs = p->jobs->len;
	reply->preview_time = p->next->at;
	say(o, "Preview of the configuration on disk; nothing is applied");
	return NULL;
}

static Basalt__Error *
ckconfig(Manager *m, Out *o)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	BsConfig *cfg = bs_config_load(m->envdir, manager_now(), d);

	add_diags(o, d);
	if (cfg == NULL)
		return svc_error(E(CONFIG), "The configuration has %u error(s)",
		    d->n_errors);
	bs_config_free(cfg);
	say(o, "No errors found.");
	return NULL;
}

static gboolean
everything(const Basalt__AdminRequest *req)
{
	return req->n_names == 0 ||
	    (req->n_names == 1 && strcmp(req->names[0], "all") == 0);
}

static Basalt__Error *
queue_ctrl(Manager *m, const Caller *c, const Basalt__AdminRequest *req, Out *o)
{
	static const struct {
		Basalt__AdminAction action;
		Basalt__QueueCtrl ctrl;
		const char *verb;
	} map[] = {
		{ AA(QOPEN), BASALT__QUEUE_CTRL__QUEUE_CTRL_OPEN, "opened" },
		{ AA(QCLOSE), BASALT__QUEUE_CTRL__QUEUE_CTRL_CLOSE, "closed" },
		{ AA(QACT), BASALT__QUEUE_CTRL__QUEUE_CTRL_ACTIVATE, "activated" },
		{ AA(QINACT), BASALT__QUEUE_CTRL__QUEUE_CTRL_INACTIVATE, "inactivated" },
	};
	GPtrArray *queues = m->cfg->queues;
	Basalt__Error *err = NULL;
	gsize k = 0;

	while (map[k].action != req->action)
		k++;
	g_autoptr(GHashTable) named = g_hash_table_new(g_str_hash, g_str_equal);

	for (size_t i = 0; !everything(req) && i < req->n_names; i++) {
		if (!g_hash_table_add(named, req->names[i]))
			continue;
		if (bs_config_queue(m->cfg, req->names[i]) == NULL) {
			say(o, "%s: No such queue", req->names[i]);
			svc_error_free(err);
			err = svc_error(E(NO_QUEUE), "%s: No such queue", req->names[i]);
		}
	}
	for (guint i = 0; i < queues->len; i++) {
		const BsQueueConf *q = g_ptr_array_index(queues, i);
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvQueueCtrl qc = BASALT__EV_QUEUE_CTRL__INIT;
		gboolean want = everything(req) ||
		    g_hash_table_contains(named, q->name);

		if (!want)
			continue;
		qc.queue = q->name;
		qc.action = map[k].ctrl;
		qc.user = (char *)c->user;
		qc.comment = req->comment;
		ev.body_case = BASALT__EVENT__BODY_QUEUE_CTRL;
		ev.queue_ctrl = &qc;
		if (manager_commit(m, &ev, NULL))
			say(o, "Queue <%s> is %s", q->name, map[k].verb);
	}
	manager_schedule_soon(m);
	return err;
}

/* The hosts the names stand for, groups expanded once each; NULL for
 * every host.  Bad names are reported in o and err. */
static GHashTable *
hosts_named(Manager *m, const Basalt__AdminRequest *req, Out *o,
    Basalt__Error **err)
{
	GHashTable *set;

	if (everything(req))
		return NULL;
	set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (size_t i = 0; i < req->n_names; i++) {
		g_auto(GStrv) members = NULL;

		if (g_hash_table_contains(set, req->names[i]))
			continue;
		g_hash_table_add(set, g_strdup(req->names[i]));
		members = bs_config_host_group_expand(m->cfg, req->names[i]);
		if (members == NULL && bs_config_cluster_host(m->cfg, req->names[i]) == NULL) {
			say(o, "%s: Bad host name, host group name or cluster name",
			    req->names[i]);
			svc_error_free(*err);
			*err = svc_error(E(NO_HOST), "%s: Bad host name", req->names[i]);
		}
		for (guint k = 0; members != NULL && members[k] != NULL; k++)
			g_hash_table_add(set, g_strdup(members[k]));
	}
	return set;
}

static Basalt__Error *
host_ctrl(Manager *m, const Caller *c, const Basalt__AdminRequest *req, Out *o)
{
	GPtrArray *hosts = m->cfg->cluster->hosts;
	gboolean close = req->action == AA(HCLOSE);
	Basalt__Error *err = NULL;
	g_autoptr(GHashTable) named = hosts_named(m, req, o, &err);

	for (guint i = 0; i < hosts->len; i++) {
		const BsClusterHost *h = g_ptr_array_index(hosts, i);
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvHostCtrl hc = BASALT__EV_HOST_CTRL__INIT;

		if (!h->server || (named != NULL && !g_hash_table_contains(named, h->name)))
			continue;
		hc.host = h->name;
		hc.close = close;
		hc.user = (char *)c->user;
		hc.comment = req->comment;
		ev.body_case = BASALT__EVENT__BODY_HOST_CTRL;
		ev.host_ctrl = &hc;
		if (!manager_commit(m, &ev, NULL))
			continue;
		/* hclose -reclaim: its jobs are reclaimed (notice, grace,
		 * requeue) by the scheduler while the host stays closed. */
		if (close && req->reclaim && !orders_host_reclaim(m, h->name, NULL))
			continue;
		say(o, "%s <%s> ...... done", close ? "Close" : "Open", h->name);
	}
	manager_schedule_soon(m);
	return err;
}

/* badmin hrestart / hshutdown: an order to each named host's sbatchd;
 * nothing is journaled (a host's availability follows its link). */
static Basalt__Error *
host_daemon(Manager *m, const Basalt__AdminRequest *req, Out *o)
{
	GPtrArray *hosts = m->cfg->cluster->hosts;
	gboolean restart = req->action == AA(HRESTART);
	const char *verb = restart ? "Restart" : "Shut down";
	Basalt__Error *err = NULL;
	g_autoptr(GHashTable) named = hosts_named(m, req, o, &err);

	for (guint i = 0; i < hosts->len; i++) {
		const BsClusterHost *h = g_ptr_array_index(hosts, i);
		g_autoptr(GError) e = NULL;

		if (!h->server || (named != NULL && !g_hash_table_contains(named, h->name)))
			continue;
		if (orders_host_daemon(m, h->name, restart, &e)) {
			say(o, "%s slave batch daemon on <%s> ...... done", verb, h->name);
		} else {
			say(o, "%s slave batch daemon on <%s> ...... failed: %s", verb,
			    h->name, e->message);
			if (err == NULL)
				err = svc_error(E(NO_HOST), "%s: %s", h->name, e->message);
		}
	}
	return err;
}

static void
showstatus(Manager *m, Out *o)
{
	guint pend = 0, run = 0, susp = 0, fin = 0, ok = 0;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;

		if (job_is_pending(j))
			pend++;
		else if (job_is_finished(j))
			fin++;
		else if (j->state == JS_USUSP || j->state == JS_SSUSP)
			susp++;
		else
			run++;
	}
	g_hash_table_iter_init(&it, m->links);
	while (g_hash_table_iter_next(&it, NULL, &v))
		ok += ((HostLink *)v)->conn != NULL;
	say(o, "Basalt runtime mbatchd information");
	say(o, "  Available local hosts (current/total): %u/%u", ok,
	    m->cfg->cluster->hosts->len);
	say(o, "  Number of jobs: %u (PEND %u, RUN %u, SUSP %u, finished %u)",
	    pend + run + susp + fin, pend, run, susp, fin);
	say(o, "  Number of queues: %u", m->cfg->queues->len);
	say(o, "  Last event sequence number: %" G_GUINT64_FORMAT, m->st->last_seq);
}

void
svc_admin(Basalt__BatchService_Service *svc, const Basalt__AdminRequest *req,
    Basalt__AdminReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__AdminReply reply = BASALT__ADMIN_REPLY__INIT;
	Out o = {
		g_ptr_array_new_with_free_func(g_free),
		g_ptr_array_new_with_free_func(g_free),
	};
	Preview pv = { 0 };
	Caller c;

	svc_caller(m, call, &c);
	if (req->action != AA(SHOWSTATUS) && (!c.known || !c.admin)) {
		reply.error = svc_error(E(PERMISSION),
		    "User permission denied: badmin is for LSF administrators");
	} else if (req->action != AA(SHOWSTATUS) && req->action != AA(CKCONFIG) &&
	    !(req->action == AA(RECONFIG) && req->preview) &&
	    (reply.error = svc_storage_error(m)) != NULL) {
		/* refused: nothing can be recorded */
	} else {
		switch (req->action) {
		case AA(RECONFIG):
			if (req->preview)
				reply.error = reconfig_preview(m, &o, &pv, &reply);
			else
				reply.error = reconfig(m, &c, &o);
			break;
		case AA(CKCONFIG):
			reply.error = ckconfig(m, &o);
			break;
		case AA(MBDRESTART):
			say(&o, "MBD restart initiated");
			manager_restart_soon(m);
			break;
		case AA(QOPEN): case AA(QCLOSE): case AA(QACT): case AA(QINACT):
			reply.error = queue_ctrl(m, &c, req, &o);
			break;
		case AA(HOPEN): case AA(HCLOSE):
			reply.error = host_ctrl(m, &c, req, &o);
			break;
		case AA(SHOWSTATUS):
			showstatus(m, &o);
			break;
		case AA(HRESTART): case AA(HSHUTDOWN):
			reply.error = host_daemon(m, req, &o);
			break;
		default:
			reply.error = svc_error(E(BAD_REQUEST), "Unknown badmin action");
		}
	}
	reply.messages = (char **)o.messages->pdata;
	reply.n_messages = o.messages->len;
	reply.config_errors = (char **)o.config_errors->pdata;
	reply.n_config_errors = o.config_errors->len;
	closure(&reply, call);
	svc_error_free(reply.error);
	g_ptr_array_free(o.messages, TRUE);
	g_ptr_array_free(o.config_errors, TRUE);
	preview_clear(&pv);
}
