/*
 * JOB_GROUP_CLEAN (lsb.params): implicit job groups go when they are
 * empty.  A group made by bsub -g, bmod -g or a default job group, with
 * no limit, is deleted once no unfinished job is in its subtree and no
 * group below it was made by bgadd or has a limit; the deletion is an
 * EvJobGroup like bgdel's, so replay agrees.  Checked on mbatchd's tick,
 * and only when the groups or a group's count of unfinished jobs reached
 * or left zero since the last look (State.jobgroups_serial): an idle tick
 * costs nothing, and a look reads the groups and the per-path counts,
 * never the jobs.
 */
#include "config.h"

#include <string.h>

#include "job/jobgroup.h"
#include "mbatchd/mbd.h"

void
manager_clean_jobgroups(Manager *m)
{
	g_autoptr(GHashTable) kept = NULL;
	g_autoptr(GPtrArray) groups = NULL;
	g_autoptr(GPtrArray) doomed = NULL;
	gboolean any = FALSE;
	guint64 serial = m->st->jobgroups_serial;

	if (!m->cfg->params->job_group_clean || m->storage_failed ||
	    (m->jobgroups_looked && serial == m->jobgroups_seen))
		return;
	groups = state_jobgroups_sorted(m->st);
	for (guint i = 0; i < groups->len && !any; i++) {
		const JobGroup *g = g_ptr_array_index(groups, i);

		any = g->implicit && g->limit < 0;
	}
	if (!any) {
		m->jobgroups_looked = TRUE;
		m->jobgroups_seen = serial;
		return;
	}
	kept = state_jobgroups_busy(m->st);
	for (guint i = 0; i < groups->len; i++) {
		const JobGroup *g = g_ptr_array_index(groups, i);
		char *p;

		if (g->implicit && g->limit < 0)
			continue;
		/* A group bgadd made, or with a limit, keeps its ancestors. */
		for (p = g_strdup(g->path); p != NULL &&
		    !g_hash_table_contains(kept, p);) {
			char *up = bs_jobgroup_parent(p);

			g_hash_table_add(kept, p);
			p = up;
		}
		g_free(p);
	}
	/* Parents come first: a doomed parent takes its subtree with it. */
	doomed = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < groups->len; i++) {
		const JobGroup *g = g_ptr_array_index(groups, i);
		g_autofree char *parent = bs_jobgroup_parent(g->path);
		gboolean under = FALSE;

		if (g_hash_table_contains(kept, g->path))
			continue;
		for (guint k = 0; parent != NULL && k < doomed->len && !under; k++)
			under = bs_jobgroup_within(g->path, doomed->pdata[k]);
		if (!under)
			g_ptr_array_add(doomed, g_strdup(g->path));
	}
	for (guint i = 0; i < doomed->len; i++) {
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobGroup e = BASALT__EV_JOB_GROUP__INIT;

		e.action = BASALT__JOB_GROUP_ACTION__JOB_GROUP_ACTION_DELETE;
		e.path = doomed->pdata[i];
		e.user = "";
		e.limit = -1;
		ev.body_case = BASALT__EVENT__BODY_JOB_GROUP;
		ev.job_group = &e;
		if (!manager_commit(m, &ev, NULL))
			return;
	}
	/* Every deletion made: look again only after the next change.  The
	 * deletions changed the serial themselves, so the next tick looks
	 * once more and finds nothing. */
	m->jobgroups_looked = TRUE;
	m->jobgroups_seen = serial;
}
