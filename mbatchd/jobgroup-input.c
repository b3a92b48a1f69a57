/*
 * The job group side of the snapshot (SchedSnapshot.jobgroups): the
 * groups jobs name and those with a limit, each with its ancestors, a
 * parent always before its children as the limit stage needs
 * (mbatchd/sched/jobgroup-limit.c).  Shared by the daemon, which feeds it
 * its group table and jobs (mbd-snapshot.c), and the policy scenarios.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched-input.h"

static void
ensure_tables(SchedInput *in)
{
	if (in->jobgroups != NULL)
		return;
	in->jobgroups = g_array_new(FALSE, FALSE, sizeof(SchedJobGroup));
	in->jobgroup_index = g_hash_table_new(g_str_hash, g_str_equal);
}

guint
sched_input_jobgroup(SchedInput *in, const char *path)
{
	gpointer v;
	SchedJobGroup g = { NULL, -1, SCHED_UNLIMITED };
	const char *slash;

	if (path == NULL || path[0] != '/' || path[1] == '\0')
		return 0;
	ensure_tables(in);
	if ((v = g_hash_table_lookup(in->jobgroup_index, path)) != NULL)
		return GPOINTER_TO_UINT(v);
	slash = strrchr(path, '/');
	if (slash != path) {
		g_autofree char *parent = g_strndup(path, (gsize)(slash - path));

		g.parent = (int)sched_input_jobgroup(in, parent) - 1;
	}
	g.path = g_string_chunk_insert_const(in->names, path);
	g_array_append_val(in->jobgroups, g);
	g_hash_table_insert(in->jobgroup_index, (gpointer)g.path,
	    GUINT_TO_POINTER(in->jobgroups->len));
	return in->jobgroups->len;
}

void
sched_input_jobgroup_limit(SchedInput *in, const char *path, int limit)
{
	guint g = sched_input_jobgroup(in, path);

	if (g != 0)
		g_array_index(in->jobgroups, SchedJobGroup, g - 1).limit =
		    limit < 0 ? SCHED_UNLIMITED : limit;
}

void
sched_input_jobgroups(SchedInput *in, SchedSnapshot *snap)
{
	snap->jobgroups = in->jobgroups != NULL ?
	    (SchedJobGroup *)(void *)in->jobgroups->data : NULL;
	snap->n_jobgroups = in->jobgroups != NULL ? in->jobgroups->len : 0;
}

void
sched_input_jobgroups_free(SchedInput *in)
{
	if (in->jobgroups != NULL)
		g_array_free(in->jobgroups, TRUE);
	if (in->jobgroup_index != NULL)
		g_hash_table_destroy(in->jobgroup_index);
	in->jobgroups = NULL;
	in->jobgroup_index = NULL;
}
