/*
 * lsb.acct: LSF's accounting file, written beside the journal so tools
 * that read LSF's files (Open XDMoD's shredder, site scripts) work.  The
 * journal stays the truth; see mbd-acct.c for how a record is written
 * once, after its event is durable, across crashes and restarts.
 */
#ifndef BS_MBD_ACCT_H
#define BS_MBD_ACCT_H

#include <glib.h>

#include "mbatchd/state/state.h"

struct Manager;
typedef struct AcctLog AcctLog;

/* acct-record.c: one JOB_FINISH line (with its newline) for a job just
 * finished, as LSF 10.1 writes it. */
void acct_format_finish(GString *out, const Job *j, gint64 event_time);

/* Before the journal is replayed: find the file and what it already holds. */
gboolean acct_open(struct Manager *m, GError **err);
/* After an event was applied, live or replayed: queue its record, if any. */
void acct_note(struct Manager *m, const Basalt__Event *ev);
/* After the replay: write what the file lacks (or, on a first start, note
 * that the journal's past is not the file's). */
void acct_recovered(struct Manager *m);
/* After a journal sync up to synced_seq: write the records it made
 * durable.  FALSE while some cannot be written (they stay queued). */
gboolean acct_flush(struct Manager *m, guint64 synced_seq);
/* TRUE when every record noted has been written. */
gboolean acct_caught_up(const struct Manager *m);
void acct_close(struct Manager *m);

#endif
