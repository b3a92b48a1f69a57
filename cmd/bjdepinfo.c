/*
 * bjdepinfo: the dependencies between jobs (bsub -w), LSF's layout.
 * By default the jobs that depend on the job (its children); -p the jobs
 * it depends on (its parents); -l the parents with whether the job's
 * condition is satisfied; -r level follows the chain that many levels
 * (0: every level).
 *
 *   JOBID          CHILD          CHILD_STATUS  CHILD_NAME  LEVEL
 *   101            102            PEND          post        1
 *
 * Done here from mbatchd's job list (Jobs, every user and state, with
 * each job's condition): mbatchd has no call for the dependency graph.
 * The references of a condition are those lib/job/depend.c parses; a
 * name refers to the jobs of that user with that name, as in mbatchd.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "job/depend.h"

#define BJDEPINFO_USAGE \
	"bjdepinfo [-h] [-V] [-r level] [-l] [-p] job_ID | \"job_ID[index]\""

enum { O_R, O_L, O_P, O_N };
static const CmdOpt opts[] = {
	[O_R] = { "-r", TRUE }, [O_L] = { "-l", FALSE },
	[O_P] = { "-p", FALSE }, [O_N] = { NULL, FALSE },
};

typedef struct {
	Basalt__JobList *l;
	GPtrArray *deps;       /* BsDepend* or NULL, parallel to l->jobs */
	const Basalt__JobInfo *owner; /* whose names a lookup resolves */
} Graph;

static gboolean
ref_matches(const BsDependRef *r, const Basalt__JobInfo *owner,
	    const Basalt__JobInfo *j)
{
	if (r->name != NULL)
		return g_strcmp0(owner->user, j->user) == 0 &&
		    bs_depend_name_matches(r->name, j->job_name) &&
		    (r->index == 0 || r->index == j->array_index);
	return r->job_id == j->job_id &&
	    (r->index == 0 || r->index == j->array_index);
}

static BsDependJobState
dep_state(Basalt__JobState s)
{
	switch (s) {
	case BASALT__JOB_STATE__JOB_STATE_PSUSP: return BS_DEPEND_JOB_HELD;
	case BASALT__JOB_STATE__JOB_STATE_RUN:
	case BASALT__JOB_STATE__JOB_STATE_UNKWN: return BS_DEPEND_JOB_RUN;
	case BASALT__JOB_STATE__JOB_STATE_USUSP:
	case BASALT__JOB_STATE__JOB_STATE_SSUSP: return BS_DEPEND_JOB_SUSP;
	case BASALT__JOB_STATE__JOB_STATE_DONE: return BS_DEPEND_JOB_DONE;
	case BASALT__JOB_STATE__JOB_STATE_EXIT:
	case BASALT__JOB_STATE__JOB_STATE_ZOMBI: return BS_DEPEND_JOB_EXIT;
	default: return BS_DEPEND_JOB_PEND;
	}
}

static void
lookup(const BsDependRef *r, GArray *jobs, void *data)
{
	const Graph *g = data;

	for (size_t i = 0; i < g->l->n_jobs; i++) {
		const Basalt__JobInfo *j = g->l->jobs[i];
		BsDependJob d = { dep_state(j->state), j->exit_status, 0 };

		if (!ref_matches(r, g->owner, j))
			continue;
		d.post = d.state == BS_DEPEND_JOB_DONE ||
		    d.state == BS_DEPEND_JOB_EXIT ? BS_DEPEND_POST_DONE :
		    BS_DEPEND_POST_NONE;
		g_array_append_val(jobs, d);
	}
}

/* Does job k's condition name job p? */
static gboolean
depends_on(const Graph *g, size_t k, const Basalt__JobInfo *p)
{
	const BsDepend *d = g_ptr_array_index(g->deps, k);
	g_autoptr(GPtrArray) refs = NULL;

	if (d == NULL)
		return FALSE;
	refs = bs_depend_collect_refs(d);
	for (guint i = 0; i < refs->len; i++)
		if (ref_matches(g_ptr_array_index(refs, i), g->l->jobs[k], p))
			return TRUE;
	return FALSE;
}

static void
row(GString *out, const Basalt__JobInfo *a, const Basalt__JobInfo *b,
    guint level)
{
	g_autoptr(GString) id = g_string_new(NULL);

	cmd_jobid(id, a->job_id, a->array_index);
	cmd_cell(out, id->str, 14, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	g_string_truncate(id, 0);
	cmd_jobid(id, b->job_id, b->array_index);
	cmd_cell(out, id->str, 14, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, cmd_state_name(b->state), 13, CMD_FIT_WIDE, FALSE);
	g_string_append_c(out, ' ');
	cmd_cell(out, b->job_name, 11, CMD_FIT_WIDE, FALSE);
	g_string_append_printf(out, " %u\n", level);
}

/*
 * One level of the walk from job k: children (jobs whose condition names
 * it) or parents (jobs its condition names), then their own, down to
 * max_level (0: no bound).  seen stops a cycle of names.
 */
static void
walk(GString *out, Graph *g, size_t k, gboolean parents, guint level,
     guint max_level, GHashTable *seen, guint *rows)
{
	const Basalt__JobInfo *j = g->l->jobs[k];

	if ((max_level != 0 && level > max_level) ||
	    !g_hash_table_add(seen, GSIZE_TO_POINTER(k + 1)))
		return;
	for (size_t i = 0; i < g->l->n_jobs; i++) {
		gboolean edge = parents ? depends_on(g, k, g->l->jobs[i]) :
		    depends_on(g, i, j);

		if (!edge || i == k)
			continue;
		row(out, j, g->l->jobs[i], level);
		(*rows)++;
		walk(out, g, i, parents, level + 1, max_level, seen, rows);
	}
}

static Basalt__JobList *
all_jobs(void)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	char *all[] = { (char *)"all" };

	q.users = all;
	q.n_users = 1;
	q.all_states = TRUE;
	q.detail = TRUE;
	return (Basalt__JobList *)cmd_main_call(LSB_JOBS, &q.base);
}

static int
report(GString *out, Graph *g, size_t k, const char **v, guint max_level)
{
	const Basalt__JobInfo *j = g->l->jobs[k];
	gboolean parents = v[O_P] != NULL || v[O_L] != NULL;
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	g_autoptr(GString) rows_text = g_string_new(NULL);
	g_autoptr(GString) id = g_string_new(NULL);
	guint rows = 0;

	cmd_jobid(id, j->job_id, j->array_index);
	walk(rows_text, g, k, parents, 1, max_level, seen, &rows);
	if (v[O_L] != NULL && g_ptr_array_index(g->deps, k) != NULL) {
		BsDependResult r;

		g->owner = j;
		r = bs_depend_eval(g_ptr_array_index(g->deps, k), lookup, g);
		g_string_append_printf(out, "Dependency condition of job <%s> "
		    "is %s: %s\n", id->str, r == BS_DEPEND_SATISFIED ?
		    "satisfied" : r == BS_DEPEND_NEVER ? "never satisfied" :
		    "not satisfied", j->spec->dependency);
	}
	if (rows == 0) {
		fprintf(stderr, "Job <%s> has no %s\n", id->str,
		    parents ? "parent jobs" : "dependent jobs");
		cmd_main_out(out);
		return CMD_EXIT_FAIL;
	}
	g_string_append(out, parents ?
	    "JOBID          PARENT         PARENT_STATUS PARENT_NAME LEVEL\n" :
	    "JOBID          CHILD          CHILD_STATUS  CHILD_NAME  LEVEL\n");
	g_string_append(out, rows_text->str);
	cmd_main_out(out);
	return CMD_EXIT_OK;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GPtrArray) deps = NULL;
	g_auto(GStrv) ids = NULL;
	const char *v[O_N];
	guint64 id, level = 1;
	guint32 index;
	Graph g = { 0 };
	size_t k;
	int code;

	if (cmd_main_hv(argc, argv, BJDEPINFO_USAGE, &code))
		return code;
	ids = cmd_main_opts("bjdepinfo", argc, argv, opts, v, BJDEPINFO_USAGE,
	    &err);
	if (ids == NULL)
		return cmd_main_fail(err);
	if (g_strv_length(ids) != 1) {
		fprintf(stderr, "Usage: %s\n", BJDEPINFO_USAGE);
		return CMD_EXIT_FAIL;
	}
	if (v[O_R] != NULL && (!cmd_parse_uint(v[O_R], &level) ||
	    level > G_MAXUINT)) {
		fprintf(stderr, "bjdepinfo: %s: Bad level for -r\n", v[O_R]);
		return CMD_EXIT_FAIL;
	}
	if (!cmd_parse_jobid(ids[0], &id, &index, &err))
		return cmd_main_fail(err);
	if (id == 0) {
		fprintf(stderr, "%s: Illegal job ID.\n", ids[0]);
		return CMD_EXIT_FAIL;
	}
	g.l = all_jobs();
	if (g.l == NULL)
		return CMD_EXIT_FAIL;
	if (cmd_main_refused(NULL, g.l->error)) {
		basalt__job_list__free_unpacked(g.l, NULL);
		return CMD_EXIT_FAIL;
	}
	deps = g_ptr_array_new_with_free_func((GDestroyNotify)bs_depend_free);
	g.deps = deps;
	for (k = 0; k < g.l->n_jobs; k++) {
		const Basalt__JobSpec *s = g.l->jobs[k]->spec;

		g_ptr_array_add(deps, s != NULL && s->dependency != NULL &&
		    s->dependency[0] != '\0' ?
		    bs_depend_parse(s->dependency, NULL) : NULL);
	}
	for (k = 0; k < g.l->n_jobs; k++)
		if (g.l->jobs[k]->job_id == id &&
		    g.l->jobs[k]->array_index == index)
			break;
	if (k == g.l->n_jobs) {
		fprintf(stderr, "Job <%s> is not found\n", ids[0]);
		code = CMD_EXIT_FAIL;
	} else {
		code = report(out, &g, k, v, (guint)level);
	}
	g_ptr_array_set_size(deps, 0);
	basalt__job_list__free_unpacked(g.l, NULL);
	return code;
}
