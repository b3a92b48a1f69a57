/*
 * Memory sizes with LSF's units (see memunit.h).  Fractions are allowed
 * ("1.5G"): sites write them, and LSF takes them for the larger units.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/memunit.h"

static const char *const unit_names[] = { "KB", "MB", "GB", "TB", "PB" };

gboolean
bs_mem_unit_parse(const char *s, gsize len, BsMemUnit *unit)
{
	if (s == NULL || len == 0 || len > 2)
		return FALSE;
	if (len == 2 && g_ascii_toupper(s[1]) != 'B')
		return FALSE;
	for (gsize i = 0; i < G_N_ELEMENTS(unit_names); i++)
		if (g_ascii_toupper(s[0]) == unit_names[i][0]) {
			*unit = (BsMemUnit)i;
			return TRUE;
		}
	return FALSE;
}

const char *
bs_mem_unit_name(BsMemUnit unit)
{
	g_return_val_if_fail((gsize)unit < G_N_ELEMENTS(unit_names), "KB");
	return unit_names[unit];
}

guint64
bs_mem_unit_kb(BsMemUnit unit)
{
	guint64 kb = 1;

	for (int i = 0; i < (int)unit; i++)
		kb *= 1024;
	return kb;
}

gboolean
bs_mem_parse_kb(const char *s, BsMemUnit default_unit, guint64 *kb)
{
	BsMemUnit unit = default_unit;
	const char *p = s;
	char *num;
	double v, scaled;

	if (s == NULL || !g_ascii_isdigit(*s))
		return FALSE;
	while (g_ascii_isdigit(*p))
		p++;
	if (*p == '.') {
		if (!g_ascii_isdigit(p[1]))
			return FALSE;
		for (p++; g_ascii_isdigit(*p); p++)
			;
	}
	if (*p != '\0' && !bs_mem_unit_parse(p, strlen(p), &unit))
		return FALSE;
	num = g_strndup(s, (gsize)(p - s));
	errno = 0;
	v = g_ascii_strtod(num, NULL);
	g_free(num);
	if (errno != 0 || !isfinite(v))
		return FALSE;
	scaled = v * (double)bs_mem_unit_kb(unit);
	/* Exact up to 2^53; larger sizes are no real limit. */
	if (scaled > 9007199254740992.0)
		return FALSE;
	/* Rounded up by hand: libbsutil does not pull in libm. */
	*kb = (guint64)scaled;
	if ((double)*kb < scaled)
		(*kb)++;
	return TRUE;
}

BsMemUnit
bs_mem_unit_for_resources(BsMemUnit limits_unit)
{
	return limits_unit < BS_MEM_MB ? BS_MEM_MB : limits_unit;
}
