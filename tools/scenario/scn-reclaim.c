/*
 * Reclaim in scenario files (basalt-scenario(5) "Reclaim"): the words a
 * `run` line gains (sp=, the job's bsub -sp; reclaiming=, a reclaim in
 * progress whose grace deadline is that far from now, negative when it
 * passed), the `expect reclaim` and `expect reclaim-requeue` lines, and
 * the plan's reclaim decisions as lines.  Kept apart from the other
 * handlers so the reclaim format reads as one piece.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "tools/scenario/scn-internal.h"

gboolean
scn_reclaim_run_word(Scenario *s, SchedRunning *r, const char *w, int line,
    gboolean *handled, GError **error)
{
	const char *v;
	gint64 n;

	*handled = TRUE;
	if ((v = scn_kv(w, "sp")) != NULL) {
		if (!scn_parse_int(v, 0, 99999, &n))
			FAIL(line, "run: sp is a user priority (0..99999), not \"%s\"", v);
		r->user_priority = (int)n;
	} else if ((v = scn_kv(w, "reclaiming")) != NULL) {
		if (!scn_parse_duration(v, &n))
			FAIL(line, "run: reclaiming is the grace deadline from now "
			    "(30s, -5s), not \"%s\"", v);
		/* Never 0: that means no reclaim. */
		r->reclaim_deadline = g_date_time_to_unix(s->now) + n;
		if (r->reclaim_deadline == 0)
			r->reclaim_deadline = -1;
	} else {
		*handled = FALSE;
	}
	return TRUE;
}

static gboolean
consumer_word(const Scenario *s, const char *w)
{
	return strcmp(w, "-") == 0 || bs_config_consumer(s->cfg, w) != NULL;
}

static char *
grace_text(gint64 secs)
{
	g_autofree char *w = secs == 0 ? g_strdup("wake +0s") : scn_wake_text(secs);

	return g_strdup(w + strlen("wake +"));
}

/*
 * expect reclaim ID from CONSUMER for CONSUMER KIND grace DURATION
 * expect reclaim-requeue ID
 * ("-" for no consumer: a job outside every consumer, a host close).
 */
gboolean
scn_reclaim_expect(Scenario *s, char **a, int line, gboolean *handled,
    GError **error)
{
	guint n = g_strv_length(a);
	gint64 grace;
	g_autofree char *gt = NULL;

	*handled = TRUE;
	if (n == 3 && strcmp(a[1], "reclaim-requeue") == 0) {
		if (!scn_running_known(s, a[2]))
			FAIL(line, "expect reclaim-requeue: no running job %s", a[2]);
		scn_add_expect(s, SCN_RECLAIM_REQUEUE, line,
		    g_strdup_printf("reclaim-requeue %s", a[2]));
		return TRUE;
	}
	if (n < 2 || strcmp(a[1], "reclaim") != 0) {
		*handled = FALSE;
		return TRUE;
	}
	if (n != 10 || strcmp(a[3], "from") != 0 || strcmp(a[5], "for") != 0 ||
	    strcmp(a[8], "grace") != 0)
		FAIL(line, "expect reclaim: ID from CONSUMER for CONSUMER "
		    "borrowed|shared|owned|host grace DURATION");
	if (!scn_running_known(s, a[2]))
		FAIL(line, "expect reclaim: no running job %s", a[2]);
	if (!consumer_word(s, a[4]) || !consumer_word(s, a[6]))
		FAIL(line, "expect reclaim: no consumer %s in lsb.consumers",
		    consumer_word(s, a[4]) ? a[6] : a[4]);
	if (strcmp(a[7], "borrowed") != 0 && strcmp(a[7], "shared") != 0 &&
	    strcmp(a[7], "owned") != 0 && strcmp(a[7], "host") != 0)
		FAIL(line, "expect reclaim: the kind is borrowed, shared, owned or "
		    "host, not \"%s\"", a[7]);
	if (!scn_parse_duration(a[9], &grace) || grace < 0)
		FAIL(line, "expect reclaim: grace is a duration (0s, 30s, 2m), "
		    "not \"%s\"", a[9]);
	gt = grace_text(grace);
	scn_add_expect(s, SCN_RECLAIM, line, g_strdup_printf(
	    "reclaim %s from %s for %s %s grace %s", a[2], a[4], a[6], a[7], gt));
	return TRUE;
}

/* The plan's reclaim notice d as a line (its requeue is a plain running
 * job line, rendered by scn-plan.c's caller through this too). */
char *
scn_reclaim_line(const Scenario *s, const SchedPlan *plan,
    const SchedDecision *d, const char *job)
{
	const SchedReclaim *rc;
	g_autofree char *gt = NULL;

	if (d->kind == SCHED_DO_RECLAIM_REQUEUE)
		return g_strdup_printf("reclaim-requeue %s", job);
	rc = &g_array_index(plan->reclaims, SchedReclaim, d->by);
	gt = grace_text(rc->grace);
	return g_strdup_printf("reclaim %s from %s for %s %s grace %s", job,
	    rc->from >= 0 ? s->snap.consumers[rc->from].path : "-",
	    rc->to >= 0 ? s->snap.consumers[rc->to].path : "-",
	    sched_reclaim_kind_name(rc->kind), gt);
}
