/*
 * Checkpoint files: written in one stream to snapshot.<seq>.tmp (the
 * on-disk name, format.h), made durable, then renamed, and only trusted
 * whole: a checkpoint is used only when its header, every record and the
 * footer with the record count all check out, because a checkpoint that
 * silently lacks a job is worse than none (recovery then falls back to the
 * previous checkpoint and replays more).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/crc32c.h"
#include "util/error.h"
#include "journal/checkpoint.h"
#include "journal/format.h"

#define FLUSH_AT (1u << 20)

static void
footer_encode(guint8 out[BS_CKPT_FOOTER_SIZE], guint64 count)
{
	memset(out, 0, BS_CKPT_FOOTER_SIZE);
	memcpy(out, BS_CKPT_FOOTER_MAGIC, sizeof BS_CKPT_FOOTER_MAGIC);
	bs_put64(out + 8, count);
	bs_put32(out + 20, bs_crc32c(0, out, 20));
}

static gboolean
footer_decode(const guint8 *p, guint64 *count)
{
	if (memcmp(p, BS_CKPT_FOOTER_MAGIC, sizeof BS_CKPT_FOOTER_MAGIC) != 0 ||
	    bs_get32(p + 20) != bs_crc32c(0, p, 20))
		return FALSE;
	*count = bs_get64(p + 8);
	return TRUE;
}

/* Streams header, records and footer to fd; -errno or -EFBIG on failure. */
static int
write_stream(int fd, guint64 seq, GPtrArray *events)
{
	BsLogHeader h = { BS_CKPT_VERSION, BS_KIND_CHECKPOINT, 0, seq, 0 };
	GByteArray *buf = g_byte_array_sized_new(FLUSH_AT + 4096);
	guint64 off = 0;
	int r = 0;

	g_byte_array_set_size(buf, BS_EVLOG_HEADER_SIZE);
	bs_header_encode(&h, buf->data);
	for (guint i = 0; i <= events->len && r == 0; i++) {
		if (i == events->len) {
			guint old = buf->len;

			g_byte_array_set_size(buf, old + BS_CKPT_FOOTER_SIZE);
			footer_encode(buf->data + old, events->len);
		} else if (!bs_record_append(buf, events->pdata[i], NULL)) {
			r = -EFBIG;
			break;
		}
		if (buf->len >= FLUSH_AT || i == events->len) {
			r = bs_pwrite_all(fd, buf->data, buf->len, off);
			off += buf->len;
			g_byte_array_set_size(buf, 0);
		}
	}
	g_byte_array_unref(buf);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	return r;
}

gboolean
bs_checkpoint_write(const char *dir, guint64 seq, GPtrArray *events,
    GError **err)
{
	g_autofree char *path = bs_file_name(dir, BS_CKPT_FILE_PREFIX, seq);
	g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int r;

	if (fd < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s", tmp,
		    g_strerror(errno));
		return FALSE;
	}
	r = write_stream(fd, seq, events);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		if (r == -EFBIG)
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
			    "cannot write %s: an event is over the %u-byte record "
			    "limit", path, BS_EVLOG_MAX_RECORD);
		else
			g_set_error(err, BS_ERROR, BS_ERROR_IO,
			    "cannot write %s: %s", path, g_strerror(-r));
		return FALSE;
	}
	return bs_fsync_dir(dir, err);
}

/*
 * Opens path, checks its header and footer, and leaves r reading records
 * with r->size cut to the footer.  *count is the footer's record count.
 */
static gboolean
ckpt_open(BsSegReader *r, const char *path, guint64 *count, gboolean *fatal,
    GError **err)
{
	BsHdrResult hres;
	const guint8 *f;

	*fatal = FALSE;
	if (!bs_seg_open(r, path, FALSE, &hres, err)) {
		*fatal = hres == BS_HDR_NEWER;
		return FALSE;
	}
	if (r->hdr.kind != BS_KIND_CHECKPOINT) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: offset 0: not a checkpoint file", path);
		return FALSE;
	}
	f = r->size >= BS_EVLOG_HEADER_SIZE + BS_CKPT_FOOTER_SIZE ?
	    bs_seg_peek(r, r->size - BS_CKPT_FOOTER_SIZE, BS_CKPT_FOOTER_SIZE) :
	    NULL;
	if (f == NULL || !footer_decode(f, count)) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: offset %" G_GUINT64_FORMAT ": no valid footer (torn or "
		    "damaged checkpoint)", path,
		    r->size >= BS_CKPT_FOOTER_SIZE ? r->size - BS_CKPT_FOOTER_SIZE : 0);
		return FALSE;
	}
	r->size -= BS_CKPT_FOOTER_SIZE;
	return TRUE;
}

/*
 * Walks all records; with fn set, unpacks and feeds them.  Fails on any bad
 * record or when the count is not the footer's.
 */
static gboolean
ckpt_walk(BsSegReader *r, guint64 count, BsJournalEventFn fn, void *data,
    GError **err)
{
	guint64 n = 0;
	const guint8 *p;
	guint32 len;
	BsRecResult res;
	g_autoptr(BsEventArena) arena = fn != NULL ? bs_event_arena_new() : NULL;

	while ((res = bs_seg_next(r, &p, &len)) == BS_REC_OK) {
		n++;
		if (fn != NULL) {
			Basalt__Event *ev = bs_event_arena_unpack(arena, p, len);

			if (ev == NULL) {
				g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
				    "%s: offset %" G_GUINT64_FORMAT ": record is not "
				    "an event", r->path, r->off - len - 8);
				return FALSE;
			}
			fn(ev, data);
		}
	}
	if (res != BS_REC_END || n != count) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: offset %" G_GUINT64_FORMAT ": %s (%" G_GUINT64_FORMAT
		    " of %" G_GUINT64_FORMAT " records readable)", r->path, r->off,
		    res == BS_REC_END ? "record count does not match the footer" :
		    bs_rec_result_str(res), n, count);
		return FALSE;
	}
	return TRUE;
}

gboolean
bs_checkpoint_verify(const char *path, guint64 *seq, guint64 *n_events,
    gboolean *fatal, GError **err)
{
	BsSegReader r;
	guint64 count = 0;
	gboolean ok;

	ok = ckpt_open(&r, path, &count, fatal, err) &&
	    ckpt_walk(&r, count, NULL, NULL, err);
	if (ok && seq != NULL)
		*seq = r.hdr.first_seq;
	if (ok && n_events != NULL)
		*n_events = count;
	bs_seg_close(&r);
	return ok;
}

gboolean
bs_checkpoint_load(const char *path, BsJournalEventFn fn, void *data,
    guint64 *seq, guint64 *n_events, gboolean *fatal, GError **err)
{
	BsSegReader r;
	guint64 count = 0;
	gboolean ok;

	if (!bs_checkpoint_verify(path, seq, NULL, fatal, err))
		return FALSE;
	/* Damage that appears between the two passes is a disk failing. */
	*fatal = TRUE;
	ok = ckpt_open(&r, path, &count, fatal, err) &&
	    ckpt_walk(&r, count, fn, data, err);
	*fatal = TRUE;
	if (ok && n_events != NULL)
		*n_events = count;
	bs_seg_close(&r);
	return ok;
}
