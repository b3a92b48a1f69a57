/*
 * Leased hosts, "host@cluster" (mc-leased.h): the consumer's records of
 * the hosts other clusters lend it, rebuilt from the journaled leases
 * whenever those or the links change, and what the scheduler's snapshot
 * takes from them on both sides (the consumer's remote hosts, the
 * provider's slots lent out).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/mc-links.h"
#include "mbatchd/state/state.h"

typedef struct {
	int ncpus;
	char *type, *model;
	double maxmem;
	char **resources;
} Facts;

typedef struct McLeased {
	GPtrArray *hosts;         /* McLeasedHost*, in order */
	GHashTable *by_name;      /* name -> McLeasedHost* (borrowed) */
	GHashTable *facts;        /* name (owned) -> Facts* (owned) */
	GArray *snap;             /* SchedInputLeased, parallel to hosts */
	GHashTable *lent;         /* local host (owned) -> GINT_TO_POINTER(slots) */
} McLeased;

static const char *const no_resources[] = { NULL };

static void
facts_free(gpointer p)
{
	Facts *f = p;

	g_free(f->type);
	g_free(f->model);
	g_strfreev(f->resources);
	g_free(f);
}

static void
leased_free(gpointer p)
{
	McLeasedHost *h = p;

	g_free(h->name);
	g_free(h->host);
	g_free(h->provider);
	g_free(h->policy);
	g_free(h);
}

void
mc_leased_init(Manager *m)
{
	McLeased *t = g_new0(McLeased, 1);

	t->hosts = g_ptr_array_new_with_free_func(leased_free);
	t->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	t->facts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, facts_free);
	t->snap = g_array_new(FALSE, TRUE, sizeof(SchedInputLeased));
	t->lent = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	m->leased = t;
}

void
mc_leased_free(Manager *m)
{
	McLeased *t = m->leased;

	if (t == NULL)
		return;
	g_hash_table_destroy(t->by_name);
	g_ptr_array_unref(t->hosts);
	g_hash_table_destroy(t->facts);
	g_array_free(t->snap, TRUE);
	g_hash_table_destroy(t->lent);
	g_free(t);
	m->leased = NULL;
}

static const char *
local_cluster(Manager *m)
{
	return m->cfg->cluster != NULL ? m->cfg->cluster->name : NULL;
}

static gboolean
linked(Manager *m, const char *cluster)
{
	const McLink *l = mc_link_find(m, cluster);

	return l != NULL && l->status == MC_LINK_OK;
}

static void
add_borrowed(Manager *m, McLeased *t, const Lease *l)
{
	for (guint k = 0; k < l->hosts->len; k++) {
		const LeaseHost *lh = l->hosts->pdata[k];
		g_autofree char *name = g_strconcat(lh->name, "@", l->provider, NULL);
		McLeasedHost *h;
		const Facts *f;

		if (strlen(name) > MC_LEASED_NAME_MAX || g_hash_table_contains(t->by_name, name))
			continue;
		h = g_new0(McLeasedHost, 1);
		h->name = g_steal_pointer(&name);
		h->host = g_strdup(lh->name);
		h->provider = g_strdup(l->provider);
		h->policy = g_strdup(l->policy);
		h->slots = lh->consumer_slots;
		h->exported = lh->slots;
		h->status = l->status;
		h->usable = l->status == LEASE_OK && linked(m, l->provider);
		f = g_hash_table_lookup(t->facts, h->name);
		h->ncpus = f != NULL && f->ncpus > 0 ? f->ncpus : lh->slots;
		h->type = f != NULL ? f->type : NULL;
		h->model = f != NULL ? f->model : NULL;
		h->maxmem = f != NULL ? f->maxmem : 0;
		h->resources = f != NULL && f->resources != NULL ? f->resources :
		    (char **)no_resources;
		g_ptr_array_add(t->hosts, h);
		g_hash_table_insert(t->by_name, h->name, h);
	}
}

/* Provider side: what this cluster lends of each local host now.  While
 * a lease is inactive its idle slots are nobody's to fill: they count
 * as lent too (the provider's running jobs are charged by the scheduler
 * itself, so the host keeps room for them alone). */
static void
add_lent(McLeased *t, const Lease *l)
{
	for (guint k = 0; k < l->hosts->len; k++) {
		const LeaseHost *lh = l->hosts->pdata[k];
		int n = lh->consumer_slots;
		gpointer old = g_hash_table_lookup(t->lent, lh->name);

		if (l->status == LEASE_INACTIVE)
			n = lh->slots;
		g_hash_table_replace(t->lent, g_strdup(lh->name),
		    GINT_TO_POINTER(GPOINTER_TO_INT(old) + n));
	}
}

void
mc_leased_refresh(Manager *m)
{
	McLeased *t = m->leased;
	const GPtrArray *leases = state_leases(m->st);
	const char *local = local_cluster(m);

	if (t == NULL || local == NULL)
		return;
	g_hash_table_remove_all(t->by_name);
	g_ptr_array_set_size(t->hosts, 0);
	g_hash_table_remove_all(t->lent);
	for (guint i = 0; leases != NULL && i < leases->len; i++) {
		const Lease *l = leases->pdata[i];

		if (strcmp(l->consumer, local) == 0 && strcmp(l->provider, local) != 0)
			add_borrowed(m, t, l);
		else if (strcmp(l->provider, local) == 0)
			add_lent(t, l);
	}
	g_array_set_size(t->snap, t->hosts->len);
	for (guint i = 0; i < t->hosts->len; i++) {
		const McLeasedHost *h = t->hosts->pdata[i];
		SchedInputLeased *s = &g_array_index(t->snap, SchedInputLeased, i);

		memset(s, 0, sizeof *s);
		s->name = h->name;
		s->host = h->host;
		s->cluster = h->provider;
		s->slots = h->slots;
		s->usable = h->usable;
		s->ncpus = h->ncpus;
		s->type = h->type;
		s->model = h->model;
		s->maxmem = h->maxmem;
	}
}

const McLeasedHost *
mc_leased_host_find(Manager *m, const char *name)
{
	if (m->leased == NULL || name == NULL)
		return NULL;
	return g_hash_table_lookup(m->leased->by_name, name);
}

guint
mc_leased_host_count(Manager *m)
{
	return m->leased != NULL ? m->leased->hosts->len : 0;
}

const McLeasedHost *
mc_leased_host_nth(Manager *m, guint i)
{
	return m->leased != NULL && i < m->leased->hosts->len ?
	    m->leased->hosts->pdata[i] : NULL;
}

const SchedInputLeased *
mc_leased_snapshot(Manager *m, guint *n)
{
	*n = m->leased != NULL ? m->leased->snap->len : 0;
	return *n > 0 ? (const SchedInputLeased *)(void *)m->leased->snap->data : NULL;
}

int
mc_leased_out(Manager *m, const char *host)
{
	if (m->leased == NULL)
		return 0;
	return GPOINTER_TO_INT(g_hash_table_lookup(m->leased->lent, host));
}

void
mc_leased_set_facts(Manager *m, const char *name, int ncpus, const char *type,
    const char *model, double maxmem, const char *const *resources)
{
	Facts *f;

	if (m->leased == NULL || !mc_host_is_remote_name(name))
		return;
	f = g_new0(Facts, 1);
	f->ncpus = ncpus;
	f->type = type != NULL && *type != '\0' ? g_strdup(type) : NULL;
	f->model = model != NULL && *model != '\0' ? g_strdup(model) : NULL;
	f->maxmem = maxmem > 0 ? maxmem : 0;
	f->resources = g_strdupv((char **)(resources != NULL ? resources : no_resources));
	/* The records borrow the old facts' strings: the caller rebuilds
	 * them (mc_leased_refresh) before anything reads them. */
	g_hash_table_replace(m->leased->facts, g_strdup(name), f);
}

gboolean
mc_host_split(const char *name, char **host, char **cluster)
{
	const char *at = name != NULL ? strchr(name, '@') : NULL;

	*host = *cluster = NULL;
	if (at == NULL || at == name || at[1] == '\0' || strchr(at + 1, '@') != NULL ||
	    strlen(name) > MC_LEASED_NAME_MAX)
		return FALSE;
	*host = g_strndup(name, (gsize)(at - name));
	*cluster = g_strdup(at + 1);
	return TRUE;
}

gboolean
mc_host_is_remote_name(const char *name)
{
	g_autofree char *h = NULL;
	g_autofree char *c = NULL;

	return mc_host_split(name, &h, &c);
}
