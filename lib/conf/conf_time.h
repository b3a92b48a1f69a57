/*
 * LSF time windows: `[day:]hour[:minute]-[day:]hour[:minute]`, day 0-6
 * (0 = Sunday), several windows separated by blanks, wrapping past midnight
 * or the end of the week allowed (`20:00-8:30`, `5:19:00-1:8:30`).  Used by
 * RUN_WINDOW, DISPATCH_WINDOW, the lsb.hosts DISPATCH_WINDOW column and the
 * `#if time(...)` directives.
 */
#ifndef BS_CONF_TIME_H
#define BS_CONF_TIME_H

#include <glib.h>

typedef struct {
	gint8 begin_day;   /* 0-6, or -1 when the window recurs every day */
	gint8 end_day;     /* -1 exactly when begin_day is -1 */
	gint16 begin_min;  /* minutes after midnight, 0-1440 */
	gint16 end_min;
} BsTimeWindow;

/* Parse a blank-separated list of windows into a new GArray of BsTimeWindow.
 * On failure returns FALSE and appends the reason to `why`. */
gboolean bs_conf_windows_parse(const char *text, GArray **out, GString *why);
/* TRUE when `t` is inside one of the windows; NULL or empty means always open. */
gboolean bs_conf_windows_open(const GArray *windows, GDateTime *t);
/* TRUE when some minute of the week is inside both lists (a time-windowed
 * plan may not share a minute with another plan of its group). */
gboolean bs_conf_windows_overlap(const GArray *a, const GArray *b);
/* Back to LSF text (for bqueues -l and tests). */
char *bs_conf_windows_format(const GArray *windows);

/* Strict non-negative decimal integer, no sign, no blanks, <= max. */
gboolean bs_conf_parse_uint(const char *s, gint64 max, gint64 *out);

#endif
