/*
 * Stage: MultiCluster leases (DESIGN.md pipeline step 6).
 *
 * The rule, from seeds/lsf-multicluster-shared-lease.txt ("How it works")
 * with decisions.md "MultiCluster shared lease":
 *
 *  - An exclusive lease gives its whole hosts (their exported slots) to
 *    the consumer; nothing moves, ever.
 *  - A shared lease starts with all slots but one on the provider's side
 *    and one on the consumer's (lease_new()).  "The lease is made when the
 *    consumer schedules a job to run on the single job slot"; before that
 *    nothing is redistributed and no evaluation is due.
 *  - Once made, the lease is evaluated every MC_RECLAIM_DELAY.  With
 *      idle_provider = provider's slots - slots running provider jobs
 *      idle_consumer = consumer's slots - slots running consumer jobs
 *    all idle slots go to the side with fewer idle slots; on a tie the
 *    lease is not updated.  "The slots that are being used to run jobs
 *    remain under the control of the cluster that is using them": on each
 *    host the winner gets every slot but those the loser's jobs run on.
 *  - decisions.md: when neither side has pending jobs that could use the
 *    lease's slots, the lease is left as it is (the literal rule would
 *    swing idle slots back and forth for nobody).
 *  - "The lease will go through a temporary inactive phase each time":
 *    a changed split makes the lease inactive (nothing is dispatched into
 *    its idle slots) until the consumer has applied that generation; an
 *    evaluation falling due meanwhile waits for the lease to be ok again.
 *  - "The reclaim process is managed separately for each lease": every
 *    input lease is decided on its own figures alone.
 *  - A lease whose clusters are not linked is disconnected: it keeps its
 *    split and is not evaluated until the link returns and the consumer
 *    has reported its figures over it.  Until that report the consumer's
 *    running slots and pending jobs are not known (a restarted provider
 *    has none at all), and deciding without them would hand the slots of
 *    its running jobs to the provider: the lease stays as it is, a
 *    disconnected one disconnected, and waits for the report.
 *
 * Pure: the inputs are the leases, each host's running slots per side,
 * each side's pending demand, the link and the consumer's acknowledged
 * generation, and now; the outputs are the new leases, what changed, and
 * when the stage must run next.
 */
#include "config.h"

#include "lease.h"

#define LEASE_ERROR (g_quark_from_static_string("bs-lease"))

static gboolean
check_input(const LeaseInput *li, GError **err)
{
	const Lease *l = li->lease;

	if (l == NULL || (l->hosts->len > 0 && li->use == NULL)) {
		g_set_error(err, LEASE_ERROR, 1, "lease input without its lease or host use");
		return FALSE;
	}
	for (guint h = 0; h < l->hosts->len; h++) {
		const LeaseHost *lh = l->hosts->pdata[h];
		const LeaseHostUse *u = &li->use[h];

		if (u->provider_used < 0 || u->consumer_used < 0 ||
		    u->provider_used + u->consumer_used > lh->slots ||
		    lh->consumer_slots < 0 || lh->consumer_slots > lh->slots) {
			g_set_error(err, LEASE_ERROR, 2, "lease %s to %s: host %s has %d slots "
			    "(%d the consumer's) but %d provider and %d consumer slots in use",
			    l->policy, l->consumer, lh->name, lh->slots, lh->consumer_slots,
			    u->provider_used, u->consumer_used);
			return FALSE;
		}
	}
	return TRUE;
}

static void
idle_slots(const Lease *l, const LeaseHostUse *use, int *idle_p, int *idle_c)
{
	*idle_p = *idle_c = 0;
	for (guint h = 0; h < l->hosts->len; h++) {
		const LeaseHost *lh = l->hosts->pdata[h];

		*idle_c += MAX(lh->consumer_slots - use[h].consumer_used, 0);
		*idle_p += MAX(lh->slots - lh->consumer_slots - use[h].provider_used, 0);
	}
}

/* Every idle slot to one side; running jobs keep theirs.  TRUE if the
 * split changed. */
static gboolean
give_idle(Lease *l, const LeaseHostUse *use, gboolean to_consumer)
{
	gboolean changed = FALSE;

	for (guint h = 0; h < l->hosts->len; h++) {
		LeaseHost *lh = l->hosts->pdata[h];
		int c = to_consumer ? lh->slots - use[h].provider_used : use[h].consumer_used;

		changed |= c != lh->consumer_slots;
		lh->consumer_slots = c;
	}
	return changed;
}

static void
set_status(LeaseOutcome *o, LeaseStatus s)
{
	if (o->lease->status != s) {
		o->lease->status = s;
		o->status_changed = TRUE;
	}
}

static void
evaluate(const LeaseStageIn *in, const LeaseInput *li, LeaseOutcome *o)
{
	Lease *l = o->lease;
	int ip, ic;

	idle_slots(l, li->use, &ip, &ic);
	o->evaluated = TRUE;
	l->last_eval = in->now;
	l->last_idle_provider = ip;
	l->last_idle_consumer = ic;
	l->next_eval = in->now + in->reclaim_delay;
	if (!li->provider_pending && !li->consumer_pending) {
		o->why = "no pending demand on either side: unchanged";
		return;
	}
	if (ip == ic) {
		o->why = "equal idle slots: unchanged";
		return;
	}
	/* The side with fewer idle slots takes them all. */
	if (!give_idle(l, li->use, ip > ic)) {
		o->why = ip > ic ? "idle slots are the consumer's already" :
		    "idle slots are the provider's already";
		return;
	}
	o->split_changed = TRUE;
	l->generation++;
	set_status(o, LEASE_INACTIVE);
	o->why = ip > ic ? "idle slots to the consumer (fewer idle)" :
	    "idle slots to the provider (fewer idle)";
}

static void
decide(const LeaseStageIn *in, const LeaseInput *li, LeaseOutcome *o)
{
	Lease *l = o->lease;
	int used_c = 0;

	o->why = "unchanged";
	if (!li->linked) {
		set_status(o, LEASE_DISCONNECTED);
		o->why = "no link between the clusters";
		return;
	}
	if (li->unreported) {
		o->why = "link up, waiting for the consumer's report";
		return;
	}
	if (l->status == LEASE_DISCONNECTED) {
		set_status(o, l->generation > li->acked_generation ? LEASE_INACTIVE : LEASE_OK);
		o->why = "link back";
	}
	if (l->status == LEASE_INACTIVE && li->acked_generation >= l->generation) {
		set_status(o, LEASE_OK);
		o->why = "update applied by the consumer";
	}
	if (!l->shared)
		return;
	for (guint h = 0; h < l->hosts->len; h++)
		used_c += li->use[h].consumer_used;
	if (!l->made) {
		if (used_c == 0)
			return;
		l->made = TRUE;
		o->made_now = TRUE;
		l->next_eval = in->now + in->reclaim_delay;
		o->why = "made by the consumer's first job";
		return;
	}
	if (l->status == LEASE_OK && in->now >= l->next_eval)
		evaluate(in, li, o);
}

gboolean
lease_stage_run(const LeaseStageIn *in, LeaseStageOut *out, GError **err)
{
	out->out = NULL;
	out->n = 0;
	out->wake = G_MAXINT64;
	if (in->reclaim_delay <= 0) {
		g_set_error(err, LEASE_ERROR, 3, "MC_RECLAIM_DELAY must be positive");
		return FALSE;
	}
	for (guint i = 0; i < in->nleases; i++)
		if (!check_input(&in->leases[i], err))
			return FALSE;
	out->out = g_new0(LeaseOutcome, MAX(in->nleases, 1));
	out->n = in->nleases;
	for (guint i = 0; i < in->nleases; i++) {
		LeaseOutcome *o = &out->out[i];

		o->lease = lease_copy(in->leases[i].lease);
		decide(in, &in->leases[i], o);
		/* An inactive lease waits for the consumer's answer, a
		 * disconnected one for its link, an unreported one for the
		 * report: events, not time. */
		if (o->lease->status == LEASE_OK && !in->leases[i].unreported &&
		    o->lease->next_eval < out->wake)
			out->wake = o->lease->next_eval;
	}
	return TRUE;
}

void
lease_stage_out_clear(LeaseStageOut *out)
{
	for (guint i = 0; i < out->n; i++)
		lease_free(out->out[i].lease);
	g_free(out->out);
	out->out = NULL;
	out->n = 0;
}
