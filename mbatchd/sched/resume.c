/*
 * The resume stage: preempted jobs take their slots back before anything
 * new starts.  Follows lsf-reference.md 4.1 ("A preempted job
 * is resumed as soon as enough slots are free again", "Resume of SSUSP
 * jobs") and seeds/lsf-preemptive-scheduling.txt:
 *
 * - Only jobs SSUSP because of preemption (SchedRunning.preempted) are
 *   resumed here; load suspensions belong to sbatchd, run-window ones to
 *   the window stage (window.c), and a preempted job waits here while
 *   its queue's run window is closed.
 * - It need not wait for the preemptor to end: the job resumes when, with
 *   its slots counted as running again, every limit that stopped counting
 *   them (count.h, SchedRunOnly) still holds.  Limits that count suspended
 *   jobs already hold its slots and cannot stop it.
 * - Checked once per pass before any dispatch, higher-priority queues
 *   first (snapshot order within a priority), at most one job per host per
 *   pass; a job on several hosts claims each of them.  Its host must be
 *   reachable.  Jobs this pass preempts are not resumed in it: resume runs
 *   before any preemption.
 * - Under resource plans a job on a group's hosts resumes only within
 *   what its consumer (or, outside every consumer, the outside jobs) may
 *   still start there this pass, and its slots count again
 *   (hybrid-place.c).
 */
#include "config.h"

#include <math.h>

#include "hybrid.h"
#include "pass.h"

typedef struct {
	Pass *p;
	gboolean *host_used;      /* [n_hosts]: a job was resumed there */
} Resume;

static gboolean
within(int limit, int used, int more)
{
	return limit < 0 || used + more <= limit;
}

static gboolean
within_cpu(double per_cpu, int ncpus, int used, int more)
{
	if (per_cpu < 0)
		return TRUE;
	return used + more <= (int)ceil(per_cpu * (ncpus > 0 ? ncpus : 1));
}

static gboolean
job_fits(Pass *p, const SchedRunning *r)
{
	const SchedSnapshot *s = p->snap;
	const SchedCount *c = &p->count;
	const SchedUser *u = &s->users[r->user];
	int total = 0;

	for (guint a = 0; a < r->n_allocs; a++)
		total += r->allocs[a].slots;
	if (c->run_only.user &&
	    !within(u->max_jobs, sched_count_user(c, r->user), total))
		return FALSE;
	for (guint g = 0; c->run_only.group && g < u->n_groups; g++)
		if (!within(s->groups[u->groups[g]].max_jobs,
		    sched_count_group(c, u->groups[g]), total))
			return FALSE;
	return TRUE;
}

static gboolean
groups_fit_on_host(Pass *p, const SchedRunning *r, guint h, int slots)
{
	const SchedSnapshot *s = p->snap;
	const SchedUser *u = &s->users[r->user];

	for (guint i = 0; p->count.run_only.group_cpu && i < u->n_groups; i++) {
		const SchedGroup *g = &s->groups[u->groups[i]];

		if (g->jl_p > 0 && !within_cpu(g->jl_p, s->hosts[h].ncpus,
		    sched_count_group_host(&p->count, u->groups[i], h), slots))
			return FALSE;
	}
	return TRUE;
}

static gboolean
alloc_fits(Resume *rs, const SchedRunning *r, const SchedAlloc *a)
{
	Pass *p = rs->p;
	const SchedCount *c = &p->count;
	const SchedHost *host = &p->snap->hosts[a->host];
	const SchedUser *u = &p->snap->users[r->user];

	if (rs->host_used[a->host] ||
	    sched_host_state(p, a->host) == SCHED_HOST_UNAVAIL)
		return FALSE;
	if (c->run_only.host &&
	    !within(host->max_slots, sched_count_host(c, a->host), a->slots))
		return FALSE;
	if (c->run_only.user_host && !within(host->jl_u,
	    sched_count_user_host_jlu(c, r->user, a->host), a->slots))
		return FALSE;
	if (c->run_only.user_cpu && !within_cpu(u->jl_p, host->ncpus,
	    sched_count_user_host_cpu(c, r->user, a->host), a->slots))
		return FALSE;
	return groups_fit_on_host(p, r, a->host, a->slots);
}

static void
try_resume(Resume *rs, guint idx)
{
	Pass *p = rs->p;
	const SchedRunning *r = &p->snap->running[idx];

	if (!job_fits(p, r) || !hybrid_resume_fits(p, r))
		return;
	for (guint a = 0; a < r->n_allocs; a++)
		if (!alloc_fits(rs, r, &r->allocs[a]))
			return;
	for (guint a = 0; a < r->n_allocs; a++) {
		sched_count_suspend(&p->count, p->snap, r->user, r->allocs[a].host,
		    -r->allocs[a].slots);
		rs->host_used[r->allocs[a].host] = TRUE;
	}
	limits_suspend(p->limits, r, -1);
	hybrid_released(p, r, -1);
	plan_add(p->plan, SCHED_DO_RESUME, idx, 0);
}

static int
cmp_resume(gconstpointer a, gconstpointer b, gpointer data)
{
	const SchedSnapshot *s = data;
	guint x = *(const guint *)a, y = *(const guint *)b;
	int px = s->queues[s->running[x].queue].priority;
	int py = s->queues[s->running[y].queue].priority;

	if (px != py)
		return px > py ? -1 : 1;
	return x < y ? -1 : x > y;
}

void
sched_resume(Pass *p)
{
	const SchedSnapshot *s = p->snap;
	GArray *order = g_array_new(FALSE, FALSE, sizeof(guint));
	Resume rs = { .p = p, .host_used = g_new0(gboolean, s->n_hosts) };

	for (guint i = 0; i < s->n_running; i++)
		/* Not while its queue's run window is closed: the window
		 * stage resumes it when the window opens. */
		if (s->running[i].state == SCHED_RUN_SSUSP && s->running[i].preempted &&
		    p->run_open[s->running[i].queue])
			g_array_append_val(order, i);
	g_array_sort_with_data(order, cmp_resume, (gpointer)s);
	for (guint i = 0; i < order->len; i++)
		try_resume(&rs, g_array_index(order, guint, i));
	g_free(rs.host_used);
	g_array_free(order, TRUE);
}
