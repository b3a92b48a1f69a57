/*
 * A slot-pool queue's demand as its limits bound it: what a queue's
 * limits let it hold, so entitlement they hold back goes
 * to the other queues of the pool (the seed: "the remaining ... job
 * slots are redistributed among other queues belonging to the same
 * pool").  Two kinds:
 *
 * - Per job, in the queue's order: how many more slots the job's user may
 *   still take (UJOB_LIMIT; lsb.users MAX_JOBS of the user and of each
 *   of its groups; JL/P of the user over the queue's hosts), given what
 *   the queue's jobs before it in this count already took.  Each source
 *   is one function of need_sources[]; another limit layer plugs in as
 *   one more entry there and one more test in job_limited().
 * - For the whole queue: QJOB_LIMIT, HJOB_LIMIT and PJOB_LIMIT summed
 *   over the queue's hosts, and the lsb.resources limits that bind the
 *   whole queue (stage-limits.c: QUEUES, PER_QUEUE or cluster-wide).
 *
 * The count is an upper bound (a user's jobs in other queues may take
 * some of the room first), which is what an entitlement needs: a queue
 * is never entitled to less than it could use.
 */
#include "config.h"

#include "pass.h"
#include "pool-need.h"
#include "stage-limits.h"

typedef struct {
	Pass *p;
	guint q;
	GHashTable *user_took;    /* user + 1 -> slots counted so far */
	GHashTable *group_took;   /* group + 1 -> slots counted so far */
	GHashTable *user_cpu;     /* user + 1 -> CpuWalk, JL/P room found so far */
} NeedCount;

static gint64
took(GHashTable *t, guint key)
{
	return GPOINTER_TO_INT(g_hash_table_lookup(t, GUINT_TO_POINTER(key + 1)));
}

static void
add_took(GHashTable *t, guint key, gint64 n)
{
	g_hash_table_insert(t, GUINT_TO_POINTER(key + 1),
	    GINT_TO_POINTER((int)MIN(took(t, key) + n, G_MAXINT)));
}

static gint64
room_of(int limit, gint64 used)
{
	return limit < 0 ? G_MAXINT : MAX((gint64)limit - used, 0);
}

/* UJOB_LIMIT: slots per user in the queue. */
static gint64
need_queue_user(NeedCount *c, const SchedJob *j)
{
	const SchedQueue *sq = &c->p->snap->queues[c->q];

	if (sq->ujob_limit < 0)
		return G_MAXINT;
	return room_of(sq->ujob_limit, sched_count_pair(c->p->count.queue_user,
	    c->q, j->user) + took(c->user_took, j->user));
}

/* lsb.users MAX_JOBS of the user and of its groups. */
static gint64
need_user(NeedCount *c, const SchedJob *j)
{
	const SchedSnapshot *s = c->p->snap;
	const SchedUser *u = &s->users[j->user];
	gint64 room = G_MAXINT;

	if (u->max_jobs >= 0)
		room = room_of(u->max_jobs, sched_count_user(&c->p->count, j->user) +
		    took(c->user_took, j->user));
	for (guint g = 0; g < u->n_groups; g++) {
		int max = s->groups[u->groups[g]].max_jobs;

		if (max >= 0)
			room = MIN(room, room_of(max, sched_count_group(&c->p->count,
			    u->groups[g]) + took(c->group_took, u->groups[g])));
	}
	return room;
}

/* Whether any per-job source can hold job j in queue q: else its slots
 * are counted as asked, without a lookup (a new source adds its test). */
static gboolean
job_limited(const Pass *p, guint q, const SchedJob *j)
{
	const SchedSnapshot *s = p->snap;
	const SchedUser *u = &s->users[j->user];

	if (s->queues[q].ujob_limit >= 0 || u->max_jobs >= 0 || u->jl_p >= 0)
		return TRUE;
	for (guint g = 0; g < u->n_groups; g++)
		if (s->groups[u->groups[g]].max_jobs >= 0)
			return TRUE;
	return FALSE;
}

/* lsb.users JL/P of the user, summed over the queue's hosts.  The walk
 * goes only as far as the user's jobs in this count need, and goes on
 * from there for the next job: summing every host for every job would
 * cost jobs x hosts. */
typedef struct {
	gint64 room;
	guint next;               /* next position in the queue's hosts */
} CpuWalk;

static gint64
need_user_cpu(NeedCount *c, const SchedJob *j)
{
	const SchedSnapshot *s = c->p->snap;
	const SchedUser *u = &s->users[j->user];
	GArray *cand = c->p->queue_hosts[c->q];
	gint64 want = took(c->user_took, j->user) + j->max_slots;
	CpuWalk *w;

	if (u->jl_p < 0)
		return G_MAXINT;
	w = g_hash_table_lookup(c->user_cpu, GUINT_TO_POINTER(j->user + 1));
	if (w == NULL) {
		w = g_new0(CpuWalk, 1);
		g_hash_table_insert(c->user_cpu, GUINT_TO_POINTER(j->user + 1), w);
	}
	for (; w->room < want && w->next < cand->len; w->next++) {
		guint h = g_array_index(cand, guint, w->next);

		w->room += MAX(sched_cpu_cap(u->jl_p, s->hosts[h].ncpus) -
		    sched_count_user_host_cpu(&c->p->count, j->user, h), 0);
	}
	return MAX(w->room - took(c->user_took, j->user), 0);
}

static gint64 (*const need_sources[])(NeedCount *, const SchedJob *) = {
	need_queue_user,
	need_user,
	need_user_cpu,
};

/* QJOB_LIMIT, and the per-host limits over the queue's hosts. */
static gint64
queue_cap(Pass *p, guint q)
{
	const SchedQueue *sq = &p->snap->queues[q];
	GArray *cand = p->queue_hosts[q];
	gint64 cap = sq->qjob_limit >= 0 ? sq->qjob_limit : G_MAXINT, hosts = 0;
	int room = limits_queue_room(p->limits, q);

	/* The limit's room is what is left beside the slots the queue holds. */
	if (room != INT_MAX)
		cap = MIN(cap, p->count.queue[q] + (gint64)room);
	if (sq->hjob_limit < 0 && sq->pjob_limit < 0)
		return cap;
	for (guint i = 0; i < cand->len; i++) {
		const SchedHost *h = &p->snap->hosts[g_array_index(cand, guint, i)];
		gint64 one = G_MAXINT;

		if (sq->hjob_limit >= 0)
			one = MIN(one, sq->hjob_limit);
		if (sq->pjob_limit >= 0)
			one = MIN(one, sched_cpu_cap(sq->pjob_limit, h->ncpus));
		hosts = MIN(hosts + one, G_MAXINT);
	}
	return MIN(cap, hosts);
}

gint64
pool_queue_need(Pass *p, guint q, GArray *jobs)
{
	gint64 need = p->count.queue[q];
	NeedCount c = { p, q, NULL, NULL, NULL };

	c.user_took = g_hash_table_new(NULL, NULL);
	c.group_took = g_hash_table_new(NULL, NULL);
	c.user_cpu = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	for (guint i = 0; jobs != NULL && i < jobs->len; i++) {
		const SchedJob *j = &p->snap->pending[g_array_index(jobs, guint, i)];
		const SchedUser *u = &p->snap->users[j->user];
		gint64 add = j->max_slots;

		if (sched_job_gate(p, j) != SCHED_PEND_NONE)
			continue;
		if (job_limited(p, q, j)) {
			for (guint k = 0; k < G_N_ELEMENTS(need_sources); k++)
				add = MIN(add, need_sources[k](&c, j));
			if (add < j->min_slots)
				continue;
			add_took(c.user_took, j->user, add);
			for (guint g = 0; g < u->n_groups; g++)
				add_took(c.group_took, u->groups[g], add);
		}
		need = MIN(need + add, G_MAXINT);
	}
	g_hash_table_destroy(c.user_took);
	g_hash_table_destroy(c.group_took);
	g_hash_table_destroy(c.user_cpu);
	return MIN(need, queue_cap(p, q));
}
