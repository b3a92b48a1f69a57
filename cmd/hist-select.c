/*
 * Which jobs bhist and bacct show (see hist-model.h), and LSF's time
 * ranges for -C, -S and -D.  A range is checked against the job's latest
 * value of that time (a requeued job is judged by its latest dispatch and
 * its latest completion), as LSF's event records do.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hist-model.h"
#include "util/error.h"

void
hist_filter_init(HistFilter *f)
{
	memset(f, 0, sizeof *f);
	f->states = HIST_SEL_UNFINISHED;
	f->jobs = g_array_new(FALSE, FALSE, sizeof(HistJobRef));
}

void
hist_filter_clear(HistFilter *f)
{
	g_clear_pointer(&f->jobs, g_array_unref);
}

static guint
state_bits(Basalt__JobState s)
{
	switch (s) {
	case BASALT__JOB_STATE__JOB_STATE_PEND: return HIST_SEL_PEND;
	case BASALT__JOB_STATE__JOB_STATE_PSUSP:
		return HIST_SEL_PEND | HIST_SEL_SUSP;
	case BASALT__JOB_STATE__JOB_STATE_RUN: return HIST_SEL_RUN;
	case BASALT__JOB_STATE__JOB_STATE_USUSP:
	case BASALT__JOB_STATE__JOB_STATE_SSUSP: return HIST_SEL_SUSP;
	case BASALT__JOB_STATE__JOB_STATE_DONE:
	case BASALT__JOB_STATE__JOB_STATE_EXIT: return HIST_SEL_DONE;
	default: return HIST_SEL_UNKWN;
	}
}

static gboolean
in_range(const HistRange *r, gint64 t)
{
	if (!r->set)
		return TRUE;
	return t != 0 && t >= r->from && t <= r->to;
}

static gboolean
id_match(const HistFilter *f, const HistJob *j)
{
	if (f->jobs == NULL || f->jobs->len == 0)
		return TRUE;
	for (guint i = 0; i < f->jobs->len; i++) {
		const HistJobRef *r = &g_array_index(f->jobs, HistJobRef, i);

		if (r->id == j->id && (!r->has_index || r->index == j->index))
			return TRUE;
	}
	return FALSE;
}

/* -J matches the element's own name or the array's name, with globs. */
static gboolean
name_match(const char *pattern, const HistJob *j)
{
	if (pattern == NULL)
		return TRUE;
	return g_pattern_match_simple(pattern, j->name) ||
	    g_pattern_match_simple(pattern, j->base_name);
}

gboolean
hist_filter_match(const HistFilter *f, const HistJob *j)
{
	if ((state_bits(j->state) & f->states) == 0)
		return FALSE;
	if (f->user != NULL && g_strcmp0(f->user, j->user) != 0)
		return FALSE;
	if (f->queue != NULL && g_strcmp0(f->queue, j->queue) != 0)
		return FALSE;
	if (!name_match(f->name, j) || !id_match(f, j))
		return FALSE;
	return in_range(&f->submit, j->submit_time) &&
	    in_range(&f->dispatch, j->dispatch_time) &&
	    in_range(&f->complete, j->end_time);
}

GPtrArray *
hist_filter_select(const HistFilter *f, const HistModel *m)
{
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < m->jobs->len; i++) {
		HistJob *j = g_ptr_array_index(m->jobs, i);

		if (hist_filter_match(f, j))
			g_ptr_array_add(out, j);
	}
	return out;
}

/* ---- time forms --------------------------------------------------------- */

static gboolean
field(const char *s, int lo, int hi, int *v)
{
	guint64 n;

	if (!g_ascii_string_to_unsigned(s, 10, (guint64)lo, (guint64)hi, &n,
	    NULL))
		return FALSE;
	*v = (int)n;
	return TRUE;
}

/* Fields before "hour:minute" (or the whole date) into y, mo, d. */
static gboolean
date_fields(char **parts, guint n, int *y, int *mo, int *d)
{
	if (n == 3)
		return field(parts[0], 1970, 2999, y) &&
		    field(parts[1], 1, 12, mo) && field(parts[2], 1, 31, d);
	if (n == 2)
		return field(parts[0], 1, 12, mo) && field(parts[1], 1, 31, d);
	if (n == 1)
		return field(parts[0], 1, 31, d);
	return n == 0;
}

static gboolean
parse_form(const char *s, gint64 now, gboolean end, gint64 *t)
{
	g_autoptr(GDateTime) ref = g_date_time_new_from_unix_local(now);
	g_auto(GStrv) parts = g_strsplit(s, "/", -1);
	guint n = g_strv_length(parts);
	int y, mo, d, h = 0, mi = 0;
	gint64 span = 86400;
	g_autoptr(GDateTime) dt = NULL;
	const char *colon;

	if (ref == NULL || n == 0 || n > 4)
		return FALSE;
	g_date_time_get_ymd(ref, &y, &mo, &d);
	colon = strchr(parts[n - 1], ':');
	if (colon != NULL) {
		g_auto(GStrv) hm = g_strsplit(parts[n - 1], ":", -1);

		if (g_strv_length(hm) != 2 || !field(hm[0], 0, 23, &h) ||
		    !field(hm[1], 0, 59, &mi))
			return FALSE;
		span = 60;
		n--;
	} else if (n < 2) {
		return FALSE;   /* a lone number is neither a date nor a time */
	}
	if (!date_fields(parts, n, &y, &mo, &d))
		return FALSE;
	dt = g_date_time_new_local(y, mo, d, h, mi, 0);
	if (dt == NULL)
		return FALSE;
	*t = g_date_time_to_unix(dt) + (end ? span - 1 : 0);
	return TRUE;
}

gboolean
hist_parse_time(const char *s, gint64 now, gboolean end, gint64 *t,
    GError **err)
{
	if (strcmp(s, ".") == 0) {
		*t = now;
		return TRUE;
	}
	if (parse_form(s, now, end, t))
		return TRUE;
	g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s: Bad time specification;"
	    " use [[[year/]month/]day/]hour:minute", s);
	return FALSE;
}

gboolean
hist_parse_range(const char *s, gint64 now, HistRange *r, GError **err)
{
	const char *comma = strchr(s, ',');
	g_autofree char *a = comma ? g_strndup(s, (gsize)(comma - s)) :
	    g_strdup(s);
	const char *b = comma ? comma + 1 : "";

	r->set = TRUE;
	r->from = 0;
	r->to = now;
	if (*a == '\0' && *b == '\0') {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s: Bad time "
		    "interval", s);
		return FALSE;
	}
	if (*a != '\0' && !hist_parse_time(a, now, FALSE, &r->from, err))
		return FALSE;
	if (*b != '\0' && !hist_parse_time(b, now, TRUE, &r->to, err))
		return FALSE;
	if (r->from > r->to) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s: The start time "
		    "is after the end time", s);
		return FALSE;
	}
	return TRUE;
}
