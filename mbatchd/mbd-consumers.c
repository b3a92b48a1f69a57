/*
 * The entitlement stage's last table kept for bconsumers, and the
 * journaling of quota-driven pending (mbd-consumers.h).
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-consumers.h"
#include "util/log.h"

/*
 * The names of one configuration's resource groups and consumers, with
 * their indexes in its snapshots: built once per configuration (mbatchd
 * keeps it until a reconfiguration) and shared, by reference, by the
 * figures of every pass under it, so that a pass's table is two arrays and
 * a lookup by name is two hash lookups.
 */
struct MbdConsumerNames {
	GHashTable *groups;       /* name (owned) -> index + 1 */
	GHashTable *consumers;    /* path (owned) -> index + 1 */
	guint n_g, n_c;
};

static void
names_clear(gpointer p)
{
	MbdConsumerNames *n = p;

	g_hash_table_destroy(n->groups);
	g_hash_table_destroy(n->consumers);
}

static MbdConsumerNames *
names_new(const SchedSnapshot *snap)
{
	MbdConsumerNames *n = g_rc_box_new0(MbdConsumerNames);

	n->n_g = snap->n_rgroups;
	n->n_c = snap->n_consumers;
	n->groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	n->consumers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	    NULL);
	for (guint g = 0; g < n->n_g; g++)
		g_hash_table_insert(n->groups, g_strdup(snap->rgroups[g].name),
		    GUINT_TO_POINTER(g + 1));
	for (guint c = 0; c < n->n_c; c++)
		g_hash_table_insert(n->consumers, g_strdup(snap->consumers[c].path),
		    GUINT_TO_POINTER(c + 1));
	return n;
}

void
consumers_names_unref(MbdConsumerNames *n)
{
	if (n != NULL)
		g_rc_box_release_full(n, names_clear);
}

void
consumers_figures_free(struct MbdConsumerFigures *f)
{
	if (f == NULL)
		return;
	consumers_names_unref(f->names);
	g_free(f->figs);
	g_free(f->group_slots);
	g_free(f);
}

/* Index + 1 of a name, 0: none. */
static guint
index_of(GHashTable *t, const char *name)
{
	return name != NULL ? GPOINTER_TO_UINT(g_hash_table_lookup(t, name)) : 0;
}

const MbdConsumerFig *
consumers_figures_fig(const struct MbdConsumerFigures *f, const char *group,
    const char *path)
{
	guint g, c;

	if (f == NULL || (g = index_of(f->names->groups, group)) == 0 ||
	    (c = index_of(f->names->consumers, path)) == 0)
		return NULL;
	g--;
	c--;
	return f->figs[g * f->names->n_c + c].set ?
	    &f->figs[g * f->names->n_c + c] : NULL;
}

int
consumers_figures_group_slots(const struct MbdConsumerFigures *f,
    const char *group)
{
	guint g;

	if (f == NULL || (g = index_of(f->names->groups, group)) == 0)
		return -1;
	return f->group_slots[g - 1];
}

void
consumers_keep(Manager *m, const Build *b, const SchedPlan *plan)
{
	consumers_figures_free(m->consumer_figs);
	m->consumer_figs = NULL;
	if (b->snap.n_rgroups == 0)
		return;
	/* The names of this configuration, made by its first pass. */
	if (m->consumer_names == NULL)
		m->consumer_names = names_new(&b->snap);
	m->consumer_figs = consumers_figures_new(b, plan, manager_now(),
	    m->consumer_names);
}

struct MbdConsumerFigures *
consumers_figures_new(const Build *b, const SchedPlan *plan, gint64 time,
    MbdConsumerNames *names)
{
	const SchedSnapshot *snap = &b->snap;
	struct MbdConsumerFigures *f;
	g_autofree int *reclaiming = NULL;

	if (snap->n_rgroups == 0)
		return NULL;
	f = g_new0(struct MbdConsumerFigures, 1);
	f->time = time;
	f->names = names != NULL ? g_rc_box_acquire(names) : names_new(snap);
	/* Names from another configuration than the snapshot's are a
	 * caller's mistake: no figures rather than wrong ones. */
	if (f->names->n_g != snap->n_rgroups || f->names->n_c != snap->n_consumers) {
		consumers_figures_free(f);
		return NULL;
	}
	f->figs = g_new0(MbdConsumerFig, MAX(1u, snap->n_rgroups * snap->n_consumers));
	f->group_slots = g_new(int, snap->n_rgroups);
	for (guint g = 0; g < snap->n_rgroups; g++)
		f->group_slots[g] = sched_rgroup_slots(snap, g);
	reclaiming = sched_reclaim_counts(snap, plan);
	for (guint i = 0; i < plan->n_quotas; i++) {
		const SchedConsumerQuota *q = &plan->quotas[i];
		MbdConsumerFig *fig;

		if (q->group >= snap->n_rgroups || q->consumer >= snap->n_consumers)
			continue;
		fig = &f->figs[q->group * snap->n_consumers + q->consumer];
		fig->set = TRUE;
		fig->owned_scaled = q->owned;
		fig->demand = q->demand;
		fig->quota = q->quota;
		fig->alloc = q->alloc;
		fig->borrowed = q->borrowed;
		fig->lent = q->lent;
		fig->reclaiming = reclaiming[q->group * snap->n_consumers + q->consumer];
		memcpy(fig->reason, q->reason, sizeof fig->reason);
		fig->reason[sizeof fig->reason - 1] = '\0';
	}
	return f;
}

static void
commit_pend(Manager *m, Job *j, gboolean pending, const char *consumer,
    const char *rgroup)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvJobConsumerPend e = BASALT__EV_JOB_CONSUMER_PEND__INIT;
	GError *err = NULL;

	e.job_id = j->id;
	e.array_index = j->index;
	e.pending = pending;
	e.consumer = (char *)(consumer != NULL ? consumer : "");
	e.resource_group = (char *)(rgroup != NULL ? rgroup : "");
	e.reason = j->pending_reason != NULL ? j->pending_reason : (char *)"";
	ev.body_case = BASALT__EVENT__BODY_JOB_CONSUMER_PEND;
	ev.job_consumer_pend = &e;
	if (!manager_commit(m, &ev, &err)) {
		log_warning("job %" G_GUINT64_FORMAT "[%u]: quota pending not "
		    "journaled: %s", j->id, j->index, err != NULL ? err->message :
		    "?");
		g_clear_error(&err);
	}
}

void
consumers_pending_job(Manager *m, const Build *b, const SchedPlan *plan,
    guint i)
{
	const SchedSnapshot *snap = &b->snap;
	Job *j = g_ptr_array_index(b->pending_jobs, i);
	const SchedPending *p = &plan->pending[i];
	guint c = snap->pending[i].consumer;
	const char *path = c > 0 && c <= snap->n_consumers ?
	    snap->consumers[c - 1].path : NULL;

	if (!job_is_pending(j))
		return;
	if (p->reason == SCHED_PEND_CONSUMER_QUOTA) {
		const char *rg = p->rgroup != NULL ? p->rgroup : "";

		/* Interned names compare by pointer, others by text. */
		if (j->quota_pend == NULL || strcmp(j->quota_pend, rg) != 0)
			commit_pend(m, j, TRUE, path, rg);
	} else if (j->quota_pend != NULL) {
		commit_pend(m, j, FALSE, path, j->quota_pend);
	}
}
