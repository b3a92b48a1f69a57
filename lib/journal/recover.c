/*
 * Recovery at start: newest whole checkpoint, then the journal after it.
 *
 * The one judgement made here is "torn tail or damage?".  A crash can only
 * leave a partial last write at the end of the newest segment, so bad bytes
 * there with no valid record after them are cut (ftruncate) and reported;
 * so are bad bytes or zeros where a block of that last write never reached
 * the disk (a preallocated segment is zeros ahead of its records); bad
 * bytes followed by valid records, bad bytes in an older segment, or a
 * seq that does not follow are something else (a disk, an editor, a bug) and
 * stop recovery with the file and offset: guessing there could replay a
 * journal with a hole in it and forget an acknowledged job.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "journal/checkpoint.h"
#include "journal/format.h"
#include "journal/readback.h"
#include "journal/repair.h"
#include "journal/skip.h"

#define SALVAGE_HINT " (the journal check and salvage can recover the " \
	"readable records)"

/* A segment as the first pass read it: its records up to end are whole
 * and their CRCs right, as long as it is the same file of the same size. */
typedef struct {
	guint64 dev, ino, size, end;
} Checked;

typedef struct {
	BsJournalEventFn fn;
	void *data;
	BsJournalReport *rep;
	guint64 skip_upto;      /* checkpoint seq: its events are already fed */
	guint64 expect;         /* seq the next segment should start at */
	gboolean seen_segment;
	guint64 prev_gen;
	gboolean dry_run;       /* check: change nothing, feed nothing */
	BsEventArena *arena;    /* the record being fed */
	const BsJournalSkip *skip;
	BsSkipSet *skip_set;    /* NULL: every record is fed */
	GArray *checked;        /* Checked: what the first pass read of each */
	guint64 seg_next;       /* seq after the last record of the segment */
} Load;

void
bs_journal_report_init(BsJournalReport *rep)
{
	memset(rep, 0, sizeof *rep);
	rep->problems = g_ptr_array_new_with_free_func(g_free);
}

void
bs_journal_report_clear(BsJournalReport *rep)
{
	g_free(rep->checkpoint_path);
	g_free(rep->dropped_path);
	g_free(rep->end.path);
	if (rep->problems != NULL)
		g_ptr_array_unref(rep->problems);
	memset(rep, 0, sizeof *rep);
}

/*
 * Feeds the newest checkpoint that is whole.  Damaged ones are passed over
 * (and reported); a newer format version is not, since the older checkpoint
 * would silently lose what the newer daemon did.
 */
static gboolean
load_checkpoint(Load *ld, GPtrArray *ckpts, GError **err)
{
	for (guint i = ckpts->len; i-- > 0;) {
		BsJournalFile *f = g_ptr_array_index(ckpts, i);
		GError *e = NULL;
		gboolean fatal = FALSE;
		guint64 seq = 0, n = 0;

		if (bs_checkpoint_load(f->path, ld->fn, ld->data, &seq, &n, &fatal,
		    &e)) {
			ld->rep->checkpoint_seq = seq;
			ld->rep->checkpoint_path = g_strdup(f->path);
			ld->rep->checkpoint_events = n;
			ld->skip_upto = seq;
			ld->expect = seq + 1;
			return TRUE;
		}
		if (fatal) {
			g_propagate_error(err, e);
			return FALSE;
		}
		g_ptr_array_add(ld->rep->problems, g_strdup_printf(
		    "%s, using an older checkpoint", e->message));
		g_error_free(e);
	}
	ld->expect = 1;
	return TRUE;
}

/* Header checks: its name, its generation, and that it follows on. */
static gboolean
check_segment_start(Load *ld, BsSegReader *r, GError **err)
{
	const BsLogHeader *h = &r->hdr;
	const char *why = NULL;

	if (h->kind != BS_KIND_SEGMENT)
		why = "not a segment file";
	else if (h->generation < ld->prev_gen)
		why = "generation goes backwards (a file from another journal?)";
	else if (h->first_seq > ld->expect && !(h->flags & BS_EVLOG_F_SALVAGED))
		why = "seq gap before this segment (events are missing)";
	else if (h->first_seq < ld->expect && ld->seen_segment)
		why = "segment overlaps the previous one";
	if (why == NULL)
		return TRUE;
	g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
	    "%s: offset 0: %s: it starts at seq %" G_GUINT64_FORMAT ", seq %"
	    G_GUINT64_FORMAT " was expected" SALVAGE_HINT, r->path, why,
	    h->first_seq, ld->expect);
	return FALSE;
}

static void
count_record(Load *ld, guint64 seq)
{
	if (ld->rep->records++ == 0)
		ld->rep->first_seq = seq;
	ld->rep->last_seq = seq;
}

/* A record of a job cleaned later: told, not unpacked (skip.h). */
static gboolean
skip_record(Load *ld, const guint8 *p, guint32 len, guint64 seq)
{
	BsRecPeek pk;
	g_autofree char *queue = NULL;

	if (ld->skip_set == NULL || seq <= ld->skip_upto ||
	    !bs_skip_set_skips(ld->skip_set, seq, p, len, &pk))
		return FALSE;
	if (pk.queue != NULL)
		queue = g_strndup((const char *)pk.queue, pk.queue_len);
	ld->skip->skipped(&pk, queue, ld->data);
	ld->rep->skipped++;
	count_record(ld, seq);
	return TRUE;
}

static gboolean
feed_record(Load *ld, BsSegReader *r, const guint8 *p, guint32 len,
    guint64 seq, GError **err)
{
	Basalt__Event *ev;
	guint64 off = r->off - len - BS_EVLOG_RECORD_HEAD;

	if (skip_record(ld, p, len, seq))
		return TRUE;
	ev = bs_event_arena_unpack(ld->arena, p, len);

	if (ev == NULL || ev->seq != seq) {
		g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
		    "%s: offset %" G_GUINT64_FORMAT ": %s (seq %" G_GUINT64_FORMAT
		    " expected)" SALVAGE_HINT, r->path, off,
		    ev == NULL ? "record is not an event" : "seq out of order", seq);
		return FALSE;
	}
	if (seq > ld->skip_upto) {
		if (ld->fn != NULL)
			ld->fn(ev, ld->data);
		count_record(ld, seq);
	}
	return TRUE;
}

/*
 * Cuts the newest segment back to its last whole record.  The bytes
 * dropped are counted without the zeroed space of a preallocated segment.
 */
static gboolean
cut_tail(Load *ld, BsSegReader *r, GError **err)
{
	guint64 torn = bs_seg_zero_tail(r, r->off) - r->off;

	if (ld->dry_run) {
		g_ptr_array_add(ld->rep->problems, g_strdup_printf("%s: offset %"
		    G_GUINT64_FORMAT ": torn tail of %" G_GUINT64_FORMAT " bytes "
		    "(recovery will cut it)", r->path, r->off, torn));
		return TRUE;
	}
	if (ftruncate(r->fd, (off_t)r->off) < 0 || fsync(r->fd) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO,
		    "cannot cut the torn tail of %s at offset %" G_GUINT64_FORMAT
		    ": %s", r->path, r->off, g_strerror(errno));
		return FALSE;
	}
	ld->rep->dropped_bytes += torn;
	g_free(ld->rep->dropped_path);
	ld->rep->dropped_path = g_strdup(r->path);
	return TRUE;
}

/* The records after the header; decides torn tail against damage. */
static gboolean
load_records(Load *ld, BsSegReader *r, gboolean last, GError **err)
{
	guint64 seq = r->hdr.first_seq;
	const guint8 *p;
	guint32 len;
	BsRecResult res;
	guint64 next_good;

	while ((res = bs_seg_next(r, &p, &len)) == BS_REC_OK) {
		if (!feed_record(ld, r, p, len, seq, err))
			return FALSE;
		seq++;
	}
	ld->seg_next = seq;
	ld->expect = MAX(ld->expect, seq);
	/* The end, or the zeroed space of a preallocated segment after it. */
	if (res == BS_REC_END && (r->off == r->size ||
	    bs_seg_zero_from(r, r->off, &next_good)))
		return TRUE;
	if (res == BS_REC_IO || r->err_no != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot read %s: %s",
		    r->path, g_strerror(r->err_no));
		return FALSE;
	}
	/*
	 * What follows a bad record or zeroed space is the write a crash
	 * interrupted (never acknowledged: the reply waits for the sync) when
	 * nothing valid follows, or when a block of it was left unwritten:
	 * storage writes whole blocks, in any order, so the later blocks of
	 * that write may be on disk and an earlier one not.
	 */
	if (res != BS_REC_END &&
	    !bs_seg_resync(r, r->off + 1, seq - 1, &next_good))
		next_good = r->size;
	if (last && (next_good == r->size ||
	    bs_seg_zero_block(r, r->off, next_good)))
		return cut_tail(ld, r, err);
	g_set_error(err, BS_ERROR, BS_ERROR_FAILED,
	    "%s: offset %" G_GUINT64_FORMAT ": %s, %s" SALVAGE_HINT, r->path,
	    r->off, res == BS_REC_END ? "data after zeroed space" :
	    bs_rec_result_str(res), last ? "and valid records follow it" :
	    "in a segment that is not the newest");
	return FALSE;
}

/* The newest segment read to its end (and cut there if it was torn), for
 * the writer to continue without reading it again (bs_evlog_open_at). */
static void
note_end(Load *ld, BsSegReader *r)
{
	BsJournalEnd *e = &ld->rep->end;
	struct stat st;

	if (fstat(r->fd, &st) != 0)
		return;
	g_free(e->path);
	e->path = g_strdup(r->path);
	e->generation = r->hdr.generation;
	e->first_seq = r->hdr.first_seq;
	e->next_seq = ld->seg_next;
	e->end = r->off;
	e->size = (guint64)st.st_size;
	e->dev = (guint64)st.st_dev;
	e->ino = (guint64)st.st_ino;
}

/* Each record's CRC is checked once: by the first pass, if it read this
 * file as it is now, else here. */
static void
trust_checked(Load *ld, BsSegReader *r, guint i)
{
	const Checked *c;
	struct stat st;

	if (ld->checked == NULL || i >= ld->checked->len)
		return;
	c = &g_array_index(ld->checked, Checked, i);
	if (c->end > 0 && fstat(r->fd, &st) == 0 &&
	    (guint64)st.st_dev == c->dev && (guint64)st.st_ino == c->ino &&
	    (guint64)st.st_size == c->size && r->size == c->size)
		r->checked_end = c->end;
}

static gboolean
load_segment(Load *ld, const BsJournalFile *f, gboolean last, guint i,
    GError **err)
{
	BsSegReader r;
	BsHdrResult hres;
	g_autofree char *dir = NULL;
	gboolean ok;

	if (!bs_seg_open(&r, f->path, last, &hres, err)) {
		bs_seg_close(&r);
		if (hres != BS_HDR_SHORT || !last)
			return FALSE;
		/* Created by rename, so only outside damage tears a header. */
		g_clear_error(err);
		if (ld->dry_run) {
			g_ptr_array_add(ld->rep->problems, g_strdup_printf("%s: torn "
			    "header (recovery will remove the file)", f->path));
			return TRUE;
		}
		if (unlink(f->path) < 0) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot remove %s: %s",
			    f->path, g_strerror(errno));
			return FALSE;
		}
		ld->rep->dropped_bytes += f->size;
		g_free(ld->rep->dropped_path);
		ld->rep->dropped_path = g_strdup(f->path);
		dir = g_path_get_dirname(f->path);
		return bs_fsync_dir(dir, err);
	}
	trust_checked(ld, &r, i);
	ok = check_segment_start(ld, &r, err) && load_records(ld, &r, last, err);
	if (ok && last && !ld->dry_run)
		note_end(ld, &r);
	ld->seen_segment = TRUE;
	ld->prev_gen = r.hdr.generation;
	ld->rep->segments++;
	bs_seg_close(&r);
	return ok;
}

/* Index of the first segment holding seq `from` (or starting after it). */
static guint
first_needed(GPtrArray *segs, guint64 from)
{
	guint i0 = 0;

	for (guint i = 0; i < segs->len; i++)
		if (((BsJournalFile *)g_ptr_array_index(segs, i))->seq <= from)
			i0 = i;
	return i0;
}

/* Salvage into its own report, keeping only what it did. */
static gboolean
salvage_first(const char *dir, BsJournalReport *rep, GError **err)
{
	BsJournalReport srep;
	gboolean ok;

	bs_journal_report_init(&srep);
	ok = bs_journal_salvage(dir, &srep, err);
	for (guint i = 0; i < srep.problems->len; i++)
		g_ptr_array_add(rep->problems, g_strdup(srep.problems->pdata[i]));
	rep->dropped_bytes += srep.dropped_bytes;
	if (srep.dropped_path != NULL)
		rep->dropped_path = g_strdup(srep.dropped_path);
	bs_journal_report_clear(&srep);
	return ok;
}

/*
 * The first pass (skip.h): every whole record after the checkpoint, read
 * without unpacking.  It stops quietly where a record is not whole; the
 * replay after it decides what that is, and reads only what this pass
 * read, or less.
 */
static void
scan_segments(Load *ld, GPtrArray *segs, guint i0)
{
	ld->checked = g_array_new(FALSE, TRUE, sizeof(Checked));
	for (guint i = i0; i < segs->len; i++) {
		const BsJournalFile *f = g_ptr_array_index(segs, i);
		BsSegReader r;
		BsHdrResult hres;
		const guint8 *p;
		guint32 len;
		guint64 seq;
		BsRecResult res = BS_REC_END;

		Checked c = { 0 };
		struct stat st;

		if (bs_seg_open(&r, f->path, FALSE, &hres, NULL)) {
			while ((res = bs_seg_next(&r, &p, &len)) == BS_REC_OK)
				if (!bs_record_seq(p, len, &seq) || seq > ld->skip_upto)
					bs_skip_set_scan(ld->skip_set, p, len);
			if (fstat(r.fd, &st) == 0) {
				c.dev = (guint64)st.st_dev;
				c.ino = (guint64)st.st_ino;
				c.size = (guint64)st.st_size;
				c.end = r.off;
			}
		}
		g_array_append_val(ld->checked, c);
		bs_seg_close(&r);
		if (res != BS_REC_END)
			break;
	}
	/* Asked only now: the caller may walk its whole state to answer. */
	bs_skip_set_done(ld->skip_set, bs_skip_set_any(ld->skip_set) ?
	    ld->skip->horizon(ld->data) : 0);
}

static gboolean
replay(const char *dir, gboolean dry_run, BsJournalEventFn fn,
    const BsJournalSkip *skip, void *data, BsJournalReport *rep, GError **err)
{
	Load ld = { .fn = fn, .data = data, .rep = rep, .dry_run = dry_run,
	    .skip = skip };
	GPtrArray *segs, *ckpts;
	gboolean ok;
	guint i0;

	if (!bs_journal_list(dir, &segs, &ckpts, err))
		return FALSE;
	ld.arena = bs_event_arena_new();
	ok = load_checkpoint(&ld, ckpts, err);
	i0 = first_needed(segs, ld.expect);
	if (ok && skip != NULL && fn != NULL && !dry_run) {
		ld.skip_set = bs_skip_set_new();
		scan_segments(&ld, segs, i0);
	}
	for (guint i = i0; ok && i < segs->len; i++)
		ok = load_segment(&ld, g_ptr_array_index(segs, i),
		    i + 1 == segs->len, i - i0, err);
	bs_skip_set_free(ld.skip_set);
	if (ld.checked != NULL)
		g_array_unref(ld.checked);
	bs_event_arena_free(ld.arena);
	g_ptr_array_unref(segs);
	g_ptr_array_unref(ckpts);
	return ok;
}

gboolean
bs_journal_load(const char *dir, BsJournalLoadFlags flags,
    BsJournalEventFn fn, void *data, BsJournalReport *rep, GError **err)
{
	if ((flags & BS_JOURNAL_LOAD_SALVAGE) && !salvage_first(dir, rep, err))
		return FALSE;
	return replay(dir, FALSE, fn, NULL, data, rep, err);
}

gboolean
bs_journal_load_skip(const char *dir, BsJournalLoadFlags flags,
    BsJournalEventFn fn, const BsJournalSkip *skip, void *data,
    BsJournalReport *rep, GError **err)
{
	if ((flags & BS_JOURNAL_LOAD_SALVAGE) && !salvage_first(dir, rep, err))
		return FALSE;
	return replay(dir, FALSE, fn, skip, data, rep, err);
}

/* Shared by load and check (dry_run: fn is NULL and nothing is changed). */
gboolean
bs_journal_replay(const char *dir, gboolean dry_run, BsJournalEventFn fn,
    void *data, BsJournalReport *rep, GError **err)
{
	return replay(dir, dry_run, fn, NULL, data, rep, err);
}
