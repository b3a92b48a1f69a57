/*
 * Preview layout (consumers-preview.h).  Two tables: per resource group
 * and consumer, the plan in force at the previewed time (WINDOW: its
 * TIME_WINDOW, "-" for the plan without one), QUOTA_NOW (the running
 * plan's), QUOTA and ALLOC (after the previewed pass) and OVER (slots held
 * above the new quota, what reclaim takes back as others need them); then
 * the jobs the previewed pass acts on: ACTION is the scheduler's decision
 * (reclaim-notice: the warning action now, the requeue at DEADLINE;
 * preempt-suspend ...), FOR the consumer a reclaim serves.
 */
#include "config.h"

#include "cmd-util.h"
#include "consumers-preview.h"

static const char *
dash(const char *s)
{
	return s != NULL && s[0] != '\0' ? s : "-";
}

void
consumers_preview_format(GString *out, gint64 at, Basalt__ConsumerInfo *const *c,
    size_t n_c, Basalt__PreviewJob *const *j, size_t n_j)
{
	g_string_append(out, "Resource plans at ");
	cmd_time_long(out, at);
	g_string_append(out, "\n");
	g_string_append_printf(out, "%-14s %-20s %-16s %9s %6s %6s %5s\n",
	    "RESOURCE_GROUP", "CONSUMER", "WINDOW", "QUOTA_NOW", "QUOTA",
	    "ALLOC", "OVER");
	for (size_t i = 0; i < n_c; i++)
		g_string_append_printf(out, "%-14s %-20s %-16s %9d %6d %6d %5d\n",
		    c[i]->resource_group, c[i]->path, dash(c[i]->time_window),
		    c[i]->quota_now, c[i]->quota, c[i]->alloc,
		    MAX(0, c[i]->alloc - c[i]->quota));
	g_string_append(out, "\n");
	if (n_j == 0) {
		g_string_append(out, "No running job would be reclaimed or "
		    "preempted\n");
		return;
	}
	g_string_append_printf(out, "%-12s %-10s %-10s %-14s %-18s %-14s %5s "
	    "%6s %s\n", "JOBID", "USER", "QUEUE", "CONSUMER", "ACTION", "FOR",
	    "SLOTS", "GRACE", "DEADLINE");
	for (size_t i = 0; i < n_j; i++) {
		g_autofree char *id = j[i]->array_index > 0 ?
		    g_strdup_printf("%" G_GUINT64_FORMAT "[%u]", j[i]->job_id,
		    j[i]->array_index) :
		    g_strdup_printf("%" G_GUINT64_FORMAT, j[i]->job_id);

		g_string_append_printf(out, "%-12s %-10s %-10s %-14s %-18s %-14s ",
		    id, j[i]->user, j[i]->queue, dash(j[i]->consumer),
		    j[i]->action, dash(j[i]->for_consumer));
		if (j[i]->deadline > 0) {
			g_string_append_printf(out, "%5d %6d ", j[i]->slots, j[i]->grace);
			cmd_time_long(out, j[i]->deadline);
		} else {
			g_string_append_printf(out, "%5s %6s -", "-", "-");
		}
		g_string_append_c(out, '\n');
	}
}
