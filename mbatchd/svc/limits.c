/*
 * The query behind blimits: what each lsb.resources Limit holds now, and
 * (-c) the Limit sections as configured.  Usage is counted by the
 * scheduler's own code (sched_limits_usage over a fresh snapshot), so
 * blimits shows exactly what the limit stage enforces.  Read-only: any
 * user may ask, as in LSF.  The request's lists only filter rows; each
 * name costs a group expansion per row, so a list longer than
 * MAX_FILTER_NAMES is refused rather than let one client spin mbatchd.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-snapshot.h"
#include "mbatchd/svc/svc.h"

#define MAX_FILTER_NAMES 256

/* Whether a consumer list covers `name` (groups expanded). */
static gboolean
in_list(const BsConfig *cfg, BsLimitConsKind k, char **list, const char *name)
{
	for (guint i = 0; list != NULL && list[i] != NULL; i++) {
		gsize n = strlen(list[i]);
		g_autofree char *bare = g_strndup(list[i],
		    n > 1 && list[i][n - 1] == '/' ? n - 1 : n);
		g_auto(GStrv) m = k == BS_LIMIT_USERS ?
		    bs_config_user_group_expand(cfg, bare) : k == BS_LIMIT_HOSTS ?
		    bs_config_host_group_expand(cfg, bare) : NULL;

		if (strcmp(bare, name) == 0 ||
		    (m != NULL && g_strv_contains((const char *const *)m, name)))
			return TRUE;
	}
	return FALSE;
}

static gboolean
covers(const BsConfig *cfg, const BsLimitCons *c, BsLimitConsKind k,
    const char *name)
{
	if (!c->set)
		return TRUE;
	if (in_list(cfg, k, c->excluded, name))
		return FALSE;
	return c->all || in_list(cfg, k, c->names, name);
}

/* A row passes a filter when its limit covers one of the names and, in a
 * PER_ row, its member is that name (or a group of it). */
static gboolean
row_passes(const BsConfig *cfg, const BsLimitConf *lc, BsLimitConsKind k,
    const char *member, char **names, size_t n)
{
	if (n == 0)
		return TRUE;
	for (size_t i = 0; i < n; i++) {
		char *one[] = { (char *)member, NULL };

		if (!covers(cfg, &lc->cons[k], k, names[i]))
			continue;
		if (member == NULL || in_list(cfg, k, one, names[i]))
			return TRUE;
	}
	return FALSE;
}

static char *
cons_text(const BsLimitCons *c)
{
	GString *s = g_string_new(NULL);

	if (c->all)
		g_string_append(s, "all");
	for (guint i = 0; c->names != NULL && c->names[i] != NULL; i++)
		g_string_append_printf(s, "%s%s", s->len > 0 ? " " : "", c->names[i]);
	for (guint i = 0; c->excluded != NULL && c->excluded[i] != NULL; i++)
		g_string_append_printf(s, "%s~%s", s->len > 0 ? " " : "", c->excluded[i]);
	return g_string_free(s, FALSE);
}

/* Strings the reply points to, freed after it is packed. */
typedef struct {
	GPtrArray *strs;
	GPtrArray *blocks;
} Keep;

static char *
kstr(Keep *k, char *s)
{
	g_ptr_array_add(k->strs, s);
	return s;
}

static gpointer
kblock(Keep *k, gpointer p)
{
	g_ptr_array_add(k->blocks, p);
	return p;
}

static Basalt__LimitUsage *
usage_row(Keep *k, const BsLimitConf *lc, const SchedLimit *L,
    const SchedLimitUsage *u, const char *member[BS_LIMIT_NCONS])
{
	Basalt__LimitUsage *r = kblock(k, g_new(Basalt__LimitUsage, 1));
	char **cols[BS_LIMIT_NCONS];

	basalt__limit_usage__init(r);
	cols[BS_LIMIT_USERS] = &r->users;
	cols[BS_LIMIT_QUEUES] = &r->queues;
	cols[BS_LIMIT_HOSTS] = &r->hosts;
	cols[BS_LIMIT_PROJECTS] = &r->projects;
	cols[BS_LIMIT_APPS] = &r->apps;
	r->name = (char *)lc->name;
	for (int d = 0; d < BS_LIMIT_NCONS; d++)
		*cols[d] = member[d] != NULL ? (char *)member[d] :
		    lc->cons[d].set ? kstr(k, cons_text(&lc->cons[d])) : (char *)"-";
	r->slots_used = u->slots_used;
	r->slots_max = u->slots_max;
	r->jobs_used = u->jobs_used;
	r->jobs_max = u->jobs_max;
	r->mem_used = u->mem_used;
	r->mem_max = u->mem_max;
	r->mem_pct = lc->mem.percent;
	r->swp_used = u->swp_used;
	r->swp_max = u->swp_max;
	r->swp_pct = lc->swp.percent;
	r->tmp_used = u->tmp_used;
	r->tmp_max = u->tmp_max;
	r->tmp_pct = lc->tmp.percent;
	if (L->n_res > 0) {
		r->n_res_names = r->n_res_used = r->n_res_max = L->n_res;
		r->res_names = (char **)L->res_names;
		r->res_used = u->res_used;
		r->res_max = (double *)L->res_values;
	}
	return r;
}

static void
add_key(Keep *k, GPtrArray *kv, const char *key, char *value)
{
	Basalt__KeyValue *e = kblock(k, g_new(Basalt__KeyValue, 1));

	basalt__key_value__init(e);
	e->key = (char *)key;
	e->value = kstr(k, value);
	g_ptr_array_add(kv, e);
}

static char *
amount(const BsLimitAmount *a)
{
	return g_strdup_printf("%g%s", a->value, a->percent ? "%" : "");
}

/* blimits -c: the section in its KEY = value form. */
static Basalt__LimitConfig *
config_row(Keep *k, const BsLimitConf *lc)
{
	Basalt__LimitConfig *c = kblock(k, g_new(Basalt__LimitConfig, 1));
	GPtrArray *kv = g_ptr_array_new();

	basalt__limit_config__init(c);
	c->name = lc->name;
	add_key(k, kv, "NAME", g_strdup(lc->name));
	for (int d = 0; d < BS_LIMIT_NCONS; d++)
		if (lc->cons[d].set)
			add_key(k, kv, bs_limit_cons_keyword((BsLimitConsKind)d,
			    lc->cons[d].per), cons_text(&lc->cons[d]));
	if (lc->slots >= 0)
		add_key(k, kv, "SLOTS", g_strdup_printf("%d", lc->slots));
	if (lc->slots_per_processor >= 0)
		add_key(k, kv, "SLOTS_PER_PROCESSOR",
		    g_strdup_printf("%g", lc->slots_per_processor));
	if (lc->jobs >= 0)
		add_key(k, kv, "JOBS", g_strdup_printf("%d", lc->jobs));
	if (lc->mem.value >= 0)
		add_key(k, kv, "MEM", amount(&lc->mem));
	if (lc->swp.value >= 0)
		add_key(k, kv, "SWP", amount(&lc->swp));
	if (lc->tmp.value >= 0)
		add_key(k, kv, "TMP", amount(&lc->tmp));
	if (lc->resources != NULL && lc->resources->len > 0) {
		GString *s = g_string_new(NULL);

		for (guint r = 0; r < lc->resources->len; r++) {
			const BsLimitResource *res = lc->resources->pdata[r];

			g_string_append_printf(s, "%s[%s,%g]", s->len > 0 ? " " : "",
			    res->name, res->value);
		}
		add_key(k, kv, "RESOURCE", g_string_free(s, FALSE));
	}
	c->n_keys = kv->len;
	c->keys = (Basalt__KeyValue **)kblock(k, g_ptr_array_free(kv, FALSE));
	return c;
}

static gboolean
named(const Basalt__LimitQuery *req, const char *name)
{
	if (req->n_names == 0)
		return TRUE;
	for (size_t i = 0; i < req->n_names; i++)
		if (strcmp(req->names[i], name) == 0)
			return TRUE;
	return FALSE;
}

void
svc_limits(Basalt__BatchService_Service *svc, const Basalt__LimitQuery *req,
    Basalt__LimitList_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__LimitList reply = BASALT__LIMIT_LIST__INIT;
	Keep k = { g_ptr_array_new_with_free_func(g_free),
		g_ptr_array_new_with_free_func(g_free) };
	GPtrArray *rows = g_ptr_array_new(), *cfgs = g_ptr_array_new();
	const GPtrArray *limits = m->cfg->resources->limits;
	GArray *use;
	Build b;

	if (req->n_users > MAX_FILTER_NAMES || req->n_queues > MAX_FILTER_NAMES ||
	    req->n_hosts > MAX_FILTER_NAMES || req->n_projects > MAX_FILTER_NAMES ||
	    req->n_names > MAX_FILTER_NAMES) {
		reply.error = svc_error(BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST,
		    "blimits: more than %d names in one option", MAX_FILTER_NAMES);
		closure(&reply, call);
		svc_error_free(reply.error);
		g_ptr_array_free(rows, TRUE);
		g_ptr_array_free(cfgs, TRUE);
		g_ptr_array_free(k.strs, TRUE);
		g_ptr_array_free(k.blocks, TRUE);
		return;
	}
	snapshot_build(&b, m, m->cfg);
	use = sched_limits_usage(&b.snap);
	for (guint i = 0; i < use->len; i++) {
		const SchedLimitUsage *u = &g_array_index(use, SchedLimitUsage, i);
		const BsLimitConf *lc = limits->pdata[u->limit];
		const SchedLimit *L = &b.snap.limits[u->limit];
		const char *member[BS_LIMIT_NCONS];

		for (int d = 0; d < BS_LIMIT_NCONS; d++)
			member[d] = u->member[d] != NULL ?
			    kstr(&k, g_strdup(u->member[d])) : NULL;
		if (!named(req, lc->name) ||
		    !row_passes(m->cfg, lc, BS_LIMIT_USERS, member[BS_LIMIT_USERS],
		    req->users, req->n_users) ||
		    !row_passes(m->cfg, lc, BS_LIMIT_QUEUES, member[BS_LIMIT_QUEUES],
		    req->queues, req->n_queues) ||
		    !row_passes(m->cfg, lc, BS_LIMIT_HOSTS, member[BS_LIMIT_HOSTS],
		    req->hosts, req->n_hosts) ||
		    !row_passes(m->cfg, lc, BS_LIMIT_PROJECTS,
		    member[BS_LIMIT_PROJECTS], req->projects, req->n_projects))
			continue;
		g_ptr_array_add(rows, usage_row(&k, lc, L, u, member));
	}
	for (guint i = 0; i < limits->len; i++)
		if (named(req, ((BsLimitConf *)limits->pdata[i])->name))
			g_ptr_array_add(cfgs, config_row(&k, limits->pdata[i]));
	reply.limits = (Basalt__LimitUsage **)rows->pdata;
	reply.n_limits = rows->len;
	reply.configured = (Basalt__LimitConfig **)cfgs->pdata;
	reply.n_configured = cfgs->len;
	closure(&reply, call);
	g_ptr_array_free(rows, TRUE);
	g_ptr_array_free(cfgs, TRUE);
	sched_limits_usage_free(use);
	snapshot_free(&b);
	g_ptr_array_free(k.strs, TRUE);
	g_ptr_array_free(k.blocks, TRUE);
}
