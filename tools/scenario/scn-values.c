/*
 * The words of a scenario line: key=value, numbers, durations, job ids,
 * and the text forms of jobs and host lists shared by the reader and the
 * plan's lines, so both spell them the same.
 */
#include "config.h"

#include <string.h>

#include "tools/scenario/scn-internal.h"

/* "key=value": the value if argv word `w` has key `key`, else NULL. */
const char *
scn_kv(const char *w, const char *key)
{
	size_t n = strlen(key);

	return strncmp(w, key, n) == 0 && w[n] == '=' ? w + n + 1 : NULL;
}

gboolean
scn_parse_int(const char *v, gint64 lo, gint64 hi, gint64 *out)
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

gboolean
scn_parse_double(const char *v, double *out)
{
	char *end;

	if (v == NULL || *v == '\0')
		return FALSE;
	*out = g_ascii_strtod(v, &end);
	return *end == '\0' && *out >= 0 && *out < 1e9;
}

/* A duration: N, Ns, Nm, Nh or Nd, optionally negative. */
gboolean
scn_parse_duration(const char *v, gint64 *out)
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
gboolean
scn_parse_job_id(const char *w, guint64 *id, guint32 *index)
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

char *
scn_wake_text(gint64 in)
{
	static const struct { gint64 secs; char unit; } units[] = {
		{ 86400, 'd' }, { 3600, 'h' }, { 60, 'm' },
	};

	if (in < 0)
		return g_strdup("wake none");
	for (guint i = 0; i < G_N_ELEMENTS(units); i++)
		if (in > 0 && in % units[i].secs == 0)
			return g_strdup_printf("wake +%" G_GINT64_FORMAT "%c",
			    in / units[i].secs, units[i].unit);
	return g_strdup_printf("wake +%" G_GINT64_FORMAT "s", in);
}

char *
scn_start_text(gint64 in)
{
	g_autofree char *w = NULL;

	if (in < 0)
		return g_strdup("unknown");
	if (in == 0)
		return g_strdup("now");
	w = scn_wake_text(in);
	return g_strdup(w + strlen("wake "));
}
