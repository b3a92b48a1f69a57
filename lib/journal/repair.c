/*
 * The operator's tools: check (what is wrong, change nothing) and salvage
 * (keep every record that can still be read, make the journal loadable).
 *
 * Salvage never destroys evidence: a segment it rewrites is first kept as
 * <name>.damaged (a hard link, so it costs no space and no copy), bad
 * checkpoints are renamed aside, and the readable records are written to new
 * segments through the usual temp-file-and-rename.  A hole it cannot fill is
 * accepted explicitly, by the BS_EVLOG_F_SALVAGED flag on the segment after
 * it, so normal recovery afterwards still refuses any NEW hole.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "journal/checkpoint.h"
#include "journal/format.h"
#include "journal/readback.h"
#include "journal/repair.h"

/* A stretch of whole records with consecutive seqs, contiguous on disk. */
typedef struct {
	guint64 start, end;         /* byte range in the file */
	guint64 first_seq, last_seq;
} Run;

typedef struct {
	const BsJournalFile *f;
	BsLogHeader hdr;
	gboolean header_ok;
	GArray *runs;               /* Run */
	guint damage;               /* problems other than a torn tail */
	gboolean torn;              /* ends with bytes that hold no record */
	guint64 tail_off;           /* where those bytes start */
} SegScan;

static void
problem(BsJournalReport *rep, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
problem(BsJournalReport *rep, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(rep->problems, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

/* Adds the record at [start, end) with seq to the runs. */
static void
add_record(SegScan *s, guint64 start, guint64 end, guint64 seq)
{
	Run *last = s->runs->len ?
	    &g_array_index(s->runs, Run, s->runs->len - 1) : NULL;
	Run run = { start, end, seq, seq };

	if (last != NULL && last->end == start && last->last_seq + 1 == seq) {
		last->end = end;
		last->last_seq = seq;
	} else {
		g_array_append_val(s->runs, run);
	}
}

/*
 * Reads every record it can: after a bad one it looks for the next valid
 * record instead of stopping.  *min_seq is the last seq kept so far in the
 * whole journal; records at or below it are dropped.
 */
static gboolean
scan_records(SegScan *s, BsSegReader *r, guint64 *min_seq,
    BsJournalReport *rep, GError **err)
{
	const guint8 *p;
	guint32 len;
	BsRecResult res;
	guint64 next;

	for (;;) {
		guint64 at = r->off;

		res = bs_seg_next(r, &p, &len);
		/* Zeroed space ends a preallocated segment; data after it is
		 * looked at as after a bad record. */
		if (res == BS_REC_END && (r->off == r->size ||
		    bs_seg_zero_from(r, r->off, NULL)))
			return TRUE;
		if (res == BS_REC_IO || r->err_no != 0) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot read %s: %s",
			    r->path, g_strerror(r->err_no));
			return FALSE;
		}
		if (res == BS_REC_OK) {
			Basalt__Event *ev = bs_event_unpack(p, len);

			if (ev != NULL && ev->seq > *min_seq) {
				add_record(s, at, r->off, ev->seq);
				*min_seq = ev->seq;
				bs_event_free(ev);
				continue;
			}
			problem(rep, "%s: offset %" G_GUINT64_FORMAT ": %s", r->path, at,
			    ev ? "seq repeats or goes backwards" : "record is not an event");
			bs_event_free(ev);
			s->damage++;
			continue;
		}
		if (!bs_seg_resync(r, at + 1, *min_seq, &next)) {
			s->torn = TRUE;
			s->tail_off = at;
			problem(rep, "%s: offset %" G_GUINT64_FORMAT ": %s; %"
			    G_GUINT64_FORMAT " bytes hold no valid record", r->path,
			    at, res == BS_REC_END ? "data after zeroed space" :
			    bs_rec_result_str(res), r->size - at);
			return TRUE;
		}
		problem(rep, "%s: offset %" G_GUINT64_FORMAT ": %s; %"
		    G_GUINT64_FORMAT " bytes skipped to the next valid record",
		    r->path, at, res == BS_REC_END ? "data after zeroed space" :
		    bs_rec_result_str(res), next - at);
		s->damage++;
		r->off = next;
	}
}

static gboolean
scan_segment(SegScan *s, const BsJournalFile *f, guint64 *min_seq,
    BsJournalReport *rep, GError **err)
{
	BsSegReader r;
	BsHdrResult hres;
	GError *e = NULL;
	gboolean ok = TRUE;

	memset(s, 0, sizeof *s);
	s->f = f;
	s->runs = g_array_new(FALSE, FALSE, sizeof(Run));
	s->header_ok = bs_seg_open(&r, f->path, FALSE, &hres, &e);
	if (!s->header_ok && (hres == BS_HDR_NEWER || e->code == BS_ERROR_IO)) {
		g_propagate_error(err, e);
		bs_seg_close(&r);
		return FALSE;
	}
	if (s->header_ok && r.hdr.kind != BS_KIND_SEGMENT) {
		s->header_ok = FALSE;
		e = g_error_new(BS_ERROR, BS_ERROR_FAILED, "%s: offset 0: not a "
		    "segment file", f->path);
	}
	if (!s->header_ok) {
		problem(rep, "%s", e->message);
		g_error_free(e);
		s->damage++;
	} else {
		s->hdr = r.hdr;
	}
	if (hres != BS_HDR_SHORT)
		ok = scan_records(s, &r, min_seq, rep, err);
	else
		s->torn = TRUE;
	bs_seg_close(&r);
	rep->segments++;
	for (guint i = 0; i < s->runs->len; i++) {
		Run *run = &g_array_index(s->runs, Run, i);

		if (rep->records == 0)
			rep->first_seq = run->first_seq;
		rep->records += run->last_seq - run->first_seq + 1;
		rep->last_seq = run->last_seq;
	}
	return ok;
}

static void
segscan_clear(SegScan *s)
{
	g_clear_pointer(&s->runs, g_array_unref);
}

/* Checkpoints are checked whole; the newest valid seq is returned. */
static gboolean
scan_checkpoints(GPtrArray *ckpts, gboolean set_aside, guint64 *newest,
    BsJournalReport *rep, GError **err)
{
	*newest = 0;
	for (guint i = 0; i < ckpts->len; i++) {
		BsJournalFile *f = g_ptr_array_index(ckpts, i);
		GError *e = NULL;
		gboolean fatal;
		guint64 seq;

		if (bs_checkpoint_verify(f->path, &seq, NULL, &fatal, &e)) {
			*newest = MAX(*newest, seq);
			continue;
		}
		if (fatal) {
			g_propagate_error(err, e);
			return FALSE;
		}
		problem(rep, "%s%s", e->message, set_aside ? " (set aside)" : "");
		g_error_free(e);
		if (set_aside) {
			g_autofree char *to = g_strconcat(f->path, ".damaged", NULL);

			if (rename(f->path, to) < 0) {
				g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot rename %s: %s",
				    f->path, g_strerror(errno));
				return FALSE;
			}
		}
	}
	return TRUE;
}

/*
 * Reports holes between segments: the ones recovery would refuse are those
 * after the newest valid checkpoint and not already accepted by salvage.
 */
static gboolean
gap_blocks(const SegScan *s, guint64 prev_last, guint64 ckpt_seq)
{
	guint64 first;

	if (s->header_ok)
		first = s->hdr.first_seq;
	else if (s->runs->len > 0)
		first = g_array_index(s->runs, Run, 0).first_seq;
	else
		return FALSE;
	if (first <= prev_last + 1 || first <= ckpt_seq + 1)
		return FALSE;
	return !(s->header_ok && (s->hdr.flags & BS_EVLOG_F_SALVAGED));
}

gboolean
bs_journal_check(const char *dir, BsJournalReport *rep, GError **err)
{
	GPtrArray *segs, *ckpts;
	BsJournalReport dry;
	guint64 min_seq = 0, ckpt_seq = 0, prev_last = 0;
	gboolean ok;

	if (!bs_journal_list(dir, &segs, &ckpts, err))
		return FALSE;
	ok = scan_checkpoints(ckpts, FALSE, &ckpt_seq, rep, err);
	for (guint i = 0; ok && i < segs->len; i++) {
		SegScan s;

		ok = scan_segment(&s, g_ptr_array_index(segs, i), &min_seq, rep, err);
		if (ok && gap_blocks(&s, prev_last, ckpt_seq))
			problem(rep, "%s: seq gap: events after %" G_GUINT64_FORMAT
			    " are missing before it", s.f->path, prev_last);
		prev_last = min_seq;
		segscan_clear(&s);
	}
	g_ptr_array_unref(segs);
	g_ptr_array_unref(ckpts);
	if (!ok)
		return FALSE;
	/* The verdict: would recovery go through?  Same code, changing nothing. */
	bs_journal_report_init(&dry);
	ok = bs_journal_replay(dir, TRUE, NULL, NULL, &dry, err);
	rep->checkpoint_seq = dry.checkpoint_seq;
	rep->checkpoint_path = g_strdup(dry.checkpoint_path);
	bs_journal_report_clear(&dry);
	return ok;
}

/* Sets the SALVAGED flag in a segment's header, in place. */
static gboolean
accept_gap(const SegScan *s, BsJournalReport *rep, GError **err)
{
	BsLogHeader h = s->hdr;
	guint8 buf[BS_EVLOG_HEADER_SIZE];
	int fd = open(s->f->path, O_WRONLY | O_CLOEXEC);
	int r;

	h.flags |= BS_EVLOG_F_SALVAGED;
	bs_header_encode(&h, buf);
	r = fd < 0 ? -errno : bs_pwrite_all(fd, buf, sizeof buf, 0);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (fd >= 0)
		close(fd);
	if (r < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot mark %s: %s",
		    s->f->path, g_strerror(-r));
		return FALSE;
	}
	problem(rep, "%s: the seq gap before it is accepted", s->f->path);
	return TRUE;
}

/* The newest segment ends in a partial write: cut it, as recovery would. */
static gboolean
cut_torn_tail(const SegScan *s, BsJournalReport *rep, GError **err)
{
	int fd = open(s->f->path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || ftruncate(fd, (off_t)s->tail_off) < 0 || fsync(fd) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot cut %s: %s",
		    s->f->path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return FALSE;
	}
	close(fd);
	rep->dropped_bytes += s->f->size - s->tail_off;
	g_free(rep->dropped_path);
	rep->dropped_path = g_strdup(s->f->path);
	problem(rep, "%s: cut at offset %" G_GUINT64_FORMAT, s->f->path,
	    s->tail_off);
	return TRUE;
}

/* Keeps the original under a free "<path>.damaged[.N]" name (hard link). */
static char *
keep_original(const char *path, GError **err)
{
	for (int n = 0; n < 100; n++) {
		char *to = n == 0 ? g_strconcat(path, ".damaged", NULL) :
		    g_strdup_printf("%s.damaged.%d", path, n);

		if (link(path, to) == 0)
			return to;
		if (errno != EEXIST) {
			g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot keep %s as %s: %s",
			    path, to, g_strerror(errno));
			g_free(to);
			return NULL;
		}
		g_free(to);
	}
	g_set_error(err, BS_ERROR, BS_ERROR_FAILED, "too many damaged copies of %s",
	    path);
	return NULL;
}

/* Writes one run as a segment of its own, flagged as salvaged. */
static gboolean
write_run(const SegScan *s, int fd, const Run *run, guint64 gen,
    const char *dir, GError **err)
{
	BsLogHeader h = { BS_EVLOG_VERSION, BS_KIND_SEGMENT, gen, run->first_seq,
	    BS_EVLOG_F_SALVAGED };
	gsize len = BS_EVLOG_HEADER_SIZE + (gsize)(run->end - run->start);
	guint8 *buf = g_malloc(len);
	g_autofree char *path = bs_file_name(dir, "events", run->first_seq);
	ssize_t got;
	gboolean ok;

	bs_header_encode(&h, buf);
	got = pread(fd, buf + BS_EVLOG_HEADER_SIZE, len - BS_EVLOG_HEADER_SIZE,
	    (off_t)run->start);
	if (got != (ssize_t)(len - BS_EVLOG_HEADER_SIZE)) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot read %s: %s",
		    s->f->path, got < 0 ? g_strerror(errno) : "file shrank");
		g_free(buf);
		return FALSE;
	}
	ok = bs_write_file_atomic(dir, path, buf, len, err);
	g_free(buf);
	return ok;
}

/*
 * Replaces a damaged segment by one segment per run of readable records.
 * The run that starts at the original's seq replaces it by rename; if there
 * is none, the original name is removed (its bytes live on in .damaged).
 */
static gboolean
rewrite_segment(const SegScan *s, guint64 gen, BsJournalReport *rep,
    GError **err)
{
	g_autofree char *dir = g_path_get_dirname(s->f->path);
	g_autofree char *kept = keep_original(s->f->path, err);
	gboolean replaced = FALSE, ok = TRUE;
	guint64 kept_records = 0;
	int fd;

	if (kept == NULL)
		return FALSE;
	fd = open(kept, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot read %s: %s", kept,
		    g_strerror(errno));
		return FALSE;
	}
	for (guint i = 0; ok && i < s->runs->len; i++) {
		const Run *run = &g_array_index(s->runs, Run, i);

		ok = write_run(s, fd, run, gen, dir, err);
		replaced |= run->first_seq == s->f->seq;
		kept_records += run->last_seq - run->first_seq + 1;
	}
	close(fd);
	if (ok && !replaced && unlink(s->f->path) < 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot remove %s: %s",
		    s->f->path, g_strerror(errno));
		ok = FALSE;
	}
	if (ok)
		ok = bs_fsync_dir(dir, err);
	if (ok)
		problem(rep, "%s: rewritten as %u segment(s) with the %"
		    G_GUINT64_FORMAT " readable records; original kept as %s",
		    s->f->path, s->runs->len, kept_records, kept);
	return ok;
}

gboolean
bs_journal_salvage(const char *dir, BsJournalReport *rep, GError **err)
{
	GPtrArray *segs, *ckpts;
	guint64 min_seq = 0, ckpt_seq = 0, prev_last = 0, prev_gen = 0;
	gboolean ok;

	if (!bs_journal_list(dir, &segs, &ckpts, err))
		return FALSE;
	ok = scan_checkpoints(ckpts, TRUE, &ckpt_seq, rep, err);
	for (guint i = 0; ok && i < segs->len; i++) {
		gboolean last = i + 1 == segs->len;
		SegScan s;

		ok = scan_segment(&s, g_ptr_array_index(segs, i), &min_seq, rep, err);
		if (!ok) {
			segscan_clear(&s);
			break;
		}
		if (s.header_ok)
			prev_gen = MAX(prev_gen, s.hdr.generation);
		if (s.damage == 0 && !s.torn && gap_blocks(&s, prev_last, ckpt_seq))
			ok = accept_gap(&s, rep, err);
		else if (s.damage == 0 && s.torn && last && s.header_ok)
			ok = cut_torn_tail(&s, rep, err);
		else if (s.damage > 0 || s.torn)
			ok = rewrite_segment(&s, prev_gen, rep, err);
		prev_last = min_seq;
		segscan_clear(&s);
	}
	g_ptr_array_unref(segs);
	g_ptr_array_unref(ckpts);
	return ok;
}
