/*
 * sched-cycle-bench: one full scheduling cycle of the real policy code
 * (mbatchd/sched) over a simulated cluster, the figure `sched.cycle`.
 *
 * The cluster is built by a seeded generator, so every run with the same
 * options schedules the same snapshot:
 *
 * - hosts: MXJ 8, 4/8/16 CPUs, a few closed, unavailable or outside their
 *   dispatch window, some with JL/U, loads spread with ties.  Running jobs
 *   fill the first 40 % of the hosts and half of the next 30 %.
 * - queues: priorities in pairs (equal priorities happen); every tenth
 *   queue is PREEMPTIVE (the first bare, on a partition full of lower
 *   jobs, so it must preempt; the others with lists), every tenth
 *   PREEMPTABLE by the preemptive queue above it; three SLOT_POOLs on their own host slices with varied
 *   SLOT_SHAREs (one USE_PRIORITY_IN_POOL, one MAX_SLOTS_IN_POOL); some
 *   queues with HOSTS subsets and +N preferences, QJOB/UJOB/HJOB/PJOB
 *   limits; one queue inactive.
 * - users: 1,000 (fewer at smoke size), skewed so a few submit most; some
 *   with MAX_JOBS or JL/P, in four groups with MAX_JOBS or JL/P.
 * - pending jobs: mostly one slot; some parallel, span[hosts=1], ptile,
 *   min < max, bsub -m, -R (a host filter), held, waiting on a
 *   dependency, -b in the future, array elements with "%N".
 *
 * - with --limits N: N lsb.resources Limit sections (stage-limits.c) of
 *   eight kinds in turn (PER_USER slots; a queue's slots; PER_PROJECT
 *   jobs; a user set PER_HOST; PER_QUEUE slots; an application's slots;
 *   a host slice's slots; PER_USER x PER_HOST slots), over 20 projects
 *   and 5 profiles spread on the jobs.
 *
 * - with --consumers N: an lsb.consumers resource plan (stage-hybrid.c)
 *   of N consumers in three levels (a tenth at the first level, each with
 *   about three children, each of those with the rest as leaves) over one
 *   resource group of every host: owned slots at every level adding up to
 *   the cluster's slots, some reserves, limits and ranks, a fifth of the
 *   first level under the ownership policy; every job outside the slot
 *   pools belongs to a leaf.
 *
 * --subopts puts bsub -x, -sp, -We and -t on some jobs (subopts_switch_on).
 *
 * --reserve switches slot reservation and backfill on (stage-reserve.c):
 * every queue outside the pools gets SLOT_RESERVE = MAX_RESERVE_TIME[5]
 * (MBD_SLEEP_TIME 60) and BACKFILL = Y; 80 % of the running jobs have run
 * limits that end them 10 minutes to 2 hours from now, 60 % of the
 * pending ones run limits of 5 minutes to 2 hours.  One pass is run first and the
 * reservations of its plan are handed to the snapshot, as the daemon does,
 * so the cycles measured carry reservations in (collected a minute ago)
 * as well as make new ones.
 *
 * sched_run() is pure, so each cycle runs on the same snapshot and makes
 * the same decisions; the median, best and worst cycle are reported, and
 * the dispatches made per second of the median cycle.  A digest of the
 * whole plan (dispatches, allocations, preemptions, resumes, the reason
 * and host counts of every job left pending, pool entitlements) is printed
 * so two builds of the policy can be shown to decide identically.
 *
 * stdout: the figure lines of bench/fig (result<TAB>ID<TAB>VALUE<TAB>UNIT);
 * stderr: a human summary.  Not part of `make check`.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mbatchd/sched/sched.h"

typedef struct {
	guint n_pending, n_hosts, n_queues, n_users, runs;
	guint64 seed;
	gboolean no_preemption;   /* the same cluster, PREEMPTION switched off */
	guint preempt_for;        /* SchedPreemptFor bits */
	guint n_limits;           /* --limits: lsb.resources limits, 0 none */
	gboolean reserve;         /* SLOT_RESERVE and BACKFILL switched on */
	gboolean subopts;         /* -x, -sp, -We and -t on some jobs */
	guint n_consumers;        /* --consumers: a resource plan, 0 none */
	gboolean reclaim;         /* --reclaim: MostRecentTask, a reconfig pass */
	const char *suffix;       /* --suffix: of the figure IDs, NULL: by options */
} Opts;

typedef struct {
	SchedSnapshot snap;
	GPtrArray *names;         /* every string the snapshot points to */
	GPtrArray *blocks;        /* every other block to free */
	guint64 rng;
} Bench;

/* splitmix64: small, fast, and the same on every platform. */
static guint64
next(Bench *b)
{
	guint64 z = (b->rng += G_GUINT64_CONSTANT(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static guint
below(Bench *b, guint n)
{
	return n == 0 ? 0 : (guint)(next(b) % n);
}

static gpointer
keep(Bench *b, gpointer block)
{
	g_ptr_array_add(b->blocks, block);
	return block;
}

static const char *
name(Bench *b, const char *prefix, guint i)
{
	char *s = g_strdup_printf("%s%05u", prefix, i);

	g_ptr_array_add(b->names, s);
	return s;
}

/* ---- hosts ------------------------------------------------------------- */

static void
add_hosts(Bench *b, guint n)
{
	SchedHost *h = keep(b, g_new0(SchedHost, n));
	static const int cpus[] = { 4, 8, 16 };

	for (guint i = 0; i < n; i++) {
		h[i].name = name(b, "node", i);
		h[i].max_slots = 8;
		h[i].ncpus = cpus[i % 3];
		h[i].jl_u = i % 20 == 7 ? 2 : SCHED_UNLIMITED;
		h[i].r15s = (double)below(b, 40) / 10.0;
		h[i].r1m = (double)below(b, 40) / 10.0;
		if (i % 97 == 5)
			h[i].state = SCHED_HOST_CLOSED_ADM;
		else if (i % 89 == 3)
			h[i].state = SCHED_HOST_UNAVAIL;
		else if (i % 211 == 11)
			h[i].state = SCHED_HOST_CLOSED_WIND;
	}
	b->snap.hosts = h;
	b->snap.n_hosts = n;
}

/* ---- queues and pools -------------------------------------------------- */

#define N_POOLS 3

/* Hosts [from, to) as a HOSTS list; every `pref_every`th gets "+2". */
static void
queue_range(Bench *b, SchedQueue *q, guint from, guint to, guint pref_every)
{
	SchedQueueHost *qh = keep(b, g_new0(SchedQueueHost, MAX(to - from, 1u)));

	for (guint h = from; h < to; h++) {
		qh[h - from].host = h;
		qh[h - from].pref = pref_every != 0 && h % pref_every == 0 ? 2 : 0;
	}
	q->hosts = qh;
	q->n_hosts = to - from;
}

/* Every third host, shifted by the queue, with a few preferred. */
static void
queue_subset(Bench *b, SchedQueue *q, guint qi)
{
	guint nh = b->snap.n_hosts, n = 0;
	SchedQueueHost *qh = keep(b, g_new0(SchedQueueHost, nh / 3 + 1));

	for (guint h = (qi % 3); h < nh; h += 3) {
		qh[n].host = h;
		qh[n].pref = h % 50 < 3 ? 1 + (int)(h % 2) : 0;
		n++;
	}
	q->hosts = qh;
	q->n_hosts = n;
}

static SchedQueueRef *
refs(Bench *b, guint n)
{
	return keep(b, g_new0(SchedQueueRef, n));
}

static void
add_queues(Bench *b, guint nq)
{
	SchedQueue *q = keep(b, g_new0(SchedQueue, nq));
	SchedPool *pools = keep(b, g_new0(SchedPool, N_POOLS));
	guint nh = b->snap.n_hosts;

	for (guint k = 0; k < N_POOLS; k++)
		pools[k].name = name(b, "pool", k);
	pools[1].use_priority = TRUE;
	pools[2].max_slots = (int)(nh / 10 * 6);
	for (guint i = 0; i < nq; i++) {
		guint kind = i % 10;

		q[i].name = name(b, "queue", i);
		/* Pairs share a priority: equal-priority queues go together. */
		q[i].priority = 10 + (int)((nq - i) / 2) * 3;
		q[i].dispatch_ok = TRUE;
		q[i].qjob_limit = q[i].ujob_limit = q[i].hjob_limit = SCHED_UNLIMITED;
		q[i].pjob_limit = -1;
		switch (kind) {
		case 0:
			q[i].preemptive = TRUE;
			if (i == 0) {
				/* A partition full of lower jobs: it must preempt. */
				queue_range(b, &q[i], 0, MAX(nh / 20, 1u), 0);
			} else if (i + 9 < nq) {
				/* PREEMPTIVE[q(i+9)+2 q(i+19)] */
				guint n = i + 19 < nq ? 2 : 1;

				q[i].preemptive_queues = refs(b, n);
				q[i].n_preemptive_queues = n;
				q[i].preemptive_queues[0].queue = i + 9;
				q[i].preemptive_queues[0].pref = 2;
				q[i].preemptive_queues[0].has_pref = TRUE;
				if (n > 1)
					q[i].preemptive_queues[1].queue = i + 19;
			}
			break;
		case 1:
			q[i].qjob_limit = (int)MAX(nh / 5, 4u);
			break;
		case 2:
			q[i].ujob_limit = 20;
			break;
		case 3: case 4: case 5: {
			guint k = kind - 3;
			guint from = nh / 2 + k * nh / 10;

			if (k == 2)
				from = nh * 8 / 10;
			q[i].in_pool = TRUE;
			q[i].pool = k;
			q[i].slot_share = 10 + (int)((i * 7) % 30);
			q[i].pool_usage = (double)((i * 31) % 17);
			queue_range(b, &q[i], from, MAX(from + nh / 10, from + 1),
			    0);
			break;
		}
		case 6:
			q[i].pjob_limit = 1.0;
			queue_subset(b, &q[i], i);
			break;
		case 7:
			queue_subset(b, &q[i], i);
			break;
		case 8:
			q[i].hjob_limit = 2;
			break;
		case 9:
			/* PREEMPTABLE[q(i-9)]: only the urgent queue above. */
			q[i].preemptable = TRUE;
			q[i].preemptable_queues = refs(b, 1);
			q[i].n_preemptable_queues = 1;
			q[i].preemptable_queues[0].queue = i - 9;
			q[i].terminate_on_preempt = i % 20 == 19;
			break;
		}
	}
	if (nq > 2) {
		q[nq - 2].dispatch_ok = FALSE;
		q[nq - 2].inactive_by_admin = TRUE;
	}
	b->snap.queues = q;
	b->snap.n_queues = nq;
	b->snap.pools = pools;
	b->snap.n_pools = N_POOLS;
	/* Not every pool may have a queue at small sizes: that is allowed. */
}

/* ---- users and groups -------------------------------------------------- */

#define N_GROUPS 4

static void
add_users(Bench *b, guint nu)
{
	SchedUser *u = keep(b, g_new0(SchedUser, nu));
	SchedGroup *g = keep(b, g_new0(SchedGroup, N_GROUPS));
	guint *gidx = keep(b, g_new0(guint, N_GROUPS));

	for (guint k = 0; k < N_GROUPS; k++) {
		g[k].name = name(b, "group", k);
		g[k].max_jobs = SCHED_UNLIMITED;
		gidx[k] = k;
	}
	g[0].max_jobs = 3000;
	g[1].jl_p = 2.0;
	g[3].max_jobs = 500;
	for (guint i = 0; i < nu; i++) {
		u[i].name = name(b, "user", i);
		u[i].max_jobs = i % 50 == 49 ? 16 : SCHED_UNLIMITED;
		u[i].jl_p = i % 37 == 36 ? 1.0 : -1;
		if (i % 10 < N_GROUPS) {
			u[i].groups = &gidx[i % 10];
			u[i].n_groups = 1;
		}
	}
	b->snap.users = u;
	b->snap.n_users = nu;
	b->snap.groups = g;
	b->snap.n_groups = N_GROUPS;
}

/* A few users submit most jobs. */
static guint
pick_user(Bench *b)
{
	return below(b, below(b, b->snap.n_users) + 1);
}

/* ---- running jobs ------------------------------------------------------ */

/* A queue whose jobs may be victims: not preemptive, not in a pool. */
static guint
pick_victim_queue(Bench *b)
{
	for (;;) {
		guint q = below(b, b->snap.n_queues);
		guint kind = q % 10;

		if (kind == 9 || (kind != 0 && kind < 3 && below(b, 2) == 0) ||
		    kind == 8 || kind == 7)
			return q;
		if (b->snap.n_queues < 10)
			return q;
	}
}

static void
add_running(Bench *b)
{
	guint nh = b->snap.n_hosts;
	guint cap = nh * 8;
	SchedRunning *r = keep(b, g_new0(SchedRunning, cap));
	SchedAlloc *a = keep(b, g_new0(SchedAlloc, cap));
	guint n = 0;

	for (guint h = 0; h < nh * 7 / 10; h++) {
		int fill = h < nh * 4 / 10 ? 8 : 4;

		if (b->snap.hosts[h].state == SCHED_HOST_UNAVAIL)
			continue;
		while (fill > 0) {
			int slots = below(b, 10) == 0 && fill >= 2 ? 2 : 1;
			guint q = pick_victim_queue(b);

			a[n].host = h;
			a[n].slots = slots;
			r[n].id = 5000000 + n;
			r[n].queue = q;
			r[n].user = pick_user(b);
			r[n].allocs = &a[n];
			r[n].n_allocs = 1;
			r[n].start_time = (gint64)below(b, 100000);
			r[n].max_preempt = n % 7 == 0 ? 1 : 0;
			r[n].preempt_count = n % 14 == 0 ? 1 : 0;
			if (n % 200 == 17) {
				r[n].state = SCHED_RUN_SSUSP;
				r[n].preempted = TRUE;
			} else if (n % 331 == 5) {
				r[n].state = SCHED_RUN_USUSP;
			}
			fill -= slots;
			n++;
		}
	}
	b->snap.running = r;
	b->snap.n_running = n;
}

/* ---- pending jobs ------------------------------------------------------ */

/* -R "select[ncpus>=N]": the filter data is the bound, NULL for none. */
/* 2.5% of the jobs ask -R "select[ncpus>=8]": parsed once in main, as
 * the daemon parses a job's -R once when its submission is applied. */
static BsResReq *need_8cpus;

static guint
pick_queue(Bench *b)
{
	for (;;) {
		guint q = below(b, b->snap.n_queues);

		/* The preemptive queues are the small urgent ones. */
		if (q % 10 != 0 || below(b, 6) == 0)
			return q;
	}
}

static void
shape(Bench *b, SchedJob *j)
{
	guint r = below(b, 1000);

	j->min_slots = j->max_slots = 1;
	if (r < 850)
		return;
	if (r < 900) {
		j->min_slots = j->max_slots = 2 + (int)below(b, 7);
	} else if (r < 930) {
		j->min_slots = j->max_slots = 2 << below(b, 3);
		j->one_host = TRUE;
	} else if (r < 950) {
		j->ptile = 2 << below(b, 2);
		j->min_slots = j->max_slots = 4 + (int)below(b, 13);
	} else if (r < 970) {
		j->max_slots = 4;
	} else if (r < 975) {
		guint n = 1 + below(b, 3);

		j->asked_hosts = keep(b, g_new0(guint, n));
		j->n_asked_hosts = n;
		for (guint i = 0; i < n; i++)
			j->asked_hosts[i] = below(b, b->snap.n_hosts);
	} else if (r < 1000) {
		j->resreq = need_8cpus;
	}
}

static void
add_pending(Bench *b, guint np)
{
	SchedJob *jobs = keep(b, g_new0(SchedJob, np));
	GArray **per_queue = g_new0(GArray *, b->snap.n_queues);
	guint n = 0;

	for (guint i = 0; i < np; i++) {
		SchedJob j = { .id = 100000 + i };
		guint r = below(b, 1000);

		j.queue = pick_queue(b);
		j.user = pick_user(b);
		shape(b, &j);
		if (r < 20)
			j.held = TRUE;
		else if (r < 40)
			j.dep = SCHED_DEP_WAIT;
		else if (r < 43)
			j.dep = SCHED_DEP_NEVER;
		else if (r < 48)
			j.begin_time = 2000000;
		else if (r < 60) {
			j.array_id = 90000 + i % 16;
			j.array_limit = 10;
		}
		if (per_queue[j.queue] == NULL)
			per_queue[j.queue] = g_array_new(FALSE, FALSE, sizeof(SchedJob));
		g_array_append_val(per_queue[j.queue], j);
	}
	/* Each queue's jobs in submission order, queues one after another,
	 * as the daemon lists them. */
	for (guint q = 0; q < b->snap.n_queues; q++) {
		if (per_queue[q] == NULL)
			continue;
		memcpy(jobs + n, per_queue[q]->data, per_queue[q]->len * sizeof *jobs);
		n += per_queue[q]->len;
		g_array_free(per_queue[q], TRUE);
	}
	g_free(per_queue);
	b->snap.pending = jobs;
	b->snap.n_pending = n;
	b->snap.now = 1000000;
}

/* ---- slot reservation and backfill (--reserve) ------------------------- */

static void
reserve_switch_on(Bench *b)
{
	b->snap.session_time = 60;
	for (guint q = 0; q < b->snap.n_queues; q++) {
		if (b->snap.queues[q].in_pool)
			continue;
		b->snap.queues[q].reserve_time = 5 * 60;
		b->snap.queues[q].backfill = TRUE;
	}
	/* Running jobs end 10 minutes to 2 hours from now. */
	for (guint i = 0; i < b->snap.n_running; i++)
		if (below(b, 10) < 8)
			b->snap.running[i].run_limit = b->snap.now -
			    b->snap.running[i].start_time + 600 +
			    600 * (gint64)below(b, 12);
	for (guint i = 0; i < b->snap.n_pending; i++)
		if (below(b, 10) < 6)
			b->snap.pending[i].run_limit = 300 + 300 * (gint64)below(b, 24);
}

/* ---- submission options (--subopts) ------------------------------------ */

/*
 * bsub -x on 2 % of the pending and 1 % of the running jobs (exclusive.c),
 * -sp from 1 to 100 on every pending job as MAX_USER_PRIORITY would give
 * (stage-order.c sorts each queue), -We on 30 % of both (backfill with
 * --reserve), and -t on 1 % of both: half past (deadline.c ends them),
 * half to come.
 */
static void
subopts_switch_on(Bench *b)
{
	for (guint i = 0; i < b->snap.n_pending; i++) {
		SchedJob *j = &b->snap.pending[i];

		j->exclusive = below(b, 50) == 0;
		j->user_priority = 1 + (int)below(b, 100);
		if (below(b, 10) < 3)
			j->est_runtime = 300 + 300 * (gint64)below(b, 24);
		if (below(b, 100) == 0)
			j->term_time = b->snap.now + (below(b, 2) ? 3600 : -60);
	}
	for (guint i = 0; i < b->snap.n_running; i++) {
		SchedRunning *r = &b->snap.running[i];

		r->exclusive = below(b, 100) == 0;
		if (below(b, 10) < 3)
			r->est_runtime = 600 + 600 * (gint64)below(b, 12);
		if (below(b, 100) == 0)
			r->term_time = b->snap.now + (below(b, 2) ? 3600 : -60);
	}
}

/* A first pass's reservations into the snapshot, as the daemon keeps them
 * (mbd-reserve.c); returns how many. */
static guint
reserve_carry(Bench *b)
{
	SchedPlan *plan = sched_run(&b->snap);
	SchedAlloc *al = keep(b, g_new0(SchedAlloc, plan->allocs->len + 1));
	guint n = 0;

	if (plan->allocs->len > 0)
		memcpy(al, plan->allocs->data, plan->allocs->len * sizeof *al);
	for (guint i = 0; i < plan->reserves->len; i++) {
		const SchedReserve *r = &g_array_index(plan->reserves, SchedReserve, i);
		SchedJob *j = &b->snap.pending[r->job];

		j->reserve_banned_until = r->banned_until;
		if (r->n_allocs == 0)
			continue;
		j->reserved = al + r->first_alloc;
		j->n_reserved = r->n_allocs;
		j->reserve_since = b->snap.now - 60;
		n++;
	}
	sched_plan_free(plan);
	return n;
}

/* ---- the plan's digest ------------------------------------------------- */

static guint64
mix(guint64 h, guint64 v)
{
	/* FNV-1a over the 8 bytes of v. */
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (i * 8)) & 0xff;
		h *= G_GUINT64_CONSTANT(0x100000001b3);
	}
	return h;
}

/*
 * The digest walks the typed plan but mixes what it mixed when the plan
 * kept dispatches, preemptions and resumes apart, in the same order:
 * every resume, then each dispatch (job, allocations) followed by its
 * victims (job, whether killed), so digests stay comparable across that
 * change.  A preemption comes right before its dispatch in the plan.
 */
static guint64
digest(const SchedSnapshot *s, const SchedPlan *plan)
{
	guint64 h = G_GUINT64_CONSTANT(0xcbf29ce484222325);
	gboolean *started = g_new0(gboolean, s->n_pending);
	guint first_victim = 0;

	for (guint i = 0; i < plan->decisions->len; i++)
		if (sched_plan_decision(plan, i)->kind == SCHED_DO_RESUME)
			h = mix(h, sched_plan_decision(plan, i)->job);
	for (guint i = 0; i < plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(plan, i);

		if (d->kind != SCHED_DO_DISPATCH) {
			if (!sched_kind_preempts(d->kind))
				first_victim = i + 1;
			continue;
		}
		started[d->job] = TRUE;
		h = mix(h, d->job);
		for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++) {
			const SchedAlloc *al = &g_array_index(plan->allocs, SchedAlloc, a);

			h = mix(h, al->host);
			h = mix(h, (guint64)al->slots);
		}
		for (guint v = first_victim; v < i; v++) {
			const SchedDecision *pr = sched_plan_decision(plan, v);

			h = mix(h, pr->job);
			h = mix(h, (guint64)(pr->kind == SCHED_DO_PREEMPT_TERMINATE));
		}
		first_victim = i + 1;
	}
	/* A dispatched job's pending entry is not read by the daemon. */
	for (guint i = 0; i < plan->n_pending; i++) {
		const SchedPending *p = &plan->pending[i];

		if (started[i])
			continue;
		h = mix(h, (guint64)p->reason);
		for (guint r = 0; r < _SCHED_HR_MAX; r++) {
			/* A reason added later mixes in only when it counts, so
			 * digests of plans without it stay comparable. */
			if ((r == SCHED_HR_RES_LIMIT || r == SCHED_HR_NONEXCLUSIVE ||
			    r == SCHED_HR_EXCL_RUNNING || r == SCHED_HR_REFUSED) &&
			    p->host_counts[r] == 0)
				continue;
			h = mix(h, p->host_counts[r]);
		}
		for (const char *c = p->pool; c != NULL && *c != '\0'; c++)
			h = mix(h, (guint64)(guchar)*c);
	}
	for (guint q = 0; q < plan->n_queues; q++)
		h = mix(h, (guint64)(gint64)plan->queue_deserved[q]);
	for (guint k = 0; k < plan->n_pools; k++)
		h = mix(h, (guint64)(gint64)plan->pool_slots[k]);
	g_free(started);
	return h;
}

/* ---- lsb.resources limits ---------------------------------------------- */

/* One dimension's buckets: every member its own (per) or all in one,
 * members for which keep() is FALSE left uncovered. */
static const guint *
buckets(Bench *b, guint n, gboolean per, guint every)
{
	guint *k = keep(b, g_new0(guint, MAX(n, 1u)));

	for (guint i = 0; i < n; i++)
		if (every <= 1 || i % every == 0)
			k[i] = per ? i + 1 : 1;
	return k;
}

static void
add_limits(Bench *b, guint n)
{
	SchedSnapshot *s = &b->snap;
	SchedLimit *L = keep(b, g_new0(SchedLimit, n));
	const char **projects = keep(b, g_new0(const char *, 20));
	const char **apps = keep(b, g_new0(const char *, 5));

	for (guint i = 0; i < 20; i++)
		projects[i] = name(b, "proj", i);
	apps[0] = "";
	for (guint i = 1; i < 5; i++)
		apps[i] = name(b, "app", i);
	for (guint i = 0; i < n; i++) {
		SchedLimit *l = &L[i];

		l->name = name(b, "lim", i);
		l->slots = SCHED_UNLIMITED;
		l->jobs = SCHED_UNLIMITED;
		l->slots_per_proc = l->mem = l->swp = l->tmp = -1;
		switch (i % 8) {
		case 0:     /* PER_USER = all, SLOTS */
			l->bucket[SCHED_LIM_USER] = buckets(b, s->n_users, TRUE, 1);
			l->n_buckets[SCHED_LIM_USER] = s->n_users;
			l->per[SCHED_LIM_USER] = TRUE;
			l->slots = 40 + (int)i;
			break;
		case 1:     /* QUEUES = one queue, SLOTS */
			l->bucket[SCHED_LIM_QUEUE] = keep(b, g_new0(guint, s->n_queues));
			((guint *)l->bucket[SCHED_LIM_QUEUE])[(i * 7) % s->n_queues] = 1;
			l->n_buckets[SCHED_LIM_QUEUE] = 1;
			l->slots = 2000;
			break;
		case 2:     /* PER_PROJECT = all, JOBS */
			l->bucket[SCHED_LIM_PROJECT] = buckets(b, 20, TRUE, 1);
			l->n_buckets[SCHED_LIM_PROJECT] = 20;
			l->per[SCHED_LIM_PROJECT] = TRUE;
			l->jobs = 2500;
			break;
		case 3:     /* USERS = every tenth user, PER_HOST = all */
			l->bucket[SCHED_LIM_USER] = buckets(b, s->n_users, FALSE, 10);
			l->n_buckets[SCHED_LIM_USER] = 1;
			l->bucket[SCHED_LIM_HOST] = buckets(b, s->n_hosts, TRUE, 1);
			l->n_buckets[SCHED_LIM_HOST] = s->n_hosts;
			l->per[SCHED_LIM_HOST] = TRUE;
			l->slots = 3;
			break;
		case 4:     /* PER_QUEUE = all, SLOTS */
			l->bucket[SCHED_LIM_QUEUE] = buckets(b, s->n_queues, TRUE, 1);
			l->n_buckets[SCHED_LIM_QUEUE] = s->n_queues;
			l->per[SCHED_LIM_QUEUE] = TRUE;
			l->slots = 3000;
			break;
		case 5:     /* APPS = one profile, SLOTS */
			l->bucket[SCHED_LIM_APP] = keep(b, g_new0(guint, 5));
			((guint *)l->bucket[SCHED_LIM_APP])[1 + i % 4] = 1;
			l->n_buckets[SCHED_LIM_APP] = 1;
			l->slots = 9000;
			break;
		case 6:     /* HOSTS = a slice of the hosts together, SLOTS */
			l->bucket[SCHED_LIM_HOST] = buckets(b, s->n_hosts, FALSE, 3);
			l->n_buckets[SCHED_LIM_HOST] = 1;
			l->slots = (int)s->n_hosts * 2;
			break;
		default:    /* PER_USER = all, PER_HOST = all: JL/U-like */
			l->bucket[SCHED_LIM_USER] = buckets(b, s->n_users, TRUE, 1);
			l->n_buckets[SCHED_LIM_USER] = s->n_users;
			l->per[SCHED_LIM_USER] = TRUE;
			l->bucket[SCHED_LIM_HOST] = buckets(b, s->n_hosts, TRUE, 1);
			l->n_buckets[SCHED_LIM_HOST] = s->n_hosts;
			l->per[SCHED_LIM_HOST] = TRUE;
			l->slots = 4;
			break;
		}
	}
	for (guint i = 0; i < s->n_pending; i++) {
		s->pending[i].project = below(b, 20);
		s->pending[i].app = below(b, 5);
	}
	for (guint i = 0; i < s->n_running; i++) {
		s->running[i].project = below(b, 20);
		s->running[i].app = below(b, 5);
	}
	s->limits = L;
	s->n_limits = n;
	s->projects = projects;
	s->n_projects = 20;
	s->apps = apps;
	s->n_apps = 5;
}

/* ---- measuring --------------------------------------------------------- */

/* This thread's CPU time in ms: on a busy machine it shows the cost of a
 * cycle when the wall time also counts waiting for a CPU. */
static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---- resource plans ----------------------------------------------------- */

static void
add_consumers(Bench *b, guint n)
{
	SchedConsumer *c = keep(b, g_new0(SchedConsumer, n));
	SchedPlanTerms *t = keep(b, g_new0(SchedPlanTerms, n));
	SchedResourceGroup *rg = keep(b, g_new0(SchedResourceGroup, 1));
	guint *hosts = keep(b, g_new(guint, b->snap.n_hosts));
	guint *leaves = g_new(guint, n);
	guint n1 = MAX(n / 10, 1), n2 = MIN(n - n1, n1 * 3), n_leaves = 0;
	int total = 0;

	for (guint h = 0; h < b->snap.n_hosts; h++) {
		hosts[h] = h;
		total += b->snap.hosts[h].max_slots;
	}
	for (guint i = 0; i < n; i++) {
		guint lvl = i < n1 ? 1 : i < n1 + n2 ? 2 : 3;

		c[i].path = name(b, "/consumer", i);
		c[i].parent = lvl == 1 ? -1 : lvl == 2 ? (int)((i - n1) % n1) :
		    (int)(n1 + (i - n1 - n2) % MAX(n2, 1));
		c[i].policy = lvl == 1 ? (below(b, 5) == 0 ? SCHED_POLICY_OWNERSHIP :
		    SCHED_POLICY_HYBRID) : c[c[i].parent].policy;
		t[i].consumer = i;
		t[i].policy = c[i].policy;
		t[i].limit = SCHED_UNLIMITED;
		t[i].share = 1;
		t[i].lend_limit = t[i].share_limit = SCHED_UNLIMITED;
		t[i].borrow_limit = SCHED_UNLIMITED;
		t[i].rank = (int)below(b, 3);
	}
	/* Owned slots top down: the first level shares the cluster, each
	 * parent most of its own among its children. */
	for (guint i = 0; i < n; i++) {
		guint sibs = 0;

		for (guint k = 0; k < n; k++)
			sibs += c[k].parent == c[i].parent;
		if (c[i].parent < 0)
			t[i].owned = total / (int)sibs;
		else
			t[i].owned = t[c[i].parent].owned * 9 / 10 / (int)sibs;
		if (below(b, 8) == 0)
			t[i].reserved = t[i].owned / 10;
		if (below(b, 6) == 0)
			t[i].limit = t[i].owned * 2 + 1;
		if (c[i].policy == SCHED_POLICY_OWNERSHIP)
			t[i].lend_limit = t[i].owned / 2;
	}
	for (guint i = 0; i < n; i++) {
		gboolean leaf = TRUE;

		for (guint k = i + 1; k < n && leaf; k++)
			leaf = c[k].parent != (int)i;
		if (leaf)
			leaves[n_leaves++] = i;
	}
	rg->name = "rg1";
	rg->hosts = hosts;
	rg->n_hosts = b->snap.n_hosts;
	rg->terms = t;
	rg->n_terms = n;
	for (guint i = 0; i < n1; i++)
		rg->plan_slots += t[i].owned;
	b->snap.consumers = c;
	b->snap.n_consumers = n;
	b->snap.rgroups = rg;
	b->snap.n_rgroups = 1;
	/* Jobs outside the pools belong to leaves, a queue's mostly to a few. */
	for (guint i = 0; i < b->snap.n_pending; i++) {
		SchedJob *j = &b->snap.pending[i];

		if (!b->snap.queues[j->queue].in_pool)
			j->consumer = 1 + leaves[(j->queue * 7 + below(b, 3)) % n_leaves];
	}
	for (guint i = 0; i < b->snap.n_running; i++) {
		SchedRunning *r = &b->snap.running[i];

		if (!b->snap.queues[r->queue].in_pool)
			r->consumer = 1 + leaves[(r->queue * 7 + below(b, 3)) % n_leaves];
	}
	g_free(leaves);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: sched-cycle-bench [-p PENDING] [-H HOSTS] [-q QUEUES] "
	    "[-u USERS] [-r RUNS] [-s SEED] [-f PREEMPT_FOR_BITS] [--smoke]\n"
	    "  [--no-preemption] [--limits N] [--reserve] [--subopts] [--consumers N]\n"
	    "  [--reclaim] [--suffix S]\n"
	    "  defaults: 100000 pending, 10000 hosts, 50 queues, 1000 users, "
	    "5 runs\n");
	exit(2);
}

static guint
num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v == 0 || v > G_MAXINT)
		usage();
	return (guint)v;
}

static void
parse(int argc, char **argv, Opts *o)
{
	static const struct option longs[] = {
		{ "smoke", no_argument, NULL, 'S' },
		{ "no-preemption", no_argument, NULL, 'N' },
		{ "reserve", no_argument, NULL, 'R' },
		{ "pending", required_argument, NULL, 'p' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "queues", required_argument, NULL, 'q' },
		{ "users", required_argument, NULL, 'u' },
		{ "runs", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "preempt-for", required_argument, NULL, 'f' },
		{ "limits", required_argument, NULL, 'L' },
		{ "subopts", no_argument, NULL, 'X' },
		{ "consumers", required_argument, NULL, 'C' },
		{ "reclaim", no_argument, NULL, 'K' },
		{ "suffix", required_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (Opts){ 100000, 10000, 50, 1000, 5, 1, FALSE,
	    SCHED_PREEMPT_FOR_MINI_JOB, 0, FALSE, FALSE, 0, FALSE, NULL };
	while ((c = getopt_long(argc, argv, "p:H:q:u:r:s:f:", longs, NULL)) != -1) {
		switch (c) {
		case 'S':
			*o = (Opts){ 2000, 200, 20, 50, 3, o->seed,
			    o->no_preemption, o->preempt_for, o->n_limits,
			    o->reserve, o->subopts, o->n_consumers, o->reclaim,
			    o->suffix };
			break;
		case 'N':
			o->no_preemption = TRUE;
			break;
		case 'R':
			o->reserve = TRUE;
			break;
		case 'X':
			o->subopts = TRUE;
			break;
		case 'p': o->n_pending = num(optarg); break;
		case 'H': o->n_hosts = num(optarg); break;
		case 'q': o->n_queues = num(optarg); break;
		case 'u': o->n_users = num(optarg); break;
		case 'r': o->runs = num(optarg); break;
		case 's': o->seed = num(optarg); break;
		case 'f': o->preempt_for = (guint)strtoul(optarg, NULL, 0); break;
		case 'L': o->n_limits = num(optarg); break;
		case 'C': o->n_consumers = num(optarg); break;
		case 'K': o->reclaim = TRUE; break;
		case 'I': o->suffix = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
}

int
main(int argc, char **argv)
{
	Opts o;
	Bench b = {
		.names = g_ptr_array_new_with_free_func(g_free),
		.blocks = g_ptr_array_new_with_free_func(g_free),
	};
	double *t, *cpu;
	guint dispatched = 0, preempted = 0, resumed = 0, slots = 0, reclaimed = 0;
	double select_ms = 0;
	guint carried = 0, reserving = 0, rsv_slots = 0, rsv_known = 0;
	guint64 sum = 0;
	double med;

	parse(argc, argv, &o);
	need_8cpus = bs_resreq_parse("select[ncpus>=8]", NULL);
	g_assert(need_8cpus != NULL);
	b.rng = o.seed;
	add_hosts(&b, o.n_hosts);
	add_queues(&b, o.n_queues);
	add_users(&b, o.n_users);
	add_running(&b);
	add_pending(&b, o.n_pending);
	if (o.n_limits > 0)
		add_limits(&b, o.n_limits);
	b.snap.preempt_for = o.preempt_for;
	for (guint q = 0; o.no_preemption && q < b.snap.n_queues; q++)
		b.snap.queues[q].preemptive = b.snap.queues[q].preemptable = FALSE;
	if (o.subopts)
		subopts_switch_on(&b);
	if (o.n_consumers > 0)
		add_consumers(&b, o.n_consumers);
	/* Reclaim-heavy: MostRecentTask orders consumers by their last
	 * started job, and the pass is the first after a reconfig, so every
	 * leaf above its quota gives back its excess (stage-reclaim.c). */
	if (o.reclaim) {
		b.snap.reclaim.criteria = SCHED_RECLAIM_MOST_RECENT_TASK;
		b.snap.plan_reloaded = TRUE;
	}
	if (o.reserve) {
		reserve_switch_on(&b);
		carried = reserve_carry(&b);
	}
	fprintf(stderr, "sched-cycle-bench: %u hosts, %u queues (%u pools), "
	    "%u users, %u running, %u pending, %u limits, %u consumers, seed %"
	    G_GUINT64_FORMAT "\n", b.snap.n_hosts, b.snap.n_queues, b.snap.n_pools,
	    b.snap.n_users, b.snap.n_running, b.snap.n_pending, b.snap.n_limits,
	    b.snap.n_consumers, o.seed);

	t = g_new(double, o.runs);
	cpu = g_new(double, o.runs);
	for (guint i = 0; i < o.runs; i++) {
		double c0 = cpu_ms();
		gint64 t0 = g_get_monotonic_time();
		SchedPlan *plan = sched_run(&b.snap);

		t[i] = (double)(g_get_monotonic_time() - t0) / 1000.0;
		cpu[i] = cpu_ms() - c0;
		if (i == 0) {
			dispatched = sched_plan_count(plan, SCHED_DO_DISPATCH);
			preempted = sched_plan_count(plan, SCHED_DO_PREEMPT_SUSPEND) +
			    sched_plan_count(plan, SCHED_DO_PREEMPT_TERMINATE);
			resumed = sched_plan_count(plan, SCHED_DO_RESUME);
			reclaimed = sched_plan_count(plan, SCHED_DO_RECLAIM_NOTICE);
			/* The dispatches' allocations, not the reservations'. */
			for (guint k = 0; k < plan->decisions->len; k++) {
				const SchedDecision *d = sched_plan_decision(plan, k);

				for (guint a = 0; d->kind == SCHED_DO_DISPATCH &&
				    a < d->n_allocs; a++)
					slots += (guint)g_array_index(plan->allocs,
					    SchedAlloc, d->first_alloc + a).slots;
			}
			sum = digest(&b.snap, plan);
			for (guint k = 0; k < plan->reserves->len; k++) {
				const SchedReserve *r = &g_array_index(plan->reserves,
				    SchedReserve, k);

				reserving += r->n_allocs > 0;
				rsv_known += r->n_allocs > 0 && r->start > 0;
				for (guint a = 0; a < r->n_allocs; a++)
					rsv_slots += (guint)g_array_index(plan->allocs,
					    SchedAlloc, r->first_alloc + a).slots;
			}
		}
		/* The reclaim selection alone (stage-reclaim.c), over this
		 * pass's plan: its share of the cycle is small, so it is timed
		 * apart, best of 5. */
		if (o.n_consumers > 0 && i == 0) {
			for (int k = 0; k < 5; k++) {
				GArray *again = g_array_new(FALSE, FALSE, sizeof(SchedReclaim));
				gint64 s0 = g_get_monotonic_time();

				sched_reclaim_select(&b.snap, plan, again);
				s0 = g_get_monotonic_time() - s0;
				if (k == 0 || s0 / 1000.0 < select_ms)
					select_ms = s0 / 1000.0;
				g_array_free(again, TRUE);
			}
		}
		sched_plan_free(plan);
	}
	qsort(t, o.runs, sizeof *t, cmp_double);
	qsort(cpu, o.runs, sizeof *cpu, cmp_double);
	med = t[o.runs / 2];
	fprintf(stderr, "  plan: %u dispatched (%u slots), %u preempted, "
	    "%u resumed, %u reclaimed; digest %016" G_GINT64_MODIFIER "x\n",
	    dispatched, slots, preempted, resumed, reclaimed, sum);
	if (o.n_consumers > 0)
		fprintf(stderr, "  reclaim selection alone: %.2f ms\n", select_ms);
	if (o.reserve)
		fprintf(stderr, "  reservation: %u carried in; the plan holds %u "
		    "(%u slots, %u with a known start)\n", carried, reserving,
		    rsv_slots, rsv_known);
	fprintf(stderr, "  cycle over %u runs: median %.2f ms, min %.2f ms, "
	    "max %.2f ms; %.0f dispatch decisions/s\n", o.runs, med, t[0],
	    t[o.runs - 1], med > 0 ? dispatched / (med / 1000.0) : 0.0);
	fprintf(stderr, "  CPU time per cycle: median %.2f ms, min %.2f ms\n",
	    cpu[o.runs / 2], cpu[0]);
	/* With limits the figures are sched.cycle_limits and
	 * sched.decisions_limits (bench/fig/sched-limits.sh); with a resource
	 * plan sched.cycle_plans and sched.decisions_plans (sched-plans.sh);
	 * --suffix names others, as _1m for the large cluster (sched-1m.sh). */
	if (o.suffix == NULL)
		o.suffix = o.n_consumers > 0 ? "_plans" :
		    o.n_limits > 0 ? "_limits" : "";
	printf("result\tsched.cycle%s\t%.2f\tms\n", o.suffix, med);
	printf("result\tsched.decisions%s\t%.0f\tdecisions/s\n", o.suffix,
	    med > 0 ? dispatched / (med / 1000.0) : 0.0);
	g_free(t);
	g_free(cpu);
	g_ptr_array_free(b.blocks, TRUE);
	bs_resreq_free(need_8cpus);
	g_ptr_array_free(b.names, TRUE);
	return 0;
}
