/*
 * Running and pending jobs of a scenario, read against the loaded
 * configuration (queues, hosts, users through sched-input), as the
 * daemon's snapshot holds them.
 * Pending jobs reach the scheduler in file order, which stands for
 * submission order (each queue's dispatch order, and the order among
 * queues of equal priority).
 */
#include "config.h"

#include <string.h>

#include "resreq/resreq.h"
#include "tools/scenario/scn-internal.h"

static gboolean
job_queue(Scenario *s, const char *v, int line, guint *q, GError **error)
{
	/* Without queue=, DEFAULT_QUEUE's first existing queue, else the first
	 * of lsb.queues: a one-queue scenario need not name it. */
	if (v == NULL) {
		const char *const *dq = bs_config_default_queues(s->cfg);

		for (guint i = 0; dq[i] != NULL; i++)
			if (sched_input_queue(&s->in, dq[i], q))
				return TRUE;
		*q = 0;
		return TRUE;
	}
	if (!sched_input_queue(&s->in, v, q))
		FAIL(line, "no queue %s in the configuration", v);
	return TRUE;
}

/* consumer=/X/A (bsub -consumer): a leaf of lsb.consumers; without it,
 * the queue's CONSUMER, by the daemon's rule (sched_input_job_consumer). */
static gboolean
job_consumer(Scenario *s, const char *v, guint queue, int line, guint *out,
    GError **error)
{
	*out = sched_input_job_consumer(&s->in, queue, v);
	if (v != NULL && *out == 0)
		FAIL(line, "consumer=%s is no leaf consumer of lsb.consumers", v);
	return TRUE;
}

/* "2*hostA hostB" into allocs, stored as an offset (scn_fix_pointers
 * turns it into a pointer); slots of one host are merged. */
static gboolean
parse_allocs(Scenario *s, const char *v, int line, SchedAlloc **first,
    guint *n_allocs, GError **error)
{
	g_auto(GStrv) w = g_strsplit_set(v, " ,", -1);

	*first = GUINT_TO_POINTER(s->allocs->len + 1);
	for (guint i = 0; w[i] != NULL; i++) {
		const char *star = strchr(w[i], '*');
		const char *name = star != NULL ? star + 1 : w[i];
		SchedAlloc a = { 0, 1 };
		gint64 n;

		if (*w[i] == '\0')
			continue;
		if (star != NULL) {
			g_autofree char *num = g_strndup(w[i], (gsize)(star - w[i]));

			if (!scn_parse_int(num, 1, 100000, &n))
				FAIL(line, "hosts: bad slot count in \"%s\"", w[i]);
			a.slots = (int)n;
		}
		if (!sched_input_host(&s->in, name, &a.host))
			FAIL(line, "hosts: no host %s", name);
		g_array_append_val(s->allocs, a);
		(*n_allocs)++;
	}
	if (*n_allocs == 0)
		FAIL(line, "hosts=\"...\" is needed (e.g. hosts=\"2*hostA hostB\")");
	return TRUE;
}

/* -app as mbatchd gives it to limits: the profile, else the default. */
static guint
scn_job_app(Scenario *s, const char *app)
{
	const BsAppConf *def = bs_config_default_app(s->cfg);

	if (app != NULL)
		return sched_input_app(&s->in, app);
	return sched_input_app(&s->in, def != NULL ? def->name : NULL);
}

/* W=DURATION: the job's run limit (bsub -W), in seconds. */
static gboolean
parse_run_limit(const char *v, int line, gint64 *out, GError **error, Scenario *s)
{
	if (!scn_parse_duration(v, out) || *out <= 0)
		FAIL(line, "W is a run limit (90s, 30m, 2h), not \"%s\"", v);
	return TRUE;
}

/* The job's profile, else DEFAULT_APPLICATION, as mbatchd resolves it. */
static const BsAppConf *
scn_app_conf(Scenario *s, const char *app)
{
	return app != NULL ? bs_config_app(s->cfg, app) : bs_config_default_app(s->cfg);
}

/* No W=: the application's or the queue's RUNLIMIT. */
static gint64
default_run_limit(Scenario *s, guint queue, const char *app)
{
	return sched_input_run_limit(g_ptr_array_index(s->cfg->queues, queue),
	    app != NULL ? bs_config_app(s->cfg, app) : bs_config_default_app(s->cfg));
}

static gboolean
run_line(Scenario *s, char **argv, int line, GError **error)
{
	SchedRunning r = { 0 };
	guint32 index;
	const char *queue = NULL, *user = "user1", *app = NULL, *project = NULL;
	const char *consumer = NULL;
	gboolean have_hosts = FALSE, preempted = FALSE;
	gint64 ran = 0;

	if (!scn_parse_job_id(argv[1], &r.id, &index))
		FAIL(line, "run: a job id is needed (12 or 12[3])");
	r.array_id = index > 0 ? r.id : 0;
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;
		gint64 n;

		if ((v = scn_kv(argv[i], "queue")) != NULL) {
			queue = v;
		} else if ((v = scn_kv(argv[i], "user")) != NULL) {
			user = v;
		} else if ((v = scn_kv(argv[i], "app")) != NULL) {
			app = v;
		} else if ((v = scn_kv(argv[i], "P")) != NULL) {
			project = v;
		} else if ((v = scn_kv(argv[i], "R")) != NULL) {
			g_autoptr(GError) err = NULL;
			BsResReq *rr = bs_resreq_parse(v, &err);

			if (rr == NULL)
				FAIL(line, "run: R: %s", err->message);
			g_ptr_array_add(s->resreqs, rr);
			r.resreq = rr;
		} else if ((v = scn_kv(argv[i], "hosts")) != NULL) {
			if (!parse_allocs(s, v, line, &r.allocs, &r.n_allocs, error))
				return FALSE;
			have_hosts = TRUE;
		} else if ((v = scn_kv(argv[i], "W")) != NULL) {
			if (!parse_run_limit(v, line, &r.run_limit, error, s))
				return FALSE;
		} else if ((v = scn_kv(argv[i], "consumer")) != NULL) {
			consumer = v;
		} else if ((v = scn_kv(argv[i], "state")) != NULL) {
			if (strcmp(v, "RUN") == 0)
				r.state = SCHED_RUN_RUN;
			else if (strcmp(v, "SSUSP") == 0)
				r.state = SCHED_RUN_SSUSP;
			else if (strcmp(v, "USUSP") == 0)
				r.state = SCHED_RUN_USUSP;
			else
				FAIL(line, "run: state is RUN, SSUSP or USUSP, not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "ran")) != NULL) {
			if (!scn_parse_duration(v, &ran) || ran < 0)
				FAIL(line, "run: ran is a duration (90s, 5m, 2h), not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "preemptions")) != NULL) {
			if (!scn_parse_int(v, 0, 1000000, &n))
				FAIL(line, "run: bad preemptions \"%s\"", v);
			r.preempt_count = (int)n;
		} else if (strcmp(argv[i], "preempted") == 0) {
			preempted = TRUE;
		} else if (strcmp(argv[i], "window-held") == 0) {
			r.window_held = TRUE;
		} else if (strcmp(argv[i], "terminating") == 0) {
			r.terminating = TRUE;
		} else if (strcmp(argv[i], "x") == 0) {
			r.exclusive = TRUE;
		} else if ((v = scn_kv(argv[i], "We")) != NULL) {
			if (!scn_parse_duration(v, &r.est_runtime) || r.est_runtime <= 0)
				FAIL(line, "run: We is an estimated run time (30m), not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "t")) != NULL) {
			if (!scn_parse_duration(v, &r.term_time))
				FAIL(line, "run: t is a termination time from now (10m, -1m), "
				    "not \"%s\"", v);
			r.term_time += g_date_time_to_unix(s->now);
		} else if (strcmp(argv[i], "deadline-sent") == 0) {
			r.deadline_sent = TRUE;
		} else if ((v = scn_kv(argv[i], "group")) != NULL) {
			if ((r.jobgroup = sched_input_jobgroup(&s->in, v)) == 0)
				FAIL(line, "run: group is a job group path (/a/b), "
				    "not \"%s\"", v);
		} else {
			gboolean handled;

			if (!scn_reclaim_run_word(s, &r, argv[i], line, &handled, error))
				return FALSE;
			if (!handled)
				FAIL(line, "run: unknown word \"%s\"", argv[i]);
		}
	}
	if (!have_hosts)
		FAIL(line, "run: hosts=\"...\" is needed (e.g. hosts=\"2*hostA hostB\")");
	if ((preempted || r.window_held) && r.state != SCHED_RUN_SSUSP)
		FAIL(line, "run: only an SSUSP job can be suspended by preemption "
		    "or a window");
	if (preempted && r.window_held)
		FAIL(line, "run: preempted or window-held, not both");
	if (!job_queue(s, queue, line, &r.queue, error))
		return FALSE;
	if (app != NULL && bs_config_app(s->cfg, app) == NULL)
		FAIL(line, "run: no application profile %s", app);
	{
		const BsQueueConf *qc = g_ptr_array_index(s->cfg->queues, r.queue);
		int mp = bs_config_max_job_preempt(s->cfg, qc,
		    app != NULL ? bs_config_app(s->cfg, app) : bs_config_default_app(s->cfg));

		r.max_preempt = mp == BS_CONF_UNLIMITED ? 0 : mp;
	}
	r.user = sched_input_user(&s->in, user, TRUE);
	if (!job_consumer(s, consumer, r.queue, line, &r.consumer, error))
		return FALSE;
	r.project = sched_input_project(&s->in, project);
	r.app = scn_job_app(s, app);
	r.start_time = g_date_time_to_unix(s->now) - ran;
	if (r.run_limit == 0)
		r.run_limit = default_run_limit(s, r.queue, app);
	if (r.est_runtime == 0)
		r.est_runtime = sched_input_est_runtime(scn_app_conf(s, app), 0);
	r.preempted = preempted;
	g_array_append_val(s->running, r);
	g_array_append_val(s->run_index, index);
	return TRUE;
}

static gboolean
pend_line(Scenario *s, char **argv, int line, GError **error)
{
	SchedJob job = { 0 };
	SchedJob *j = &job;
	const char *queue = NULL, *user = "user1", *app = NULL, *project = NULL;
	const char *consumer = NULL;
	guint start = s->ints->len;
	g_autoptr(GArray) avoid = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GArray) refused = g_array_new(FALSE, FALSE, sizeof(guint));
	SchedAlloc *reserved = NULL;
	guint n_reserved = 0;
	gint64 reserving = -1, banned = 0;
	guint32 sp = 0;

	if (!scn_parse_job_id(argv[1], &j->id, &j->array_index))
		FAIL(line, "pend: a job id is needed (12 or 12[3])");
	j->array_id = j->array_index > 0 ? j->id : 0;
	j->min_slots = j->max_slots = 1;
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;
		gint64 n;

		if ((v = scn_kv(argv[i], "queue")) != NULL) {
			queue = v;
		} else if ((v = scn_kv(argv[i], "user")) != NULL) {
			user = v;
		} else if ((v = scn_kv(argv[i], "P")) != NULL) {
			project = v;
		} else if ((v = scn_kv(argv[i], "app")) != NULL) {
			if (bs_config_app(s->cfg, v) == NULL)
				FAIL(line, "pend: no application profile %s", v);
			app = v;
		} else if ((v = scn_kv(argv[i], "n")) != NULL) {
			g_auto(GStrv) mm = g_strsplit(v, ",", 3);
			gint64 lo, hi;

			if (mm[0] == NULL || !scn_parse_int(mm[0], 1, 100000, &lo) ||
			    (mm[1] != NULL && (!scn_parse_int(mm[1], lo, 100000, &hi) ||
			    mm[2] != NULL)))
				FAIL(line, "pend: n is MIN or MIN,MAX (bsub -n), not \"%s\"", v);
			j->min_slots = (int)lo;
			j->max_slots = mm[1] != NULL ? (int)hi : (int)lo;
		} else if ((v = scn_kv(argv[i], "m")) != NULL) {
			g_auto(GStrv) w = g_strsplit_set(v, " ,", -1);

			for (guint k = 0; w[k] != NULL; k++) {
				guint h;

				if (*w[k] == '\0')
					continue;
				if (!sched_input_host(&s->in, w[k], &h))
					FAIL(line, "pend: -m names no host %s", w[k]);
				g_array_append_val(s->ints, h);
			}
		} else if ((v = scn_kv(argv[i], "avoid")) != NULL ||
		    (v = scn_kv(argv[i], "refused")) != NULL) {
			GArray *into = g_str_has_prefix(argv[i], "avoid=") ? avoid : refused;
			g_auto(GStrv) w = g_strsplit_set(v, " ,", -1);

			for (guint k = 0; w[k] != NULL; k++) {
				guint h;

				if (*w[k] == '\0')
					continue;
				if (!sched_input_host(&s->in, w[k], &h))
					FAIL(line, "pend: %s names no host %s",
					    into == avoid ? "avoid" : "refused", w[k]);
				g_array_append_val(into, h);
			}
		} else if ((v = scn_kv(argv[i], "R")) != NULL) {
			g_autoptr(GError) err = NULL;
			BsResReq *rr = bs_resreq_parse(v, &err);
			int ptile;

			if (rr == NULL)
				FAIL(line, "pend: R: %s", err->message);
			g_ptr_array_add(s->resreqs, rr);
			j->one_host = bs_resreq_span_hosts(rr) == 1;
			ptile = bs_resreq_span_ptile(rr);
			j->ptile = ptile > 0 ? ptile : 0;
			j->resreq = rr;
		} else if ((v = scn_kv(argv[i], "app")) != NULL) {
			app = v;
		} else if ((v = scn_kv(argv[i], "W")) != NULL) {
			if (!parse_run_limit(v, line, &j->run_limit, error, s))
				return FALSE;
		} else if ((v = scn_kv(argv[i], "reserved")) != NULL) {
			if (!parse_allocs(s, v, line, &reserved, &n_reserved, error))
				return FALSE;
		} else if ((v = scn_kv(argv[i], "reserving")) != NULL) {
			if (!scn_parse_duration(v, &reserving) || reserving < 0)
				FAIL(line, "pend: reserving is how long the job has held its "
				    "reservation (0s, 5m), not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "reserve-banned")) != NULL) {
			if (!scn_parse_duration(v, &banned) || banned <= 0)
				FAIL(line, "pend: reserve-banned is how long until the job may "
				    "reserve again (1m), not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "consumer")) != NULL) {
			consumer = v;
		} else if (strcmp(argv[i], "held") == 0) {
			j->held = TRUE;
		} else if (strcmp(argv[i], "x") == 0) {
			j->exclusive = TRUE;
		} else if ((v = scn_kv(argv[i], "sp")) != NULL) {
			if (!scn_parse_int(v, 1, G_MAXINT32, &n))
				FAIL(line, "pend: sp is a user priority (1, 2, ...), not \"%s\"", v);
			sp = (guint32)n;
		} else if ((v = scn_kv(argv[i], "We")) != NULL) {
			if (!scn_parse_duration(v, &j->est_runtime) || j->est_runtime <= 0)
				FAIL(line, "pend: We is an estimated run time (30m), not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "t")) != NULL) {
			if (!scn_parse_duration(v, &j->term_time))
				FAIL(line, "pend: t is a termination time from now (10m, -1m), "
				    "not \"%s\"", v);
			j->term_time += g_date_time_to_unix(s->now);
		} else if ((v = scn_kv(argv[i], "dep")) != NULL) {
			if (strcmp(v, "wait") == 0)
				j->dep = SCHED_DEP_WAIT;
			else if (strcmp(v, "never") == 0)
				j->dep = SCHED_DEP_NEVER;
			else if (strcmp(v, "done") == 0)
				j->dep = SCHED_DEP_NONE;
			else
				FAIL(line, "pend: dep is wait, never or done, not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "begin")) != NULL) {
			gint64 d;

			if (!scn_parse_duration(v, &d))
				FAIL(line, "pend: begin is a duration from now (10m, -1h), not \"%s\"", v);
			j->begin_time = g_date_time_to_unix(s->now) + d;
		} else if ((v = scn_kv(argv[i], "group")) != NULL) {
			if ((j->jobgroup = sched_input_jobgroup(&s->in, v)) == 0)
				FAIL(line, "pend: group is a job group path (/a/b), "
				    "not \"%s\"", v);
		} else if ((v = scn_kv(argv[i], "limit")) != NULL) {
			if (j->array_index == 0)
				FAIL(line, "pend: limit (%%N) is for array elements, e.g. pend 100[3]");
			if (!scn_parse_int(v, 1, 1000000, &n))
				FAIL(line, "pend: bad limit \"%s\"", v);
			j->array_limit = (int)n;
		} else {
			FAIL(line, "pend: unknown word \"%s\"", argv[i]);
		}
	}
	if (!job_queue(s, queue, line, &j->queue, error))
		return FALSE;
	if (s->ints->len > start) {
		j->asked_hosts = GUINT_TO_POINTER(start + 1);
		j->n_asked_hosts = s->ints->len - start;
	}
	if (avoid->len > 0) {
		j->avoid_hosts = GUINT_TO_POINTER(s->ints->len + 1);
		j->n_avoid_hosts = avoid->len;
		g_array_append_vals(s->ints, avoid->data, avoid->len);
	}
	if (refused->len > 0) {
		j->refused_hosts = GUINT_TO_POINTER(s->ints->len + 1);
		j->n_refused_hosts = refused->len;
		g_array_append_vals(s->ints, refused->data, refused->len);
	}
	if (app != NULL && bs_config_app(s->cfg, app) == NULL)
		FAIL(line, "pend: no application profile %s", app);
	if (j->run_limit == 0)
		j->run_limit = default_run_limit(s, j->queue, app);
	if (j->est_runtime == 0)
		j->est_runtime = sched_input_est_runtime(scn_app_conf(s, app), 0);
	if (reserving >= 0 && reserved == NULL)
		FAIL(line, "pend: reserving= goes with reserved=\"HOSTS\"");
	j->reserved = reserved;
	j->n_reserved = n_reserved;
	if (reserved != NULL)
		j->reserve_since = g_date_time_to_unix(s->now) - MAX(reserving, 0);
	if (banned > 0)
		j->reserve_banned_until = g_date_time_to_unix(s->now) + banned;
	j->user = sched_input_user(&s->in, user, TRUE);
	if (!job_consumer(s, consumer, j->queue, line, &j->consumer, error))
		return FALSE;
	j->project = sched_input_project(&s->in, project);
	j->app = scn_job_app(s, app);
	j->user_priority = sched_input_user_priority(s->cfg->params, sp);
	g_array_append_val(s->pending, job);
	return TRUE;
}

/* "pend FIRST-LAST ...": many alike jobs on one line. */
static gboolean
id_range(const char *w, guint64 *lo, guint64 *hi)
{
	char *end;

	if (w == NULL || !g_ascii_isdigit(*w))
		return FALSE;
	*lo = g_ascii_strtoull(w, &end, 10);
	if (*end != '-' || !g_ascii_isdigit(end[1]))
		return FALSE;
	*hi = g_ascii_strtoull(end + 1, &end, 10);
	return *end == '\0';
}

/* Each job once, pending or running. */
static gboolean
unique_ids(Scenario *s, ScnParse *p, GError **error)
{
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal,
	    g_free, NULL);

	for (guint i = 0; i < p->jobs->len; i++) {
		const ScnDeferred *d = g_ptr_array_index(p->jobs, i);
		guint64 lo, hi;

		if (d->argv[1] == NULL)
			continue;
		if (!id_range(d->argv[1], &lo, &hi)) {
			if (!g_hash_table_add(seen, g_strdup(d->argv[1])))
				FAIL(d->line, "job %s appears twice", d->argv[1]);
			continue;
		}
		if (strcmp(d->argv[0], "pend") != 0 || lo == 0 || hi < lo ||
		    hi - lo >= 100000 || hi > G_MAXINT32)
			FAIL(d->line, "%s: bad job id range %s", d->argv[0], d->argv[1]);
		for (guint64 id = lo; id <= hi; id++) {
			char *n = g_strdup_printf("%" G_GUINT64_FORMAT, id);

			if (!g_hash_table_add(seen, n))
				FAIL(d->line, "job %s appears twice", n);
		}
	}
	return TRUE;
}

/* "jobgroup /a/b limit=N": a job group with its -L (bgadd -L); first, so
 * the groups exist, parents first, before jobs name them. */
static gboolean
jobgroup_line(Scenario *s, char **argv, int line, GError **error)
{
	gint64 n = -1;

	if (argv[1] == NULL || argv[1][0] != '/' || argv[1][1] == '\0')
		FAIL(line, "jobgroup: a job group path is needed (/a/b)");
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v = scn_kv(argv[i], "limit");

		if (v == NULL || !scn_parse_int(v, 0, G_MAXINT32, &n))
			FAIL(line, "jobgroup: limit=N (0 or more) is the only word, "
			    "not \"%s\"", argv[i]);
	}
	if (sched_input_jobgroup(&s->in, argv[1]) == 0)
		FAIL(line, "jobgroup: bad path \"%s\"", argv[1]);
	sched_input_jobgroup_limit(&s->in, argv[1], (int)n);
	return TRUE;
}

gboolean
scn_add_jobs(Scenario *s, ScnParse *p, GError **error)
{
	for (guint i = 0; i < p->jobgroups->len; i++) {
		const ScnDeferred *d = g_ptr_array_index(p->jobgroups, i);

		if (!jobgroup_line(s, d->argv, d->line, error))
			return FALSE;
	}
	if (!unique_ids(s, p, error))
		return FALSE;
	for (guint i = 0; i < p->jobs->len; i++) {
		const ScnDeferred *d = g_ptr_array_index(p->jobs, i);
		guint64 lo, hi;
		gboolean ok;

		if (strcmp(d->argv[0], "run") == 0) {
			ok = run_line(s, d->argv, d->line, error);
		} else if (id_range(d->argv[1], &lo, &hi)) {
			char *range = d->argv[1];

			ok = TRUE;
			for (guint64 id = lo; ok && id <= hi; id++) {
				g_autofree char *one = g_strdup_printf("%" G_GUINT64_FORMAT, id);

				d->argv[1] = one;
				ok = pend_line(s, d->argv, d->line, error);
			}
			d->argv[1] = range;
		} else {
			ok = pend_line(s, d->argv, d->line, error);
		}
		if (!ok)
			return FALSE;
	}
	return TRUE;
}

void
scn_fix_pointers(Scenario *s)
{
	SchedAlloc *al = (SchedAlloc *)(void *)s->allocs->data;
	guint *ints = (guint *)(void *)s->ints->data;

	for (guint i = 0; i < s->running->len; i++) {
		SchedRunning *r = &g_array_index(s->running, SchedRunning, i);

		r->allocs = al + GPOINTER_TO_UINT(r->allocs) - 1;
	}
	for (guint i = 0; i < s->pending->len; i++) {
		SchedJob *j = &g_array_index(s->pending, SchedJob, i);

		if (j->asked_hosts != NULL)
			j->asked_hosts = ints + GPOINTER_TO_UINT(j->asked_hosts) - 1;
		if (j->avoid_hosts != NULL)
			j->avoid_hosts = ints + GPOINTER_TO_UINT(j->avoid_hosts) - 1;
		if (j->refused_hosts != NULL)
			j->refused_hosts = ints + GPOINTER_TO_UINT(j->refused_hosts) - 1;
		if (j->reserved != NULL)
			j->reserved = al + GPOINTER_TO_UINT(j->reserved) - 1;
	}
}
