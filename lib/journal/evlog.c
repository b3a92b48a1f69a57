/*
 * The journal writer.  One writer, in the daemon's main loop: append() only
 * packs into a buffer, sync() does the single write and the single fdatasync
 * for everything buffered (group commit).  The file is written with pwrite at
 * the durable end rather than O_APPEND, so that a failed or short write can
 * be cut back (ftruncate) to exactly what was durable: the records stay in
 * the buffer and the next sync writes them again, in the same place.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "journal/format.h"
#include "journal/readback.h"

struct BsEvlog {
	char *dir;
	BsEvlogOptions opts;
	char *path;             /* current segment */
	int fd;
	guint64 generation;
	guint64 first_seq;      /* of the current segment */
	guint64 size;           /* durable bytes of the current segment */
	guint64 zeroed_end;     /* the file's size: zeros from size to here */
	guint64 next_seq;
	GByteArray *buf;        /* framed records not yet durable */
	guint n_pending;
	guint last_len;         /* length of the last record in buf */
	gboolean broken;        /* a failed write could not be cut back */
};

void
bs_evlog_options_init(BsEvlogOptions *opts)
{
	opts->sync_mode = BS_EVLOG_SYNC_ALWAYS;
	opts->segment_size = BS_EVLOG_DEFAULT_SEGMENT_SIZE;
	opts->prealloc_size = 0;
}

gboolean
bs_evlog_sync_mode_parse(const char *name, BsEvlogSyncMode *out)
{
	if (g_strcmp0(name, "always") == 0)
		*out = BS_EVLOG_SYNC_ALWAYS;
	else if (g_strcmp0(name, "none") == 0)
		*out = BS_EVLOG_SYNC_NONE;
	else
		return FALSE;
	return TRUE;
}

/* Creates an empty segment starting at seq and makes it the current one. */
static gboolean
start_segment(BsEvlog *log, guint64 seq, guint64 generation, GError **err)
{
	BsLogHeader h = { BS_EVLOG_VERSION, BS_KIND_SEGMENT, generation, seq, 0 };
	guint8 hdr[BS_EVLOG_HEADER_SIZE];
	char *path = bs_file_name(log->dir, "events", seq);
	int fd;

	bs_header_encode(&h, hdr);
	if (!bs_write_file_atomic(log->dir, path, hdr, sizeof hdr, err)) {
		g_free(path);
		return FALSE;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot open %s: %s", path,
		    g_strerror(errno));
		g_free(path);
		return FALSE;
	}
	if (log->fd >= 0)
		close(log->fd);
	g_free(log->path);
	log->fd = fd;
	log->path = path;
	log->generation = generation;
	log->first_seq = seq;
	log->size = BS_EVLOG_HEADER_SIZE;
	log->zeroed_end = BS_EVLOG_HEADER_SIZE;
	return TRUE;
}

/*
 * Continues the newest segment: every record must be whole, since appending
 * after a torn one would bury it in the middle of the journal.
 */
static gboolean
resume_segment(BsEvlog *log, const BsJournalFile *f, GError **err)
{
	BsSegReader r;
	BsHdrResult hres;
	BsRecResult res;
	const guint8 *p;
	guint32 len;
	guint64 n = 0;

	if (!bs_seg_open(&r, f->path, TRUE, &hres, err)) {
		bs_seg_close(&r);
		return FALSE;
	}
	while ((res = bs_seg_next(&r, &p, &len)) == BS_REC_OK)
		n++;
	/* Zeros after the records (a preallocated segment) are no tear. */
	if (res == BS_REC_END && r.off < r.size &&
	    !bs_seg_zero_from(&r, r.off, NULL))
		res = BS_REC_BAD_LENGTH;
	if (res != BS_REC_END || r.hdr.kind != BS_KIND_SEGMENT) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: offset %" G_GUINT64_FORMAT ": %s; recover the journal "
		    "before writing to it", f->path, r.off,
		    res == BS_REC_END ? "not a segment" : bs_rec_result_str(res));
		bs_seg_close(&r);
		return FALSE;
	}
	log->fd = r.fd;
	r.fd = -1;
	log->path = g_strdup(f->path);
	log->generation = r.hdr.generation;
	log->first_seq = r.hdr.first_seq;
	log->size = r.off;
	log->zeroed_end = r.size;
	log->next_seq = r.hdr.first_seq + n;
	bs_seg_close(&r);
	return TRUE;
}

/*
 * Continues the newest segment where recovery found its end: the same
 * file (its name, device and inode) with the size recovery left it.
 * FALSE (without err) when it is not: it is then read again.
 */
static gboolean
resume_at(BsEvlog *log, const BsJournalEnd *e)
{
	struct stat st;
	int fd = open(e->path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return FALSE;
	if (fstat(fd, &st) != 0 || (guint64)st.st_size != e->size ||
	    (guint64)st.st_dev != e->dev || (guint64)st.st_ino != e->ino ||
	    e->end < BS_EVLOG_HEADER_SIZE || e->end > e->size) {
		close(fd);
		return FALSE;
	}
	log->fd = fd;
	log->path = g_strdup(e->path);
	log->generation = e->generation;
	log->first_seq = e->first_seq;
	log->size = e->end;
	log->zeroed_end = e->size;
	log->next_seq = e->next_seq;
	return TRUE;
}

static gboolean
open_files(BsEvlog *log, const BsJournalEnd *end, GError **err)
{
	GPtrArray *segs = NULL, *ckpts = NULL;
	guint64 ckpt_next = 1;
	gboolean ok;

	if (!bs_journal_list(log->dir, &segs, &ckpts, err))
		return FALSE;
	if (ckpts->len > 0)
		ckpt_next = ((BsJournalFile *)g_ptr_array_index(ckpts,
		    ckpts->len - 1))->seq + 1;
	if (segs->len == 0) {
		ok = start_segment(log, ckpt_next, 1, err);
	} else {
		const BsJournalFile *f = g_ptr_array_index(segs, segs->len - 1);

		ok = (end != NULL && end->path != NULL &&
		    strcmp(end->path, f->path) == 0 && resume_at(log, end)) ||
		    resume_segment(log, f, err);
		/* Segments lost behind a checkpoint: continue after it. */
		if (ok && log->next_seq < ckpt_next)
			ok = start_segment(log, ckpt_next, log->generation + 1, err);
	}
	if (ok)
		log->next_seq = MAX(log->next_seq, log->first_seq);
	g_ptr_array_unref(segs);
	g_ptr_array_unref(ckpts);
	return ok;
}

BsEvlog *
bs_evlog_open(const char *dir, const BsEvlogOptions *opts, GError **err)
{
	return bs_evlog_open_at(dir, opts, NULL, err);
}

BsEvlog *
bs_evlog_open_at(const char *dir, const BsEvlogOptions *opts,
    const BsJournalEnd *end, GError **err)
{
	BsEvlog *log = g_new0(BsEvlog, 1);

	log->dir = g_strdup(dir);
	log->fd = -1;
	if (opts != NULL)
		log->opts = *opts;
	else
		bs_evlog_options_init(&log->opts);
	log->buf = g_byte_array_new();
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s", dir,
		    g_strerror(errno));
		bs_evlog_free(log);
		return NULL;
	}
	if (!open_files(log, end, err)) {
		bs_evlog_free(log);
		return NULL;
	}
	return log;
}

void
bs_evlog_free(BsEvlog *log)
{
	if (log == NULL)
		return;
	if (log->fd >= 0)
		close(log->fd);
	g_byte_array_unref(log->buf);
	g_free(log->path);
	g_free(log->dir);
	g_free(log);
}

guint64
bs_evlog_next_seq(const BsEvlog *log)
{
	return log->next_seq;
}

guint64
bs_evlog_synced_seq(const BsEvlog *log)
{
	return log->next_seq - 1 - log->n_pending;
}

gboolean
bs_evlog_append(BsEvlog *log, const Basalt__Event *ev, GError **err)
{
	if (ev->seq != log->next_seq) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "event seq %" G_GUINT64_FORMAT " appended where the journal "
		    "expects %" G_GUINT64_FORMAT, ev->seq, log->next_seq);
		return FALSE;
	}
	guint before = log->buf->len;

	if (!bs_record_append(log->buf, ev, NULL)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "event %" G_GUINT64_FORMAT " packs to %zu bytes, over the "
		    "journal's %u-byte record limit", ev->seq,
		    basalt__event__get_packed_size(ev), BS_EVLOG_MAX_RECORD);
		return FALSE;
	}
	log->last_len = log->buf->len - before;
	log->n_pending++;
	log->next_seq++;
	return TRUE;
}

gboolean
bs_evlog_cancel_last(BsEvlog *log)
{
	if (log->n_pending == 0 || log->last_len == 0)
		return FALSE;
	g_byte_array_set_size(log->buf, log->buf->len - log->last_len);
	log->last_len = 0;
	log->n_pending--;
	log->next_seq--;
	return TRUE;
}

/*
 * A failed write or fdatasync leaves the segment in an unknown state past
 * the durable end (and after a failed fdatasync Linux may already have
 * dropped the dirty pages), so cut it back and keep the records buffered.
 */
static gboolean
sync_failed(BsEvlog *log, int e, const char *what, GError **err)
{
	log->zeroed_end = log->size;
	if (ftruncate(log->fd, (off_t)log->size) < 0) {
		log->broken = TRUE;
		g_set_error(err, BS_ERROR, BS_ERROR_IO,
		    "cannot %s the event journal %s: %s, and cannot cut it back "
		    "to its last durable record: %s; restart to recover it", what,
		    log->path, g_strerror(e), g_strerror(errno));
		return FALSE;
	}
	g_set_error(err, BS_ERROR, BS_ERROR_IO,
	    "cannot %s the event journal %s: %s (%u events kept in memory, "
	    "not yet durable)", what, log->path, g_strerror(e), log->n_pending);
	return FALSE;
}

gboolean
bs_evlog_sync(BsEvlog *log, GError **err)
{
	int r;

	if (log->broken) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO,
		    "the event journal %s is in an unknown state after a failed "
		    "write; restart to recover it", log->path);
		return FALSE;
	}
	if (log->buf->len == 0)
		return TRUE;
	r = bs_pwrite_all(log->fd, log->buf->data, log->buf->len, log->size);
	if (r < 0)
		return sync_failed(log, -r, "write", err);
	if (log->opts.sync_mode == BS_EVLOG_SYNC_ALWAYS && fdatasync(log->fd) < 0)
		return sync_failed(log, errno, "sync", err);
	log->size += log->buf->len;
	log->zeroed_end = MAX(log->zeroed_end, log->size);
	g_byte_array_set_size(log->buf, 0);
	log->last_len = 0;
	log->n_pending = 0;
	return TRUE;
}

void
bs_evlog_pending(const BsEvlog *log, guint *n_records, gsize *n_bytes)
{
	if (n_records != NULL)
		*n_records = log->n_pending;
	if (n_bytes != NULL)
		*n_bytes = log->buf->len;
}

gboolean
bs_evlog_should_rotate(const BsEvlog *log)
{
	return log->size + log->buf->len >= log->opts.segment_size;
}

gboolean
bs_evlog_rotate(BsEvlog *log, GError **err)
{
	if (!bs_evlog_sync(log, err))
		return FALSE;
	if (log->next_seq == log->first_seq)
		return TRUE;    /* the current segment is still empty */
	/*
	 * A finished segment ends at its last record, as one written without
	 * preallocation does.  Not synced: should the cut not survive a crash,
	 * the zeros it would have removed read as the end all the same.
	 */
	if (log->zeroed_end > log->size &&
	    ftruncate(log->fd, (off_t)log->size) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot cut %s back to its "
		    "last record: %s", log->path, g_strerror(errno));
		return FALSE;
	}
	log->zeroed_end = log->size;
	return start_segment(log, log->next_seq, log->generation + 1, err);
}

/*
 * Writes zeros ahead of the tail and syncs them once, so that the syncs of
 * the records later written over them change no file size and no extent:
 * fdatasync then writes the data alone, without the inode (fallocate would
 * not do: its unwritten extents are converted, in the filesystem's
 * journal, at the sync of the first write into them).
 */
gboolean
bs_evlog_preallocate(BsEvlog *log, GError **err)
{
	static const guint8 zeros[64 << 10];
	guint64 need = log->size + log->buf->len + log->opts.prealloc_size / 2;
	guint64 want, off;
	int r = 0;

	if (log->opts.prealloc_size == 0 || log->broken ||
	    log->zeroed_end >= need)
		return TRUE;
	want = log->size + log->buf->len + log->opts.prealloc_size;
	want = (want + BS_EVLOG_BLOCK - 1) / BS_EVLOG_BLOCK * BS_EVLOG_BLOCK;
	for (off = log->zeroed_end; r == 0 && off < want; off += sizeof zeros)
		r = bs_pwrite_all(log->fd, zeros, MIN(sizeof zeros, want - off),
		    off);
	if (r == 0 && log->opts.sync_mode == BS_EVLOG_SYNC_ALWAYS &&
	    fdatasync(log->fd) < 0)
		r = -errno;
	if (r < 0) {
		/* Zeros read as the end: whatever was written of them is harmless,
		 * and the next sync extends the file as it would without them. */
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot preallocate %s: %s",
		    log->path, g_strerror(-r));
		return FALSE;
	}
	log->zeroed_end = want;
	return TRUE;
}

const char *
bs_evlog_segment_path(const BsEvlog *log)
{
	return log->path;
}
