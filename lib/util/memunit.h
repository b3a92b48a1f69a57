/*
 * Memory sizes as LSF writes them: a number with an optional unit, KB MB
 * GB TB PB (or K M G T P), in any case.  One parser for every place that
 * takes a size (bsub -M and the other limit options, lsb.queues and
 * lsb.applications limits, rusage[] and select[] in resource requirement
 * strings), so a unit means the same everywhere.
 *
 * LSF_UNIT_FOR_LIMITS (lsf.conf) names the unit of a number written
 * without one; limits default to KB, the mem/swp/tmp resources of a
 * resource requirement to MB (bs_mem_unit_for_resources).
 */
#ifndef BS_UTIL_MEMUNIT_H
#define BS_UTIL_MEMUNIT_H

#include <glib.h>

typedef enum {
	BS_MEM_KB,
	BS_MEM_MB,
	BS_MEM_GB,
	BS_MEM_TB,
	BS_MEM_PB,
} BsMemUnit;

/* "KB", "k", "Mb", ... FALSE for anything else (the empty string too). */
gboolean bs_mem_unit_parse(const char *s, gsize len, BsMemUnit *unit);
/* "KB" ... "PB". */
const char *bs_mem_unit_name(BsMemUnit unit);
/* How many KB one of the unit is. */
guint64 bs_mem_unit_kb(BsMemUnit unit);

/*
 * "100", "4MB", "1.5g": a size, in KB, rounded up to a whole KB.
 * default_unit applies when the number has no unit.  FALSE for anything
 * else: no digits, an unknown unit, a negative or overflowing value.
 */
gboolean bs_mem_parse_kb(const char *s, BsMemUnit default_unit, guint64 *kb);

/* The unit of a bare number given for mem, swp or tmp in select[] and
 * rusage[]: LSF_UNIT_FOR_LIMITS when it is MB or larger, else MB. */
BsMemUnit bs_mem_unit_for_resources(BsMemUnit limits_unit);

#endif
