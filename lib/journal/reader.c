/*
 * History for bhist and bacct: the records of every kept segment, in seq
 * order, read without the daemon and without changing anything.  The newest
 * segment may be in the middle of a write while we read it, so bad bytes at
 * its end simply end the history; anywhere else they are an error, since a
 * silently shortened history would make a job look as if it never finished.
 */
#include "config.h"

#include <string.h>

#include "util/error.h"
#include "journal/format.h"
#include "journal/readback.h"

struct BsJournalReader {
	GPtrArray *segs;
	guint idx;              /* segment being read */
	gboolean is_open;
	BsSegReader r;
	guint64 last_seq;
	guint64 skip_through;   /* records up to this seq are passed over */
	guint64 rec_off;        /* offset of the record last returned */
	char *rec_path;
};

BsJournalReader *
bs_journal_reader_open(const char *dir, guint newest_segments, GError **err)
{
	BsJournalReader *rd = g_new0(BsJournalReader, 1);
	GPtrArray *ckpts;

	if (!bs_journal_list(dir, &rd->segs, &ckpts, err)) {
		g_ptr_array_unref(rd->segs);
		g_ptr_array_unref(ckpts);
		g_free(rd);
		return NULL;
	}
	g_ptr_array_unref(ckpts);
	if (newest_segments > 0 && rd->segs->len > newest_segments)
		rd->idx = rd->segs->len - newest_segments;
	return rd;
}

/* Opens segment rd->idx; FALSE with err unset means "stop quietly". */
static gboolean
open_next(BsJournalReader *rd, GError **err)
{
	BsJournalFile *f = g_ptr_array_index(rd->segs, rd->idx);
	gboolean last = rd->idx + 1 == rd->segs->len;
	BsHdrResult hres;
	GError *e = NULL;

	if (bs_seg_open(&rd->r, f->path, FALSE, &hres, &e) &&
	    rd->r.hdr.kind == BS_KIND_SEGMENT) {
		rd->is_open = TRUE;
		return TRUE;
	}
	bs_seg_close(&rd->r);
	if (e == NULL)
		e = g_error_new(BS_ERROR, BS_ERROR_FAILED, "%s: not a segment file",
		    f->path);
	if (last && hres == BS_HDR_SHORT)
		g_error_free(e);    /* being created right now */
	else
		g_propagate_error(err, e);
	return FALSE;
}

static gboolean
stop(BsJournalReader *rd, BsRecResult res, GError **err)
{
	if (res == BS_REC_IO)
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot read %s: %s",
		    rd->r.path, g_strerror(rd->r.err_no));
	else if (rd->idx + 1 < rd->segs->len)
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s: offset %"
		    G_GUINT64_FORMAT ": %s", rd->r.path, rd->r.off,
		    bs_rec_result_str(res));
	rd->idx = rd->segs->len;
	return FALSE;
}

gboolean
bs_journal_reader_next(BsJournalReader *rd, Basalt__Event **ev, GError **err)
{
	const guint8 *p;
	guint32 len;
	BsRecResult res;

	*ev = NULL;
	for (;;) {
		if (rd->idx >= rd->segs->len)
			return FALSE;
		if (!rd->is_open && !open_next(rd, err)) {
			rd->idx = rd->segs->len;
			return FALSE;
		}
		res = bs_seg_next(&rd->r, &p, &len);
		if (res == BS_REC_END) {
			bs_seg_close(&rd->r);
			rd->is_open = FALSE;
			rd->idx++;
			continue;
		}
		if (res != BS_REC_OK)
			return stop(rd, res, err);
		/* Passed over by their seq alone: a page of history served
		 * from the middle of a segment costs no decoding before it. */
		if (rd->skip_through > 0) {
			guint64 seq;

			if (bs_record_seq(p, len, &seq) && seq > rd->last_seq &&
			    seq <= rd->skip_through) {
				rd->last_seq = seq;
				continue;
			}
		}
		*ev = bs_event_unpack(p, len);
		if (*ev == NULL || (*ev)->seq <= rd->last_seq) {
			g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "%s: offset %"
			    G_GUINT64_FORMAT ": %s", rd->r.path,
			    rd->r.off - len - BS_EVLOG_RECORD_HEAD, *ev == NULL ?
			    "record is not an event" : "seq out of order");
			g_clear_pointer(ev, bs_event_free);
			rd->idx = rd->segs->len;
			return FALSE;
		}
		rd->last_seq = (*ev)->seq;
		rd->rec_off = rd->r.off - len - BS_EVLOG_RECORD_HEAD;
		g_free(rd->rec_path);
		rd->rec_path = g_strdup(rd->r.path);
		return TRUE;
	}
}

void
bs_journal_reader_position(const BsJournalReader *rd, const char **path,
    guint64 *offset)
{
	*path = rd->rec_path;
	*offset = rd->rec_off;
}

void
bs_journal_reader_skip_through(BsJournalReader *rd, guint64 seq)
{
	rd->skip_through = seq;
}

void
bs_journal_reader_free(BsJournalReader *rd)
{
	if (rd == NULL)
		return;
	if (rd->is_open)
		bs_seg_close(&rd->r);
	g_ptr_array_unref(rd->segs);
	g_free(rd->rec_path);
	g_free(rd);
}
