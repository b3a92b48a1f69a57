/*
 * Checkpoints: the live state at a seq, written as the events that rebuild
 * it, so loading one is feeding events to state_apply() like replay (one
 * code path, one mutator).  (They are not called snapshots, so that word
 * means one thing in Basalt: the scheduler's input, mbatchd/mbd-snapshot.h.)
 * The caller (the daemon) turns its State into those events; this file
 * owns only the file and its atomicity: temp file, fsync, rename, fsync of
 * the directory, so a crash leaves either the old set of checkpoints or
 * the new one, never a half file under the final name.  Format in evlog.h.
 */
#ifndef BS_JOURNAL_CHECKPOINT_H
#define BS_JOURNAL_CHECKPOINT_H

#include <glib.h>

#include "journal/readback.h"

/*
 * Writes dir/snapshot.<seq> holding events (Basalt__Event *), in order: the
 * state after journal event <seq>.
 */
gboolean bs_checkpoint_write(const char *dir, guint64 seq, GPtrArray *events,
    GError **err);

/*
 * Reads the whole file and checks every record and the footer.  On failure
 * *fatal says whether an older checkpoint may be used instead (FALSE: damaged
 * or torn) or not (TRUE: a newer format version, which must not be misread).
 */
gboolean bs_checkpoint_verify(const char *path, guint64 *seq, guint64 *n_events,
    gboolean *fatal, GError **err);

/* Verifies, then feeds every event to fn; *seq is the checkpoint's seq. */
gboolean bs_checkpoint_load(const char *path, BsJournalEventFn fn, void *data,
    guint64 *seq, guint64 *n_events, gboolean *fatal, GError **err);

#endif
