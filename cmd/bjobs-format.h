/*
 * bjobs output from a Basalt__JobList: the default table (and -w, -p, -s),
 * the -W wide listing, the -l long form, custom -o fields, -json, and the
 * "No ... job found" messages.  Times are printed in local time; `now` is
 * a parameter so output is reproducible.
 *
 * bjobs-format.c holds the fixed layouts, bjobs-custom.c the -o/-json ones
 * over the field table of bjobs-fields.c, bjobs-summary.c the -A and -sum
 * summaries.
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
	gboolean hms;        /* -hms: durations in -o/-json as hh:mm:ss */
	gboolean unformatted; /* -UF: -l without wrapping long lines */
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
/* The ids the query named that the list lacks, as "123" or "123[4]". */
char **bjobs_missing_ids(const Basalt__JobQuery *q,
			 const Basalt__JobList *list);

/* -l: -x, -t, -sp, -L and -We as the "Submitted from" statement shows
 * them (bjobs-subopts.c). */
void bjobs_subopts_details(GString *l, const Basalt__JobInfo *j);

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
 * table's fields.  With q, each job id it names that the list lacks adds
 * a record {"JOBID":"123","ERROR":"Job <123> is not found"}, as LSF's;
 * nothing found at all is still a valid document with empty RECORDS.
 */
void bjobs_format_json(GString *out, const BjobsFields *f,
		       const Basalt__JobList *list, const Basalt__JobQuery *q,
		       const BjobsOpts *o);

/*
 * -A: one line per job array with its elements counted by state, LSF's
 * "JOBID ARRAY_SPEC OWNER NJOBS PEND DONE RUN EXIT SSUSP USUSP PSUSP".
 * The list must hold every element of the arrays (any state); an array
 * is shown when one of its elements matches the query's states (its
 * unfinished elements when it names none).  Jobs that are not array
 * elements are left out, as LSF does.  Returns the number of arrays.
 */
guint bjobs_format_arrays(GString *out, const Basalt__JobList *list,
			  const Basalt__JobQuery *q, const BjobsOpts *o);
/*
 * -sum: LSF's one-line summary of the listed unfinished jobs' slots:
 * RUN SSUSP USUSP UNKNOWN PEND FWD_PEND.
 */
void bjobs_format_sum(GString *out, const Basalt__JobList *list,
		      const BjobsOpts *o);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BjobsFields, bjobs_fields_free)

#endif
