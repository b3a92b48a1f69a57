/*
 * What suspending or killing victims gives a job held by MAX_JOBS of its
 * user or group (rule 1 of preempt.c), kept as sums so that a try need
 * not walk all of the user's running jobs, and all of the group's, each
 * time a job of that user is held.
 *
 * room_reachable (preempt.c) relieves the counters the job-level room
 * reads by every victim the job could take: first the user's own jobs,
 * then those of its groups' other members.  Only totals reach those
 * counters: the slots of victims that would be killed (TERMINATE_WHEN)
 * and of those that would be suspended.  For a job whose victims depend
 * on its queue alone (no -m, no -R that can rule out a host, no resource
 * plans, no lsb.resources limits, at most one user group) the totals are
 * kept per preempting queue and per user or group: summed at first use,
 * and lowered as victims are taken, which is the only way a job stops
 * being one the queue may take in this pass.
 */
#include "config.h"

#include "preempt-try.h"

struct Relief {
	gboolean known;
	int kill;                 /* slots of TERMINATE_WHEN victims */
	int susp;                 /* slots of victims that would be suspended */
};

static int
slots_of(const SchedRunning *run)
{
	int n = 0;

	for (guint a = 0; a < run->n_allocs; a++)
		n += run->allocs[a].slots;
	return n;
}

/* What on_usable_host (preempt.c) answers for a job of queue a without -m
 * or a host filter: sched_host_usable then reads the host's state alone. */
static gboolean
usable_for(Pass *p, guint a, const SchedRunning *run)
{
	const OpenHosts *oh = open_hosts(p, a);

	for (guint i = 0; i < run->n_allocs; i++) {
		guint h = run->allocs[i].host;

		if (oh->pos[h] != 0 && sched_host_state(p, h) == SCHED_HOST_OK)
			return TRUE;
	}
	return FALSE;
}

static void
add(const SchedSnapshot *s, Relief *rl, const SchedRunning *run, int sign)
{
	if (s->queues[run->queue].terminate_on_preempt)
		rl->kill += sign * slots_of(run);
	else
		rl->susp += sign * slots_of(run);
}

static const Relief *
sum_of(Pass *p, Relief **cache, guint n, guint a, guint i,
    const RunIndex *ix)
{
	Preempt *pre = p->preempt;
	Relief *rl;
	guint len;
	const guint *jobs;

	if (cache[a] == NULL)
		cache[a] = g_new0(Relief, MAX(n, 1u));
	rl = &cache[a][i];
	if (rl->known)
		return rl;
	jobs = run_index_list(ix, i, &len);
	for (guint k = 0; k < len; k++) {
		guint r = jobs[k];

		if (!pre->done[r] && usable_for(p, a, &p->snap->running[r]))
			add(p->snap, rl, &p->snap->running[r], 1);
	}
	rl->known = TRUE;
	return rl;
}

/* The counters relieve_room (preempt.c) changes for user u's job-level
 * room: kill slots leave the totals, suspended ones count as such. */
static void
relieve_user(SchedCount *c, const SchedUser *su, guint u, int kill, int susp)
{
	c->user[u] -= kill;
	c->susp_user[u] += susp;
	for (guint g = 0; g < su->n_groups; g++) {
		c->group[su->groups[g]] -= kill;
		c->susp_group[su->groups[g]] += susp;
	}
}

gboolean
pt_relief_reachable(Try *t, gboolean *ok)
{
	Pass *p = t->p;
	Preempt *pre = t->pre;
	const SchedSnapshot *s = p->snap;
	const SchedJob *j = t->job;
	const SchedUser *su = &s->users[j->user];
	const Relief *ur, *gr;
	int gkill = 0, gsusp = 0;
	guint a = j->queue;

	if (p->limits != NULL || p->hybrid != NULL || j->asked_hosts != NULL ||
	    sched_resreq_constrains(j->resreq) || su->n_groups > 1)
		return FALSE;
	preempt_index_users(pre, a);
	if (pre->ucache == NULL) {
		pre->ucache = g_new0(Relief *, MAX(s->n_queues, 1u));
		pre->gcache = g_new0(Relief *, MAX(s->n_queues, 1u));
	}
	ur = sum_of(p, pre->ucache, s->n_users, a, j->user,
	    pre->by_user[a]);
	relieve_user(&p->count, su, j->user, ur->kill, ur->susp);
	/* The group's other members: the user's own jobs were counted above
	 * (they are in the group's list too); a suspended member's job helps
	 * only when the group limit counts running jobs alone. */
	if (su->n_groups == 1 && pt_job_room(t) < t->need &&
	    s->groups[su->groups[0]].max_jobs >= 0) {
		guint g = su->groups[0];

		gr = sum_of(p, pre->gcache, s->n_groups, a, g,
		    pre->by_group[a]);
		gkill = gr->kill - ur->kill;
		gsusp = p->count.run_only.group ? gr->susp - ur->susp : 0;
		p->count.group[g] -= gkill;
		p->count.susp_group[g] += gsusp;
	}
	*ok = pt_job_room(t) >= t->need;
	if (su->n_groups == 1) {
		p->count.group[su->groups[0]] += gkill;
		p->count.susp_group[su->groups[0]] -= gsusp;
	}
	relieve_user(&p->count, su, j->user, -ur->kill, -ur->susp);
	return TRUE;
}

void
pt_relief_taken(Pass *p, guint r)
{
	Preempt *pre = p->preempt;
	const SchedSnapshot *s = p->snap;
	const SchedRunning *run = &s->running[r];
	const SchedUser *su = &s->users[run->user];

	for (guint a = 0; pre->ucache != NULL && a < s->n_queues; a++) {
		/* A sum counting r walked a list holding it, which built the
		 * queue's open list: an unbuilt one means no sum counts r. */
		if (pre->ucache[a] == NULL || !p->open[a].built ||
		    !preempt_victim_for(pre, a, run) || !usable_for(p, a, run))
			continue;
		if (pre->ucache[a][run->user].known)
			add(s, &pre->ucache[a][run->user], run, -1);
		for (guint g = 0; pre->gcache[a] != NULL && g < su->n_groups; g++)
			if (pre->gcache[a][su->groups[g]].known)
				add(s, &pre->gcache[a][su->groups[g]], run, -1);
	}
}

void
pt_relief_free(Preempt *pre)
{
	for (guint a = 0; pre->ucache != NULL && a < pre->snap->n_queues; a++) {
		g_free(pre->ucache[a]);
		g_free(pre->gcache[a]);
	}
	g_free(pre->ucache);
	g_free(pre->gcache);
}
