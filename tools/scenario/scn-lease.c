/*
 * Lease timelines in a scenario (basalt-scenario(5), "Leases"): the
 * MultiCluster lease stage (mbatchd/sched/stage-lease.c) run over virtual
 * time.  The HostExport sections and MC_RECLAIM_DELAY come from the
 * scenario's configuration, read by the real lib/conf readers; `lease`
 * lines start leases at the scenario's `now`; each `at TIME` step sets
 * what the clusters run and want (`used`, `demand`, `link`, `noack`,
 * `noreport`),
 * runs the stage at that time and checks the step's `expect lease` and
 * `expect lease-wake` lines.
 *
 * Between steps the consumer is taken to have applied every lease update
 * it was sent (so an inactive lease is ok again at the next step) unless
 * the step says `noack`, and to have reported its figures over the link
 * unless the step says `noreport`.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched/lease.h"
#include "tools/scenario/scn-internal.h"

typedef struct {
	Lease *lease;
	LeaseHostUse *use;        /* one per lease host */
	gboolean provider_pending, consumer_pending, linked, noack, noreport;
	guint64 acked;
	LeaseOutcome last;        /* this step's outcome (lease not owned) */
	int line;
} ScnLease;

typedef struct {
	int line;
	gint64 at;                /* seconds after `now` */
	GPtrArray *lines;         /* ScnDeferred* (borrowed): inputs and expects */
} ScnStep;

struct ScnLeases {
	GPtrArray *leases;        /* ScnLease* */
	GPtrArray *steps;         /* ScnStep* */
	GPtrArray *deferred;      /* ScnDeferred*, owned: every timeline line */
	int delay;                /* MC_RECLAIM_DELAY, seconds */
	gint64 start;
};

static void
lease_item_free(gpointer p)
{
	ScnLease *l = p;

	lease_free(l->lease);
	g_free(l->use);
	g_free(l);
}

static void
step_free(gpointer p)
{
	ScnStep *st = p;

	g_ptr_array_unref(st->lines);
	g_free(st);
}

void
scn_leases_free(ScnLeases *ls)
{
	if (ls == NULL)
		return;
	g_ptr_array_unref(ls->leases);
	g_ptr_array_unref(ls->steps);
	g_ptr_array_unref(ls->deferred);
	g_free(ls);
}

gboolean
scn_is_lease_line(char **argv)
{
	static const char *const words[] = {
		"lease", "at", "used", "demand", "link", "noack", "noreport", NULL,
	};

	if (strcmp(argv[0], "expect") == 0)
		return argv[1] != NULL && (strcmp(argv[1], "lease") == 0 ||
		    strcmp(argv[1], "lease-wake") == 0);
	for (guint i = 0; words[i] != NULL; i++)
		if (strcmp(argv[0], words[i]) == 0)
			return TRUE;
	return FALSE;
}

static ScnLease *
find(ScnLeases *ls, const char *policy, const char *consumer)
{
	for (guint i = 0; i < ls->leases->len; i++) {
		ScnLease *l = ls->leases->pdata[i];

		if (strcmp(l->lease->policy, policy) == 0 && strcmp(l->lease->consumer, consumer) == 0)
			return l;
	}
	return NULL;
}

static int
host_index(const Lease *l, const char *host)
{
	for (guint i = 0; i < l->hosts->len; i++)
		if (strcmp(((const LeaseHost *)l->hosts->pdata[i])->name, host) == 0)
			return (int)i;
	return -1;
}

/* "hA:4,hB:2" into names and slot counts. */
static gboolean
parse_hosts(const char *v, GPtrArray *names, GArray *slots)
{
	g_auto(GStrv) parts = g_strsplit(v, ",", -1);

	for (guint i = 0; parts[i] != NULL; i++) {
		char *colon = strchr(parts[i], ':');
		gint64 n;

		if (colon == NULL || colon == parts[i])
			return FALSE;
		*colon = '\0';
		if (!scn_parse_int(colon + 1, 1, 100000, &n))
			return FALSE;
		g_ptr_array_add(names, g_strdup(parts[i]));
		g_array_append_val(slots, (int){ (int)n });
	}
	return names->len > 0;
}

/* lease POLICY CONSUMER [hosts=h:n,...]: the consumer's part of the
 * export, divided among DISTRIBUTION's consumers by lease_divide(). */
static gboolean
lease_line(Scenario *s, ScnLeases *ls, char **argv, int line, GError **error)
{
	const BsHostExport *e;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) mine = g_ptr_array_new();
	g_autoptr(GArray) slots = g_array_new(FALSE, FALSE, sizeof(int));
	g_autoptr(GArray) my_slots = g_array_new(FALSE, FALSE, sizeof(int));
	g_autofree int *shares = NULL, *parts = NULL;
	int me = -1;
	gboolean from_config;
	ScnLease *l;

	if (argv[1] == NULL || argv[2] == NULL)
		FAIL(line, "lease: POLICY CONSUMER [hosts=HOST:SLOTS,...]");
	e = bs_config_host_export(s->cfg, argv[1]);
	if (e == NULL)
		FAIL(line, "lease: no HostExport section named %s", argv[1]);
	shares = g_new0(int, MAX(e->distribution->len, 1));
	for (guint i = 0; i < e->distribution->len; i++) {
		const BsShare *sh = e->distribution->pdata[i];

		shares[i] = sh->shares;
		if (strcmp(sh->name, argv[2]) == 0)
			me = (int)i;
	}
	if (me < 0)
		FAIL(line, "lease: HostExport %s does not export to cluster %s", argv[1], argv[2]);
	if (find(ls, argv[1], argv[2]) != NULL)
		FAIL(line, "lease %s %s: already started", argv[1], argv[2]);
	for (guint i = 3; argv[i] != NULL; i++) {
		const char *v = scn_kv(argv[i], "hosts");

		if (v == NULL || !parse_hosts(v, names, slots))
			FAIL(line, "lease: unknown word \"%s\" (hosts=HOST:SLOTS,...)", argv[i]);
	}
	if (names->len == 0 && e->kind == BS_EXPORT_RES_SELECT)
		FAIL(line, "lease %s: a RES_SELECT export needs hosts=HOST:SLOTS,... "
		    "(the hosts its selection chose)", argv[1]);
	from_config = names->len == 0;
	for (guint i = 0; from_config && e->per_host != NULL && e->per_host[i] != NULL; i++) {
		g_ptr_array_add(names, g_strdup(e->per_host[i]));
		g_array_append_val(slots, e->slots);
	}
	parts = g_new0(int, MAX(e->distribution->len * slots->len, 1));
	lease_divide(shares, e->distribution->len, (const int *)(void *)slots->data, slots->len,
	    e->kind == BS_EXPORT_RES_SELECT, parts);
	for (guint h = 0; h < slots->len; h++)
		if (parts[(guint)me * slots->len + h] > 0) {
			g_ptr_array_add(mine, names->pdata[h]);
			g_array_append_val(my_slots, parts[(guint)me * slots->len + h]);
		}
	if (mine->len == 0)
		FAIL(line, "lease %s %s: the consumer's part of the export is empty", argv[1], argv[2]);
	l = g_new0(ScnLease, 1);
	l->lease = lease_new(e->name, s->cfg->cluster->name, argv[2], e->shared,
	    (const char *const *)mine->pdata, (const int *)(void *)my_slots->data, my_slots->len);
	l->use = g_new0(LeaseHostUse, my_slots->len);
	l->linked = l->provider_pending = l->consumer_pending = TRUE;
	l->line = line;
	g_ptr_array_add(ls->leases, l);
	return TRUE;
}

static gboolean
yes_no(const char *v, gboolean *out)
{
	if (v != NULL && strcmp(v, "yes") == 0)
		*out = TRUE;
	else if (v != NULL && strcmp(v, "no") == 0)
		*out = FALSE;
	else
		return FALSE;
	return TRUE;
}

static gboolean
need_lease(Scenario *s, ScnLeases *ls, char **argv, int line, ScnLease **out, GError **error)
{
	if (argv[1] == NULL || argv[2] == NULL)
		FAIL(line, "%s: POLICY CONSUMER first", argv[0]);
	*out = find(ls, argv[1], argv[2]);
	if (*out == NULL)
		FAIL(line, "%s: no lease %s to %s (a `lease` line starts it)", argv[0],
		    argv[1], argv[2]);
	return TRUE;
}

/* used / demand / link / noack / noreport, applied when their step runs. */
static gboolean
input_line(Scenario *s, ScnLeases *ls, char **argv, int line, GError **error)
{
	ScnLease *l;

	if (!need_lease(s, ls, argv, line, &l, error))
		return FALSE;
	if (strcmp(argv[0], "used") == 0) {
		int h = argv[3] != NULL ? host_index(l->lease, argv[3]) : -1;

		if (h < 0)
			FAIL(line, "used: POLICY CONSUMER HOST provider=N consumer=N, "
			    "HOST one of the lease's");
		for (guint i = 4; argv[i] != NULL; i++) {
			const char *pv = scn_kv(argv[i], "provider"), *cv = scn_kv(argv[i], "consumer");
			gint64 n;

			if (!scn_parse_int(pv != NULL ? pv : cv, 0, 100000, &n))
				FAIL(line, "used: unknown word \"%s\"", argv[i]);
			if (pv != NULL)
				l->use[h].provider_used = (int)n;
			else
				l->use[h].consumer_used = (int)n;
		}
	} else if (strcmp(argv[0], "demand") == 0) {
		for (guint i = 3; argv[i] != NULL; i++) {
			const char *pv = scn_kv(argv[i], "provider"), *cv = scn_kv(argv[i], "consumer");

			if (!yes_no(pv != NULL ? pv : cv, pv != NULL ? &l->provider_pending :
			    &l->consumer_pending))
				FAIL(line, "demand: provider=yes|no consumer=yes|no, not \"%s\"", argv[i]);
		}
	} else if (strcmp(argv[0], "link") == 0) {
		if (argv[3] == NULL || (strcmp(argv[3], "up") != 0 && strcmp(argv[3], "down") != 0))
			FAIL(line, "link: POLICY CONSUMER up|down");
		l->linked = strcmp(argv[3], "up") == 0;
	} else if (strcmp(argv[0], "noack") == 0) {
		l->noack = TRUE;
	} else {
		l->noreport = TRUE;
	}
	return TRUE;
}

static void
split_text(GString *t, const Lease *l)
{
	for (guint i = 0; i < l->hosts->len; i++) {
		const LeaseHost *h = l->hosts->pdata[i];

		g_string_append_printf(t, "%s%s:%d", i > 0 ? "," : "", h->name, h->consumer_slots);
	}
}

/* The value of one expectation key for the lease now, or NULL. */
static char *
actual_value(const ScnLease *l, const char *key)
{
	const Lease *x = l->lease;
	GString *t;

	if (strcmp(key, "provider") == 0)
		return g_strdup_printf("%d", lease_provider_slots(x));
	if (strcmp(key, "consumer") == 0)
		return g_strdup_printf("%d", lease_consumer_slots(x));
	if (strcmp(key, "status") == 0)
		return g_strdup(lease_status_name(x->status));
	if (strcmp(key, "made") == 0)
		return g_strdup(x->made ? "yes" : "no");
	if (strcmp(key, "generation") == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT, x->generation);
	if (strcmp(key, "idle") == 0)
		return g_strdup_printf("%d/%d", x->last_idle_provider, x->last_idle_consumer);
	if (strcmp(key, "evaluated") == 0)
		return g_strdup(l->last.evaluated ? "yes" : "no");
	if (strcmp(key, "open") == 0) {
		int p = 0, c = 0;

		for (guint h = 0; h < x->hosts->len; h++) {
			p += lease_open_slots(x, h, &l->use[h], FALSE);
			c += lease_open_slots(x, h, &l->use[h], TRUE);
		}
		return g_strdup_printf("%d/%d", p, c);
	}
	if (strcmp(key, "split") != 0)
		return NULL;
	t = g_string_new(NULL);
	split_text(t, x);
	return g_string_free(t, FALSE);
}

static gboolean
check_expect(Scenario *s, ScnLeases *ls, char **argv, int line, gint64 at, gint64 wake,
    GString *report, GError **error)
{
	gboolean ok = TRUE;
	ScnLease *l;

	if (strcmp(argv[1], "lease-wake") == 0) {
		gint64 want = 0;
		gboolean none;
		g_autofree char *got = wake == G_MAXINT64 ? g_strdup("none") :
		    g_strdup_printf("+%" G_GINT64_FORMAT "s", wake - (ls->start + at));

		if (argv[2] == NULL || argv[3] != NULL)
			FAIL(line, "expect lease-wake: +DURATION or none");
		none = strcmp(argv[2], "none") == 0;
		if (!none && !scn_parse_duration(argv[2][0] == '+' ? argv[2] + 1 : argv[2], &want))
			FAIL(line, "expect lease-wake: +DURATION or none");
		if (none ? wake == G_MAXINT64 :
		    wake != G_MAXINT64 && wake == ls->start + at + want)
			return TRUE;
		g_string_append_printf(report, "line %d (at +%" G_GINT64_FORMAT "s): expected "
		    "lease-wake %s, got %s\n", line, at, argv[2], got);
		return FALSE;
	}
	if (!need_lease(s, ls, argv + 1, line, &l, error))
		return FALSE;
	for (guint i = 4; argv[i] != NULL; i++) {
		const char *eq = strchr(argv[i], '=');
		g_autofree char *key = eq != NULL ? g_strndup(argv[i], (gsize)(eq - argv[i])) : NULL;
		g_autofree char *got = key != NULL ? actual_value(l, key) : NULL;

		if (got == NULL)
			FAIL(line, "expect lease: unknown word \"%s\" (provider=, consumer=, "
			    "status=, made=, generation=, idle=P/C, evaluated=, open=P/C, "
			    "split=HOST:N,...)",
			    argv[i]);
		if (strcmp(got, eq + 1) != 0) {
			g_string_append_printf(report, "line %d (at +%" G_GINT64_FORMAT "s): "
			    "lease %s %s: expected %s, got %s=%s\n", line, at, argv[2], argv[3],
			    argv[i], key, got);
			ok = FALSE;
		}
	}
	return ok;
}

static void
trace_step(const ScnLeases *ls, gint64 at, gint64 wake, GString *trace)
{
	for (guint i = 0; i < ls->leases->len; i++) {
		const ScnLease *l = ls->leases->pdata[i];
		const Lease *x = l->lease;

		g_string_append_printf(trace, "at +%" G_GINT64_FORMAT "s lease %s %s provider=%d "
		    "consumer=%d status=%s made=%s generation=%" G_GUINT64_FORMAT
		    " idle=%d/%d evaluated=%s split=", at, x->policy, x->consumer,
		    lease_provider_slots(x), lease_consumer_slots(x), lease_status_name(x->status),
		    x->made ? "yes" : "no", x->generation, x->last_idle_provider,
		    x->last_idle_consumer, l->last.evaluated ? "yes" : "no");
		split_text(trace, x);
		{
			g_autofree char *open = actual_value(l, "open");

			g_string_append_printf(trace, " open=%s", open);
		}
		g_string_append_printf(trace, " # %s\n", l->last.why != NULL ? l->last.why : "");
	}
	if (wake == G_MAXINT64)
		g_string_append_printf(trace, "at +%" G_GINT64_FORMAT "s lease-wake none\n", at);
	else
		g_string_append_printf(trace, "at +%" G_GINT64_FORMAT "s lease-wake +%"
		    G_GINT64_FORMAT "s\n", at, wake - (ls->start + at));
}

/* One step: inputs, the consumer's acknowledgement, the stage, checks. */
static gboolean
run_step(Scenario *s, ScnLeases *ls, const ScnStep *st, GString *report, GString *trace,
    gboolean *ok, GError **error)
{
	g_autofree LeaseInput *in = g_new0(LeaseInput, MAX(ls->leases->len, 1));
	LeaseStageIn sin = { ls->start + st->at, ls->delay, in, ls->leases->len };
	LeaseStageOut out;
	g_autoptr(GError) err = NULL;

	for (guint i = 0; i < ls->leases->len; i++) {
		ScnLease *l = ls->leases->pdata[i];

		l->noack = l->noreport = FALSE;
	}
	for (guint i = 0; i < st->lines->len; i++) {
		const ScnDeferred *d = st->lines->pdata[i];

		if (strcmp(d->argv[0], "expect") != 0 && !input_line(s, ls, d->argv, d->line, error))
			return FALSE;
	}
	for (guint i = 0; i < ls->leases->len; i++) {
		ScnLease *l = ls->leases->pdata[i];

		if (!l->noack && l->linked)
			l->acked = l->lease->generation;
		in[i] = (LeaseInput){ l->lease, l->use, l->provider_pending, l->consumer_pending,
		    l->linked, l->acked, l->noreport };
	}
	if (!lease_stage_run(&sin, &out, &err))
		FAIL(st->line, "the lease stage refused the step: %s", err->message);
	for (guint i = 0; i < out.n; i++) {
		ScnLease *l = ls->leases->pdata[i];

		lease_free(l->lease);
		l->lease = out.out[i].lease;
		l->last = out.out[i];
		out.out[i].lease = NULL;
	}
	lease_stage_out_clear(&out);
	if (trace != NULL)
		trace_step(ls, st->at, out.wake, trace);
	for (guint i = 0; i < st->lines->len; i++) {
		const ScnDeferred *d = st->lines->pdata[i];
		g_autoptr(GError) e2 = NULL;

		if (strcmp(d->argv[0], "expect") != 0)
			continue;
		if (!check_expect(s, ls, d->argv, d->line, st->at, out.wake, report, &e2)) {
			if (e2 != NULL) {
				g_propagate_error(error, g_steal_pointer(&e2));
				return FALSE;
			}
			*ok = FALSE;
		}
	}
	return TRUE;
}

gboolean
scn_lease_load(Scenario *s, GPtrArray *lines, GError **error)
{
	ScnLeases *ls;
	ScnStep *cur = NULL;

	if (lines->len == 0)
		return TRUE;
	ls = g_new0(ScnLeases, 1);
	ls->leases = g_ptr_array_new_with_free_func(lease_item_free);
	ls->steps = g_ptr_array_new_with_free_func(step_free);
	ls->deferred = g_ptr_array_ref(lines);
	ls->delay = s->cfg->params->mc_reclaim_delay;
	ls->start = g_date_time_to_unix(s->now);
	s->leases = ls;
	for (guint i = 0; i < lines->len; i++) {
		const ScnDeferred *d = lines->pdata[i];
		char **argv = d->argv;

		if (strcmp(argv[0], "lease") == 0) {
			if (cur != NULL)
				FAIL(d->line, "lease lines come before the first `at` step");
			if (!lease_line(s, ls, argv, d->line, error))
				return FALSE;
		} else if (strcmp(argv[0], "at") == 0) {
			gint64 at;

			if (argv[1] == NULL || argv[2] != NULL ||
			    !scn_parse_duration(argv[1][0] == '+' ? argv[1] + 1 : argv[1], &at) || at < 0)
				FAIL(d->line, "at: a time after `now`: 0, 30s, 10m, 2h");
			if (cur != NULL && at <= cur->at)
				FAIL(d->line, "at: steps go forward in time (the last was +%"
				    G_GINT64_FORMAT "s)", cur->at);
			cur = g_new0(ScnStep, 1);
			cur->line = d->line;
			cur->at = at;
			cur->lines = g_ptr_array_new();
			g_ptr_array_add(ls->steps, cur);
		} else {
			ScnLease *l;

			if (cur == NULL)
				FAIL(d->line, "%s%s%s: inside an `at` step only", argv[0],
				    argv[0][0] == 'e' ? " " : "", argv[0][0] == 'e' ? argv[1] : "");
			if (strcmp(argv[0], "expect") != 0 || strcmp(argv[1], "lease") == 0) {
				char **a = strcmp(argv[0], "expect") == 0 ? argv + 1 : argv;

				if (!need_lease(s, ls, a, d->line, &l, error))
					return FALSE;
				if (a != argv && a[3] == NULL)
					FAIL(d->line, "expect lease %s %s: name what to check "
					    "(key=value ...)", a[1], a[2]);
			}
			g_ptr_array_add(cur->lines, (gpointer)d);
		}
	}
	if (ls->leases->len == 0)
		FAIL(((ScnDeferred *)lines->pdata[0])->line, "lease steps without a `lease` line");
	if (ls->steps->len == 0)
		FAIL(((ScnDeferred *)lines->pdata[0])->line, "leases without an `at` step");
	return TRUE;
}

gboolean
scn_lease_run(Scenario *s, GString *report, GString *trace)
{
	ScnLeases *ls = s->leases;
	gboolean ok = TRUE;

	for (guint i = 0; ls != NULL && i < ls->steps->len; i++) {
		g_autoptr(GError) err = NULL;
		GError **error = &err;

		if (!run_step(s, ls, ls->steps->pdata[i], report, trace, &ok, error)) {
			g_string_append_printf(report, "%s\n", err->message);
			return FALSE;
		}
	}
	return ok;
}
