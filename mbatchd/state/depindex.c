/*
 * The dependency index: which jobs a `bsub -w` reference names, found
 * without walking every job.  A pass evaluates the condition of every
 * pending job that has one; with a scan per reference that was
 * O(pending x jobs) per pass, with the index it is O(jobs referenced).
 *
 * Two maps, kept by state_apply (apply.c) as jobs come, are renamed and
 * are cleaned:
 *   by id:   array id -> the array's elements (a plain job is found in the
 *            job table itself, so it costs nothing here);
 *   by name: user -> (base name -> its jobs), where an element answers to
 *            its array's name ("name" for "name[3]"), as in LSF.
 * "Its jobs" is a bag: one Job* alone, as most names and arrays of one are,
 * or a set once there are more, tagged in the pointer's low bit.  Every
 * job is in the index, so a set per job would be most of a pending job's
 * memory; and sets, not lists, so cleaning one element of a 10,000-element
 * array does not walk its siblings.  A name reference ending in '*' walks
 * the names of that one user only.
 */
#include "config.h"

#include <string.h>

#include "job/depend.h"
#include "state.h"

/* A bag of jobs: a Job* (aligned, low bit clear) or a set | 1.  The maps
 * holding bags free them with bag_free. */
#define BAG_IS_SET(b) ((GPOINTER_TO_SIZE(b) & 1) != 0)
#define BAG_SET(b) ((GHashTable *)(GPOINTER_TO_SIZE(b) & ~(gsize)1))

static void
bag_free(gpointer bag)
{
	if (bag != NULL && BAG_IS_SET(bag))
		g_hash_table_destroy(BAG_SET(bag));
}

/*
 * Add j to the bag under key; key is a copy the map may keep (it is freed
 * by the map's key function when one is there already).
 */
static void
map_add(GHashTable *map, gpointer key, Job *j, GDestroyNotify key_free)
{
	gpointer bag = g_hash_table_lookup(map, key);
	GHashTable *set;

	if (bag != NULL && BAG_IS_SET(bag)) {
		g_hash_table_add(BAG_SET(bag), j);
		if (key_free != NULL)
			key_free(key);
		return;
	}
	if (bag == NULL) {
		g_hash_table_insert(map, key, j);
		return;
	}
	/* A second job: the single one becomes a set (replacing the value
	 * frees the passed key copy, and bag_free leaves a Job* alone). */
	set = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_hash_table_add(set, bag);
	g_hash_table_add(set, j);
	g_hash_table_insert(map, key, GSIZE_TO_POINTER(GPOINTER_TO_SIZE(set) | 1));
}

static void
map_remove(GHashTable *map, gconstpointer key, Job *j)
{
	gpointer bag = g_hash_table_lookup(map, key);

	if (bag == NULL)
		return;
	if (BAG_IS_SET(bag)) {
		if (g_hash_table_remove(BAG_SET(bag), j) &&
		    g_hash_table_size(BAG_SET(bag)) == 0)
			g_hash_table_remove(map, key);
	} else if (bag == j) {
		g_hash_table_remove(map, key);
	}
}

/*
 * The name a job answers to in a name reference, interned: a plain job's
 * own (interned) name, an element's name without its "[index]".  Interned
 * names are the keys of a user's map, so adding and cleaning a job hash
 * no string.  With add FALSE nothing is interned: NULL if the name never
 * was (then no job has it).
 */
static const char *
base_key(State *st, const Job *j, gboolean add)
{
	const char *br = j->index > 0 ? strrchr(j->name, '[') : NULL;
	g_autofree char *base = NULL;

	if (br == NULL)
		return j->name;
	base = g_strndup(j->name, (gsize)(br - j->name));
	return add ? state_intern(st, base) : g_hash_table_lookup(st->interned, base);
}

/*
 * The index is made by the first lookup, from every job there is then,
 * and kept from that on: a restart with a million jobs and none using
 * -w spent a tenth of its time filing them all by name.
 */
void
state_dep_index_init(State *st)
{
	st->dep_by_id = NULL;
	st->dep_by_name = NULL;
}

static void
dep_index_build(State *st)
{
	GHashTableIter it;
	gpointer v;

	st->dep_by_id = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
	    bag_free);
	/* Users are interned: their pointers are the keys. */
	st->dep_by_name = g_hash_table_new_full(g_direct_hash, g_direct_equal,
	    NULL, (GDestroyNotify)g_hash_table_destroy);
	g_hash_table_iter_init(&it, st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		state_dep_index_add(st, v);
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
	GHashTable *names;

	if (st->dep_by_name == NULL)
		return;
	if (j->index > 0)
		map_add(st->dep_by_id, g_memdup2(&j->id, sizeof j->id), j, g_free);
	names = g_hash_table_lookup(st->dep_by_name, j->user);
	if (names == NULL) {
		names = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
		    bag_free);
		g_hash_table_insert(st->dep_by_name, (gpointer)j->user, names);
	}
	map_add(names, (gpointer)base_key(st, j, TRUE), j, NULL);
}

void
state_dep_index_remove(State *st, Job *j)
{
	GHashTable *names;
	const char *base;

	if (st->dep_by_name == NULL)
		return;
	names = g_hash_table_lookup(st->dep_by_name, j->user);
	base = base_key(st, j, FALSE);
	if (j->index > 0)
		map_remove(st->dep_by_id, &j->id, j);
	if (names == NULL || base == NULL)
		return;
	map_remove(names, base, j);
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
append_bag(GArray *out, gpointer bag)
{
	GHashTableIter it;
	gpointer j;

	if (bag == NULL)
		return;
	if (!BAG_IS_SET(bag)) {
		append_job(out, bag);
		return;
	}
	g_hash_table_iter_init(&it, BAG_SET(bag));
	while (g_hash_table_iter_next(&it, &j, NULL))
		append_job(out, j);
}

void
state_dep_lookup(State *st, const char *user, const BsDependRef *ref,
    GArray *out)
{
	GHashTable *names;
	GHashTableIter it;
	gpointer k, bag;
	gsize len;

	if (st->dep_by_name == NULL)
		dep_index_build(st);
	if (ref->name == NULL) {
		const Job *j;

		if (ref->index != 0) {
			if ((j = state_job(st, ref->job_id, ref->index)) != NULL)
				append_job(out, j);
			return;
		}
		/* A plain job is in the job table; an array's elements are
		 * indexed by its id. */
		if ((j = state_job(st, ref->job_id, 0)) != NULL)
			append_job(out, j);
		else
			append_bag(out, g_hash_table_lookup(st->dep_by_id, &ref->job_id));
		return;
	}
	names = g_hash_table_lookup(st->dep_by_name, user);
	if (names == NULL)
		return;
	len = strlen(ref->name);
	if (len == 0 || ref->name[len - 1] != '*') {
		const char *key = g_hash_table_lookup(st->interned, ref->name);

		if (key != NULL)
			append_bag(out, g_hash_table_lookup(names, key));
		return;
	}
	g_hash_table_iter_init(&it, names);
	while (g_hash_table_iter_next(&it, &k, &bag))
		if (bs_depend_name_matches(ref->name, k))
			append_bag(out, bag);
}
