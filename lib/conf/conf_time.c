/*
 * Time windows (see conf_time.h).  A window is kept as written, with
 * minutes of the day and an optional day of the week on each end; the open
 * test works on minutes of the day, or of the week when days are given, so
 * wrapping windows need no special storage.
 */
#include "config.h"

#include <string.h>

#include "conf/conf_time.h"

gboolean
bs_conf_parse_uint(const char *s, gint64 max, gint64 *out)
{
	gint64 v = 0;

	if (s == NULL || *s == '\0')
		return FALSE;
	for (const char *p = s; *p != '\0'; p++) {
		if (!g_ascii_isdigit(*p))
			return FALSE;
		v = v * 10 + (*p - '0');
		if (v > max)
			return FALSE;
	}
	*out = v;
	return TRUE;
}

/* One end of a window: `[day:]hour[:minute]`. */
static gboolean
parse_point(const char *s, int *day, int *minute, GString *why)
{
	g_auto(GStrv) f = g_strsplit(s, ":", -1);
	guint n = g_strv_length(f);
	gint64 d = -1, h, m = 0;
	const char *hs, *ms = NULL;

	if (n < 1 || n > 3) {
		g_string_append_printf(why, "'%s' is not [day:]hour[:minute]", s);
		return FALSE;
	}
	hs = n == 3 ? f[1] : f[0];
	if (n >= 2)
		ms = n == 3 ? f[2] : f[1];
	if (n == 3 && (!bs_conf_parse_uint(f[0], 6, &d))) {
		g_string_append_printf(why, "day '%s' is not 0-6", f[0]);
		return FALSE;
	}
	if (!bs_conf_parse_uint(hs, 24, &h)) {
		g_string_append_printf(why, "hour '%s' is not 0-23", hs);
		return FALSE;
	}
	if (ms != NULL && !bs_conf_parse_uint(ms, 59, &m)) {
		g_string_append_printf(why, "minute '%s' is not 0-59", ms);
		return FALSE;
	}
	if (h == 24 && m != 0) {
		g_string_append_printf(why, "'%s' is past 24:00", s);
		return FALSE;
	}
	*day = (int)d;
	*minute = (int)(h * 60 + m);
	return TRUE;
}

static gboolean
parse_window(const char *s, BsTimeWindow *w, GString *why)
{
	const char *dash = strchr(s, '-');
	g_autofree char *left = NULL;
	int bd, bm, ed, em;

	if (dash == NULL || strchr(dash + 1, '-') != NULL) {
		g_string_append_printf(why, "'%s' is not a time window begin-end", s);
		return FALSE;
	}
	left = g_strndup(s, (gsize)(dash - s));
	if (!parse_point(left, &bd, &bm, why) || !parse_point(dash + 1, &ed, &em, why))
		return FALSE;
	if ((bd < 0) != (ed < 0)) {
		g_string_append_printf(why,
		    "'%s': give a day on both ends of the window or on neither", s);
		return FALSE;
	}
	w->begin_day = (gint8)bd;
	w->end_day = (gint8)ed;
	w->begin_min = (gint16)bm;
	w->end_min = (gint16)em;
	return TRUE;
}

gboolean
bs_conf_windows_parse(const char *text, GArray **out, GString *why)
{
	g_auto(GStrv) words = g_strsplit_set(text, " \t", -1);
	g_autoptr(GArray) arr = g_array_new(FALSE, FALSE, sizeof(BsTimeWindow));

	for (guint i = 0; words[i] != NULL; i++) {
		BsTimeWindow w;

		if (words[i][0] == '\0')
			continue;
		if (!parse_window(words[i], &w, why))
			return FALSE;
		g_array_append_val(arr, w);
	}
	if (arr->len == 0) {
		g_string_append(why, "no time window given");
		return FALSE;
	}
	*out = g_steal_pointer(&arr);
	return TRUE;
}

static gboolean
in_range(int t, int begin, int end)
{
	if (begin == end)
		return TRUE;	/* 8:00-8:00 is the whole day (or week) */
	if (begin < end)
		return t >= begin && t < end;
	return t >= begin || t < end;	/* wraps midnight or the week end */
}

gboolean
bs_conf_windows_open(const GArray *windows, GDateTime *t)
{
	int mod, mow;

	if (windows == NULL || windows->len == 0)
		return TRUE;
	mod = g_date_time_get_hour(t) * 60 + g_date_time_get_minute(t);
	mow = (g_date_time_get_day_of_week(t) % 7) * 1440 + mod;
	for (guint i = 0; i < windows->len; i++) {
		const BsTimeWindow *w = &g_array_index(windows, BsTimeWindow, i);

		if (w->begin_day < 0 && in_range(mod, w->begin_min, w->end_min))
			return TRUE;
		if (w->begin_day >= 0 &&
		    in_range(mow, w->begin_day * 1440 + w->begin_min,
		    w->end_day * 1440 + w->end_min))
			return TRUE;
	}
	return FALSE;
}

#define WEEK_MINUTES (7 * 1440)

/* Mark every minute of the week (0: Sunday 0:00) some window is open. */
static void
week_open(const GArray *windows, guint8 *week)
{
	for (guint i = 0; windows != NULL && i < windows->len; i++) {
		const BsTimeWindow *w = &g_array_index(windows, BsTimeWindow, i);

		for (int m = 0; m < WEEK_MINUTES; m++) {
			if (w->begin_day < 0)
				week[m] |= in_range(m % 1440, w->begin_min, w->end_min);
			else
				week[m] |= in_range(m, w->begin_day * 1440 + w->begin_min,
				    w->end_day * 1440 + w->end_min);
		}
	}
}

gboolean
bs_conf_windows_overlap(const GArray *a, const GArray *b)
{
	g_autofree guint8 *wa = g_new0(guint8, WEEK_MINUTES);
	g_autofree guint8 *wb = g_new0(guint8, WEEK_MINUTES);

	week_open(a, wa);
	week_open(b, wb);
	for (int m = 0; m < WEEK_MINUTES; m++)
		if (wa[m] && wb[m])
			return TRUE;
	return FALSE;
}

static void
format_point(GString *s, int day, int minute)
{
	if (day >= 0)
		g_string_append_printf(s, "%d:", day);
	g_string_append_printf(s, "%d:%02d", minute / 60, minute % 60);
}

char *
bs_conf_windows_format(const GArray *windows)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; windows != NULL && i < windows->len; i++) {
		const BsTimeWindow *w = &g_array_index(windows, BsTimeWindow, i);

		if (i > 0)
			g_string_append_c(s, ' ');
		format_point(s, w->begin_day, w->begin_min);
		g_string_append_c(s, '-');
		format_point(s, w->end_day, w->end_min);
	}
	return g_string_free(s, FALSE);
}
