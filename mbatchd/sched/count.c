/*
 * Pair counters live in hash tables keyed by the two indexes packed into
 * 64 bits: a dense queue x host or user x host matrix would cost tens of
 * megabytes on a large cluster for mostly zeros.  The array table uses the
 * same 64-bit keys, holding an array's job id.  The tables are open
 * addressing over two flat arrays: a lookup is a multiply and a probe or
 * two, not a call through GHashTable's callbacks, and the table is freed
 * in two calls instead of one per counter.  (A key of all ones, array job
 * id 2^64 - 1 or the pair of two indexes 2^32 - 1, cannot be stored.)
 *
 * The counting rules under preemption follow lsf-reference 4.1 ("Slot
 * counting under preemption"): queue limits always count suspended jobs;
 * MXJ and a user's own MAX_JOBS never do; the group and per-host/per-CPU
 * user limits stop counting them only with their PREEMPT_FOR keyword.
 */
#include "config.h"

#include <string.h>

#include "count.h"

#define EMPTY G_MAXUINT64

static guint
slot_of(const SchedPairs *t, guint64 k)
{
	/* Multiplicative mix, top bits: (a, b) and (b, a) differ. */
	return (guint)((k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32) &
	    t->mask;
}

/* A table for about `expect` keys, kept at most half full. */
static SchedPairs *
pair_table(guint expect)
{
	SchedPairs *t = g_new0(SchedPairs, 1);

	t->mask = 63;
	while (t->mask < G_MAXUINT / 4 && t->mask + 1 < expect * 2)
		t->mask = t->mask * 2 + 1;
	t->keys = g_new(guint64, t->mask + 1);
	t->vals = g_new0(int, t->mask + 1);
	memset(t->keys, 0xff, sizeof(guint64) * (t->mask + 1));
	return t;
}

static void
pair_table_free(SchedPairs *t)
{
	g_free(t->keys);
	g_free(t->vals);
	g_free(t);
}

static int
table_get(const SchedPairs *t, guint64 k)
{
	for (guint i = slot_of(t, k);; i = (i + 1) & t->mask) {
		if (t->keys[i] == k)
			return t->vals[i];
		if (t->keys[i] == EMPTY)
			return 0;
	}
}

static void grow(SchedPairs *t);

static void
table_add(SchedPairs *t, guint64 k, int n)
{
	guint i;

	for (i = slot_of(t, k); t->keys[i] != k; i = (i + 1) & t->mask) {
		if (t->keys[i] != EMPTY)
			continue;
		/* A new key: keep the table at most half full. */
		if ((t->n + 1) * 2 > t->mask + 1) {
			grow(t);
			table_add(t, k, n);
			return;
		}
		t->keys[i] = k;
		t->vals[i] = 0;
		t->n++;
		break;
	}
	t->vals[i] += n;
}

static void
grow(SchedPairs *t)
{
	guint64 *keys = t->keys;
	int *vals = t->vals;
	guint size = t->mask + 1;

	t->mask = size * 2 - 1;
	t->keys = g_new(guint64, size * 2);
	t->vals = g_new0(int, size * 2);
	memset(t->keys, 0xff, sizeof(guint64) * size * 2);
	t->n = 0;
	for (guint i = 0; i < size; i++)
		if (keys[i] != EMPTY)
			table_add(t, keys[i], vals[i]);
	g_free(keys);
	g_free(vals);
}

static guint64
pair_key(guint a, guint b)
{
	return ((guint64)a << 32) | b;
}

int
sched_count_pair(const SchedPairs *t, guint a, guint b)
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
sched_count_user(const SchedCount *c, guint user)
{
	return net(c->user[user], c->susp_user[user], c->run_only.user);
}

int
sched_count_group(const SchedCount *c, guint group)
{
	return net(c->group[group], c->susp_group[group], c->run_only.group);
}

/* A pair counter less its suspended part when run_only: the suspended
 * table is looked up only then (placement asks for every host). */
static int
pair_net(const SchedPairs *total, const SchedPairs *susp, guint64 k,
    gboolean run_only)
{
	int t = table_get(total, k);

	return run_only ? t - table_get(susp, k) : t;
}

int
sched_count_user_host_jlu(const SchedCount *c, guint user, guint host)
{
	return pair_net(c->user_host, c->susp_user_host, pair_key(user, host),
	    c->run_only.user_host);
}

int
sched_count_user_host_cpu(const SchedCount *c, guint user, guint host)
{
	return pair_net(c->user_host, c->susp_user_host, pair_key(user, host),
	    c->run_only.user_cpu);
}

int
sched_count_group_host(const SchedCount *c, guint group, guint host)
{
	return pair_net(c->group_host, c->susp_group_host, pair_key(group, host),
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
	guint allocs = 0;

	c->host = g_new0(int, snap->n_hosts);
	c->queue = g_new0(int, snap->n_queues);
	c->user = g_new0(int, snap->n_users);
	c->group = g_new0(int, snap->n_groups);
	/* Sized for the running jobs, so building the counters does not
	 * grow the tables again and again. */
	for (guint i = 0; i < snap->n_running; i++)
		allocs += snap->running[i].n_allocs;
	c->queue_user = pair_table(MIN(snap->n_running, allocs));
	c->queue_host = pair_table(allocs);
	c->user_host = pair_table(allocs);
	c->group_host = pair_table(snap->n_groups > 0 ? allocs : 0);
	c->array = pair_table(0);
	c->jobgroup = g_new0(int, MAX(snap->n_jobgroups, 1));
	c->susp_host = g_new0(int, snap->n_hosts);
	c->susp_user = g_new0(int, snap->n_users);
	c->susp_group = g_new0(int, snap->n_groups);
	c->susp_user_host = pair_table(0);
	c->susp_group_host = pair_table(0);
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
		sched_count_add_jobgroup(c, snap, r->jobgroup);
	}
}

void
sched_count_clear(SchedCount *c)
{
	g_free(c->host);
	g_free(c->queue);
	g_free(c->user);
	g_free(c->group);
	pair_table_free(c->queue_user);
	pair_table_free(c->queue_host);
	pair_table_free(c->user_host);
	pair_table_free(c->group_host);
	pair_table_free(c->array);
	g_free(c->jobgroup);
	g_free(c->susp_host);
	g_free(c->susp_user);
	g_free(c->susp_group);
	pair_table_free(c->susp_user_host);
	pair_table_free(c->susp_group_host);
}
