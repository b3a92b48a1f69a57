/*
 * The dependency index: which jobs a `bsub -w` reference names, found
 * without walking every job.  A pass evaluates the condition of every
 * pending job that has one; with a scan per reference that was
 * O(pending x jobs) per pass, with the index it is O(jobs referenced).
 *
 * Two maps, kept by state_apply (apply.c) as jobs come, are renamed and
 * are cleaned:
 *   by id:   job id -> set of Job* (an array's elements share its id);
 *   by name: user -> (base name -> set of Job*), where an element answers
 *            to its array's name ("name" for "name[3]"), as in LSF.
 * Sets, not lists: cleaning one element of a 10,000-element array must
 * not cost a walk of its siblings.  A name reference ending in '*' walks
 * the names of that one user only.
 */
#include "config.h"

#include <string.h>

#include "job/depend.h"
#include "state.h"

static GHashTable *
new_set(void)
{
	return g_hash_table_new(g_direct_hash, g_direct_equal);
}

/* The name a job answers to in a name reference: an element's name
 * without its "[index]". */
static char *
base_name(const Job *j)
{
	const char *br = j->index > 0 ? strrchr(j->name, '[') : NULL;

	return br != NULL ? g_strndup(j->name, (gsize)(br - j->name)) :
	    g_strdup(j->name);
}

void
state_dep_index_init(State *st)
{
	st->dep_by_id = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
	    (GDestroyNotify)g_hash_table_destroy);
	/* Users are interned: their pointers are the keys. */
	st->dep_by_name = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, (GDestroyNotify)g_hash_table_destroy);
}

void
state_dep_index_free(State *st)
{
	g_clear_pointer(&st->dep_by_id, g_hash_table_destroy);
	g_clear_pointer(&st->dep_by_name, g_hash_table_destroy);
}

void
state_dep_index_add(State *st, Job *j)
{
	GHashTable *set = g_hash_table_lookup(st->dep_by_id, &j->id);
	GHashTable *names;
	char *base;

	if (set == NULL) {
		set = new_set();
		g_hash_table_insert(st->dep_by_id, g_memdup2(&j->id, sizeof j->id),
		    set);
	}
	g_hash_table_add(set, j);
	names = g_hash_table_lookup(st->dep_by_name, j->user);
	if (names == NULL) {
		names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		    (GDestroyNotify)g_hash_table_destroy);
		g_hash_table_insert(st->dep_by_name, (gpointer)j->user, names);
	}
	base = base_name(j);
	set = g_hash_table_lookup(names, base);
	if (set == NULL) {
		set = new_set();
		g_hash_table_insert(names, base, set);
	} else {
		g_free(base);
	}
	g_hash_table_add(set, j);
}

void
state_dep_index_remove(State *st, Job *j)
{
	GHashTable *set = g_hash_table_lookup(st->dep_by_id, &j->id);
	GHashTable *names = g_hash_table_lookup(st->dep_by_name, j->user);
	g_autofree char *base = base_name(j);

	if (set != NULL && g_hash_table_remove(set, j) && g_hash_table_size(set) == 0)
		g_hash_table_remove(st->dep_by_id, &j->id);
	if (names == NULL)
		return;
	set = g_hash_table_lookup(names, base);
	if (set != NULL && g_hash_table_remove(set, j) && g_hash_table_size(set) == 0)
		g_hash_table_remove(names, base);
	if (g_hash_table_size(names) == 0)
		g_hash_table_remove(st->dep_by_name, j->user);
}

static BsDependJobState
dep_state(const Job *j)
{
	switch (j->state) {
	case JS_PEND: return BS_DEPEND_JOB_PEND;
	case JS_PSUSP: return BS_DEPEND_JOB_HELD;
	case JS_USUSP:
	case JS_SSUSP: return BS_DEPEND_JOB_SUSP;
	case JS_DONE: return BS_DEPEND_JOB_DONE;
	case JS_EXIT: return BS_DEPEND_JOB_EXIT;
	default: return BS_DEPEND_JOB_RUN;
	}
}

static void
append_job(GArray *out, const Job *j)
{
	BsDependJob dj = { 0 };

	dj.state = dep_state(j);
	dj.exit_code = j->exit_status;
	dj.post = job_is_finished(j) ? BS_DEPEND_POST_DONE : BS_DEPEND_POST_NONE;
	g_array_append_val(out, dj);
}

static void
append_set(GArray *out, GHashTable *set)
{
	GHashTableIter it;
	gpointer j;

	if (set == NULL)
		return;
	g_hash_table_iter_init(&it, set);
	while (g_hash_table_iter_next(&it, &j, NULL))
		append_job(out, j);
}

void
state_dep_lookup(const State *st, const char *user, const BsDependRef *ref,
    GArray *out)
{
	GHashTable *names;
	GHashTableIter it;
	gpointer k, set;
	gsize len;

	if (ref->name == NULL) {
		const Job *j;

		if (ref->index != 0) {
			if ((j = state_job(st, ref->job_id, ref->index)) != NULL)
				append_job(out, j);
			return;
		}
		append_set(out, g_hash_table_lookup(st->dep_by_id, &ref->job_id));
		return;
	}
	names = g_hash_table_lookup(st->dep_by_name, user);
	if (names == NULL)
		return;
	len = strlen(ref->name);
	if (len == 0 || ref->name[len - 1] != '*') {
		append_set(out, g_hash_table_lookup(names, ref->name));
		return;
	}
	g_hash_table_iter_init(&it, names);
	while (g_hash_table_iter_next(&it, &k, &set))
		if (bs_depend_name_matches(ref->name, k))
			append_set(out, set);
}
