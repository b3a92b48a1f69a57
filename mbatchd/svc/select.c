/*
 * Which jobs a JobQuery names, decided in time linear in the jobs plus the
 * names.  Every list of the query (users, queues, hosts, job ids) becomes a
 * hash set once per request, and user groups are expanded then, once per
 * distinct group: matching a job is a few lookups, whatever the lists'
 * lengths.  (Matching each job against each name, expanding groups per
 * entry, let one query with 900,000 user names stall mbatchd for 87 s.)
 */
#include "config.h"

#include <string.h>

#include "job/jobgroup.h"
#include "mbatchd/svc/svc.h"

struct Selector {
	const Basalt__JobQuery *q;
	const char *def;          /* the caller, when the query names no user */
	gboolean all_users;
	GHashTable *users;        /* names, group members included; NULL: none named */
	GHashTable *queues;       /* NULL: any queue */
	GHashTable *hosts;        /* NULL: any host */
	GHashTable *ids;          /* (id << 32 | index) as guint64*, NULL: by filters */
	guint64 *id_keys;
};

static GHashTable *
string_set(char **list, size_t n)
{
	GHashTable *set;

	if (n == 0)
		return NULL;
	set = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < n; i++)
		if (list[i] != NULL)
			g_hash_table_add(set, list[i]);
	return set;
}

/* Names and the members of named groups; a group is expanded once. */
static void
add_users(Selector *s, Manager *m, const Basalt__JobQuery *q)
{
	g_autoptr(GHashTable) expanded = g_hash_table_new(g_str_hash, g_str_equal);

	s->users = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (size_t i = 0; i < q->n_users && !s->all_users; i++) {
		const char *name = q->users[i];
		g_auto(GStrv) members = NULL;

		if (strcmp(name, "all") == 0) {
			s->all_users = TRUE;
			break;
		}
		g_hash_table_add(s->users, g_strdup(name));
		if (g_hash_table_contains(expanded, name))
			continue;
		g_hash_table_add(expanded, (gpointer)name);
		members = bs_config_user_group_expand(m->cfg, name);
		for (guint k = 0; members != NULL && members[k] != NULL; k++) {
			if (strcmp(members[k], "all") == 0)
				s->all_users = TRUE;
			g_hash_table_add(s->users, g_strdup(members[k]));
		}
	}
}

static guint64
id_key(guint64 id, guint32 index)
{
	return (id << 32) | index;
}

Selector *
svc_selector_new(Manager *m, const Basalt__JobQuery *q, const char *def)
{
	Selector *s = g_new0(Selector, 1);

	s->q = q;
	s->def = def;
	if (q->n_users > 0)
		add_users(s, m, q);
	s->queues = string_set(q->queues, q->n_queues);
	s->hosts = string_set(q->hosts, q->n_hosts);
	if (q->n_job_ids > 0) {
		s->ids = g_hash_table_new(g_int64_hash, g_int64_equal);
		s->id_keys = g_new(guint64, q->n_job_ids);
		for (size_t i = 0; i < q->n_job_ids; i++) {
			guint32 idx = i < q->n_array_indexes ? q->array_indexes[i] : 0;

			s->id_keys[i] = id_key(q->job_ids[i], idx);
			g_hash_table_add(s->ids, &s->id_keys[i]);
		}
	}
	return s;
}

void
svc_selector_free(Selector *s)
{
	if (s == NULL)
		return;
	g_clear_pointer(&s->users, g_hash_table_destroy);
	g_clear_pointer(&s->queues, g_hash_table_destroy);
	g_clear_pointer(&s->hosts, g_hash_table_destroy);
	g_clear_pointer(&s->ids, g_hash_table_destroy);
	g_free(s->id_keys);
	g_free(s);
}

static gboolean
user_matches(const Selector *s, const Job *j)
{
	if (s->users == NULL)
		return s->def == NULL || strcmp(s->def, j->user) == 0;
	return s->all_users || g_hash_table_contains(s->users, j->user);
}

static gboolean
host_matches(const Selector *s, const Job *j)
{
	if (s->hosts == NULL)
		return TRUE;
	for (guint i = 0; j->exec_hosts != NULL && j->exec_hosts[i] != NULL; i++)
		if (g_hash_table_contains(s->hosts, j->exec_hosts[i]))
			return TRUE;
	return FALSE;
}

/*
 * LSF's -J pattern: '*' matches any run of characters, anywhere.  Each
 * piece between stars is found leftmost with memmem, so a match costs
 * time linear in the name and the pattern: names can be whole command
 * lines and patterns come from any user.
 */
static gboolean
glob_matches(const char *p, const char *s)
{
	const char *star = strchr(p, '*'), *last = strrchr(p, '*');
	const char *end = s + strlen(s);
	gsize head, tail;

	if (star == NULL)
		return strcmp(p, s) == 0;
	head = (gsize)(star - p);
	tail = strlen(last + 1);
	if ((gsize)(end - s) < head + tail || strncmp(p, s, head) != 0 ||
	    memcmp(last + 1, end - tail, tail) != 0)
		return FALSE;
	s += head;
	end -= tail;
	for (p = star + 1; p < last;) {
		const char *next = strchr(p, '*');
		gsize n = (gsize)(next - p);
		const char *at;

		if (n > 0) {
			at = memmem(s, (gsize)(end - s), p, n);
			if (at == NULL)
				return FALSE;
			s = at + n;
		}
		p = next + 1;
	}
	return TRUE;
}

gboolean
svc_name_matches(const char *pattern, const char *name)
{
	const char *br;
	g_autofree char *base = NULL;

	if (glob_matches(pattern, name))
		return TRUE;
	/* An element "arr[3]" also answers to its array's name "arr". */
	br = strrchr(name, '[');
	if (br == NULL || br == name || !g_str_has_suffix(name, "]"))
		return FALSE;
	base = g_strndup(name, (gsize)(br - name));
	return glob_matches(pattern, base);
}

static gboolean
str_set(const char *s)
{
	return s != NULL && *s != '\0';
}

/* -P, -G, -app and -g, against what the job was submitted with. */
static gboolean
spec_matches(const Basalt__JobQuery *q, const Job *j)
{
	const Basalt__JobSpec *spec;
	const char *proj;

	if (!str_set(q->project) && !str_set(q->user_group) &&
	    !str_set(q->app_profile) && !str_set(q->job_group))
		return TRUE;
	spec = job_spec(j);
	if (spec == NULL)
		return FALSE;
	/* -g: the group and its subgroups; bkill -g the group alone. */
	if (str_set(q->job_group) && (q->job_group_exact ?
	    g_strcmp0(spec->job_group, q->job_group) != 0 :
	    !bs_jobgroup_within(spec->job_group, q->job_group)))
		return FALSE;
	proj = str_set(spec->project) ? spec->project : "default";
	return (!str_set(q->project) || strcmp(q->project, proj) == 0) &&
	    (!str_set(q->user_group) ||
	    g_strcmp0(q->user_group, spec->user_group) == 0) &&
	    (!str_set(q->app_profile) ||
	    g_strcmp0(q->app_profile, spec->app_profile) == 0);
}

static gboolean
state_matches(const Basalt__JobQuery *q, const Job *j, gboolean by_id)
{
	gboolean any = q->pending || q->running || q->suspended || q->finished;

	if (q->all_states)
		return TRUE;
	if (!any)
		return by_id || !job_is_finished(j);
	return (q->pending && job_is_pending(j)) ||
	    (q->running && (j->state == JS_RUN || j->state == JS_UNKWN)) ||
	    (q->suspended && (j->state == JS_USUSP || j->state == JS_SSUSP ||
	    j->state == JS_PSUSP)) ||
	    (q->finished && job_is_finished(j));
}

static gboolean
id_matches(const Selector *s, const Job *j)
{
	guint64 whole = id_key(j->id, 0), elem = id_key(j->id, j->index);

	return g_hash_table_contains(s->ids, &whole) ||
	    g_hash_table_contains(s->ids, &elem);
}

gboolean
svc_selector_match(const Selector *s, const Job *j)
{
	const Basalt__JobQuery *q = s->q;
	gboolean by_id = s->ids != NULL;

	if (by_id && !id_matches(s, j))
		return FALSE;
	/* Naming a job by id selects it whoever owns it, as in LSF. */
	if (!by_id && !user_matches(s, j))
		return FALSE;
	return state_matches(q, j, by_id) &&
	    (s->queues == NULL || g_hash_table_contains(s->queues, j->queue)) &&
	    host_matches(s, j) &&
	    (q->job_name == NULL || *q->job_name == '\0' ||
	    svc_name_matches(q->job_name, j->name)) &&
	    spec_matches(q, j);
}
