/*
 * Cross-file checks, run once every file is loaded (DESIGN.md
 * "Configuration", lsf-reference.md 1.2, 1.3, 3.2, 4.2, decisions.md).
 *
 * Errors:   an unknown queue in PREEMPTION, FAIRSHARE_QUEUES or
 *           DEFAULT_QUEUE; an unknown application profile in
 *           DEFAULT_APPLICATION (lsb.params); a HOSTS word that is neither a cluster host nor
 *           a host group (`x@cluster` is not checked, as in LSF); a host
 *           group named like a host; a slot-pool queue that is preemptive
 *           or preemptable, or named in another queue's PREEMPTIVE[] or
 *           PREEMPTABLE[] list, without SLOT_SHARE, with other HOSTS than
 *           the pool's first queue, or pushing the pool's shares over 100.
 * Warnings: PREEMPTIVE[] naming a queue of equal or higher priority (and
 *           PREEMPTABLE[] one of equal or lower), which is dropped from the
 *           list (a list left empty clears its keyword: it allows nothing);
 *           SLOT_RESERVE in a pool queue; a pool queue in
 *           FAIRSHARE_QUEUES; pool-wide keys set outside the pool's first
 *           queue; lsb.hosts rows and group members that are not cluster
 *           hosts; a Limit section of lsb.resources naming a queue, host
 *           or host group, or application profile that does not exist.
 * USERS is not checked: a name that is not a user group is taken as an OS
 * user, which LSF does not verify either.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_internal.h"

typedef struct {
	BsConfig *cfg;
	BsConfCtx queues, params, hosts;
} Check;

static int
qline(const BsQueueConf *q, const char *key)
{
	int l = bs_conf_key_line(q->key_lines, key);

	return l > 0 ? l : q->line;
}

static void
check_host_refs(Check *c, BsQueueConf *q)
{
	for (guint i = 0; q->hosts != NULL && i < q->hosts->len; i++) {
		BsHostRef *h = q->hosts->pdata[i];

		if (h->kind != BS_HOSTREF_HOST)
			continue;
		if (bs_config_host_group(c->cfg, h->name) != NULL)
			h->kind = BS_HOSTREF_GROUP;
		else if (bs_config_cluster_host(c->cfg, h->name) == NULL)
			ctx_error(&c->queues, qline(q, "HOSTS"),
			    "queue %s: HOSTS names %s, which is neither a host of cluster %s "
			    "nor a host group", q->name, h->name,
			    c->cfg->cluster->name != NULL ? c->cfg->cluster->name : "?");
	}
}

/*
 * Drop (with a warning) list entries on the wrong side of our priority.
 * A list that loses every entry allows nothing: the keyword is cleared,
 * since a keyword without a list would mean every queue, the opposite of
 * what was written.  A pool queue named in the list is an error
 * (lsb.queues(5)): pool queues are neither preemptive nor preemptable.
 */
static void
check_pref_list(Check *c, BsQueueConf *q, GPtrArray **listp, gboolean *flag,
    gboolean ive)
{
	GPtrArray *list = *listp;
	const char *kw = ive ? "PREEMPTIVE" : "PREEMPTABLE";
	guint dropped = 0;

	for (guint i = 0; list != NULL && i < list->len;) {
		const BsQueueRef *r = list->pdata[i];
		const BsQueueConf *o = bs_config_queue(c->cfg, r->queue);

		if (o == NULL) {
			ctx_error(&c->queues, qline(q, "PREEMPTION"),
			    "queue %s: PREEMPTION names unknown queue %s", q->name, r->queue);
		} else if (o->slot_pool != NULL) {
			ctx_error(&c->queues, qline(q, "PREEMPTION"),
			    "queue %s: %s[%s] names a queue of slot pool %s, which cannot be "
			    "preempted or preempt", q->name, kw, r->queue, o->slot_pool);
		} else if (ive ? o->priority >= q->priority : o->priority <= q->priority) {
			ctx_warning(&c->queues, qline(q, "PREEMPTION"),
			    "queue %s: %s[%s] names a queue of %s priority, ignoring",
			    q->name, kw, r->queue, ive ? "equal or higher" : "equal or lower");
			g_ptr_array_remove_index(list, i);
			dropped++;
			continue;
		}
		i++;
	}
	if (list == NULL || list->len > 0 || dropped == 0)
		return;
	ctx_warning(&c->queues, qline(q, "PREEMPTION"),
	    "queue %s: no queue is left in %s[], so the queue %s no queue",
	    q->name, kw, ive ? "preempts" : "is preempted by");
	g_clear_pointer(listp, g_ptr_array_unref);
	*flag = FALSE;
}

static void
check_fairshare_queues(Check *c, const BsQueueConf *q)
{
	for (guint i = 0; q->fairshare_queues != NULL && q->fairshare_queues[i] != NULL; i++) {
		const char *n = q->fairshare_queues[i];
		const BsQueueConf *o = bs_config_queue(c->cfg, n);

		if (o == NULL)
			ctx_error(&c->queues, qline(q, "FAIRSHARE_QUEUES"),
			    "queue %s: FAIRSHARE_QUEUES names unknown queue %s", q->name, n);
		else if (o->slot_pool != NULL)
			ctx_warning(&c->queues, qline(q, "FAIRSHARE_QUEUES"),
			    "queue %s: FAIRSHARE_QUEUES includes %s of slot pool %s; cross-queue "
			    "fairshare would undo the pool's shares", q->name, n, o->slot_pool);
	}
}

/* One queue of a pool against the pool's first queue. */
static void
check_pool_member(Check *c, const BsQueueConf *q, const BsQueueConf *first,
    char **first_hosts)
{
	g_auto(GStrv) hosts = bs_config_queue_hosts(c->cfg, q);

	if (q->preemption.preemptive || q->preemption.preemptable)
		ctx_error(&c->queues, qline(q, "PREEMPTION"),
		    "queue %s is in slot pool %s and cannot be preemptive or preemptable",
		    q->name, q->slot_pool);
	if (q->slot_share == 0)
		ctx_error(&c->queues, qline(q, "SLOT_POOL"),
		    "queue %s: SLOT_POOL %s needs SLOT_SHARE", q->name, q->slot_pool);
	/* What the scheduler does with it (sched/stage-reserve.c). */
	if (q->slot_reserve_time != BS_CONF_UNLIMITED)
		ctx_warning(&c->queues, qline(q, "SLOT_RESERVE"),
		    "queue %s: SLOT_RESERVE in slot pool %s; reserved slots count "
		    "against the queue's share%s", q->name, q->slot_pool,
		    q->backfill && first->max_slots_in_pool != BS_CONF_UNLIMITED ?
		    ", and with MAX_SLOTS_IN_POOL and BACKFILL its jobs do not backfill "
		    "into slots its own jobs reserved" : "");
	if (q == first)
		return;
	if (!g_strv_equal((const char *const *)hosts, (const char *const *)first_hosts))
		ctx_error(&c->queues, qline(q, "HOSTS"),
		    "queue %s in slot pool %s has different HOSTS from queue %s",
		    q->name, q->slot_pool, first->name);
	if (bs_conf_key_line(q->key_lines, "MAX_SLOTS_IN_POOL") > 0)
		ctx_warning(&c->queues, qline(q, "MAX_SLOTS_IN_POOL"),
		    "queue %s: MAX_SLOTS_IN_POOL is read from the first queue of slot pool %s "
		    "(%s), ignoring", q->name, q->slot_pool, first->name);
	if (bs_conf_key_line(q->key_lines, "USE_PRIORITY_IN_POOL") > 0)
		ctx_warning(&c->queues, qline(q, "USE_PRIORITY_IN_POOL"),
		    "queue %s: USE_PRIORITY_IN_POOL is read from the first queue of slot pool %s "
		    "(%s), ignoring", q->name, q->slot_pool, first->name);
}

static void
check_pool(Check *c, const char *pool)
{
	const BsQueueConf *first = NULL, *over = NULL;
	g_auto(GStrv) first_hosts = NULL;
	int sum = 0;

	for (guint i = 0; i < c->cfg->queues->len; i++) {
		const BsQueueConf *q = c->cfg->queues->pdata[i];

		if (q->slot_pool == NULL || strcmp(q->slot_pool, pool) != 0)
			continue;
		if (first == NULL) {
			first = q;
			first_hosts = bs_config_queue_hosts(c->cfg, q);
		}
		check_pool_member(c, q, first, first_hosts);
		sum += q->slot_share;
		if (sum > 100 && over == NULL)
			over = q;
	}
	if (over != NULL)
		ctx_error(&c->queues, qline(over, "SLOT_SHARE"),
		    "slot pool %s: SLOT_SHARE adds up to %d, over 100", pool, sum);
}

static void
check_pools(Check *c)
{
	g_autoptr(GHashTable) done = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < c->cfg->queues->len; i++) {
		const BsQueueConf *q = c->cfg->queues->pdata[i];

		if (q->slot_pool == NULL) {
			if (q->slot_share != 0)
				ctx_warning(&c->queues, qline(q, "SLOT_SHARE"),
				    "queue %s: SLOT_SHARE without SLOT_POOL, ignoring", q->name);
			continue;
		}
		if (g_hash_table_contains(done, q->slot_pool))
			continue;
		g_hash_table_add(done, q->slot_pool);
		check_pool(c, q->slot_pool);
	}
}

static void
check_queues(Check *c)
{
	for (guint i = 0; i < c->cfg->queues->len; i++) {
		BsQueueConf *q = c->cfg->queues->pdata[i];

		check_host_refs(c, q);
	}
	/* Pools first: an emptied list clears the keyword a pool queue must
	 * not have, and that error must still be seen. */
	check_pools(c);
	for (guint i = 0; i < c->cfg->queues->len; i++) {
		BsQueueConf *q = c->cfg->queues->pdata[i];

		check_pref_list(c, q, &q->preemption.preemptive_queues,
		    &q->preemption.preemptive, TRUE);
		check_pref_list(c, q, &q->preemption.preemptable_queues,
		    &q->preemption.preemptable, FALSE);
		check_fairshare_queues(c, q);
	}
}

static void
check_default_queue(Check *c)
{
	char **dq = c->cfg->params->default_queue;

	for (guint i = 0; dq != NULL && dq[i] != NULL; i++)
		if (bs_config_queue(c->cfg, dq[i]) == NULL)
			ctx_error(&c->params, bs_conf_key_line(c->cfg->params->key_lines,
			    "DEFAULT_QUEUE"), "DEFAULT_QUEUE names unknown queue %s", dq[i]);
}

static void
check_default_app(Check *c)
{
	const char *name = c->cfg->params->default_application;

	if (name != NULL && bs_config_app(c->cfg, name) == NULL)
		ctx_error(&c->params, bs_conf_key_line(c->cfg->params->key_lines,
		    "DEFAULT_APPLICATION"), "DEFAULT_APPLICATION names unknown application "
		    "profile %s", name);
}

/* DEFAULT_JOBGROUP: an absolute path of printable words (lib/job's full
 * rule runs again on the substituted path at each submission). */
static void
check_default_jobgroup(Check *c)
{
	const char *v = c->cfg->params->default_jobgroup;
	gboolean ok;

	if (v == NULL || *v == '\0')
		return;
	ok = v[0] == '/' && v[1] != '\0' && strstr(v, "//") == NULL;
	for (const char *p = v; ok && *p; p++)
		ok = *p > ' ' && *p < 0x7f;
	if (!ok)
		ctx_error(&c->params, bs_conf_key_line(c->cfg->params->key_lines,
		    "DEFAULT_JOBGROUP"), "DEFAULT_JOBGROUP %s is not a job group "
		    "path such as /%%u or /proj/%%p", v);
}

static gboolean
is_model_or_type(const BsClusterConf *cl, const char *name)
{
	for (guint i = 0; i < cl->host_models->len; i++)
		if (strcmp(cl->host_models->pdata[i], name) == 0)
			return TRUE;
	for (guint i = 0; i < cl->host_types->len; i++)
		if (strcmp(cl->host_types->pdata[i], name) == 0)
			return TRUE;
	for (guint i = 0; i < cl->hosts->len; i++) {
		const BsClusterHost *h = cl->hosts->pdata[i];

		if (g_strcmp0(h->model, name) == 0 || g_strcmp0(h->type, name) == 0)
			return TRUE;
	}
	return FALSE;
}

static void
check_group_members(Check *c, const BsHostGroupConf *g)
{
	for (guint i = 0; g->members[i] != NULL; i++) {
		const char *m = g->members[i] + (g->members[i][0] == '~');

		if (strcmp(m, "all") == 0 || strcmp(m, "allremote") == 0 || strcmp(m, "!") == 0 ||
		    bs_config_host_group(c->cfg, m) != NULL ||
		    bs_config_cluster_host(c->cfg, m) != NULL)
			continue;
		if (strchr(m, '@') != NULL)
			ctx_warning(&c->hosts, g->line, "host group %s: borrowed host %s can join "
			    "a group only through allremote, ignoring", g->name, m);
		else
			ctx_warning(&c->hosts, g->line, "host group %s: %s is not a host of "
			    "cluster %s, ignoring", g->name, m, c->cfg->cluster->name);
	}
}

static void
check_hosts(Check *c)
{
	const BsClusterConf *cl = c->cfg->cluster;

	for (guint i = 0; i < c->cfg->hosts->hosts->len; i++) {
		const BsHostConf *h = c->cfg->hosts->hosts->pdata[i];

		if (strcmp(h->name, "default") != 0 && bs_config_cluster_host(c->cfg, h->name) == NULL &&
		    !is_model_or_type(cl, h->name))
			ctx_warning(&c->hosts, h->line, "host %s is not a host of cluster %s, ignoring",
			    h->name, cl->name);
	}
	for (guint i = 0; i < c->cfg->hosts->groups->len; i++) {
		const BsHostGroupConf *g = c->cfg->hosts->groups->pdata[i];

		if (bs_config_cluster_host(c->cfg, g->name) != NULL)
			ctx_error(&c->hosts, g->line, "host group name %s is also a host name", g->name);
		check_group_members(c, g);
	}
}

void
bs_conf_check(BsConfig *cfg, BsDiags *d)
{
	Check c = {
		.cfg = cfg,
		.queues = { d, "lsb.queues", 0 },
		.params = { d, "lsb.params", 0 },
		.hosts = { d, "lsb.hosts", 0 },
	};

	check_hosts(&c);
	check_queues(&c);
	check_default_queue(&c);
	check_default_app(&c);
	check_default_jobgroup(&c);
	{
		BsConfCtx res = { d, "lsb.resources", 0 };

		bs_conf_limits_check(cfg, &res);
		bs_conf_exports_check(cfg, &res);
	}
	bs_conf_consumers_check(cfg, d);
}
