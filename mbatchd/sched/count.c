/*
 * Pair counters live in hash tables keyed by the two indexes packed into
 * 64 bits: a dense queue x host or user x host matrix would cost tens of
 * megabytes on a large cluster for mostly zeros.  The array table uses the
 * same 64-bit keys, holding an array's job id.
 */
#include "config.h"
#include "count.h"

/* A counter is its own key: the table is a set of these, found by `k`. */
typedef struct {
	guint64 k;
	int n;
} PairCount;

static guint
pair_hash(gconstpointer key)
{
	guint64 k = ((const PairCount *)key)->k;

	/* Fold with a multiplicative mix so (a, b) and (b, a) differ. */
	k *= G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
	return (guint)(k >> 32) ^ (guint)k;
}

static gboolean
pair_equal(gconstpointer a, gconstpointer b)
{
	return ((const PairCount *)a)->k == ((const PairCount *)b)->k;
}

static GHashTable *
pair_table(void)
{
	return g_hash_table_new_full(pair_hash, pair_equal, g_free, NULL);
}

static int
table_get(GHashTable *t, guint64 k)
{
	PairCount probe = { .k = k };
	const PairCount *pc = g_hash_table_lookup(t, &probe);

	return pc != NULL ? pc->n : 0;
}

static void
table_add(GHashTable *t, guint64 k, int n)
{
	PairCount probe = { .k = k };
	PairCount *pc = g_hash_table_lookup(t, &probe);

	if (pc == NULL) {
		pc = g_new(PairCount, 1);
		pc->k = k;
		pc->n = 0;
		g_hash_table_add(t, pc);
	}
	pc->n += n;
}

static guint64
pair_key(guint a, guint b)
{
	return ((guint64)a << 32) | b;
}

int
sched_count_pair(GHashTable *t, guint a, guint b)
{
	return table_get(t, pair_key(a, b));
}

void
sched_count_add(SchedCount *c, const SchedSnapshot *snap, guint queue,
    guint user, guint host, int slots)
{
	const SchedUser *u = &snap->users[user];

	c->host[host] += slots;
	c->queue[queue] += slots;
	c->user[user] += slots;
	for (guint i = 0; i < u->n_groups; i++)
		c->group[u->groups[i]] += slots;
	table_add(c->queue_user, pair_key(queue, user), slots);
	table_add(c->queue_host, pair_key(queue, host), slots);
	table_add(c->user_host, pair_key(user, host), slots);
}

void
sched_count_add_array(SchedCount *c, guint64 array_id)
{
	table_add(c->array, array_id, 1);
}

int
sched_count_array(const SchedCount *c, guint64 array_id)
{
	return table_get(c->array, array_id);
}

void
sched_count_init(SchedCount *c, const SchedSnapshot *snap)
{
	c->host = g_new0(int, snap->n_hosts);
	c->queue = g_new0(int, snap->n_queues);
	c->user = g_new0(int, snap->n_users);
	c->group = g_new0(int, snap->n_groups);
	c->queue_user = pair_table();
	c->queue_host = pair_table();
	c->user_host = pair_table();
	c->array = pair_table();

	/* Started jobs hold their slots whether running or suspended: without
	 * preemption every limit counts suspended jobs, as LSF's do. */
	for (guint i = 0; i < snap->n_running; i++) {
		const SchedRunning *r = &snap->running[i];

		for (guint a = 0; a < r->n_allocs; a++)
			sched_count_add(c, snap, r->queue, r->user,
			    r->allocs[a].host, r->allocs[a].slots);
		if (r->array_id != 0)
			sched_count_add_array(c, r->array_id);
	}
}

void
sched_count_clear(SchedCount *c)
{
	g_free(c->host);
	g_free(c->queue);
	g_free(c->user);
	g_free(c->group);
	g_hash_table_destroy(c->queue_user);
	g_hash_table_destroy(c->queue_host);
	g_hash_table_destroy(c->user_host);
	g_hash_table_destroy(c->array);
}
