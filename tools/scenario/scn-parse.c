/*
 * The first pass over a scenario file: LSF sections are copied to the
 * configuration files that hold them, `host` and `queue` lines become the
 * facts the builder asks for, `title` and `now` are kept, and job and
 * expect lines wait until the configuration exists to be read against.
 */
#include "config.h"

#include <string.h>

#include "tools/scenario/scn-internal.h"

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
leased_clear(gpointer data)
{
	SchedInputLeased *l = data;

	g_free((char *)l->name);
	g_free((char *)l->host);
	g_free((char *)l->cluster);
}

/* leased HOST@CLUSTER slots=N [status=ok|closed]: a host another cluster
 * lends this one (mbatchd/mc-leased.h), as mbatchd hands it to the
 * snapshot. */
static gboolean
leased_line(ScnParse *p, char **argv, int line, GError **error)
{
	const ScnParse *s = p;
	SchedInputLeased l = { 0 };
	const char *at;

	if (argv[1] == NULL || (at = strchr(argv[1], '@')) == NULL || at == argv[1] ||
	    at[1] == '\0' || strchr(at + 1, '@') != NULL)
		FAIL(line, "leased: HOST@CLUSTER slots=N [status=ok|closed]");
	l.usable = TRUE;
	for (guint i = 2; argv[i] != NULL; i++) {
		const char *v;
		gint64 n;

		if ((v = scn_kv(argv[i], "slots")) != NULL && scn_parse_int(v, 0, 100000, &n))
			l.slots = (int)n;
		else if ((v = scn_kv(argv[i], "status")) != NULL &&
		    (strcmp(v, "ok") == 0 || strcmp(v, "closed") == 0))
			l.usable = strcmp(v, "ok") == 0;
		else
			FAIL(line, "leased %s: unknown word \"%s\" (slots=N, status=ok|closed)",
			    argv[1], argv[i]);
	}
	l.name = g_strdup(argv[1]);
	l.host = g_strndup(argv[1], (gsize)(at - argv[1]));
	l.cluster = g_strdup(at + 1);
	l.ncpus = MAX(l.slots, 1);
	g_array_append_val(p->leased, l);
	return TRUE;
}

void
scn_parse_init(ScnParse *p, const char *path)
{
	p->path = path;
	p->files = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, scn_file_free);
	p->hosts = g_ptr_array_new_with_free_func(host_line_free);
	p->queues = g_ptr_array_new_with_free_func(queue_line_free);
	p->jobs = g_ptr_array_new_with_free_func(deferred_free);
	p->expects = g_ptr_array_new_with_free_func(deferred_free);
	p->jobgroups = g_ptr_array_new_with_free_func(deferred_free);
	p->lease_lines = g_ptr_array_new_with_free_func(deferred_free);
	p->clusters = g_ptr_array_new_with_free_func(g_free);
	p->leased = g_array_new(FALSE, TRUE, sizeof(SchedInputLeased));
	g_array_set_clear_func(p->leased, leased_clear);
}

void
scn_parse_clear(ScnParse *p)
{
	g_hash_table_destroy(p->files);
	g_ptr_array_free(p->hosts, TRUE);
	g_ptr_array_free(p->queues, TRUE);
	g_ptr_array_free(p->jobs, TRUE);
	g_ptr_array_free(p->expects, TRUE);
	g_ptr_array_free(p->jobgroups, TRUE);
	g_ptr_array_unref(p->lease_lines);
	g_ptr_array_free(p->clusters, TRUE);
	g_array_free(p->leased, TRUE);
}

/* r15m, ut, mem, swp, tmp, maxmem: TRUE if the word is one of them. */
static gboolean
figure(ScnHostLine *h, const char *w, const char **v, gboolean *ok)
{
	const struct { const char *key; double *field; } keys[] = {
		{ "r15m", &h->r15m }, { "ut", &h->ut }, { "mem", &h->mem },
		{ "swp", &h->swp }, { "tmp", &h->tmp }, { "maxmem", &h->maxmem },
	};

	for (guint i = 0; i < G_N_ELEMENTS(keys); i++)
		if ((*v = scn_kv(w, keys[i].key)) != NULL) {
			*ok = scn_parse_double(*v, keys[i].field);
			return TRUE;
		}
	return FALSE;
}

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
		gboolean ok;

		if ((v = scn_kv(argv[i], "ncpus")) != NULL) {
			if (!scn_parse_int(v, 1, 100000, &n))
				FAIL(line, "host %s: ncpus must be 1..100000", h->name);
			h->facts.ncpus = (int)n;
		} else if ((v = scn_kv(argv[i], "lent")) != NULL) {
			/* MultiCluster provider: slots another cluster holds. */
			if (!scn_parse_int(v, 0, 100000, &n))
				FAIL(line, "host %s: lent must be 0..100000", h->name);
			h->facts.leased_out = (int)n;
		} else if ((v = scn_kv(argv[i], "r15s")) != NULL) {
			if (!scn_parse_double(v, &h->facts.r15s))
				FAIL(line, "host %s: bad r15s \"%s\"", h->name, v);
		} else if ((v = scn_kv(argv[i], "r1m")) != NULL) {
			if (!scn_parse_double(v, &h->facts.r1m))
				FAIL(line, "host %s: bad r1m \"%s\"", h->name, v);
		} else if (figure(h, argv[i], &v, &ok)) {
			if (!ok)
				FAIL(line, "host %s: bad figure \"%s\"", h->name, argv[i]);
		} else if ((v = scn_kv(argv[i], "status")) != NULL) {
			if (strcmp(v, "ok") == 0) {
				h->facts.up = TRUE;
			} else if (strcmp(v, "closed") == 0) {
				h->facts.closed_adm = TRUE;
			} else if (strcmp(v, "reclaim") == 0) {
				/* badmin hclose -reclaim (scn-reclaim.c) */
				h->facts.closed_adm = TRUE;
				h->facts.reclaim = TRUE;
			} else if (strcmp(v, "unavail") == 0) {
				h->facts.up = FALSE;
			} else {
				FAIL(line, "host %s: status is ok, closed, reclaim or unavail, not \"%s\"",
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
		} else if ((v = scn_kv(argv[i], "usage")) != NULL) {
			if (!scn_parse_double(v, &q->facts.pool_usage))
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

gboolean
scn_first_pass(Scenario *s, ScnParse *p, const char *text, GError **error)
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
				    "Application, Limit, HostExport)", name);
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
		} else if (strcmp(argv[0], "previous") == 0) {
			g_autoptr(GTimeZone) utc = g_time_zone_new_utc();

			if (argv[1] == NULL || argv[2] != NULL) {
				g_strfreev(argv);
				FAIL(line, "previous: one ISO 8601 time, e.g. 2026-01-05T16:59:50");
			}
			if (s->previous != NULL)
				g_date_time_unref(s->previous);
			s->previous = g_date_time_new_from_iso8601(argv[1], utc);
			g_strfreev(argv);
			if (s->previous == NULL)
				FAIL(line, "previous: not an ISO 8601 time");
		} else if (strcmp(argv[0], "reconfig") == 0) {
			/* Checked against the groups and consumers at load. */
			g_strfreev(s->reconfig_args);
			s->reconfig_args = g_strdupv(argv + 1);
			s->reconfig_line = line;
			g_strfreev(argv);
			s->reconfig = TRUE;
		} else if (strcmp(argv[0], "host") == 0) {
			gboolean ok = host_line(p, argv, line, error);

			g_strfreev(argv);
			if (!ok)
				return FALSE;
		} else if (strcmp(argv[0], "leased") == 0) {
			gboolean ok = leased_line(p, argv, line, error);

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
		} else if (scn_is_lease_line(argv) || strcmp(argv[0], "end") == 0) {
			/* `end`: a reclaim timeline's (scn-reclaim-time.c). */
			defer(p->lease_lines, argv, line);
		} else if (strcmp(argv[0], "cluster") == 0) {
			gboolean good = argv[1] != NULL && argv[2] == NULL &&
			    g_ascii_isalpha(argv[1][0]) && strcmp(argv[1], "scenario") != 0;

			if (good)
				g_ptr_array_add(p->clusters, g_strdup(argv[1]));
			g_strfreev(argv);
			if (!good)
				FAIL(line, "cluster: one name of a peer cluster (not `scenario`)");
		} else if (strcmp(argv[0], "expect") == 0) {
			defer(p->expects, argv, line);
		} else if (strcmp(argv[0], "jobgroup") == 0) {
			defer(p->jobgroups, argv, line);
		} else {
			g_autofree char *w = g_strdup(argv[0]);

			g_strfreev(argv);
			FAIL(line, "unknown line \"%s\" (title, now, host, queue, run, "
			    "pend, expect, jobgroup, cluster, leased, lease, at, or Begin "
			    "SECTION)", w);
		}
	}
	if (section != NULL)
		FAIL(section_line, "Begin %s without End %s", section_name, section_name);
	if (p->hosts->len == 0)
		FAIL(1, "no host lines: a scenario needs at least one host");
	return TRUE;
}
