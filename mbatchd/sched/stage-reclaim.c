/*
 * Stage: resource reclaim.  Rule: seeds/symphony-resource-reclaim.txt
 * (every paragraph) and the "Reclaim", "Reclaim grace period" and
 * "Disable reclaim when owned slots are proportionally reduced"
 * paragraphs of seeds/symphony-hybrid-policy.txt, as read in decisions.md
 * ("Resource reclaim", "Hybrid policy").  Runs at the end of the pass,
 * after placement, over the quota table the entitlement stage left
 * (SchedPlan.quotas):
 *
 *   when   in a resource group, leaf consumers under their quota still
 *          have demand (min(quota, demand) above alloc) and the group's
 *          idle slots do not cover it ("Reclaim": the second step, after
 *          the idle slots are distributed).  Slots of jobs already under
 *          reclaim count as coming back, until SCHED_RECLAIM_LEEWAY
 *          seconds past their grace deadline (the 120-second leeway is a
 *          bound on waiting, decisions.md).  With
 *          RECLAIM_OWNED_BEFORE_BORROW a consumer that lent slots takes
 *          its lent slots back even while idle slots exist elsewhere.
 *          And at a plan change (seed "Time interval transitions";
 *          hybrid seed "Switching policies using time windows"): on the
 *          first pass whose plan in force differs from the previous
 *          pass's (a TIME_WINDOW boundary, SchedSnapshot.prev_pass) or
 *          after a badmin reconfig that changed the group's plan
 *          (plan_reloaded, SchedResourceGroup.plan_changed: a reconfig
 *          that leaves the group's plan, tree and hosts alone is no plan
 *          change for it), every leaf gives back what it holds above its
 *          new quota whether or not another consumer asks; a leaf whose
 *          POLICY switched between ownership and hybrid (by the window,
 *          or by the reconfig: SchedResourceGroup.prev_policy) gives
 *          back what it holds above its new owned (what it lent or
 *          borrowed).  Such a reclaim is for no consumer
 *          (SchedReclaim.to -1) unless one needs the slots.  Reading of
 *          "ownership decreases, a lender has slots available": the new
 *          quota already counts what the lender may lend, so those slots
 *          turn from owned to borrowed and nothing is interrupted.
 *   from   leaf consumers holding more than their quota, each only as far
 *          as the others need (at a plan change, its whole excess).
 *          DISABLE_RECLAIM_HYBRID_OWN: a hybrid
 *          consumer whose owned slots were scaled down is brought down to
 *          its configured owned, not to its quota (the seed's 10/100 at
 *          90 slots using 12: 2, not 3).
 *   order  borrowed slots first (above the consumer's owned; a slot
 *          reclaimed for a consumer as borrowed must be on a host one of
 *          that consumer's pending jobs could use by its -R select and
 *          rusage[mem], any host when one of them asks nothing: jobs on
 *          other hosts are passed over), then shared slots (share policy; not with
 *          RECLAIM_SHARED=N), then owned slots above the quota; within
 *          each, the lowest rank first (largest number), then by
 *          RECLAIM_CRITERIA: PolicyDefault the most over-allocated
 *          consumer first; MostRecentTask the consumer whose job started
 *          last first.  The seed's PolicyDefault fallback ("if no session
 *          is over-allocated, select the least under-allocated") has no
 *          case: only leaves above their quota give slots, and a session
 *          (a queue's jobs within the consumer) has no quota of its own,
 *          so each one holding slots counts as over-allocated by them.
 *   jobs   within a consumer, the least important job first: the queue's
 *          PRIORITY, then bsub -sp (decisions.md: session priority and
 *          preemption rank); a job on a host held by a bsub -x job counts
 *          at the importance of the most important job there.  Among
 *          equals: MostRecentTask the most recently started; PolicyDefault
 *          the job of the consumer's queue ("session") holding the most
 *          slots, then the most recently started.
 *   grace  the over-allocated consumer's GRACE_PERIOD in the group; with
 *          USE_ANCESTOR_GRACE_PERIOD_FOR_RECLAIM the closest common
 *          ancestor's of the two consumers (the leaf's when they share
 *          none).
 *   host   badmin hclose -reclaim: every job on the host is reclaimed
 *          with its consumer's grace (0 outside consumers).
 *
 * Idle slots are counted by the entitlement stage's rule (sched_host_idle
 * in pass.h: hosts closed or outside their dispatch window have none;
 * SLOT_RESERVE reservations and this pass's placements count as used).
 * Each consumer's running jobs are listed once per pass.
 *
 * The stage adds a SCHED_DO_RECLAIM_NOTICE per job chosen (the daemon
 * sends the warning action and journals the deadline); a job whose
 * journaled deadline passed gets SCHED_DO_RECLAIM_REQUEUE; a zero grace
 * gets both at once.  The plan wakes the scheduler at the next deadline:
 * no polling.  The slot goes to the needing consumer on a later pass, when
 * the job has gone.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "hybrid.h"
#include "pass.h"

const char *
sched_reclaim_kind_name(SchedReclaimKind k)
{
	switch (k) {
	case SCHED_RECLAIM_BORROWED:
		return "borrowed";
	case SCHED_RECLAIM_SHARED:
		return "shared";
	case SCHED_RECLAIM_OWNED:
		return "owned";
	default:
		return "host";
	}
}

typedef struct {
	const SchedSnapshot *s;
	const SchedPlan *plan;
	guint n_c, n_g;
	guint *host_group;        /* [n_hosts] 1 + group, 0: none */
	const SchedConsumerQuota **row; /* [g * n_c + c] */
	const SchedPlanTerms **terms;   /* [g * n_c + c] */
	gboolean *leaf;           /* [n_c] */
	int *coming;              /* [g * n_c + c]: slots under reclaim */
	int *need;                /* [g * n_c + c]: leaves' unmet need */
	int *placed;              /* [g * n_c + c]: started by this pass */
	int *idle;                /* [n_g] */
	int *host_imp;            /* [n_hosts]: most important exclusive job, INT_MIN */
	gboolean *taken;          /* [n_running] */
	/* Each consumer's running jobs, built once: by_c[first[c] ..
	 * first[c + 1]) are the indexes into SchedSnapshot.running of the
	 * jobs of consumer c (so candidates and MostRecentTask read a
	 * consumer's jobs, not every running job, per group and phase). */
	guint *first;             /* [n_c + 1] */
	guint *by_c;              /* [n_running] */
	gint64 *last_start;       /* [n_c]: MostRecentTask only, else NULL */
	/* Plan transitions: the group's plan in force changed since the
	 * previous pass (a TIME_WINDOW boundary) or was reloaded (badmin
	 * reconfig); switched: the consumer's POLICY differs between the
	 * plan of the previous pass and the plan now. */
	gboolean *transition;     /* [n_g] */
	gboolean *switched;       /* [g * n_c + c] */
	/* What the consumer's pending jobs ask of a host (-R select and
	 * rusage[mem]), for borrowed slots reclaimed for it: any_host, one
	 * of them asks nothing; else reqs lists those that do. */
	gboolean *any_host;       /* [n_c] */
	GPtrArray **reqs;         /* [n_c], NULL: none */
	GArray *out;
} Sel;

#define AT(sel, g, c) ((g) * (sel)->n_c + (c))

/* The consumer's policy under the group's plan in force (a Plan's POLICY
 * column may switch a branch); its own when the terms leave it out. */
static SchedConsumerPolicy
policy_of(const Sel *sel, guint g, guint c)
{
	const SchedPlanTerms *t = sel->terms[AT(sel, g, c)];

	return t != NULL ? t->policy : sel->s->consumers[c].policy;
}

/* Importance: queue PRIORITY first, then -sp; folded into one number. */
static int
job_importance(const Sel *sel, const SchedRunning *r)
{
	int imp = sel->s->queues[r->queue].priority * 100000 +
	    CLAMP(r->user_priority, 0, 99999);

	for (guint a = 0; a < r->n_allocs; a++)
		if (sel->host_imp[r->allocs[a].host] > imp)
			imp = sel->host_imp[r->allocs[a].host];
	return imp;
}

static int
job_slots_in(const Sel *sel, const SchedRunning *r, guint g)
{
	int n = 0;

	for (guint a = 0; a < r->n_allocs; a++)
		if (sel->host_group[r->allocs[a].host] == g + 1)
			n += r->allocs[a].slots;
	return n;
}

/* Killed already, or under reclaim: not chosen (again). */
static gboolean
job_leaving(const SchedRunning *r)
{
	return r->terminating || r->reclaim_deadline != 0;
}

/* Whether group g's plan changed since the previous pass, and which
 * consumers' POLICY it switched ("Switching policies using time windows":
 * a branch moving between ownership and hybrid gives back what it lent
 * and borrowed, and what it uses above its new owned slots). */
static void
mark_transition(Sel *sel, guint g, const SchedPlanInForce *now)
{
	const SchedSnapshot *s = sel->s;
	const SchedResourceGroup *rg = &s->rgroups[g];
	SchedPlanInForce was;

	/* After a reconfig the daemon compared the previous configuration's
	 * plan at the previous pass with this one (window boundaries in
	 * between included): only a group whose plan changed transits, and
	 * its consumers' previous POLICY is the one that plan gave. */
	if (s->plan_reloaded) {
		if (!rg->plan_changed)
			return;
		sel->transition[g] = TRUE;
		for (guint c = 0; rg->prev_policy != NULL && c < sel->n_c; c++) {
			SchedConsumerPolicy after = s->consumers[c].policy;
			int before = rg->prev_policy[c];

			for (guint t = 0; t < now->n_terms; t++)
				if (now->terms[t].consumer == c)
					after = now->terms[t].policy;
			sel->switched[AT(sel, g, c)] = before >= 0 &&
			    (SchedConsumerPolicy)before != after &&
			    before != SCHED_POLICY_SHARE && after != SCHED_POLICY_SHARE;
		}
		return;
	}
	if (s->prev_pass <= 0 || s->prev_pass >= s->now)
		return;
	was = sched_plan_in_force_at(s, g, s->prev_pass, NULL);
	if (was.window == now->window)
		return;
	sel->transition[g] = TRUE;
	for (guint c = 0; c < sel->n_c; c++) {
		SchedConsumerPolicy before = s->consumers[c].policy;
		SchedConsumerPolicy after = s->consumers[c].policy;

		for (guint t = 0; t < was.n_terms; t++)
			if (was.terms[t].consumer == c)
				before = was.terms[t].policy;
		for (guint t = 0; t < now->n_terms; t++)
			if (now->terms[t].consumer == c)
				after = now->terms[t].policy;
		sel->switched[AT(sel, g, c)] = before != after &&
		    before != SCHED_POLICY_SHARE && after != SCHED_POLICY_SHARE;
	}
}

static void
measure(Sel *sel)
{
	const SchedSnapshot *s = sel->s;
	const SchedPlan *plan = sel->plan;

	for (guint g = 0; g < sel->n_g; g++) {
		const SchedResourceGroup *rg = &s->rgroups[g];
		/* The terms of the plan in force now (TIME_WINDOW), the ones
		 * the entitlement stage used (plan-window.c). */
		SchedPlanInForce f = sched_plan_in_force(s, g, NULL);

		for (guint i = 0; i < rg->n_hosts; i++)
			if (sel->host_group[rg->hosts[i]] == 0)
				sel->host_group[rg->hosts[i]] = g + 1;
		for (guint t = 0; t < f.n_terms; t++)
			sel->terms[AT(sel, g, f.terms[t].consumer)] = &f.terms[t];
		mark_transition(sel, g, &f);
		sel->idle[g] = plan->group_idle != NULL ? plan->group_idle[g] : 0;
	}
	for (guint i = 0; i < plan->n_quotas; i++) {
		const SchedConsumerQuota *q = &plan->quotas[i];

		if (q->group < sel->n_g && q->consumer < sel->n_c)
			sel->row[AT(sel, q->group, q->consumer)] = q;
	}
	for (guint c = 0; c < sel->n_c; c++)
		sel->leaf[c] = TRUE;
	for (guint c = 0; c < sel->n_c; c++)
		if (s->consumers[c].parent >= 0)
			sel->leaf[s->consumers[c].parent] = FALSE;
	/* A host an exclusive job holds counts at the importance of its
	 * most important job (the seed's exclusive-host rule): marked by
	 * the exclusive jobs first, raised by every job there next. */
	for (guint h = 0; h < s->n_hosts; h++)
		sel->host_imp[h] = INT_MIN;
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];
		int imp = s->queues[r->queue].priority * 100000 +
		    CLAMP(r->user_priority, 0, 99999);

		for (guint a = 0; a < r->n_allocs; a++) {
			guint h = r->allocs[a].host;

			if (r->exclusive && imp > sel->host_imp[h])
				sel->host_imp[h] = imp;
		}
	}
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];
		int imp = s->queues[r->queue].priority * 100000 +
		    CLAMP(r->user_priority, 0, 99999);

		for (guint a = 0; a < r->n_allocs; a++) {
			guint h = r->allocs[a].host;

			if (sel->host_imp[h] != INT_MIN && imp > sel->host_imp[h])
				sel->host_imp[h] = imp;
		}
		if (r->reclaim_deadline != 0 && r->consumer != 0 &&
		    r->consumer <= sel->n_c &&
		    s->now <= r->reclaim_deadline + SCHED_RECLAIM_LEEWAY)
			for (guint g = 0; g < sel->n_g; g++)
				sel->coming[AT(sel, g, r->consumer - 1)] +=
				    job_slots_in(sel, r, g);
	}
	for (guint i = 0; i < plan->decisions->len; i++) {
		const SchedDecision *d = sched_plan_decision(plan, i);
		guint jc;

		/* A running job this pass already suspends, resumes or kills
		 * (preemption, windows, -t) is left to that decision. */
		if (d->kind != SCHED_DO_DISPATCH && d->kind != SCHED_DO_DEADLINE_EXIT &&
		    d->kind != SCHED_DO_RECLAIM_NOTICE &&
		    d->kind != SCHED_DO_RECLAIM_REQUEUE && d->job < s->n_running)
			sel->taken[d->job] = TRUE;
		if (d->kind != SCHED_DO_DISPATCH)
			continue;
		jc = s->pending[d->job].consumer;
		for (guint a = d->first_alloc; a < d->first_alloc + d->n_allocs; a++) {
			const SchedAlloc *al = &g_array_index(plan->allocs, SchedAlloc, a);
			guint g = sel->host_group[al->host];

			if (g != 0 && jc != 0 && jc <= sel->n_c)
				sel->placed[AT(sel, g - 1, jc - 1)] += al->slots;
		}
	}
	/* Each consumer's running jobs, once (counting sort by consumer). */
	for (guint i = 0; i < s->n_running; i++)
		if (s->running[i].consumer != 0 && s->running[i].consumer <= sel->n_c)
			sel->first[s->running[i].consumer]++;
	for (guint c = 0; c < sel->n_c; c++)
		sel->first[c + 1] += sel->first[c];
	{
		g_autofree guint *fill = g_memdup2(sel->first, sizeof(guint) * (sel->n_c + 1));

		for (guint i = 0; i < s->n_running; i++) {
			guint c = s->running[i].consumer;

			if (c != 0 && c <= sel->n_c)
				sel->by_c[fill[c - 1]++] = i;
		}
	}
	if (s->reclaim.criteria == SCHED_RECLAIM_MOST_RECENT_TASK) {
		sel->last_start = g_new0(gint64, MAX(1u, sel->n_c));
		for (guint c = 0; c < sel->n_c; c++)
			for (guint k = sel->first[c]; k < sel->first[c + 1]; k++)
				sel->last_start[c] = MAX(sel->last_start[c],
				    s->running[sel->by_c[k]].start_time);
	}
}

/* The grace period of reclaiming from `from` for `to` in group g. */
static int
grace_of(const Sel *sel, guint g, int from, int to)
{
	const SchedSnapshot *s = sel->s;
	const SchedPlanTerms *t;
	int anc = -1;

	if (from < 0)
		return 0;
	if (s->reclaim.ancestor_grace && to >= 0) {
		for (int a = s->consumers[from].parent; a >= 0 && anc < 0;
		     a = s->consumers[a].parent)
			for (int b = s->consumers[to].parent; b >= 0; b = s->consumers[b].parent)
				if (a == b) {
					anc = a;
					break;
				}
	}
	t = sel->terms[AT(sel, g, anc >= 0 ? (guint)anc : (guint)from)];
	return t != NULL ? MAX(0, t->grace_period) : 0;
}

typedef struct {
	const Sel *sel;
} JobCmp;

typedef struct {
	guint i;
	int imp;
	int session;
	gint64 start;
} Cand;

static int
cand_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const Cand *x = a, *y = b;
	const JobCmp *jc = data;

	if (x->imp != y->imp)
		return x->imp < y->imp ? -1 : 1;
	if (jc->sel->s->reclaim.criteria == SCHED_RECLAIM_POLICY_DEFAULT &&
	    x->session != y->session)
		return x->session > y->session ? -1 : 1;
	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	return x->i > y->i ? -1 : (x->i < y->i);
}

/* The consumer's jobs in group g that may be reclaimed, in order. */
static GArray *
candidates(Sel *sel, guint g, guint c)
{
	const SchedSnapshot *s = sel->s;
	GArray *v = g_array_new(FALSE, FALSE, sizeof(Cand));
	g_autofree int *session = g_new0(int, s->n_queues);
	JobCmp jc = { sel };

	for (guint x = sel->first[c]; x < sel->first[c + 1]; x++) {
		guint i = sel->by_c[x];
		const SchedRunning *r = &s->running[i];

		if (!sel->taken[i] && !job_leaving(r) && hybrid_holds_slots(r))
			session[r->queue] += job_slots_in(sel, r, g);
	}
	for (guint x = sel->first[c]; x < sel->first[c + 1]; x++) {
		guint i = sel->by_c[x];
		const SchedRunning *r = &s->running[i];
		Cand k;

		if (sel->taken[i] || job_leaving(r) || job_slots_in(sel, r, g) == 0 ||
		    !hybrid_holds_slots(r))
			continue;
		k.i = i;
		k.imp = job_importance(sel, r);
		k.session = session[r->queue];
		k.start = r->start_time;
		g_array_append_val(v, k);
	}
	g_array_sort_with_data(v, cand_cmp, &jc);
	return v;
}

/* The leaf it is reclaimed for: the first with need left, lenders
 * first for borrowed slots, then by rank and plan order. */
static int
pick_for(Sel *sel, guint g, SchedReclaimKind kind)
{
	int best = -1;
	const SchedPlanTerms *bt = NULL;

	for (int pass = 0; pass < 2 && best < 0; pass++)
		for (guint c = 0; c < sel->n_c; c++) {
			const SchedConsumerQuota *q = sel->row[AT(sel, g, c)];
			const SchedPlanTerms *t = sel->terms[AT(sel, g, c)];

			if (!sel->leaf[c] || sel->need[AT(sel, g, c)] <= 0)
				continue;
			if (pass == 0 && (kind != SCHED_RECLAIM_BORROWED ||
			    q == NULL || q->alloc >= q->owned))
				continue;
			if (best < 0 || (t != NULL && bt != NULL && t->rank < bt->rank)) {
				best = (int)c;
				bt = t;
			}
		}
	return best;
}

/* The consumer's pending jobs, by what they ask of a host. */
static void
index_requirements(Sel *sel)
{
	const SchedSnapshot *s = sel->s;

	for (guint i = 0; i < s->n_pending; i++) {
		const SchedJob *j = &s->pending[i];
		guint c = j->consumer - 1;

		if (j->consumer == 0 || j->consumer > sel->n_c)
			continue;
		if (!sched_resreq_constrains(j->resreq)) {
			sel->any_host[c] = TRUE;
			continue;
		}
		if (sel->reqs[c] == NULL)
			sel->reqs[c] = g_ptr_array_new();
		g_ptr_array_add(sel->reqs[c], (gpointer)j);
	}
}

/* Whether running job r holds, in group g, a slot that meets the
 * resource requirement of consumer `to` (seed: a borrowed slot is
 * reclaimed as "a different physical resource (that meets the resource
 * requirements)"): a host one of its pending jobs could use by its -R.
 * A consumer without pending jobs asks nothing of a host. */
static gboolean
meets_requirement(const Sel *sel, guint g, guint to, const SchedRunning *r)
{
	const GPtrArray *reqs = sel->reqs[to];

	if (sel->any_host[to] || reqs == NULL)
		return TRUE;
	for (guint a = 0; a < r->n_allocs; a++) {
		guint h = r->allocs[a].host;

		if (sel->host_group[h] != g + 1)
			continue;
		for (guint k = 0; k < reqs->len; k++) {
			const SchedJob *j = g_ptr_array_index(reqs, k);

			if (sched_resreq_host_ok(j->resreq, &sel->s->hosts[h]))
				return TRUE;
		}
	}
	return FALSE;
}

/* Take up to `amount` slots from leaf c in group g; returns slots taken. */
static int
take_from(Sel *sel, guint g, guint c, int amount, int *deficit,
    SchedReclaimKind kind)
{
	GArray *v = candidates(sel, g, c);
	int took = 0;

	for (guint k = 0; k < v->len && took < amount && *deficit > 0; k++) {
		const Cand *cd = &g_array_index(v, Cand, k);
		const SchedRunning *r = &sel->s->running[cd->i];
		SchedReclaim rc = { 0 };
		int n = job_slots_in(sel, r, g);
		int to = pick_for(sel, g, kind);

		/* A borrowed slot comes back as one its lender can use. */
		if (kind == SCHED_RECLAIM_BORROWED && to >= 0 &&
		    !meets_requirement(sel, g, (guint)to, r))
			continue;
		rc.job = cd->i;
		rc.group = g;
		rc.from = (int)c;
		rc.to = to;
		rc.slots = n;
		rc.kind = kind;
		rc.grace = grace_of(sel, g, (int)c, to);
		rc.deadline = sel->s->now + rc.grace;
		g_array_append_val(sel->out, rc);
		sel->taken[cd->i] = TRUE;
		took += n;
		*deficit -= n;
		for (int left = n; left > 0 && to >= 0;) {
			int *nd = &sel->need[AT(sel, g, (guint)to)];
			int m = MIN(left, *nd);

			*nd -= m;
			left -= m;
			to = pick_for(sel, g, kind);
		}
	}
	g_array_free(v, TRUE);
	return took;
}

typedef struct {
	guint c;
	int amount;
	int rank;
	guint pos;
	gint64 last_start;
} Over;

static int
over_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const Over *x = a, *y = b;
	const SchedSnapshot *s = data;

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (s->reclaim.criteria == SCHED_RECLAIM_MOST_RECENT_TASK &&
	    x->last_start != y->last_start)
		return x->last_start > y->last_start ? -1 : 1;
	if (x->amount != y->amount)
		return x->amount > y->amount ? -1 : 1;
	return x->pos > y->pos ? -1 : (x->pos < y->pos);
}

static void
reclaim_group(Sel *sel, guint g)
{
	const SchedSnapshot *s = sel->s;
	int need = 0, coming = 0, own_need = 0, deficit;
	g_autofree int *over = g_new0(int, sel->n_c);
	g_autofree int *enforce = g_new0(int, sel->n_c);

	for (guint c = 0; c < sel->n_c; c++) {
		const SchedConsumerQuota *q = sel->row[AT(sel, g, c)];
		int n;

		if (q == NULL || !sel->leaf[c])
			continue;
		n = MAX(0, MIN(q->quota, q->demand) - q->alloc);
		need += n;
		/* RECLAIM_OWNED_BEFORE_BORROW: what a lender needed as the
		 * pass began, before it started on idle slots, up to what it
		 * lent (the lender's row shows lent only while under owned). */
		if (s->reclaim.owned_before_borrow) {
			int before = q->alloc - sel->placed[AT(sel, g, c)];

			int own = MAX(0, MIN(MIN(q->quota, q->demand), q->owned) - before);

			own_need += own;
			n = MAX(n, own);
		}
		sel->need[AT(sel, g, c)] = n;
		coming += sel->coming[AT(sel, g, c)];
	}
	deficit = need - sel->idle[g];
	if (s->reclaim.owned_before_borrow)
		deficit = MAX(deficit, own_need);
	deficit -= coming;
	/* At a plan transition the excess goes back whether or not anyone
	 * asks for it (seed "Time interval transitions"): every leaf above
	 * its new quota, or above its new owned when its POLICY switched
	 * between ownership and hybrid (what it lent comes back from its
	 * borrowers, what it borrowed goes back). */
	if (sel->transition[g]) {
		int excess = 0;

		for (guint c = 0; c < sel->n_c; c++) {
			const SchedConsumerQuota *q = sel->row[AT(sel, g, c)];
			int ceiling;

			if (q == NULL || !sel->leaf[c])
				continue;
			ceiling = q->quota;
			/* A POLICY switch: what it used under the old plan
			 * ("used slots in T1", before this pass started any)
			 * above its new owned; what this pass started it
			 * started under the new plan. */
			if (sel->switched[AT(sel, g, c)])
				ceiling = MIN(q->quota, q->owned +
				    sel->placed[AT(sel, g, c)]);
			/* DISABLE_RECLAIM_HYBRID_OWN holds at a change too: a
			 * hybrid consumer keeps up to its configured owned. */
			if (!sel->switched[AT(sel, g, c)] && s->reclaim.disable_hybrid_own &&
			    policy_of(sel, g, c) == SCHED_POLICY_HYBRID &&
			    q->owned_conf > ceiling)
				ceiling = MIN(q->owned_conf, q->alloc);
			enforce[c] = MAX(0, q->alloc - ceiling - sel->coming[AT(sel, g, c)]);
			excess += enforce[c];
		}
		deficit = MAX(deficit, excess);
	}
	if (deficit <= 0)
		return;
	for (guint c = 0; c < sel->n_c; c++) {
		const SchedConsumerQuota *q = sel->row[AT(sel, g, c)];
		int keep;

		if (q == NULL || !sel->leaf[c])
			continue;
		keep = q->quota;
		if (s->reclaim.disable_hybrid_own &&
		    policy_of(sel, g, c) == SCHED_POLICY_HYBRID &&
		    q->owned_conf > keep)
			keep = MIN(q->owned_conf, q->alloc);
		over[c] = MAX(0, q->alloc - keep - sel->coming[AT(sel, g, c)]);
		/* RECLAIM_OWNED_BEFORE_BORROW: a lender with need takes its
		 * slots back from borrowers even within their quotas, before
		 * it would borrow idle slots (bounded by own_need below). */
		if (s->reclaim.owned_before_borrow && own_need > 0 &&
		    s->consumers[c].policy != SCHED_POLICY_SHARE)
			over[c] = MAX(over[c], q->alloc - q->owned -
			    sel->coming[AT(sel, g, c)]);
		over[c] = MAX(over[c], enforce[c]);
	}
	for (int phase = SCHED_RECLAIM_BORROWED; phase <= SCHED_RECLAIM_OWNED &&
	     deficit > 0; phase++) {
		GArray *v = g_array_new(FALSE, FALSE, sizeof(Over));

		for (guint c = 0; c < sel->n_c; c++) {
			const SchedConsumerQuota *q = sel->row[AT(sel, g, c)];
			/* The policy of the plan in force (POLICY column). */
			gboolean share = policy_of(sel, g, c) == SCHED_POLICY_SHARE;
			Over o = { .c = c };

			if (over[c] <= 0 || q == NULL)
				continue;
			if (phase == SCHED_RECLAIM_BORROWED)
				o.amount = share ? 0 : MIN(over[c], MAX(0, q->alloc - q->owned));
			else if (phase == SCHED_RECLAIM_SHARED)
				o.amount = share && !s->reclaim.keep_shared ? over[c] : 0;
			else
				o.amount = share ? 0 : over[c];
			if (o.amount <= 0)
				continue;
			o.rank = q->rank;
			o.pos = c;
			if (sel->last_start != NULL)
				o.last_start = sel->last_start[c];
			g_array_append_val(v, o);
		}
		g_array_sort_with_data(v, over_cmp, (gpointer)s);
		for (guint k = 0; k < v->len && deficit > 0; k++) {
			const Over *o = &g_array_index(v, Over, k);

			over[o->c] -= take_from(sel, g, o->c, o->amount, &deficit,
			    (SchedReclaimKind)phase);
		}
		g_array_free(v, TRUE);
	}
}

static void
reclaim_hosts(Sel *sel)
{
	const SchedSnapshot *s = sel->s;

	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];
		SchedReclaim rc = { 0 };
		guint g = G_MAXUINT;

		if (sel->taken[i] || job_leaving(r))
			continue;
		for (guint a = 0; a < r->n_allocs; a++)
			if (s->hosts[r->allocs[a].host].reclaim) {
				rc.slots += r->allocs[a].slots;
				if (sel->host_group[r->allocs[a].host] != 0)
					g = sel->host_group[r->allocs[a].host] - 1;
			}
		if (rc.slots == 0)
			continue;
		rc.job = i;
		rc.group = g;
		rc.from = r->consumer != 0 && r->consumer <= sel->n_c ?
		    (int)r->consumer - 1 : -1;
		rc.to = -1;
		rc.kind = SCHED_RECLAIM_HOST_CLOSE;
		rc.grace = g != G_MAXUINT ? grace_of(sel, g, rc.from, -1) : 0;
		rc.deadline = s->now + rc.grace;
		sel->taken[i] = TRUE;
		g_array_append_val(sel->out, rc);
	}
}

/* Without a resource plan only a closing host reclaims: with none, there
 * is nothing to select, and no need to go over every running job. */
static gboolean
nothing_to_reclaim(const SchedSnapshot *s, const SchedPlan *plan)
{
	if (s->n_consumers > 0 || s->n_rgroups > 0 || plan->n_quotas > 0)
		return FALSE;
	for (guint h = 0; h < s->n_hosts; h++)
		if (s->hosts[h].reclaim)
			return FALSE;
	return TRUE;
}

void
sched_reclaim_select(const SchedSnapshot *s, const SchedPlan *plan, GArray *out)
{
	Sel sel = { .s = s, .plan = plan, .out = out };
	guint n;

	if (nothing_to_reclaim(s, plan))
		return;
	sel.n_c = s->n_consumers;
	sel.n_g = s->n_rgroups;
	n = sel.n_c * sel.n_g;
	sel.host_group = g_new0(guint, s->n_hosts);
	sel.row = g_new0(const SchedConsumerQuota *, n);
	sel.terms = g_new0(const SchedPlanTerms *, n);
	sel.leaf = g_new0(gboolean, sel.n_c);
	sel.coming = g_new0(int, n);
	sel.need = g_new0(int, n);
	sel.placed = g_new0(int, n);
	sel.idle = g_new0(int, sel.n_g);
	sel.host_imp = g_new0(int, s->n_hosts);
	sel.taken = g_new0(gboolean, s->n_running);
	sel.first = g_new0(guint, sel.n_c + 1);
	sel.by_c = g_new0(guint, MAX(1u, s->n_running));
	sel.transition = g_new0(gboolean, MAX(1u, sel.n_g));
	sel.switched = g_new0(gboolean, MAX(1u, n));
	sel.any_host = g_new0(gboolean, MAX(1u, sel.n_c));
	sel.reqs = g_new0(GPtrArray *, MAX(1u, sel.n_c));
	index_requirements(&sel);
	measure(&sel);
	reclaim_hosts(&sel);
	if (plan->quotas != NULL)
		for (guint g = 0; g < sel.n_g; g++)
			reclaim_group(&sel, g);
	g_free(sel.host_group);
	g_free(sel.row);
	g_free(sel.terms);
	g_free(sel.leaf);
	g_free(sel.coming);
	g_free(sel.need);
	g_free(sel.placed);
	g_free(sel.idle);
	g_free(sel.host_imp);
	g_free(sel.taken);
	g_free(sel.first);
	g_free(sel.by_c);
	g_free(sel.last_start);
	g_free(sel.transition);
	g_free(sel.switched);
	for (guint c = 0; c < sel.n_c; c++)
		if (sel.reqs[c] != NULL)
			g_ptr_array_free(sel.reqs[c], TRUE);
	g_free(sel.reqs);
	g_free(sel.any_host);
}

int *
sched_reclaim_counts(const SchedSnapshot *s, const SchedPlan *plan)
{
	guint n_c = s->n_consumers, n_g = s->n_rgroups;
	int *out = g_new0(int, MAX(1u, n_c * n_g));
	g_autofree guint *host_group = g_new0(guint, MAX(1u, s->n_hosts));
	g_autofree gboolean *now = g_new0(gboolean, MAX(1u, s->n_running));

	for (guint g = 0; g < n_g; g++)
		for (guint i = 0; i < s->rgroups[g].n_hosts; i++)
			if (host_group[s->rgroups[g].hosts[i]] == 0)
				host_group[s->rgroups[g].hosts[i]] = g + 1;
	for (guint k = 0; plan->reclaims != NULL && k < plan->reclaims->len; k++)
		now[g_array_index(plan->reclaims, SchedReclaim, k).job] = TRUE;
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if ((r->reclaim_deadline == 0 && !now[i]) || r->consumer == 0 ||
		    r->consumer > n_c)
			continue;
		for (guint a = 0; a < r->n_allocs; a++) {
			guint g = host_group[r->allocs[a].host];

			for (int c = (int)r->consumer - 1; g != 0 && c >= 0;
			     c = s->consumers[c].parent)
				out[(g - 1) * n_c + (guint)c] += r->allocs[a].slots;
		}
	}
	return out;
}

void
stage_reclaim(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	SchedPlan *plan = p->plan;

	/* The idle slots placement left, by the entitlement stage's rule. */
	if (s->n_rgroups > 0) {
		g_autofree guint *host_group = g_new0(guint, MAX(1u, s->n_hosts));

		plan->group_idle = g_new0(int, s->n_rgroups);
		for (guint g = 0; g < s->n_rgroups; g++)
			for (guint i = 0; i < s->rgroups[g].n_hosts; i++)
				if (host_group[s->rgroups[g].hosts[i]] == 0) {
					host_group[s->rgroups[g].hosts[i]] = g + 1;
					plan->group_idle[g] += sched_host_idle(p,
					    s->rgroups[g].hosts[i]);
				}
	}
	for (guint i = 0; i < s->n_running; i++) {
		const SchedRunning *r = &s->running[i];

		if (r->reclaim_deadline == 0 || r->terminating)
			continue;
		if (r->reclaim_deadline <= s->now)
			plan_add(plan, SCHED_DO_RECLAIM_REQUEUE, i, 0);
		else
			plan_wake_at(plan, r->reclaim_deadline);
	}
	sched_reclaim_select(s, plan, plan->reclaims);
	for (guint k = 0; k < plan->reclaims->len; k++) {
		const SchedReclaim *rc = &g_array_index(plan->reclaims, SchedReclaim, k);

		plan_add(plan, SCHED_DO_RECLAIM_NOTICE, rc->job, k);
		if (rc->grace <= 0)
			plan_add(plan, SCHED_DO_RECLAIM_REQUEUE, rc->job, 0);
		else
			plan_wake_at(plan, rc->deadline);
	}
}
