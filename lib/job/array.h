/*
 * Job arrays and job ID strings.
 *
 *   bsub -J "name[1-100:2,200,300-310]%10"
 *   bkill 123 "123[4]" "123[1-5,7]"
 *
 * An index spec is a comma list of start[-end[:step]], indices from 1 to
 * the caller's maximum (MAX_JOB_ARRAY_SIZE of lsb.params; LSF's default is
 * BS_ARRAY_MAX_INDEX_DEFAULT), end >= start, step >= 1; `%N` (N >= 1) caps
 * how many elements run at once.  A job array must have a name before
 * '['.
 *
 * Our decision on overlaps: at submission an index given twice
 * ("a[1-10,5]") is an error, since each element is its own job and a
 * person who wrote it twice most likely meant something else; in a job ID
 * for a command ("123[1-5,3]") overlaps are merged, as selecting an
 * element twice is harmless.
 *
 * Pure: the spec is expanded to the sorted list of its indices (the daemon
 * makes one job per index anyway), so memory is 4 bytes per element; at
 * most BS_ARRAY_MAX_ELEMENTS are expanded.
 */
#ifndef BS_ARRAY_H
#define BS_ARRAY_H

#include <glib.h>

#define BS_ARRAY_MAX_INDEX_DEFAULT 1000
#define BS_ARRAY_MAX_ELEMENTS 10000000
#define BS_ARRAY_MAX_LEN 4096

typedef struct _BsArraySpec BsArraySpec;

/*
 * Parses a job name as bsub -J takes it.  A name without '[' is not an
 * array: TRUE with *out set to NULL.  Otherwise TRUE with *out set, or
 * FALSE with an error naming the column.
 */
gboolean bs_array_parse(const char *job_name, guint max_index,
    BsArraySpec **out, GError **error);

/*
 * Parses a job ID as the commands take it: "123" (*indices = NULL: the
 * whole job), "123[4]", "123[1-5,7]".  "0" is accepted and means "all
 * jobs", as bkill, bstop and bresume take it.
 */
gboolean bs_jobid_parse(const char *text, guint max_index, guint64 *job_id,
    BsArraySpec **indices, GError **error);

void bs_array_spec_free(BsArraySpec *spec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsArraySpec, bs_array_spec_free)

/* The name before '[' (for a job ID: the ID). */
const char *bs_array_spec_name(const BsArraySpec *spec);
/* %N, or 0 when there is no running limit. */
guint bs_array_spec_limit(const BsArraySpec *spec);
/* How many elements, and the i-th index in ascending order. */
guint bs_array_spec_count(const BsArraySpec *spec);
guint bs_array_spec_index(const BsArraySpec *spec, guint i);
/* All indices, ascending; owned by spec. */
const guint *bs_array_spec_indices(const BsArraySpec *spec, guint *n);
gboolean bs_array_spec_contains(const BsArraySpec *spec, guint index);

/* The spec as written, normalised: "name[1-99:2,200]%10". */
char *bs_array_spec_to_string(const BsArraySpec *spec);

/* An element's name as bjobs shows it: "name[7]". */
char *bs_array_element_name(const char *base, guint index);

#endif
