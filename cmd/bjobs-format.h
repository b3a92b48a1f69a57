/*
 * bjobs output from a Basalt__JobList: the default table (and -w, -p, -s),
 * the -W wide listing, the -l long form, custom -o fields, -json, and the
 * "No ... job found" messages.  Times are printed in local time; `now` is
 * a parameter so output is reproducible.
 *
 * bjobs-format.c holds the fixed layouts, bjobs-fields.c the -o/-json ones.
 */
#ifndef BS_CMD_BJOBS_FORMAT_H
#define BS_CMD_BJOBS_FORMAT_H

#include <glib.h>

#include "pb.h"

typedef struct {
	gboolean wide;       /* -w: never truncate, join exec hosts with ':' */
	gboolean noheader;   /* -noheader */
	gboolean reasons;    /* -p / -s: a reason line under each such job */
	gint64 now;          /* "Resource usage collected" time in -l */
} BjobsOpts;

/* Default table: JOBID USER STAT QUEUE FROM_HOST EXEC_HOST JOB_NAME
 * SUBMIT_TIME. */
void bjobs_format_table(GString *out, const Basalt__JobList *list,
			const BjobsOpts *o);
/* -W: the default columns untruncated, full times, then project, CPU,
 * memory, PIDs, start and finish times. */
void bjobs_format_wide(GString *out, const Basalt__JobList *list,
		       const BjobsOpts *o);
/* -l: one block per job, separated by a line of dashes. */
void bjobs_format_long(GString *out, const Basalt__JobList *list,
		       const BjobsOpts *o);

/*
 * The stderr lines when the query matched nothing: one "Job <id> is not
 * found" per requested id missing from the list, or, when no ids were
 * asked for and the list is empty, the message for the query's states
 * ("No unfinished job found", "No pending job found", ...) with " in queue
 * <q>" or " on host/group <h>" for a single queue or host filter.
 * Returns TRUE when it wrote anything (bjobs then exits 255).
 */
gboolean bjobs_format_not_found(GString *err, const Basalt__JobQuery *q,
				const Basalt__JobList *list);

/* JOB_NAME as bjobs shows it: array elements as "name[idx]", a job without
 * a name under its command. */
char *bjobs_job_name(const Basalt__JobInfo *j);
/* EXEC_HOST groups, LSB_HOSTS order: {"4*hostB", "hostC"}.  Free with
 * g_strfreev; empty for a job that has not started. */
char **bjobs_exec_groups(const Basalt__JobInfo *j);
/* CPU time of the job in seconds, 0 without usage. */
double bjobs_cpu_seconds(const Basalt__JobInfo *j);
/* "Interactive pseudo-terminal shell mode" for JobSpec.interactive 3, ...;
 * NULL for a batch job. */
const char *bjobs_interactive_words(guint32 mode);

/* -o "field[:[-]width] ... delimiter='x'" */
typedef struct BjobsFields BjobsFields;

BjobsFields *bjobs_fields_parse(const char *spec, GError **error);
void bjobs_fields_free(BjobsFields *f);
void bjobs_format_custom(GString *out, const BjobsFields *f,
			 const Basalt__JobList *list, const BjobsOpts *o);
/*
 * -json, LSF's layout: {"COMMAND":"bjobs","JOBS":N,"RECORDS":[{...}]},
 * two-space indents, one "KEY":"value" per line.  f NULL: the default
 * table's fields.
 */
void bjobs_format_json(GString *out, const BjobsFields *f,
		       const Basalt__JobList *list, const BjobsOpts *o);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BjobsFields, bjobs_fields_free)

#endif
