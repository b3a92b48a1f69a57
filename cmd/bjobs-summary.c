/*
 * bjobs -A (one line per job array) and -sum (slots by state), see
 * bjobs-format.h.  Both count jobs the client already has: mbatchd lists
 * jobs, and a summary is a few lines of arithmetic over that listing.
 *
 * The -A columns line up under OpenLava's header; a value never is cut,
 * because scripts read the counts by splitting the line on blanks.
 */
#include "config.h"

#include <string.h>

#include "bjobs-format.h"
#include "cmd-util.h"

#define S(x) BASALT__JOB_STATE__JOB_STATE_##x

typedef struct {
	guint64 id;
	const Basalt__JobInfo *first;   /* an element: owner and name */
	gboolean shown;                 /* an element matches the states */
	guint n, pend, done, run, exit, ssusp, usus, psusp;
} ArraySum;

static gboolean
is_finished(const Basalt__JobInfo *j)
{
	return j->state == S(DONE) || j->state == S(EXIT);
}

/* The query's state options, as mbatchd's selection applies them. */
static gboolean
state_shown(const Basalt__JobQuery *q, const Basalt__JobInfo *j)
{
	gboolean any = q->pending || q->running || q->suspended || q->finished;

	if (q->all_states)
		return TRUE;
	/* Asked for by id, a job shows in any state, as mbatchd lists it. */
	if (!any)
		return q->n_job_ids > 0 || !is_finished(j);
	return (q->pending && (j->state == S(PEND) || j->state == S(PSUSP))) ||
	       (q->running && (j->state == S(RUN) || j->state == S(UNKWN))) ||
	       (q->suspended && (j->state == S(USUSP) || j->state == S(SSUSP) ||
				 j->state == S(PSUSP))) ||
	       (q->finished && is_finished(j));
}

static void
count(ArraySum *a, const Basalt__JobInfo *j)
{
	a->n++;
	switch (j->state) {
	case S(PEND): a->pend++; break;
	case S(DONE): a->done++; break;
	case S(RUN): case S(UNKWN): a->run++; break;
	case S(EXIT): a->exit++; break;
	case S(SSUSP): a->ssusp++; break;
	case S(USUSP): a->usus++; break;
	case S(PSUSP): a->psusp++; break;
	default: break;
	}
}

/* "name[1-10]" as submitted; the element's "name[3]" cut back to its
 * name when the listing carries no spec. */
static char *
array_spec(const Basalt__JobInfo *j)
{
	const char *name = j->spec != NULL && j->spec->job_name[0] != '\0' ?
	    j->spec->job_name : j->job_name;

	if (j->spec == NULL || j->spec->job_name[0] == '\0') {
		const char *br = strchr(name, '[');

		return g_strndup(name, br != NULL ? (gsize)(br - name)
						  : strlen(name));
	}
	return g_strdup(name);
}

guint
bjobs_format_arrays(GString *out, const Basalt__JobList *list,
		    const Basalt__JobQuery *q, const BjobsOpts *o)
{
	g_autoptr(GArray) arrays = g_array_new(FALSE, TRUE, sizeof(ArraySum));
	g_autoptr(GHashTable) at = g_hash_table_new(g_int64_hash, g_int64_equal);
	guint shown = 0;

	for (size_t i = 0; i < list->n_jobs; i++) {
		const Basalt__JobInfo *j = list->jobs[i];
		gpointer k;
		ArraySum *a;

		if (j->array_index == 0)
			continue;
		if (!g_hash_table_lookup_extended(at, &j->job_id, NULL, &k)) {
			ArraySum fresh = { .id = j->job_id, .first = j };

			g_array_append_val(arrays, fresh);
			k = GUINT_TO_POINTER(arrays->len);
			g_hash_table_insert(at, (gpointer)&j->job_id, k);
		}
		a = &g_array_index(arrays, ArraySum, GPOINTER_TO_UINT(k) - 1);
		count(a, j);
		a->shown |= state_shown(q, j);
	}
	for (guint i = 0; i < arrays->len; i++) {
		const ArraySum *a = &g_array_index(arrays, ArraySum, i);
		g_autoptr(GString) id = g_string_new(NULL);
		g_autofree char *spec = NULL;

		if (!a->shown)
			continue;
		if (shown++ == 0 && !o->noheader)
			g_string_append(out, "JOBID    ARRAY_SPEC  OWNER   NJOBS "
					"PEND DONE  RUN EXIT SSUSP USUSP PSUSP\n");
		spec = array_spec(a->first);
		cmd_jobid(id, a->id, 0);
		g_string_append_printf(out, "%-8s %-11s %-7s %5u %4u %4u %4u %4u "
				       "%5u %5u %5u\n", id->str, spec,
				       a->first->user, a->n, a->pend, a->done,
				       a->run, a->exit, a->ssusp, a->usus,
				       a->psusp);
	}
	return shown;
}

/* A job's slots: its allocation once started, else what it asked for. */
static guint
slots_of(const Basalt__JobInfo *j)
{
	if (j->n_exec_hosts > 0)
		return (guint)j->n_exec_hosts;
	return j->spec != NULL && j->spec->min_slots > 0 ? j->spec->min_slots : 1;
}

void
bjobs_format_sum(GString *out, const Basalt__JobList *list,
		 const BjobsOpts *o)
{
	guint run = 0, ssusp = 0, usus = 0, unknown = 0, pend = 0;

	for (size_t i = 0; i < list->n_jobs; i++) {
		const Basalt__JobInfo *j = list->jobs[i];
		guint n = slots_of(j);

		switch (j->state) {
		case S(RUN): run += n; break;
		case S(SSUSP): ssusp += n; break;
		case S(USUSP): usus += n; break;
		case S(UNKWN): unknown += n; break;
		case S(PEND): case S(PSUSP): pend += n; break;
		default: break;
		}
	}
	if (!o->noheader)
		g_string_append(out, "RUN        SSUSP      USUSP      UNKNOWN    "
				"PEND       FWD_PEND\n");
	/* Basalt forwards no job to another cluster: FWD_PEND is 0. */
	g_string_append_printf(out, "%-10u %-10u %-10u %-10u %-10u %u\n",
			       run, ssusp, usus, unknown, pend, 0u);
}
