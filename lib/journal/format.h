/*
 * Internal to lib/journal: the byte-level format (evlog.h documents it) in
 * one place, so the writer, the checkpoint code, recovery and the history
 * reader cannot disagree about a header or a record.
 *
 * BsSegReader reads one file's records through a window buffer (no mmap: the
 * daemon may truncate the file under a history reader, and a truncated
 * mapping is a SIGBUS) and classifies every way a record can be bad, so the
 * caller decides whether that is a torn tail or damage.
 */
#ifndef BS_JOURNAL_FORMAT_H
#define BS_JOURNAL_FORMAT_H

#include <glib.h>

#include "journal/evlog.h"

#define BS_KIND_SEGMENT     1u
#define BS_KIND_CHECKPOINT  2u
#define BS_CKPT_FOOTER_MAGIC "BSSNEND"
#define BS_CKPT_FOOTER_SIZE  24u
/*
 * Checkpoint files keep the name they had when the code called them
 * snapshots: journals written before the rename must still load, and
 * operators may look for the files by that name.
 */
#define BS_CKPT_FILE_PREFIX "snapshot"

typedef struct {
	guint32 version;
	guint32 kind;
	guint64 generation;
	guint64 first_seq;
	guint32 flags;
} BsLogHeader;

typedef enum {
	BS_HDR_OK,
	BS_HDR_SHORT,       /* file shorter than a header */
	BS_HDR_BAD,         /* wrong magic, kind or CRC */
	BS_HDR_NEWER,       /* a version this code does not know */
} BsHdrResult;

typedef enum {
	BS_REC_OK,
	BS_REC_END,         /* clean end of file */
	BS_REC_SHORT_HEAD,  /* fewer than 8 bytes left */
	BS_REC_SHORT_BODY,  /* length runs past the end of the file */
	BS_REC_BAD_LENGTH,  /* 0 or over BS_EVLOG_MAX_RECORD */
	BS_REC_BAD_CRC,
	BS_REC_IO,          /* read() failed; errno kept in the reader */
} BsRecResult;

typedef struct {
	int fd;
	char *path;
	guint64 size;       /* file size when opened */
	BsLogHeader hdr;
	guint64 off;        /* offset of the next record */
	int err_no;         /* errno of a BS_REC_IO */
	guint8 *buf;        /* window: bytes [buf_off, buf_off + buf_len) */
	gsize buf_cap;
	guint64 buf_off;
	gsize buf_len;
	/* Records that end at or before this offset had their CRC checked by
	 * an earlier pass over this very file (a replay's first pass, skip.h)
	 * and are not checked again; 0 (bs_seg_open): every one is. */
	guint64 checked_end;
} BsSegReader;

guint32 bs_get32(const guint8 *p);
guint64 bs_get64(const guint8 *p);
void bs_put32(guint8 *p, guint32 v);
void bs_put64(guint8 *p, guint64 v);
void bs_header_encode(const BsLogHeader *h, guint8 out[BS_EVLOG_HEADER_SIZE]);
BsHdrResult bs_header_decode(const guint8 *p, gsize len, BsLogHeader *h);
void bs_record_head(guint8 out[BS_EVLOG_RECORD_HEAD], const guint8 *payload,
    guint32 len);
/* Appends one framed record holding ev; FALSE if it is over the limit. */
gboolean bs_record_append(GByteArray *buf, const Basalt__Event *ev,
    guint32 *framed_len);

char *bs_file_name(const char *dir, const char *prefix, guint64 seq);
gboolean bs_fsync_dir(const char *dir, GError **err);
/* Writes all of len at off (retrying short writes); -errno on failure. */
int bs_pwrite_all(int fd, const void *p, gsize len, guint64 off);
/* Writes a new file atomically: .tmp, fsync, rename, fsync dir. */
gboolean bs_write_file_atomic(const char *dir, const char *path,
    const guint8 *data, gsize len, GError **err);

/*
 * Opens path and decodes its header into r->hdr.  On failure *hres says
 * why (err is set too), except for open/read errors where *hres is BS_HDR_OK
 * and err says BS_ERROR_IO.
 */
gboolean bs_seg_open(BsSegReader *r, const char *path, gboolean writable,
    BsHdrResult *hres, GError **err);
void bs_seg_close(BsSegReader *r);
/* n bytes at off, through the window; NULL if short (err_no 0) or error. */
const guint8 *bs_seg_peek(BsSegReader *r, guint64 off, gsize n);
/*
 * Preallocated segments (evlog.h): the unit a crash writes or leaves
 * unwritten.  Storage writes whole sectors, so an interrupted write leaves
 * each 512-byte block either as it was (zeros) or as it was to become.
 */
#define BS_EVLOG_BLOCK 512u

gboolean bs_all_zero(const guint8 *p, gsize n);
/*
 * TRUE if every byte from `from` to the end of the file is zero; otherwise
 * FALSE with *nonzero (if not NULL) the first byte that is not (left alone
 * on a read error, r->err_no set).
 */
gboolean bs_seg_zero_from(BsSegReader *r, guint64 from, guint64 *nonzero);
/*
 * TRUE if [from, to) holds a block a crash left unwritten: zeros from a
 * block boundary (or from `from`) to the end of that block.
 */
gboolean bs_seg_zero_block(BsSegReader *r, guint64 from, guint64 to);
/*
 * Where the zeroed space at the end of a preallocated file begins: the
 * first of the whole zero blocks that run to its end, at or after `from`
 * (the file's size if there are none), so that what a cut drops can be
 * told in bytes that held something.
 */
guint64 bs_seg_zero_tail(BsSegReader *r, guint64 from);
/*
 * Reads the record at r->off; on BS_REC_OK advances r->off past it.  A
 * record head of zeros (or zeros to the end of the file, if fewer than a
 * head is left) is BS_REC_END with r->off < r->size: the zeroed space of a
 * preallocated segment, never a record (a record's length is at least 1).
 */
BsRecResult bs_seg_next(BsSegReader *r, const guint8 **payload, guint32 *len);
/*
 * Finds the first offset after `from` where a whole, valid record of an event
 * with seq > min_seq starts; FALSE if there is none up to the end.
 */
gboolean bs_seg_resync(BsSegReader *r, guint64 from, guint64 min_seq,
    guint64 *found);
const char *bs_rec_result_str(BsRecResult res);

/* The seq of a record's payload without unpacking it; FALSE if its first
 * field is not the seq. */
gboolean bs_record_seq(const guint8 *p, guint32 len, guint64 *seq);
/* Unpacks a payload; NULL if it is not an Event.  Free with bs_event_free. */
Basalt__Event *bs_event_unpack(const guint8 *p, guint32 len);
void bs_event_free(Basalt__Event *ev);

/*
 * Replay unpacks a million events one after the other and drops each right
 * after its callback.  An arena reused for every record spares a malloc and
 * a free per string and submessage (a submission's 30 environment strings
 * are 30 of each): half the allocator's work during a restart.
 */
typedef struct BsEventArena BsEventArena;

BsEventArena *bs_event_arena_new(void);
void bs_event_arena_free(BsEventArena *a);
/*
 * Unpacks a payload into the arena, forgetting the event unpacked before:
 * the result lives until the next call or bs_event_arena_free(), and is
 * not freed by the caller.  NULL if it is not an Event.
 */
Basalt__Event *bs_event_arena_unpack(BsEventArena *a, const guint8 *p,
    guint32 len);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BsEventArena, bs_event_arena_free)

#endif
