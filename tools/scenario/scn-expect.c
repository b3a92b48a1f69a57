/*
 * The `expect` lines of a scenario, checked against what the scenario
 * holds (jobs, hosts, queues, pools) and rewritten in the canonical form
 * the plan's lines use (scn-plan.c), so comparing is comparing text.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_consumers.h"
#include "tools/scenario/scn-internal.h"

static gboolean
pending_known(const Scenario *s, const char *name)
{
	for (guint i = 0; i < s->pending->len; i++) {
		const SchedJob *j = &g_array_index(s->pending, SchedJob, i);
		g_autofree char *n = scn_job_name(j->id, j->array_id, j->array_index);

		if (strcmp(n, name) == 0)
			return TRUE;
	}
	return FALSE;
}

gboolean
scn_running_known(const Scenario *s, const char *name)
{
	for (guint i = 0; i < s->running->len; i++) {
		const SchedRunning *r = &g_array_index(s->running, SchedRunning, i);
		g_autofree char *n = scn_job_name(r->id, r->array_id,
		    g_array_index(s->run_index, guint32, i));

		if (strcmp(n, name) == 0)
			return TRUE;
	}
	return FALSE;
}

ScnLine *
scn_add_expect(Scenario *s, ScnKind k, int line, char *text)
{
	ScnLine *l = g_new0(ScnLine, 1);

	l->kind = k;
	l->line = line;
	l->text = text;
	g_ptr_array_add(s->expect, l);
	return l;
}

/* The kinds that name one running job; SCN_PENDING for none of them. */
static ScnKind
running_kind(const char *w)
{
	static const struct { const char *word; ScnKind kind; } kinds[] = {
		{ "resume", SCN_RESUME },
		{ "window-suspend", SCN_WINDOW_SUSPEND },
		{ "window-resume", SCN_WINDOW_RESUME },
		{ "window-terminate", SCN_WINDOW_TERMINATE },
		{ "deadline-terminate", SCN_DEADLINE_TERMINATE },
	};

	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++)
		if (strcmp(w, kinds[i].word) == 0)
			return kinds[i].kind;
	return SCN_PENDING;
}

/* Hosts of an expect dispatch line, checked and rewritten canonically. */
static char *
canonical_hosts(Scenario *s, char **w, int line, GError **error)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; w[i] != NULL; i++) {
		const char *star = strchr(w[i], '*');
		const char *name = star != NULL ? star + 1 : w[i];
		guint h;
		gint64 n = 1;

		if (star != NULL) {
			g_autofree char *num = g_strndup(w[i], (gsize)(star - w[i]));

			if (!scn_parse_int(num, 1, 100000, &n)) {
				g_set_error(error, SCN_ERROR, 0, "%s:%d: bad slot count in \"%s\"",
				    s->path, line, w[i]);
				return g_string_free(out, TRUE), NULL;
			}
		}
		if (!sched_input_host(&s->in, name, &h)) {
			g_set_error(error, SCN_ERROR, 0, "%s:%d: no host %s", s->path, line, name);
			return g_string_free(out, TRUE), NULL;
		}
		if (out->len > 0)
			g_string_append_c(out, ' ');
		if (n != 1)
			g_string_append_printf(out, "%d*", (int)n);
		g_string_append(out, name);
	}
	return g_string_free(out, FALSE);
}

gboolean
scn_expect_line(Scenario *s, char **a, int line, GError **error)
{
	guint n = g_strv_length(a);
	guint idx;
	gint64 num;
	ScnKind k;
	gboolean handled;

	if (!scn_reclaim_expect(s, a, line, &handled, error))
		return FALSE;
	if (handled)
		return TRUE;
	if (n == 2 && strcmp(a[1], "order") == 0) {
		s->ordered = TRUE;
	} else if (n == 2 && strcmp(a[1], "nothing") == 0) {
		/* Every decision must be expected anyway; this says so, and makes
		 * a scenario about a job that waits a complete one. */
		s->nothing_line = line;
	} else if (n >= 5 && strcmp(a[1], "dispatch") == 0 && strcmp(a[3], "on") == 0) {
		char *hosts;

		if (!pending_known(s, a[2]))
			FAIL(line, "expect dispatch: no pending job %s", a[2]);
		if ((hosts = canonical_hosts(s, a + 4, line, error)) == NULL)
			return FALSE;
		scn_add_expect(s, SCN_DISPATCH, line,
		    g_strdup_printf("dispatch %s on %s", a[2], hosts));
		g_free(hosts);
	} else if (n == 5 && (strcmp(a[1], "preempt") == 0 ||
	    strcmp(a[1], "terminate") == 0) && strcmp(a[3], "for") == 0) {
		if (!scn_running_known(s, a[2]))
			FAIL(line, "expect %s: no running job %s", a[1], a[2]);
		if (!pending_known(s, a[4]))
			FAIL(line, "expect %s: no pending job %s", a[1], a[4]);
		scn_add_expect(s, a[1][0] == 'p' ? SCN_PREEMPT : SCN_TERMINATE, line,
		    g_strdup_printf("%s %s for %s", a[1], a[2], a[4]));
	} else if (n == 3 && strcmp(a[1], "deadline-exit") == 0) {
		if (!pending_known(s, a[2]))
			FAIL(line, "expect deadline-exit: no pending job %s", a[2]);
		scn_add_expect(s, SCN_DEADLINE_EXIT, line,
		    g_strdup_printf("deadline-exit %s", a[2]));
	} else if (n == 3 && (k = running_kind(a[1])) != SCN_PENDING) {
		if (!scn_running_known(s, a[2]))
			FAIL(line, "expect %s: no running job %s", a[1], a[2]);
		scn_add_expect(s, k, line, g_strdup_printf("%s %s", a[1], a[2]));
	} else if (n >= 7 && strcmp(a[1], "reserve") == 0 && strcmp(a[3], "on") == 0 &&
	    strcmp(a[n - 2], "start") == 0) {
		g_autofree char *hosts = NULL;
		g_autofree char *when = NULL;
		char *start = a[n - 2];
		gint64 in;

		if (!pending_known(s, a[2]))
			FAIL(line, "expect reserve: no pending job %s", a[2]);
		if (strcmp(a[n - 1], "unknown") == 0)
			in = -1;
		else if (strcmp(a[n - 1], "now") == 0)
			in = 0;
		else if (!scn_parse_duration(a[n - 1] + (a[n - 1][0] == '+'), &in) || in <= 0)
			FAIL(line, "expect reserve: start is +DURATION, now or unknown, "
			    "not \"%s\"", a[n - 1]);
		a[n - 2] = NULL;
		hosts = canonical_hosts(s, a + 4, line, error);
		a[n - 2] = start;
		if (hosts == NULL)
			return FALSE;
		when = scn_start_text(in);
		scn_add_expect(s, SCN_RESERVE, line, g_strdup_printf("reserve %s on %s start %s",
		    a[2], hosts, when));
	} else if (n == 5 && strcmp(a[1], "reserve-ban") == 0 &&
	    strcmp(a[3], "until") == 0) {
		g_autofree char *when = NULL;
		gint64 in;

		if (!pending_known(s, a[2]))
			FAIL(line, "expect reserve-ban: no pending job %s", a[2]);
		if (!scn_parse_duration(a[4] + (a[4][0] == '+'), &in) || in <= 0)
			FAIL(line, "expect reserve-ban: until +DURATION, not \"%s\"", a[4]);
		when = scn_start_text(in);
		scn_add_expect(s, SCN_RESERVE_BAN, line,
		    g_strdup_printf("reserve-ban %s until %s", a[2], when));
	} else if (n == 4 && strcmp(a[1], "pending") == 0) {
		g_autofree char *text = g_strdup(a[3]);

		if (!pending_known(s, a[2]))
			FAIL(line, "expect pending: no pending job %s", a[2]);
		g_strdelimit(text, "\n", ' ');
		scn_add_expect(s, SCN_PENDING, line,
		    g_strdup_printf("pending %s \"%s\"", a[2], g_strstrip(text)));
	} else if (n == 4 && strcmp(a[1], "deserved") == 0) {
		if (!sched_input_queue(&s->in, a[2], &idx))
			FAIL(line, "expect deserved: no queue %s", a[2]);
		if (!scn_parse_int(a[3], -1, 10000000, &num))
			FAIL(line, "expect deserved: a number of slots, not \"%s\"", a[3]);
		scn_add_expect(s, SCN_DESERVED, line,
		    g_strdup_printf("deserved %s %d", a[2], (int)num));
	} else if (n == 4 && strcmp(a[1], "slots") == 0) {
		if (!sched_input_queue(&s->in, a[2], &idx))
			FAIL(line, "expect slots: no queue %s", a[2]);
		if (!scn_parse_int(a[3], 0, 10000000, &num))
			FAIL(line, "expect slots: a number of slots, not \"%s\"", a[3]);
		scn_add_expect(s, SCN_SLOTS, line,
		    g_strdup_printf("slots %s %d", a[2], (int)num))->queue = idx;
	} else if (n == 4 && strcmp(a[1], "pool") == 0) {
		gboolean found = FALSE;

		for (guint i = 0; i < s->in.pools->len; i++)
			found |= strcmp(g_array_index(s->in.pools, SchedPool, i).name, a[2]) == 0;
		if (!found)
			FAIL(line, "expect pool: no SLOT_POOL %s", a[2]);
		if (!scn_parse_int(a[3], 0, 10000000, &num))
			FAIL(line, "expect pool: a number of slots, not \"%s\"", a[3]);
		scn_add_expect(s, SCN_POOL, line, g_strdup_printf("pool %s %d", a[2], (int)num));
	} else if (n == 5 && (strcmp(a[1], "quota") == 0 || strcmp(a[1], "alloc") == 0)) {
		gboolean quota = strcmp(a[1], "quota") == 0;

		if (bs_config_consumer(s->cfg, a[2]) == NULL)
			FAIL(line, "expect %s: no consumer %s in lsb.consumers", a[1], a[2]);
		if (bs_config_resource_group(s->cfg, a[3]) == NULL)
			FAIL(line, "expect %s: no resource group %s in lsb.consumers", a[1], a[3]);
		if (!scn_parse_int(a[4], 0, 10000000, &num))
			FAIL(line, "expect %s: a number of slots, not \"%s\"", a[1], a[4]);
		scn_add_expect(s, quota ? SCN_QUOTA : SCN_ALLOC, line,
		    g_strdup_printf("%s %s %s %d", a[1], a[2], a[3], (int)num));
	} else if (n == 3 && strcmp(a[1], "wake") == 0) {
		gint64 in = -1;

		if (strcmp(a[2], "none") != 0 &&
		    (!scn_parse_duration(a[2] + (a[2][0] == '+'), &in) || in <= 0))
			FAIL(line, "expect wake: +DURATION (90s, 30m, 2h, 1d) or none, "
			    "not \"%s\"", a[2]);
		scn_add_expect(s, SCN_WAKE, line, scn_wake_text(in));
	} else {
		FAIL(line, "expect: not understood (dispatch ID on HOSTS, preempt V for ID, "
		    "terminate V for ID, resume ID, reserve ID on HOSTS start WHEN, "
		    "reserve-ban ID until +DURATION, pending ID \"TEXT\", deserved QUEUE N, "
		    "pool POOL N, slots QUEUE N, quota CONSUMER GROUP N, "
		    "alloc CONSUMER GROUP N, window-suspend ID, window-resume ID, "
		    "window-terminate ID, wake +DURATION, order, nothing)");
	}
	return TRUE;
}
