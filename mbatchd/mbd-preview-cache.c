/*
 * bconsumers -at kept cheap (mbd-preview.h).  The query is open to every
 * user, as the configuration it shows is, but each answer is a whole
 * scheduling pass on the live state: asked in a loop it would take the
 * master's time from scheduling and from every other request.
 *
 * What a pass for time T shows is decided by the live state, which moves
 * only from one scheduling cycle to the next as far as bconsumers shows it
 * (its figures are the last cycle's), and by the plans in force at T.  So
 * an answer is kept for the rest of the cycle (m->sched_last_end names
 * it) under the plans in force at its time, one per resource group, and
 * any later ask whose time has the same plans in force gets it back: a
 * lookup.  The answer says the time its pass was run for, which is what
 * bconsumers prints.  The cache holds copies, no pointer into the state
 * or the configuration, and a reconfiguration empties it.
 *
 * A user who is not an administrator may still ask for many distinct
 * plan sets (or ask across cycles): such a user may start at most
 * PREVIEW_USER_PASSES passes in PREVIEW_USER_SECONDS; past that the ask
 * is refused with the seconds to wait.  mbatchd answers one request at a
 * time, so passes never run concurrently.  Administrators are not bound
 * (badmin reconfig -preview is theirs alone).
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "mbatchd/mbd-preview.h"

/* Answers kept per cycle at most: a new one past this empties the cache
 * (the number of plan sets is small; this only bounds a hostile config). */
#define PREVIEW_CACHE_MAX 64

struct MbdPreviewCache {
	gint64 cycle;             /* m->sched_last_end of the answers */
	GHashTable *answers;      /* plan-set key (owned) -> MbdPreviewAnswer */
	GHashTable *passes;       /* user (owned) -> GArray of gint64 monotonic
	                           * seconds of their passes in the period */
};

static void
job_free(gpointer p)
{
	Basalt__PreviewJob *pj = p;

	g_free(pj->user);
	g_free(pj->queue);
	g_free(pj->action);
	g_free(pj->consumer);
	g_free(pj->for_consumer);
	g_free(pj->resource_group);
	g_free(pj->kind);
	g_free(pj);
}

static Basalt__PreviewJob *
job_copy(const Basalt__PreviewJob *in)
{
	Basalt__PreviewJob *pj = g_new(Basalt__PreviewJob, 1);

	*pj = *in;
	pj->user = g_strdup(in->user);
	pj->queue = g_strdup(in->queue);
	pj->action = g_strdup(in->action);
	pj->consumer = g_strdup(in->consumer);
	pj->for_consumer = g_strdup(in->for_consumer);
	pj->resource_group = g_strdup(in->resource_group);
	pj->kind = g_strdup(in->kind);
	return pj;
}

static void
answer_free(gpointer p)
{
	MbdPreviewAnswer *a = p;

	consumers_figures_free(a->figs);
	g_ptr_array_free(a->jobs, TRUE);
	g_free(a);
}

static struct MbdPreviewCache *
cache_of(Manager *m)
{
	if (m->preview_cache == NULL) {
		m->preview_cache = g_new0(struct MbdPreviewCache, 1);
		m->preview_cache->answers = g_hash_table_new_full(g_str_hash,
		    g_str_equal, g_free, answer_free);
		m->preview_cache->passes = g_hash_table_new_full(g_str_hash,
		    g_str_equal, g_free, (GDestroyNotify)g_array_unref);
	}
	return m->preview_cache;
}

void
preview_cache_clear(Manager *m)
{
	if (m->preview_cache != NULL)
		g_hash_table_remove_all(m->preview_cache->answers);
}

void
preview_cache_free(Manager *m)
{
	if (m->preview_cache == NULL)
		return;
	g_hash_table_destroy(m->preview_cache->answers);
	g_hash_table_destroy(m->preview_cache->passes);
	g_clear_pointer(&m->preview_cache, g_free);
}

/* The plans in force at `at`, one per resource group, as a key: their
 * addresses, which name them while the configuration lives (a
 * reconfiguration empties the cache). */
static char *
plans_key(const BsConfig *cfg, gint64 at)
{
	const BsConsumersConf *cc = cfg->consumers;
	g_autoptr(GDateTime) t = g_date_time_new_from_unix_local(at);
	GString *k = g_string_new(NULL);

	for (guint g = 0; cc != NULL && t != NULL && g < cc->groups->len; g++)
		g_string_append_printf(k, "%p;",
		    (const void *)bs_config_plan_in_force(cfg, (int)g, t));
	return g_string_free(k, FALSE);
}

/* Whether `user` may start a pass now; counts it if so. */
static gboolean
charge(struct MbdPreviewCache *c, const char *user, gint64 *retry_in)
{
	gint64 now = g_get_monotonic_time() / G_USEC_PER_SEC;
	GHashTableIter it;
	gpointer k, v;
	GArray *t;

	/* Forget the passes out of the period, and users with none left,
	 * so the table holds only those who asked within it. */
	g_hash_table_iter_init(&it, c->passes);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		GArray *a = v;

		while (a->len > 0 &&
		    g_array_index(a, gint64, 0) + PREVIEW_USER_SECONDS <= now)
			g_array_remove_index(a, 0);
		if (a->len == 0)
			g_hash_table_iter_remove(&it);
	}
	t = g_hash_table_lookup(c->passes, user);
	if (t != NULL && t->len >= PREVIEW_USER_PASSES) {
		*retry_in = g_array_index(t, gint64, 0) + PREVIEW_USER_SECONDS - now;
		return FALSE;
	}
	if (t == NULL) {
		t = g_array_new(FALSE, FALSE, sizeof(gint64));
		g_hash_table_insert(c->passes, g_strdup(user), t);
	}
	g_array_append_val(t, now);
	return TRUE;
}

const MbdPreviewAnswer *
preview_answer(Manager *m, const char *user, gboolean admin, gint64 at,
    gint64 *retry_in)
{
	struct MbdPreviewCache *c = cache_of(m);
	char *key = plans_key(m->cfg, at);
	MbdPreviewAnswer *a;
	MbdPreview *p;
	GPtrArray *jobs;

	if (c->cycle != m->sched_last_end) {
		g_hash_table_remove_all(c->answers);
		c->cycle = m->sched_last_end;
	}
	a = g_hash_table_lookup(c->answers, key);
	if (a != NULL) {
		g_free(key);
		return a;
	}
	if (!admin && !charge(c, user, retry_in)) {
		g_free(key);
		return NULL;
	}
	if (g_hash_table_size(c->answers) >= PREVIEW_CACHE_MAX)
		g_hash_table_remove_all(c->answers);
	p = preview_run(m, NULL, at);
	jobs = g_ptr_array_new();
	preview_jobs(p, jobs);
	a = g_new0(MbdPreviewAnswer, 1);
	a->at = p->at;
	a->figs = g_steal_pointer(&p->figs);
	a->jobs = g_ptr_array_new_full(jobs->len, job_free);
	for (guint i = 0; i < jobs->len; i++) {
		g_ptr_array_add(a->jobs, job_copy(jobs->pdata[i]));
		g_free(jobs->pdata[i]);
	}
	g_ptr_array_free(jobs, TRUE);
	preview_free(p);
	g_hash_table_insert(c->answers, key, a);
	return a;
}
