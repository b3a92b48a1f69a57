/*
 * The bjobs -o / -json field table (bjobs-fields.c), shared by the -o
 * parser and the printers in bjobs-custom.c and by the unit tests, which
 * walk the whole table.
 */
#ifndef BS_CMD_BJOBS_FIELDS_H
#define BS_CMD_BJOBS_FIELDS_H

#include <glib.h>

#include "bjobs-format.h"

/* Appends the job's value of one field; FALSE when the job has none
 * (custom output prints "-", JSON an empty string). */
typedef gboolean (*BjobsFieldGet)(GString *v, const Basalt__JobInfo *j,
				  const BjobsOpts *o);

enum {
	BJOBS_FIELD_TAIL = 1 << 0,   /* a cut value keeps its end (JOB_NAME) */
};

typedef struct {
	const char *names;     /* blank-separated: name then aliases */
	const char *header;    /* the column header and JSON key */
	guint width;           /* LSF's recommended width, for "field:" */
	BjobsFieldGet get;
	guint flags;
	/* Memory fields: the value in KB, for "field:width:unit". */
	gboolean (*kb)(const Basalt__JobInfo *j, guint64 *kb);
} BjobsFieldDef;

/* Fields of bsub -sp, -x, -t and -We (bjobs-subopts.c). */
gboolean bjobs_get_job_priority(GString *v, const Basalt__JobInfo *j,
				const BjobsOpts *o);
gboolean bjobs_get_exclusive(GString *v, const Basalt__JobInfo *j,
			     const BjobsOpts *o);
gboolean bjobs_get_term_time(GString *v, const Basalt__JobInfo *j,
			     const BjobsOpts *o);
gboolean bjobs_get_est_runtime(GString *v, const Basalt__JobInfo *j,
			       const BjobsOpts *o);

/* The table, in the order bjobs(1) lists it. */
const BjobsFieldDef *bjobs_field_table(gsize *n);
/* By name or alias, case-insensitive; NULL when unknown. */
const BjobsFieldDef *bjobs_field_find(const char *name);

#endif
