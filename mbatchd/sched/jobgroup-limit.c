/*
 * Job group limits (bgadd -L, bgmod -L), a gate before placement.  Rule
 * (LSF 10.1 bgadd(1), bgmod(1)): a group's limit bounds the started jobs
 * (RUN, SSUSP, USUSP) of the group and all its subgroups, one per job
 * however many slots it holds; a job starts only when its own group and
 * every ancestor are below their limits; 0 lets no job of the subtree
 * start.  A job counts in its group and every ancestor, so each check is
 * a walk up the job's path, as deep as the hierarchy (bounded by
 * BS_JOBGROUP_DEPTH_MAX where groups are made).
 */
#include "config.h"

#include "count.h"

/* The next group up from i, or -1; a parent always comes before its
 * child, which also ends the walk on a malformed snapshot. */
static int
up(const SchedSnapshot *snap, int i)
{
	int p = snap->jobgroups[i].parent;

	return p >= 0 && p < i ? p : -1;
}

static int
first(const SchedSnapshot *snap, guint g)
{
	return g != 0 && g <= snap->n_jobgroups ? (int)g - 1 : -1;
}

void
sched_count_add_jobgroup(SchedCount *c, const SchedSnapshot *snap, guint g)
{
	for (int i = first(snap, g); i >= 0; i = up(snap, i))
		c->jobgroup[i]++;
}

gboolean
sched_jobgroup_full(const SchedCount *c, const SchedSnapshot *snap, guint g)
{
	for (int i = first(snap, g); i >= 0; i = up(snap, i)) {
		int limit = snap->jobgroups[i].limit;

		if (limit >= 0 && c->jobgroup[i] >= limit)
			return TRUE;
	}
	return FALSE;
}
