/*
 * Reading a scenario file (basalt-scenario(5)) into a SchedSnapshot.
 * First pass: LSF sections go to their configuration files, `host` and
 * `queue` lines become facts, job and expect lines wait.  Then the
 * configuration is loaded (scn-config.c), mbatchd's builder makes hosts,
 * queues, pools and users from it (sched-input.h), and the job lines are
 * read against it.  Pending jobs reach the scheduler in file order, which
 * stands for submission order (each queue's dispatch order, and the order
 * among queues of equal priority).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "resreq/resreq.h"
#include "tools/scenario/scn-internal.h"

G_DEFINE_QUARK(bs-scenario-error-quark, scn_error)

/* 2026-01-05 is a Monday; noon keeps day windows simple. */
#define SCN_DEFAULT_NOW "2026-01-05T12:00:00Z"

#define FAIL(line, ...) do { \
	g_autofree char *m_ = g_strdup_printf(__VA_ARGS__); \
	g_set_error(error, SCN_ERROR, 0, "%s:%d: %s", s->path, (line), m_); \
	return FALSE; \
} while (0)

static void
deferred_free(gpointer data)
{
	ScnDeferred *d = data;

	g_strfreev(d->argv);
	g_free(d);
}

static void
host_line_free(gpointer data)
{
	ScnHostLine *h = data;

	g_free(h->name);
	g_free(h);
}

static void
queue_line_free(gpointer data)
{
	ScnQueueLine *q = data;

	g_free(q->name);
	g_free(q);
}

static void
line_free(gpointer data)
{
	ScnLine *l = data;

	g_free(l->text);
	g_free(l);
}

/* "key=value": the value if argv word `w` has key `key`, else NULL. */
static const char *
kv(const char *w, const char *key)
{
	size_t n = strlen(key);

	return strncmp(w, key, n) == 0 && w[n] == '=' ? w + n + 1 : NULL;
}

static gboolean
parse_int(const char *v, gint64 lo, gint64 hi, gint64 *out)
{
	char *end;
	gint64 n;

	if (v == NULL || *v == '\0')
		return FALSE;
	n = g_ascii_strtoll(v, &end, 10);
	if (*end != '\0' || n < lo || n > hi)
		return FALSE;
	*out = n;
	return TRUE;
}

static gboolean
parse_double(const char *v, double *out)
{
	char *end;

	if (v == NULL || *v == '\0')
		return FALSE;
	*out = g_ascii_strtod(v, &end);
	return *end == '\0' && *out >= 0 && *out < 1e9;
}

/* A duration: N, Ns, Nm, Nh or Nd, optionally negative. */
static gboolean
parse_duration(const char *v, gint64 *out)
{
	char *end;
	gint64 n, mult = 1;

	if (v == NULL || *v == '\0')
		return FALSE;
	n = g_ascii_strtoll(v, &end, 10);
	if (end == v || n > 100000000 || n < -100000000)
		return FALSE;
	switch (*end) {
	case '\0': case 's': break;
	case 'm': mult = 60; break;
	case 'h': mult = 3600; break;
	case 'd': mult = 86400; break;
	default: return FALSE;
	}
	if (*end != '\0' && end[1] != '\0')
		return FALSE;
	*out = n * mult;
	return TRUE;
}

/* "12" or "12[3]". */
static gboolean
parse_job_id(const char *w, guint64 *id, guint32 *index)
{
	char *end;
	guint64 n;

	if (w == NULL || !g_ascii_isdigit(*w))
		return FALSE;
	n = g_ascii_strtoull(w, &end, 10);
	*index = 0;
	if (*end == '[') {
		guint64 i = g_ascii_strtoull(end + 1, &end, 10);

		if (*end != ']' || end[1] != '\0' || i == 0 || i > G_MAXINT32)
			return FALSE;
		*index = (guint32)i;
	} else if (*end != '\0') {
		return FALSE;
	}
	if (n == 0 || n > G_MAXINT32)
		return FALSE;
	*id = n;
	return TRUE;
}

char *
scn_job_name(guint64 id, guint64 array_id, guint32 index)
{
	if (array_id != 0 && index > 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT "[%u]", id, index);
	return g_strdup_printf("%" G_GUINT64_FORMAT, id);
}

char *
scn_hosts_text(const SchedSnapshot *snap, const SchedAlloc *a, guint n)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		if (i > 0)
			g_string_append_c(s, ' ');
		if (a[i].slots != 1)
			g_string_append_printf(s, "%d*", a[i].slots);
		g_string_append(s, snap->hosts[a[i].host].name);
	}
	return g_string_free(s, FALSE);
}

/* ---- first pass -------------------------------------------------------- */

static gboolean
host_line(ScnParse *p, char **argv, int line, GError **error)
{
	const ScnParse *s = p;
	ScnHostLine *h;

	if (argv[1] == NULL)
		FAIL(line, "host: a name is needed");
	for (guint i = 0; i < p->hosts->len; i++)
		if (strcmp(((ScnHostLine *)g_ptr_array_index(p->hosts, i))->name, argv[1]) == 0)
			FAIL(line, "host %s: already described", argv[1]);
	if (!g_ascii_isalnum(argv[1][0]) || strpbrk(argv[1], " \t*#=[]()\"'") != NULL)
		FAIL(line, "host %s: not a host name", argv[1]);
	h = g_new0(ScnHostLine, 1);
	h->name = g_strdup(argv[1]);
	h->line = line;
	h->facts.up = TRUE;
	h->facts.ncpus = 1;
	g_ptr_array_add(p->hosts, h);
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;
		gint64 n;

		if ((v = kv(argv[i], "ncpus")) != NULL) {
			if (!parse_int(v, 1, 100000, &n))
				FAIL(line, "host %s: ncpus must be 1..100000", h->name);
			h->facts.ncpus = (int)n;
		} else if ((v = kv(argv[i], "r15s")) != NULL) {
			if (!parse_double(v, &h->facts.r15s))
				FAIL(line, "host %s: bad r15s \"%s\"", h->name, v);
		} else if ((v = kv(argv[i], "r1m")) != NULL) {
			if (!parse_double(v, &h->facts.r1m))
				FAIL(line, "host %s: bad r1m \"%s\"", h->name, v);
		} else if ((v = kv(argv[i], "status")) != NULL) {
			if (strcmp(v, "ok") == 0) {
				h->facts.up = TRUE;
			} else if (strcmp(v, "closed") == 0) {
				h->facts.closed_adm = TRUE;
			} else if (strcmp(v, "unavail") == 0) {
				h->facts.up = FALSE;
			} else {
				FAIL(line, "host %s: status is ok, closed or unavail, not \"%s\"",
				    h->name, v);
			}
		} else {
			FAIL(line, "host %s: unknown word \"%s\"", h->name, argv[i]);
		}
	}
	return TRUE;
}

static gboolean
queue_line(ScnParse *p, char **argv, int line, GError **error)
{
	const ScnParse *s = p;
	ScnQueueLine *q;

	if (argv[1] == NULL)
		FAIL(line, "queue: a name is needed");
	q = g_new0(ScnQueueLine, 1);
	q->name = g_strdup(argv[1]);
	q->line = line;
	q->facts.active = TRUE;
	g_ptr_array_add(p->queues, q);
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;

		if (strcmp(argv[i], "inactive") == 0) {
			q->facts.active = FALSE;
		} else if ((v = kv(argv[i], "usage")) != NULL) {
			if (!parse_double(v, &q->facts.pool_usage))
				FAIL(line, "queue %s: bad usage \"%s\"", q->name, v);
		} else {
			FAIL(line, "queue %s: unknown word \"%s\"", q->name, argv[i]);
		}
	}
	return TRUE;
}

static ScnDeferred *
defer(GPtrArray *to, char **argv, int line)
{
	ScnDeferred *d = g_new0(ScnDeferred, 1);

	d->argv = argv;
	d->line = line;
	g_ptr_array_add(to, d);
	return d;
}

/* Whether a trimmed line is "EDGE NAME" (Begin or End, any case); the
 * NAME then goes to *name. */
static gboolean
section_edge(const char *text, const char *edge, char **name)
{
	g_auto(GStrv) w = g_strsplit_set(text, " \t", 3);
	gboolean is = FALSE;

	if (w[0] != NULL && g_ascii_strcasecmp(w[0], edge) == 0 && w[1] != NULL &&
	    *w[1] != '\0') {
		is = TRUE;
		if (name != NULL)
			*name = g_strdup(w[1]);
	}
	return is;
}

static gboolean
first_pass(Scenario *s, ScnParse *p, const char *text, GError **error)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	ScnFile *section = NULL;
	g_autofree char *section_name = NULL;
	int section_line = 0;

	for (int i = 0; lines[i] != NULL; i++) {
		int line = i + 1;
		char *l = lines[i];
		g_autofree char *trimmed = g_strstrip(g_strdup(l));
		g_autofree char *name = NULL;
		char **argv = NULL;
		g_autoptr(GError) err = NULL;

		if (section != NULL) {
			scn_file_add(section, l, line);
			if (section_edge(trimmed, "End", &name) &&
			    g_ascii_strcasecmp(name, section_name) == 0)
				section = NULL;
			continue;
		}
		if (*trimmed == '\0' || *trimmed == '#')
			continue;
		if (section_edge(trimmed, "Begin", &name)) {
			const char *file = scn_section_file(name);

			if (file == NULL)
				FAIL(line, "section %s is not one a scenario can hold "
				    "(Queue, Host, HostGroup, User, UserGroup, Parameters, "
				    "Application, Limit)", name);
			section = scn_file_get(p, file);
			g_free(section_name);
			section_name = g_steal_pointer(&name);
			section_line = line;
			scn_file_add(section, l, line);
			continue;
		}
		if (strncmp(trimmed, "title", 5) == 0 &&
		    (trimmed[5] == ' ' || trimmed[5] == '\t')) {
			g_free(s->title);
			s->title = g_strstrip(g_strdup(trimmed + 5));
			continue;
		}
		if (!g_shell_parse_argv(trimmed, NULL, &argv, &err))
			FAIL(line, "%s", err->message);
		if (strcmp(argv[0], "now") == 0) {
			g_autoptr(GTimeZone) utc = g_time_zone_new_utc();

			if (argv[1] == NULL || argv[2] != NULL) {
				g_strfreev(argv);
				FAIL(line, "now: one ISO 8601 time, e.g. 2026-01-05T22:30:00");
			}
			g_date_time_unref(s->now);
			s->now = g_date_time_new_from_iso8601(argv[1], utc);
			g_strfreev(argv);
			if (s->now == NULL) {
				s->now = g_date_time_new_from_iso8601(SCN_DEFAULT_NOW, NULL);
				FAIL(line, "now: not an ISO 8601 time");
			}
		} else if (strcmp(argv[0], "host") == 0) {
			gboolean ok = host_line(p, argv, line, error);

			g_strfreev(argv);
			if (!ok)
				return FALSE;
		} else if (strcmp(argv[0], "queue") == 0) {
			gboolean ok = queue_line(p, argv, line, error);

			g_strfreev(argv);
			if (!ok)
				return FALSE;
		} else if (strcmp(argv[0], "run") == 0 || strcmp(argv[0], "pend") == 0) {
			defer(p->jobs, argv, line);
		} else if (strcmp(argv[0], "expect") == 0) {
			defer(p->expects, argv, line);
		} else {
			g_autofree char *w = g_strdup(argv[0]);

			g_strfreev(argv);
			FAIL(line, "unknown line \"%s\" (title, now, host, queue, run, "
			    "pend, expect, or Begin SECTION)", w);
		}
	}
	if (section != NULL)
		FAIL(section_line, "Begin %s without End %s", section_name, section_name);
	if (p->hosts->len == 0)
		FAIL(1, "no host lines: a scenario needs at least one host");
	return TRUE;
}

/* ---- facts for the builder -------------------------------------------- */

static gboolean
host_facts(const char *name, SchedInputHost *out, void *data)
{
	ScnParse *p = data;

	for (guint i = 0; i < p->hosts->len; i++) {
		const ScnHostLine *h = g_ptr_array_index(p->hosts, i);

		if (strcmp(h->name, name) == 0) {
			*out = h->facts;
			return TRUE;
		}
	}
	return FALSE;
}

static void
queue_facts(const char *name, SchedInputQueue *out, void *data)
{
	ScnParse *p = data;

	out->active = TRUE;
	for (guint i = 0; i < p->queues->len; i++) {
		const ScnQueueLine *q = g_ptr_array_index(p->queues, i);

		if (strcmp(q->name, name) == 0)
			*out = q->facts;
	}
}

/* ---- jobs ------------------------------------------------------------- */

/* What -R select[] sees of a host in a scenario. */
static BsResValue
host_value(const char *name, void *data)
{
	const SchedHost *h = data;
	BsResValue v = { .kind = BS_RES_NUMBER };

	if (strcmp(name, "hname") == 0) {
		v.kind = BS_RES_STRING;
		v.str = h->name;
	} else if (strcmp(name, "type") == 0 || strcmp(name, "model") == 0 ||
	    strcmp(name, BS_RESREQ_LOCAL_TYPE) == 0 ||
	    strcmp(name, BS_RESREQ_LOCAL_MODEL) == 0) {
		v.kind = BS_RES_STRING;
		v.str = "LINUX";
	} else if (strcmp(name, "ncpus") == 0) {
		v.num = h->ncpus;
	} else if (strcmp(name, "r15s") == 0) {
		v.num = h->r15s;
	} else if (strcmp(name, "r1m") == 0) {
		v.num = h->r1m;
	} else {
		v.kind = BS_RES_UNDEFINED;
	}
	return v;
}

static gboolean
host_filter(const void *job_data, const SchedHost *host, void *data)
{
	const BsResReq *rr = job_data;

	(void)data;
	return rr == NULL || bs_resreq_select_eval(rr, host_value, (void *)host, NULL);
}

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

/* "2*hostA hostB" into allocs; slots of one host are merged. */
static gboolean
parse_allocs(Scenario *s, const char *v, int line, SchedRunning *r, GError **error)
{
	g_auto(GStrv) w = g_strsplit_set(v, " ,", -1);

	r->allocs = GUINT_TO_POINTER(s->allocs->len + 1);
	for (guint i = 0; w[i] != NULL; i++) {
		const char *star = strchr(w[i], '*');
		const char *name = star != NULL ? star + 1 : w[i];
		SchedAlloc a = { 0, 1 };
		gint64 n;

		if (*w[i] == '\0')
			continue;
		if (star != NULL) {
			g_autofree char *num = g_strndup(w[i], (gsize)(star - w[i]));

			if (!parse_int(num, 1, 100000, &n))
				FAIL(line, "hosts: bad slot count in \"%s\"", w[i]);
			a.slots = (int)n;
		}
		if (!sched_input_host(&s->in, name, &a.host))
			FAIL(line, "hosts: no host %s", name);
		g_array_append_val(s->allocs, a);
		r->n_allocs++;
	}
	if (r->n_allocs == 0)
		FAIL(line, "run: hosts=\"...\" is needed (e.g. hosts=\"2*hostA hostB\")");
	return TRUE;
}

static gboolean
run_line(Scenario *s, char **argv, int line, GError **error)
{
	SchedRunning r = { 0 };
	guint32 index;
	const char *queue = NULL, *user = "user1", *app = NULL;
	gboolean have_hosts = FALSE, preempted = FALSE;
	gint64 ran = 0;

	if (!parse_job_id(argv[1], &r.id, &index))
		FAIL(line, "run: a job id is needed (12 or 12[3])");
	r.array_id = index > 0 ? r.id : 0;
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;
		gint64 n;

		if ((v = kv(argv[i], "queue")) != NULL) {
			queue = v;
		} else if ((v = kv(argv[i], "user")) != NULL) {
			user = v;
		} else if ((v = kv(argv[i], "app")) != NULL) {
			app = v;
		} else if ((v = kv(argv[i], "hosts")) != NULL) {
			if (!parse_allocs(s, v, line, &r, error))
				return FALSE;
			have_hosts = TRUE;
		} else if ((v = kv(argv[i], "state")) != NULL) {
			if (strcmp(v, "RUN") == 0)
				r.state = SCHED_RUN_RUN;
			else if (strcmp(v, "SSUSP") == 0)
				r.state = SCHED_RUN_SSUSP;
			else if (strcmp(v, "USUSP") == 0)
				r.state = SCHED_RUN_USUSP;
			else
				FAIL(line, "run: state is RUN, SSUSP or USUSP, not \"%s\"", v);
		} else if ((v = kv(argv[i], "ran")) != NULL) {
			if (!parse_duration(v, &ran) || ran < 0)
				FAIL(line, "run: ran is a duration (90s, 5m, 2h), not \"%s\"", v);
		} else if ((v = kv(argv[i], "preemptions")) != NULL) {
			if (!parse_int(v, 0, 1000000, &n))
				FAIL(line, "run: bad preemptions \"%s\"", v);
			r.preempt_count = (int)n;
		} else if (strcmp(argv[i], "preempted") == 0) {
			preempted = TRUE;
		} else {
			FAIL(line, "run: unknown word \"%s\"", argv[i]);
		}
	}
	if (!have_hosts)
		FAIL(line, "run: hosts=\"...\" is needed (e.g. hosts=\"2*hostA hostB\")");
	if (preempted && r.state != SCHED_RUN_SSUSP)
		FAIL(line, "run: only an SSUSP job can be suspended by preemption");
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
	r.start_time = g_date_time_to_unix(s->now) - ran;
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
	const char *queue = NULL, *user = "user1";
	guint start = s->ints->len;

	if (!parse_job_id(argv[1], &j->id, &j->array_index))
		FAIL(line, "pend: a job id is needed (12 or 12[3])");
	j->array_id = j->array_index > 0 ? j->id : 0;
	j->min_slots = j->max_slots = 1;
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;
		gint64 n;

		if ((v = kv(argv[i], "queue")) != NULL) {
			queue = v;
		} else if ((v = kv(argv[i], "user")) != NULL) {
			user = v;
		} else if ((v = kv(argv[i], "n")) != NULL) {
			g_auto(GStrv) mm = g_strsplit(v, ",", 3);
			gint64 lo, hi;

			if (mm[0] == NULL || !parse_int(mm[0], 1, 100000, &lo) ||
			    (mm[1] != NULL && (!parse_int(mm[1], lo, 100000, &hi) ||
			    mm[2] != NULL)))
				FAIL(line, "pend: n is MIN or MIN,MAX (bsub -n), not \"%s\"", v);
			j->min_slots = (int)lo;
			j->max_slots = mm[1] != NULL ? (int)hi : (int)lo;
		} else if ((v = kv(argv[i], "m")) != NULL) {
			g_auto(GStrv) w = g_strsplit_set(v, " ,", -1);

			for (guint k = 0; w[k] != NULL; k++) {
				guint h;

				if (*w[k] == '\0')
					continue;
				if (!sched_input_host(&s->in, w[k], &h))
					FAIL(line, "pend: -m names no host %s", w[k]);
				g_array_append_val(s->ints, h);
			}
		} else if ((v = kv(argv[i], "R")) != NULL) {
			g_autoptr(GError) err = NULL;
			BsResReq *rr = bs_resreq_parse(v, &err);
			int ptile;

			if (rr == NULL)
				FAIL(line, "pend: R: %s", err->message);
			g_ptr_array_add(s->resreqs, rr);
			j->one_host = bs_resreq_span_hosts(rr) == 1;
			ptile = bs_resreq_span_ptile(rr);
			j->ptile = ptile > 0 ? ptile : 0;
			j->filter_data = rr;
		} else if (strcmp(argv[i], "held") == 0) {
			j->held = TRUE;
		} else if ((v = kv(argv[i], "dep")) != NULL) {
			if (strcmp(v, "wait") == 0)
				j->dep = SCHED_DEP_WAIT;
			else if (strcmp(v, "never") == 0)
				j->dep = SCHED_DEP_NEVER;
			else if (strcmp(v, "done") == 0)
				j->dep = SCHED_DEP_NONE;
			else
				FAIL(line, "pend: dep is wait, never or done, not \"%s\"", v);
		} else if ((v = kv(argv[i], "begin")) != NULL) {
			gint64 d;

			if (!parse_duration(v, &d))
				FAIL(line, "pend: begin is a duration from now (10m, -1h), not \"%s\"", v);
			j->begin_time = g_date_time_to_unix(s->now) + d;
		} else if ((v = kv(argv[i], "limit")) != NULL) {
			if (j->array_index == 0)
				FAIL(line, "pend: limit (%%N) is for array elements, e.g. pend 100[3]");
			if (!parse_int(v, 1, 1000000, &n))
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
	j->user = sched_input_user(&s->in, user, TRUE);
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

static gboolean
add_jobs(Scenario *s, ScnParse *p, GError **error)
{
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

static void
fix_pointers(Scenario *s)
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
	}
}

/* ---- expectations ----------------------------------------------------- */

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

static gboolean
running_known(const Scenario *s, const char *name)
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

static ScnLine *
add_expect(Scenario *s, ScnKind k, int line, char *text)
{
	ScnLine *l = g_new0(ScnLine, 1);

	l->kind = k;
	l->line = line;
	l->text = text;
	g_ptr_array_add(s->expect, l);
	return l;
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

			if (!parse_int(num, 1, 100000, &n)) {
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

static gboolean
expect_line(Scenario *s, char **a, int line, GError **error)
{
	guint n = g_strv_length(a);
	guint idx;
	gint64 num;

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
		add_expect(s, SCN_DISPATCH, line,
		    g_strdup_printf("dispatch %s on %s", a[2], hosts));
		g_free(hosts);
	} else if (n == 5 && (strcmp(a[1], "preempt") == 0 ||
	    strcmp(a[1], "terminate") == 0) && strcmp(a[3], "for") == 0) {
		if (!running_known(s, a[2]))
			FAIL(line, "expect %s: no running job %s", a[1], a[2]);
		if (!pending_known(s, a[4]))
			FAIL(line, "expect %s: no pending job %s", a[1], a[4]);
		add_expect(s, a[1][0] == 'p' ? SCN_PREEMPT : SCN_TERMINATE, line,
		    g_strdup_printf("%s %s for %s", a[1], a[2], a[4]));
	} else if (n == 3 && strcmp(a[1], "resume") == 0) {
		if (!running_known(s, a[2]))
			FAIL(line, "expect resume: no running job %s", a[2]);
		add_expect(s, SCN_RESUME, line, g_strdup_printf("resume %s", a[2]));
	} else if (n == 4 && strcmp(a[1], "pending") == 0) {
		g_autofree char *text = g_strdup(a[3]);

		if (!pending_known(s, a[2]))
			FAIL(line, "expect pending: no pending job %s", a[2]);
		g_strdelimit(text, "\n", ' ');
		add_expect(s, SCN_PENDING, line,
		    g_strdup_printf("pending %s \"%s\"", a[2], g_strstrip(text)));
	} else if (n == 4 && strcmp(a[1], "deserved") == 0) {
		if (!sched_input_queue(&s->in, a[2], &idx))
			FAIL(line, "expect deserved: no queue %s", a[2]);
		if (!parse_int(a[3], -1, 10000000, &num))
			FAIL(line, "expect deserved: a number of slots, not \"%s\"", a[3]);
		add_expect(s, SCN_DESERVED, line,
		    g_strdup_printf("deserved %s %d", a[2], (int)num));
	} else if (n == 4 && strcmp(a[1], "slots") == 0) {
		if (!sched_input_queue(&s->in, a[2], &idx))
			FAIL(line, "expect slots: no queue %s", a[2]);
		if (!parse_int(a[3], 0, 10000000, &num))
			FAIL(line, "expect slots: a number of slots, not \"%s\"", a[3]);
		add_expect(s, SCN_SLOTS, line,
		    g_strdup_printf("slots %s %d", a[2], (int)num))->queue = idx;
	} else if (n == 4 && strcmp(a[1], "pool") == 0) {
		gboolean found = FALSE;

		for (guint i = 0; i < s->in.pools->len; i++)
			found |= strcmp(g_array_index(s->in.pools, SchedPool, i).name, a[2]) == 0;
		if (!found)
			FAIL(line, "expect pool: no SLOT_POOL %s", a[2]);
		if (!parse_int(a[3], 0, 10000000, &num))
			FAIL(line, "expect pool: a number of slots, not \"%s\"", a[3]);
		add_expect(s, SCN_POOL, line, g_strdup_printf("pool %s %d", a[2], (int)num));
	} else if (n >= 2 && strcmp(a[1], "wake") == 0) {
		/* Reserved for the plan's next wake time (scn-plan.c). */
		FAIL(line, "expect wake: the scheduler's plan has no wake time yet");
	} else {
		FAIL(line, "expect: not understood (dispatch ID on HOSTS, preempt V for ID, "
		    "terminate V for ID, resume ID, pending ID \"TEXT\", deserved QUEUE N, "
		    "pool POOL N, slots QUEUE N, order, nothing)");
	}
	return TRUE;
}

/* ---- the whole ---------------------------------------------------------- */

static gboolean
check_queue_facts(Scenario *s, ScnParse *p, GError **error)
{
	for (guint i = 0; i < p->queues->len; i++) {
		const ScnQueueLine *q = g_ptr_array_index(p->queues, i);
		guint idx;

		if (!sched_input_queue(&s->in, q->name, &idx))
			FAIL(q->line, "queue %s: no such queue in the configuration", q->name);
	}
	return TRUE;
}

static gboolean
load(Scenario *s, ScnParse *p, const char *text, GError **error)
{
	SchedInputFacts facts = { host_facts, queue_facts, p, NULL };

	if (!first_pass(s, p, text, error))
		return FALSE;
	s->cfg = scn_config_load(p, g_date_time_to_unix(s->now), error);
	if (s->cfg == NULL)
		return FALSE;
	facts.now = s->now;
	sched_input_build(&s->in, s->cfg, &facts);
	if (!check_queue_facts(s, p, error) || !add_jobs(s, p, error))
		return FALSE;
	for (guint i = 0; i < p->expects->len; i++) {
		const ScnDeferred *d = g_ptr_array_index(p->expects, i);

		if (!expect_line(s, d->argv, d->line, error))
			return FALSE;
	}
	for (guint i = 0; s->nothing_line > 0 && i < s->expect->len; i++) {
		const ScnLine *l = g_ptr_array_index(s->expect, i);

		if (l->kind <= SCN_RESUME)
			FAIL(s->nothing_line, "expect nothing, but line %d expects a %s",
			    l->line, scn_kind_name(l->kind));
	}
	fix_pointers(s);
	sched_input_finish(&s->in, &s->snap);
	s->snap.running = (SchedRunning *)(void *)s->running->data;
	s->snap.n_running = s->running->len;
	s->snap.pending = (SchedJob *)(void *)s->pending->data;
	s->snap.n_pending = s->pending->len;
	s->snap.host_filter = host_filter;
	s->snap.now = g_date_time_to_unix(s->now);
	return TRUE;
}

Scenario *
scn_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	Scenario *s = g_new0(Scenario, 1);
	ScnParse p = { 0 };
	gsize len;
	gboolean ok;

	s->path = g_strdup(path);
	s->running = g_array_new(FALSE, FALSE, sizeof(SchedRunning));
	s->run_index = g_array_new(FALSE, FALSE, sizeof(guint32));
	s->pending = g_array_new(FALSE, FALSE, sizeof(SchedJob));
	s->allocs = g_array_new(FALSE, FALSE, sizeof(SchedAlloc));
	s->ints = g_array_new(FALSE, FALSE, sizeof(guint));
	s->resreqs = g_ptr_array_new_with_free_func((GDestroyNotify)bs_resreq_free);
	s->strings = g_ptr_array_new_with_free_func(g_free);
	s->expect = g_ptr_array_new_with_free_func(line_free);
	s->now = g_date_time_new_from_iso8601(SCN_DEFAULT_NOW, NULL);
	if (!g_file_get_contents(path, &text, &len, &err)) {
		g_set_error(error, SCN_ERROR, 0, "%s", err->message);
		scn_free(s);
		return NULL;
	}
	if (memchr(text, '\0', len) != NULL) {
		g_set_error(error, SCN_ERROR, 0, "%s: not a text file", path);
		scn_free(s);
		return NULL;
	}
	p.path = s->path;
	p.files = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, scn_file_free);
	p.hosts = g_ptr_array_new_with_free_func(host_line_free);
	p.queues = g_ptr_array_new_with_free_func(queue_line_free);
	p.jobs = g_ptr_array_new_with_free_func(deferred_free);
	p.expects = g_ptr_array_new_with_free_func(deferred_free);
	ok = load(s, &p, text, error);
	g_hash_table_destroy(p.files);
	g_ptr_array_free(p.hosts, TRUE);
	g_ptr_array_free(p.queues, TRUE);
	g_ptr_array_free(p.jobs, TRUE);
	g_ptr_array_free(p.expects, TRUE);
	if (!ok) {
		scn_free(s);
		return NULL;
	}
	return s;
}

void
scn_free(Scenario *s)
{
	if (s == NULL)
		return;
	sched_input_free(&s->in);
	if (s->cfg != NULL)
		bs_config_free(s->cfg);
	g_array_free(s->running, TRUE);
	g_array_free(s->run_index, TRUE);
	g_array_free(s->pending, TRUE);
	g_array_free(s->allocs, TRUE);
	g_array_free(s->ints, TRUE);
	g_ptr_array_free(s->resreqs, TRUE);
	g_ptr_array_free(s->strings, TRUE);
	g_ptr_array_free(s->expect, TRUE);
	g_date_time_unref(s->now);
	g_free(s->title);
	g_free(s->path);
	g_free(s);
}
