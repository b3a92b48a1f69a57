/*
 * lsb.acct (always) and lsb.events (lsf.conf LSB_WRITE_LSB_EVENTS=Y):
 * LSF's accounting and event files, written beside the journal so tools
 * that read LSF's files (Open XDMoD's shredder, workflow engines, site
 * scripts) work.  The journal stays the truth; see mbd-acct.c for how a
 * record is written once, after its event is durable, across crashes
 * and restarts.
 */
#ifndef BS_MBD_ACCT_H
#define BS_MBD_ACCT_H

#include <glib.h>

#include "mbatchd/state/state.h"

struct Manager;
typedef struct AcctLog AcctLog;

/* acct-record.c: one JOB_FINISH line (with its newline) for a job just
 * finished, as LSF 10.1 writes it; a quoted string field and a number
 * field as LSF writes them (with their leading space), for lsb.events too. */
void acct_format_finish(GString *out, const Job *j, gint64 event_time);
void acct_put_str(GString *out, const char *s);
void acct_put_int(GString *out, gint64 v);
/* events-record.c: the lsb.events line of an event just applied, if it
 * makes one (JOB_NEW, JOB_START, JOB_STATUS). */
gboolean events_format(GString *out, const Basalt__Event *ev, const State *st);

/* Before the journal is replayed: find the files and what they hold. */
gboolean acct_open(struct Manager *m, GError **err);
/* After an event was applied, live or replayed: queue its record, if any. */
void acct_note(struct Manager *m, const Basalt__Event *ev);
/* The highest seq whose events the files no longer need replayed (their
 * mark, or all when a file starts fresh at the journal's end). */
guint64 acct_replay_horizon(const struct Manager *m);
/* After the replay: write what the file lacks (or, on a first start, note
 * that the journal's past is not the file's). */
void acct_recovered(struct Manager *m);
/* After a journal sync up to synced_seq: write the records it made
 * durable.  FALSE while some cannot be written (they stay queued). */
gboolean acct_flush(struct Manager *m, guint64 synced_seq);
/* TRUE when every record noted has been written to every file. */
gboolean acct_caught_up(const struct Manager *m);
void acct_close(struct Manager *m);

#endif
