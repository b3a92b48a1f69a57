/*
 * Stage: lsb.resources Limit sections.  Rule (lsb.resources(5), LSF's
 * resource allocation limits):
 *
 * - A limit covers a job when every consumer it names covers the job's
 *   user (or a group of it), queue, project and application profile,
 *   and, for a limit naming hosts, the host the job would use there.
 * - USERS, QUEUES, HOSTS, PROJECTS, APPS count their members together;
 *   PER_USER ... PER_APP count each member apart (a PER_ group written
 *   `name/` counts as one).  Each such count is a bucket.
 * - A bucket holds what its running jobs hold: slots, jobs, and per slot
 *   the rusage[] of mem, swp, tmp and each named resource.  A pending job
 *   starts only where every covering bucket has room for it: SLOTS,
 *   SLOTS_PER_PROCESSOR x the CPUs of the hosts counted, JOBS, MEM, SWP,
 *   TMP (MB, or percent of each host's maxmem with PER_HOST) and RESOURCE.
 *   A job without an rusage of a resource is not held by its limit.
 * - Held, its pending reason names the limit: "Resource (slot) limit
 *   defined on queue has been reached (Limit Name: lim1)"; a limit on
 *   hosts counts the host under "Resource limit defined on host and/or
 *   host group has been reached" and names the limit the same way.
 * - Suspended jobs count, except under preemption where PREEMPT_FOR says
 *   otherwise (lsf-reference 4.1): slots and jobs of a limit naming users
 *   stop counting suspended jobs with GROUP_MAX (no hosts named) or
 *   HOST_JLU (hosts named), and its per-processor part with USER_JLP
 *   (PER_USER, users one by one) or GROUP_JLP (users together).  Memory
 *   and other resources of a suspended job always count.
 * - Preemption may free a limit: suspending a victim is counted here
 *   (limits_suspend), so a per-host limit's room shows in the victims'
 *   hosts' offer, and a job held by a job-level limit that exempts
 *   suspended jobs enters the preemption stage as MAX_JOBS does.
 *
 * Counters are built once from the running jobs and kept as the pass
 * dispatches, suspends and resumes: a bucket is one hash lookup, so a job
 * costs a few lookups per limit that covers it, whatever the cluster size.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "pass.h"

typedef struct {
	int slots, susp_slots;
	int jobs, susp_jobs;
	double mem, swp, tmp;
	double *res;              /* [n_res], NULL when the limit has none */
	guint limit;
	guint64 key;
	guint members[SCHED_LIM_NDIM]; /* the PER_ buckets of the row */
} Use;

/* A job's ask per slot of each resource a limit may count. */
typedef struct {
	double mem, swp, tmp;
	double *res;              /* [max n_res over limits] */
} Demand;

/* What a job's user, queue, project and profile make of one limit's key,
 * the host left out: resolved once per job, then one multiply per host. */
typedef struct {
	gboolean covered;         /* every named dimension but hosts covers it */
	guint64 base;             /* the key without the host's part */
} JobKey;

/* The job a cache of JobKeys was resolved for: the keys and the demand
 * read nothing else of it. */
typedef struct {
	gboolean valid;
	guint user, queue, project, app;
	const BsResReq *rr;
} KeyOwner;

/* One bucket one job holds: a row of Use, slots, and 1 for the allocation
 * that brings the job into the bucket (a job counts once per bucket). */
typedef struct {
	guint use;
	int slots;
	int job;
} Charge;

typedef struct {
	Charge *v;
	guint len, cap;
} Charges;

struct Limits {
	const SchedSnapshot *snap;
	guint64 *keys;            /* open addressing: key -> index + 1 */
	guint *vals;
	guint mask, n;
	GArray *use;              /* Use */
	/* Per limit, when its buckets are few: bucket -> index + 1 directly,
	 * no hashing (most limits; PER_USER x PER_HOST is hashed). */
	guint **dense;
	gboolean *run_only;       /* [n_limits]: SLOTS/JOBS skip suspended */
	gboolean *run_only_cpu;   /* [n_limits]: SLOTS_PER_PROCESSOR does */
	gboolean *on_hosts;       /* [n_limits]: names hosts */
	gboolean *plain;          /* [n_limits]: SLOTS and JOBS at most */
	int *cpus;                /* [n_limits]: CPUs counted without PER_HOST */
	int **grp_cpus;           /* [n_limits]: PER_HOST `group/` bucket -> CPUs */
	guint max_res;
	gboolean any_hosts;
	guint *host_lims;         /* the limits naming hosts, n_host_lims */
	guint n_host_lims;
	guint *job_lims;          /* the others, n_job_lims */
	guint n_job_lims;
	gboolean host_reads_job;  /* one of them also names projects or apps */
	/* The placement in progress. */
	const SchedJob *cur;
	guint first;
	SchedPending *pend;
	Demand dem;
	/* limits_job_room's last hold: suspending jobs could free it. */
	gboolean held_relievable;
	/* Per limit and dimension, what a bucket of it weighs in the key
	 * (0: not PER_), and the dimensions but hosts it names. */
	guint64 (*mult)[SCHED_LIM_NDIM];
	guint8 (*dims)[SCHED_LIM_NDIM];
	guint8 *n_dims;
	/* The keys of the limits naming hosts for the job being placed
	 * ([n_host_lims]), and of the others for limits_job_room. */
	JobKey *host_keys;
	KeyOwner host_owner;
	JobKey *job_keys;
	KeyOwner job_owner;
	Demand job_dem;
	/* Running jobs preemption suspends or kills, again and again while
	 * it tries victims: their charges, resolved at the first time.
	 * run_first[i]: index + 1 into charges, 0 not yet resolved. */
	guint *run_first, *run_n;
	Demand *run_dem;
	Charges charges;
	Charges scratch;          /* for a job charged once */
};

#define EMPTY G_MAXUINT64

static guint
slot_of(const Limits *lm, guint64 k)
{
	return (guint)((k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32) &
	    lm->mask;
}

#define LOCAL_BITS 44
#define DENSE_MAX (1u << 18)

static inline Use *
find(const Limits *lm, guint64 k)
{
	const guint *dense = lm->dense[k >> LOCAL_BITS];

	if (dense != NULL) {
		guint v = dense[k & ((G_GUINT64_CONSTANT(1) << LOCAL_BITS) - 1)];

		return v != 0 ? &g_array_index(lm->use, Use, v - 1) : NULL;
	}
	for (guint i = slot_of(lm, k);; i = (i + 1) & lm->mask) {
		if (lm->keys[i] == k)
			return &g_array_index(lm->use, Use, lm->vals[i] - 1);
		if (lm->keys[i] == EMPTY)
			return NULL;
	}
}

static void
map_alloc(Limits *lm, guint size)
{
	lm->mask = size - 1;
	lm->keys = g_new(guint64, size);
	lm->vals = g_new0(guint, size);
	memset(lm->keys, 0xff, sizeof(guint64) * size);
}

static void
map_put(Limits *lm, guint64 k, guint v)
{
	guint i = slot_of(lm, k);

	while (lm->keys[i] != EMPTY)
		i = (i + 1) & lm->mask;
	lm->keys[i] = k;
	lm->vals[i] = v;
	lm->n++;
}

static Use *
get(Limits *lm, guint li, guint64 k, const guint *members)
{
	Use *u = find(lm, k), nu = { 0 };
	const SchedLimit *L = &lm->snap->limits[li];

	if (u != NULL)
		return u;
	if (lm->dense[li] != NULL) {
		nu.limit = li;
		nu.key = k;
		memcpy(nu.members, members, sizeof nu.members);
		if (L->n_res > 0)
			nu.res = g_new0(double, L->n_res);
		g_array_append_val(lm->use, nu);
		lm->dense[li][k & ((G_GUINT64_CONSTANT(1) << LOCAL_BITS) - 1)] =
		    lm->use->len;
		return &g_array_index(lm->use, Use, lm->use->len - 1);
	}
	if ((lm->n + 1) * 2 > lm->mask + 1) {
		guint64 *keys = lm->keys;
		guint *vals = lm->vals, size = lm->mask + 1;

		lm->n = 0;
		map_alloc(lm, size * 2);
		for (guint i = 0; i < size; i++)
			if (keys[i] != EMPTY)
				map_put(lm, keys[i], vals[i]);
		g_free(keys);
		g_free(vals);
	}
	nu.limit = li;
	nu.key = k;
	memcpy(nu.members, members, sizeof nu.members);
	if (L->n_res > 0)
		nu.res = g_new0(double, L->n_res);
	g_array_append_val(lm->use, nu);
	map_put(lm, k, lm->use->len);
	return &g_array_index(lm->use, Use, lm->use->len - 1);
}

/*
 * The bucket of limit li for a job of these members (the host ignored
 * by a limit not naming hosts); FALSE when the limit does not cover it.
 * mb receives the bucket of each dimension.
 */
static gboolean
bucket_of(const Limits *lm, guint li, const guint m[SCHED_LIM_NDIM],
    guint64 *key, guint mb[SCHED_LIM_NDIM])
{
	const SchedLimit *L = &lm->snap->limits[li];
	guint64 k = 0;

	for (int d = 0; d < SCHED_LIM_NDIM; d++) {
		guint b;

		mb[d] = 0;
		if (L->bucket[d] == NULL)
			continue;
		b = L->bucket[d][m[d]];
		if (b == 0)
			return FALSE;
		if (L->per[d]) {
			k = k * ((guint64)L->n_buckets[d] + 1) + b;
			mb[d] = b;
		}
	}
	*key = ((guint64)li << LOCAL_BITS) + k;
	return TRUE;
}

static void
members_of(guint m[SCHED_LIM_NDIM], guint user, guint queue, guint host,
    guint project, guint app)
{
	m[SCHED_LIM_USER] = user;
	m[SCHED_LIM_QUEUE] = queue;
	m[SCHED_LIM_HOST] = host;
	m[SCHED_LIM_PROJECT] = project;
	m[SCHED_LIM_APP] = app;
}

/*
 * The part of limit li's key a job's user, queue, project and profile
 * give: the key is the PER_ buckets in a mixed radix (bucket_of), so it
 * is that part plus the host's bucket times its weight.  Resolved once
 * per job rather than for every host it looks at.
 */
static inline void
job_key(const Limits *lm, guint li, guint user, guint queue, guint project,
    guint app, JobKey *jk)
{
	const SchedLimit *L = &lm->snap->limits[li];
	guint m[SCHED_LIM_NDIM];

	members_of(m, user, queue, 0, project, app);
	jk->covered = FALSE;
	jk->base = (guint64)li << LOCAL_BITS;
	for (guint i = 0; i < lm->n_dims[li]; i++) {
		guint d = lm->dims[li][i], b = L->bucket[d][m[d]];

		if (b == 0)
			return;
		jk->base += b * lm->mult[li][d];
	}
	jk->covered = TRUE;
}

/* The key of limit li on host h for the job of jk (the same bucket_of
 * gives); FALSE when the limit does not cover it there.  *hb: the host's
 * PER_HOST bucket, 0 without PER_HOST. */
static inline gboolean
host_key(const Limits *lm, guint li, const JobKey *jk, guint h, guint64 *k,
    guint *hb)
{
	const SchedLimit *L = &lm->snap->limits[li];
	const guint *hosts = L->bucket[SCHED_LIM_HOST];
	guint b;

	*hb = 0;
	if (!jk->covered)
		return FALSE;
	*k = jk->base;
	if (hosts == NULL)
		return TRUE;
	b = hosts[h];
	if (b == 0)
		return FALSE;
	*k += b * lm->mult[li][SCHED_LIM_HOST];
	if (L->per[SCHED_LIM_HOST])
		*hb = b;
	return TRUE;
}

static gboolean
owner_is(const KeyOwner *o, const SchedJob *j)
{
	return o->valid && o->user == j->user && o->queue == j->queue &&
	    o->project == j->project && o->app == j->app && o->rr == j->resreq;
}

static void
owner_set(KeyOwner *o, const SchedJob *j)
{
	o->valid = TRUE;
	o->user = j->user;
	o->queue = j->queue;
	o->project = j->project;
	o->app = j->app;
	o->rr = j->resreq;
}

static void
demand_of(const Limits *lm, const BsResReq *rr, Demand *d)
{
	d->mem = d->swp = d->tmp = 0;
	if (d->res != NULL)
		memset(d->res, 0, sizeof(double) * lm->max_res);
	if (rr == NULL)
		return;
	d->mem = bs_resreq_rusage_mem_mb(rr);
	d->swp = bs_resreq_rusage(rr, "swp");
	d->tmp = bs_resreq_rusage(rr, "tmp");
}

/* Named resources are looked up per limit: their names differ. */
static double
res_ask(const BsResReq *rr, const char *name)
{
	return rr != NULL ? bs_resreq_rusage(rr, name) : 0;
}

/* Add (sign 1) or take away one job's hold on a bucket. */
static inline void
charge(Use *u, const SchedLimit *L, const BsResReq *rr, const Demand *d,
    int slots, int new_job, gboolean susp)
{
	u->slots += slots;
	if (susp)
		u->susp_slots += slots;
	u->jobs += new_job;
	if (susp)
		u->susp_jobs += new_job;
	u->mem += d->mem * slots;
	u->swp += d->swp * slots;
	u->tmp += d->tmp * slots;
	for (guint r = 0; r < L->n_res; r++)
		u->res[r] += res_ask(rr, L->res_names[r]) * slots;
}

/* The row of bucket k of limit li, made when the bucket has none yet. */
static Use *
row(Limits *lm, guint li, guint64 k, guint user, guint queue, guint host,
    guint project, guint app)
{
	guint m[SCHED_LIM_NDIM], mb[SCHED_LIM_NDIM];
	guint64 same;
	Use *u = find(lm, k);

	if (u != NULL)
		return u;
	members_of(m, user, queue, host, project, app);
	bucket_of(lm, li, m, &same, mb);
	return get(lm, li, k, mb);
}

static void
push(Charges *cs, const Charge *c)
{
	if (cs->len == cs->cap) {
		cs->cap = MAX(cs->cap * 2, 16u);
		cs->v = g_renew(Charge, cs->v, cs->cap);
	}
	cs->v[cs->len++] = *c;
}

/*
 * The buckets one job's allocations hold, limit by limit, appended to
 * out: the job counts once in each bucket, with its first allocation
 * there.  Buckets not counted yet get their row.
 */
static void
collect(Limits *lm, guint user, guint queue, guint project, guint app,
    const SchedAlloc *al, guint n, Charges *out)
{
	for (guint li = 0; li < lm->snap->n_limits; li++) {
		guint from = out->len;
		JobKey jk;

		job_key(lm, li, user, queue, project, app, &jk);
		if (!jk.covered)
			continue;
		for (guint a = 0; a < n; a++) {
			guint hb;
			guint64 k;
			Charge c;
			Use *u;

			if (!host_key(lm, li, &jk, al[a].host, &k, &hb))
				continue;
			u = row(lm, li, k, user, queue, al[a].host, project, app);
			c.use = (guint)(u - (Use *)(void *)lm->use->data);
			c.slots = al[a].slots;
			c.job = 1;
			for (guint s = from; s < out->len && c.job; s++)
				c.job = out->v[s].use != c.use;
			push(out, &c);
		}
	}
}

static void
apply_charges(Limits *lm, const Charge *c, guint n, const BsResReq *rr,
    const Demand *d, gboolean susp, int sign)
{
	for (guint i = 0; i < n; i++) {
		Use *u = &g_array_index(lm->use, Use, c[i].use);

		charge(u, &lm->snap->limits[u->limit], rr, d, sign * c[i].slots,
		    sign * c[i].job, susp);
	}
}

/* Charge one job's allocations to every limit that covers them. */
static void
charge_job(Limits *lm, guint user, guint queue, guint project, guint app,
    const BsResReq *rr, const SchedAlloc *al, guint n, gboolean susp, int sign)
{
	Demand d = { 0 };

	demand_of(lm, rr, &d);
	if (n == 1) {
		/* One allocation, most jobs: a bucket per limit at most, and
		 * the job enters it. */
		for (guint li = 0; li < lm->snap->n_limits; li++) {
			JobKey jk;
			guint64 k;
			guint hb;

			job_key(lm, li, user, queue, project, app, &jk);
			if (!host_key(lm, li, &jk, al[0].host, &k, &hb))
				continue;
			charge(row(lm, li, k, user, queue, al[0].host, project, app),
			    &lm->snap->limits[li], rr, &d, sign * al[0].slots, sign,
			    susp);
		}
		return;
	}
	lm->scratch.len = 0;
	collect(lm, user, queue, project, app, al, n, &lm->scratch);
	apply_charges(lm, lm->scratch.v, lm->scratch.len, rr, &d, susp, sign);
}

/*
 * A running job's charges, resolved the first time preemption suspends
 * or kills it: trying victims takes and gives back the same jobs many
 * times over.  NULL for a job outside the snapshot's running jobs.
 */
static const Charge *
run_charges(Limits *lm, const SchedRunning *r, guint *n, const Demand **d)
{
	const SchedSnapshot *s = lm->snap;
	guint i;

	if (r < s->running || r >= s->running + s->n_running)
		return NULL;
	i = (guint)(r - s->running);
	if (lm->run_first == NULL) {
		lm->run_first = g_new0(guint, s->n_running);
		lm->run_n = g_new0(guint, s->n_running);
		lm->run_dem = g_new0(Demand, s->n_running);
	}
	if (lm->run_first[i] == 0) {
		guint at = lm->charges.len;

		collect(lm, r->user, r->queue, r->project, r->app, r->allocs,
		    r->n_allocs, &lm->charges);
		lm->run_first[i] = at + 1;
		lm->run_n[i] = lm->charges.len - at;
		demand_of(lm, r->resreq, &lm->run_dem[i]);
	}
	*n = lm->run_n[i];
	*d = &lm->run_dem[i];
	return lm->charges.v + lm->run_first[i] - 1;
}

static int
host_cpus(const SchedHost *h)
{
	return h->ncpus > 0 ? h->ncpus : 1;
}

static void
setup_rules(Limits *lm)
{
	const SchedSnapshot *s = lm->snap;
	gboolean pre = sched_preemption_configured(s);

	for (guint li = 0; li < s->n_limits; li++) {
		const SchedLimit *L = &s->limits[li];
		gboolean users = L->bucket[SCHED_LIM_USER] != NULL;

		lm->on_hosts[li] = L->bucket[SCHED_LIM_HOST] != NULL;
		lm->plain[li] = L->slots_per_proc < 0 && L->n_res == 0;
		lm->any_hosts |= lm->on_hosts[li];
		if (!lm->on_hosts[li])
			lm->job_lims[lm->n_job_lims++] = li;
		if (lm->on_hosts[li]) {
			lm->host_lims[lm->n_host_lims++] = li;
			lm->host_reads_job |= L->bucket[SCHED_LIM_PROJECT] != NULL ||
			    L->bucket[SCHED_LIM_APP] != NULL;
		}
		lm->max_res = MAX(lm->max_res, L->n_res);
		lm->run_only[li] = pre && users && (s->preempt_for &
		    (lm->on_hosts[li] ? SCHED_PREEMPT_FOR_HOST_JLU :
		    SCHED_PREEMPT_FOR_GROUP_MAX));
		lm->run_only_cpu[li] = pre && users && (s->preempt_for &
		    (L->per_single_user ? SCHED_PREEMPT_FOR_USER_JLP :
		    SCHED_PREEMPT_FOR_GROUP_JLP));
		for (guint h = 0; h < s->n_hosts; h++)
			if (!lm->on_hosts[li] || L->bucket[SCHED_LIM_HOST][h] != 0)
				lm->cpus[li] += host_cpus(&s->hosts[h]);
		if (lm->on_hosts[li] && L->per[SCHED_LIM_HOST] &&
		    L->n_buckets[SCHED_LIM_HOST] > s->n_hosts) {
			lm->grp_cpus[li] = g_new0(int, L->n_buckets[SCHED_LIM_HOST] + 1);
			for (guint h = 0; h < s->n_hosts; h++) {
				guint b = L->bucket[SCHED_LIM_HOST][h];

				if (b > s->n_hosts && b <= L->n_buckets[SCHED_LIM_HOST])
					lm->grp_cpus[li][b] += host_cpus(&s->hosts[h]);
			}
		}
		{
			guint64 space = 1;

			/* The last PER_ dimension weighs 1, each before it the
			 * product of the radixes after it (bucket_of's order). */
			for (int d = SCHED_LIM_NDIM; d-- > 0;) {
				if (L->bucket[d] == NULL || !L->per[d])
					continue;
				lm->mult[li][d] = space;
				space *= (guint64)L->n_buckets[d] + 1;
			}
			for (int d = 0; d < SCHED_LIM_NDIM; d++)
				if (d != SCHED_LIM_HOST && L->bucket[d] != NULL)
					lm->dims[li][lm->n_dims[li]++] = (guint8)d;
			if (space <= DENSE_MAX)
				lm->dense[li] = g_new0(guint, space);
		}
	}
}

Limits *
limits_new(const SchedSnapshot *snap)
{
	Limits *lm;

	if (snap->n_limits == 0)
		return NULL;
	lm = g_new0(Limits, 1);
	lm->snap = snap;
	lm->use = g_array_new(FALSE, FALSE, sizeof(Use));
	lm->run_only = g_new0(gboolean, snap->n_limits);
	lm->run_only_cpu = g_new0(gboolean, snap->n_limits);
	lm->on_hosts = g_new0(gboolean, snap->n_limits);
	lm->plain = g_new0(gboolean, snap->n_limits);
	lm->cpus = g_new0(int, snap->n_limits);
	lm->host_lims = g_new0(guint, snap->n_limits);
	lm->job_lims = g_new0(guint, snap->n_limits);
	lm->dense = g_new0(guint *, snap->n_limits);
	lm->grp_cpus = g_new0(int *, snap->n_limits);
	lm->mult = g_malloc0(sizeof *lm->mult * snap->n_limits);
	lm->host_keys = g_new0(JobKey, snap->n_limits);
	lm->job_keys = g_new0(JobKey, snap->n_limits);
	lm->dims = g_malloc0(sizeof *lm->dims * snap->n_limits);
	lm->n_dims = g_new0(guint8, snap->n_limits);
	setup_rules(lm);
	{
		/* Hashed limits get about a bucket per running job each: size
		 * the table once rather than grow it while counting. */
		guint hashed = 0, size = 1024;

		for (guint li = 0; li < snap->n_limits; li++)
			hashed += lm->dense[li] == NULL;
		while (size < G_MAXUINT / 4 &&
		    size < 2 * (guint64)snap->n_running * hashed)
			size *= 2;
		map_alloc(lm, size);
	}
	lm->dem.res = g_new0(double, MAX(lm->max_res, 1u));
	for (guint i = 0; i < snap->n_running; i++) {
		const SchedRunning *r = &snap->running[i];

		charge_job(lm, r->user, r->queue, r->project, r->app, r->resreq,
		    r->allocs, r->n_allocs, r->state != SCHED_RUN_RUN, 1);
	}
	return lm;
}

void
limits_free(Limits *lm)
{
	if (lm == NULL)
		return;
	for (guint i = 0; i < lm->use->len; i++)
		g_free(g_array_index(lm->use, Use, i).res);
	g_array_free(lm->use, TRUE);
	g_free(lm->keys);
	g_free(lm->vals);
	g_free(lm->run_only);
	g_free(lm->run_only_cpu);
	g_free(lm->on_hosts);
	g_free(lm->plain);
	g_free(lm->cpus);
	g_free(lm->host_lims);
	g_free(lm->job_lims);
	for (guint li = 0; li < lm->snap->n_limits; li++) {
		g_free(lm->dense[li]);
		g_free(lm->grp_cpus[li]);
	}
	g_free(lm->dense);
	g_free(lm->grp_cpus);
	g_free(lm->dem.res);
	g_free(lm->mult);
	g_free(lm->host_keys);
	g_free(lm->job_keys);
	g_free(lm->dims);
	g_free(lm->n_dims);
	g_free(lm->scratch.v);
	g_free(lm->charges.v);
	g_free(lm->run_first);
	g_free(lm->run_n);
	g_free(lm->run_dem);
	g_free(lm);
}

/*
 * The CPUs a SLOTS_PER_PROCESSOR limit multiplies for PER_HOST bucket b
 * (a host, or a `group/` as a whole); without PER_HOST, those of every
 * host it counts.
 */
static int
bucket_cpus(const Limits *lm, guint li, guint b)
{
	const SchedLimit *L = &lm->snap->limits[li];

	if (!L->per[SCHED_LIM_HOST] || b == 0)
		return lm->cpus[li];
	if (b <= lm->snap->n_hosts)
		return host_cpus(&lm->snap->hosts[b - 1]);
	return lm->grp_cpus[li] != NULL ? lm->grp_cpus[li][b] : lm->cpus[li];
}

/* What a limit is defined on, in LSF's words for a pending reason. */
static const char *
defined_on(const SchedLimit *L, gboolean host)
{
	if (host)
		return "host and/or host group";
	if (L->bucket[SCHED_LIM_USER] != NULL)
		return "user or user group";
	if (L->bucket[SCHED_LIM_QUEUE] != NULL)
		return "queue";
	if (L->bucket[SCHED_LIM_PROJECT] != NULL)
		return "project";
	if (L->bucket[SCHED_LIM_APP] != NULL)
		return "application profile";
	return NULL;              /* cluster-wide */
}

static void
tighten(int *room, int r, const char **what, const char *name)
{
	if (r < *room) {
		*room = r;
		*what = name;
	}
}

/* Slots an amount leaves at `per_slot` each; INT_MAX when not asked. */
static int
amount_room(double limit, double used, double per_slot)
{
	double r;

	if (limit < 0 || per_slot <= 0)
		return INT_MAX;
	r = floor((limit - used) / per_slot + 1e-9);
	return r < 0 ? 0 : r > INT_MAX / 2 ? INT_MAX / 2 : (int)r;
}

/*
 * Room in one bucket for the job, `taken` slots of it already counted
 * there in this placement (and its job with them).  *what: the resource
 * that bounds it.
 */
static inline int
bucket_room(const Limits *lm, guint li, const Use *u, guint h,
    const BsResReq *rr, const Demand *d, int taken, const char **what)
{
	static const Use z;
	const SchedLimit *L = &lm->snap->limits[li];
	int room = INT_MAX, used;
	double maxmem;

	if (u == NULL)
		u = &z;
	used = u->slots - (lm->run_only[li] ? u->susp_slots : 0) + taken;
	if (lm->plain[li] && d->mem <= 0 && d->swp <= 0 && d->tmp <= 0) {
		/* SLOTS and JOBS alone, most limits: the bounds below, less
		 * those that leave INT_MAX. */
		if (L->slots >= 0) {
			room = L->slots - used;
			*what = "slot";
		}
		if (L->jobs >= 0 && taken == 0 && room > 0 &&
		    u->jobs - (lm->run_only[li] ? u->susp_jobs : 0) + 1 > L->jobs) {
			room = 0;
			*what = "job";
		}
		return room < 0 ? 0 : room;
	}
	if (L->slots >= 0)
		tighten(&room, L->slots - used, what, "slot");
	if (L->slots_per_proc >= 0) {
		int cpus = bucket_cpus(lm, li, lm->on_hosts[li] && h != G_MAXUINT ?
		    L->bucket[SCHED_LIM_HOST][h] : 0);

		tighten(&room, sched_cpu_cap(L->slots_per_proc, cpus) -
		    (u->slots - (lm->run_only_cpu[li] ? u->susp_slots : 0) + taken),
		    what, "slot");
	}
	if (L->jobs >= 0 && taken == 0 &&
	    u->jobs - (lm->run_only[li] ? u->susp_jobs : 0) + 1 > L->jobs)
		tighten(&room, 0, what, "job");
	/* An amount the job does not ask for never holds it (amount_room). */
	maxmem = h != G_MAXUINT && (d->mem > 0 || d->swp > 0 || d->tmp > 0) ?
	    lm->snap->hosts[h].maxmem : 0;
	if (d->mem > 0)
		tighten(&room, amount_room(L->mem_pct ? L->mem / 100 * maxmem :
		    L->mem, u->mem + taken * d->mem, d->mem), what, "mem");
	if (d->swp > 0)
		tighten(&room, amount_room(L->swp_pct ? L->swp / 100 * maxmem :
		    L->swp, u->swp + taken * d->swp, d->swp), what, "swp");
	if (d->tmp > 0)
		tighten(&room, amount_room(L->tmp_pct ? L->tmp / 100 * maxmem :
		    L->tmp, u->tmp + taken * d->tmp, d->tmp), what, "tmp");
	for (guint r = 0; r < L->n_res; r++) {
		double ask = res_ask(rr, L->res_names[r]);

		double held = u->res != NULL ? u->res[r] : 0;

		tighten(&room, amount_room(L->res_values[r], held + taken * ask,
		    ask), what, L->res_names[r]);
	}
	return room < 0 ? 0 : room;
}

int
limits_job_room(Limits *lm, const SchedJob *j, SchedPending *pend)
{
	int room = INT_MAX;

	if (lm == NULL)
		return INT_MAX;
	lm->held_relievable = FALSE;
	if (lm->n_job_lims == 0)
		return INT_MAX;
	/* Preemption asks again for the same job with each victim it tries. */
	if (!owner_is(&lm->job_owner, j)) {
		demand_of(lm, j->resreq, &lm->job_dem);
		for (guint jl = 0; jl < lm->n_job_lims; jl++)
			job_key(lm, lm->job_lims[jl], j->user, j->queue, j->project,
			    j->app, &lm->job_keys[jl]);
		owner_set(&lm->job_owner, j);
	}
	for (guint jl = 0; jl < lm->n_job_lims; jl++) {
		guint li = lm->job_lims[jl];
		const char *what = NULL;
		int r;

		/* These limits name no hosts: the key is the job's part. */
		if (!lm->job_keys[jl].covered)
			continue;
		r = bucket_room(lm, li, find(lm, lm->job_keys[jl].base), G_MAXUINT,
		    j->resreq, &lm->job_dem, 0, &what);
		if (r < j->min_slots) {
			/* The first full limit names the reason; no need to
			 * look further. */
			pend->reason = SCHED_PEND_RES_LIMIT;
			pend->limit = lm->snap->limits[li].name;
			pend->limit_res = what;
			pend->limit_on = defined_on(&lm->snap->limits[li], FALSE);
			lm->held_relievable = lm->run_only[li] &&
			    (strcmp(what, "slot") == 0 || strcmp(what, "job") == 0);
			return r;
		}
		room = MIN(room, r);
	}
	return room;
}

void
limits_place_begin(Limits *lm, const SchedJob *j, guint first,
    SchedPending *pend)
{
	if (lm == NULL)
		return;
	lm->cur = j;
	lm->first = first;
	lm->pend = pend;
	demand_of(lm, j->resreq, &lm->dem);
}

int
limits_host_room(Limits *lm, const GArray *allocs, const SchedJob *j,
    guint h, SchedHostReason *why)
{
	int room = INT_MAX;

	if (lm == NULL || !lm->any_hosts)
		return INT_MAX;
	if (lm->cur != j) {
		/* Called outside a placement (preemption): nothing taken yet. */
		lm->cur = j;
		lm->first = allocs->len;
		lm->pend = NULL;
		demand_of(lm, j->resreq, &lm->dem);
	}
	if (!owner_is(&lm->host_owner, j)) {
		for (guint hl = 0; hl < lm->n_host_lims; hl++)
			job_key(lm, lm->host_lims[hl], j->user, j->queue, j->project,
			    j->app, &lm->host_keys[hl]);
		owner_set(&lm->host_owner, j);
	}
	for (guint hl = 0; hl < lm->n_host_lims; hl++) {
		guint li = lm->host_lims[hl], hb;
		const JobKey *jk = &lm->host_keys[hl];
		const char *what = NULL;
		guint64 k, k2;
		int r, taken = 0;

		if (!host_key(lm, li, jk, h, &k, &hb))
			continue;
		/* Slots already chosen for this job in the same bucket. */
		for (guint a = lm->first; a < allocs->len; a++) {
			const SchedAlloc *al = &g_array_index(allocs, SchedAlloc, a);

			if (host_key(lm, li, jk, al->host, &k2, &hb) && k2 == k)
				taken += al->slots;
		}
		r = bucket_room(lm, li, find(lm, k), h, j->resreq, &lm->dem, taken,
		    &what);
		if (r <= 0) {
			*why = SCHED_HR_RES_LIMIT;
			if (lm->pend != NULL) {
				lm->pend->limit = lm->snap->limits[li].name;
				lm->pend->limit_res = what;
				lm->pend->limit_on = defined_on(&lm->snap->limits[li], TRUE);
			}
			return 0;
		}
		room = MIN(room, r);
	}
	return room;
}

void
limits_commit(Limits *lm, const GArray *allocs, const SchedJob *j,
    guint first, guint n)
{
	if (lm == NULL)
		return;
	charge_job(lm, j->user, j->queue, j->project, j->app, j->resreq,
	    &g_array_index(allocs, SchedAlloc, first), n, FALSE, 1);
	lm->cur = NULL;
}

void
limits_kill(Limits *lm, const SchedRunning *r, int sign)
{
	const Charge *c;
	const Demand *d;
	guint n;

	if (lm == NULL)
		return;
	c = run_charges(lm, r, &n, &d);
	if (c == NULL)
		charge_job(lm, r->user, r->queue, r->project, r->app, r->resreq,
		    r->allocs, r->n_allocs, r->state != SCHED_RUN_RUN, -sign);
	else
		apply_charges(lm, c, n, r->resreq, d, r->state != SCHED_RUN_RUN,
		    -sign);
}

void
limits_suspend(Limits *lm, const SchedRunning *r, int sign)
{
	const Charge *c;
	const Demand *d;
	guint n;

	if (lm == NULL)
		return;
	c = run_charges(lm, r, &n, &d);
	if (c == NULL) {
		lm->scratch.len = 0;
		collect(lm, r->user, r->queue, r->project, r->app, r->allocs,
		    r->n_allocs, &lm->scratch);
		c = lm->scratch.v;
		n = lm->scratch.len;
	}
	for (guint i = 0; i < n; i++) {
		Use *u = &g_array_index(lm->use, Use, c[i].use);

		u->susp_jobs += sign * c[i].job;
		u->susp_slots += sign * c[i].slots;
	}
}

gboolean
limits_held_relievable(const Limits *lm)
{
	return lm != NULL && lm->held_relievable;
}

gboolean
limits_hosts_read_job(const Limits *lm)
{
	return lm != NULL && lm->host_reads_job;
}

gboolean
limits_job_varies(const Limits *lm, const SchedJob *j)
{
	if (lm == NULL || j->resreq == NULL)
		return FALSE;
	for (guint li = 0; li < lm->snap->n_limits; li++) {
		const SchedLimit *L = &lm->snap->limits[li];

		if ((L->swp >= 0 && bs_resreq_rusage(j->resreq, "swp") > 0) ||
		    (L->tmp >= 0 && bs_resreq_rusage(j->resreq, "tmp") > 0))
			return TRUE;
		for (guint r = 0; r < L->n_res; r++)
			if (bs_resreq_rusage(j->resreq, L->res_names[r]) > 0)
				return TRUE;
	}
	return FALSE;
}

/* ---- Outside a pass: blimits and the slot-pool count ---------------- */

GArray *
sched_limits_usage(const SchedSnapshot *snap)
{
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(SchedLimitUsage));
	Limits *lm = limits_new(snap);

	for (guint i = 0; lm != NULL && i < lm->use->len; i++) {
		const Use *u = &g_array_index(lm->use, Use, i);
		const SchedLimit *L = &snap->limits[u->limit];
		SchedLimitUsage row = { 0 };

		row.limit = u->limit;
		for (int d = 0; d < SCHED_LIM_NDIM; d++)
			if (L->per[d] && L->bucket_names[d] != NULL && u->members[d] > 0)
				row.member[d] = L->bucket_names[d][u->members[d]];
		row.slots_used = L->slots >= 0 || L->slots_per_proc >= 0 ?
		    u->slots - (lm->run_only[u->limit] ? u->susp_slots : 0) : -1;
		row.slots_max = L->slots;
		if (L->slots_per_proc >= 0) {
			int cpus = bucket_cpus(lm, u->limit,
			    u->members[SCHED_LIM_HOST]), cap;

			cap = sched_cpu_cap(L->slots_per_proc, cpus);
			row.slots_max = row.slots_max >= 0 ? MIN(row.slots_max, cap) : cap;
		}
		row.jobs_used = L->jobs >= 0 ? u->jobs : -1;
		row.jobs_max = L->jobs;
		row.mem_used = L->mem >= 0 ? u->mem : -1;
		row.mem_max = L->mem;
		row.swp_used = L->swp >= 0 ? u->swp : -1;
		row.swp_max = L->swp;
		row.tmp_used = L->tmp >= 0 ? u->tmp : -1;
		row.tmp_max = L->tmp;
		if (L->n_res > 0) {
			row.res_used = g_new0(double, L->n_res);
			memcpy(row.res_used, u->res, sizeof(double) * L->n_res);
		}
		g_array_append_val(rows, row);
	}
	limits_free(lm);
	return rows;
}

void
sched_limits_usage_free(GArray *rows)
{
	if (rows == NULL)
		return;
	for (guint i = 0; i < rows->len; i++)
		g_free(g_array_index(rows, SchedLimitUsage, i).res_used);
	g_array_free(rows, TRUE);
}

/*
 * A limit binds every job of queue q when it covers the queue and names
 * no users, projects, profiles or hosts that could leave some of its
 * jobs out; its room is then the queue's room too.  Resources other than
 * slots and jobs depend on each job's rusage and are left out.
 */
int
limits_queue_room(Limits *lm, guint q)
{
	int room = INT_MAX;

	for (guint li = 0; lm != NULL && li < lm->snap->n_limits; li++) {
		const SchedLimit *L = &lm->snap->limits[li];
		guint m[SCHED_LIM_NDIM] = { 0 }, mb[SCHED_LIM_NDIM];
		const char *what = NULL;
		Demand none = { 0 };
		guint64 k;

		if (L->bucket[SCHED_LIM_USER] != NULL ||
		    L->bucket[SCHED_LIM_HOST] != NULL ||
		    L->bucket[SCHED_LIM_PROJECT] != NULL ||
		    L->bucket[SCHED_LIM_APP] != NULL)
			continue;
		m[SCHED_LIM_QUEUE] = q;
		if (!bucket_of(lm, li, m, &k, mb))
			continue;
		room = MIN(room, bucket_room(lm, li, find(lm, k), G_MAXUINT, NULL,
		    &none, 0, &what));
	}
	return room;
}

int
sched_limits_queue_room(const SchedSnapshot *snap, guint q)
{
	Limits *lm = limits_new(snap);
	int room = limits_queue_room(lm, q);

	limits_free(lm);
	return room;
}
