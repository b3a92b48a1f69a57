/*
 * Reading the journal back: recovery at start (bs_journal_load), the admin's
 * check and salvage, the files on disk and their retention, and an iterator
 * over history for bhist and bacct.  The writer and the format are in
 * evlog.h; mbatchd's use of both is mbatchd/mbd-journal.c.
 *
 * Recovery's rule (Redis's aof-load-truncated): a damaged tail of the NEWEST
 * segment is what a crash leaves, so it is cut at the last whole record and
 * reported; damage anywhere else, or a seq gap, is not something a crash
 * does, so it stops the start with the file and offset and leaves the choice
 * to an operator (bs_journal_salvage).  None of these functions log.
 */
#ifndef BS_JOURNAL_READBACK_H
#define BS_JOURNAL_READBACK_H

#include <glib.h>

#include "event.pb-c.h"
#include "journal/evlog.h"
#include "journal/skip.h"

typedef struct {
	guint64 checkpoint_seq;     /* checkpoint used (0: none) */
	char *checkpoint_path;      /* NULL: none */
	guint64 checkpoint_events;  /* events fed from it */
	guint64 first_seq;        /* first and last journal record seen */
	guint64 last_seq;         /* (0 and 0: none) */
	guint64 records;          /* journal records fed (load) or read (check) */
	guint64 skipped;          /* of those records, passed over (skip.h) */
	BsJournalEnd end;         /* load: where the newest segment ends */
	guint segments;           /* segment files read */
	guint64 dropped_bytes;    /* torn tail cut off (load, salvage) */
	char *dropped_path;       /* the file that was cut */
	GPtrArray *problems;      /* char *: "file: offset N: what" */
} BsJournalReport;

void bs_journal_report_init(BsJournalReport *rep);
void bs_journal_report_clear(BsJournalReport *rep);

typedef void (*BsJournalEventFn)(const Basalt__Event *ev, void *data);

typedef enum {
	BS_JOURNAL_LOAD_DEFAULT = 0,
	/* Run bs_journal_salvage() first: accept losing damaged records. */
	BS_JOURNAL_LOAD_SALVAGE = 1 << 0,
} BsJournalLoadFlags;

/*
 * Feeds the newest valid checkpoint's events, then every journal record with
 * a higher seq, in order.  A torn tail of the newest segment is truncated
 * (rep->dropped_bytes says how much).  A checkpoint that is not whole is
 * passed over for the one before it (and listed in rep->problems).  Anything else
 * fails with the file and the offset.  An empty or missing dir is a new
 * journal: success with nothing fed.
 */
gboolean bs_journal_load(const char *dir, BsJournalLoadFlags flags,
    BsJournalEventFn fn, void *data, BsJournalReport *rep, GError **err);

/*
 * The same, passing over the records of jobs cleaned later in the journal
 * as skip.h says; skip's functions get data too.
 */
gboolean bs_journal_load_skip(const char *dir, BsJournalLoadFlags flags,
    BsJournalEventFn fn, const BsJournalSkip *skip, void *data,
    BsJournalReport *rep, GError **err);

/*
 * Reads every checkpoint and segment without changing anything.  Returns TRUE
 * when the journal would load without an operator's help (a torn tail is
 * fine: it is listed in rep->problems as what load would cut).
 */
gboolean bs_journal_check(const char *dir, BsJournalReport *rep, GError **err);

/*
 * Makes the journal loadable again, keeping every record that can be read:
 * a damaged segment is rewritten with its readable records (the original is
 * kept as <name>.damaged), seq gaps are accepted by marking the segment after
 * them, bad checkpoints are set aside.  Every action goes into rep->problems.
 * Refuses files of a newer format version.
 */
gboolean bs_journal_salvage(const char *dir, BsJournalReport *rep,
    GError **err);

/* The journal's files. */
typedef enum {
	BS_JOURNAL_FILE_SEGMENT,
	BS_JOURNAL_FILE_CHECKPOINT,
} BsJournalFileKind;

typedef struct {
	BsJournalFileKind kind;
	guint64 seq;              /* from the name: first seq, checkpoint seq */
	guint64 size;
	char *path;
} BsJournalFile;

/*
 * Segments and checkpoints in dir, each array sorted by seq and owning its
 * BsJournalFile elements.  A missing dir gives two empty arrays.
 */
gboolean bs_journal_list(const char *dir, GPtrArray **segments,
    GPtrArray **checkpoints, GError **err);

/*
 * Retention (lsb.events.N): deletes all but the newest keep_segments
 * segments and all but the newest two checkpoints, plus leftover *.tmp files,
 * but never a file that recovery from either kept checkpoint needs.
 */
gboolean bs_journal_prune(const char *dir, guint keep_segments,
    guint *n_deleted, GError **err);

/*
 * History: every record of the kept segments in seq order, for bhist and
 * bacct, without the daemon.  Read-only: a torn tail (perhaps a record being
 * written right now) ends the iteration quietly.  newest_segments limits the
 * reading to that many of the newest segments (bhist -n; 0: all).
 */
typedef struct BsJournalReader BsJournalReader;

BsJournalReader *bs_journal_reader_open(const char *dir,
    guint newest_segments, GError **err);
/*
 * TRUE with *ev set (free with basalt__event__free_unpacked(ev, NULL)); FALSE
 * at the end (err unset) or on damage that is not a tail (err set).
 */
gboolean bs_journal_reader_next(BsJournalReader *rd, Basalt__Event **ev,
    GError **err);
/* File and offset of the record last returned. */
void bs_journal_reader_position(const BsJournalReader *rd, const char **path,
    guint64 *offset);
/* Pass over the records up to seq without unpacking them (a cursor). */
void bs_journal_reader_skip_through(BsJournalReader *rd, guint64 seq);
void bs_journal_reader_free(BsJournalReader *rd);

#endif
