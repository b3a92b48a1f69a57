/*
 * The event journal: mbatchd's lsb.events, done so that a crash never loses
 * an event that was acknowledged and never misreads one.
 *
 * Every change to mbatchd's state is an Event (proto/event.proto) applied by
 * state_apply().  The daemon appends each event here, calls bs_evlog_sync()
 * once per main-loop iteration (before it sleeps) and only then releases
 * replies and orders: a burst of submissions shares one fdatasync (group
 * commit, as Redis flushes its AOF in beforeSleep).
 *
 * ON-DISK FORMAT (all integers little-endian)
 *
 *   Directory (LSB_SHAREDIR/events/, given by the caller):
 *     events.<first_seq>     segments, first_seq zero-padded to 20 digits so
 *                            names sort in seq order; the newest one is
 *                            written, older ones are kept for history
 *     snapshot.<seq>         checkpoints: the state after event <seq>, as
 *                            events (the name predates "checkpoint")
 *     *.tmp                  a file being written; ignored when reading
 *     *.damaged              a file salvage set aside; ignored when reading
 *
 *   File header, 40 bytes, at the start of segments and checkpoints:
 *     0   char[8] magic       "BSEVLOG\0"
 *     8   u32     version     BS_EVLOG_VERSION (segments), BS_CKPT_VERSION
 *                             (checkpoints); a reader refuses a newer one
 *     12  u32     kind        1 = segment, 2 = checkpoint
 *     16  u64     generation  segments: 1 for the first, +1 per new segment
 *                             (a stale file from another journal shows up as
 *                             a generation that goes backwards);
 *                             checkpoints: 0
 *     24  u64     first_seq   segment: seq of its first record;
 *                             checkpoint: the seq the state is taken after
 *     32  u32     flags       BS_EVLOG_F_SALVAGED: a seq gap before this
 *                             segment was accepted by an operator (salvage)
 *     36  u32     crc32c      of bytes 0..35
 *
 *   Record, after the header, one per event, back to back:
 *     u32 length   of the payload, 1 .. BS_EVLOG_MAX_RECORD
 *     u32 crc32c   of the payload
 *     payload      Basalt__Event, protobuf-packed
 *   In a segment, record seqs are consecutive: first_seq, first_seq + 1, ...
 *   and the next segment's first_seq follows the previous segment's last.
 *
 *   Preallocated space: the segment being written may go on past its last
 *   record with zeros (bs_evlog_preallocate), so that appending changes no
 *   file size.  A record head of 8 zero bytes (or fewer, up to the end of
 *   the file) ends the records; it is never a record, whose length is at
 *   least 1.  A finished segment is cut back to its last record.
 *
 *   Checkpoint: header, then one record per event describing the live state
 *   (seq of those events is not interpreted), then a 24-byte footer:
 *     char[8] "BSSNEND\0" | u64 record count | u32 0 | u32 crc32c(bytes 0..19)
 *   A checkpoint without its exact footer at the exact end is not used.
 *
 * Failure model: a crash can leave a partial record at the end of the newest
 * segment only (records are appended, a segment is complete before the next
 * one is created, and new files appear by rename).  Over preallocated space
 * storage may write the blocks of that last write in any order, so a block
 * of it can read as zeros with later ones written: that too is its tail.  Recovery therefore cuts
 * a damaged tail of the newest segment and treats damage anywhere else as an
 * error an operator must look at (readback.h: check and salvage).
 */
#ifndef BS_JOURNAL_EVLOG_H
#define BS_JOURNAL_EVLOG_H

#include <glib.h>

#include "event.pb-c.h"

#define BS_EVLOG_MAGIC        "BSEVLOG"        /* with its NUL: 8 bytes */
#define BS_EVLOG_VERSION      1u
/* 2: jobs refer to environments stored once (EvEnvironment); version 1
 * checkpoints, each job with its own, are still read. */
#define BS_CKPT_VERSION       2u
#define BS_EVLOG_HEADER_SIZE  40u
#define BS_EVLOG_RECORD_HEAD  8u
#define BS_EVLOG_MAX_RECORD   (16u << 20)
#define BS_EVLOG_F_SALVAGED   0x1u
#define BS_EVLOG_DEFAULT_SEGMENT_SIZE ((guint64)64 << 20)

typedef enum {
	BS_EVLOG_SYNC_ALWAYS,   /* fdatasync at every bs_evlog_sync() (default) */
	BS_EVLOG_SYNC_NONE,     /* write only: tests and benchmarks */
} BsEvlogSyncMode;

typedef struct {
	BsEvlogSyncMode sync_mode;
	guint64 segment_size;   /* bs_evlog_should_rotate() past this size */
	guint64 prealloc_size;  /* zeros kept ahead of the records by
	                         * bs_evlog_preallocate(); 0 (the default):
	                         * a segment ends at its last record */
} BsEvlogOptions;

typedef struct BsEvlog BsEvlog;

void bs_evlog_options_init(BsEvlogOptions *opts);
/* "always" or "none"; FALSE for anything else. */
gboolean bs_evlog_sync_mode_parse(const char *name, BsEvlogSyncMode *out);

/*
 * Opens the journal in dir for appending, creating dir's first segment if
 * there is none.  Recovery (bs_journal_load) must have run first: a torn
 * tail in the newest segment makes this fail rather than append after it.
 */
BsEvlog *bs_evlog_open(const char *dir, const BsEvlogOptions *opts,
    GError **err);

/*
 * Where recovery left the newest segment (BsJournalReport.end): its
 * records were all read and checked, and what follows them is nothing or
 * zeros.  path NULL: recovery read no segment.
 */
typedef struct {
	char *path;
	guint64 generation;
	guint64 first_seq;
	guint64 next_seq;       /* the seq after its last record */
	guint64 end;            /* offset after its last record */
	guint64 size;           /* the file's size, zeros from end to here */
	guint64 dev, ino;       /* the file itself */
} BsJournalEnd;

/*
 * bs_evlog_open() continuing at the end recovery found, instead of reading
 * and checking the newest segment again; when that file is not the newest
 * segment any more, is another file by that name, or its size changed
 * since, it is read as by bs_evlog_open().
 */
BsEvlog *bs_evlog_open_at(const char *dir, const BsEvlogOptions *opts,
    const BsJournalEnd *end, GError **err);
/* Closes the files; records appended but not synced are dropped. */
void bs_evlog_free(BsEvlog *log);

/* The seq the next appended event must carry. */
guint64 bs_evlog_next_seq(const BsEvlog *log);
/* The highest seq that is durable (0: none). */
guint64 bs_evlog_synced_seq(const BsEvlog *log);

/*
 * Packs ev into the commit buffer; no I/O.  Fails (and buffers nothing) if
 * ev->seq is not bs_evlog_next_seq() or the packed event is over
 * BS_EVLOG_MAX_RECORD.
 */
gboolean bs_evlog_append(BsEvlog *log, const Basalt__Event *ev, GError **err);

/*
 * Writes every buffered record with one write and makes it durable with one
 * fdatasync.  On failure (BS_ERROR_IO, with strerror) the segment is cut
 * back to what was durable before and the records stay buffered, so a later
 * call writes them again; nothing is half-written and nothing is lost.
 */
gboolean bs_evlog_sync(BsEvlog *log, GError **err);
/*
 * Drop the record appended last, while it is still buffered: the caller
 * packs an event first (so it cannot borrow freed memory) and cancels it
 * if applying it then fails.  FALSE if there is nothing to cancel (only
 * the very last append can be cancelled, once).
 */
gboolean bs_evlog_cancel_last(BsEvlog *log);

/* Records and bytes appended but not yet durable. */
void bs_evlog_pending(const BsEvlog *log, guint *n_records, gsize *n_bytes);

/* TRUE once the current segment (with what is buffered) passes the size. */
gboolean bs_evlog_should_rotate(const BsEvlog *log);

/*
 * Syncs, then starts a new segment whose first seq is bs_evlog_next_seq().
 * The caller writes the checkpoint (checkpoint.h) at bs_evlog_synced_seq()
 * before calling this.
 */
gboolean bs_evlog_rotate(BsEvlog *log, GError **err);

/*
 * With opts.prealloc_size, keeps that much zeroed space ahead of the
 * records once less than half of it is left (one write of zeros and one
 * fdatasync).  Meant for idle moments, off the path of a reply; without
 * it the syncs simply extend the file.  On failure nothing is lost.
 */
gboolean bs_evlog_preallocate(BsEvlog *log, GError **err);

/* Path of the segment being written. */
const char *bs_evlog_segment_path(const BsEvlog *log);

#endif
