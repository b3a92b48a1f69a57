/*
 * bhist's and bacct's layouts, from the history model (hist-model.h) to
 * text in a GString.  No I/O and no clock: `now` is the caller's, and
 * times are local (tests fix TZ), so the output is a pure function of the
 * events, which is what lets the tests compare it byte for byte.
 */
#ifndef BS_CMD_HIST_FORMAT_H
#define BS_CMD_HIST_FORMAT_H

#include <glib.h>

#include "hist-model.h"

/* bhist: "Summary of time in seconds spent in various states:" + table. */
void hist_format_summary(GString *out, GPtrArray *jobs, gint64 now,
    gboolean wide);
/* bhist -l: per job, the header, one line per step, the time summary. */
void hist_format_long(GString *out, GPtrArray *jobs, gint64 now);
/* bhist -t: the steps of all jobs in the order they happened. */
void hist_format_timeline(GString *out, GPtrArray *jobs);

/* What bacct's header says was selected. */
typedef struct {
	const char *user;           /* NULL: all users */
	const char *queue;          /* NULL: all queues */
	const HistRange *submit;    /* may be NULL */
	const HistRange *dispatch;
	const HistRange *complete;
	const char *project;        /* -P; NULL: all projects */
	const char *host;           /* -m; NULL: all hosts */
	gboolean done_only;         /* -d */
	gboolean exit_only;         /* -e */
	/* How the jobs are shown, not what was selected: -b adds a line per
	 * job, -w cuts no column of -b and wraps no line of -l. */
	gboolean brief;
	gboolean wide;
} HistAcctHeader;

/* bacct: the header, per job with lng, then the SUMMARY. */
void hist_format_acct(GString *out, GPtrArray *jobs,
    const HistAcctHeader *h, gboolean lng);

/* Shared by both layouts: the long-form header line and step lines. */
void hist_format_step(GString *out, const HistJob *j, const HistStep *s);
/* "Submitted from host <h>, to Queue <q>, CWD <d>, ...;" */
void hist_submit_text(GString *out, const HistJob *j, gboolean timeline);

#define HIST_RULE \
	"------------------------------------------------------------------------------\n"

#endif
