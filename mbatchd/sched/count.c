/*
 * Pair counters live in hash tables keyed by the two indexes packed into
 * 64 bits: a dense queue x host or user x host matrix would cost tens of
 * megabytes on a large cluster for mostly zeros.  The array table uses the
 * same 64-bit keys, holding an array's job id.
 *
 * The counting rules under preemption follow lsf-reference 4.1 ("Slot
 * counting under preemption"): queue limits always count suspended jobs;
 * MXJ and a user's own MAX_JOBS never do; the group and per-host/per-CPU
 * user limits stop counting them only with their PREEMPT_FOR keyword.
 */
#include "config.h"

#include <string.h>

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
	for (guint i = 0; i < u->n_groups; i++) {
		c->group[u->groups[i]] += slots;
		table_add(c->group_host, pair_key(u->groups[i], host), slots);
	}
	table_add(c->queue_user, pair_key(queue, user), slots);
	table_add(c->queue_host, pair_key(queue, host), slots);
	table_add(c->user_host, pair_key(user, host), slots);
}

void
sched_count_suspend(SchedCount *c, const SchedSnapshot *snap, guint user,
    guint host, int slots)
{
	const SchedUser *u = &snap->users[user];

	c->susp_host[host] += slots;
	c->susp_user[user] += slots;
	for (guint i = 0; i < u->n_groups; i++) {
		c->susp_group[u->groups[i]] += slots;
		table_add(c->susp_group_host, pair_key(u->groups[i], host), slots);
	}
	table_add(c->susp_user_host, pair_key(user, host), slots);
}

/* Total, less the suspended part when this limit ignores suspended jobs. */
static int
net(int total, int susp, gboolean run_only)
{
	return run_only ? total - susp : total;
}

int
sched_count_host(const SchedCount *c, guint host)
{
	return net(c->host[host], c->susp_host[host], c->run_only.host);
}

int
sched_count_user(const SchedCount *c, guint user)
{
	return net(c->user[user], c->susp_user[user], c->run_only.user);
}

int
sched_count_group(const SchedCount *c, guint group)
{
	return net(c->group[group], c->susp_group[group], c->run_only.group);
}

int
sched_count_user_host_jlu(const SchedCount *c, guint user, guint host)
{
	guint64 k = pair_key(user, host);

	return net(table_get(c->user_host, k), table_get(c->susp_user_host, k),
	    c->run_only.user_host);
}

int
sched_count_user_host_cpu(const SchedCount *c, guint user, guint host)
{
	guint64 k = pair_key(user, host);

	return net(table_get(c->user_host, k), table_get(c->susp_user_host, k),
	    c->run_only.user_cpu);
}

int
sched_count_group_host(const SchedCount *c, guint group, guint host)
{
	guint64 k = pair_key(group, host);

	return net(table_get(c->group_host, k), table_get(c->susp_group_host, k),
	    c->run_only.group_cpu);
}

gboolean
sched_preemption_configured(const SchedSnapshot *snap)
{
	for (guint q = 0; q < snap->n_queues; q++)
		if (snap->queues[q].preemptive || snap->queues[q].preemptable)
			return TRUE;
	return FALSE;
}

static void
set_run_only(SchedCount *c, const SchedSnapshot *snap)
{
	guint pf = snap->preempt_for;

	memset(&c->run_only, 0, sizeof c->run_only);
	if (!sched_preemption_configured(snap))
		return;
	c->run_only.host = TRUE;
	c->run_only.user = TRUE;
	c->run_only.group = (pf & SCHED_PREEMPT_FOR_GROUP_MAX) != 0;
	c->run_only.group_cpu = (pf & SCHED_PREEMPT_FOR_GROUP_JLP) != 0;
	c->run_only.user_host = (pf & SCHED_PREEMPT_FOR_HOST_JLU) != 0;
	c->run_only.user_cpu = (pf & SCHED_PREEMPT_FOR_USER_JLP) != 0;
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
	c->group_host = pair_table();
	c->array = pair_table();
	c->susp_host = g_new0(int, snap->n_hosts);
	c->susp_user = g_new0(int, snap->n_users);
	c->susp_group = g_new0(int, snap->n_groups);
	c->susp_user_host = pair_table();
	c->susp_group_host = pair_table();
	set_run_only(c, snap);

	/* Started jobs hold their slots whether running or suspended: without
	 * preemption every limit counts suspended jobs, as LSF's do. */
	for (guint i = 0; i < snap->n_running; i++) {
		const SchedRunning *r = &snap->running[i];

		for (guint a = 0; a < r->n_allocs; a++) {
			sched_count_add(c, snap, r->queue, r->user,
			    r->allocs[a].host, r->allocs[a].slots);
			if (r->state != SCHED_RUN_RUN)
				sched_count_suspend(c, snap, r->user,
				    r->allocs[a].host, r->allocs[a].slots);
		}
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
	g_hash_table_destroy(c->group_host);
	g_hash_table_destroy(c->array);
	g_free(c->susp_host);
	g_free(c->susp_user);
	g_free(c->susp_group);
	g_hash_table_destroy(c->susp_user_host);
	g_hash_table_destroy(c->susp_group_host);
}
