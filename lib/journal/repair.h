/*
 * Internal to lib/journal: the replay walk shared by recovery (which feeds
 * and cuts) and the read-only check (which does neither), so that check's
 * verdict is exactly what the next start would do.
 */
#ifndef BS_JOURNAL_REPAIR_H
#define BS_JOURNAL_REPAIR_H

#include "journal/readback.h"

gboolean bs_journal_replay(const char *dir, gboolean dry_run,
    BsJournalEventFn fn, void *data, BsJournalReport *rep, GError **err);

#endif
