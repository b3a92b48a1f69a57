/*
 * The text of LSF's job report (see sbd-report.h for when it is written and
 * by whom): pure formatting, kept apart so tests can check the layout
 * without a daemon.
 */
#ifndef BS_SBD_JOB_REPORT_FORMAT_H
#define BS_SBD_JOB_REPORT_FORMAT_H

#include <glib.h>

#include "launch.h"

/* The figures of the "Resource usage summary:" block; a value < 0 prints
 * as "-" (not measured on this host).  Filled from what sbatchd knows at
 * the end (sbd_report_usage_from_job); more accounting fills more. */
typedef struct {
	double cpu_s;
	gint64 max_mem_kb;
	gint64 avg_mem_kb;
	gint64 max_swap_kb;
	gint64 max_procs;
	gint64 max_threads;
	gint64 run_time_s;
	gint64 turnaround_s;
} SbdReportUsage;

/* What the header says. */
typedef struct {
	guint64 job_id;
	guint32 index;
	const char *name;
	const char *cluster;
	const char *sender;       /* "admin@host" */
	const char *submit_host;
	const char *user;
	const char *home;
	const char *cwd;
	const char *queue;
	const char *command;
	char **hosts;             /* one per slot */
	gint64 submit_time, start_time, end_time;
	gboolean done;            /* exit 0 */
	BsExitStatus exit;
	const char *reason;       /* why sbatchd killed it, or NULL */
	const char *err_path;     /* -e file, named in the report, or NULL */
	gboolean output_follows;  /* a mail the job's output is appended to */
} SbdReportFacts;

/* The report as LSF lays it out (pure; tests call it). */
char *sbd_report_format(const SbdReportFacts *f, const SbdReportUsage *u);
/* The mail LSF sends at dispatch for bsub -B. */
char *sbd_report_format_begin(const SbdReportFacts *f);

#endif
