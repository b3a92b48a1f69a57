/*
 * Reading a scenario file (basalt-scenario(5)) into a SchedSnapshot, in
 * order: the first pass (scn-parse.c) sorts sections, facts and deferred
 * lines; the configuration is loaded (scn-config.c); mbatchd's builder
 * makes hosts, queues, pools and users from it and the facts
 * (sched-input.h); then jobs (scn-jobs.c) and expectations
 * (scn-expect.c) are read against it.
 */
#include "config.h"

#include <string.h>

#include "resreq/resreq.h"
#include "tools/scenario/scn-internal.h"

G_DEFINE_QUARK(bs-scenario-error-quark, scn_error)

static void
line_free(gpointer data)
{
	ScnLine *l = data;

	g_free(l->text);
	g_free(l);
}

/* The facts for the builder, from the host and queue lines. */
static gboolean
host_facts(const char *name, SchedInputHost *out, void *data)
{
	ScnParse *p = data;

	for (guint i = 0; i < p->hosts->len; i++) {
		const ScnHostLine *h = g_ptr_array_index(p->hosts, i);

		if (strcmp(h->name, name) == 0) {
			*out = h->facts;
			return TRUE;
		}
	}
	return FALSE;
}

static void
queue_facts(const char *name, SchedInputQueue *out, void *data)
{
	ScnParse *p = data;

	out->active = TRUE;
	for (guint i = 0; i < p->queues->len; i++) {
		const ScnQueueLine *q = g_ptr_array_index(p->queues, i);

		if (strcmp(q->name, name) == 0)
			*out = q->facts;
	}
}

/* The host figures -R reads, as mbatchd's add_host_resources sets them:
 * every described host has reported its load. */
static void
host_resources(Scenario *s, ScnParse *p)
{
	for (guint i = 0; i < s->in.hosts->len; i++) {
		SchedHost *h = &g_array_index(s->in.hosts, SchedHost, i);

		h->type = "LINUX";
		h->model = "LINUX";
		for (guint k = 0; k < p->hosts->len; k++) {
			const ScnHostLine *l = g_ptr_array_index(p->hosts, k);

			if (strcmp(l->name, h->name) != 0)
				continue;
			h->load_known = TRUE;
			h->r15m = l->r15m;
			h->ut = l->ut;
			h->mem = l->mem;
			h->swp = l->swp;
			h->tmp = l->tmp;
			h->maxmem = l->maxmem;
		}
	}
}

static gboolean
check_queue_facts(Scenario *s, ScnParse *p, GError **error)
{
	for (guint i = 0; i < p->queues->len; i++) {
		const ScnQueueLine *q = g_ptr_array_index(p->queues, i);
		guint idx;

		if (!sched_input_queue(&s->in, q->name, &idx))
			FAIL(q->line, "queue %s: no such queue in the configuration", q->name);
	}
	return TRUE;
}

/* `reconfig` alone: the reload changed every group's plan, no previous
 * POLICY known.  `reconfig rg1 /A=ownership rg2`: only the groups named
 * changed; a /PATH=POLICY after a group is the POLICY that consumer
 * followed under the group's previous plan (the daemon's comparison,
 * mbatchd/plan-reload.c, written out). */
static gboolean
reconfig_groups(Scenario *s, GError **error)
{
	SchedSnapshot *sn = &s->snap;
	int *cur = NULL;

	s->prev_policies = g_ptr_array_new_with_free_func(g_free);
	for (guint g = 0; g < sn->n_rgroups; g++)
		sn->rgroups[g].plan_changed = s->reconfig_args == NULL ||
		    s->reconfig_args[0] == NULL;
	for (guint i = 0; s->reconfig_args != NULL && s->reconfig_args[i] != NULL; i++) {
		const char *a = s->reconfig_args[i];
		g_auto(GStrv) kv = NULL;
		guint c;
		int pol;

		if (a[0] != '/') {
			guint g;

			for (g = 0; g < sn->n_rgroups; g++)
				if (strcmp(sn->rgroups[g].name, a) == 0)
					break;
			if (g == sn->n_rgroups)
				FAIL(s->reconfig_line, "reconfig: %s: no such resource group", a);
			sn->rgroups[g].plan_changed = TRUE;
			cur = g_new(int, MAX(1u, sn->n_consumers));
			for (c = 0; c < sn->n_consumers; c++)
				cur[c] = -1;
			g_ptr_array_add(s->prev_policies, cur);
			sn->rgroups[g].prev_policy = cur;
			continue;
		}
		kv = g_strsplit(a, "=", 2);
		if (cur == NULL || kv[1] == NULL)
			FAIL(s->reconfig_line, "reconfig: %s: write GROUP, then /PATH=POLICY", a);
		for (c = 0; c < sn->n_consumers; c++)
			if (strcmp(sn->consumers[c].path, kv[0]) == 0)
				break;
		if (c == sn->n_consumers)
			FAIL(s->reconfig_line, "reconfig: %s: no such consumer", kv[0]);
		if (g_ascii_strcasecmp(kv[1], "ownership") == 0)
			pol = SCHED_POLICY_OWNERSHIP;
		else if (g_ascii_strcasecmp(kv[1], "hybrid") == 0)
			pol = SCHED_POLICY_HYBRID;
		else if (g_ascii_strcasecmp(kv[1], "share") == 0)
			pol = SCHED_POLICY_SHARE;
		else
			FAIL(s->reconfig_line, "reconfig: %s: POLICY is ownership, hybrid or share",
			    kv[1]);
		cur[c] = pol;
	}
	return TRUE;
}

static gboolean
load(Scenario *s, ScnParse *p, const char *text, GError **error)
{
	SchedInputFacts facts = { host_facts, queue_facts, p, NULL, NULL, 0 };

	if (!scn_first_pass(s, p, text, error))
		return FALSE;
	s->cfg = scn_config_load(p, g_date_time_to_unix(s->now), error);
	if (s->cfg == NULL)
		return FALSE;
	facts.leased = (const SchedInputLeased *)(void *)p->leased->data;
	facts.n_leased = p->leased->len;
	sched_input_build(&s->in, s->cfg, &facts);
	host_resources(s, p);
	if (!check_queue_facts(s, p, error) || !scn_add_jobs(s, p, error))
		return FALSE;
	for (guint i = 0; i < p->expects->len; i++) {
		const ScnDeferred *d = g_ptr_array_index(p->expects, i);

		if (!scn_expect_line(s, d->argv, d->line, error))
			return FALSE;
	}
	for (guint i = 0; s->nothing_line > 0 && i < s->expect->len; i++) {
		const ScnLine *l = g_ptr_array_index(s->expect, i);

		if (scn_kind_is_decision(l->kind))
			FAIL(s->nothing_line, "expect nothing, but line %d expects a %s",
			    l->line, scn_kind_name(l->kind));
	}
	if (!scn_reclaim_timeline_load(s, p->lease_lines, error))
		return FALSE;
	if (!scn_lease_load(s, p->lease_lines, error))
		return FALSE;
	scn_fix_pointers(s);
	sched_input_finish(&s->in, &s->snap);
	s->snap.running = (SchedRunning *)(void *)s->running->data;
	s->snap.n_running = s->running->len;
	s->snap.pending = (SchedJob *)(void *)s->pending->data;
	s->snap.n_pending = s->pending->len;
	s->snap.now = g_date_time_to_unix(s->now);
	s->snap.prev_pass = s->previous != NULL ? g_date_time_to_unix(s->previous) : 0;
	s->snap.plan_reloaded = s->reconfig;
	if (s->reconfig && !reconfig_groups(s, error))
		return FALSE;
	/* Windows are read in the zone `now` was written in (UTC if none). */
	s->snap.utc_offset = (int)(g_date_time_get_utc_offset(s->now) / G_USEC_PER_SEC);
	return TRUE;
}

Scenario *
scn_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	Scenario *s = g_new0(Scenario, 1);
	ScnParse p = { 0 };
	gsize len;
	gboolean ok;

	s->path = g_strdup(path);
	s->running = g_array_new(FALSE, FALSE, sizeof(SchedRunning));
	s->run_index = g_array_new(FALSE, FALSE, sizeof(guint32));
	s->pending = g_array_new(FALSE, FALSE, sizeof(SchedJob));
	s->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	s->ints = g_array_new(FALSE, FALSE, sizeof(guint));
	s->resreqs = g_ptr_array_new_with_free_func((GDestroyNotify)bs_resreq_free);
	s->strings = g_ptr_array_new_with_free_func(g_free);
	s->expect = g_ptr_array_new_with_free_func(line_free);
	s->now = g_date_time_new_from_iso8601(SCN_DEFAULT_NOW, NULL);
	if (!g_file_get_contents(path, &text, &len, &err)) {
		g_set_error(error, SCN_ERROR, 0, "%s", err->message);
		scn_free(s);
		return NULL;
	}
	if (memchr(text, '\0', len) != NULL) {
		g_set_error(error, SCN_ERROR, 0, "%s: not a text file", path);
		scn_free(s);
		return NULL;
	}
	scn_parse_init(&p, s->path);
	ok = load(s, &p, text, error);
	scn_parse_clear(&p);
	if (!ok) {
		scn_free(s);
		return NULL;
	}
	return s;
}

void
scn_free(Scenario *s)
{
	if (s == NULL)
		return;
	sched_input_free(&s->in);
	if (s->cfg != NULL)
		bs_config_free(s->cfg);
	g_array_free(s->running, TRUE);
	g_array_free(s->run_index, TRUE);
	g_array_free(s->pending, TRUE);
	g_array_free(s->allocs, TRUE);
	g_array_free(s->ints, TRUE);
	g_ptr_array_free(s->resreqs, TRUE);
	g_ptr_array_free(s->strings, TRUE);
	g_ptr_array_free(s->expect, TRUE);
	g_date_time_unref(s->now);
	g_strfreev(s->reconfig_args);
	if (s->prev_policies != NULL)
		g_ptr_array_free(s->prev_policies, TRUE);
	if (s->previous != NULL)
		g_date_time_unref(s->previous);
	scn_leases_free(s->leases);
	scn_reclaim_steps_free(s->reclaim_steps);
	g_free(s->title);
	g_free(s->path);
	g_free(s);
}
