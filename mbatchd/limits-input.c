/*
 * lsb.resources Limit sections into the snapshot (SchedLimit, sched.h):
 * each consumer list resolved against the snapshot's users, queues,
 * hosts, projects and application profiles into buckets, so the
 * scheduler compares indexes and never a name.  Groups are expanded here
 * (user groups recursively, host groups with their `~` members), `all`
 * takes every member but the `~` exclusions, and a PER_ group written
 * `name/` becomes one bucket of its own.  Shared by mbatchd and the
 * scenarios, like the rest of sched-input.c.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched-input.h"

/* Members of one consumer kind, by index, and their names. */
typedef struct {
	guint n;
	const char *(*name)(const SchedInput *in, guint i);
} Kind;

static const char *
user_name(const SchedInput *in, guint i)
{
	return g_array_index(in->users, SchedUser, i).name;
}

static const char *
queue_name(const SchedInput *in, guint i)
{
	return g_array_index(in->queues, SchedQueue, i).name;
}

static const char *
host_name(const SchedInput *in, guint i)
{
	return g_array_index(in->hosts, SchedHost, i).name;
}

static const char *
project_name(const SchedInput *in, guint i)
{
	return g_ptr_array_index(in->projects, i);
}

static const char *
app_name(const SchedInput *in, guint i)
{
	return g_ptr_array_index(in->apps, i);
}

/* The members a name stands for: a group's (expanded), or itself. */
static char **
expand(const SchedInput *in, BsLimitConsKind k, const char *name)
{
	char **m = NULL;

	if (k == BS_LIMIT_USERS)
		m = bs_config_user_group_expand(in->cfg, name);
	else if (k == BS_LIMIT_HOSTS)
		m = bs_config_host_group_expand(in->cfg, name);
	if (m == NULL) {
		m = g_new0(char *, 2);
		m[0] = g_strdup(name);
	}
	return m;
}

static void
mark(GHashTable *set, char **names, gpointer v)
{
	for (guint i = 0; names[i] != NULL; i++)
		if (!g_hash_table_contains(set, names[i]))
			g_hash_table_insert(set, g_strdup(names[i]), v);
}

/*
 * Bucket of each member for one consumer list.  name -> bucket for the
 * listed members; `all` gives the rest their own (PER_) or the shared
 * bucket.
 */
static guint *
resolve(SchedInput *in, const BsLimitCons *c, BsLimitConsKind k,
    const Kind *kind, guint *n_buckets, const char ***names)
{
	g_autoptr(GHashTable) listed = g_hash_table_new_full(g_str_hash,
	    g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) excluded = g_hash_table_new_full(g_str_hash,
	    g_str_equal, g_free, NULL);
	guint *bucket = g_new0(guint, MAX(kind->n, 1u));
	guint n_groups = 0;
	GPtrArray *bnames = g_ptr_array_new();

	for (guint i = 0; c->excluded != NULL && c->excluded[i] != NULL; i++) {
		g_auto(GStrv) m = expand(in, k, c->excluded[i]);

		mark(excluded, m, GUINT_TO_POINTER(1));
	}
	/* bucket names: [0] unused, [1..n] members, then `name/` groups. */
	g_ptr_array_add(bnames, (gpointer)"");
	for (guint i = 0; i < kind->n; i++)
		g_ptr_array_add(bnames, (gpointer)kind->name(in, i));
	for (guint i = 0; c->names != NULL && c->names[i] != NULL; i++) {
		const char *w = c->names[i];
		gsize len = strlen(w);
		gboolean whole = c->per && len > 1 && w[len - 1] == '/';
		g_autofree char *bare = g_strndup(w, whole ? len - 1 : len);
		g_auto(GStrv) m = expand(in, k, bare);
		guint b = 0;

		if (whole) {
			b = kind->n + 1 + n_groups++;
			g_ptr_array_add(bnames, g_string_chunk_insert_const(in->names, bare));
		}
		mark(listed, m, GUINT_TO_POINTER(b));
	}
	for (guint i = 0; i < kind->n; i++) {
		const char *nm = kind->name(in, i);
		gpointer v;

		/* Apps[0] is "no profile": no APPS list covers it. */
		if (g_hash_table_contains(excluded, nm) ||
		    (k == BS_LIMIT_APPS && i == 0))
			continue;
		if (g_hash_table_lookup_extended(listed, nm, NULL, &v))
			bucket[i] = GPOINTER_TO_UINT(v) != 0 ? GPOINTER_TO_UINT(v) :
			    c->per ? i + 1 : 1;
		else if (c->all)
			bucket[i] = c->per ? i + 1 : 1;
	}
	*n_buckets = c->per ? kind->n + n_groups : 1;
	*names = (const char **)(void *)bnames->pdata;
	g_ptr_array_add(in->lim_mem, g_ptr_array_free(bnames, FALSE));
	g_ptr_array_add(in->lim_mem, bucket);
	return bucket;
}

/* PER_USER naming users one by one: no group as a whole, no group. */
static gboolean
single_users(const SchedInput *in, const BsLimitCons *c)
{
	for (guint i = 0; c->names != NULL && c->names[i] != NULL; i++) {
		gsize len = strlen(c->names[i]);

		if (c->names[i][len - 1] == '/')
			return FALSE;
		if (bs_config_user_group(in->cfg, c->names[i]) != NULL)
			return FALSE;
	}
	return c->per;
}

static void
add_limit(SchedInput *in, const BsLimitConf *lc)
{
	const Kind kinds[BS_LIMIT_NCONS] = {
		[BS_LIMIT_USERS] = { in->users->len, user_name },
		[BS_LIMIT_QUEUES] = { in->queues->len, queue_name },
		[BS_LIMIT_HOSTS] = { in->hosts->len, host_name },
		[BS_LIMIT_PROJECTS] = { in->projects->len, project_name },
		[BS_LIMIT_APPS] = { in->apps->len, app_name },
	};
	SchedLimit L = { 0 };

	L.name = lc->name;
	for (int k = 0; k < BS_LIMIT_NCONS; k++) {
		const char **names = NULL;

		/* BsLimitConsKind and SchedLimitDim list the kinds alike. */
		if (!lc->cons[k].set)
			continue;
		L.bucket[k] = resolve(in, &lc->cons[k], (BsLimitConsKind)k, &kinds[k],
		    &L.n_buckets[k], &names);
		L.per[k] = lc->cons[k].per;
		L.bucket_names[k] = names;
	}
	L.per_single_user = single_users(in, &lc->cons[BS_LIMIT_USERS]);
	L.slots = lc->slots;
	L.slots_per_proc = lc->slots_per_processor;
	L.jobs = lc->jobs;
	L.mem = lc->mem.value;
	L.mem_pct = lc->mem.percent;
	L.swp = lc->swp.value;
	L.swp_pct = lc->swp.percent;
	L.tmp = lc->tmp.value;
	L.tmp_pct = lc->tmp.percent;
	if (lc->resources != NULL && lc->resources->len > 0) {
		const char **rn = g_new0(const char *, lc->resources->len);
		double *rv = g_new0(double, lc->resources->len);

		for (guint r = 0; r < lc->resources->len; r++) {
			const BsLimitResource *res = lc->resources->pdata[r];

			rn[r] = res->name;
			rv[r] = res->value;
		}
		L.res_names = rn;
		L.res_values = rv;
		L.n_res = lc->resources->len;
		g_ptr_array_add(in->lim_mem, rn);
		g_ptr_array_add(in->lim_mem, rv);
	}
	g_array_append_val(in->limits, L);
}

void
sched_input_limits(SchedInput *in, SchedSnapshot *snap)
{
	const BsResourcesConf *rc = in->cfg->resources;

	for (guint i = 0; rc != NULL && i < rc->limits->len; i++)
		add_limit(in, rc->limits->pdata[i]);
	snap->limits = (SchedLimit *)(void *)in->limits->data;
	snap->n_limits = in->limits->len;
	snap->projects = (const char *const *)in->projects->pdata;
	snap->n_projects = in->projects->len;
	snap->apps = (const char *const *)in->apps->pdata;
	snap->n_apps = in->apps->len;
}

static guint
intern(SchedInput *in, GPtrArray *list, GHashTable *index, const char *name)
{
	gpointer v = g_hash_table_lookup(index, name);

	if (v != NULL)
		return GPOINTER_TO_UINT(v) - 1;
	name = g_string_chunk_insert_const(in->names, name);
	g_ptr_array_add(list, (gpointer)name);
	g_hash_table_insert(index, (gpointer)name, GUINT_TO_POINTER(list->len));
	return list->len - 1;
}

guint
sched_input_project(SchedInput *in, const char *name)
{
	if (name == NULL || name[0] == '\0')
		name = in->cfg->params->default_project != NULL ?
		    in->cfg->params->default_project : "default";
	return intern(in, in->projects, in->project_index, name);
}

guint
sched_input_app(SchedInput *in, const char *name)
{
	return intern(in, in->apps, in->app_index, name != NULL ? name : "");
}

void
sched_input_limits_init(SchedInput *in)
{
	in->limits = g_array_new(FALSE, FALSE, sizeof(SchedLimit));
	in->lim_mem = g_ptr_array_new_with_free_func(g_free);
	in->projects = g_ptr_array_new();
	in->apps = g_ptr_array_new();
	in->project_index = g_hash_table_new(g_str_hash, g_str_equal);
	in->app_index = g_hash_table_new(g_str_hash, g_str_equal);
	/* Index 0: the default project, and no profile. */
	(void)sched_input_project(in, NULL);
	(void)sched_input_app(in, "");
}

void
sched_input_limits_free(SchedInput *in)
{
	g_array_free(in->limits, TRUE);
	g_ptr_array_free(in->lim_mem, TRUE);
	g_ptr_array_free(in->projects, TRUE);
	g_ptr_array_free(in->apps, TRUE);
	g_hash_table_destroy(in->project_index);
	g_hash_table_destroy(in->app_index);
}
