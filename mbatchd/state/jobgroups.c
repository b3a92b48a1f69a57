/*
 * Job groups in mbatchd's state (bgadd, bsub -g): the group records and
 * the one event that changes them.  A group is a path; its jobs are the
 * jobs whose JobSpec.job_group names it, so nothing here lists jobs and
 * a finished job that outlives its group keeps its path for bhist.
 *
 * A group made by bsub -g or bmod -g is created by apply.c along with the
 * job (implicit), so replay rebuilds it from the job's own event; bgadd,
 * bgmod and bgdel are EvJobGroup events.  Like every handler, a rejected
 * event changes nothing.
 */
#include "config.h"

#include <string.h>

#include "job/jobgroup.h"
#include "state.h"
#include "util/error.h"

static void
group_free(gpointer p)
{
	JobGroup *g = p;

	g_free(g->path);
	g_free(g->owner);
	g_free(g);
}

void
state_jobgroups_init(State *st)
{
	st->jobgroups = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    group_free);
	st->jobgroup_unfinished = g_hash_table_new_full(g_str_hash,
	    g_str_equal, g_free, g_free);
}

void
state_jobgroups_free(State *st)
{
	g_clear_pointer(&st->jobgroups, g_hash_table_destroy);
	g_clear_pointer(&st->jobgroup_unfinished, g_hash_table_destroy);
}

void
state_jobgroup_count(State *st, const char *path, int delta)
{
	guint *n;

	if (path == NULL || *path == '\0')
		return;
	/* The count is changed in place: a submission to a busy group
	 * allocates nothing. */
	n = g_hash_table_lookup(st->jobgroup_unfinished, path);
	if (delta < 0) {
		if (n == NULL)
			return;
		if (--*n == 0) {
			g_hash_table_remove(st->jobgroup_unfinished, path);
			st->jobgroups_serial++;
		}
		return;
	}
	if (n == NULL) {
		n = g_new0(guint, 1);
		g_hash_table_insert(st->jobgroup_unfinished, g_strdup(path), n);
		st->jobgroups_serial++;
	}
	++*n;
}

JobGroup *
state_jobgroup(const State *st, const char *path)
{
	return path != NULL ? g_hash_table_lookup(st->jobgroups, path) : NULL;
}

/* The group and its missing ancestors, owned by `owner`.  The path was
 * checked by the service; a journal from elsewhere is checked again. */
static JobGroup *
ensure(State *st, const char *path, const char *owner, gboolean implicit,
    gint64 now)
{
	JobGroup *g = state_jobgroup(st, path);
	g_autofree char *parent = NULL;

	if (g != NULL)
		return g;
	if ((parent = bs_jobgroup_parent(path)) != NULL)
		(void)ensure(st, parent, owner, implicit, now);
	if (parent != NULL)
		state_jobgroup(st, parent)->n_children++;
	st->jobgroups_serial++;
	g = g_new0(JobGroup, 1);
	g->path = g_strdup(path);
	g->owner = g_strdup(owner != NULL ? owner : "");
	g->limit = -1;
	g->implicit = implicit;
	g->create_time = now;
	g_hash_table_insert(st->jobgroups, g->path, g);
	return g;
}

gboolean
state_jobgroup_for_job(State *st, const char *path, const char *owner,
    gint64 now)
{
	g_autofree char *norm = NULL;

	if (path == NULL || *path == '\0')
		return TRUE;
	if (!bs_jobgroup_normalize(path, &norm, NULL) ||
	    strcmp(norm, path) != 0)
		return FALSE;
	(void)ensure(st, norm, owner, TRUE, now);
	return TRUE;
}

/* The group and its subtree; only a group with subgroups costs a pass
 * over every group (bgdel of an empty group, the usual case, does not). */
static gboolean
apply_delete(State *st, JobGroup *g)
{
	g_autofree char *path = g_strdup(g->path);
	g_autofree char *parent = bs_jobgroup_parent(path);
	JobGroup *up = parent != NULL ? state_jobgroup(st, parent) : NULL;
	GHashTableIter it;
	gpointer k;

	if (up != NULL && up->n_children > 0)
		up->n_children--;
	if (g->n_children == 0) {
		g_hash_table_remove(st->jobgroups, path);
		return TRUE;
	}
	g_hash_table_iter_init(&it, st->jobgroups);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (bs_jobgroup_within(k, path))
			g_hash_table_iter_remove(&it);
	return TRUE;
}

/* Adds path and every ancestor to set (strings owned by the set). */
static void
busy_path(GHashTable *set, const char *path)
{
	char *p = g_strdup(path);

	while (p != NULL && !g_hash_table_contains(set, p)) {
		char *up = bs_jobgroup_parent(p);

		g_hash_table_add(set, p);
		p = up;
	}
	g_free(p);
}

GHashTable *
state_jobgroups_busy(const State *st)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal,
	    g_free, NULL);
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, st->jobgroup_unfinished);
	while (g_hash_table_iter_next(&it, &k, NULL))
		busy_path(set, k);
	return set;
}

gboolean
state_apply_jobgroup(State *st, const Basalt__EvJobGroup *e, gint64 now,
    GError **err)
{
	g_autofree char *path = NULL;
	JobGroup *g;

	if (!bs_jobgroup_normalize(e->path, &path, err))
		return FALSE;
	g = state_jobgroup(st, path);
	st->jobgroups_serial++;
	switch (e->action) {
	case BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_ADD:
		if (g != NULL && (!g->implicit || e->implicit)) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "job group %s already exists", path);
			return FALSE;
		}
		g = ensure(st, path, e->user, e->implicit, now);
		/* bgadd of a group bsub made implicitly makes it explicit. */
		g->implicit = e->implicit;
		if (e->set_limit)
			g->limit = e->limit < 0 ? -1 : e->limit;
		return TRUE;
	case BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_MODIFY:
		if (g == NULL) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "no job group %s", path);
			return FALSE;
		}
		if (e->set_limit)
			g->limit = e->limit < 0 ? -1 : e->limit;
		return TRUE;
	case BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_DELETE:
		if (g == NULL) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "no job group %s", path);
			return FALSE;
		}
		return apply_delete(st, g);
	default:
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "unknown job group action %d", (int)e->action);
		return FALSE;
	}
}

/* Parents before children, so replaying the export recreates each group
 * with its own owner and limit. */
static gint
by_depth(gconstpointer a, gconstpointer b)
{
	const JobGroup *x = *(const JobGroup *const *)a;
	const JobGroup *y = *(const JobGroup *const *)b;
	guint dx = bs_jobgroup_depth(x->path), dy = bs_jobgroup_depth(y->path);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->path, y->path);
}

GPtrArray *
state_jobgroups_sorted(const State *st)
{
	GPtrArray *out = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, st->jobgroups);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(out, v);
	g_ptr_array_sort(out, by_depth);
	return out;
}
